// AFL++ persistent-mode harness `atomics_afl`: the same decode, run and judge
// as atomics_fuzzer (fuzz/engines/harness.h), in afl-clang-fast's shared-memory
// persistent loop. A divergence prints the case and aborts, which AFL++
// saves under crashes/. Outside afl-fuzz it reads one input from stdin (and,
// built without afl-clang-fast, from a file argument), to replay a crash:
//   build-afl/fuzz/atomics_afl < out/default/crashes/id:000000,...
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <string>

#include "fuzz/engines/finding_abort.h"
#include "fuzz/engines/harness.h"

#ifndef __AFL_FUZZ_TESTCASE_LEN
#define ATOMFUZZ_AFL_REPLAY 1
#else
__AFL_FUZZ_INIT();
#endif

namespace {

using atomfuzz::fuzz::Harness;
using atomfuzz::fuzz::InputResult;

std::unique_ptr<Harness> MakeHarness() {
  const char* env = std::getenv("ATOMFUZZ_OPTIONS");
  auto options = atomfuzz::fuzz::ParseHarnessOptions(env ? env : "");
  if (!options.ok()) {
    std::fprintf(stderr, "atomics_afl: %s\n",
                 std::string(options.status().message()).c_str());
    std::exit(2);
  }
  auto harness = Harness::Create(*options);
  if (!harness.ok()) {
    std::fprintf(stderr, "atomics_afl: %s\n",
                 std::string(harness.status().message()).c_str());
    std::exit(2);
  }
  return *std::move(harness);
}

// Aborts on a finding; passed and rejected inputs return.
void RunOne(const Harness& harness, const uint8_t* data, size_t size) {
  const InputResult r = harness.RunOne({data, size});
  if (r.kind == InputResult::Kind::kDivergence ||
      r.kind == InputResult::Kind::kError) {
    AbortOnFinding(r);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Before the fork server starts: every child inherits the harness.
  const std::unique_ptr<Harness> harness = MakeHarness();
#ifdef ATOMFUZZ_AFL_REPLAY
  std::string input;
  if (argc > 1) {
    std::ifstream in(argv[1], std::ios::binary);
    input.assign(std::istreambuf_iterator<char>(in), {});
  } else {
    input.assign(std::istreambuf_iterator<char>(std::cin), {});
  }
  RunOne(*harness, reinterpret_cast<const uint8_t*>(input.data()),
         input.size());
  std::fprintf(stderr, "atomics_afl: no finding\n");
#else
  __AFL_INIT();
  const unsigned char* buf = __AFL_FUZZ_TESTCASE_BUF;
  while (__AFL_LOOP(10000)) {
    RunOne(*harness, buf, static_cast<size_t>(__AFL_FUZZ_TESTCASE_LEN));
  }
#endif
  return 0;
}
