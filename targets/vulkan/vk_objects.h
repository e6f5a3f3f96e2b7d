// The Vulkan objects of one run, destroyed together when the run ends
// (success or error), and the buffers and images that hold a case's words.
#ifndef ATOMFUZZ_TARGETS_VULKAN_VK_OBJECTS_H_
#define ATOMFUZZ_TARGETS_VULKAN_VK_OBJECTS_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "targets/vulkan/vk_context.h"
#include "targets/vulkan/vk_loader.h"

namespace atomfuzz::targets::vulkan {

// A host-visible buffer, mapped for its whole life.
struct HostBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkBufferView view = VK_NULL_HANDLE;  // texel buffers only
  uint32_t* words = nullptr;
  uint64_t count = 0;  // words
};

struct StorageImage {
  VkImage image = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
  VkExtent3D extent{1, 1, 1};
  uint32_t layers = 1;
};

class RunObjects {
 public:
  explicit RunObjects(VkContext& vk) : vk_(vk) {}
  ~RunObjects();
  RunObjects(const RunObjects&) = delete;
  RunObjects& operator=(const RunObjects&) = delete;

  // `format` VK_FORMAT_UNDEFINED makes no view (storage buffers, staging).
  absl::StatusOr<HostBuffer> Buffer(uint64_t words, VkBufferUsageFlags usage,
                                    VkFormat format);
  // `dim` is an isa::Dim of a texture; size as in isa::Resource::size.
  absl::StatusOr<StorageImage> Image(uint8_t dim, VkFormat format,
                                     const std::array<uint32_t, 3>& size);
  absl::StatusOr<VkShaderModule> Shader(absl::Span<const uint32_t> spirv);
  absl::StatusOr<VkDescriptorSetLayout> SetLayout(
      absl::Span<const VkDescriptorSetLayoutBinding> bindings);
  absl::StatusOr<VkPipelineLayout> PipelineLayout(
      VkDescriptorSetLayout set_layout);
  absl::StatusOr<VkPipeline> Pipeline(VkShaderModule shader,
                                      VkPipelineLayout layout);
  absl::StatusOr<VkCommandBuffer> Commands();

  // A pixel case's draw (vk_draw.h): a render pass of one subpass and no
  // attachments, a framebuffer of its size, and the pipeline that draws
  // triangle lists of vec4 positions (binding 0, location 0) with
  // `samples` samples, no culling, no depth, and a viewport and scissor
  // fixed at creation.
  absl::StatusOr<VkRenderPass> EmptyRenderPass();
  absl::StatusOr<VkFramebuffer> EmptyFramebuffer(VkRenderPass pass,
                                                 uint32_t width,
                                                 uint32_t height);
  struct DrawState {
    VkShaderModule vertex = VK_NULL_HANDLE, fragment = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkRenderPass pass = VK_NULL_HANDLE;
    VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
    VkViewport viewport{};
    VkRect2D scissor{};
  };
  absl::StatusOr<VkPipeline> GraphicsPipeline(const DrawState& state);

 private:
  absl::StatusOr<VkDeviceMemory> Bind(VkMemoryRequirements req,
                                      VkMemoryPropertyFlags flags);

  VkContext& vk_;
  std::vector<VkDeviceMemory> memory_;
  std::vector<VkBuffer> buffers_;
  std::vector<VkBufferView> buffer_views_;
  std::vector<VkImage> images_;
  std::vector<VkImageView> image_views_;
  std::vector<VkShaderModule> shaders_;
  std::vector<VkDescriptorSetLayout> set_layouts_;
  std::vector<VkPipelineLayout> pipeline_layouts_;
  std::vector<VkPipeline> pipelines_;
  std::vector<VkRenderPass> render_passes_;
  std::vector<VkFramebuffer> framebuffers_;
  std::vector<VkCommandBuffer> commands_;
};

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VK_OBJECTS_H_
