// Function names from an ELF file's own symbol table, for crash frames that
// dladdr leaves nameless (targets/isolation/elf_symbols.h).
#include "targets/isolation/elf_symbols.h"

#include <dlfcn.h>

#include <cstdint>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace atomfuzz::targets {
namespace {

// Not exported: dladdr finds its file but not its name.
[[gnu::noinline]] int LocalFunction(int x) { return x * 3 + 1; }

TEST(ElfSymbols, NamesAFunctionDladdrCannot) {
  const void* pc = reinterpret_cast<const void*>(&LocalFunction);
  Dl_info info;
  ASSERT_NE(dladdr(pc, &info), 0);
  EXPECT_EQ(info.dli_sname, nullptr);
  const uintptr_t base = reinterpret_cast<uintptr_t>(info.dli_fbase);
  const uintptr_t offset = reinterpret_cast<uintptr_t>(pc) - base;
  char name[256];
  // Its first byte and one inside it.
  for (uintptr_t at : {offset, offset + 1}) {
    ASSERT_TRUE(FunctionNameAt("/proc/self/exe", at, base, name, sizeof name));
    EXPECT_STREQ(name, "_ZN8atomfuzz7targets12_GLOBAL__N_113LocalFunctionEi");
  }
  // Cut to the buffer, NUL-terminated.
  char short_name[8];
  ASSERT_TRUE(FunctionNameAt("/proc/self/exe", offset, base, short_name,
                             sizeof short_name));
  EXPECT_STREQ(short_name, "_ZN8ato");
  EXPECT_EQ(LocalFunction(1), 4);
}

TEST(ElfSymbols, FalseWhereThereIsNoTableOrNoFunction) {
  char name[64];
  EXPECT_FALSE(FunctionNameAt("/no/such/file", 0, 0, name, sizeof name));
  const std::string text = ::testing::TempDir() + "/elf-symbols-not-elf";
  std::ofstream(text) << "not an ELF file, though long enough to hold a header"
                         " of sixty-four bytes and more";
  EXPECT_FALSE(FunctionNameAt(text.c_str(), 0, 0, name, sizeof name));
  const std::string truncated = ::testing::TempDir() + "/elf-symbols-short";
  std::ofstream(truncated) << "\x7f"
                              "ELF\x02";
  EXPECT_FALSE(FunctionNameAt(truncated.c_str(), 0, 0, name, sizeof name));
  // Offset 0 of the executable is its ELF header: no function.
  EXPECT_FALSE(FunctionNameAt("/proc/self/exe", 0, 0, name, sizeof name));
  EXPECT_FALSE(FunctionNameAt("/proc/self/exe", 16, 0, name, 0));
}

}  // namespace
}  // namespace atomfuzz::targets
