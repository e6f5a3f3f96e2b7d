/* atomfuzz's Windows program for the wine target: runs compute-shader cases
 * through Direct3D 11 (under Wine, wined3d), one request frame at a time.
 * The frames are described in ../runner_wire.h.
 *
 * Build: x86_64-w64-mingw32-gcc -std=c11 -O2 -Wall -Wextra -I.. \
 *          -o d3d11_runner.exe d3d11_runner.c -ld3d11 -ldxgi -ldxguid
 *
 * Exit codes: 0 input ended, 1 stdout failed, 2 a malformed or truncated
 * request, 3 no device. */
#define COBJMACROS
#define WIN32_LEAN_AND_MEAN
#include <d3d11.h>
#include <dxgi.h>
#include <fcntl.h>
#include <io.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

#include "runner_wire.h"

static const char kProgramName[] = "d3d11_runner";
#include "win32_frames.h"

static ID3D11Device* device;
static ID3D11DeviceContext* ctx;
static D3D_FEATURE_LEVEL level;

/* A growing output frame; its first u32 is the length, patched at send. */
typedef struct {
  uint8_t* p;
  size_t len, cap;
} Out;

static void out_bytes(Out* o, const void* src, size_t n) {
  if (o->len + n > o->cap) {
    size_t cap = o->cap ? o->cap : 4096;
    while (cap < o->len + n) cap *= 2;
    uint8_t* p = realloc(o->p, cap);
    if (!p) die(1, "out of memory (%zu bytes)", cap);
    o->p = p, o->cap = cap;
  }
  if (src) memcpy(o->p + o->len, src, n);
  o->len += n;
}
static void out_u32(Out* o, uint32_t v) { out_bytes(o, &v, 4); } /* x86: LE */
static void out_send(Out* o) {
  uint32_t len = (uint32_t)(o->len - 4);
  memcpy(o->p, &len, 4);
  write_full(o->p, o->len);
  o->len = 0;
}

typedef struct {
  uint32_t slot, kind, dim, format, stride, sx, sy, sz, flags, counter, n;
  const uint32_t* words; /* inside the frame, 4-aligned */
  ID3D11Resource *res, *staging;
  ID3D11UnorderedAccessView* uav;
} Uav;

static const char* const dim_names[] = {"buffer",         "texture1d",
                                        "texture1darray", "texture2d",
                                        "texture2darray", "texture3d"};

/* Checks one UAV's description against the header; dies when it breaks it. */
static void check_uav(const Uav* u) {
  uint32_t s = u->slot;
  if (u->kind > ATOMFUZZ_WINE_KIND_TYPED) die(2, "u%u: kind %u", s, u->kind);
  if (u->dim > ATOMFUZZ_WINE_DIM_TEXTURE3D) die(2, "u%u: dim %u", s, u->dim);
  if (u->kind != ATOMFUZZ_WINE_KIND_TYPED && u->dim != ATOMFUZZ_WINE_DIM_BUFFER)
    die(2, "u%u: raw/structured with dim %u", s, u->dim);
  if (u->kind == ATOMFUZZ_WINE_KIND_TYPED
          ? (u->format != DXGI_FORMAT_R32_UINT &&
             u->format != DXGI_FORMAT_R32_SINT &&
             u->format != DXGI_FORMAT_R32_FLOAT)
          : u->format != 0)
    die(2, "u%u: format %u", s, u->format);
  if (u->kind == ATOMFUZZ_WINE_KIND_STRUCTURED
          ? (u->stride == 0 || u->stride % 4 || u->stride > 2048)
          : u->stride != 0)
    die(2, "u%u: stride %u", s, u->stride);
  if (u->flags & ~ATOMFUZZ_WINE_COUNTER ||
      (u->flags && u->kind != ATOMFUZZ_WINE_KIND_STRUCTURED))
    die(2, "u%u: flags 0x%x", s, u->flags);
  if (!(u->flags & ATOMFUZZ_WINE_COUNTER) && u->counter != 0)
    die(2, "u%u: counter %u without the counter flag", s, u->counter);
  /* Extents a dimension does not have must be 1. */
  int used = 1;
  if (u->dim == ATOMFUZZ_WINE_DIM_TEXTURE1DARRAY ||
      u->dim == ATOMFUZZ_WINE_DIM_TEXTURE2D)
    used = 2;
  if (u->dim == ATOMFUZZ_WINE_DIM_TEXTURE2DARRAY ||
      u->dim == ATOMFUZZ_WINE_DIM_TEXTURE3D)
    used = 3;
  if ((used < 2 && u->sy != 1) || (used < 3 && u->sz != 1))
    die(2, "u%u: size %u, %u, %u for a %s", s, u->sx, u->sy, u->sz,
        dim_names[u->dim]);
  uint64_t want = (uint64_t)u->sx * u->sy * u->sz;
  if (u->kind == ATOMFUZZ_WINE_KIND_STRUCTURED) want = want * u->stride / 4;
  if (want != u->n)
    die(2, "u%u: %u words for a shape of %llu", s, u->n,
        (unsigned long long)want);
}

/* ---- Per-case resources. */

static void release_uav(Uav* u) {
  if (u->uav) ID3D11UnorderedAccessView_Release(u->uav);
  if (u->res) ID3D11Resource_Release(u->res);
  if (u->staging) ID3D11Resource_Release(u->staging);
  u->uav = NULL, u->res = u->staging = NULL;
}

#define TRY(call, name)                                                \
  do {                                                                 \
    HRESULT hr_ = (call);                                              \
    if (FAILED(hr_)) {                                                 \
      snprintf(msg, msg_cap, "%s: 0x%08lx", name, (unsigned long)hr_); \
      return 0;                                                        \
    }                                                                  \
  } while (0)

/* Creates the resource (with its initial words), its UAV and a staging
 * twin for reading it back. 0 with msg set on a failed call. */
static int create_uav(Uav* u, char* msg, size_t msg_cap) {
  D3D11_UNORDERED_ACCESS_VIEW_DESC vd;
  memset(&vd, 0, sizeof vd);
  if (u->dim == ATOMFUZZ_WINE_DIM_BUFFER) {
    D3D11_BUFFER_DESC bd = {0};
    D3D11_SUBRESOURCE_DATA init = {u->words, 0, 0};
    ID3D11Buffer* b = NULL;
    bd.ByteWidth = 4 * u->n;
    bd.Usage = D3D11_USAGE_DEFAULT;
    bd.BindFlags = D3D11_BIND_UNORDERED_ACCESS;
    vd.ViewDimension = D3D11_UAV_DIMENSION_BUFFER;
    vd.Buffer.NumElements = u->n;
    if (u->kind == ATOMFUZZ_WINE_KIND_RAW) {
      bd.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS;
      vd.Format = DXGI_FORMAT_R32_TYPELESS;
      vd.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_RAW;
    } else if (u->kind == ATOMFUZZ_WINE_KIND_STRUCTURED) {
      bd.MiscFlags = D3D11_RESOURCE_MISC_BUFFER_STRUCTURED;
      bd.StructureByteStride = u->stride;
      vd.Format = DXGI_FORMAT_UNKNOWN;
      vd.Buffer.NumElements = 4 * u->n / u->stride;
      if (u->flags & ATOMFUZZ_WINE_COUNTER)
        vd.Buffer.Flags = D3D11_BUFFER_UAV_FLAG_COUNTER;
    } else {
      vd.Format = (DXGI_FORMAT)u->format;
    }
    TRY(ID3D11Device_CreateBuffer(device, &bd, &init, &b), "CreateBuffer");
    u->res = (ID3D11Resource*)b;
    /* A plain staging buffer: CopyResource only needs the same byte size. */
    bd.Usage = D3D11_USAGE_STAGING;
    bd.BindFlags = bd.MiscFlags = bd.StructureByteStride = 0;
    bd.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    TRY(ID3D11Device_CreateBuffer(device, &bd, NULL, &b),
        "CreateBuffer(staging)");
    u->staging = (ID3D11Resource*)b;
  } else {
    /* Array slices are separate subresources; a 3D texture is one. */
    uint32_t w = u->sx, h = 1, layers = 1, depth = 1;
    if (u->dim == ATOMFUZZ_WINE_DIM_TEXTURE1DARRAY) layers = u->sy;
    if (u->dim == ATOMFUZZ_WINE_DIM_TEXTURE2D) h = u->sy;
    if (u->dim == ATOMFUZZ_WINE_DIM_TEXTURE2DARRAY) h = u->sy, layers = u->sz;
    if (u->dim == ATOMFUZZ_WINE_DIM_TEXTURE3D) h = u->sy, depth = u->sz;
    D3D11_SUBRESOURCE_DATA stack_init[16], *init = stack_init;
    if (layers > 16 && !(init = malloc(layers * sizeof *init)))
      die(1, "out of memory");
    for (uint32_t l = 0; l < layers; ++l) {
      init[l].pSysMem = u->words + (size_t)l * w * h;
      init[l].SysMemPitch = w * 4;
      init[l].SysMemSlicePitch = w * h * 4;
    }
    DXGI_FORMAT f = (DXGI_FORMAT)u->format;
    HRESULT hr = S_OK;
    const char* name = "";
    vd.Format = f;
    for (int staging = 0; staging < 2 && SUCCEEDED(hr); ++staging) {
      D3D11_USAGE usage = staging ? D3D11_USAGE_STAGING : D3D11_USAGE_DEFAULT;
      UINT bind = staging ? 0 : D3D11_BIND_UNORDERED_ACCESS;
      UINT cpu = staging ? D3D11_CPU_ACCESS_READ : 0;
      const D3D11_SUBRESOURCE_DATA* data = staging ? NULL : init;
      ID3D11Resource** dst = staging ? &u->staging : &u->res;
      if (u->dim == ATOMFUZZ_WINE_DIM_TEXTURE3D) {
        D3D11_TEXTURE3D_DESC td = {w, h, depth, 1, f, usage, bind, cpu, 0};
        name = staging ? "CreateTexture3D(staging)" : "CreateTexture3D";
        hr = ID3D11Device_CreateTexture3D(device, &td, data,
                                          (ID3D11Texture3D**)dst);
      } else if (u->dim == ATOMFUZZ_WINE_DIM_TEXTURE2D ||
                 u->dim == ATOMFUZZ_WINE_DIM_TEXTURE2DARRAY) {
        D3D11_TEXTURE2D_DESC td = {w,      h,     1,    layers, f,
                                   {1, 0}, usage, bind, cpu,    0};
        name = staging ? "CreateTexture2D(staging)" : "CreateTexture2D";
        hr = ID3D11Device_CreateTexture2D(device, &td, data,
                                          (ID3D11Texture2D**)dst);
      } else {
        D3D11_TEXTURE1D_DESC td = {w, 1, layers, f, usage, bind, cpu, 0};
        name = staging ? "CreateTexture1D(staging)" : "CreateTexture1D";
        hr = ID3D11Device_CreateTexture1D(device, &td, data,
                                          (ID3D11Texture1D**)dst);
      }
    }
    if (init != stack_init) free(init);
    if (FAILED(hr)) {
      snprintf(msg, msg_cap, "%s: 0x%08lx", name, (unsigned long)hr);
      return 0;
    }
    switch (u->dim) {
      case ATOMFUZZ_WINE_DIM_TEXTURE1D:
        vd.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE1D;
        break;
      case ATOMFUZZ_WINE_DIM_TEXTURE1DARRAY:
        vd.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE1DARRAY;
        vd.Texture1DArray.ArraySize = layers;
        break;
      case ATOMFUZZ_WINE_DIM_TEXTURE2D:
        vd.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2D;
        break;
      case ATOMFUZZ_WINE_DIM_TEXTURE2DARRAY:
        vd.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE2DARRAY;
        vd.Texture2DArray.ArraySize = layers;
        break;
      default:
        vd.ViewDimension = D3D11_UAV_DIMENSION_TEXTURE3D;
        vd.Texture3D.WSize = depth;
        break;
    }
  }
  TRY(ID3D11Device_CreateUnorderedAccessView(device, u->res, &vd, &u->uav),
      "CreateUnorderedAccessView");
  return 1;
}

/* Copies the UAV's resource back into words: x fastest, then y, then the
 * layer or z. */
static int read_back(Uav* u, uint32_t* words, char* msg, size_t msg_cap) {
  ID3D11DeviceContext_CopyResource(ctx, u->staging, u->res);
  uint32_t w = u->sx, h = 1, layers = 1, depth = 1;
  if (u->dim == ATOMFUZZ_WINE_DIM_BUFFER) w = u->n;
  if (u->dim == ATOMFUZZ_WINE_DIM_TEXTURE1DARRAY) layers = u->sy;
  if (u->dim == ATOMFUZZ_WINE_DIM_TEXTURE2D) h = u->sy;
  if (u->dim == ATOMFUZZ_WINE_DIM_TEXTURE2DARRAY) h = u->sy, layers = u->sz;
  if (u->dim == ATOMFUZZ_WINE_DIM_TEXTURE3D) h = u->sy, depth = u->sz;
  for (uint32_t l = 0; l < layers; ++l) {
    D3D11_MAPPED_SUBRESOURCE m;
    TRY(ID3D11DeviceContext_Map(ctx, u->staging, l, D3D11_MAP_READ, 0, &m),
        "Map");
    for (uint32_t z = 0; z < depth; ++z)
      for (uint32_t y = 0; y < h; ++y)
        memcpy(words + (((size_t)l * depth + z) * h + y) * w,
               (const uint8_t*)m.pData + (size_t)z * m.DepthPitch +
                   (size_t)y * m.RowPitch,
               (size_t)w * 4);
    ID3D11DeviceContext_Unmap(ctx, u->staging, l);
  }
  return 1;
}

/* ---- One case. */

static Uav uavs[ATOMFUZZ_WINE_MAX_UAVS];

#define CHECK(call, name)                                              \
  do {                                                                 \
    HRESULT hr_ = (call);                                              \
    if (FAILED(hr_)) {                                                 \
      snprintf(msg, msg_cap, "%s: 0x%08lx", name, (unsigned long)hr_); \
      goto done;                                                       \
    }                                                                  \
  } while (0)

/* Runs the parsed case and appends the reply's UAV part to out. Returns the
 * status; msg says why when it is not OK. */
static uint32_t run_case(uint32_t uav_count, const uint32_t groups[3],
                         const void* dxbc, uint32_t dxbc_len, Out* out,
                         char* msg, size_t msg_cap) {
  ID3D11ComputeShader* cs = NULL;
  ID3D11Buffer *count_buf = NULL, *count_staging = NULL;
  ID3D11UnorderedAccessView* views[ATOMFUZZ_WINE_MAX_UAVS] = {0};
  ID3D11UnorderedAccessView* bound[ATOMFUZZ_WINE_MAX_UAVS] = {0};
  ID3D11UnorderedAccessView* const nulls[ATOMFUZZ_WINE_MAX_UAVS] = {0};
  UINT counts[ATOMFUZZ_WINE_MAX_UAVS];
  uint32_t status = ATOMFUZZ_WINE_FAILED;
  uint32_t nslots = uav_count ? uavs[uav_count - 1].slot + 1 : 0;
  int has_counter = 0, mapped = 0;
  D3D11_MAPPED_SUBRESOURCE cm = {0};

  CHECK(ID3D11Device_CreateComputeShader(device, dxbc, dxbc_len, NULL, &cs),
        "CreateComputeShader");
  for (uint32_t i = 0; i < uav_count; ++i) {
    if (!create_uav(&uavs[i], msg, msg_cap)) goto done;
    has_counter |= (uavs[i].flags & ATOMFUZZ_WINE_COUNTER) != 0;
  }
  if (has_counter) {
    /* CopyStructureCount into a DEFAULT buffer (u_k's counter at 4*k), then
     * CopyResource to staging: the documented path. (Wine 8.0 also takes a
     * STAGING destination directly, on both renderers.) */
    D3D11_BUFFER_DESC bd = {0};
    bd.ByteWidth = 4 * ATOMFUZZ_WINE_MAX_UAVS;
    bd.Usage = D3D11_USAGE_DEFAULT;
    bd.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    CHECK(ID3D11Device_CreateBuffer(device, &bd, NULL, &count_buf),
          "CreateBuffer(counter)");
    bd.Usage = D3D11_USAGE_STAGING;
    bd.BindFlags = 0;
    bd.CPUAccessFlags = D3D11_CPU_ACCESS_READ;
    CHECK(ID3D11Device_CreateBuffer(device, &bd, NULL, &count_staging),
          "CreateBuffer(counter staging)");
  }
  for (uint32_t s = 0; s < nslots; ++s) counts[s] = 0xffffffffu;
  for (uint32_t i = 0; i < uav_count; ++i) {
    views[uavs[i].slot] = uavs[i].uav;
    if (uavs[i].flags & ATOMFUZZ_WINE_COUNTER)
      counts[uavs[i].slot] = uavs[i].counter;
  }
  ID3D11DeviceContext_CSSetShader(ctx, cs, NULL, 0);
  ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, nslots, views, counts);
  /* Wine ignores the whole call when it names more than 8 slots, even at
   * 11_1: check what got bound rather than trust it. */
  ID3D11DeviceContext_CSGetUnorderedAccessViews(ctx, 0, nslots, bound);
  uint32_t lost = nslots;
  for (uint32_t s = nslots; s-- > 0;) {
    if (bound[s]) ID3D11UnorderedAccessView_Release(bound[s]);
    if (bound[s] != views[s]) lost = s;
  }
  if (lost < nslots) {
    snprintf(msg, msg_cap,
             "CSSetUnorderedAccessViews(0, %u, ...) did not bind u%u: this "
             "D3D11 takes fewer UAV slots than feature level %s allows "
             "(Wine: 8)",
             nslots, lost, level >= D3D_FEATURE_LEVEL_11_1 ? "11_1" : "11_0");
    status = ATOMFUZZ_WINE_REJECTED;
    goto done;
  }
  ID3D11DeviceContext_Dispatch(ctx, groups[0], groups[1], groups[2]);
  for (uint32_t i = 0; i < uav_count; ++i)
    if (uavs[i].flags & ATOMFUZZ_WINE_COUNTER)
      ID3D11DeviceContext_CopyStructureCount(ctx, count_buf, 4 * uavs[i].slot,
                                             uavs[i].uav);

  if (has_counter) {
    ID3D11DeviceContext_CopyResource(ctx, (ID3D11Resource*)count_staging,
                                     (ID3D11Resource*)count_buf);
    CHECK(ID3D11DeviceContext_Map(ctx, (ID3D11Resource*)count_staging, 0,
                                  D3D11_MAP_READ, 0, &cm),
          "Map(counter)");
    mapped = 1;
  }
  out_u32(out, uav_count);
  for (uint32_t i = 0; i < uav_count; ++i) {
    Uav* u = &uavs[i];
    out_u32(out, u->slot);
    out_u32(out, u->n);
    size_t at = out->len;
    out_bytes(out, NULL, (size_t)u->n * 4);
    if (!read_back(u, (uint32_t*)(out->p + at), msg, msg_cap)) goto done;
    out_u32(out, (u->flags & ATOMFUZZ_WINE_COUNTER)
                     ? ((const uint32_t*)cm.pData)[u->slot]
                     : 0);
  }
  status = ATOMFUZZ_WINE_OK;
done:
  /* Unbind, so the context holds none of this case's objects (where Wine
   * ignored the bind, it ignores this too: nothing is bound). */
  if (nslots)
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, nslots, nulls, NULL);
  ID3D11DeviceContext_CSSetShader(ctx, NULL, NULL, 0);
  if (mapped) ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource*)count_staging, 0);
  for (uint32_t i = 0; i < uav_count; ++i) release_uav(&uavs[i]);
  if (count_buf) ID3D11Buffer_Release(count_buf);
  if (count_staging) ID3D11Buffer_Release(count_staging);
  if (cs) ID3D11ComputeShader_Release(cs);
  return status;
}

/* Parses one request frame, runs it and writes the reply. */
static void serve(const uint8_t* frame, size_t len, Out* out) {
  Cur c = {frame, len};
  char msg[512] = "";
  uint32_t groups[3], uav_count, status = ATOMFUZZ_WINE_OK;
  if (get_u32(&c, "the magic") != ATOMFUZZ_WINE_REQUEST)
    die(2, "not a request frame");
  for (int i = 0; i < 3; ++i) groups[i] = get_u32(&c, "the group counts");
  uav_count = get_u32(&c, "the uav count");
  if (uav_count > ATOMFUZZ_WINE_MAX_UAVS) die(2, "%u uavs", uav_count);
  for (uint32_t i = 0; i < uav_count; ++i) {
    Uav* u = &uavs[i];
    memset(u, 0, sizeof *u);
    const char* what = "a uav's description";
    u->slot = get_u32(&c, what);
    u->kind = get_u32(&c, what);
    u->dim = get_u32(&c, what);
    u->format = get_u32(&c, what);
    u->stride = get_u32(&c, what);
    u->sx = get_u32(&c, what);
    u->sy = get_u32(&c, what);
    u->sz = get_u32(&c, what);
    u->flags = get_u32(&c, what);
    u->counter = get_u32(&c, what);
    u->n = get_u32(&c, what);
    if (u->slot > 63 || (i > 0 && u->slot <= uavs[i - 1].slot))
      die(2, "uav %u: slot %u (slots run 0..63, sorted, once each)", i,
          u->slot);
    if (u->n > ATOMFUZZ_WINE_MAX_WORDS || (size_t)u->n * 4 > c.left)
      die(2, "u%u: %u words, %zu bytes left", u->slot, u->n, c.left);
    check_uav(u);
    u->words = (const uint32_t*)c.p;
    c.p += (size_t)u->n * 4, c.left -= (size_t)u->n * 4;
  }
  uint32_t dxbc_len = get_u32(&c, "the dxbc size");
  size_t padded = ((size_t)dxbc_len + 3) & ~(size_t)3;
  if (padded != c.left)
    die(2, "dxbc of %u bytes, %zu bytes left", dxbc_len, c.left);

  /* What D3D11 cannot set up faithfully. */
  for (uint32_t i = 0; i < uav_count && status == ATOMFUZZ_WINE_OK; ++i) {
    const Uav* u = &uavs[i];
    int is3d = u->dim == ATOMFUZZ_WINE_DIM_TEXTURE3D;
    uint32_t lim_w = is3d ? 2048 : 16384;
    uint32_t lim_h =
        (is3d || u->dim == ATOMFUZZ_WINE_DIM_TEXTURE1DARRAY) ? 2048 : 16384;
    status = ATOMFUZZ_WINE_REJECTED;
    if (u->slot >= 8 && level < D3D_FEATURE_LEVEL_11_1)
      snprintf(msg, sizeof msg,
               "slot u%u needs feature level 11_1; the device has 11_0",
               u->slot);
    else if ((u->flags & ATOMFUZZ_WINE_COUNTER) && u->counter == 0xffffffffu)
      snprintf(msg, sizeof msg,
               "u%u: an initial counter of 0xffffffff means keep to "
               "CSSetUnorderedAccessViews",
               u->slot);
    else if (u->n == 0)
      snprintf(msg, sizeof msg,
               "u%u: D3D11 cannot create a resource of 0 words", u->slot);
    else if (u->dim != ATOMFUZZ_WINE_DIM_BUFFER &&
             (u->sx > lim_w || u->sy > lim_h || u->sz > 2048))
      snprintf(msg, sizeof msg,
               "u%u: a %s of %u, %u, %u exceeds D3D11's limits", u->slot,
               dim_names[u->dim], u->sx, u->sy, u->sz);
    else
      status = ATOMFUZZ_WINE_OK;
  }
  for (int i = 0; i < 3 && status == ATOMFUZZ_WINE_OK; ++i)
    if (groups[i] > D3D11_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION) {
      snprintf(msg, sizeof msg,
               "groups %u, %u, %u: D3D11 allows at most 65535 per dimension",
               groups[0], groups[1], groups[2]);
      status = ATOMFUZZ_WINE_REJECTED;
    }

  /* An OK reply has an empty message, so its UAV part can follow the
   * header at once; any other reply is rebuilt from scratch. */
  out->len = 0;
  out_u32(out, 0);
  out_u32(out, ATOMFUZZ_WINE_REPLY);
  out_u32(out, ATOMFUZZ_WINE_OK);
  out_u32(out, 0);
  if (status == ATOMFUZZ_WINE_OK)
    status = run_case(uav_count, groups, c.p, dxbc_len, out, msg, sizeof msg);
  if (status != ATOMFUZZ_WINE_OK) {
    size_t mlen = strlen(msg);
    out->len = 4;
    out_u32(out, ATOMFUZZ_WINE_REPLY);
    out_u32(out, status);
    out_u32(out, (uint32_t)mlen);
    out_bytes(out, msg, mlen);
    out_u32(out, 0); /* no UAVs */
  }
  out_send(out);
}

static void send_hello(uint32_t fl, const char* desc) {
  Out o = {0};
  out_u32(&o, 0);
  out_u32(&o, ATOMFUZZ_WINE_HELLO);
  out_u32(&o, fl);
  out_u32(&o, (uint32_t)strlen(desc));
  out_bytes(&o, desc, strlen(desc));
  out_send(&o);
  free(o.p);
}

int main(void) {
  _setmode(_fileno(stdin), _O_BINARY);
  _setmode(_fileno(stdout), _O_BINARY);
  in_handle = GetStdHandle(STD_INPUT_HANDLE);
  out_handle = GetStdHandle(STD_OUTPUT_HANDLE);

  static const D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_1,
                                             D3D_FEATURE_LEVEL_11_0};
  char desc[512];
  HRESULT hr =
      D3D11CreateDevice(NULL, D3D_DRIVER_TYPE_HARDWARE, NULL, 0, levels, 2,
                        D3D11_SDK_VERSION, &device, &level, &ctx);
  if (FAILED(hr)) {
    snprintf(desc, sizeof desc, "D3D11CreateDevice: 0x%08lx",
             (unsigned long)hr);
    send_hello(0, desc);
    die(3, "%s", desc);
  }
  IDXGIDevice* dxgi = NULL;
  IDXGIAdapter* adapter = NULL;
  DXGI_ADAPTER_DESC ad;
  snprintf(desc, sizeof desc, "unknown adapter");
  if (SUCCEEDED(ID3D11Device_QueryInterface(device, &IID_IDXGIDevice,
                                            (void**)&dxgi)) &&
      SUCCEEDED(IDXGIDevice_GetAdapter(dxgi, &adapter)) &&
      SUCCEEDED(IDXGIAdapter_GetDesc(adapter, &ad)) &&
      !WideCharToMultiByte(CP_UTF8, 0, ad.Description, -1, desc, sizeof desc,
                           NULL, NULL))
    snprintf(desc, sizeof desc, "unknown adapter");
  if (adapter) IDXGIAdapter_Release(adapter);
  if (dxgi) IDXGIDevice_Release(dxgi);
  send_hello((uint32_t)level, desc);

  uint8_t* frame = NULL;
  size_t cap = 0;
  Out out = {0};
  for (;;) {
    uint32_t len;
    if (!read_full(&len, 4, 1)) break;
    if (len > ATOMFUZZ_WINE_MAX_FRAME) die(2, "a frame of %u bytes", len);
    if (len > cap || !frame) {
      free(frame);
      cap = len > 4096 ? len : 4096;
      if (!(frame = malloc(cap))) die(1, "out of memory (%zu bytes)", cap);
    }
    read_full(frame, len, 0);
    serve(frame, len, &out);
  }
  quit(0);
  return 0;
}
