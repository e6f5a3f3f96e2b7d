#include "targets/vulkan/spirv_validation.h"

#include <spirv-tools/libspirv.h>

#include "absl/strings/str_cat.h"

namespace atomfuzz::targets::vulkan {

std::optional<std::string> ValidateSpirv(absl::Span<const uint32_t> words) {
  // A context is cheap next to a pipeline, and keeping none makes this
  // thread-safe without a lock.
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_0);
  spv_const_binary_t binary{words.data(), words.size()};
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t rc = spvValidate(context, &binary, &diagnostic);
  std::optional<std::string> error;
  if (rc != SPV_SUCCESS) {
    error = diagnostic != nullptr && diagnostic->error != nullptr
                ? std::string(diagnostic->error)
                : absl::StrCat("spirv-val failed (", static_cast<int>(rc), ")");
  }
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  return error;
}

}  // namespace atomfuzz::targets::vulkan
