// The UAVs of one run as a shader sees them, for a dispatch and a draw
// alike: every declared UAV in host-visible memory (texel buffer, storage
// buffer, or a storage image with a staging buffer) with its hidden
// counter, their descriptor set, the commands that move texture words in
// and out around the shader, and the final words read back.
#ifndef ATOMFUZZ_TARGETS_VULKAN_VK_UAV_SET_H_
#define ATOMFUZZ_TARGETS_VULKAN_VK_UAV_SET_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "isa/case_file.h"
#include "isa/outcome.h"
#include "targets/vulkan/spirv_compiler.h"
#include "targets/vulkan/vk_context.h"
#include "targets/vulkan/vk_loader.h"
#include "targets/vulkan/vk_objects.h"

namespace atomfuzz::targets::vulkan {

class UavSet {
 public:
  // The buffers and images of `bindings` (set 0, docs/vulkan-target.md),
  // holding `c`'s initial words, and their set layout for `stage`. The
  // objects live in `objects`; `c` must outlive the set.
  static absl::StatusOr<UavSet> Create(RunObjects& objects, const isa::Case& c,
                                       absl::Span<const UavBinding> bindings,
                                       BufferUavMode mode,
                                       VkShaderStageFlags stage);

  VkDescriptorSetLayout layout() const { return layout_; }

  // Allocates the set from the context's one-set pool (resetting it: the
  // previous run's set goes back) and writes every descriptor.
  absl::StatusOr<VkDescriptorSet> WriteSet(VkContext& vk) const;

  // The texture words into their images, before the shader at `stage`.
  void RecordUpload(VkCommandBuffer cb, VkPipelineStageFlags stage) const;
  // The images back into their staging buffers after the shader at
  // `stage`, and everything made visible to the host.
  void RecordDownload(VkCommandBuffer cb, VkPipelineStageFlags stage) const;

  // The final state of every resource of the case (sorted by slot, all
  // defined); the UAVs the shader does not declare keep their words.
  std::vector<isa::UavState> Read() const;

 private:
  // What one bound UAV lives in during the run.
  struct Bound {
    const isa::Resource* resource = nullptr;
    HostBuffer buffer;   // buffer UAVs; staging for textures
    StorageImage image;  // textures
    HostBuffer counter;
    bool has_counter = false;
  };

  const isa::Case* case_ = nullptr;
  BufferUavMode mode_ = BufferUavMode::kTexel;
  std::vector<Bound> bound_;
  VkDescriptorSetLayout layout_ = VK_NULL_HANDLE;
};

// Submits `cb` on the context's queue and waits for its fence: Unavailable
// when the device is lost, DeadlineExceeded after 60 s.
absl::Status SubmitAndWait(VkContext& vk, VkCommandBuffer cb);

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_VK_UAV_SET_H_
