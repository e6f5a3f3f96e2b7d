#include "cli/verdict_text.h"

#include <string>

namespace atomfuzz::cli {

void PrintVerdict(std::FILE* out, absl::string_view label, const oracle::Verdict& v) {
  std::fprintf(out, "%s: %s\n", std::string(label).c_str(), v.Summary().c_str());
  for (size_t i = 1; i < v.findings.size() && i < 10; ++i) {
    const oracle::Finding& f = v.findings[i];
    std::fprintf(out, "  also %s at %s: %s\n", std::string(oracle::FindingKindName(f.kind)).c_str(),
                 f.where.c_str(), f.why.c_str());
  }
}

}  // namespace atomfuzz::cli
