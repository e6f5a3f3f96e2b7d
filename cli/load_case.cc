#include "cli/load_case.h"

#include <cstdio>

#include "cli/command.h"
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

}  // namespace atomfuzz::cli
