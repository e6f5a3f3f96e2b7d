#include "targets/vulkan/spirv_disassembly.h"

#include <spirv-tools/libspirv.h>

#include "absl/strings/str_cat.h"

namespace atomfuzz::targets::vulkan {

absl::StatusOr<std::string> DisassembleSpirv(absl::Span<const uint32_t> words) {
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_0);
  spv_text text = nullptr;
  spv_diagnostic diagnostic = nullptr;
  const uint32_t options = SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES |
                           SPV_BINARY_TO_TEXT_OPTION_NO_HEADER;
  const spv_result_t rc = spvBinaryToText(context, words.data(), words.size(),
                                          options, &text, &diagnostic);
  absl::StatusOr<std::string> out;
  if (rc == SPV_SUCCESS && text != nullptr) {
    out = std::string(text->str, text->length);
  } else {
    out = absl::InvalidArgumentError(
        diagnostic != nullptr && diagnostic->error != nullptr
            ? std::string(diagnostic->error)
            : absl::StrCat("spirv-dis failed (", static_cast<int>(rc), ")"));
  }
  spvTextDestroy(text);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return out;
}

}  // namespace atomfuzz::targets::vulkan
