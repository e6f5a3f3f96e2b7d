#include "cli/load_case.h"

#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "isa/validator.h"

namespace atomfuzz::cli {

LoadResult LoadCase(const std::string& path, bool validate, isa::Case& out,
                    std::string* text) {
  std::string bytes;
  if (!ReadFile(path, bytes)) return LoadResult::kUnreadable;
  auto parsed = isa::ParseCase(bytes, path);
  if (!parsed.ok()) {
    std::fprintf(stderr, "%s\n", std::string(parsed.status().message()).c_str());
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

bool RunOptionsFromFlags(const char* command, fuzz::RunOptions& options) {
  auto schedule = oracle::Schedule::Parse(absl::GetFlag(FLAGS_schedule));
  if (!schedule.ok()) {
    std::fprintf(stderr, "atomfuzz %s: --schedule: %s\n", command,
                 std::string(schedule.status().message()).c_str());
    return false;
  }
  options.target = absl::GetFlag(FLAGS_target);
  options.schedule = *schedule;
  return true;
}

}  // namespace atomfuzz::cli
