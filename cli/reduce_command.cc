// atomfuzz reduce: shrink a case that diverges on a target while its bucket
// (fuzz/triage/signature.h) stays the same. The reduced case goes to -o OUT
// (atomically) or stdout; sizes, bucket and passes go to stderr.
#include <cstdio>

#include "absl/flags/flag.h"
#include "absl/time/clock.h"
#include "cli/command.h"
#include "cli/divergent_case.h"
#include "cli/flags.h"
#include "cli/load_case.h"
#include "fuzz/allowed_expectations.h"
#include "fuzz/reduce/reducer.h"

namespace atomfuzz::cli {
namespace {

void PrintStats(const fuzz::SameBucket& bucket,
                const fuzz::ReduceStats& stats) {
  std::fprintf(stderr, "bucket %s %s\n", bucket.signature.Id().c_str(),
               bucket.signature.Key().c_str());
  std::fprintf(stderr, "before: %s\nafter:  %s\n",
               stats.before.ToString().c_str(), stats.after.ToString().c_str());
  std::fprintf(stderr,
               "%lld attempts (%lld invalid candidates skipped), %d rounds%s\n",
               static_cast<long long>(stats.attempts),
               static_cast<long long>(stats.invalid), stats.rounds,
               stats.complete ? ", 1-minimal"
                              : "; budget ran out, not known to be 1-minimal");
  for (const fuzz::PassStats& p : stats.passes) {
    std::fprintf(stderr, "  %-18s kept %lld of %lld\n", p.name.c_str(),
                 static_cast<long long>(p.accepted),
                 static_cast<long long>(p.attempts));
  }
}

}  // namespace

int RunReduce(const std::vector<std::string>& files) {
  fuzz::RunOptions run;
  if (TargetFlagsInto(run)) return kExitOk;
  int exit_code = kExitOk;
  std::optional<DivergentCase> d =
      LoadDivergentCase("reduce", "reduce", files, run, exit_code);
  if (!d) return exit_code;
  const isa::Case& c = d->c;
  const fuzz::SameBucket* bucket = &d->bucket;
  fuzz::ReduceOptions options;
  options.max_attempts = absl::GetFlag(FLAGS_max_attempts);
  if (const double s = absl::GetFlag(FLAGS_seconds); s > 0) {
    options.deadline = absl::Now() + absl::Seconds(s);
  }
  fuzz::ReduceResult result = fuzz::Reduce(c, bucket->interesting, options);
  PrintStats(*bucket, result.stats);
  // The reproducer checks itself (`atomfuzz check`): what the spec allows
  // of its words, not the expectations its original had.
  if (!fuzz::ExpectWhatTheSpecAllows(result.reduced).ok()) {
    result.reduced.expect_words.clear();
    result.reduced.expect_counters.clear();
  }
  result.reduced.expect_returns.clear();
  return WriteOutput(isa::PrintCase(result.reduced));
}

}  // namespace atomfuzz::cli
