/* The frames between atomfuzz and its Windows program under Wine
 * (targets/wine/runner/d3d11_runner.c): plain C, read by both sides.
 *
 * Each frame is a u32 little-endian byte count, then that many bytes; every
 * integer below is a u32, little-endian. The program writes one hello
 * frame when its device is ready, then answers each request (a dispatch)
 * or draw frame with one reply frame, in order, until its input ends.
 *
 * Hello:   ATOMFUZZ_WINE_HELLO, feature level (0xb000 or 0xb100),
 *          n, n bytes of the adapter's description (UTF-8).
 * Request: ATOMFUZZ_WINE_REQUEST, groups x, y, z, uav count, then per UAV
 *          (sorted by slot):
 *            slot (0..63), kind (ATOMFUZZ_WINE_KIND_*), dim
 *            (ATOMFUZZ_WINE_DIM_*), DXGI format (typed: R32_UINT 42,
 *            R32_SINT 43, R32_FLOAT 41; else 0), stride (structured
 *            bytes, else 0), size x, y, z (typed textures: width, then
 *            height or array size, then depth or slices, as the case
 *            format; buffers: element count, 1, 1), flags
 *            (ATOMFUZZ_WINE_COUNTER), initial counter, n, n words
 *            (x fastest, then y, then z);
 *          then n, n bytes of the DXBC container, zero-padded to 4.
 * Draw:    ATOMFUZZ_WINE_DRAW, framebuffer width, height (1..64), samples
 *          (1 or 4), triangle count (1..16), then per triangle three
 *          vertices, each a clip-space x, y (f32 bits; z 0, w 1) under the
 *          viewport below; then the UAVs as in a request; then n, n bytes
 *          of the vertex shader's container (input POSITION float4, output
 *          SV_Position), zero-padded to 4; then n, n bytes of the pixel
 *          shader's, zero-padded to 4. The draw has no render target: the
 *          UAVs take slots from 0, and 4 samples are forced by the
 *          rasterizer state (D3D11.1's ForcedSampleCount).
 * Reply:   ATOMFUZZ_WINE_REPLY, status (ATOMFUZZ_WINE_*), n, n bytes of
 *          message (UTF-8, no padding needed: the next u32 follows at
 *          once), uav count, then per UAV: slot, n, n words, counter.
 *
 * A request the program cannot parse ends it (exit code 2): the frames are
 * ours, so that is a bug to see, not a case to judge. */
#ifndef ATOMFUZZ_TARGETS_WINE_RUNNER_WIRE_H_
#define ATOMFUZZ_TARGETS_WINE_RUNNER_WIRE_H_

#define ATOMFUZZ_WINE_HELLO 0x31485441u   /* "ATH1" */
#define ATOMFUZZ_WINE_REQUEST 0x31515441u /* "ATQ1" */
#define ATOMFUZZ_WINE_REPLY 0x31525441u   /* "ATR1" */
#define ATOMFUZZ_WINE_DRAW 0x31445441u    /* "ATD1" */

/* A draw's viewport, in pixels: a square from (-128, -128) of side 512, so
 * that vertices 1/256 pixel apart within [-64, 128] pixels have exact clip
 * coordinates and are never clipped; the scissor is the framebuffer. */
#define ATOMFUZZ_WINE_VIEWPORT_ORIGIN (-128)
#define ATOMFUZZ_WINE_VIEWPORT_SIDE 512
#define ATOMFUZZ_WINE_MAX_FRAMEBUFFER 64u
#define ATOMFUZZ_WINE_MAX_TRIANGLES 16u

/* Reply status. */
#define ATOMFUZZ_WINE_OK 0u
/* D3D11 cannot set the case up faithfully; the message says why. */
#define ATOMFUZZ_WINE_REJECTED 1u
/* A D3D11 call failed; the message names it and its HRESULT. */
#define ATOMFUZZ_WINE_FAILED 2u

#define ATOMFUZZ_WINE_KIND_RAW 0u
#define ATOMFUZZ_WINE_KIND_STRUCTURED 1u
#define ATOMFUZZ_WINE_KIND_TYPED 2u

#define ATOMFUZZ_WINE_DIM_BUFFER 0u
#define ATOMFUZZ_WINE_DIM_TEXTURE1D 1u
#define ATOMFUZZ_WINE_DIM_TEXTURE1DARRAY 2u
#define ATOMFUZZ_WINE_DIM_TEXTURE2D 3u
#define ATOMFUZZ_WINE_DIM_TEXTURE2DARRAY 4u
#define ATOMFUZZ_WINE_DIM_TEXTURE3D 5u

#define ATOMFUZZ_WINE_COUNTER 1u /* flags: the UAV has a hidden counter */

/* Bounds both sides keep to. */
#define ATOMFUZZ_WINE_MAX_FRAME (64u << 20)
#define ATOMFUZZ_WINE_MAX_UAVS 64u
#define ATOMFUZZ_WINE_MAX_WORDS (8u << 20) /* per UAV */

#endif /* ATOMFUZZ_TARGETS_WINE_RUNNER_WIRE_H_ */
