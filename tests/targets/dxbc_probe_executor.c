/* A test executor that runs nothing: it writes the DXBC container atomfuzz
 * passes (atomfuzz_case.dxbc) to the file named by its options
 * (--target=ext:libdxbc_probe_executor.so:PATH) and says `rejected` with
 * the byte count, so a test can check what an external translator gets. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomfuzz/target.h"

typedef struct probe {
  char path[4096];
  char message[64];
} probe;

uint32_t atomfuzz_target_abi_version(void) {
  return ATOMFUZZ_TARGET_ABI_VERSION;
}

void* atomfuzz_target_create(const char* options, char* error,
                             size_t error_size) {
  probe* p;
  if (options == NULL || options[0] == '\0' ||
      strlen(options) >= sizeof p->path) {
    snprintf(error, error_size, "expected a file path as the options");
    return NULL;
  }
  p = calloc(1, sizeof *p);
  if (p == NULL) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  strcpy(p->path, options);
  return p;
}

int atomfuzz_target_run(void* handle, const atomfuzz_case* c,
                        atomfuzz_outcome* outcome) {
  probe* p = handle;
  FILE* f = fopen(p->path, "wb");
  size_t written = 0;
  if (f != NULL) {
    if (c->dxbc_size > 0) written = fwrite(c->dxbc, 1, c->dxbc_size, f);
    fclose(f);
  }
  snprintf(p->message, sizeof p->message, "dxbc %zu bytes, %zu written",
           c->dxbc_size, written);
  outcome->status = ATOMFUZZ_STATUS_REJECTED;
  outcome->message = p->message;
  outcome->message_size = (uint32_t)strlen(p->message);
  return 0;
}

void atomfuzz_target_destroy(void* handle) { free(handle); }
