// Names fxc prints for enums of the model, shared by the assembler and the
// printer so the two cannot disagree (spec 3.1-3.3).
#ifndef ATOMFUZZ_ISA_SPELLING_H_
#define ATOMFUZZ_ISA_SPELLING_H_

#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "isa/operand.h"
#include "isa/program.h"

namespace atomfuzz::isa {

// buffer, texture1d, ..., raw_buffer, structured_buffer.
absl::string_view DimName(Dim dim);
std::optional<Dim> DimFromName(absl::string_view name);

// unorm, snorm, sint, uint, float, mixed. fxc prints "sint"; vkd3d's "int" is
// accepted too (spec 3.2).
absl::string_view ReturnTypeName(ReturnType t);
std::optional<ReturnType> ReturnTypeFromName(absl::string_view name);

// refactoringAllowed, enableRawAndStructuredBuffers, ...
absl::string_view GlobalFlagName(GlobalFlag flag);
std::optional<GlobalFlag> GlobalFlagFromName(absl::string_view name);
inline constexpr GlobalFlag kAllGlobalFlags[] = {
    kRefactoringAllowed,         kEnableDoublePrecisionFloatOps,
    kForceEarlyDepthStencil,     kEnableRawAndStructuredBuffers,
    kSkipOptimization,           kEnableMinimumPrecision,
    kEnable11_1DoubleExtensions, kEnable11_1ShaderExtensions,
};

// The sync mnemonic for a flag set: FS spelling, with fxc's _sat form only
// where no other spelling exists (both UAV bits, E-32).
std::string SyncMnemonic(uint8_t flags);
// Parses the part after "sync": "", "_g_t", "_uglobal_g", "_sat_ugroup_t"...
std::optional<uint8_t> SyncFlagsFromSuffix(absl::string_view suffix);

// fxc's words for an interpolation mode ("linear noperspective"), and back
// from the words joined by single spaces.
absl::string_view InterpolationName(Interpolation mode);
std::optional<Interpolation> InterpolationFromName(absl::string_view words);
// The name a dcl_input_ps_s?v gives its register (position, sampleIndex,
// primitive_id); empty for a code atomfuzz does not know.
absl::string_view InputNameSpelling(uint32_t name);
std::optional<InputName> InputNameFromSpelling(absl::string_view word);

// System value names (vThreadID, ..., vCoverage).
std::optional<RegFile> SystemValueFromName(absl::string_view name);

// "xyzw" letters.
char ComponentLetter(int c);
int ComponentFromLetter(char c);  // -1 if not x, y, z or w

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_SPELLING_H_
