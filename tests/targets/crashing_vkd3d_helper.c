/* A stand-in for runner/vkd3d_compile_server.c that says hello and then
 * faults on its first request, as a vkd3d assertion or fault inside Wine
 * would: --vkd3d=wine must call that a crash, not a refusal. */
#include <stdint.h>
#include <windows.h>

#include "compile_wire.h"

static void put(HANDLE out, const void* p, DWORD n) {
  DWORD w;
  WriteFile(out, p, n, &w, NULL);
}

int main(void) {
  HANDLE in = GetStdHandle(STD_INPUT_HANDLE);
  HANDLE out = GetStdHandle(STD_OUTPUT_HANDLE);
  static const char version[] = "vkd3d-shader 0.0 (crashes)";
  const uint32_t n = sizeof version - 1, pad = (4 - n % 4) % 4;
  const uint32_t head[4] = {12 + n + pad, ATOMFUZZ_VKD3D_HELLO, 0, n};
  const char zeros[4] = {0};
  put(out, head, sizeof head);
  put(out, version, n);
  put(out, zeros, pad);
  char byte;
  DWORD r;
  ReadFile(in, &byte, 1, &r, NULL);
  *(volatile int*)0 = 1;
  return 0;
}
