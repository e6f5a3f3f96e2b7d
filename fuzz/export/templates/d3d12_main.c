/* The D3D12 part of an atomfuzz reproducer: runs repro_dxbc once on vkd3d's
 * Direct3D 12 (libvkd3d, libvkd3d-utils), driven as vkd3d's tests/d3d12.c
 * drives it, and judges what the UAVs hold with repro_judge().
 *
 * Build (Debian bookworm: libvkd3d-dev 1.2, libvulkan-dev for the
 * <vulkan/vulkan.h> that vkd3d.h includes; glibc >= 2.34, whose libc has
 * dlopen and C11 threads):
 *   cc -std=c11 -O1 -Wall -Wextra repro.c -I/usr/include/vkd3d \
 *      -lvkd3d-utils -lvkd3d -o repro
 * Run:
 *   MESA_SHADER_CACHE_DISABLE=true ./repro
 *   VKD3D_DEBUG=warn ./repro      why vkd3d refuses a shader
 *   REPRO_NO_FORK=1 gdb ./repro   run in-process, for a debugger
 * Exit: 0 PASS, 1 FAIL (wrong words, a refused shader, a crash, a hang),
 * 2 ERROR (no device, or an API call outside the shader failed). */
#define COBJMACROS             /* ID3D12Device_CreateCommandQueue() and co. */
#define INITGUID               /* this file defines the IIDs it names */
#define WIDL_C_INLINE_WRAPPERS /* the methods that return a struct */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <sys/wait.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>
#include <vkd3d_utils.h>

/* Time limits; -D changes them (a slow device, a test). */
#ifndef REPRO_TIMEOUT_S
#define REPRO_TIMEOUT_S 60 /* the dispatch, submit to fence */
#endif
#ifndef REPRO_SETUP_TIMEOUT_S
#define REPRO_SETUP_TIMEOUT_S 120 /* device and pipeline (shader compiles) */
#endif
#define REPRO_MAX_WORDS (1u << 22)     /* per UAV, as in the case format */
#define REPRO_MAX_STAGING (1ull << 30) /* upload (= readback) bytes in all */

/* A variable, not the macro, bounds the loops: REPRO_UAV_COUNT may be 0 and
 * `i < 0` draws -Wtype-limits. */
static const unsigned uav_count = REPRO_UAV_COUNT;

/* A declared UAV: its resources, and where its words sit in the upload and
 * readback buffers, which share one layout. */
struct d3d12_uav {
  ID3D12Resource *res, *counter;
  uint32_t width, height, depth, layers; /* a buffer: words, 1, 1, 1 */
  uint32_t row_pitch;                    /* bytes between staged rows */
  uint64_t slice_bytes;                  /* one staged subresource */
  uint64_t offset, counter_offset;       /* in the staging buffers */
};

struct d3d12_run {
  ID3D12Device* device;
  ID3D12RootSignature* root_signature;
  ID3D12PipelineState* pipeline;
  ID3D12CommandQueue* queue;
  ID3D12CommandAllocator* allocator;
  ID3D12GraphicsCommandList* list;
  ID3D12Fence* fence;
  ID3D12DescriptorHeap* heap;
  ID3D12Resource *upload, *readback;
  uint64_t staging_bytes;
  int busy; /* submitted, fence not reached: the GPU may use it all */
  struct d3d12_uav uavs[64];
};

static int api_error(const char* what, HRESULT hr) {
  printf("ERROR: %s returned 0x%08x\n", what, (unsigned)hr);
  return 2;
}

#define TRY(call, what)                           \
  do {                                            \
    HRESULT hr_ = (call);                         \
    if (FAILED(hr_)) return api_error(what, hr_); \
  } while (0)

static int is_texture(const struct repro_uav* u) {
  return u->kind == KIND_TYPED && u->dim != DIM_BUFFER;
}

static DXGI_FORMAT dxgi_format(unsigned format) {
  if (format == FORMAT_R32_SINT) return DXGI_FORMAT_R32_SINT;
  if (format == FORMAT_R32_FLOAT) return DXGI_FORMAT_R32_FLOAT;
  return DXGI_FORMAT_R32_UINT;
}

static uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

/* Nothing below trusts the data block: a bad shape is an ERROR here, not
 * an out-of-bounds copy later. */
static int check_uav(unsigned i) {
  const struct repro_uav* u = &repro_uavs[i];
  uint64_t texels = (uint64_t)u->size[0] * u->size[1] * u->size[2];
  uint32_t most = u->dim == DIM_TEXTURE3D ? 2048 : 16384; /* D3D12_REQ_* */
  const char* bad = NULL;
  if (u->slot >= 64 || (i > 0 && u->slot <= repro_uavs[i - 1].slot))
    bad = "slots must be below 64, sorted, each once";
  else if (u->words > REPRO_MAX_WORDS || (u->words && !u->init))
    bad = "too many words, or no initial words";
  else if (u->kind > KIND_TYPED || u->format > FORMAT_R32_FLOAT ||
           (u->kind != KIND_TYPED && u->dim != DIM_BUFFER) ||
           (u->has_counter && u->kind != KIND_STRUCTURED))
    bad = "a kind, dimension, format or counter it cannot have";
  else if (u->kind == KIND_STRUCTURED
               ? (!u->stride || u->stride % 4 || u->stride > 2048 ||
                  (uint64_t)u->stride * u->elements != 4ull * u->words)
               : u->kind == KIND_TYPED && texels != u->words)
    bad = "its shape does not hold its words";
  else if (is_texture(u) &&
           (u->size[0] > most || u->size[2] > 2048 ||
            u->size[1] > (u->dim == DIM_TEXTURE1DARRAY ? 2048 : most)))
    bad = "a texture larger than D3D12 allows";
  else if (u->declared && !u->words)
    bad = "no words (D3D12 has no empty resource)";
  if (!bad) return 0;
  printf("ERROR: u%u: %s\n", u->slot, bad);
  return 2;
}

/* Places every declared UAV and counter in the staging buffers; texture
 * subresources as placed footprints: rows 256-byte aligned
 * (D3D12_TEXTURE_DATA_PITCH_ALIGNMENT), subresources 512. */
static int plan_staging(struct d3d12_run* d) {
  uint64_t at = 0;
  unsigned i;
  for (i = 0; i < uav_count; ++i) {
    const struct repro_uav* u = &repro_uavs[i];
    struct d3d12_uav* g = &d->uavs[i];
    if (!u->declared) continue;
    g->width = u->words, g->height = g->depth = g->layers = 1;
    if (is_texture(u)) {
      g->width = u->size[0];
      if (u->dim == DIM_TEXTURE1DARRAY) g->layers = u->size[1];
      if (u->dim == DIM_TEXTURE2D || u->dim == DIM_TEXTURE2DARRAY ||
          u->dim == DIM_TEXTURE3D)
        g->height = u->size[1];
      if (u->dim == DIM_TEXTURE2DARRAY) g->layers = u->size[2];
      if (u->dim == DIM_TEXTURE3D) g->depth = u->size[2];
    }
    g->row_pitch =
        (uint32_t)align_up(4ull * g->width, D3D12_TEXTURE_DATA_PITCH_ALIGNMENT);
    g->slice_bytes = align_up((uint64_t)g->row_pitch * g->height * g->depth,
                              D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT);
    g->offset = at;
    at += g->slice_bytes * g->layers;
    g->counter_offset = at;
    if (u->has_counter) at += D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT;
    if (at > REPRO_MAX_STAGING) {
      printf("ERROR: the UAVs need over %llu staging bytes\n",
             (unsigned long long)REPRO_MAX_STAGING);
      return 2;
    }
  }
  d->staging_bytes = at ? at : 4;
  return 0;
}

/* Moves a UAV's words between host order (x fastest, then y, then z or the
 * slice) and its staged rows. */
static void move_rows(const struct d3d12_uav* g, uint8_t* staging,
                      uint32_t* host, int to_staging) {
  uint32_t l, z, y;
  for (l = 0; l < g->layers; ++l)
    for (z = 0; z < g->depth; ++z)
      for (y = 0; y < g->height; ++y) {
        uint8_t* row = staging + g->offset + l * g->slice_bytes +
                       ((uint64_t)z * g->height + y) * g->row_pitch;
        uint32_t* w =
            host + (((size_t)l * g->depth + z) * g->height + y) * g->width;
        if (to_staging)
          memcpy(row, w, 4 * (size_t)g->width);
        else
          memcpy(w, row, 4 * (size_t)g->width);
      }
}

/* The Vulkan device behind vkd3d, by name: vkd3d loaded libvulkan itself,
 * so ask that loader (no -lvulkan needed). */
static void print_device(ID3D12Device* device) {
  char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE + 32] = "";
  VkPhysicalDevice phys = vkd3d_get_vk_physical_device(device);
  VkInstance instance =
      vkd3d_instance_get_vk_instance(vkd3d_instance_from_device(device));
  void* vulkan = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
  void* sym = vulkan ? dlsym(vulkan, "vkGetInstanceProcAddr") : NULL;
  PFN_vkGetInstanceProcAddr get_proc = NULL;
  PFN_vkGetPhysicalDeviceProperties get_props = NULL;
  VkPhysicalDeviceProperties p;
  memcpy(&get_proc, &sym, sizeof get_proc); /* object to function pointer */
  if (get_proc && instance && phys)
    get_props = (PFN_vkGetPhysicalDeviceProperties)get_proc(
        instance, "vkGetPhysicalDeviceProperties");
  if (get_props) {
    get_props(phys, &p);
    snprintf(name, sizeof name, "%s, Vulkan %u.%u.%u, ", p.deviceName,
             VK_VERSION_MAJOR(p.apiVersion), VK_VERSION_MINOR(p.apiVersion),
             VK_VERSION_PATCH(p.apiVersion));
  }
  if (vulkan) dlclose(vulkan);
  printf("device: %svkd3d D3D12 feature level 11_0\n", name);
}

/* One descriptor table, one single-descriptor UAV range per declared slot:
 * the table's n-th descriptor is register u<slot>, space 0. */
static int create_pipeline(struct d3d12_run* d) {
  D3D12_DESCRIPTOR_RANGE ranges[64];
  D3D12_ROOT_PARAMETER table = {
      .ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE,
      .DescriptorTable = {0, ranges},
      .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL};
  D3D12_ROOT_SIGNATURE_DESC rs = {.pParameters = &table};
  D3D12_COMPUTE_PIPELINE_STATE_DESC cs = {.CS = {repro_dxbc, REPRO_DXBC_BYTES}};
  ID3DBlob *blob = NULL, *errors = NULL;
  unsigned i, n = 0;
  HRESULT hr;
  for (i = 0; i < uav_count; ++i) {
    if (!repro_uavs[i].declared) continue;
    ranges[n] = (D3D12_DESCRIPTOR_RANGE){D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1,
                                         repro_uavs[i].slot, 0, n};
    ++n;
  }
  table.DescriptorTable.NumDescriptorRanges = n;
  rs.NumParameters = n ? 1 : 0; /* TGSM only: nothing to bind */
  hr = D3D12SerializeRootSignature(&rs, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob,
                                   &errors);
  if (errors) ID3D10Blob_Release(errors);
  if (FAILED(hr)) return api_error("D3D12SerializeRootSignature", hr);
  hr = ID3D12Device_CreateRootSignature(
      d->device, 0, ID3D10Blob_GetBufferPointer(blob),
      ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature,
      (void**)&d->root_signature);
  ID3D10Blob_Release(blob);
  if (FAILED(hr)) return api_error("CreateRootSignature", hr);
  cs.pRootSignature = d->root_signature;
  hr = ID3D12Device_CreateComputePipelineState(
      d->device, &cs, &IID_ID3D12PipelineState, (void**)&d->pipeline);
  if (FAILED(hr)) { /* vkd3d-shader or the driver refused the shader */
    printf("FAIL: CreateComputePipelineState returned 0x%08x\n", (unsigned)hr);
    return 1;
  }
  return 0;
}

static int create_commands(struct d3d12_run* d) {
  const D3D12_COMMAND_LIST_TYPE type = D3D12_COMMAND_LIST_TYPE_DIRECT;
  const D3D12_COMMAND_QUEUE_DESC q = {.Type = type};
  TRY(ID3D12Device_CreateCommandQueue(d->device, &q, &IID_ID3D12CommandQueue,
                                      (void**)&d->queue),
      "CreateCommandQueue");
  TRY(ID3D12Device_CreateCommandAllocator(
          d->device, type, &IID_ID3D12CommandAllocator, (void**)&d->allocator),
      "CreateCommandAllocator");
  TRY(ID3D12Device_CreateCommandList(d->device, 0, type, d->allocator, NULL,
                                     &IID_ID3D12GraphicsCommandList,
                                     (void**)&d->list),
      "CreateCommandList");
  TRY(ID3D12Device_CreateFence(d->device, 0, D3D12_FENCE_FLAG_NONE,
                               &IID_ID3D12Fence, (void**)&d->fence),
      "CreateFence");
  return 0;
}

static HRESULT create_resource(struct d3d12_run* d, D3D12_HEAP_TYPE heap,
                               const D3D12_RESOURCE_DESC* desc,
                               D3D12_RESOURCE_STATES state,
                               ID3D12Resource** res) {
  const D3D12_HEAP_PROPERTIES props = {.Type = heap};
  return ID3D12Device_CreateCommittedResource(
      d->device, &props, D3D12_HEAP_FLAG_NONE, desc, state, NULL,
      &IID_ID3D12Resource, (void**)res);
}

static D3D12_RESOURCE_DESC buffer_desc(uint64_t bytes, int uav) {
  D3D12_RESOURCE_DESC b = {.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER,
                           .Width = bytes,
                           .Height = 1,
                           .DepthOrArraySize = 1,
                           .MipLevels = 1,
                           .SampleDesc = {1, 0},
                           .Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR};
  if (uav) b.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
  return b;
}

static const D3D12_UAV_DIMENSION view_dims[] = {
    [DIM_TEXTURE1D] = D3D12_UAV_DIMENSION_TEXTURE1D,
    [DIM_TEXTURE1DARRAY] = D3D12_UAV_DIMENSION_TEXTURE1DARRAY,
    [DIM_TEXTURE2D] = D3D12_UAV_DIMENSION_TEXTURE2D,
    [DIM_TEXTURE2DARRAY] = D3D12_UAV_DIMENSION_TEXTURE2DARRAY,
    [DIM_TEXTURE3D] = D3D12_UAV_DIMENSION_TEXTURE3D};

/* The UAV's resource (a buffer, or a one-mip texture of its format), its
 * counter, and the view the shader sees, written to descriptor `at`. */
static int create_uav(struct d3d12_run* d, unsigned i,
                      D3D12_CPU_DESCRIPTOR_HANDLE at) {
  const struct repro_uav* u = &repro_uavs[i];
  struct d3d12_uav* g = &d->uavs[i];
  D3D12_RESOURCE_DESC r = buffer_desc(4ull * u->words, 1);
  D3D12_UNORDERED_ACCESS_VIEW_DESC v = {
      .Format = dxgi_format(u->format),
      .ViewDimension = D3D12_UAV_DIMENSION_BUFFER,
      .Buffer = {.NumElements = u->words}};
  if (u->kind == KIND_RAW) {
    v.Format = DXGI_FORMAT_R32_TYPELESS;
    v.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
  } else if (u->kind == KIND_STRUCTURED) {
    v.Format = DXGI_FORMAT_UNKNOWN;
    v.Buffer.StructureByteStride = u->stride;
    v.Buffer.NumElements = u->elements;
  } else if (is_texture(u)) {
    r.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    r.Width = g->width, r.Height = g->height;
    r.DepthOrArraySize = (UINT16)g->layers;
    r.Format = v.Format;
    r.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    if (u->dim == DIM_TEXTURE1D || u->dim == DIM_TEXTURE1DARRAY)
      r.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE1D;
    if (u->dim == DIM_TEXTURE3D) {
      r.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE3D;
      r.DepthOrArraySize = (UINT16)g->depth;
    }
    v.ViewDimension = view_dims[u->dim];
    if (u->dim == DIM_TEXTURE1DARRAY) v.Texture1DArray.ArraySize = g->layers;
    if (u->dim == DIM_TEXTURE2DARRAY) v.Texture2DArray.ArraySize = g->layers;
    if (u->dim == DIM_TEXTURE3D) v.Texture3D.WSize = g->depth;
  }
  TRY(create_resource(d, D3D12_HEAP_TYPE_DEFAULT, &r,
                      D3D12_RESOURCE_STATE_COPY_DEST, &g->res),
      "CreateCommittedResource(UAV)");
  if (u->has_counter) { /* a 4-byte buffer of its own, the count at 0 */
    r = buffer_desc(4, 1);
    TRY(create_resource(d, D3D12_HEAP_TYPE_DEFAULT, &r,
                        D3D12_RESOURCE_STATE_COPY_DEST, &g->counter),
        "CreateCommittedResource(counter)");
  }
  ID3D12Device_CreateUnorderedAccessView(d->device, g->res, g->counter, &v, at);
  return 0;
}

/* The staging buffers, every declared UAV, and the shader-visible heap
 * that holds their views in table order. */
static int create_resources(struct d3d12_run* d) {
  const D3D12_RESOURCE_DESC b = buffer_desc(d->staging_bytes, 0);
  D3D12_DESCRIPTOR_HEAP_DESC h = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 0,
                                  D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
  D3D12_CPU_DESCRIPTOR_HANDLE at;
  unsigned i, step;
  int code;
  TRY(create_resource(d, D3D12_HEAP_TYPE_UPLOAD, &b,
                      D3D12_RESOURCE_STATE_GENERIC_READ, &d->upload),
      "CreateCommittedResource(upload)");
  TRY(create_resource(d, D3D12_HEAP_TYPE_READBACK, &b,
                      D3D12_RESOURCE_STATE_COPY_DEST, &d->readback),
      "CreateCommittedResource(readback)");
  for (i = 0; i < uav_count; ++i) h.NumDescriptors += !!repro_uavs[i].declared;
  if (!h.NumDescriptors) return 0;
  TRY(ID3D12Device_CreateDescriptorHeap(
          d->device, &h, &IID_ID3D12DescriptorHeap, (void**)&d->heap),
      "CreateDescriptorHeap");
  at = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(d->heap);
  step = ID3D12Device_GetDescriptorHandleIncrementSize(d->device, h.Type);
  for (i = 0; i < uav_count; ++i) {
    if (!repro_uavs[i].declared) continue;
    if ((code = create_uav(d, i, at))) return code;
    at.ptr += step;
  }
  return 0;
}

static void copy_buffer(ID3D12GraphicsCommandList* list, ID3D12Resource* res,
                        ID3D12Resource* staging, uint64_t at, uint64_t bytes,
                        int to_gpu) {
  if (to_gpu)
    ID3D12GraphicsCommandList_CopyBufferRegion(list, res, 0, staging, at,
                                               bytes);
  else
    ID3D12GraphicsCommandList_CopyBufferRegion(list, staging, at, res, 0,
                                               bytes);
}

/* Copies a UAV and its counter from the upload buffer, or to the readback
 * buffer; a texture one subresource (array slice) at a time. */
static void copy_uav(struct d3d12_run* d, unsigned i, int to_gpu) {
  const struct repro_uav* u = &repro_uavs[i];
  const struct d3d12_uav* g = &d->uavs[i];
  ID3D12Resource* staging = to_gpu ? d->upload : d->readback;
  uint32_t l;
  if (!is_texture(u))
    copy_buffer(d->list, g->res, staging, g->offset, 4ull * u->words, to_gpu);
  for (l = 0; is_texture(u) && l < g->layers; ++l) {
    D3D12_TEXTURE_COPY_LOCATION tex = {
        .pResource = g->res,
        .Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX,
        .SubresourceIndex = l}; /* one mip: subresource = slice */
    D3D12_TEXTURE_COPY_LOCATION rows = {
        .pResource = staging,
        .Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT,
        .PlacedFootprint = {g->offset + l * g->slice_bytes,
                            {dxgi_format(u->format), g->width, g->height,
                             g->depth, g->row_pitch}}};
    ID3D12GraphicsCommandList_CopyTextureRegion(
        d->list, to_gpu ? &tex : &rows, 0, 0, 0, to_gpu ? &rows : &tex, NULL);
  }
  if (g->counter)
    copy_buffer(d->list, g->counter, staging, g->counter_offset, 4, to_gpu);
}

static void transition_all(struct d3d12_run* d, D3D12_RESOURCE_STATES from,
                           D3D12_RESOURCE_STATES to) {
  D3D12_RESOURCE_BARRIER b[128];
  unsigned i, k, n = 0;
  for (i = 0; i < uav_count; ++i) {
    ID3D12Resource* res[2] = {d->uavs[i].res, d->uavs[i].counter};
    for (k = 0; k < 2; ++k)
      if (res[k])
        b[n++] = (D3D12_RESOURCE_BARRIER){
            .Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION,
            .Transition = {res[k], D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES,
                           from, to}};
  }
  if (n) ID3D12GraphicsCommandList_ResourceBarrier(d->list, n, b);
}

/* Writes the initial words (r holds them) to the upload buffer, or reads
 * the final ones from the readback buffer into r. */
static int stage(struct d3d12_run* d, struct repro_result* r, int upload) {
  ID3D12Resource* res = upload ? d->upload : d->readback;
  D3D12_RANGE read = {0, upload ? 0 : (SIZE_T)d->staging_bytes}, none = {0, 0};
  void* map = NULL;
  unsigned i;
  TRY(ID3D12Resource_Map(res, 0, &read, &map), "Map");
  for (i = 0; i < uav_count; ++i) {
    const struct d3d12_uav* g = &d->uavs[i];
    uint8_t* counter = (uint8_t*)map + g->counter_offset;
    if (!g->res) continue;
    move_rows(g, map, r->words[i], upload);
    if (g->counter && upload) memcpy(counter, &r->counters[i], 4);
    if (g->counter && !upload) memcpy(&r->counters[i], counter, 4);
  }
  ID3D12Resource_Unmap(res, 0, upload ? NULL : &none);
  return 0;
}

static long long now_ms(void) {
  struct timespec t;
  timespec_get(&t, TIME_UTC); /* C11 has no monotonic clock */
  return t.tv_sec * 1000ll + t.tv_nsec / 1000000;
}

/* vkd3d-utils 1.2's vkd3d_wait_event() has no timed wait (it prints "Timed
 * wait not implemented yet" and fails), so poll the fence. */
static int wait_fence(struct d3d12_run* d) {
  const struct timespec pause = {0, 1000000}; /* 1 ms */
  const long long deadline = now_ms() + REPRO_TIMEOUT_S * 1000ll;
  while (ID3D12Fence_GetCompletedValue(d->fence) < 1) {
    if (now_ms() >= deadline) return 0;
    thrd_sleep(&pause, NULL);
  }
  return 1;
}

/* Records upload, dispatch and readback in one list, runs it and waits.
 * `marker` (fork mode) learns when the dispatch is submitted. */
static int execute(struct d3d12_run* d, int marker) {
  ID3D12GraphicsCommandList* list = d->list;
  ID3D12CommandList* lists[1] = {(ID3D12CommandList*)list};
  unsigned i;
  HRESULT hr;
  for (i = 0; i < uav_count; ++i)
    if (d->uavs[i].res) copy_uav(d, i, 1);
  transition_all(d, D3D12_RESOURCE_STATE_COPY_DEST,
                 D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
  ID3D12GraphicsCommandList_SetComputeRootSignature(list, d->root_signature);
  ID3D12GraphicsCommandList_SetPipelineState(list, d->pipeline);
  if (d->heap) {
    ID3D12GraphicsCommandList_SetDescriptorHeaps(list, 1, &d->heap);
    ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(
        list, 0,
        ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(d->heap));
  }
  ID3D12GraphicsCommandList_Dispatch(list, repro_groups[0], repro_groups[1],
                                     repro_groups[2]);
  transition_all(d, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                 D3D12_RESOURCE_STATE_COPY_SOURCE);
  for (i = 0; i < uav_count; ++i)
    if (d->uavs[i].res) copy_uav(d, i, 0);
  TRY(ID3D12GraphicsCommandList_Close(list), "Close");

  if (marker >= 0) { /* from here on a hang is the run's, not the setup's */
    if (write(marker, "S", 1) != 1) return api_error("write(pipe)", E_FAIL);
    alarm(REPRO_TIMEOUT_S + 10); /* behind wait_fence's own limit */
  }
  ID3D12CommandQueue_ExecuteCommandLists(d->queue, 1, lists);
  d->busy = 1;
  TRY(ID3D12CommandQueue_Signal(d->queue, d->fence, 1), "Signal");
  if (!wait_fence(d)) {
    printf("FAIL: the run did not finish within %d s\n", REPRO_TIMEOUT_S);
    return 1;
  }
  d->busy = 0;
  if (FAILED(hr = ID3D12Device_GetDeviceRemovedReason(d->device))) {
    printf("FAIL: the device was lost in the run (0x%08x)\n", (unsigned)hr);
    return 1;
  }
  return 0;
}

static void release(struct d3d12_run* d) {
  IUnknown* objects[128 + 10];
  unsigned i, n = 0;
  for (i = 0; i < uav_count; ++i) {
    objects[n++] = (IUnknown*)d->uavs[i].res;
    objects[n++] = (IUnknown*)d->uavs[i].counter;
  }
  objects[n++] = (IUnknown*)d->heap;
  objects[n++] = (IUnknown*)d->upload;
  objects[n++] = (IUnknown*)d->readback;
  objects[n++] = (IUnknown*)d->fence;
  objects[n++] = (IUnknown*)d->list;
  objects[n++] = (IUnknown*)d->allocator;
  objects[n++] = (IUnknown*)d->queue;
  objects[n++] = (IUnknown*)d->pipeline;
  objects[n++] = (IUnknown*)d->root_signature;
  objects[n++] = (IUnknown*)d->device; /* last: the others need it */
  for (i = 0; i < n; ++i)
    if (objects[i]) IUnknown_Release(objects[i]);
}

/* The whole run: 0 with r filled, else the exit code, its line printed. */
static int run_d3d12(struct repro_result* r, int marker) {
  static struct d3d12_run d; /* one run per process */
  HRESULT hr;
  int code;
  memset(&d, 0, sizeof d);
  hr = D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device,
                         (void**)&d.device);
  if (FAILED(hr)) {
    printf(
        "ERROR: D3D12CreateDevice(11_0) returned 0x%08x: no Vulkan device "
        "vkd3d can use (VKD3D_DEBUG=warn says why)\n",
        (unsigned)hr);
    return 2;
  }
  print_device(d.device);
  if (!(code = plan_staging(&d)) && !(code = create_pipeline(&d)) &&
      !(code = create_commands(&d)) && !(code = create_resources(&d)) &&
      !(code = stage(&d, r, 1)) && !(code = execute(&d, marker)))
    code = stage(&d, r, 0);
  fflush(stdout);
  if (d.busy) _exit(code); /* the queue may still use it all: no teardown */
  release(&d);
  return code;
}

/* All n bytes through the pipe, or 0. */
static int pipe_all(int fd, void* p, size_t n, int send) {
  while (n) {
    ssize_t k = send ? write(fd, p, n) : read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return 0;
    p = (uint8_t*)p + k, n -= (size_t)k;
  }
  return 1;
}

static const char* signal_name(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGTRAP: return "SIGTRAP";
    default: return "see kill -l";
  }
}

/* Runs in a child, so that a crash in the driver is a FAIL line rather than
 * the reproducer's own death. The child sends 'S' when it submits, then the
 * words of every UAV and the counters; SIGALRM stops a child that hangs. */
static int run_forked(struct repro_result* r) {
  int fds[2], status, code, submitted, complete = 1;
  unsigned i;
  char tag = 0;
  pid_t pid;
  fflush(stdout);
  if (pipe(fds) != 0 || (pid = fork()) < 0) {
    printf("ERROR: pipe or fork failed: %s\n", strerror(errno));
    return 2;
  }
  if (pid == 0) {
    close(fds[0]);
    alarm(REPRO_SETUP_TIMEOUT_S);
    code = run_d3d12(r, fds[1]);
    for (i = 0; i < uav_count && !code; ++i)
      if (!pipe_all(fds[1], r->words[i], 4 * (size_t)repro_uavs[i].words, 1))
        code = 2;
    if (!code && !pipe_all(fds[1], r->counters, 4 * (size_t)uav_count, 1))
      code = 2;
    fflush(stdout);
    _exit(code); /* not exit(): no driver teardown in the child */
  }
  close(fds[1]);
  submitted = pipe_all(fds[0], &tag, 1, 0) && tag == 'S';
  for (i = 0; i < uav_count; ++i)
    complete &=
        pipe_all(fds[0], r->words[i], 4 * (size_t)repro_uavs[i].words, 0);
  complete &= pipe_all(fds[0], r->counters, 4 * (size_t)uav_count, 0);
  close(fds[0]);
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      printf("ERROR: waitpid failed: %s\n", strerror(errno));
      return 2;
    }
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM && submitted)
    printf("FAIL: the run did not finish within %d s\n", REPRO_TIMEOUT_S);
  else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
    printf(
        "FAIL: creating the device and pipeline did not finish within "
        "%d s\n",
        REPRO_SETUP_TIMEOUT_S);
  else if (WIFSIGNALED(status))
    printf("FAIL: the run died of signal %d (%s)\n", WTERMSIG(status),
           signal_name(WTERMSIG(status)));
  if (WIFSIGNALED(status)) return 1;
  code = WIFEXITED(status) ? WEXITSTATUS(status) : 2;
  if (code) return code == 1 ? 1 : 2;
  if (!submitted || !complete) {
    printf("ERROR: the run ended without sending back its words\n");
    return 2;
  }
  return 0;
}

int main(void) {
  static struct repro_result r;
  const char* no_fork = getenv("REPRO_NO_FORK");
  unsigned i;
  int code = 0;
  setvbuf(stdout, NULL, _IOLBF, 0); /* lines survive a crash in the child */
  if (uav_count > 64) {
    printf("ERROR: %u UAVs, D3D12 binds 64\n", uav_count);
    return 2;
  }
  /* Every UAV starts as its initial words; undeclared ones stay so. */
  for (i = 0; i < uav_count && !code; ++i) {
    const struct repro_uav* u = &repro_uavs[i];
    if ((code = check_uav(i))) break;
    if (!(r.words[i] = malloc(4 * (size_t)u->words + 4))) {
      printf("ERROR: out of memory for u%u\n", u->slot);
      code = 2;
      break;
    }
    if (u->words) memcpy(r.words[i], u->init, 4 * (size_t)u->words);
    r.counters[i] = u->counter;
  }
  if (!code)
    code =
        no_fork && !strcmp(no_fork, "1") ? run_d3d12(&r, -1) : run_forked(&r);
  if (!code) code = repro_judge(&r);
  for (i = 0; i < uav_count; ++i) free(r.words[i]);
  return code;
}
