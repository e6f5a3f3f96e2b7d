/* What the Windows programs under Wine (d3d11_runner.c,
 * vkd3d_compile_server.c) share: exits that skip DLL detach, and frames
 * read and written on the Win32 standard handles. Each program defines
 * kProgramName before including this, and sets in_handle and out_handle
 * first thing in main. Plain C, built by mingw-w64 only. */
#ifndef ATOMFUZZ_TARGETS_WINE_RUNNER_WIN32_FRAMES_H_
#define ATOMFUZZ_TARGETS_WINE_RUNNER_WIN32_FRAMES_H_

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <windows.h>

static HANDLE in_handle, out_handle;

/* Every exit goes through here: TerminateProcess skips DLL detach, where
 * wined3d and Mesa's threads made a plain exit() crash now and then. */
static inline void quit(int code) {
  fflush(stderr);
  TerminateProcess(GetCurrentProcess(), (UINT)code);
  exit(code); /* not reached */
}

static inline void die(int code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs(kProgramName, stderr);
  fputs(": ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  quit(code);
}

/* ---- I/O: Win32 handles, so the CRT's text mode and buffering never apply. */

/* 1 = got all, 0 = clean end before the first byte; dies on a short read. */
static inline int read_full(void* dst, size_t n, int eof_ok) {
  size_t got = 0;
  while (got < n) {
    DWORD want = (n - got > (1u << 20)) ? (1u << 20) : (DWORD)(n - got), r = 0;
    /* Pipes report their end as ERROR_BROKEN_PIPE, files and sockets as 0. */
    if (!ReadFile(in_handle, (char*)dst + got, want, &r, NULL) || r == 0) {
      if (got == 0 && eof_ok) return 0;
      die(2, "input ended inside a frame (%zu of %zu bytes)", got, n);
    }
    got += r;
  }
  return 1;
}

static inline void write_full(const void* src, size_t n) {
  size_t done = 0;
  while (done < n) {
    DWORD w = 0,
          want = (n - done > (1u << 20)) ? (1u << 20) : (DWORD)(n - done);
    if (!WriteFile(out_handle, (const char*)src + done, want, &w, NULL) ||
        w == 0)
      die(1, "WriteFile(stdout) failed: %lu", GetLastError());
    done += w;
  }
}

/* ---- Request parsing: every count is checked against what is left. */

typedef struct {
  const uint8_t* p;
  size_t left;
} Cur;

static inline uint32_t get_u32(Cur* c, const char* what) {
  uint32_t v;
  if (c->left < 4) die(2, "request ends before %s", what);
  memcpy(&v, c->p, 4);
  c->p += 4, c->left -= 4;
  return v;
}

#endif /* ATOMFUZZ_TARGETS_WINE_RUNNER_WIN32_FRAMES_H_ */
