#include "cli/load_case.h"

#include <cstdio>

#include "absl/flags/commandlineflag.h"
#include "absl/flags/flag.h"
#include "absl/flags/reflection.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "isa/validator.h"
#include "targets/fast/fast_target.h"
#include "targets/fast/injection.h"

namespace atomfuzz::cli {

LoadResult LoadCase(const std::string& path, bool validate, isa::Case& out,
                    std::string* text) {
  std::string bytes;
  if (!ReadFile(path, bytes)) return LoadResult::kUnreadable;
  auto parsed = isa::ParseCase(bytes, path);
  if (!parsed.ok()) {
    std::fprintf(stderr, "%s\n",
                 std::string(parsed.status().message()).c_str());
    return LoadResult::kSyntaxError;
  }
  if (validate) {
    if (absl::Status s = isa::Validate(*parsed); !s.ok()) {
      std::fprintf(stderr, "%s\n", std::string(s.message()).c_str());
      return LoadResult::kInvalid;
    }
  }
  out = *std::move(parsed);
  if (text) *text = std::move(bytes);
  return LoadResult::kOk;
}

targets::TargetFlags TargetFlagsGiven() {
  targets::TargetFlags flags;
  for (const FlagRow& row : AllFlags()) {
    if (!row.for_target) continue;
    const absl::CommandLineFlag* f = absl::FindCommandLineFlag(row.name);
    if (f != nullptr && f->CurrentValue() != f->DefaultValue())
      flags[std::string(row.name)] = f->CurrentValue();
  }
  return flags;
}

bool TargetFlagsInto(fuzz::RunOptions& run) {
  run.target = absl::GetFlag(FLAGS_target);
  run.target_options.timeout_seconds = absl::GetFlag(FLAGS_timeout);
  run.target_options.flags = TargetFlagsGiven();
  return PrintInjectionsIfAsked(
      run.target_options.Flag(targets::fast::kInjectFlag));
}

bool PrintInjectionsIfAsked(const std::string& inject) {
  if (inject != "list") return false;
  for (const auto& i : targets::fast::AllInjections()) {
    std::printf("%s\n", std::string(i.name).c_str());
  }
  return true;
}

std::unique_ptr<targets::Target> TargetFromFlags(const char* command,
                                                 int& exit_code) {
  exit_code = kExitBadInput;
  fuzz::RunOptions options;
  auto schedule = oracle::Schedule::Parse(absl::GetFlag(FLAGS_schedule));
  if (!schedule.ok()) {
    std::fprintf(stderr, "atomfuzz %s: --schedule: %s\n", command,
                 std::string(schedule.status().message()).c_str());
    return nullptr;
  }
  options.schedule = *schedule;
  options.target_options.threads = absl::GetFlag(FLAGS_threads);
  options.target_options.deterministic = absl::GetFlag(FLAGS_deterministic);
  if (TargetFlagsInto(options)) {
    exit_code = kExitOk;
    return nullptr;
  }
  auto target = fuzz::MakeTarget(options);
  if (!target.ok()) {
    std::fprintf(stderr, "atomfuzz %s: %s\n", command,
                 std::string(target.status().message()).c_str());
    return nullptr;
  }
  return *std::move(target);
}

}  // namespace atomfuzz::cli
