#include "cli/flags.h"

#include <string>

#include "absl/flags/flag.h"

ABSL_FLAG(bool, check, false,
          "Print nothing; exit 1 if a file is not in canonical form.");
ABSL_FLAG(bool, in_place, false,
          "Rewrite files in canonical form (atomically) instead of printing.");
ABSL_FLAG(bool, validate, true,
          "Also apply the validator's rules (--novalidate formats invalid "
          "cases, e.g. for invalid-input tests).");
ABSL_FLAG(bool, quiet, false,
          "Print only problems: no summary line, no per-case 'allowed'.");
ABSL_FLAG(std::string, target, "oracle",
          "Executor to run cases on: oracle (the reference interpreter) or "
          "fast (the optimized CPU executor).");
ABSL_FLAG(std::string, schedule, "canonical",
          "Oracle thread schedule: canonical, or random:SEED for a seeded "
          "random interleaving.");
ABSL_FLAG(bool, json, false, "Print the outcome as JSON (undefined = null).");
ABSL_FLAG(bool, trace, false,
          "Also print every atomic: thread, address, operands, returned value.");
ABSL_FLAG(int, threads, 0,
          "Worker threads of the fast target (0 = all cores).");
ABSL_FLAG(bool, deterministic, false,
          "Fast target: one worker, fixed group and lane order, for reproduction.");
ABSL_FLAG(std::string, inject, "",
          "Fast target: run with a deliberately injected bug (--inject=list "
          "prints their names).");
