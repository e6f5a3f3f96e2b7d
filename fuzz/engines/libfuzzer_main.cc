// libFuzzer harness `atomics_fuzzer`: each input is decoded into a valid case
// (case text, else generator choices), run on the target and judged against
// the oracle; a divergence prints the case and the verdict and aborts, so
// libFuzzer saves the input as a crash. Structure-aware: the custom mutator
// and crossover edit cases (fuzz/mutate/mutator.h) and write them as text.
//   ATOMFUZZ_OPTIONS="target=fast,inject=xor-as-or" atomics_fuzzer CORPUS
// The same source builds one harness per target (fuzz/engines/
// harnesses.cmake): ATOMFUZZ_HARNESS_DEFAULTS is its options before
// ATOMFUZZ_OPTIONS ("target=vulkan" for atomics_vulkan_fuzzer).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "fuzz/engines/finding_abort.h"
#include "fuzz/engines/harness.h"
#include "fuzz/mutate/byte_mutator.h"

// libFuzzer's byte mutation (with -dict tokens); weak, so that drivers that
// lack it (AFL++'s libAFLDriver under OSS-Fuzz) still link.
extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size)
    __attribute__((weak));

namespace {

// libFuzzer's C interface leaves no other place for state.
atomfuzz::fuzz::Harness* harness = nullptr;
atomfuzz::fuzz::ByteMutator* mutator = nullptr;

size_t ByteMutate(uint8_t* data, size_t size, size_t max_size) {
  if (LLVMFuzzerMutate == nullptr) return size;
  return LLVMFuzzerMutate(data, size, max_size);
}

}  // namespace

#ifndef ATOMFUZZ_HARNESS_DEFAULTS
#define ATOMFUZZ_HARNESS_DEFAULTS ""
#endif

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  const char* const name =
      (*argc > 0 && (*argv)[0] != nullptr) ? (*argv)[0] : "atomics_fuzzer";
  auto defaults =
      atomfuzz::fuzz::ParseHarnessOptions(ATOMFUZZ_HARNESS_DEFAULTS);
  if (!defaults.ok()) std::abort();  // the build's own text
  const char* env = std::getenv("ATOMFUZZ_OPTIONS");
  auto options = atomfuzz::fuzz::ParseHarnessOptions(env ? env : "", *defaults);
  if (!options.ok()) {
    std::fprintf(stderr, "%s: %s\n", name,
                 std::string(options.status().message()).c_str());
    std::exit(2);
  }
  auto created = atomfuzz::fuzz::Harness::Create(*options);
  if (!created.ok()) {
    std::fprintf(stderr, "%s: %s\n", name,
                 std::string(created.status().message()).c_str());
    std::exit(2);
  }
  harness = created->release();
  mutator = new atomfuzz::fuzz::ByteMutator(harness->policy(),
                                            harness->options().decode);
  std::fprintf(stderr, "INFO: %s target=%s inject=%s policy=%s isolate=%d\n",
               name, atomfuzz::fuzz::ExpandOrigin(options->target).c_str(),
               options->inject.c_str(), options->policy.c_str(),
               options->isolate ? 1 : 0);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using Kind = atomfuzz::fuzz::InputResult::Kind;
  const atomfuzz::fuzz::InputResult r = harness->RunOne({data, size});
  switch (r.kind) {
    case Kind::kDivergence:
    case Kind::kError: atomfuzz::fuzz::AbortOnFinding(r);
    case Kind::kRejected: return -1;  // keep it out of the corpus
    case Kind::kPassed: break;
  }
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size,
                                          size_t max_size, unsigned int seed) {
  // Now and then, and for choice bytes half the time, libFuzzer's own byte
  // mutation: choices are meant to be mutated as bytes, and text edits
  // reach what the structure cannot say.
  size_t first = 0;
  while (first < size && (data[first] == ' ' || data[first] == '\n')) ++first;
  const bool text = first < size && (data[first] == '[' || data[first] == '#');
  if (seed % 16 == 0 || (!text && seed % 2 == 0)) {
    return ByteMutate(data, size, max_size);
  }
  const size_t n = mutator->Mutate({data, size}, data, max_size, seed);
  return n != 0 ? n : ByteMutate(data, size, max_size);
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t* data1, size_t size1,
                                            const uint8_t* data2, size_t size2,
                                            uint8_t* out, size_t max_out_size,
                                            unsigned int seed) {
  return mutator->CrossOver({data1, size1}, {data2, size2}, out, max_out_size,
                            seed);
}
