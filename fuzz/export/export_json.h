// The json export: the case, what the spec allows of it, and its outcome
// and verdict on each target asked for, as one document of
// docs/schema/atomfuzz.schema.json ("atomfuzz.export").
#ifndef ATOMFUZZ_FUZZ_EXPORT_EXPORT_JSON_H_
#define ATOMFUZZ_FUZZ_EXPORT_EXPORT_JSON_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "fuzz/runner.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

// Runs `c` on each of `targets` (names as --target spells them, with
// `options`' settings) and judges it. A target that cannot be made is an
// error; one that fails on the case is an entry that says so.
absl::StatusOr<std::string> ExportJson(const isa::Case& c,
                                       const std::vector<std::string>& targets,
                                       const RunOptions& options);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_EXPORT_EXPORT_JSON_H_
