// AFL++ custom mutator library (AFL_CUSTOM_MUTATOR_LIBRARY): the structure-
// aware mutation and crossover of fuzz/mutate/byte_mutator.h behind AFL++'s C
// API (docs/custom_mutators.md of AFL++). afl_custom_fuzz mutates the queue
// entry, or crosses it with the splice entry AFL++ passes as add_buf;
// afl_custom_describe names the queue entry after the mutations applied.
// It runs inside afl-fuzz, so it is built without AFL instrumentation (the
// afl preset builds it in a nested plain-clang build, fuzz/CMakeLists.txt).
// ATOMFUZZ_OPTIONS is read as by the harness (policy and limits).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "fuzz/engines/harness.h"
#include "fuzz/generate/policy.h"
#include "fuzz/mutate/byte_mutator.h"

namespace {

struct State {
  atomfuzz::fuzz::Policy policy;
  std::unique_ptr<atomfuzz::fuzz::ByteMutator> mutator;
  std::vector<uint8_t> out;  // AFL++ reads the result from here
  uint64_t seed = 0;
  std::string description;
};

// A byte flip, when the structure gives nothing (undecodable input, or a
// text that would not fit): AFL++ needs some output.
size_t FlipOne(State& s, const uint8_t* buf, size_t size, size_t max_size) {
  const size_t n = std::min(size, max_size);
  std::copy(buf, buf + n, s.out.begin());
  if (n > 0) s.out[s.seed % n] ^= static_cast<uint8_t>(1u << (s.seed >> 8) % 8);
  s.description = "flip";
  return n;
}

}  // namespace

extern "C" void* afl_custom_init(void* afl, unsigned int seed) {
  const char* env = std::getenv("ATOMFUZZ_OPTIONS");
  auto options = atomfuzz::fuzz::ParseHarnessOptions(env ? env : "");
  if (!options.ok()) {
    std::fprintf(stderr, "atomics_afl_mutator: %s\n",
                 std::string(options.status().message()).c_str());
    return nullptr;  // AFL++ stops with an error
  }
  auto policy = atomfuzz::fuzz::PolicyByName(options->policy);
  if (!policy.ok()) {
    std::fprintf(stderr, "atomics_afl_mutator: %s\n",
                 std::string(policy.status().message()).c_str());
    return nullptr;
  }
  auto* s = new State{*std::move(policy), nullptr, {}, seed, ""};
  s->mutator =
      std::make_unique<atomfuzz::fuzz::ByteMutator>(s->policy, options->decode);
  return s;
}

extern "C" size_t afl_custom_fuzz(void* data, uint8_t* buf, size_t buf_size,
                                  uint8_t** out_buf, uint8_t* add_buf,
                                  size_t add_buf_size, size_t max_size) {
  State& s = *static_cast<State*>(data);
  // SplitMix-style step: a fresh seed per call, reproducible from init's.
  s.seed = s.seed * 6364136223846793005ull + 1442695040888963407ull;
  if (s.out.size() < max_size) s.out.resize(max_size);  // kept: no refills
  size_t n = 0;
  if (add_buf != nullptr && add_buf_size > 0 && (s.seed >> 33) % 4 == 0) {
    n = s.mutator->CrossOver({buf, buf_size}, {add_buf, add_buf_size},
                             s.out.data(), max_size, s.seed);
  }
  if (n == 0) {
    n = s.mutator->Mutate({buf, buf_size}, s.out.data(), max_size, s.seed);
  }
  if (n == 0) {
    n = FlipOne(s, buf, buf_size, max_size);
  } else {
    s.description = s.mutator->last_mutations();
  }
  *out_buf = s.out.data();
  return n;
}

extern "C" const char* afl_custom_describe(void* data,
                                           size_t max_description_len) {
  State& s = *static_cast<State*>(data);
  for (char& c : s.description) {
    if (c == ' ') c = ',';  // AFL++ puts it in a file name
  }
  if (s.description.size() > max_description_len) {
    s.description.resize(max_description_len);
  }
  return s.description.c_str();
}

extern "C" void afl_custom_deinit(void* data) {
  delete static_cast<State*>(data);
}
