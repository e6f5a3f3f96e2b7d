/* The frames between atomfuzz and the vkd3d-shader that Wine bundles
 * (runner/vkd3d_compile_server.c, --vkd3d=wine): plain C, read by both
 * sides. Framed as runner_wire.h frames: a u32 little-endian byte count,
 * then that many bytes; every integer below is a u32, little-endian. The
 * program writes one hello frame, then answers each request frame with one
 * reply frame, in order, until its input ends.
 *
 * Hello:   ATOMFUZZ_VKD3D_HELLO, status (0: ready; else wined3d.dll or one
 *          of its vkd3d_shader_* entry points is missing), n, n bytes:
 *          what vkd3d_shader_get_version says, or why it is not ready.
 * Request: ATOMFUZZ_VKD3D_REQUEST, buffer UAV mode (ATOMFUZZ_VKD3D_TEXEL or
 *          ATOMFUZZ_VKD3D_SSBO, with ATOMFUZZ_VKD3D_DEMOTE or'd in for
 *          vkd3d's demote-to-helper extension), uav count, then per UAV:
 *          register (u#),
 *          flags (ATOMFUZZ_VKD3D_BUFFER, ATOMFUZZ_VKD3D_COUNTER), Vulkan
 *          binding, counter binding (both in set 0); then n, n bytes of the
 *          DXBC container, zero-padded to 4.
 * Reply:   ATOMFUZZ_VKD3D_REPLY, rc (vkd3d_shader_compile's, a signed
 *          int), n, n bytes of SPIR-V (zero-padded to 4), m, m bytes of
 *          vkd3d's messages (UTF-8, zero-padded to 4).
 *
 * A request the program cannot parse ends it (exit code 2). */
#ifndef ATOMFUZZ_TARGETS_WINE_COMPILE_WIRE_H_
#define ATOMFUZZ_TARGETS_WINE_COMPILE_WIRE_H_

#define ATOMFUZZ_VKD3D_HELLO 0x31484341u   /* "ACH1" */
#define ATOMFUZZ_VKD3D_REQUEST 0x31514341u /* "ACQ1" */
#define ATOMFUZZ_VKD3D_REPLY 0x31524341u   /* "ACR1" */

#define ATOMFUZZ_VKD3D_TEXEL 0u /* storage texel buffers, vkd3d's default */
#define ATOMFUZZ_VKD3D_SSBO 1u  /* storage buffers */
#define ATOMFUZZ_VKD3D_MODE_MASK 0xffu
/* discard as OpDemoteToHelperInvocationEXT (else OpKill) */
#define ATOMFUZZ_VKD3D_DEMOTE 0x100u

#define ATOMFUZZ_VKD3D_BUFFER 1u  /* a buffer UAV (else a typed texture) */
#define ATOMFUZZ_VKD3D_COUNTER 2u /* bind its hidden counter too */

#define ATOMFUZZ_VKD3D_MAX_FRAME (16u << 20)
#define ATOMFUZZ_VKD3D_MAX_UAVS 64u

#endif /* ATOMFUZZ_TARGETS_WINE_COMPILE_WIRE_H_ */
