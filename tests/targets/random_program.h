// A deliberately hostile random case maker for robustness tests of the
// executors (not the fuzzer's generator: no weights are tuned for finding
// divergences). It builds cases that always fit the case model, i.e. they
// print and parse back, but need not pass the validator: wild addresses,
// endless loops, mismatched memories, odd dispatch shapes and, now and
// then, unbalanced control flow. Driven by isa::Prng, so a seed rebuilds
// the same case on any machine.
#ifndef ATOMFUZZ_TESTS_TARGETS_RANDOM_PROGRAM_H_
#define ATOMFUZZ_TESTS_TARGETS_RANDOM_PROGRAM_H_

#include <cstdint>

#include "isa/case_file.h"

namespace atomfuzz::testutil {

// The knobs, as data (style guide 5). Chances are per mille.
struct RandomCasePolicy {
  uint32_t max_groups = 4;          // thread groups in the dispatch
  uint32_t max_group_threads = 64;  // threads per group
  uint32_t max_uavs = 4;
  uint32_t max_tgsm = 2;
  uint32_t min_temps = 2, max_temps = 8;
  uint32_t max_statements = 24;  // per block
  uint32_t max_depth = 3;        // nested if/loop/switch
  uint32_t wild_address = 300;   // an address is out of range or misaligned
  uint32_t register_address =
      200;                     // an address comes from whatever a temp holds
  uint32_t endless_loop = 60;  // a loop with no exit
  uint32_t unbalanced = 30;    // the case's control flow is broken
  uint32_t odd_dispatch = 20;  // zero or oversized groups, no dcl_thread_group
  uint32_t mismatch =
      2;  // a memory op on the wrong memory or an undeclared one
  uint32_t dynamic_index = 1;      // u#/g# indexed by a register (E-44)
  uint32_t indexable_temps = 300;  // the program declares x0
  uint32_t odd_register = 10;      // an operand names an undeclared r#
};

struct RandomCase {
  isa::Case c;
  // The generator broke the control flow on purpose (an extra or missing
  // block instruction, or a label outside its block): every executor must
  // refuse the case.
  bool unbalanced = false;
};

RandomCase MakeRandomCase(uint64_t seed, const RandomCasePolicy& policy = {});

}  // namespace atomfuzz::testutil

#endif  // ATOMFUZZ_TESTS_TARGETS_RANDOM_PROGRAM_H_
