#include "targets/vulkan/vk_draw.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "isa/stages.h"
#include "targets/vulkan/vertex_shader.h"
#include "targets/vulkan/vk_objects.h"
#include "targets/vulkan/vk_uav_set.h"

namespace atomfuzz::targets::vulkan {
namespace {

// The viewport: a square of 512 pixels from (-128, -128), so that clip x
// (x + 128) / 256 - 1 and the device's (clip + 1) * 256 - 128 are exact,
// and every vertex, within [-64, 128] pixels, is inside (never clipped).
constexpr float kViewportOrigin = -128.0f;
constexpr float kViewportSide = 512.0f;

VkSampleCountFlagBits SampleBits(uint32_t samples) {
  return samples == 4 ? VK_SAMPLE_COUNT_4_BIT : VK_SAMPLE_COUNT_1_BIT;
}

}  // namespace

std::string DrawRefusal(const VkContext& vk, const isa::Case& c) {
  const VkPhysicalDeviceLimits& lim = vk.properties.limits;
  const char* name = vk.properties.deviceName;
  if (!vk.graphics) return absl::StrCat("'", name, "' has no queue that draws");
  if (!vk.fragment_stores_and_atomics) {
    return absl::StrCat("'", name,
                        "' has no fragmentStoresAndAtomics: no UAVs in a "
                        "pixel shader");
  }
  if (c.draw.samples != 1 && c.draw.samples != 4)
    return absl::StrCat("a draw of ", c.draw.samples, " samples");
  if ((lim.framebufferNoAttachmentsSampleCounts & SampleBits(c.draw.samples)) ==
      0) {
    return absl::StrCat("'", name, "' draws no ", c.draw.samples,
                        " samples without attachments");
  }
  if (c.draw.samples > 1 && !lim.standardSampleLocations) {
    return absl::StrCat("'", name, "' has no standard sample locations");
  }
  if (c.draw.width > lim.maxFramebufferWidth ||
      c.draw.height > lim.maxFramebufferHeight) {
    return "the framebuffer exceeds the device's";
  }
  if (isa::DeclaresInput(c.shader, isa::InputName::kSampleIndex) &&
      !vk.sample_rate_shading) {
    return absl::StrCat("'", name,
                        "' has no sampleRateShading (SV_SampleIndex)");
  }
  if (isa::DeclaresInput(c.shader, isa::InputName::kPrimitiveId) &&
      !vk.geometry_shader) {
    return absl::StrCat(
        "'", name,
        "' has no geometryShader (SV_PrimitiveID in a pixel shader)");
  }
  return "";
}

std::array<float, 4> ClipPosition(const std::array<int32_t, 2>& vertex) {
  std::array<float, 4> out = {0.0f, 0.0f, 0.0f, 1.0f};
  for (size_t k = 0; k < 2; ++k) {
    // (v / 256 - origin) / (side / 2) - 1, in two exact steps.
    const float pixels = static_cast<float>(vertex[k]) /
                         static_cast<float>(isa::kSubpixelsPerPixel);
    out[k] = (pixels - kViewportOrigin) / (kViewportSide / 2) - 1.0f;
  }
  return out;
}

absl::StatusOr<std::vector<isa::UavState>> Draw(
    VkContext& vk, const isa::Case& c, absl::Span<const uint32_t> spirv,
    absl::Span<const UavBinding> bindings, BufferUavMode mode) {
  RunObjects objects(vk);
  absl::StatusOr<UavSet> uavs =
      UavSet::Create(objects, c, bindings, mode, VK_SHADER_STAGE_FRAGMENT_BIT);
  if (!uavs.ok()) return uavs.status();
  const uint32_t vertices = static_cast<uint32_t>(c.draw.triangles.size()) * 3;
  absl::StatusOr<HostBuffer> vertex_buffer =
      objects.Buffer(std::max<uint32_t>(vertices, 1) * 4,
                     VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, VK_FORMAT_UNDEFINED);
  if (!vertex_buffer.ok()) return vertex_buffer.status();
  for (size_t t = 0; t < c.draw.triangles.size(); ++t) {
    for (size_t v = 0; v < 3; ++v) {
      const std::array<float, 4> p = ClipPosition(c.draw.triangles[t].v[v]);
      std::memcpy(vertex_buffer->words + (t * 3 + v) * 4, p.data(), 16);
    }
  }
  RunObjects::DrawState state;
  absl::StatusOr<VkShaderModule> vs = objects.Shader(PassThroughVertexShader());
  if (!vs.ok()) return vs.status();
  absl::StatusOr<VkShaderModule> fs = objects.Shader(spirv);
  if (!fs.ok()) return fs.status();
  absl::StatusOr<VkPipelineLayout> pipeline_layout =
      objects.PipelineLayout(uavs->layout());
  if (!pipeline_layout.ok()) return pipeline_layout.status();
  absl::StatusOr<VkRenderPass> pass = objects.EmptyRenderPass();
  if (!pass.ok()) return pass.status();
  absl::StatusOr<VkFramebuffer> framebuffer =
      objects.EmptyFramebuffer(*pass, c.draw.width, c.draw.height);
  if (!framebuffer.ok()) return framebuffer.status();
  state.vertex = *vs;
  state.fragment = *fs;
  state.layout = *pipeline_layout;
  state.pass = *pass;
  state.samples = SampleBits(c.draw.samples);
  state.viewport = {kViewportOrigin,
                    kViewportOrigin,
                    kViewportSide,
                    kViewportSide,
                    0.0f,
                    1.0f};
  state.scissor = {{0, 0}, {c.draw.width, c.draw.height}};
  absl::StatusOr<VkPipeline> pipeline = objects.GraphicsPipeline(state);
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
  uavs->RecordUpload(cb, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
  VkRenderPassBeginInfo rpbi =
      VkStruct<VkRenderPassBeginInfo>(VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO);
  rpbi.renderPass = *pass;
  rpbi.framebuffer = *framebuffer;
  rpbi.renderArea = state.scissor;
  vkCmdBeginRenderPass(cb, &rpbi, VK_SUBPASS_CONTENTS_INLINE);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, *pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, *pipeline_layout,
                          0, 1, &*set, 0, nullptr);
  const VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cb, 0, 1, &vertex_buffer->buffer, &offset);
  vkCmdDraw(cb, vertices, 1, 0, 0);
  vkCmdEndRenderPass(cb);
  uavs->RecordDownload(cb, VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT);
  if (absl::Status s = VkCheck(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
      !s.ok())
    return s;
  if (absl::Status s = SubmitAndWait(vk, cb); !s.ok()) return s;
  return uavs->Read();
}

}  // namespace atomfuzz::targets::vulkan
