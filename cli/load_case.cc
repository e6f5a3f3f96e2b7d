#include "cli/load_case.h"

#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "isa/validator.h"
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

bool TargetFlagsInto(fuzz::RunOptions& run) {
  run.target = absl::GetFlag(FLAGS_target);
  run.target_options.inject = absl::GetFlag(FLAGS_inject);
  run.target_options.timeout_seconds = absl::GetFlag(FLAGS_timeout);
  run.target_options.vk_device = absl::GetFlag(FLAGS_vk_device);
  return PrintInjectionsIfAsked(run.target_options.inject);
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
