// atomfuzz generalise: which features of a divergent case its divergence
// depends on (fuzz/triage/generalise.h), as a campaign computes a new
// bucket's essential signature: prints the signature, its bucket id, the
// trigger sentence and what it cost. Meant for reduced cases; an unreduced
// one gives a less general answer.
#include <cstdio>

#include "absl/flags/flag.h"
#include "cli/command.h"
#include "cli/divergent_case.h"
#include "cli/flags.h"
#include "cli/load_case.h"
#include "fuzz/reduce/reducer.h"
#include "fuzz/triage/generalise.h"

namespace atomfuzz::cli {

int RunGeneralise(const std::vector<std::string>& files) {
  fuzz::RunOptions run;
  if (TargetFlagsInto(run)) return kExitOk;
  int exit_code = kExitOk;
  std::optional<DivergentCase> d =
      LoadDivergentCase("generalise", "generalise", files, run, exit_code);
  if (!d) return exit_code;
  const isa::Case& c = d->c;
  const fuzz::SameBucket* bucket = &d->bucket;
  absl::StatusOr<std::unique_ptr<targets::Target>> target =
      fuzz::MakeTarget(fuzz::ReproducibleOptions(run));
  if (!target.ok()) {
    std::fprintf(stderr, "%s\n",
                 std::string(target.status().message()).c_str());
    return kExitToolFailed;
  }
  fuzz::GeneraliseOptions options;
  if (absl::GetFlag(FLAGS_verbose)) {
    options.log = [](const std::string& line) {
      std::fprintf(stderr, "  %s\n", line.c_str());
    };
  }
  const fuzz::Generalised g =
      fuzz::Generalise(c, bucket->signature, **target, options);
  std::printf("found:     %s\nessential: %s\nbucket:    %s\ntrigger:   %s\n",
              bucket->signature.Key().c_str(), g.signature.Key().c_str(),
              g.signature.Id().c_str(), g.trigger.c_str());
  std::printf("cost:      %s\n", g.Cost().c_str());
  return kExitOk;
}

}  // namespace atomfuzz::cli
