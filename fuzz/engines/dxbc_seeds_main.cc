// dxbc_seeds CORPUS_DIR OUT_DIR: writes the shader of every *.case under
// CORPUS_DIR as OUT_DIR/<name>.dxbc, the seeds of dxbc_fuzzer's smoke run.
// Cases that do not parse or encode are skipped (and counted).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "isa/case_file.h"
#include "isa/dxbc.h"

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  if (argc != 3) {
    std::fprintf(stderr, "usage: dxbc_seeds CORPUS_DIR OUT_DIR\n");
    return 2;
  }
  std::error_code ec;
  fs::create_directories(argv[2], ec);
  int written = 0, skipped = 0;
  for (fs::recursive_directory_iterator it(argv[1], ec), end; !ec && it != end;
       it.increment(ec)) {
    if (!it->is_regular_file() || it->path().extension() != ".case") continue;
    std::ifstream in(it->path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    auto c = atomfuzz::isa::ParseCase(text.str(), it->path().string());
    auto bytes = c.ok() ? atomfuzz::isa::EncodeDxbc(c->shader)
                        : absl::StatusOr<std::vector<uint8_t>>(c.status());
    if (!bytes.ok()) {
      ++skipped;
      continue;
    }
    const fs::path out =
        fs::path(argv[2]) / (it->path().stem().string() + ".dxbc");
    std::ofstream(out, std::ios::binary)
        .write(reinterpret_cast<const char*>(bytes->data()),
               static_cast<std::streamsize>(bytes->size()));
    ++written;
  }
  if (ec) {
    std::fprintf(stderr, "dxbc_seeds: %s: %s\n", argv[1], ec.message().c_str());
    return 2;
  }
  std::printf("dxbc_seeds: %d containers written, %d cases skipped\n", written,
              skipped);
  return written > 0 ? 0 : 1;
}
