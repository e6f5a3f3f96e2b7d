// atomfuzz merge: of the cases in the inputs, keep in --out the fewest,
// smallest first, that reach every feature any of them reaches on the
// target (libFuzzer's -merge=1 for atomfuzz corpora).
#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_case.h"
#include "fuzz/campaign/corpus_merge.h"

namespace atomfuzz::cli {

int RunMerge(const std::vector<std::string>& inputs) {
  int stop = kExitOk;
  std::unique_ptr<targets::Target> target = TargetFromFlags("merge", stop);
  if (target == nullptr) return stop;
  const std::string out = absl::GetFlag(FLAGS_out);
  if (out.empty() || inputs.empty()) {
    std::fprintf(stderr,
                 "atomfuzz merge: expected --out=DIR and at least one "
                 "input file or directory\n");
    return kExitBadInput;
  }
  absl::StatusOr<fuzz::MergeResult> r = fuzz::MergeCorpus(inputs, out, *target);
  if (!r.ok()) {
    std::fprintf(stderr, "atomfuzz merge: %s\n",
                 std::string(r.status().message()).c_str());
    return FailureExit(r.status());
  }
  std::printf(
      "merge: %zu cases in %s already, %zu read, %zu added (%zu features "
      "on target %s)\n",
      r->existing, out.c_str(), r->inputs, r->added, r->features,
      std::string(target->name()).c_str());
  return kExitOk;
}

}  // namespace atomfuzz::cli
