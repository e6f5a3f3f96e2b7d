#include "targets/vulkan/vk_uav_set.h"

#include <algorithm>
#include <cstring>

namespace atomfuzz::targets::vulkan {
namespace {

bool IsTexture(const isa::Resource& r) {
  return r.kind == isa::ResourceKind::kTyped && r.dim != isa::Dim::kBuffer;
}

VkFormat ViewFormat(const isa::Resource& r) {
  return r.kind == isa::ResourceKind::kTyped &&
                 r.format == isa::Format::kR32Sint
             ? VK_FORMAT_R32_SINT
             : VK_FORMAT_R32_UINT;
}

VkDescriptorType BufferType(BufferUavMode mode) {
  return mode == BufferUavMode::kSsbo ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                                      : VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
}

void ImageBarrier(VkCommandBuffer cb, VkImage image, uint32_t layers,
                  VkImageLayout from, VkImageLayout to, VkAccessFlags src,
                  VkAccessFlags dst, VkPipelineStageFlags src_stage,
                  VkPipelineStageFlags dst_stage) {
  VkImageMemoryBarrier b =
      VkStruct<VkImageMemoryBarrier>(VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER);
  b.srcAccessMask = src;
  b.dstAccessMask = dst;
  b.oldLayout = from;
  b.newLayout = to;
  b.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, layers};
  vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, nullptr, 0, nullptr, 1,
                       &b);
}

VkBufferImageCopy WholeImage(const StorageImage& im) {
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, im.layers};
  region.imageExtent = im.extent;
  return region;
}

}  // namespace

absl::StatusOr<UavSet> UavSet::Create(RunObjects& objects, const isa::Case& c,
                                      absl::Span<const UavBinding> bindings,
                                      BufferUavMode mode,
                                      VkShaderStageFlags stage) {
  UavSet set;
  set.case_ = &c;
  set.mode_ = mode;
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT |
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  std::vector<VkDescriptorSetLayoutBinding> layout;
  for (const UavBinding& b : bindings) {
    Bound u;
    u.resource = c.FindResource(b.slot);
    if (u.resource == nullptr)
      return absl::InternalError("unbound UAV reached the device");
    const isa::Resource& r = *u.resource;
    const uint64_t words = r.WordCount();
    VkDescriptorSetLayoutBinding lb{};
    lb.binding = b.slot;
    lb.descriptorCount = 1;
    lb.stageFlags = stage;
    if (IsTexture(r)) {
      absl::StatusOr<StorageImage> im =
          objects.Image(static_cast<uint8_t>(r.dim), ViewFormat(r), r.size);
      if (!im.ok()) return im.status();
      u.image = *im;
      lb.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
      absl::StatusOr<HostBuffer> staging =
          objects.Buffer(words, usage, VK_FORMAT_UNDEFINED);
      if (!staging.ok()) return staging.status();
      u.buffer = *staging;
    } else {
      absl::StatusOr<HostBuffer> buf = objects.Buffer(
          words, usage,
          mode == BufferUavMode::kTexel ? ViewFormat(r) : VK_FORMAT_UNDEFINED);
      if (!buf.ok()) return buf.status();
      u.buffer = *buf;
      lb.descriptorType = BufferType(mode);
    }
    std::memcpy(u.buffer.words, r.init.data(), words * 4);
    layout.push_back(lb);
    if (b.counter) {
      // vkd3d 1.2 lowers a counter like a buffer UAV of its mode: an R32_UINT
      // texel buffer, or in SSBO mode a BufferBlock of one uint. A texel
      // descriptor under an SSBO variable made alloc hit another UAV's buffer.
      absl::StatusOr<HostBuffer> counter =
          objects.Buffer(1, usage,
                         mode == BufferUavMode::kTexel ? VK_FORMAT_R32_UINT
                                                       : VK_FORMAT_UNDEFINED);
      if (!counter.ok()) return counter.status();
      u.counter = *counter;
      u.has_counter = true;
      u.counter.words[0] = r.counter.value_or(0);
      lb.binding = kCounterBindingBase + b.slot;
      lb.descriptorType = BufferType(mode);
      layout.push_back(lb);
    }
    set.bound_.push_back(u);
  }
  absl::StatusOr<VkDescriptorSetLayout> set_layout = objects.SetLayout(layout);
  if (!set_layout.ok()) return set_layout.status();
  set.layout_ = *set_layout;
  return set;
}

absl::StatusOr<VkDescriptorSet> UavSet::WriteSet(VkContext& vk) const {
  // The pool holds one set; the previous run's set goes back with the reset.
  if (absl::Status s =
          VkCheck(vkResetDescriptorPool(vk.device, vk.descriptor_pool, 0),
                  "vkResetDescriptorPool");
      !s.ok()) {
    return s;
  }
  VkDescriptorSetAllocateInfo dsai = VkStruct<VkDescriptorSetAllocateInfo>(
      VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO);
  dsai.descriptorPool = vk.descriptor_pool;
  dsai.descriptorSetCount = 1;
  dsai.pSetLayouts = &layout_;
  VkDescriptorSet set;
  if (absl::Status s = VkCheck(vkAllocateDescriptorSets(vk.device, &dsai, &set),
                               "vkAllocateDescriptorSets");
      !s.ok()) {
    return s;
  }
  // Stable addresses for the pointers the writes keep.
  std::vector<VkDescriptorBufferInfo> buffer_infos(bound_.size());
  std::vector<VkDescriptorBufferInfo> counter_infos(bound_.size());
  std::vector<VkDescriptorImageInfo> image_infos(bound_.size());
  std::vector<VkWriteDescriptorSet> writes;
  for (size_t i = 0; i < bound_.size(); ++i) {
    const Bound& u = bound_[i];
    VkWriteDescriptorSet w =
        VkStruct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    w.dstSet = set;
    w.dstBinding = u.resource->slot;
    w.descriptorCount = 1;
    if (IsTexture(*u.resource)) {
      image_infos[i] = {VK_NULL_HANDLE, u.image.view, VK_IMAGE_LAYOUT_GENERAL};
      w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
      w.pImageInfo = &image_infos[i];
    } else if (mode_ == BufferUavMode::kSsbo) {
      buffer_infos[i] = {u.buffer.buffer, 0, VK_WHOLE_SIZE};
      w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
      w.pBufferInfo = &buffer_infos[i];
    } else {
      w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
      w.pTexelBufferView = &u.buffer.view;
    }
    writes.push_back(w);
    if (u.has_counter) {
      w.dstBinding = kCounterBindingBase + u.resource->slot;
      w.descriptorType = BufferType(mode_);
      w.pTexelBufferView = nullptr;
      w.pBufferInfo = nullptr;
      w.pImageInfo = nullptr;
      if (mode_ == BufferUavMode::kSsbo) {
        counter_infos[i] = {u.counter.buffer, 0, VK_WHOLE_SIZE};
        w.pBufferInfo = &counter_infos[i];
      } else {
        w.pTexelBufferView = &u.counter.view;
      }
      writes.push_back(w);
    }
  }
  vkUpdateDescriptorSets(vk.device, static_cast<uint32_t>(writes.size()),
                         writes.data(), 0, nullptr);
  return set;
}

void UavSet::RecordUpload(VkCommandBuffer cb,
                          VkPipelineStageFlags stage) const {
  for (const Bound& u : bound_) {
    if (!IsTexture(*u.resource)) continue;
    ImageBarrier(
        cb, u.image.image, u.image.layers, VK_IMAGE_LAYOUT_UNDEFINED,
        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    const VkBufferImageCopy region = WholeImage(u.image);
    vkCmdCopyBufferToImage(cb, u.buffer.buffer, u.image.image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    ImageBarrier(cb, u.image.image, u.image.layers,
                 VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL,
                 VK_ACCESS_TRANSFER_WRITE_BIT,
                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, stage);
  }
}

void UavSet::RecordDownload(VkCommandBuffer cb,
                            VkPipelineStageFlags stage) const {
  for (const Bound& u : bound_) {
    if (!IsTexture(*u.resource)) continue;
    ImageBarrier(cb, u.image.image, u.image.layers, VK_IMAGE_LAYOUT_GENERAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, stage,
                 VK_PIPELINE_STAGE_TRANSFER_BIT);
    const VkBufferImageCopy region = WholeImage(u.image);
    vkCmdCopyImageToBuffer(cb, u.image.image,
                           VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                           u.buffer.buffer, 1, &region);
  }
  VkMemoryBarrier to_host =
      VkStruct<VkMemoryBarrier>(VK_STRUCTURE_TYPE_MEMORY_BARRIER);
  to_host.srcAccessMask =
      VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vkCmdPipelineBarrier(cb, stage | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr,
                       0, nullptr);
}

std::vector<isa::UavState> UavSet::Read() const {
  std::vector<isa::UavState> out;
  for (const isa::Resource& r : case_->resources) {  // sorted by slot
    isa::UavState s;
    s.slot = r.slot;
    s.words = r.init;
    s.counter = r.counter;
    const auto it =
        std::find_if(bound_.begin(), bound_.end(),
                     [&](const Bound& b) { return b.resource == &r; });
    if (it != bound_.end()) {
      std::memcpy(s.words.data(), it->buffer.words, s.words.size() * 4);
      if (it->has_counter && r.counter) s.counter = it->counter.words[0];
    }
    s.defined.assign(s.words.size(), true);
    out.push_back(std::move(s));
  }
  return out;
}

absl::Status SubmitAndWait(VkContext& vk, VkCommandBuffer cb) {
  VkSubmitInfo submit = VkStruct<VkSubmitInfo>(VK_STRUCTURE_TYPE_SUBMIT_INFO);
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &cb;
  if (absl::Status s = VkCheck(vkQueueSubmit(vk.queue, 1, &submit, vk.fence),
                               "vkQueueSubmit");
      !s.ok()) {
    return s;
  }
  constexpr uint64_t kTimeoutNs = 60ull * 1000 * 1000 * 1000;
  const VkResult waited =
      vkWaitForFences(vk.device, 1, &vk.fence, VK_TRUE, kTimeoutNs);
  if (waited == VK_TIMEOUT) {
    // The queue still owns the objects: leaking them beats a use-after-free.
    return absl::DeadlineExceededError(
        "the dispatch did not finish within 60 s");
  }
  if (absl::Status s = VkCheck(waited, "vkWaitForFences"); !s.ok()) return s;
  vkResetFences(vk.device, 1, &vk.fence);
  return absl::OkStatus();
}

}  // namespace atomfuzz::targets::vulkan
