// The entry points of one libvkd3d-shader in this process (vkd3d_library.h),
// for the .cc files of targets/vulkan only.
#ifndef ATOMFUZZ_TARGETS_VULKAN_VKD3D_API_H_
#define ATOMFUZZ_TARGETS_VULKAN_VKD3D_API_H_

// vkd3d_shader.h uses size_t without including its header.
#include <vkd3d_shader.h>

#include <cstddef>

#include "targets/vulkan/spirv_compiler.h"

namespace atomfuzz::targets::vulkan {

struct Vkd3dApi {
  decltype(&vkd3d_shader_compile) compile = nullptr;
  decltype(&vkd3d_shader_free_shader_code) free_code = nullptr;
  decltype(&vkd3d_shader_free_messages) free_messages = nullptr;
};

// Compiles with the library `api` points into (vkd3d_compiler.cc).
class InProcessVkd3d : public SpirvCompiler {
 public:
  explicit InProcessVkd3d(Vkd3dApi api) : api_(api) {}
  SpirvModule Compile(absl::Span<const uint8_t> dxbc,
                      absl::Span<const UavBinding> uavs, BufferUavMode mode,
                      DiscardMode discard) override;

 private:
  Vkd3dApi api_;
};

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VKD3D_API_H_
