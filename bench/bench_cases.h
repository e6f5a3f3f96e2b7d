// Workloads the benchmarks share: straight-line shaders over one raw UAV, so
// lane instructions = threads x instructions.
#ifndef ATOMFUZZ_BENCH_BENCH_CASES_H_
#define ATOMFUZZ_BENCH_BENCH_CASES_H_

#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "isa/case_file.h"

namespace atomfuzz::bench {

// `groups` x `threads` threads running `body` on a raw u0 of `words` words.
inline isa::Case MakeCase(int groups, int threads, uint32_t words, int temps,
                          const std::string& body) {
  const std::string text = absl::StrCat(
      "[dispatch]\ngroups ", groups, ", 1, 1\n[uav u0]\nkind raw\nwords ",
      words,
      "\n[shader]\ncs_5_0\ndcl_uav_raw u0\ndcl_input vThreadID.x\ndcl_temps ",
      temps, "\ndcl_thread_group ", threads, ", 1, 1\n", body, "ret\n");
  auto c = isa::ParseCase(text, "bench.case");
  if (!c.ok()) {
    std::fprintf(stderr, "bench: bad case: %s\n",
                 std::string(c.status().message()).c_str());
    std::abort();
  }
  return *c;
}

inline std::string Repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// Instructions each thread executes (straight-line bodies).
inline int Instructions(const isa::Case& c) {
  int n = 0;
  for (const auto& i : c.shader.instructions) {
    if (i.info().family != isa::Family::kDecl) ++n;
  }
  return n;
}

}  // namespace atomfuzz::bench

#endif  // ATOMFUZZ_BENCH_BENCH_CASES_H_
