// atomfuzz: the command-line front end. Subcommand first, then its flags and
// arguments. Flags are abseil flags, parsed here (not by absl's parser) so
// that an unknown or malformed flag exits 2 and each subcommand accepts only
// its own.
#include <cstdio>
#include <string>
#include <vector>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/reflection.h"
#include "absl/strings/match.h"
#include "cli/command.h"

namespace atomfuzz::cli {
namespace {

void PrintTopHelp() {
  std::printf("atomfuzz: differential tester for Shader Model 5 atomics\n\n"
              "usage: atomfuzz COMMAND [FLAGS] [ARGS]\n\ncommands:\n");
  for (const Command& c : AllCommands()) {
    std::printf("  %-10s %s\n", std::string(c.name).c_str(),
                std::string(c.summary).c_str());
  }
  std::printf("\n'atomfuzz COMMAND --help' describes one command.\n"
              "Exit codes: 0 ok, 1 a check failed, 2 bad input.\n");
}

void PrintCommandHelp(const Command& c) {
  std::printf("usage: %s\n\n%s\n", std::string(c.usage).c_str(),
              std::string(c.summary).c_str());
  if (!c.flags.empty()) std::printf("\nflags:\n");
  for (absl::string_view name : c.flags) {
    const absl::CommandLineFlag* f = absl::FindCommandLineFlag(name);
    if (f == nullptr) continue;
    std::printf("  --%s (default %s)\n      %s\n", std::string(name).c_str(),
                f->DefaultValue().c_str(), f->Help().c_str());
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
    if (name == "o") name = "out";  // -o OUT, as compilers and reducers spell it
    if (name == "vk-device") name = "vk_device";
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
