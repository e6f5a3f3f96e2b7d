// Test-case reduction: shrinks a case while a predicate ("interesting",
// normally "still the same bucket", see SameBucket) holds. Named passes
// (reducer_passes.h) each propose smaller candidates; a candidate is tried
// only if isa::Validate accepts it. Passes repeat until none makes progress,
// so the result is 1-minimal: removing any single instruction, thread,
// resource or word loses the interest (unless the budget ran out first;
// ReduceStats::complete says which).
#ifndef ATOMFUZZ_FUZZ_REDUCE_REDUCER_H_
#define ATOMFUZZ_FUZZ_REDUCE_REDUCER_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "fuzz/runner.h"
#include "fuzz/triage/case_size.h"
#include "fuzz/triage/signature.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

using Interesting = std::function<bool(const isa::Case&)>;

struct ReduceOptions {
  int64_t max_attempts = 20000;  // predicate calls
  absl::Time deadline = absl::InfiniteFuture();
  // Called after each pass that made progress (for --verbose style logs).
  std::function<void(const std::string& line)> log;
};

struct PassStats {
  std::string name;
  int64_t attempts = 0;  // predicate calls
  int64_t accepted = 0;  // candidates kept
};

struct ReduceStats {
  int64_t attempts = 0;  // predicate calls, all passes
  int64_t invalid = 0;   // candidates the validator refused (not tried)
  int rounds = 0;        // sweeps over all passes
  std::vector<PassStats> passes;  // in pass order
  CaseSize before, after;
  // True when a final sweep found nothing to remove: the result is
  // 1-minimal. False when the attempt budget or deadline stopped it.
  bool complete = false;
  // "12 instructions ... -> 3 instructions ...; 415 attempts, 4 rounds"
  std::string Summary() const;
};

struct ReduceResult {
  isa::Case reduced;
  ReduceStats stats;
};

// `interesting(c)` must be true for `c` (not checked: the result is then
// `c` itself). The reduced case keeps c's description and metadata, adding
// `reduced_from` = the original size.
ReduceResult Reduce(const isa::Case& c, const Interesting& interesting,
                    const ReduceOptions& options = {});

// The usual predicate: the candidate, run on `options`' target in
// deterministic mode with one thread (reproducible, also for the fast
// target's scheduling) and judged, is a divergence with signature
// `signature`.
struct SameBucket {
  Signature signature;      // the original's bucket, under those options
  Interesting interesting;  // owns its target; not thread-safe
};
// Runs `original` once to learn its bucket. FailedPrecondition if it does
// not diverge in deterministic mode; InvalidArgument for a bad target.
absl::StatusOr<SameBucket> MakeSameBucket(const isa::Case& original,
                                          const RunOptions& options);
// When the bucket is already known (the campaign has computed it).
absl::StatusOr<Interesting> SameBucketAs(const Signature& signature,
                                         const RunOptions& options);
// A divergence whose signature is `signature` in all but the opcode. The
// atomic a judge blames is the one whose return no order explains, often
// an innocent neighbour of the faulty one (a cmp_exch reading a word an
// xor corrupts); reducing under this lets the neighbours go, and the
// reduced case's own signature names the bucket (campaigns).
absl::StatusOr<Interesting> SameBugAs(const Signature& signature,
                                      const RunOptions& options);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_REDUCE_REDUCER_H_
