// The name of the function at an address, from an ELF file's own symbol
// table (.symtab). dladdr names only exported symbols: a static function,
// or any function of a library linked statically into the executable
// (vkd3d-shader in the OSS-Fuzz fuzzers), comes back without one, and an
// offset in its place changes with every build. Written for a crash
// handler: system calls and plain reads only, no allocation, no locks.
#ifndef ATOMFUZZ_TARGETS_ISOLATION_ELF_SYMBOLS_H_
#define ATOMFUZZ_TARGETS_ISOLATION_ELF_SYMBOLS_H_

#include <cstddef>
#include <cstdint>

namespace atomfuzz::targets {

// Copies into `out` (NUL-terminated, cut at `size`) the name of the
// function of `path` (a 64-bit ELF file) whose code holds `offset`: an
// offset from the load base for a shared object or a position-independent
// executable, an address for a fixed one. False where the file has no
// symbol table (stripped), is not ELF, or no function holds it.
bool FunctionNameAt(const char* path, uintptr_t offset, uintptr_t base,
                    char* out, size_t size);

}  // namespace atomfuzz::targets

#endif  // ATOMFUZZ_TARGETS_ISOLATION_ELF_SYMBOLS_H_
