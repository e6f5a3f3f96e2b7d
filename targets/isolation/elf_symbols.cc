#include "targets/isolation/elf_symbols.h"

#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

namespace atomfuzz::targets {
namespace {

// The file mapped read-only for the lifetime of one lookup.
class Mapped {
 public:
  explicit Mapped(const char* path) {
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
      void* p = mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ,
                     MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) {
        data_ = static_cast<const unsigned char*>(p);
        size_ = static_cast<size_t>(st.st_size);
      }
    }
    close(fd);
  }
  ~Mapped() {
    if (data_ != nullptr) munmap(const_cast<unsigned char*>(data_), size_);
  }
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;

  // `count` objects of T at `offset`, or null where the file is too short.
  template <typename T>
  const T* At(uint64_t offset, uint64_t count = 1) const {
    if (data_ == nullptr || offset > size_ ||
        count > (size_ - offset) / sizeof(T)) {
      return nullptr;
    }
    return reinterpret_cast<const T*>(data_ + offset);
  }

 private:
  const unsigned char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace

bool FunctionNameAt(const char* path, uintptr_t offset, uintptr_t base,
                    char* out, size_t size) {
  if (size == 0) return false;
  const Mapped file(path);
  const Elf64_Ehdr* eh = file.At<Elf64_Ehdr>(0);
  if (eh == nullptr || std::memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_shentsize != sizeof(Elf64_Shdr)) {
    return false;
  }
  // A fixed executable's symbols hold addresses, not offsets.
  const uint64_t wanted = eh->e_type == ET_EXEC ? offset + base : offset;
  const Elf64_Shdr* sections = file.At<Elf64_Shdr>(eh->e_shoff, eh->e_shnum);
  if (sections == nullptr) return false;
  for (size_t s = 0; s < eh->e_shnum; ++s) {
    const Elf64_Shdr& table = sections[s];
    if (table.sh_type != SHT_SYMTAB || table.sh_link >= eh->e_shnum ||
        table.sh_entsize != sizeof(Elf64_Sym)) {
      continue;
    }
    const Elf64_Shdr& names = sections[table.sh_link];
    const Elf64_Sym* symbols =
        file.At<Elf64_Sym>(table.sh_offset, table.sh_size / sizeof(Elf64_Sym));
    const char* text = file.At<char>(names.sh_offset, names.sh_size);
    if (symbols == nullptr || text == nullptr) return false;
    for (size_t k = 0; k < table.sh_size / sizeof(Elf64_Sym); ++k) {
      const Elf64_Sym& sym = symbols[k];
      if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || sym.st_size == 0 ||
          wanted < sym.st_value || wanted - sym.st_value >= sym.st_size ||
          sym.st_name >= names.sh_size) {
        continue;
      }
      // Copied up to the table's end: a name without its NUL is cut there.
      const char* name = text + sym.st_name;
      size_t n = 0;
      while (n + 1 < size && sym.st_name + n < names.sh_size && name[n] != 0) {
        out[n] = name[n];
        ++n;
      }
      out[n] = '\0';
      return n > 0;
    }
  }
  return false;
}

}  // namespace atomfuzz::targets
