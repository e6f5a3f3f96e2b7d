/* atomfuzz's Windows program for the wine targets: runs cases through
 * Direct3D 11 (under Wine, wined3d), one frame at a time: compute shaders
 * as a dispatch, pixel shaders as a draw (d3d11_draw.c). The frames are
 * described in ../runner_wire.h.
 *
 * Build: x86_64-w64-mingw32-gcc -std=c11 -O2 -Wall -Wextra -I.. \
 *          -o d3d11_runner.exe d3d11_runner.c d3d11_uavs.c d3d11_draw.c \
 *          -ld3d11 -ldxgi -ldxguid
 *
 * Exit codes: 0 input ended, 1 stdout failed, 2 a malformed or truncated
 * request, 3 no device. */
#include "d3d11_runner.h"

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

ID3D11Device* device;
ID3D11DeviceContext* ctx;
D3D_FEATURE_LEVEL level;

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

/* Binds the UAVs to the compute stage, or to the output merger of a draw
 * (from slot 0: no render target), with their initial counters. Wine
 * ignores the whole call when it names more than 8 slots, even at 11_1:
 * what got bound is read back rather than trusted. 0 with msg set when a
 * slot did not bind. */
static int bind_uavs(int draw, uint32_t nslots,
                     ID3D11UnorderedAccessView* const* views,
                     const UINT* counts, char* msg, size_t msg_cap) {
  ID3D11UnorderedAccessView* bound[ATOMFUZZ_WINE_MAX_UAVS] = {0};
  if (draw) {
    ID3D11DeviceContext_OMSetRenderTargetsAndUnorderedAccessViews(
        ctx, 0, NULL, NULL, 0, nslots, views, counts);
    ID3D11DeviceContext_OMGetRenderTargetsAndUnorderedAccessViews(
        ctx, 0, NULL, NULL, 0, nslots, bound);
  } else {
    ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, nslots, views,
                                                  counts);
    ID3D11DeviceContext_CSGetUnorderedAccessViews(ctx, 0, nslots, bound);
  }
  uint32_t lost = nslots;
  for (uint32_t s = nslots; s-- > 0;) {
    if (bound[s]) ID3D11UnorderedAccessView_Release(bound[s]);
    if (bound[s] != views[s]) lost = s;
  }
  if (lost == nslots) return 1;
  snprintf(msg, msg_cap,
           "%s(0, %u, ...) did not bind u%u: this D3D11 takes fewer UAV "
           "slots than feature level %s allows (Wine: 8)",
           draw ? "OMSetRenderTargetsAndUnorderedAccessViews"
                : "CSSetUnorderedAccessViews",
           nslots, lost, level >= D3D_FEATURE_LEVEL_11_1 ? "11_1" : "11_0");
  return 0;
}

/* Runs the parsed case, a dispatch of `groups` or, where draw is not NULL,
 * that draw, and appends the reply's UAV part to out. Returns the status;
 * msg says why when it is not OK. */
static uint32_t run_case(uint32_t uav_count, const uint32_t groups[3],
                         const Draw* draw, const void* dxbc, uint32_t dxbc_len,
                         Out* out, char* msg, size_t msg_cap) {
  ID3D11ComputeShader* cs = NULL;
  DrawPipeline pipeline;
  ID3D11Buffer *count_buf = NULL, *count_staging = NULL;
  ID3D11UnorderedAccessView* views[ATOMFUZZ_WINE_MAX_UAVS] = {0};
  ID3D11UnorderedAccessView* const nulls[ATOMFUZZ_WINE_MAX_UAVS] = {0};
  UINT counts[ATOMFUZZ_WINE_MAX_UAVS];
  uint32_t status = ATOMFUZZ_WINE_FAILED;
  uint32_t nslots = uav_count ? uavs[uav_count - 1].slot + 1 : 0;
  int has_counter = 0, mapped = 0;
  D3D11_MAPPED_SUBRESOURCE cm = {0};
  memset(&pipeline, 0, sizeof pipeline);

  if (draw) {
    if (!create_pipeline(draw, dxbc, dxbc_len, &pipeline, msg, msg_cap))
      goto done;
  } else {
    CHECK(ID3D11Device_CreateComputeShader(device, dxbc, dxbc_len, NULL, &cs),
          "CreateComputeShader");
  }
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
  if (!bind_uavs(draw != NULL, nslots, views, counts, msg, msg_cap)) {
    status = ATOMFUZZ_WINE_REJECTED;
    goto done;
  }
  if (draw) {
    bind_pipeline(draw, &pipeline);
    ID3D11DeviceContext_Draw(ctx, 3 * draw->triangles, 0);
  } else {
    ID3D11DeviceContext_CSSetShader(ctx, cs, NULL, 0);
    ID3D11DeviceContext_Dispatch(ctx, groups[0], groups[1], groups[2]);
  }
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
   * ignored the bind, it ignores this too: nothing is bound). A draw sets
   * more state than a dispatch: all of it goes. */
  if (draw) {
    ID3D11DeviceContext_ClearState(ctx);
  } else {
    if (nslots)
      ID3D11DeviceContext_CSSetUnorderedAccessViews(ctx, 0, nslots, nulls,
                                                    NULL);
    ID3D11DeviceContext_CSSetShader(ctx, NULL, NULL, 0);
  }
  if (mapped) ID3D11DeviceContext_Unmap(ctx, (ID3D11Resource*)count_staging, 0);
  for (uint32_t i = 0; i < uav_count; ++i) release_uav(&uavs[i]);
  if (count_buf) ID3D11Buffer_Release(count_buf);
  if (count_staging) ID3D11Buffer_Release(count_staging);
  if (cs) ID3D11ComputeShader_Release(cs);
  release_pipeline(&pipeline);
  return status;
}

/* A container's size and bytes, zero-padded to 4, from the frame. */
static const void* get_blob(Cur* c, uint32_t* len, const char* what) {
  *len = get_u32(c, what);
  size_t padded = ((size_t)*len + 3) & ~(size_t)3;
  if (padded > c->left)
    die(2, "%s of %u bytes, %zu bytes left", what, *len, c->left);
  const void* p = c->p;
  c->p += padded, c->left -= padded;
  return p;
}

/* Parses one request or draw frame, runs it and writes the reply. */
static void serve(const uint8_t* frame, size_t len, Out* out) {
  Cur c = {frame, len};
  char msg[512] = "";
  uint32_t groups[3] = {0, 0, 0}, uav_count, status = ATOMFUZZ_WINE_OK;
  Draw draw_desc;
  const Draw* draw = NULL;
  const uint32_t magic = get_u32(&c, "the magic");
  if (magic == ATOMFUZZ_WINE_DRAW) {
    memset(&draw_desc, 0, sizeof draw_desc);
    draw_desc.width = get_u32(&c, "the framebuffer");
    draw_desc.height = get_u32(&c, "the framebuffer");
    draw_desc.samples = get_u32(&c, "the sample count");
    draw_desc.triangles = get_u32(&c, "the triangle count");
    check_draw(&draw_desc);
    const size_t clip_bytes = (size_t)draw_desc.triangles * 3 * 2 * 4;
    if (clip_bytes > c.left) die(2, "request ends inside the vertices");
    draw_desc.clip = (const uint32_t*)c.p;
    c.p += clip_bytes, c.left -= clip_bytes;
    draw = &draw_desc;
  } else if (magic == ATOMFUZZ_WINE_REQUEST) {
    for (int i = 0; i < 3; ++i) groups[i] = get_u32(&c, "the group counts");
  } else {
    die(2, "not a request or draw frame");
  }
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
  if (draw) draw_desc.vs = get_blob(&c, &draw_desc.vs_len, "the vertex shader");
  uint32_t dxbc_len = 0;
  const void* dxbc = get_blob(&c, &dxbc_len, "the shader");
  if (c.left != 0) die(2, "%zu bytes after the shader", c.left);

  /* What D3D11 cannot set up faithfully. */
  for (uint32_t i = 0; i < uav_count && status == ATOMFUZZ_WINE_OK; ++i)
    if (uav_refused(&uavs[i], draw != NULL, msg, sizeof msg))
      status = ATOMFUZZ_WINE_REJECTED;
  if (status == ATOMFUZZ_WINE_OK && draw && draw_refused(draw, msg, sizeof msg))
    status = ATOMFUZZ_WINE_REJECTED;
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
    status =
        run_case(uav_count, groups, draw, dxbc, dxbc_len, out, msg, sizeof msg);
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
