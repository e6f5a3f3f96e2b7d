/* The Direct3D 11 part of an atomfuzz reproducer: runs the case's shader
 * through D3D11 (on Windows, or on Wine's wined3d) and judges the words.
 *
 * Build (Debian bookworm: gcc-mingw-w64-x86-64):
 *   x86_64-w64-mingw32-gcc -std=c11 -O1 -Wall -Wextra repro.c -o repro.exe \
 *       -ld3d11 -ldxgi -ldxguid
 * Run under Wine (bookworm: wine wine64 libwine xvfb xauth); D3D needs an
 * X display, and a prefix is made once:
 *   Xvfb :7 -screen 0 1024x768x24 -nolisten tcp &
 *   export DISPLAY=:7 WINEPREFIX=/tmp/repro-prefix
 *   WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
 *       /usr/lib/wine/wine64 wineboot -i && /usr/lib/wine/wineserver -w
 *   /usr/lib/wine/wine64 repro.exe                     # GL renderer
 *   WINE_D3D_CONFIG=renderer=vulkan /usr/lib/wine/wine64 repro.exe
 * (/usr/bin/wine wants wine32; call wine64 directly. Keep DISPLAY set for
 * every run: the prefix's first program picks the graphics driver.)
 * wined3d reports a shader it cannot translate only on stderr
 * (fixme:/err:d3d_shader) and skips the dispatch; WINEDEBUG=+d3d_shader
 * prints its GLSL. A crash inside the host's driver (llvmpipe's threads)
 * kills wine64 itself: no FAIL line, the shell sees status 139.
 *
 * Prints `device: ...`, then PASS (exit 0) or FAIL lines (exit 1; also a
 * refused shader, a crash, or no end within 60 s); ERROR (exit 2) when the
 * case cannot be set up: no device, an API call outside the shader failed,
 * or more UAV slots than the device binds. */
#define COBJMACROS
#define WIN32_LEAN_AND_MEAN
#include <d3d11.h>
#include <dxgi.h>
#include <stdarg.h>
#include <windows.h>

#define REPRO_TIMEOUT_MS 60000u
#define REPRO_MAX_SLOTS 64         /* u0..u63 */
#define REPRO_MAX_WORDS (1u << 22) /* the case format's limit */
#define REPRO_SLOTS_11_0 8         /* D3D11_PS_CS_UAV_REGISTER_COUNT */
#define REPRO_SLOTS_11_1 64        /* D3D11_1_UAV_SLOT_COUNT */

/* A helper shader that moves u0's hidden counter on by one:
 *   cs_5_0 / dcl_uav_structured_opc u0, 4 / dcl_temps 1 /
 *   dcl_thread_group 1, 1, 1 / imm_atomic_alloc r0.x, u0 / ret
 * D3D11 cannot start a counter at 0xffffffff (that initial count means
 * "keep the current one"), so such counters start at 0xfffffffe and this
 * shader runs once. */
static const uint32_t preset_dxbc[] = {
    0x43425844, 0xce93bc4d, 0x9e2433f0, 0x27b3b5e7, 0x21581929, 0x00000001,
    0x0000009c, 0x00000003, 0x0000002c, 0x0000003c, 0x0000004c, 0x4e475349,
    0x00000008, 0x00000000, 0x00000008, 0x4e47534f, 0x00000008, 0x00000000,
    0x00000008, 0x58454853, 0x00000048, 0x00050050, 0x00000012, 0x0480009e,
    0x0011e000, 0x00000000, 0x00000004, 0x02000068, 0x00000001, 0x0400009b,
    0x00000001, 0x00000001, 0x00000001, 0x050000b2, 0x00100012, 0x00000000,
    0x0011e000, 0x00000000, 0x0100003e,
};

/* Not the macro: a count of 0 would make every loop a -Wtype-limits warning. */
static const unsigned n_uavs = REPRO_UAV_COUNT;

static ID3D11Device* dev;
static ID3D11DeviceContext* ctx;
static D3D_FEATURE_LEVEL level;

/* Per entry of repro_uavs (declared ones only). */
static ID3D11Resource *res[REPRO_MAX_SLOTS], *staging[REPRO_MAX_SLOTS];
static ID3D11UnorderedAccessView* views[REPRO_MAX_SLOTS];

/* Every exit: flush (Wine's console is a pipe, fully buffered), then
 * TerminateProcess, since DLL detach in wined3d/Mesa can crash or hang and
 * would hide the verdict. */
static void leave(int code) {
  fflush(stdout);
  fflush(stderr);
  TerminateProcess(GetCurrentProcess(), (UINT)code);
  exit(code); /* not reached */
}

/* The case could not be set up: not a verdict on the shader. */
static void error_exit(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("ERROR: ");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  leave(2);
}

static void check_hr(HRESULT hr, const char* what, unsigned slot) {
  if (FAILED(hr))
    error_exit("%s for u%u returned 0x%08lx", what, slot, (unsigned long)hr);
}

static LONG WINAPI on_crash(EXCEPTION_POINTERS* e) {
  printf("FAIL: the run crashed (exception 0x%08lx at %p)\n",
         (unsigned long)e->ExceptionRecord->ExceptionCode,
         e->ExceptionRecord->ExceptionAddress);
  leave(1);
  return EXCEPTION_EXECUTE_HANDLER;
}

/* A hung dispatch blocks Map forever; this thread turns that into a FAIL. */
static DWORD WINAPI watchdog(LPVOID unused) {
  (void)unused;
  Sleep(REPRO_TIMEOUT_MS);
  printf("FAIL: the run did not finish in %u s (%s)\n", REPRO_TIMEOUT_MS / 1000,
         REPRO_NAME);
  leave(1);
  return 0;
}

/* Width, height, depth and array layers of a UAV's resource. */
static void shape(const struct repro_uav* u, UINT* w, UINT* h, UINT* d,
                  UINT* layers) {
  *w = u->dim == DIM_BUFFER ? u->words : u->size[0];
  *h = *d = *layers = 1;
  if (u->dim == DIM_TEXTURE1DARRAY) *layers = u->size[1];
  if (u->dim == DIM_TEXTURE2D) *h = u->size[1];
  if (u->dim == DIM_TEXTURE2DARRAY) *h = u->size[1], *layers = u->size[2];
  if (u->dim == DIM_TEXTURE3D) *h = u->size[1], *d = u->size[2];
}

/* The data block is generated, but it is C a person may edit: every size
 * the code below trusts is checked here. */
static void check_uav(unsigned i) {
  const struct repro_uav* u = &repro_uavs[i];
  uint64_t texels = (uint64_t)u->size[0] * u->size[1] * u->size[2];
  int textured = u->dim != DIM_BUFFER;
  const char* bad = NULL;
  if (u->slot >= REPRO_MAX_SLOTS ||
      (i > 0 && u->slot <= repro_uavs[i - 1].slot))
    bad = "slots must be u0..u63, sorted, once each";
  else if (u->words > REPRO_MAX_WORDS || !u->init)
    bad = "more than 2^22 words, or no initial words";
  else if (u->format > FORMAT_R32_FLOAT || u->kind > KIND_TYPED)
    bad = "an unknown kind or format";
  else if (u->kind != KIND_TYPED && textured)
    bad = "raw and structured UAVs are buffers";
  else if (u->has_counter && u->kind != KIND_STRUCTURED)
    bad = "only structured UAVs have counters";
  else if (u->kind == KIND_STRUCTURED &&
           (u->stride == 0 || u->stride % 4 || u->stride > 2048 ||
            (uint64_t)u->stride * u->elements != 4ull * u->words))
    bad = "stride x elements is not 4 x words";
  else if (u->kind == KIND_TYPED && texels != u->words)
    bad = "size[0] x size[1] x size[2] is not words";
  else if (textured && u->dim != DIM_TEXTURE1D && u->dim != DIM_TEXTURE2D &&
           u->dim != DIM_TEXTURE3D && u->dim != DIM_TEXTURE1DARRAY &&
           u->dim != DIM_TEXTURE2DARRAY)
    bad = "an unknown dimension";
  if (bad) error_exit("the data block's u%u: %s", u->slot, bad);
}

/* What D3D11 itself cannot create (for the UAVs it binds). */
static void check_d3d11_limits(const struct repro_uav* u) {
  UINT w, h, d, layers, max_wh = u->dim == DIM_TEXTURE3D ? 2048 : 16384;
  shape(u, &w, &h, &d, &layers);
  if (u->words == 0)
    error_exit("u%u has no words: D3D11 cannot create an empty resource",
               u->slot);
  if (u->dim != DIM_BUFFER &&
      (w > max_wh || h > max_wh || d > 2048 || layers > 2048))
    error_exit("u%u: %ux%ux%u exceeds D3D11's texture limits", u->slot,
               u->size[0], u->size[1], u->size[2]);
}

static DXGI_FORMAT dxgi_format(unsigned f) {
  if (f == FORMAT_R32_SINT) return DXGI_FORMAT_R32_SINT;
  if (f == FORMAT_R32_FLOAT) return DXGI_FORMAT_R32_FLOAT;
  return DXGI_FORMAT_R32_UINT;
}

static void create_device(void) {
  static const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_1,
                                             D3D_FEATURE_LEVEL_11_0};
  IDXGIDevice* dxgi = NULL;
  IDXGIAdapter* adapter = NULL;
  DXGI_ADAPTER_DESC ad;
  char name[256] = "an unknown adapter";
  HRESULT hr =
      D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, levels, 2,
                        D3D11_SDK_VERSION, &dev, &level, &ctx);
  if (hr == E_INVALIDARG) /* a D3D11.0 runtime does not know 11_1 */
    hr = D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, levels + 1,
                           1, D3D11_SDK_VERSION, &dev, &level, &ctx);
  if (FAILED(hr))
    error_exit(
        "D3D11CreateDevice (hardware, feature level 11_0) returned "
        "0x%08lx; under Wine, is DISPLAY an X server?",
        (unsigned long)hr);
  if (SUCCEEDED(
          ID3D11Device_QueryInterface(dev, &IID_IDXGIDevice, (void**)&dxgi)) &&
      SUCCEEDED(IDXGIDevice_GetAdapter(dxgi, &adapter)) &&
      SUCCEEDED(IDXGIAdapter_GetDesc(adapter, &ad)) &&
      !WideCharToMultiByte(CP_UTF8, 0, ad.Description, -1, name, sizeof name,
                           NULL, NULL))
    snprintf(name, sizeof name, "an unknown adapter");
  if (adapter) IDXGIAdapter_Release(adapter);
  if (dxgi) IDXGIDevice_Release(dxgi);
  printf("device: %s, feature level %s\n", name,
         level >= D3D_FEATURE_LEVEL_11_1 ? "11_1" : "11_0");
  fflush(stdout); /* seen even when the host driver kills the process */
}

static void create_buffer_uav(unsigned i) {
  const struct repro_uav* u = &repro_uavs[i];
  D3D11_BUFFER_DESC bd;
  D3D11_UNORDERED_ACCESS_VIEW_DESC vd;
  D3D11_SUBRESOURCE_DATA init = {u->init, 0, 0};
  ID3D11Buffer* b = NULL;
  memset(&bd, 0, sizeof bd);
  memset(&vd, 0, sizeof vd);
  bd.ByteWidth = 4 * u->words;
  bd.Usage = D3D11_USAGE_DEFAULT;
  bd.BindFlags = D3D11_BIND_UNORDERED_ACCESS;
  vd.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
  vd.Buffer.NumElements = u->words;
  if (u->kind == KIND_RAW) {
    bd.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS;
    vd.Format = DXGI_FORMAT_R32_TYPELESS;
    vd.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_RAW;
  } else if (u->kind == KIND_STRUCTURED) {
    bd.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED;
    bd.StructureByteStride = u->stride;
    vd.Format = DXGI_FORMAT_UNKNOWN;
    vd.Buffer.NumElements = u->elements;
    if (u->has_counter) vd.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_COUNTER;
  } else {
    vd.Format = dxgi_format(u->format);
  }
  check_hr(ID3D11Device_CreateBuffer(dev, &bd, &init, &b), "CreateBuffer",
           u->slot);
  res[i] = (ID3D11Resource*)b;
  check_hr(ID3D11Device_CreateUnorderedAccessView(dev, res[i], &vd, &views[i]),
           "CreateUnorderedAccessView", u->slot);
  /* Readback needs only the same byte size, not the same flags. */
  bd.Usage = D3D11_USAGE_STAGING;
  bd.BindFlags = bd.MiscFlags = bd.StructureByteStride = 0;
  bd.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
  check_hr(ID3D11Device_CreateBuffer(dev, &bd, NULL, &b),
           "CreateBuffer(staging)", u->slot);
  staging[i] = (ID3D11Resource*)b;
}

/* One texture of the UAV's shape: the UAV itself (with its words) or its
 * staging twin (init NULL). */
static HRESULT create_texture(const struct repro_uav* u, int is_staging,
                              const D3D11_SUBRESOURCE_DATA* init,
                              ID3D11Resource** out) {
  UINT w, h, d, layers;
  D3D11_USAGE usage = is_staging ? D3D11_USAGE_STAGING : D3D11_USAGE_DEFAULT;
  UINT bind = is_staging ? 0 : D3D11_BIND_UNORDERED_ACCESS;
  UINT cpu = is_staging ? D3D11_CPU_ACCESS_READ : 0;
  DXGI_FORMAT f = dxgi_format(u->format);
  shape(u, &w, &h, &d, &layers);
  if (u->dim == DIM_TEXTURE3D) {
    D3D11_TEXTURE3D_DESC td = {w, h, d, 1, f, usage, bind, cpu, 0};
    return ID3D11Device_CreateTexture3D(dev, &td, init, (ID3D11Texture3D**)out);
  }
  if (u->dim == DIM_TEXTURE2D || u->dim == DIM_TEXTURE2DARRAY) {
    D3D11_TEXTURE2D_DESC td = {w, h, 1, layers, f, {1, 0}, usage, bind, cpu, 0};
    return ID3D11Device_CreateTexture2D(dev, &td, init, (ID3D11Texture2D**)out);
  }
  D3D11_TEXTURE1D_DESC td = {w, 1, layers, f, usage, bind, cpu, 0};
  return ID3D11Device_CreateTexture1D(dev, &td, init, (ID3D11Texture1D**)out);
}

static void create_texture_uav(unsigned i) {
  const struct repro_uav* u = &repro_uavs[i];
  D3D11_UNORDERED_ACCESS_VIEW_DESC vd;
  D3D11_SUBRESOURCE_DATA* init;
  UINT w, h, d, layers, l;
  shape(u, &w, &h, &d, &layers);
  /* Each array slice is a subresource; the packed words are slice-major. */
  if (!(init = calloc(layers, sizeof *init)))
    error_exit("out of memory for u%u", u->slot);
  for (l = 0; l < layers; ++l) {
    init[l].pSysMem = u->init + (size_t)l * w * h * d;
    init[l].SysMemPitch = w * 4;
    init[l].SysMemSlicePitch = w * h * 4;
  }
  check_hr(create_texture(u, 0, init, &res[i]), "CreateTexture", u->slot);
  check_hr(create_texture(u, 1, NULL, &staging[i]), "CreateTexture(staging)",
           u->slot);
  free(init);
  memset(&vd, 0, sizeof vd);
  vd.Format = dxgi_format(u->format);
  switch (u->dim) {
    case DIM_TEXTURE1D: vd.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE1D; break;
    case DIM_TEXTURE1DARRAY:
      vd.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE1DARRAY;
      vd.Texture1DArray.ArraySize = layers;
      break;
    case DIM_TEXTURE2D: vd.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2D; break;
    case DIM_TEXTURE2DARRAY:
      vd.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2DARRAY;
      vd.Texture2DArray.ArraySize = layers;
      break;
    default:
      vd.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE3D;
      vd.Texture3D.WSize = d;
      break;
  }
  check_hr(ID3D11Device_CreateUnorderedAccessView(dev, res[i], &vd, &views[i]),
           "CreateUnorderedAccessView", u->slot);
}

/* A view's hidden counter, through CopyStructureCount into a default
 * buffer and a staging copy (the documented path). */
static uint32_t read_counter(ID3D11UnorderedAccessView* view, unsigned slot) {
  static ID3D11Buffer *dst, *stage;
  D3D11_BUFFER_DESC bd = {
      16, D3D11_USAGE_DEFAULT, D3D11_BIND_SHADER_RESOURCE, 0, 0, 0};
  D3D11_MAPPED_SUBRESOURCE m;
  uint32_t v;
  if (!dst) {
    check_hr(ID3D11Device_CreateBuffer(dev, &bd, NULL, &dst),
             "CreateBuffer(counter)", slot);
    bd.Usage = D3D11_USAGE_STAGING;
    bd.BindFlags = 0;
    bd.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    check_hr(ID3D11Device_CreateBuffer(dev, &bd, NULL, &stage),
             "CreateBuffer(counter staging)", slot);
  }
  ID3D11DeviceContext_CopyStructureCount(ctx, dst, 0, view);
  ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource*)stage,
                                   (ID3D11Resource*)dst);
  check_hr(ID3D11DeviceContext_Map(ctx, (ID3D11Resource*)stage, 0,
                                   D3D11_MAP_READ, 0, &m),
           "Map(counter)", slot);
  memcpy(&v, m.pData, 4);
  ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource*)stage, 0);
  return v;
}

/* Counters that must start at 0xffffffff: start them at 0xfffffffe and run
 * the helper once (see preset_dxbc). */
static void preset_max_counters(void) {
  ID3D11ComputeShader* cs = NULL;
  UINT start = 0xfffffffeu, i;
  for (i = 0; i < n_uavs; ++i) {
    const struct repro_uav* u = &repro_uavs[i];
    uint32_t got;
    if (!u->declared || !u->has_counter || u->counter != 0xffffffffu) continue;
    if (!cs)
      check_hr(ID3D11Device_CreateComputeShader(dev, preset_dxbc,
                                                sizeof preset_dxbc, NULL, &cs),
               "CreateComputeShader(counter preset helper)", u->slot);
    ID3D11DeviceContext_CSSetShader(ctx, cs, NULL, 0);
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, 1, &views[i], &start);
    ID3D11DeviceContext_Dispatch(ctx, 1, 1, 1);
    if ((got = read_counter(views[i], u->slot)) != 0xffffffffu)
      error_exit(
          "could not start u%u's counter at 0xffffffff (the helper "
          "dispatch left 0x%08x)",
          u->slot, got);
  }
  if (cs) ID3D11ComputeShader_Release(cs);
}

/* Binds every declared UAV at its u#, then asks what got bound: Wine drops
 * a CSSetUnorderedAccessViews of more than 8 slots without a word. */
static void bind_uavs(void) {
  ID3D11UnorderedAccessView *want[REPRO_MAX_SLOTS] = {0}, *got[REPRO_MAX_SLOTS];
  UINT counts[REPRO_MAX_SLOTS], nslots = 0, max, i;
  for (i = 0; i < REPRO_MAX_SLOTS; ++i) counts[i] = 0xffffffffu; /* keep */
  for (i = 0; i < n_uavs; ++i) {
    const struct repro_uav* u = &repro_uavs[i];
    if (!u->declared) continue;
    want[u->slot] = views[i];
    if (u->has_counter) counts[u->slot] = u->counter; /* ~0: preset above */
    nslots = u->slot + 1;
  }
  max = level >= D3D_FEATURE_LEVEL_11_1 ? REPRO_SLOTS_11_1 : REPRO_SLOTS_11_0;
  if (nslots > max)
    error_exit("the case binds u%u; feature level %s binds u0..u%u only",
               nslots - 1, max == REPRO_SLOTS_11_1 ? "11_1" : "11_0", max - 1);
  if (!nslots) return;
  ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, nslots, want, counts);
  memset(got, 0, sizeof got);
  ID3D11DeviceContext_CSGetUnorderedAccessViews(ctx, 0, nslots, got);
  for (i = 0; i < nslots; ++i) {
    if (got[i]) ID3D11UnorderedAccessView_Release(got[i]);
    if (got[i] != want[i])
      error_exit(
          "CSSetUnorderedAccessViews(0, %u, ...) did not bind u%u, "
          "though feature level %s allows %u slots (Wine takes 8)",
          nslots, i, max == REPRO_SLOTS_11_1 ? "11_1" : "11_0", max);
  }
}

/* Copies a UAV back into packed words: x fastest, then y, then z/slice. */
static void read_back(unsigned i, uint32_t* words) {
  const struct repro_uav* u = &repro_uavs[i];
  UINT w, h, d, layers, l, y, z;
  shape(u, &w, &h, &d, &layers);
  ID3D11DeviceContext_CopyResource(ctx, staging[i], res[i]);
  for (l = 0; l < layers; ++l) {
    D3D11_MAPPED_SUBRESOURCE m;
    const uint8_t* base;
    check_hr(ID3D11DeviceContext_Map(ctx, staging[i], l, D3D11_MAP_READ, 0, &m),
             "Map", u->slot);
    base = m.pData;
    for (z = 0; z < d; ++z)
      for (y = 0; y < h; ++y)
        memcpy(words + (((size_t)l * d + z) * h + y) * w,
               base + (size_t)z * m.DepthPitch + (size_t)y * m.RowPitch,
               (size_t)w * 4);
    ID3D11DeviceContext_Unmap(ctx, staging[i], l);
  }
}

int main(void) {
  static struct repro_result result;
  ID3D11ComputeShader* cs = NULL;
  HRESULT hr;
  unsigned i;
  SetUnhandledExceptionFilter(on_crash);
  if (REPRO_UAV_COUNT > REPRO_MAX_SLOTS || REPRO_DXBC_BYTES > sizeof repro_dxbc)
    error_exit("the data block has more than 64 UAVs or a short repro_dxbc");
  for (i = 0; i < 3; ++i)
    if (repro_groups[i] > D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION)
      error_exit("groups %u, %u, %u: D3D11 allows at most 65535 each",
                 repro_groups[0], repro_groups[1], repro_groups[2]);
  for (i = 0; i < n_uavs; ++i) {
    check_uav(i);
    if (repro_uavs[i].declared) check_d3d11_limits(&repro_uavs[i]);
    /* One spare word: malloc(0) may return NULL for an empty UAV. */
    if (!(result.words[i] = malloc(4 * (size_t)repro_uavs[i].words + 4)))
      error_exit("out of memory for u%u", repro_uavs[i].slot);
    memcpy(result.words[i], repro_uavs[i].init,
           4 * (size_t)repro_uavs[i].words);
    result.counters[i] = repro_uavs[i].counter;
  }
  create_device();
  if (!CreateThread(NULL, 0, watchdog, NULL, 0, NULL))
    error_exit("CreateThread(watchdog) failed: %lu", GetLastError());

  hr = ID3D11Device_CreateComputeShader(dev, repro_dxbc, REPRO_DXBC_BYTES, NULL,
                                        &cs);
  if (FAILED(hr)) {
    printf("FAIL: CreateComputeShader returned 0x%08lx (%s)\n",
           (unsigned long)hr, REPRO_NAME);
    leave(1);
  }
  for (i = 0; i < n_uavs; ++i) {
    if (!repro_uavs[i].declared) continue;
    if (repro_uavs[i].dim == DIM_BUFFER)
      create_buffer_uav(i);
    else
      create_texture_uav(i);
  }
  preset_max_counters();
  ID3D11DeviceContext_CSSetShader(ctx, cs, NULL, 0);
  bind_uavs();
  ID3D11DeviceContext_Dispatch(ctx, repro_groups[0], repro_groups[1],
                               repro_groups[2]);

  /* Undeclared UAVs keep the initial words copied above. */
  for (i = 0; i < n_uavs; ++i) {
    if (!repro_uavs[i].declared) continue;
    read_back(i, result.words[i]);
    if (repro_uavs[i].has_counter)
      result.counters[i] = read_counter(views[i], repro_uavs[i].slot);
  }
  /* The process ends here: TerminateProcess frees the D3D objects. */
  leave(repro_judge(&result));
  return 0;
}
