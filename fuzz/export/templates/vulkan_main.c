/* The Vulkan part of a reproducer: binds the case's UAVs as atomfuzz's
 * vulkan target does (targets/vulkan/vk_dispatch.cc, docs/vulkan-target.md),
 * dispatches repro_spirv once and judges the words it leaves. C99, the
 * Vulkan loader, and POSIX for the child process the run happens in. */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#define REPRO_SECONDS 60
#define REPRO_COUNTER_BINDING 64   /* u#'s counter is at binding 64 + # */
#define REPRO_MAX_WORDS (1u << 22) /* the case format's limit per UAV */

/* Constants, not macros, in loops: `i < 0` would trip -Wtype-limits. */
static const unsigned uav_count = REPRO_UAV_COUNT;

/* How a run that produced no words ended: code 1 is a FAIL (the driver
 * refused or broke on this case), 2 an ERROR (no device, setup failed). In a
 * child it travels to the parent through the pipe, as plain bytes. */
static struct outcome {
  int code;
  char line[256];
} outcome;

static int stop(int code, const char* fmt, ...) {
  va_list args;
  int n = snprintf(outcome.line, sizeof outcome.line,
                   "%s: ", code == 1 ? "FAIL" : "ERROR");
  va_start(args, fmt);
  vsnprintf(outcome.line + n, sizeof outcome.line - (size_t)n, fmt, args);
  va_end(args);
  outcome.code = code;
  return 0;
}

/* A lost device is the driver failing on the case, not a setup error. */
static int vk_ok(VkResult r, const char* what) {
  if (r == VK_SUCCESS) return 1;
  return stop(r == VK_ERROR_DEVICE_LOST ? 1 : 2, "%s returned %d", what,
              (int)r);
}

static int is_texture(const struct repro_uav* u) {
  return u->kind == KIND_TYPED && u->dim != DIM_BUFFER;
}

static VkFormat view_format(const struct repro_uav* u) {
  return u->kind == KIND_TYPED && u->format == FORMAT_R32_SINT
             ? VK_FORMAT_R32_SINT
             : VK_FORMAT_R32_UINT;
}

/* The data block is generated, but a hand-edited one should not make the
 * reproducer read or allocate out of bounds. */
static int data_block_ok(void) {
  unsigned i;
  if (uav_count > 64) return stop(2, "%u UAVs, at most 64", uav_count);
  if (REPRO_SPIRV_WORDS < 5 || repro_spirv[0] != 0x07230203u)
    return stop(2, "repro_spirv is not a SPIR-V module");
  for (i = 0; i < uav_count; ++i) {
    const struct repro_uav* u = &repro_uavs[i];
    uint64_t texels = (uint64_t)u->size[0] * u->size[1] * u->size[2];
    if (u->slot >= 64 || (i > 0 && u->slot <= repro_uavs[i - 1].slot))
      return stop(2, "repro_uavs[%u]: slots must rise, below 64", i);
    if (u->words == 0 || u->words > REPRO_MAX_WORDS || u->init == NULL)
      return stop(2, "u%u: %u words, want 1..%u", u->slot, u->words,
                  REPRO_MAX_WORDS);
    if (is_texture(u) && texels != u->words)
      return stop(2, "u%u: size is not its %u words", u->slot, u->words);
  }
  return 1;
}

struct vk {
  VkInstance instance;
  VkPhysicalDevice physical;
  VkPhysicalDeviceProperties props;
  VkPhysicalDeviceMemoryProperties memory;
  uint32_t family;
  VkDevice device;
  VkQueue queue;
};

static void print_device(const struct vk* vk) {
  const VkPhysicalDeviceProperties* p = &vk->props;
  printf("device: %s, Vulkan %u.%u.%u", p->deviceName,
         VK_API_VERSION_MAJOR(p->apiVersion),
         VK_API_VERSION_MINOR(p->apiVersion),
         VK_API_VERSION_PATCH(p->apiVersion));
  if (p->apiVersion >= VK_API_VERSION_1_2) {
    VkPhysicalDeviceDriverProperties d = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, .pNext = &d};
    vkGetPhysicalDeviceProperties2(vk->physical, &p2);
    printf(", driver %s (%s)", d.driverName, d.driverInfo);
  } else {
    printf(", driver version 0x%08x", p->driverVersion);
  }
  printf("\n");
  fflush(stdout); /* a child leaves with _exit, which flushes nothing */
}

/* The validation layer, where installed (vulkan-validationlayers), runs
 * spirv-val on the shader as the driver receives it: invalid SPIR-V is a
 * translator's bug even where this driver runs it. Its first error is
 * kept; the rest of this file is validation-clean, so any error is the
 * shader's. REPRO_NO_VALIDATION=1 leaves it off. */
static const char validation_layer[] = "VK_LAYER_KHRONOS_validation";
static char validation_error[400];

static VKAPI_ATTR VkBool32 VKAPI_CALL
on_validation(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
              VkDebugUtilsMessageTypeFlagsEXT type,
              const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  (void)type;
  (void)user;
  if ((severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) &&
      validation_error[0] == 0 && data->pMessage != NULL) {
    snprintf(validation_error, sizeof validation_error, "%s", data->pMessage);
  }
  return VK_FALSE;
}

static int has_validation_layer(void) {
  static VkLayerProperties all[64];
  uint32_t count = 64, i;
  if (getenv("REPRO_NO_VALIDATION") != NULL) return 0;
  if (vkEnumerateInstanceLayerProperties(&count, all) < 0) return 0;
  for (i = 0; i < count; ++i)
    if (strcmp(all[i].layerName, validation_layer) == 0) return 1;
  return 0;
}

static void watch_validation(VkInstance instance) {
  VkDebugUtilsMessengerCreateInfoEXT mci = {
      .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT,
      .pfnUserCallback = on_validation};
  VkDebugUtilsMessengerEXT messenger;
  PFN_vkCreateDebugUtilsMessengerEXT create =
      (PFN_vkCreateDebugUtilsMessengerEXT)vkGetInstanceProcAddr(
          instance, "vkCreateDebugUtilsMessengerEXT");
  if (create != NULL) create(instance, &mci, NULL, &messenger);
}

static int pick_device(struct vk* vk) {
  VkApplicationInfo app = {.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
                           .pApplicationName = "atomfuzz-repro",
                           .apiVersion = VK_API_VERSION_1_1};
  const char* layers[] = {validation_layer};
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  const int validate = has_validation_layer();
  VkInstanceCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                              .pApplicationInfo = &app,
                              .enabledLayerCount = validate ? 1 : 0,
                              .ppEnabledLayerNames = layers,
                              .enabledExtensionCount = validate ? 1 : 0,
                              .ppEnabledExtensionNames = extensions};
  VkPhysicalDevice devices[16];
  uint32_t count = 16, i;
  const char* want = getenv("REPRO_DEVICE");
  VkResult r = vkCreateInstance(&ici, NULL, &vk->instance);
  if (r != VK_SUCCESS)
    return stop(2, "no Vulkan: vkCreateInstance returned %d", (int)r);
  if (validate) watch_validation(vk->instance);
  printf("validation: %s\n",
         validate ? validation_layer : "off (no VK_LAYER_KHRONOS_validation)");
  r = vkEnumeratePhysicalDevices(vk->instance, &count, devices);
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) /* more than 16: look at 16 */
    return vk_ok(r, "vkEnumeratePhysicalDevices");
  if (count == 0) return stop(2, "no Vulkan physical device");
  /* Like atomfuzz's vulkan target: lavapipe unless told, else the first. */
  if (want == NULL) {
    want = "llvmpipe";
    for (i = 0; i < count; ++i) {
      vkGetPhysicalDeviceProperties(devices[i], &vk->props);
      if (strstr(vk->props.deviceName, want) != NULL) break;
    }
    if (i == count) want = "";
  }
  for (i = 0; i < count; ++i) {
    vkGetPhysicalDeviceProperties(devices[i], &vk->props);
    if (strstr(vk->props.deviceName, want) != NULL) break;
  }
  if (i == count) return stop(2, "no Vulkan device name contains '%s'", want);
  vk->physical = devices[i];
  vkGetPhysicalDeviceMemoryProperties(vk->physical, &vk->memory);
  print_device(vk);
  return 1;
}

static int has_extension(VkPhysicalDevice pd, const char* name) {
  static VkExtensionProperties all[512];
  uint32_t count = 512, i; /* VK_INCOMPLETE past 512: those 512 */
  if (vkEnumerateDeviceExtensionProperties(pd, NULL, &count, all) < 0) return 0;
  for (i = 0; i < count; ++i)
    if (strcmp(all[i].extensionName, name) == 0) return 1;
  return 0;
}

/* D3D drops out-of-bounds UAV writes. Only robustBufferAccess2 does that in
 * Vulkan; the target enables it, and plain robustBufferAccess, where the
 * device has them, so the reproducer must too. */
static int create_device(struct vk* vk) {
  const float priority = 1.0f;
  const char* robust2_name = VK_EXT_ROBUSTNESS_2_EXTENSION_NAME;
  VkQueueFamilyProperties families[32];
  uint32_t count = 32;
  VkPhysicalDeviceFeatures supported, enabled = {0};
  VkPhysicalDeviceRobustness2FeaturesEXT robust2 = {
      .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  VkDeviceQueueCreateInfo qci = {
      .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
      .queueCount = 1,
      .pQueuePriorities = &priority};
  VkDeviceCreateInfo dci = {.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
                            .queueCreateInfoCount = 1,
                            .pQueueCreateInfos = &qci,
                            .pEnabledFeatures = &enabled};
  vkGetPhysicalDeviceQueueFamilyProperties(vk->physical, &count, families);
  for (vk->family = 0; vk->family < count; ++vk->family)
    if (families[vk->family].queueFlags & VK_QUEUE_COMPUTE_BIT) break;
  if (vk->family == count) return stop(2, "the device has no compute queue");
  qci.queueFamilyIndex = vk->family;
  vkGetPhysicalDeviceFeatures(vk->physical, &supported);
  enabled.robustBufferAccess = supported.robustBufferAccess;
  /* vkd3d declares some typed UAVs as written and read without a format:
   * those capabilities need these features (as atomfuzz's target). */
  enabled.shaderStorageImageWriteWithoutFormat =
      supported.shaderStorageImageWriteWithoutFormat;
  enabled.shaderStorageImageReadWithoutFormat =
      supported.shaderStorageImageReadWithoutFormat;
  if (supported.robustBufferAccess &&
      has_extension(vk->physical, robust2_name)) {
    VkPhysicalDeviceFeatures2 query = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
        .pNext = &robust2};
    vkGetPhysicalDeviceFeatures2(vk->physical, &query);
    robust2.pNext = NULL;
    robust2.robustImageAccess2 = VK_FALSE; /* as the target: buffers only */
    robust2.nullDescriptor = VK_FALSE;
    if (robust2.robustBufferAccess2) {
      dci.pNext = &robust2;
      dci.enabledExtensionCount = 1;
      dci.ppEnabledExtensionNames = &robust2_name;
    }
  }
  if (!vk_ok(vkCreateDevice(vk->physical, &dci, NULL, &vk->device),
             "vkCreateDevice"))
    return 0;
  vkGetDeviceQueue(vk->device, vk->family, 0, &vk->queue);
  return 1;
}

static int bind_memory(const struct vk* vk, VkMemoryRequirements req,
                       VkMemoryPropertyFlags flags, VkDeviceMemory* memory) {
  VkMemoryAllocateInfo mai = {.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO,
                              .allocationSize = req.size};
  for (mai.memoryTypeIndex = 0;
       mai.memoryTypeIndex < vk->memory.memoryTypeCount;
       ++mai.memoryTypeIndex) {
    const VkMemoryType* t = &vk->memory.memoryTypes[mai.memoryTypeIndex];
    if ((req.memoryTypeBits >> mai.memoryTypeIndex & 1) &&
        (t->propertyFlags & flags) == flags)
      return vk_ok(vkAllocateMemory(vk->device, &mai, NULL, memory),
                   "vkAllocateMemory");
  }
  return stop(2, "no Vulkan memory type fits");
}

/* A host-visible buffer of `words` words, mapped for good; with a texel
 * view where `format` is not VK_FORMAT_UNDEFINED. */
struct host_buffer {
  VkBuffer buffer;
  VkBufferView view;
  uint32_t* words;
};

static int host_buffer(const struct vk* vk, unsigned words, VkFormat format,
                       struct host_buffer* b) {
  VkBufferCreateInfo bci = {.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO,
                            .size = 4ull * words,
                            .usage = VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT |
                                     VK_BUFFER_USAGE_STORAGE_BUFFER_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                            .sharingMode = VK_SHARING_MODE_EXCLUSIVE};
  VkBufferViewCreateInfo vci = {
      .sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO,
      .format = format,
      .range = 4ull * words};
  VkMemoryRequirements req;
  VkDeviceMemory memory;
  void* p;
  if (!vk_ok(vkCreateBuffer(vk->device, &bci, NULL, &b->buffer),
             "vkCreateBuffer"))
    return 0;
  vkGetBufferMemoryRequirements(vk->device, b->buffer, &req);
  if (!bind_memory(vk, req,
                   VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                       VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                   &memory) ||
      !vk_ok(vkBindBufferMemory(vk->device, b->buffer, memory, 0),
             "vkBindBufferMemory") ||
      !vk_ok(vkMapMemory(vk->device, memory, 0, VK_WHOLE_SIZE, 0, &p),
             "vkMapMemory"))
    return 0;
  b->words = p;
  if (format == VK_FORMAT_UNDEFINED) return 1;
  if (words > vk->props.limits.maxTexelBufferElements)
    return stop(2, "%u words exceed the device's %u texel buffer elements",
                words, vk->props.limits.maxTexelBufferElements);
  vci.buffer = b->buffer;
  return vk_ok(vkCreateBufferView(vk->device, &vci, NULL, &b->view),
               "vkCreateBufferView");
}

/* What backs one declared UAV during the run. */
struct backing {
  struct host_buffer data; /* the words; a texture's staging buffer */
  struct host_buffer counter;
  VkImage image;
  VkImageView image_view;
  VkBufferImageCopy whole; /* the texture <-> staging copy */
};

/* Each D3D texture dimension in Vulkan. D3D's size is width, then height
 * or layers, then depth or layers: which size[] holds each extent (0: 1). */
static const struct shape {
  unsigned dim;
  VkImageType type;
  VkImageViewType view;
  int height, depth, layers;
} shapes[] = {
    /* clang-format off */
    {DIM_TEXTURE1D,      VK_IMAGE_TYPE_1D, VK_IMAGE_VIEW_TYPE_1D,       0, 0, 0},
    {DIM_TEXTURE1DARRAY, VK_IMAGE_TYPE_1D, VK_IMAGE_VIEW_TYPE_1D_ARRAY, 0, 0, 1},
    {DIM_TEXTURE2D,      VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D,       1, 0, 0},
    {DIM_TEXTURE2DARRAY, VK_IMAGE_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 1, 0, 2},
    {DIM_TEXTURE3D,      VK_IMAGE_TYPE_3D, VK_IMAGE_VIEW_TYPE_3D,       1, 2, 0},
    /* clang-format on */
};

static uint32_t extent(const struct repro_uav* u, int at) {
  return at ? u->size[at] : 1;
}

static int storage_image(const struct vk* vk, const struct repro_uav* u,
                         struct backing* b) {
  const struct shape* sh = shapes;
  VkImageCreateInfo ici = {.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO,
                           .format = view_format(u),
                           .mipLevels = 1,
                           .samples = VK_SAMPLE_COUNT_1_BIT,
                           .tiling = VK_IMAGE_TILING_OPTIMAL,
                           .usage = VK_IMAGE_USAGE_STORAGE_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                    VK_IMAGE_USAGE_TRANSFER_DST_BIT};
  VkImageViewCreateInfo vci = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .format = ici.format};
  VkMemoryRequirements req;
  VkDeviceMemory memory;
  while (sh->dim != u->dim)
    if (++sh == shapes + sizeof shapes / sizeof shapes[0])
      return stop(2, "u%u: dim %u is not a texture", u->slot, u->dim);
  ici.imageType = sh->type;
  ici.extent =
      (VkExtent3D){u->size[0], extent(u, sh->height), extent(u, sh->depth)};
  ici.arrayLayers = extent(u, sh->layers);
  vci.viewType = sh->view;
  if (!vk_ok(vkCreateImage(vk->device, &ici, NULL, &b->image), "vkCreateImage"))
    return 0;
  vkGetImageMemoryRequirements(vk->device, b->image, &req);
  if (!bind_memory(vk, req, 0, &memory) ||
      !vk_ok(vkBindImageMemory(vk->device, b->image, memory, 0),
             "vkBindImageMemory"))
    return 0;
  vci.image = b->image;
  vci.subresourceRange = (VkImageSubresourceRange){VK_IMAGE_ASPECT_COLOR_BIT, 0,
                                                   1, 0, ici.arrayLayers};
  b->whole.imageSubresource = (VkImageSubresourceLayers){
      VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, ici.arrayLayers};
  b->whole.imageExtent = ici.extent; /* rows and slices tightly packed */
  return vk_ok(vkCreateImageView(vk->device, &vci, NULL, &b->image_view),
               "vkCreateImageView");
}

static int create_backing(const struct vk* vk, const struct repro_uav* u,
                          struct backing* b) {
  /* Texel mode: buffer UAVs get a typed view; SSBOs and staging none. */
  VkFormat format =
      REPRO_SSBO || is_texture(u) ? VK_FORMAT_UNDEFINED : view_format(u);
  if (!host_buffer(vk, u->words, format, &b->data)) return 0;
  memcpy(b->data.words, u->init, 4ull * u->words);
  if (is_texture(u) && !storage_image(vk, u, b)) return 0;
  if (!u->has_counter) return 1;
  /* vkd3d lowers a counter like a buffer UAV of the mode (R32_UINT). */
  if (!host_buffer(vk, 1, REPRO_SSBO ? VK_FORMAT_UNDEFINED : VK_FORMAT_R32_UINT,
                   &b->counter))
    return 0;
  b->counter.words[0] = u->counter;
  return 1;
}

/* Set 0's bindings and writes; the infos the writes point at stay put. */
static struct set_builder {
  uint32_t n;
  VkDescriptorSetLayoutBinding bindings[128];
  VkWriteDescriptorSet writes[128];
  VkDescriptorBufferInfo buffers[128];
  VkDescriptorImageInfo images[128];
} set_builder;

static void describe(const struct host_buffer* buffer, VkImageView image,
                     uint32_t binding) {
  struct set_builder* s = &set_builder;
  VkDescriptorType type = image ? VK_DESCRIPTOR_TYPE_STORAGE_IMAGE
                          : REPRO_SSBO
                              ? VK_DESCRIPTOR_TYPE_STORAGE_BUFFER
                              : VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
  VkWriteDescriptorSet* w = &s->writes[s->n];
  s->bindings[s->n] = (VkDescriptorSetLayoutBinding){
      binding, type, 1, VK_SHADER_STAGE_COMPUTE_BIT, NULL};
  *w = (VkWriteDescriptorSet){.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET,
                              .dstBinding = binding,
                              .descriptorCount = 1,
                              .descriptorType = type};
  s->buffers[s->n] = (VkDescriptorBufferInfo){buffer->buffer, 0, VK_WHOLE_SIZE};
  s->images[s->n] =
      (VkDescriptorImageInfo){VK_NULL_HANDLE, image, VK_IMAGE_LAYOUT_GENERAL};
  if (image)
    w->pImageInfo = &s->images[s->n];
  else if (REPRO_SSBO)
    w->pBufferInfo = &s->buffers[s->n];
  else
    w->pTexelBufferView = &buffer->view;
  ++s->n;
}

/* Set 0 as vkd3d was told: u# at binding #, its counter at 64 + #. */
static int create_set(const struct vk* vk, const struct backing* b,
                      VkDescriptorSetLayout* set_layout, VkDescriptorSet* set) {
  struct set_builder* s = &set_builder;
  /* Room for any mix: 64 UAVs and their counters, of one or two types. */
  const VkDescriptorPoolSize sizes[3] = {
      {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 128},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 128},
      {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 64}};
  VkDescriptorSetLayoutCreateInfo lci = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO,
      .pBindings = s->bindings};
  VkDescriptorPoolCreateInfo dpci = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO,
      .maxSets = 1,
      .poolSizeCount = 3,
      .pPoolSizes = sizes};
  VkDescriptorSetAllocateInfo dsai = {
      .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO,
      .descriptorSetCount = 1,
      .pSetLayouts = set_layout};
  uint32_t i;
  for (i = 0; i < uav_count; ++i) {
    const struct repro_uav* u = &repro_uavs[i];
    if (!u->declared) continue;
    describe(&b[i].data, b[i].image_view, u->slot);
    if (u->has_counter)
      describe(&b[i].counter, VK_NULL_HANDLE, REPRO_COUNTER_BINDING + u->slot);
  }
  lci.bindingCount = s->n; /* 0 bindings is a valid, empty set */
  if (!vk_ok(vkCreateDescriptorSetLayout(vk->device, &lci, NULL, set_layout),
             "vkCreateDescriptorSetLayout"))
    return 0;
  if (!vk_ok(
          vkCreateDescriptorPool(vk->device, &dpci, NULL, &dsai.descriptorPool),
          "vkCreateDescriptorPool") ||
      !vk_ok(vkAllocateDescriptorSets(vk->device, &dsai, set),
             "vkAllocateDescriptorSets"))
    return 0;
  for (i = 0; i < s->n; ++i) s->writes[i].dstSet = *set;
  vkUpdateDescriptorSets(vk->device, s->n, s->writes, 0, NULL);
  return 1;
}

/* From here a refusal is the finding: the driver refuses the case's shader. */
static int create_pipeline(const struct vk* vk,
                           VkDescriptorSetLayout set_layout,
                           VkPipelineLayout* layout, VkPipeline* pipeline) {
  VkPipelineLayoutCreateInfo pci = {
      .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
      .setLayoutCount = 1,
      .pSetLayouts = &set_layout};
  VkShaderModuleCreateInfo sci = {
      .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
      .codeSize = 4 * (size_t)REPRO_SPIRV_WORDS,
      .pCode = repro_spirv};
  VkComputePipelineCreateInfo cci = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .pName = "main"}};
  VkResult r;
  if (!vk_ok(vkCreatePipelineLayout(vk->device, &pci, NULL, layout),
             "vkCreatePipelineLayout"))
    return 0;
  r = vkCreateShaderModule(vk->device, &sci, NULL, &cci.stage.module);
  if (r != VK_SUCCESS)
    return stop(1, "vkCreateShaderModule returned %d", (int)r);
  cci.layout = *layout;
  r = vkCreateComputePipelines(vk->device, VK_NULL_HANDLE, 1, &cci, NULL,
                               pipeline);
  if (r != VK_SUCCESS)
    return stop(1, "vkCreateComputePipelines returned %d", (int)r);
  if (validation_error[0] != 0)
    return stop(1, "the validation layer refuses the shader: %s",
                validation_error);
  return 1;
}

/* Who touches a texture in each layout it passes through. */
static void layout_use(VkImageLayout layout, VkAccessFlags* access,
                       VkPipelineStageFlags* stage) {
  *stage = VK_PIPELINE_STAGE_TRANSFER_BIT;
  switch (layout) {
    case VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL:
      *access = VK_ACCESS_TRANSFER_WRITE_BIT;
      break;
    case VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL:
      *access = VK_ACCESS_TRANSFER_READ_BIT;
      break;
    case VK_IMAGE_LAYOUT_GENERAL:
      *access = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
      *stage = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
      break;
    default: /* UNDEFINED: nothing before */
      *access = 0;
      *stage = VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT;
  }
}

static void image_barrier(VkCommandBuffer cb, const struct backing* b,
                          VkImageLayout from, VkImageLayout to) {
  VkPipelineStageFlags src_stage, dst_stage;
  VkImageMemoryBarrier ib = {
      .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER,
      .oldLayout = from,
      .newLayout = to,
      .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
      .image = b->image,
      .subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0,
                           b->whole.imageSubresource.layerCount}};
  layout_use(from, &ib.srcAccessMask, &src_stage);
  layout_use(to, &ib.dstAccessMask, &dst_stage);
  vkCmdPipelineBarrier(cb, src_stage, dst_stage, 0, 0, NULL, 0, NULL, 1, &ib);
}

/* Textures go staging -> image (GENERAL for the shader) -> staging, so that
 * every UAV's words end in a mapped buffer the host reads. */
static void copy_textures(VkCommandBuffer cb, const struct backing* b,
                          int after) {
  const VkImageLayout dst = VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL;
  const VkImageLayout src = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  unsigned i;
  for (i = 0; i < uav_count; ++i) {
    if (!repro_uavs[i].declared || !b[i].image) continue;
    if (after) {
      image_barrier(cb, &b[i], VK_IMAGE_LAYOUT_GENERAL, src);
      vkCmdCopyImageToBuffer(cb, b[i].image, src, b[i].data.buffer, 1,
                             &b[i].whole);
    } else {
      image_barrier(cb, &b[i], VK_IMAGE_LAYOUT_UNDEFINED, dst);
      vkCmdCopyBufferToImage(cb, b[i].data.buffer, b[i].image, dst, 1,
                             &b[i].whole);
      image_barrier(cb, &b[i], dst, VK_IMAGE_LAYOUT_GENERAL);
    }
  }
}

static void record(VkCommandBuffer cb, const struct backing* b,
                   VkPipelineLayout layout, VkPipeline pipeline,
                   VkDescriptorSet set) {
  VkMemoryBarrier to_host = {.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
                             .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT |
                                              VK_ACCESS_TRANSFER_WRITE_BIT,
                             .dstAccessMask = VK_ACCESS_HOST_READ_BIT};
  copy_textures(cb, b, 0);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1,
                          &set, 0, NULL);
  vkCmdDispatch(cb, repro_groups[0], repro_groups[1], repro_groups[2]);
  copy_textures(cb, b, 1);
  vkCmdPipelineBarrier(
      cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
      VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, NULL, 0, NULL);
}

static int submit_and_wait(const struct vk* vk, const struct backing* b,
                           VkPipelineLayout layout, VkPipeline pipeline,
                           VkDescriptorSet set) {
  VkCommandPoolCreateInfo pci = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO,
      .queueFamilyIndex = vk->family};
  VkCommandBufferAllocateInfo cai = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO,
      .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY,
      .commandBufferCount = 1};
  VkCommandBufferBeginInfo begin = {
      .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO,
      .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT};
  VkFenceCreateInfo fci = {.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkSubmitInfo submit = {.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO,
                         .commandBufferCount = 1};
  VkCommandBuffer cb;
  VkFence fence;
  VkResult r;
  if (!vk_ok(vkCreateCommandPool(vk->device, &pci, NULL, &cai.commandPool),
             "vkCreateCommandPool") ||
      !vk_ok(vkAllocateCommandBuffers(vk->device, &cai, &cb),
             "vkAllocateCommandBuffers") ||
      !vk_ok(vkCreateFence(vk->device, &fci, NULL, &fence), "vkCreateFence") ||
      !vk_ok(vkBeginCommandBuffer(cb, &begin), "vkBeginCommandBuffer"))
    return 0;
  record(cb, b, layout, pipeline, set);
  submit.pCommandBuffers = &cb;
  if (!vk_ok(vkEndCommandBuffer(cb), "vkEndCommandBuffer") ||
      !vk_ok(vkQueueSubmit(vk->queue, 1, &submit, fence), "vkQueueSubmit"))
    return 0;
  r = vkWaitForFences(vk->device, 1, &fence, VK_TRUE,
                      REPRO_SECONDS * 1000000000ull);
  if (r == VK_TIMEOUT)
    return stop(1, "the run did not finish within %d s", REPRO_SECONDS);
  return vk_ok(r, "vkWaitForFences");
}

/* The whole run, up to the words in `result`. Objects are never destroyed:
 * the process ends right after, and driver teardown is no part of a case. */
static int run(struct repro_result* result) {
  static struct backing
      b[64]; /* zeroed: buffers and undeclared have no image */
  struct vk vk;
  VkDescriptorSetLayout set_layout;
  VkDescriptorSet set;
  VkPipelineLayout layout;
  VkPipeline pipeline;
  unsigned i, d;
  if (!pick_device(&vk) || !create_device(&vk)) return 0;
  for (d = 0; d < 3; ++d)
    if (repro_groups[d] > vk.props.limits.maxComputeWorkGroupCount[d])
      return stop(2, "%u groups in dimension %u exceed the device's %u",
                  repro_groups[d], d,
                  vk.props.limits.maxComputeWorkGroupCount[d]);
  for (i = 0; i < uav_count; ++i)
    if (repro_uavs[i].declared && !create_backing(&vk, &repro_uavs[i], &b[i]))
      return 0;
  if (!create_set(&vk, b, &set_layout, &set) ||
      !create_pipeline(&vk, set_layout, &layout, &pipeline) ||
      !submit_and_wait(&vk, b, layout, pipeline, set))
    return 0;
  for (i = 0; i < uav_count; ++i) {
    const struct repro_uav* u = &repro_uavs[i];
    memcpy(result->words[i], u->declared ? b[i].data.words : u->init,
           4ull * u->words);
    result->counters[i] =
        u->declared && u->has_counter ? b[i].counter.words[0] : u->counter;
  }
  return 1;
}

static int alloc_result(struct repro_result* result) {
  unsigned i;
  memset(result, 0, sizeof *result);
  for (i = 0; i < uav_count; ++i) {
    result->words[i] = calloc(repro_uavs[i].words, 4);
    if (result->words[i] == NULL) return stop(2, "out of memory");
  }
  return 1;
}

/* Pipe transfer of the outcome, then (code 0) the words and counters. */
static int transfer(int fd, int writing, void* data, size_t size) {
  char* p = data;
  while (size > 0) {
    ssize_t n = writing ? write(fd, p, size) : read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return 0;
    p += n;
    size -= (size_t)n;
  }
  return 1;
}

static int transfer_result(int fd, int writing, struct repro_result* result) {
  unsigned i;
  if (!transfer(fd, writing, &outcome, sizeof outcome)) return 0;
  if (outcome.code != 0) return 1;
  for (i = 0; i < uav_count; ++i)
    if (!transfer(fd, writing, result->words[i], 4ull * repro_uavs[i].words))
      return 0;
  return transfer(fd, writing, result->counters, sizeof result->counters);
}

static const char* signal_name(int sig) {
  static const int sigs[] = {SIGSEGV, SIGBUS,  SIGILL, SIGFPE,
                             SIGABRT, SIGKILL, SIGTRAP};
  static const char* const names[] = {"SIGSEGV", "SIGBUS",  "SIGILL", "SIGFPE",
                                      "SIGABRT", "SIGKILL", "SIGTRAP"};
  unsigned i;
  for (i = 0; i < sizeof sigs / sizeof sigs[0]; ++i)
    if (sigs[i] == sig) return names[i];
  return "?";
}

/* Prints the judgement, or why there is none; returns the exit code. */
static int finish(const struct repro_result* result) {
  if (outcome.code == 0) return repro_judge(result);
  printf("%s\n", outcome.line);
  return outcome.code;
}

/* A driver that crashes or hangs takes only the child down; the parent
 * names the signal. The child's alarm bounds the whole run, compile too. */
static int run_forked(struct repro_result* result) {
  int fds[2], status = 0, got;
  pid_t child, waited;
  fflush(stdout); /* or the child would print the parent's buffer again */
  if (pipe(fds) != 0 || (child = fork()) < 0) {
    stop(2, "pipe or fork failed (errno %d)", errno);
    return finish(result);
  }
  if (child == 0) {
    close(fds[0]);
    signal(SIGALRM, SIG_DFL);
    alarm(REPRO_SECONDS);
    run(result); /* its outcome travels to the parent */
    _exit(transfer_result(fds[1], 1, result) ? 0 : 3);
  }
  close(fds[1]);
  got = transfer_result(fds[0], 0, result);
  close(fds[0]);
  while ((waited = waitpid(child, &status, 0)) < 0 && errno == EINTR) continue;
  if (waited < 0)
    stop(2, "waitpid failed (errno %d)", errno);
  else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    stop(1, "the run did not finish within %d s", REPRO_SECONDS);
  else if (WIFSIGNALED(status))
    stop(1, "the run died of signal %d (%s)", WTERMSIG(status),
         signal_name(WTERMSIG(status)));
  else if (!got)
    stop(1, "the run exited with status %d and no result", WEXITSTATUS(status));
  return finish(result);
}

int main(void) {
  struct repro_result result;
  const char* no_fork = getenv("REPRO_NO_FORK");
  if (!data_block_ok() || !alloc_result(&result)) return finish(&result);
  if (no_fork == NULL || strcmp(no_fork, "1") != 0) return run_forked(&result);
  run(&result);
  return finish(&result);
}
