/* A draw's pipeline: the triangles as a vertex buffer of clip positions
 * through the host's pass-through vertex shader, the case's pixel shader,
 * no render target, the viewport and scissor of runner_wire.h, culling off,
 * and for 4 samples D3D11.1's ForcedSampleCount (UAV-only rendering: no
 * render target may be bound, since its slot would take u0). */
/* The runner's header first (COBJMACROS, for the C call macros), then
 * initguid.h, so that d3d11_1.h defines IID_ID3D11Device1, which no
 * library has. */
#include "d3d11_runner.h"
/* (order matters) */
#include <initguid.h>
/* (order matters) */
#include <d3d11_1.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner_wire.h"

static const char kProgramName[] = "d3d11_runner";
#include "win32_frames.h"

void check_draw(const Draw* d) {
  if (d->width < 1 || d->width > ATOMFUZZ_WINE_MAX_FRAMEBUFFER ||
      d->height < 1 || d->height > ATOMFUZZ_WINE_MAX_FRAMEBUFFER)
    die(2, "a framebuffer of %u x %u", d->width, d->height);
  if (d->samples != 1 && d->samples != 4)
    die(2, "a draw of %u samples", d->samples);
  if (d->triangles < 1 || d->triangles > ATOMFUZZ_WINE_MAX_TRIANGLES)
    die(2, "a draw of %u triangles", d->triangles);
}

int draw_refused(const Draw* d, char* msg, size_t msg_cap) {
  if (d->samples > 1 && level < D3D_FEATURE_LEVEL_11_1) {
    snprintf(msg, msg_cap,
             "%u samples without a render target need feature level 11_1 "
             "(ForcedSampleCount); the device has 11_0",
             d->samples);
    return 1;
  }
  return 0;
}

static int create_raster_state(const Draw* d, DrawPipeline* p, char* msg,
                               size_t msg_cap) {
  D3D11_RASTERIZER_DESC1 rd;
  memset(&rd, 0, sizeof rd);
  rd.FillMode = D3D11_FILL_SOLID;
  rd.CullMode = D3D11_CULL_NONE;
  rd.DepthClipEnable = TRUE;
  rd.ScissorEnable = TRUE;
  if (d->samples == 1) {
    TRY(ID3D11Device_CreateRasterizerState(
            device, (const D3D11_RASTERIZER_DESC*)&rd, &p->raster),
        "CreateRasterizerState");
    return 1;
  }
  ID3D11Device1* device1 = NULL;
  ID3D11RasterizerState1* raster1 = NULL;
  TRY(ID3D11Device_QueryInterface(device, &IID_ID3D11Device1, (void**)&device1),
      "QueryInterface(ID3D11Device1)");
  rd.ForcedSampleCount = d->samples;
  HRESULT hr = ID3D11Device1_CreateRasterizerState1(device1, &rd, &raster1);
  ID3D11Device1_Release(device1);
  TRY(hr, "CreateRasterizerState1(ForcedSampleCount)");
  p->raster = (ID3D11RasterizerState*)raster1;
  return 1;
}

int create_pipeline(const Draw* d, const void* ps, uint32_t ps_len,
                    DrawPipeline* p, char* msg, size_t msg_cap) {
  TRY(ID3D11Device_CreatePixelShader(device, ps, ps_len, NULL, &p->ps),
      "CreatePixelShader");
  TRY(ID3D11Device_CreateVertexShader(device, d->vs, d->vs_len, NULL, &p->vs),
      "CreateVertexShader");
  static const D3D11_INPUT_ELEMENT_DESC position = {
      "POSITION", 0, DXGI_FORMAT_R32G32B32A32_FLOAT,
      0,          0, D3D11_INPUT_PER_VERTEX_DATA,
      0};
  TRY(ID3D11Device_CreateInputLayout(device, &position, 1, d->vs, d->vs_len,
                                     &p->layout),
      "CreateInputLayout");
  float xyzw[ATOMFUZZ_WINE_MAX_TRIANGLES * 3][4];
  for (uint32_t v = 0; v < d->triangles * 3; ++v) {
    memcpy(&xyzw[v][0], &d->clip[2 * v], 4);
    memcpy(&xyzw[v][1], &d->clip[2 * v + 1], 4);
    xyzw[v][2] = 0.0f;
    xyzw[v][3] = 1.0f;
  }
  D3D11_BUFFER_DESC bd = {0};
  bd.ByteWidth = d->triangles * 3 * sizeof xyzw[0];
  bd.Usage = D3D11_USAGE_IMMUTABLE;
  bd.BindFlags = D3D11_BIND_VERTEX_BUFFER;
  D3D11_SUBRESOURCE_DATA init = {xyzw, 0, 0};
  TRY(ID3D11Device_CreateBuffer(device, &bd, &init, &p->vertices),
      "CreateBuffer(vertices)");
  return create_raster_state(d, p, msg, msg_cap);
}

void bind_pipeline(const Draw* d, const DrawPipeline* p) {
  const UINT stride = 4 * sizeof(float), offset = 0;
  const D3D11_VIEWPORT viewport = {ATOMFUZZ_WINE_VIEWPORT_ORIGIN,
                                   ATOMFUZZ_WINE_VIEWPORT_ORIGIN,
                                   ATOMFUZZ_WINE_VIEWPORT_SIDE,
                                   ATOMFUZZ_WINE_VIEWPORT_SIDE,
                                   0.0f,
                                   1.0f};
  const D3D11_RECT scissor = {0, 0, (LONG)d->width, (LONG)d->height};
  ID3D11DeviceContext_IASetInputLayout(ctx, p->layout);
  ID3D11DeviceContext_IASetVertexBuffers(ctx, 0, 1, &p->vertices, &stride,
                                         &offset);
  ID3D11DeviceContext_IASetPrimitiveTopology(
      ctx, D3D11_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
  ID3D11DeviceContext_VSSetShader(ctx, p->vs, NULL, 0);
  ID3D11DeviceContext_PSSetShader(ctx, p->ps, NULL, 0);
  ID3D11DeviceContext_RSSetState(ctx, p->raster);
  ID3D11DeviceContext_RSSetViewports(ctx, 1, &viewport);
  ID3D11DeviceContext_RSSetScissorRects(ctx, 1, &scissor);
}

void release_pipeline(DrawPipeline* p) {
  if (p->raster) ID3D11RasterizerState_Release(p->raster);
  if (p->vertices) ID3D11Buffer_Release(p->vertices);
  if (p->layout) ID3D11InputLayout_Release(p->layout);
  if (p->vs) ID3D11VertexShader_Release(p->vs);
  if (p->ps) ID3D11PixelShader_Release(p->ps);
  memset(p, 0, sizeof *p);
}
