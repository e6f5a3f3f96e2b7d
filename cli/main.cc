// atomfuzz: the command-line front end. Subcommand first, then its flags and
// arguments. Flags are abseil flags, parsed here (not by absl's parser) so
// that an unknown or malformed flag exits 2 and each subcommand accepts only
// its own.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "cli/command.h"
#include "cli/flag_values.h"
#include "fuzz/runner.h"

namespace atomfuzz::cli {

int PrintVersion();  // version.cc

namespace {

// `text` in lines that fit `width` columns (a longer word alone).
std::vector<std::string> Wrap(absl::string_view text, size_t width) {
  std::vector<std::string> lines(1);
  for (absl::string_view word : absl::StrSplit(text, ' ', absl::SkipEmpty())) {
    if (!lines.back().empty() &&
        lines.back().size() + 1 + word.size() > width) {
      lines.emplace_back();
    }
    absl::StrAppend(&lines.back(), lines.back().empty() ? "" : " ", word);
  }
  return lines;
}

// `text` within 80 columns, each line after `indent` spaces.
void PrintWrapped(absl::string_view text, int indent) {
  for (const std::string& line : Wrap(text, 80 - static_cast<size_t>(indent))) {
    std::printf("%*s%s\n", indent, "", line.c_str());
  }
}

void PrintTopHelp() {
  std::printf(
      "atomfuzz: differential tester for Shader Model 5 atomics\n\n"
      "usage: atomfuzz COMMAND [FLAGS] [ARGS]\n\ncommands:\n");
  for (const Command& c : AllCommands()) {
    const std::vector<std::string> lines = Wrap(c.summary, 80 - 13);
    for (size_t i = 0; i < lines.size(); ++i) {
      std::printf("  %-10s %s\n", i == 0 ? std::string(c.name).c_str() : "",
                  lines[i].c_str());
    }
  }
  std::printf(
      "\n'atomfuzz COMMAND --help' describes one command; 'atomfuzz "
      "--version'\n"
      "names the commit and the versions of what it drives.\n"
      "Exit codes: 0 ok, 1 a check failed, 2 bad input, 3 the target, the "
      "judge\n"
      "or a write failed.\n");
}

// A flag as users spell it: words joined by dashes (underscores are
// accepted too, as abseil names them).
std::string Spelled(absl::string_view name) {
  return absl::StrReplaceAll(name, {{"_", "-"}});
}

// The targets --target may name, from the registration table.
void PrintTargets() {
  for (const targets::TargetInfo& t : fuzz::AllTargets()) {
    std::string takes;
    for (const std::string& f : t.flags) {
      absl::StrAppend(&takes, takes.empty() ? "" : ", ", "--", Spelled(f));
    }
    std::printf("        %s\n", t.usage.c_str());
    PrintWrapped(takes.empty()
                     ? t.description
                     : absl::StrCat(t.description, " (takes ", takes, ")"),
                 10);
  }
}

void PrintCommandHelp(const Command& c) {
  std::printf("usage: %s\n\n", std::string(c.usage).c_str());
  PrintWrapped(c.summary, 0);
  if (!c.flags.empty()) std::printf("\nflags:\n");
  for (absl::string_view name : c.flags) {
    const absl::CommandLineFlag* f = absl::FindCommandLineFlag(name);
    if (f == nullptr) continue;
    std::printf("  --%s (default %s)\n", Spelled(name).c_str(),
                f->DefaultValue().c_str());
    PrintWrapped(f->Help(), 6);
    if (name == "target") PrintTargets();
  }
}

bool Accepts(const Command& c, absl::string_view name) {
  for (absl::string_view f : c.flags) {
    if (f == name) return true;
  }
  return false;
}

// --name=value, --name value, --flag, --noflag; "--" ends the flags.
bool ParseArgs(const Command& c, int argc, char** argv,
               std::vector<std::string>& positional) {
  bool flags_done = false;
  for (int i = 2; i < argc; ++i) {
    std::string arg = argv[i];
    if (flags_done || arg.size() < 2 || arg[0] != '-') {
      positional.push_back(arg);
      continue;
    }
    if (arg == "--") {
      flags_done = true;
      continue;
    }
    std::string body = arg.substr(arg[1] == '-' ? 2 : 1);
    std::string name = body, value;
    const size_t eq = body.find('=');
    const bool has_value = eq != std::string::npos;
    if (has_value) {
      name = body.substr(0, eq);
      value = body.substr(eq + 1);
    }
    if (name == "o")
      name = "out";  // -o OUT, as compilers and reducers spell it
    std::replace(name.begin(), name.end(), '-',
                 '_');  // --in-place is --in_place
    const absl::CommandLineFlag* flag =
        Accepts(c, name) ? absl::FindCommandLineFlag(name) : nullptr;
    if (flag == nullptr && !has_value && absl::StartsWith(name, "no") &&
        Accepts(c, name.substr(2))) {
      flag = absl::FindCommandLineFlag(name.substr(2));
      if (flag != nullptr && flag->IsOfType<bool>()) {
        name = name.substr(2);
        value = "false";
      } else {
        flag = nullptr;
      }
    } else if (flag != nullptr && !has_value) {
      if (flag->IsOfType<bool>()) {
        value = "true";
      } else if (i + 1 < argc) {
        value = argv[++i];
      } else {
        std::fprintf(stderr, "atomfuzz %s: flag --%s expects a value\n",
                     std::string(c.name).c_str(), name.c_str());
        return false;
      }
    }
    if (flag == nullptr) {
      std::fprintf(stderr,
                   "atomfuzz %s: unknown flag '%s' (see atomfuzz %s --help)\n",
                   std::string(c.name).c_str(), arg.c_str(),
                   std::string(c.name).c_str());
      return false;
    }
    std::string error;
    if (!const_cast<absl::CommandLineFlag*>(flag)->ParseFrom(value, &error)) {
      std::fprintf(stderr, "atomfuzz %s: --%s: %s\n",
                   std::string(c.name).c_str(), name.c_str(), error.c_str());
      return false;
    }
    if (const std::string problem = FlagValueProblem(name); !problem.empty()) {
      std::fprintf(stderr, "atomfuzz %s: --%s=%s: %s\n",
                   std::string(c.name).c_str(), Spelled(name).c_str(),
                   value.c_str(), problem.c_str());
      return false;
    }
  }
  return true;
}

int Main(int argc, char** argv) {
  if (argc < 2) {
    PrintTopHelp();
    return kExitBadInput;
  }
  const std::string cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    PrintTopHelp();
    return kExitOk;
  }
  if (cmd == "--version" || cmd == "version") return PrintVersion();
  for (const Command& c : AllCommands()) {
    if (c.name != cmd) continue;
    for (int i = 2; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--") break;
      if (a == "--help" || a == "-h" || a == "-help") {
        PrintCommandHelp(c);
        return kExitOk;
      }
    }
    std::vector<std::string> args;
    if (!ParseArgs(c, argc, argv, args)) return kExitBadInput;
    return c.run(args);
  }
  std::fprintf(stderr, "atomfuzz: unknown command '%s' (see atomfuzz --help)\n",
               cmd.c_str());
  return kExitBadInput;
}

}  // namespace
}  // namespace atomfuzz::cli

int main(int argc, char** argv) { return atomfuzz::cli::Main(argc, argv); }
