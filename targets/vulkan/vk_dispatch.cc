#include "targets/vulkan/vk_dispatch.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "targets/vulkan/vk_draw.h"
#include "targets/vulkan/vk_objects.h"
#include "targets/vulkan/vk_uav_set.h"

namespace atomfuzz::targets::vulkan {
namespace {

bool IsTexture(const isa::Resource& r) {
  return r.kind == isa::ResourceKind::kTyped && r.dim != isa::Dim::kBuffer;
}

}  // namespace

std::string DeviceRefusal(const VkContext& vk, const isa::Case& c,
                          absl::Span<const UavBinding> bindings,
                          BufferUavMode mode) {
  const VkPhysicalDeviceLimits& lim = vk.properties.limits;
  if (c.shader.pixel()) {
    if (std::string why = DrawRefusal(vk, c); !why.empty()) return why;
  }
  for (int i = 0; i < 3 && !c.shader.pixel(); ++i) {
    if (c.groups[i] > lim.maxComputeWorkGroupCount[i]) {
      return absl::StrCat("dispatch of ", c.groups[i], " groups in dimension ",
                          i, " exceeds the device's ",
                          lim.maxComputeWorkGroupCount[i]);
    }
  }
  uint64_t total = 0;
  uint32_t images = 0, buffers = 0;
  for (const UavBinding& b : bindings) {
    const isa::Resource* r = c.FindResource(b.slot);
    if (r == nullptr)
      return absl::StrCat("u", b.slot, " is declared but not bound");
    const uint64_t words = r->WordCount();
    if (r->init.size() != words)
      return absl::StrCat("u", b.slot, " has the wrong word count");
    if (words == 0)
      return absl::StrCat("u", b.slot,
                          " has no words (Vulkan has no empty view)");
    if (!IsTexture(*r) && words > lim.maxTexelBufferElements) {
      return absl::StrCat("u", b.slot, " has ", words,
                          " words, over the device's ",
                          lim.maxTexelBufferElements, " texel buffer elements");
    }
    total += words + (b.counter ? 1 : 0);
    // Texel buffers count as storage images in Vulkan's limits, SSBOs as
    // storage buffers; a counter is a buffer UAV of the mode.
    const bool ssbo = mode == BufferUavMode::kSsbo;
    (b.buffer && ssbo ? buffers : images) += 1;
    (ssbo ? buffers : images) += b.counter ? 1 : 0;
  }
  if (total > kMaxDispatchWords) {
    return absl::StrCat("the UAVs hold ", total, " words, over this target's ",
                        kMaxDispatchWords);
  }
  if (images > lim.maxPerStageDescriptorStorageImages ||
      buffers > lim.maxPerStageDescriptorStorageBuffers ||
      images + buffers > lim.maxPerStageResources) {
    return absl::StrCat(
        images, " storage image or texel buffer and ", buffers,
        " storage buffer descriptors exceed the device's per-stage limits (",
        lim.maxPerStageDescriptorStorageImages, ", ",
        lim.maxPerStageDescriptorStorageBuffers, ", ", lim.maxPerStageResources,
        " in all)");
  }
  // A pixel shader's UAVs count against its outputs too.
  if (c.shader.pixel() &&
      images + buffers > lim.maxFragmentCombinedOutputResources) {
    return absl::StrCat(
        images + buffers, " UAV descriptors exceed the device's ",
        lim.maxFragmentCombinedOutputResources, " fragment shader outputs");
  }
  return "";
}

uint32_t DescriptorLimit(const VkContext& vk, BufferUavMode mode) {
  const VkPhysicalDeviceLimits& lim = vk.properties.limits;
  uint32_t most = std::min(lim.maxPerStageDescriptorStorageImages,
                           lim.maxPerStageResources);
  if (mode == BufferUavMode::kSsbo)
    most = std::min(most, lim.maxPerStageDescriptorStorageBuffers);
  return most;
}

absl::StatusOr<std::vector<isa::UavState>> Dispatch(
    VkContext& vk, const isa::Case& c, absl::Span<const uint32_t> spirv,
    absl::Span<const UavBinding> bindings, BufferUavMode mode) {
  RunObjects objects(vk);
  absl::StatusOr<UavSet> uavs =
      UavSet::Create(objects, c, bindings, mode, VK_SHADER_STAGE_COMPUTE_BIT);
  if (!uavs.ok()) return uavs.status();
  absl::StatusOr<VkShaderModule> shader = objects.Shader(spirv);
  if (!shader.ok()) return shader.status();
  absl::StatusOr<VkPipelineLayout> pipeline_layout =
      objects.PipelineLayout(uavs->layout());
  if (!pipeline_layout.ok()) return pipeline_layout.status();
  absl::StatusOr<VkPipeline> pipeline =
      objects.Pipeline(*shader, *pipeline_layout);
  if (!pipeline.ok()) return pipeline.status();
  absl::StatusOr<VkDescriptorSet> set = uavs->WriteSet(vk);
  if (!set.ok()) return set.status();

  absl::StatusOr<VkCommandBuffer> commands = objects.Commands();
  if (!commands.ok()) return commands.status();
  VkCommandBuffer cb = *commands;
  VkCommandBufferBeginInfo begin = VkStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vkBeginCommandBuffer(cb, &begin);
  uavs->RecordUpload(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, *pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, *pipeline_layout,
                          0, 1, &*set, 0, nullptr);
  vkCmdDispatch(cb, c.groups[0], c.groups[1], c.groups[2]);
  uavs->RecordDownload(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
  if (absl::Status s = VkCheck(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
      !s.ok())
    return s;
  if (absl::Status s = SubmitAndWait(vk, cb); !s.ok()) return s;
  return uavs->Read();
}

}  // namespace atomfuzz::targets::vulkan
