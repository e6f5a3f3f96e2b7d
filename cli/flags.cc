#include "cli/flags.h"

#include "absl/flags/flag.h"

ABSL_FLAG(bool, check, false,
          "Print nothing; exit 1 if a file is not in canonical form.");
ABSL_FLAG(bool, in_place, false,
          "Rewrite files in canonical form (atomically) instead of printing.");
ABSL_FLAG(bool, validate, true,
          "Also apply the validator's rules (--novalidate formats invalid "
          "cases, e.g. for invalid-input tests).");
ABSL_FLAG(bool, quiet, false, "Print only errors.");
