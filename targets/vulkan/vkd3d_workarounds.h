// Known vkd3d-shader 1.2 bugs this target repairs in the SPIR-V it emits, so
// that one written-up bug (docs/findings.md) does not hide every later case
// behind the same invalid-code finding. Each repair is as narrow as the bug.
#ifndef ATOMFUZZ_TARGETS_VULKAN_VKD3D_WORKAROUNDS_H_
#define ATOMFUZZ_TARGETS_VULKAN_VKD3D_WORKAROUNDS_H_

#include <cstdint>
#include <vector>

namespace atomfuzz::targets::vulkan {

// SSBO mode with two or more buffer UAVs: vkd3d decorates their shared
// runtime array type with the same ArrayStride once per UAV, which spirv-val
// rejects. Drops each repeat of an identical OpDecorate ArrayStride; returns
// how many. A module it cannot parse is left as it is (validation says why).
int DropRepeatedArrayStride(std::vector<uint32_t>& spirv);

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VKD3D_WORKAROUNDS_H_
