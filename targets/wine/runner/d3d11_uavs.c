/* The case's UAVs: checked against the frame's rules, created with their
 * initial words, read back after the dispatch or draw. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "d3d11_runner.h"
#include "runner_wire.h"

static const char kProgramName[] = "d3d11_runner";
#include "win32_frames.h"

const char* const dim_names[6] = {"buffer",         "texture1d",
                                  "texture1darray", "texture2d",
                                  "texture2darray", "texture3d"};

void check_uav(const Uav* u) {
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

int uav_refused(const Uav* u, int draw, char* msg, size_t msg_cap) {
  int is3d = u->dim == ATOMFUZZ_WINE_DIM_TEXTURE3D;
  uint32_t lim_w = is3d ? 2048 : 16384;
  uint32_t lim_h =
      (is3d || u->dim == ATOMFUZZ_WINE_DIM_TEXTURE1DARRAY) ? 2048 : 16384;
  if (u->slot >= 8 && level < D3D_FEATURE_LEVEL_11_1)
    snprintf(msg, msg_cap,
             "slot u%u needs feature level 11_1; the device has 11_0", u->slot);
  else if ((u->flags & ATOMFUZZ_WINE_COUNTER) && u->counter == 0xffffffffu)
    snprintf(msg, msg_cap,
             "u%u: an initial counter of 0xffffffff means keep to %s", u->slot,
             draw ? "OMSetRenderTargetsAndUnorderedAccessViews"
                  : "CSSetUnorderedAccessViews");
  else if (u->n == 0)
    snprintf(msg, msg_cap, "u%u: D3D11 cannot create a resource of 0 words",
             u->slot);
  else if (u->dim != ATOMFUZZ_WINE_DIM_BUFFER &&
           (u->sx > lim_w || u->sy > lim_h || u->sz > 2048))
    snprintf(msg, msg_cap, "u%u: a %s of %u, %u, %u exceeds D3D11's limits",
             u->slot, dim_names[u->dim], u->sx, u->sy, u->sz);
  else
    return 0;
  return 1;
}

/* ---- Per-case resources. */

void release_uav(Uav* u) {
  if (u->uav) ID3D11UnorderedAccessView_Release(u->uav);
  if (u->res) ID3D11Resource_Release(u->res);
  if (u->staging) ID3D11Resource_Release(u->staging);
  u->uav = NULL, u->res = u->staging = NULL;
}

int create_uav(Uav* u, char* msg, size_t msg_cap) {
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

int read_back(Uav* u, uint32_t* words, char* msg, size_t msg_cap) {
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
