/* What the D3D11 runner's files share: the device, and the case's UAVs
 * (d3d11_uavs.c) and draw pipeline (d3d11_draw.c) as d3d11_runner.c, which
 * reads the frames, dispatches and draws, uses them. Plain C, built by
 * mingw-w64 only. */
#ifndef ATOMFUZZ_TARGETS_WINE_RUNNER_D3D11_RUNNER_H_
#define ATOMFUZZ_TARGETS_WINE_RUNNER_D3D11_RUNNER_H_

#define COBJMACROS
#define WIN32_LEAN_AND_MEAN
#include <d3d11.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern ID3D11Device* device;
extern ID3D11DeviceContext* ctx;
extern D3D_FEATURE_LEVEL level;

/* A failed D3D11 call in a function that reports through (msg, msg_cap)
 * and returns 0: the message names the call and its HRESULT. */
#define TRY(call, name)                                                \
  do {                                                                 \
    HRESULT hr_ = (call);                                              \
    if (FAILED(hr_)) {                                                 \
      snprintf(msg, msg_cap, "%s: 0x%08lx", name, (unsigned long)hr_); \
      return 0;                                                        \
    }                                                                  \
  } while (0)

/* ---- UAVs (d3d11_uavs.c). */

typedef struct {
  uint32_t slot, kind, dim, format, stride, sx, sy, sz, flags, counter, n;
  const uint32_t* words; /* inside the frame, 4-aligned */
  ID3D11Resource *res, *staging;
  ID3D11UnorderedAccessView* uav;
} Uav;

extern const char* const dim_names[6];

/* Checks one UAV's description against runner_wire.h; dies when it breaks
 * it. */
void check_uav(const Uav* u);
/* Why D3D11 cannot create the UAV faithfully for a dispatch or a draw
 * (writes msg), or 0. */
int uav_refused(const Uav* u, int draw, char* msg, size_t msg_cap);
/* Creates the resource with its initial words, its view and a staging twin
 * for reading it back. 0 with msg set on a failed call. */
int create_uav(Uav* u, char* msg, size_t msg_cap);
/* Copies the resource back into words: x fastest, then y, then the layer
 * or z. */
int read_back(Uav* u, uint32_t* words, char* msg, size_t msg_cap);
void release_uav(Uav* u);

/* ---- A draw (d3d11_draw.c). */

typedef struct {
  uint32_t width, height, samples, triangles;
  const uint32_t* clip; /* x, y (f32 bits) per vertex; in the frame */
  const void* vs;       /* the vertex shader's container */
  uint32_t vs_len;
} Draw;

typedef struct {
  ID3D11VertexShader* vs;
  ID3D11PixelShader* ps;
  ID3D11InputLayout* layout;
  ID3D11Buffer* vertices;
  ID3D11RasterizerState* raster;
} DrawPipeline;

/* Checks a draw's header against runner_wire.h; dies when it breaks it. */
void check_draw(const Draw* d);
/* Why D3D11 cannot draw it faithfully (writes msg), or 0. */
int draw_refused(const Draw* d, char* msg, size_t msg_cap);
/* Creates the pipeline of `d` with the pixel shader `ps`. 0 with msg set on
 * a failed call (the pixel shader's refusal starts "CreatePixelShader"). */
int create_pipeline(const Draw* d, const void* ps, uint32_t ps_len,
                    DrawPipeline* p, char* msg, size_t msg_cap);
/* Sets the pipeline's state on the context (the UAVs are bound apart). */
void bind_pipeline(const Draw* d, const DrawPipeline* p);
void release_pipeline(DrawPipeline* p);

#endif /* ATOMFUZZ_TARGETS_WINE_RUNNER_D3D11_RUNNER_H_ */
