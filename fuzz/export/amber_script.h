// An Amber script (github.com/google/amber, docs/amber_script.md) of a
// case, for the Vulkan CTS: the SPIR-V as assembly, each buffer UAV and
// counter as a BUFFER bound where the vulkan target binds it, the dispatch,
// and an EXPECT per checked word (EQ for a value; GE and LE around a set,
// exact where the set is a run of consecutive values).
#ifndef ATOMFUZZ_FUZZ_EXPORT_AMBER_SCRIPT_H_
#define ATOMFUZZ_FUZZ_EXPORT_AMBER_SCRIPT_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "fuzz/export/reproducer_data.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

// FailedPrecondition for a case with typed textures (Amber's IMAGE cannot
// be given data): vulkan-c exports those.
absl::StatusOr<std::string> AmberScript(const isa::Case& c,
                                        const ReproData& data,
                                        absl::Span<const uint32_t> spirv,
                                        bool ssbo);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_EXPORT_AMBER_SCRIPT_H_
