#include "targets/vulkan/vk_objects.h"

#include "isa/program.h"

namespace atomfuzz::targets::vulkan {

RunObjects::~RunObjects() {
  VkDevice d = vk_.device;
  if (!commands_.empty()) {
    vkFreeCommandBuffers(d, vk_.command_pool,
                         static_cast<uint32_t>(commands_.size()),
                         commands_.data());
  }
  for (VkPipeline p : pipelines_) vkDestroyPipeline(d, p, nullptr);
  for (VkFramebuffer f : framebuffers_) vkDestroyFramebuffer(d, f, nullptr);
  for (VkRenderPass r : render_passes_) vkDestroyRenderPass(d, r, nullptr);
  for (VkPipelineLayout l : pipeline_layouts_)
    vkDestroyPipelineLayout(d, l, nullptr);
  for (VkDescriptorSetLayout l : set_layouts_)
    vkDestroyDescriptorSetLayout(d, l, nullptr);
  for (VkShaderModule s : shaders_) vkDestroyShaderModule(d, s, nullptr);
  for (VkImageView v : image_views_) vkDestroyImageView(d, v, nullptr);
  for (VkImage i : images_) vkDestroyImage(d, i, nullptr);
  for (VkBufferView v : buffer_views_) vkDestroyBufferView(d, v, nullptr);
  for (VkBuffer b : buffers_) vkDestroyBuffer(d, b, nullptr);
  for (VkDeviceMemory m : memory_) vkFreeMemory(d, m, nullptr);
}

absl::StatusOr<VkDeviceMemory> RunObjects::Bind(VkMemoryRequirements req,
                                                VkMemoryPropertyFlags flags) {
  const int type = vk_.FindMemoryType(req.memoryTypeBits, flags);
  if (type < 0) return absl::InternalError("no Vulkan memory type fits");
  VkMemoryAllocateInfo mai =
      VkStruct<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = static_cast<uint32_t>(type);
  VkDeviceMemory m;
  if (absl::Status s = VkCheck(vkAllocateMemory(vk_.device, &mai, nullptr, &m),
                               "vkAllocateMemory");
      !s.ok()) {
    return s;
  }
  memory_.push_back(m);
  return m;
}

absl::StatusOr<HostBuffer> RunObjects::Buffer(uint64_t words,
                                              VkBufferUsageFlags usage,
                                              VkFormat format) {
  HostBuffer b;
  b.count = words;
  VkBufferCreateInfo bci =
      VkStruct<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  bci.size = words * 4;
  bci.usage = usage;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  if (absl::Status s =
          VkCheck(vkCreateBuffer(vk_.device, &bci, nullptr, &b.buffer),
                  "vkCreateBuffer");
      !s.ok()) {
    return s;
  }
  buffers_.push_back(b.buffer);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(vk_.device, b.buffer, &req);
  absl::StatusOr<VkDeviceMemory> m =
      Bind(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                    VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (!m.ok()) return m.status();
  if (absl::Status s = VkCheck(vkBindBufferMemory(vk_.device, b.buffer, *m, 0),
                               "vkBindBufferMemory");
      !s.ok()) {
    return s;
  }
  void* p = nullptr;
  if (absl::Status s = VkCheck(
          vkMapMemory(vk_.device, *m, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
      !s.ok()) {
    return s;
  }
  b.words = static_cast<uint32_t*>(p);
  if (format != VK_FORMAT_UNDEFINED) {
    VkBufferViewCreateInfo vci = VkStruct<VkBufferViewCreateInfo>(
        VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO);
    vci.buffer = b.buffer;
    vci.format = format;
    vci.range = words * 4;
    if (absl::Status s =
            VkCheck(vkCreateBufferView(vk_.device, &vci, nullptr, &b.view),
                    "vkCreateBufferView");
        !s.ok()) {
      return s;
    }
    buffer_views_.push_back(b.view);
  }
  return b;
}

absl::StatusOr<StorageImage> RunObjects::Image(
    uint8_t dim, VkFormat format, const std::array<uint32_t, 3>& size) {
  StorageImage im;
  VkImageCreateInfo ici =
      VkStruct<VkImageCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO);
  VkImageViewType view_type = VK_IMAGE_VIEW_TYPE_1D;
  switch (static_cast<isa::Dim>(dim)) {
    case isa::Dim::kTexture1D:
      ici.imageType = VK_IMAGE_TYPE_1D;
      im.extent = {size[0], 1, 1};
      break;
    case isa::Dim::kTexture1DArray:
      ici.imageType = VK_IMAGE_TYPE_1D;
      view_type = VK_IMAGE_VIEW_TYPE_1D_ARRAY;
      im.extent = {size[0], 1, 1};
      im.layers = size[1];
      break;
    case isa::Dim::kTexture2D:
      ici.imageType = VK_IMAGE_TYPE_2D;
      view_type = VK_IMAGE_VIEW_TYPE_2D;
      im.extent = {size[0], size[1], 1};
      break;
    case isa::Dim::kTexture2DArray:
      ici.imageType = VK_IMAGE_TYPE_2D;
      view_type = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
      im.extent = {size[0], size[1], 1};
      im.layers = size[2];
      break;
    case isa::Dim::kTexture3D:
      ici.imageType = VK_IMAGE_TYPE_3D;
      view_type = VK_IMAGE_VIEW_TYPE_3D;
      im.extent = {size[0], size[1], size[2]};
      break;
    default: return absl::InternalError("not a texture dimension");
  }
  ici.format = format;
  ici.extent = im.extent;
  ici.mipLevels = 1;
  ici.arrayLayers = im.layers;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
              VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  if (absl::Status s = VkCheck(
          vkCreateImage(vk_.device, &ici, nullptr, &im.image), "vkCreateImage");
      !s.ok()) {
    return s;
  }
  images_.push_back(im.image);
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(vk_.device, im.image, &req);
  absl::StatusOr<VkDeviceMemory> m = Bind(req, 0);
  if (!m.ok()) return m.status();
  if (absl::Status s = VkCheck(vkBindImageMemory(vk_.device, im.image, *m, 0),
                               "vkBindImageMemory");
      !s.ok()) {
    return s;
  }
  VkImageViewCreateInfo vci =
      VkStruct<VkImageViewCreateInfo>(VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO);
  vci.image = im.image;
  vci.viewType = view_type;
  vci.format = format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, im.layers};
  if (absl::Status s =
          VkCheck(vkCreateImageView(vk_.device, &vci, nullptr, &im.view),
                  "vkCreateImageView");
      !s.ok()) {
    return s;
  }
  image_views_.push_back(im.view);
  return im;
}

absl::StatusOr<VkShaderModule> RunObjects::Shader(
    absl::Span<const uint32_t> spirv) {
  VkShaderModuleCreateInfo sci = VkStruct<VkShaderModuleCreateInfo>(
      VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO);
  sci.codeSize = spirv.size() * 4;
  sci.pCode = spirv.data();
  VkShaderModule m;
  if (absl::Status s =
          VkCheck(vkCreateShaderModule(vk_.device, &sci, nullptr, &m),
                  "vkCreateShaderModule");
      !s.ok()) {
    return s;
  }
  shaders_.push_back(m);
  return m;
}

absl::StatusOr<VkDescriptorSetLayout> RunObjects::SetLayout(
    absl::Span<const VkDescriptorSetLayoutBinding> bindings) {
  VkDescriptorSetLayoutCreateInfo lci =
      VkStruct<VkDescriptorSetLayoutCreateInfo>(
          VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO);
  lci.bindingCount = static_cast<uint32_t>(bindings.size());
  lci.pBindings = bindings.data();
  VkDescriptorSetLayout l;
  if (absl::Status s =
          VkCheck(vkCreateDescriptorSetLayout(vk_.device, &lci, nullptr, &l),
                  "vkCreateDescriptorSetLayout");
      !s.ok()) {
    return s;
  }
  set_layouts_.push_back(l);
  return l;
}

absl::StatusOr<VkPipelineLayout> RunObjects::PipelineLayout(
    VkDescriptorSetLayout set_layout) {
  VkPipelineLayoutCreateInfo pci = VkStruct<VkPipelineLayoutCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO);
  pci.setLayoutCount = 1;
  pci.pSetLayouts = &set_layout;
  VkPipelineLayout l;
  if (absl::Status s =
          VkCheck(vkCreatePipelineLayout(vk_.device, &pci, nullptr, &l),
                  "vkCreatePipelineLayout");
      !s.ok()) {
    return s;
  }
  pipeline_layouts_.push_back(l);
  return l;
}

absl::StatusOr<VkPipeline> RunObjects::Pipeline(VkShaderModule shader,
                                                VkPipelineLayout layout) {
  VkComputePipelineCreateInfo cci = VkStruct<VkComputePipelineCreateInfo>(
      VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO);
  cci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  cci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cci.stage.module = shader;
  cci.stage.pName = "main";
  cci.layout = layout;
  VkPipeline p;
  if (absl::Status s =
          VkCheck(vkCreateComputePipelines(vk_.device, VK_NULL_HANDLE, 1, &cci,
                                           nullptr, &p),
                  "vkCreateComputePipelines");
      !s.ok()) {
    return s;
  }
  pipelines_.push_back(p);
  return p;
}

absl::StatusOr<VkRenderPass> RunObjects::EmptyRenderPass() {
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  VkRenderPassCreateInfo rci = VkStruct<VkRenderPassCreateInfo>(
      VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO);
  rci.subpassCount = 1;
  rci.pSubpasses = &subpass;
  VkRenderPass r;
  if (absl::Status s =
          VkCheck(vkCreateRenderPass(vk_.device, &rci, nullptr, &r),
                  "vkCreateRenderPass");
      !s.ok()) {
    return s;
  }
  render_passes_.push_back(r);
  return r;
}

absl::StatusOr<VkFramebuffer> RunObjects::EmptyFramebuffer(VkRenderPass pass,
                                                           uint32_t width,
                                                           uint32_t height) {
  VkFramebufferCreateInfo fci = VkStruct<VkFramebufferCreateInfo>(
      VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO);
  fci.renderPass = pass;
  fci.width = width;
  fci.height = height;
  fci.layers = 1;
  VkFramebuffer f;
  if (absl::Status s =
          VkCheck(vkCreateFramebuffer(vk_.device, &fci, nullptr, &f),
                  "vkCreateFramebuffer");
      !s.ok()) {
    return s;
  }
  framebuffers_.push_back(f);
  return f;
}

absl::StatusOr<VkPipeline> RunObjects::GraphicsPipeline(const DrawState& st) {
  VkPipelineShaderStageCreateInfo stages[2] = {
      VkStruct<VkPipelineShaderStageCreateInfo>(
          VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO),
      VkStruct<VkPipelineShaderStageCreateInfo>(
          VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO)};
  stages[0].stage = VK_SHADER_STAGE_VERTEX_BIT;
  stages[0].module = st.vertex;
  stages[0].pName = "main";
  stages[1].stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  stages[1].module = st.fragment;
  stages[1].pName = "main";
  const VkVertexInputBindingDescription binding = {0, 16,
                                                   VK_VERTEX_INPUT_RATE_VERTEX};
  const VkVertexInputAttributeDescription attribute = {
      0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
  auto vertex_input = VkStruct<VkPipelineVertexInputStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO);
  vertex_input.vertexBindingDescriptionCount = 1;
  vertex_input.pVertexBindingDescriptions = &binding;
  vertex_input.vertexAttributeDescriptionCount = 1;
  vertex_input.pVertexAttributeDescriptions = &attribute;
  auto assembly = VkStruct<VkPipelineInputAssemblyStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO);
  assembly.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  auto viewport = VkStruct<VkPipelineViewportStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO);
  viewport.viewportCount = 1;
  viewport.pViewports = &st.viewport;
  viewport.scissorCount = 1;
  viewport.pScissors = &st.scissor;
  auto raster = VkStruct<VkPipelineRasterizationStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO);
  raster.polygonMode = VK_POLYGON_MODE_FILL;
  raster.cullMode = VK_CULL_MODE_NONE;
  raster.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  raster.lineWidth = 1.0f;
  // Per-sample shading follows the shader: SPIR-V that reads SampleId
  // runs per sample whatever this says.
  auto multisample = VkStruct<VkPipelineMultisampleStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO);
  multisample.rasterizationSamples = st.samples;
  auto depth = VkStruct<VkPipelineDepthStencilStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_DEPTH_STENCIL_STATE_CREATE_INFO);
  auto blend = VkStruct<VkPipelineColorBlendStateCreateInfo>(
      VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO);
  auto gci = VkStruct<VkGraphicsPipelineCreateInfo>(
      VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO);
  gci.stageCount = 2;
  gci.pStages = stages;
  gci.pVertexInputState = &vertex_input;
  gci.pInputAssemblyState = &assembly;
  gci.pViewportState = &viewport;
  gci.pRasterizationState = &raster;
  gci.pMultisampleState = &multisample;
  gci.pDepthStencilState = &depth;
  gci.pColorBlendState = &blend;
  gci.layout = st.layout;
  gci.renderPass = st.pass;
  gci.subpass = 0;
  VkPipeline p;
  if (absl::Status s =
          VkCheck(vkCreateGraphicsPipelines(vk_.device, VK_NULL_HANDLE, 1, &gci,
                                            nullptr, &p),
                  "vkCreateGraphicsPipelines");
      !s.ok()) {
    return s;
  }
  pipelines_.push_back(p);
  return p;
}

absl::StatusOr<VkCommandBuffer> RunObjects::Commands() {
  VkCommandBufferAllocateInfo cai = VkStruct<VkCommandBufferAllocateInfo>(
      VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO);
  cai.commandPool = vk_.command_pool;
  cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  cai.commandBufferCount = 1;
  VkCommandBuffer cb;
  if (absl::Status s = VkCheck(vkAllocateCommandBuffers(vk_.device, &cai, &cb),
                               "vkAllocateCommandBuffers");
      !s.ok()) {
    return s;
  }
  commands_.push_back(cb);
  return cb;
}

}  // namespace atomfuzz::targets::vulkan
