/* atomfuzz's Windows program for --vkd3d=wine: compiles DXBC to SPIR-V with
 * the vkd3d-shader that Wine bundles inside wined3d.dll (1.6 in Wine 8.0),
 * one request frame at a time, so that the vulkan targets run its SPIR-V
 * on the same Vulkan driver as the linked vkd3d's. The frames are described
 * in ../compile_wire.h; the compile call is the one of
 * targets/vulkan/vkd3d_compiler.cc, with vkd3d 1.2's structures, which 1.6
 * accepts.
 *
 * Build: x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -I.. -I/usr/include/vkd3d \
 *          -o vkd3d_compile_server.exe vkd3d_compile_server.c
 *
 * Exit codes: 0 input ended, 1 stdout failed, 2 a malformed or truncated
 * request, 3 no vkd3d-shader in wined3d.dll. */
#define WIN32_LEAN_AND_MEAN
#define VKD3D_SHADER_NO_PROTOTYPES
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vkd3d_shader.h>
#include <windows.h>

#include "compile_wire.h"

static const char kProgramName[] = "vkd3d_compile_server";
#include "win32_frames.h"

static PFN_vkd3d_shader_compile compile;
static PFN_vkd3d_shader_free_shader_code free_code;
static PFN_vkd3d_shader_free_messages free_messages;

/* Win64 is LLP64: the header's structures must have the sizes wined3d's
 * mingw build of vkd3d has, which a long in them would break. */
_Static_assert(sizeof(struct vkd3d_shader_code) == 16, "LLP64 layout");
_Static_assert(sizeof(struct vkd3d_shader_resource_binding) == 32,
               "LLP64 layout");

/* One reply: a u32 length, then the pieces, each padded to 4. */
static void send_frame(uint32_t magic, uint32_t status, const void* a,
                       uint32_t a_len, const void* b, uint32_t b_len) {
  static const uint8_t zeros[4];
  const uint32_t a_pad = (4 - a_len % 4) % 4, b_pad = (4 - b_len % 4) % 4;
  const uint32_t len = 4 + 4 + 4 + a_len + a_pad + (b ? 4 + b_len + b_pad : 0);
  write_full(&len, 4);
  write_full(&magic, 4);
  write_full(&status, 4);
  write_full(&a_len, 4);
  write_full(a, a_len);
  write_full(zeros, a_pad);
  if (b) {
    write_full(&b_len, 4);
    write_full(b, b_len);
    write_full(zeros, b_pad);
  }
}

/* Fills the chain targets/vulkan/vkd3d_compiler.cc fills, and compiles. */
static void serve(const uint8_t* frame, size_t len) {
  static struct vkd3d_shader_resource_binding bindings[ATOMFUZZ_VKD3D_MAX_UAVS];
  static struct vkd3d_shader_uav_counter_binding
      counters[ATOMFUZZ_VKD3D_MAX_UAVS];
  Cur c = {frame, len};
  if (get_u32(&c, "the magic") != ATOMFUZZ_VKD3D_REQUEST)
    die(2, "not a request frame");
  const uint32_t mode = get_u32(&c, "the mode");
  const uint32_t count = get_u32(&c, "the UAV count");
  if (count > ATOMFUZZ_VKD3D_MAX_UAVS) die(2, "%u UAVs", count);
  unsigned n_counters = 0;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t reg = get_u32(&c, "a register"),
                   flags = get_u32(&c, "flags"),
                   binding = get_u32(&c, "a binding"),
                   counter_binding = get_u32(&c, "a counter binding");
    struct vkd3d_shader_resource_binding* b = &bindings[i];
    memset(b, 0, sizeof *b);
    b->type = VKD3D_SHADER_DESCRIPTOR_TYPE_UAV;
    b->register_index = reg;
    b->shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
    b->flags = (flags & ATOMFUZZ_VKD3D_BUFFER)
                   ? VKD3D_SHADER_BINDING_FLAG_BUFFER
                   : VKD3D_SHADER_BINDING_FLAG_IMAGE;
    b->binding.binding = binding;
    b->binding.count = 1;
    if (flags & ATOMFUZZ_VKD3D_COUNTER) {
      struct vkd3d_shader_uav_counter_binding* u = &counters[n_counters++];
      memset(u, 0, sizeof *u);
      u->register_index = reg;
      u->shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
      u->binding.binding = counter_binding;
      u->binding.count = 1;
    }
  }
  const uint32_t dxbc_len = get_u32(&c, "the DXBC size");
  if (dxbc_len > c.left) die(2, "DXBC of %u bytes, %zu left", dxbc_len, c.left);

  struct vkd3d_shader_interface_info interface = {0};
  interface.type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO;
  interface.bindings = bindings;
  interface.binding_count = count;
  interface.uav_counters = counters;
  interface.uav_counter_count = n_counters;
  struct vkd3d_shader_spirv_target_info spirv = {0};
  spirv.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
  spirv.next = &interface;
  spirv.entry_point = "main";
  spirv.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;
  static const enum vkd3d_shader_spirv_extension demote =
      VKD3D_SHADER_SPIRV_EXTENSION_EXT_DEMOTE_TO_HELPER_INVOCATION;
  if (mode & ATOMFUZZ_VKD3D_DEMOTE) {
    spirv.extensions = &demote;
    spirv.extension_count = 1;
  }
  const struct vkd3d_shader_compile_option options[] = {
      {VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV,
       (mode & ATOMFUZZ_VKD3D_MODE_MASK) == ATOMFUZZ_VKD3D_SSBO
           ? VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV_STORAGE_BUFFER
           : VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV_STORAGE_TEXEL_BUFFER},
      {VKD3D_SHADER_COMPILE_OPTION_STRIP_DEBUG, 1},
  };
  struct vkd3d_shader_compile_info info = {0};
  info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
  info.next = &spirv;
  info.source.code = c.p;
  info.source.size = dxbc_len;
  info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
  info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
  info.options = options;
  info.option_count = sizeof options / sizeof options[0];
  info.log_level = VKD3D_SHADER_LOG_WARNING;
  info.source_name = "atomfuzz";

  struct vkd3d_shader_code out = {0};
  char* messages = NULL;
  const int rc = compile(&info, &out, &messages);
  const uint32_t code_len = rc < 0 ? 0 : (uint32_t)out.size;
  const uint32_t msg_len = messages ? (uint32_t)strlen(messages) : 0;
  send_frame(ATOMFUZZ_VKD3D_REPLY, (uint32_t)rc, out.code, code_len,
             messages ? messages : "", msg_len);
  if (rc >= 0) free_code(&out);
  if (messages) free_messages(messages);
}

int main(void) {
  in_handle = GetStdHandle(STD_INPUT_HANDLE);
  out_handle = GetStdHandle(STD_OUTPUT_HANDLE);
  HMODULE dll = LoadLibraryA("wined3d.dll");
  PFN_vkd3d_shader_get_version get_version = NULL;
  if (dll) {
    get_version = (PFN_vkd3d_shader_get_version)(void (*)(void))GetProcAddress(
        dll, "vkd3d_shader_get_version");
    compile = (PFN_vkd3d_shader_compile)(void (*)(void))GetProcAddress(
        dll, "vkd3d_shader_compile");
    free_code =
        (PFN_vkd3d_shader_free_shader_code)(void (*)(void))GetProcAddress(
            dll, "vkd3d_shader_free_shader_code");
    free_messages =
        (PFN_vkd3d_shader_free_messages)(void (*)(void))GetProcAddress(
            dll, "vkd3d_shader_free_messages");
  }
  if (!get_version || !compile || !free_code || !free_messages) {
    char why[256];
    if (dll)
      snprintf(why, sizeof why,
               "wined3d.dll exports no vkd3d_shader_compile, "
               "vkd3d_shader_get_version or vkd3d_shader_free_*");
    else
      snprintf(why, sizeof why, "LoadLibrary(wined3d.dll) failed: %lu",
               GetLastError());
    send_frame(ATOMFUZZ_VKD3D_HELLO, 1, why, (uint32_t)strlen(why), NULL, 0);
    die(3, "%s", why);
  }
  unsigned major = 0, minor = 0;
  const char* version = get_version(&major, &minor);
  send_frame(ATOMFUZZ_VKD3D_HELLO, 0, version, (uint32_t)strlen(version), NULL,
             0);

  uint8_t* frame = NULL;
  size_t cap = 0;
  for (;;) {
    uint32_t len;
    if (!read_full(&len, 4, 1)) break;
    if (len > ATOMFUZZ_VKD3D_MAX_FRAME) die(2, "a frame of %u bytes", len);
    if (len > cap || !frame) {
      free(frame);
      cap = len > 4096 ? len : 4096;
      if (!(frame = malloc(cap))) die(1, "out of memory (%zu bytes)", cap);
    }
    read_full(frame, len, 0);
    serve(frame, len);
  }
  quit(0);
  return 0;
}
