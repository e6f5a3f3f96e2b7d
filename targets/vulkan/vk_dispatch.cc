#include "targets/vulkan/vk_dispatch.h"

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "targets/vulkan/vk_objects.h"

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

// What one bound UAV lives in during the run.
struct Bound {
  const isa::Resource* resource = nullptr;
  HostBuffer buffer;   // buffer UAVs; staging for textures
  StorageImage image;  // textures
  HostBuffer counter;
  bool has_counter = false;
};

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

std::string DeviceRefusal(const VkContext& vk, const isa::Case& c,
                          absl::Span<const UavBinding> bindings,
                          BufferUavMode mode) {
  const VkPhysicalDeviceLimits& lim = vk.properties.limits;
  for (int i = 0; i < 3; ++i) {
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
  const VkDescriptorType buffer_type =
      mode == BufferUavMode::kSsbo ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                                   : VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
  const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT |
                                   VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                   VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  std::vector<Bound> bound;
  std::vector<VkDescriptorSetLayoutBinding> layout;
  for (const UavBinding& b : bindings) {
    Bound u;
    u.resource = c.FindResource(b.slot);
    if (u.resource == nullptr)
      return absl::InternalError("unbound UAV reached Dispatch");
    const isa::Resource& r = *u.resource;
    const uint64_t words = r.WordCount();
    VkDescriptorSetLayoutBinding lb{};
    lb.binding = b.slot;
    lb.descriptorCount = 1;
    lb.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
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
      lb.descriptorType = buffer_type;
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
      lb.descriptorType = buffer_type;
      layout.push_back(lb);
    }
    bound.push_back(u);
  }

  absl::StatusOr<VkShaderModule> shader = objects.Shader(spirv);
  if (!shader.ok()) return shader.status();
  absl::StatusOr<VkDescriptorSetLayout> set_layout = objects.SetLayout(layout);
  if (!set_layout.ok()) return set_layout.status();
  absl::StatusOr<VkPipelineLayout> pipeline_layout =
      objects.PipelineLayout(*set_layout);
  if (!pipeline_layout.ok()) return pipeline_layout.status();
  absl::StatusOr<VkPipeline> pipeline =
      objects.Pipeline(*shader, *pipeline_layout);
  if (!pipeline.ok()) return pipeline.status();

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
  dsai.pSetLayouts = &*set_layout;
  VkDescriptorSet set;
  if (absl::Status s = VkCheck(vkAllocateDescriptorSets(vk.device, &dsai, &set),
                               "vkAllocateDescriptorSets");
      !s.ok()) {
    return s;
  }
  // Stable addresses for the pointers the writes keep.
  std::vector<VkDescriptorBufferInfo> buffer_infos(bound.size());
  std::vector<VkDescriptorBufferInfo> counter_infos(bound.size());
  std::vector<VkDescriptorImageInfo> image_infos(bound.size());
  std::vector<VkWriteDescriptorSet> writes;
  for (size_t i = 0; i < bound.size(); ++i) {
    const Bound& u = bound[i];
    VkWriteDescriptorSet w =
        VkStruct<VkWriteDescriptorSet>(VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET);
    w.dstSet = set;
    w.dstBinding = u.resource->slot;
    w.descriptorCount = 1;
    if (IsTexture(*u.resource)) {
      image_infos[i] = {VK_NULL_HANDLE, u.image.view, VK_IMAGE_LAYOUT_GENERAL};
      w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
      w.pImageInfo = &image_infos[i];
    } else if (mode == BufferUavMode::kSsbo) {
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
      w.descriptorType = buffer_type;
      w.pTexelBufferView = nullptr;
      w.pBufferInfo = nullptr;
      w.pImageInfo = nullptr;
      if (mode == BufferUavMode::kSsbo) {
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

  absl::StatusOr<VkCommandBuffer> commands = objects.Commands();
  if (!commands.ok()) return commands.status();
  VkCommandBuffer cb = *commands;
  VkCommandBufferBeginInfo begin = VkStruct<VkCommandBufferBeginInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO);
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  vkBeginCommandBuffer(cb, &begin);
  for (const Bound& u : bound) {
    if (!IsTexture(*u.resource)) continue;
    ImageBarrier(
        cb, u.image.image, u.image.layers, VK_IMAGE_LAYOUT_UNDEFINED,
        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
    const VkBufferImageCopy region = WholeImage(u.image);
    vkCmdCopyBufferToImage(cb, u.buffer.buffer, u.image.image,
                           VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &region);
    ImageBarrier(
        cb, u.image.image, u.image.layers, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
        VK_IMAGE_LAYOUT_GENERAL, VK_ACCESS_TRANSFER_WRITE_BIT,
        VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT,
        VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
  }
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, *pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, *pipeline_layout,
                          0, 1, &set, 0, nullptr);
  vkCmdDispatch(cb, c.groups[0], c.groups[1], c.groups[2]);
  for (const Bound& u : bound) {
    if (!IsTexture(*u.resource)) continue;
    ImageBarrier(cb, u.image.image, u.image.layers, VK_IMAGE_LAYOUT_GENERAL,
                 VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                 VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                 VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
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
  vkCmdPipelineBarrier(
      cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, nullptr, 0, nullptr);
  if (absl::Status s = VkCheck(vkEndCommandBuffer(cb), "vkEndCommandBuffer");
      !s.ok())
    return s;

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

  std::vector<isa::UavState> out;
  for (const isa::Resource& r : c.resources) {  // sorted by slot
    isa::UavState s;
    s.slot = r.slot;
    s.words = r.init;
    s.counter = r.counter;
    const auto it =
        std::find_if(bound.begin(), bound.end(),
                     [&](const Bound& b) { return b.resource == &r; });
    if (it != bound.end()) {
      std::memcpy(s.words.data(), it->buffer.words, s.words.size() * 4);
      if (it->has_counter && r.counter) s.counter = it->counter.words[0];
    }
    s.defined.assign(s.words.size(), true);
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace atomfuzz::targets::vulkan
