#include "isa/dxbc_container.h"

#include <string>

#include "absl/strings/str_format.h"
#include "isa/dxbc_bytes.h"
#include "isa/dxbc_checksum.h"

namespace atomfuzz::isa {
namespace {

constexpr size_t kHeaderSize = 32;
constexpr size_t kChunkHeaderSize = 8;
constexpr uint32_t kContainerVersion = 1;
// Far above any real shader; keeps a hostile count from meaning much work.
constexpr uint32_t kMaxChunks = 64;

std::string Hex(uint32_t v) { return absl::StrFormat("0x%08x", v); }

std::string FourCcText(uint32_t fourcc) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>(fourcc >> (8 * i));
    s += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  return absl::StrFormat("'%s' (%s)", s, Hex(fourcc));
}

absl::Status CheckHeader(absl::Span<const uint8_t> bytes) {
  if (bytes.size() < kHeaderSize) {
    return DxbcError(0, 0, "a 32-byte DXBC header",
                     absl::StrFormat("%d bytes", bytes.size()));
  }
  if (LoadLe32(bytes, 0) != kFourCcDxbc) {
    return DxbcError(0, 0, "the magic 'DXBC'", FourCcText(LoadLe32(bytes, 0)));
  }
  if (LoadLe32(bytes, 24) != bytes.size()) {
    return DxbcError(
        24, 0,
        absl::StrFormat("a size field of %d (the bytes given)", bytes.size()),
        absl::StrCat(LoadLe32(bytes, 24)));
  }
  const std::array<uint32_t, 4> sum = DxbcChecksum(bytes);
  for (size_t i = 0; i < 4; ++i) {
    const size_t at = kDxbcChecksumOffset + 4 * i;
    if (LoadLe32(bytes, at) != sum[i]) {
      return DxbcError(
          at, 0, absl::StrFormat("checksum word %s (spec 5.4)", Hex(sum[i])),
          Hex(LoadLe32(bytes, at)));
    }
  }
  if (LoadLe32(bytes, 20) != kContainerVersion) {
    return DxbcError(20, 0, "container version 1",
                     absl::StrCat(LoadLe32(bytes, 20)));
  }
  return absl::OkStatus();
}

// The chunk whose offset is stored at `table_at`; checks every bound.
absl::StatusOr<DxbcChunk> ReadChunk(absl::Span<const uint8_t> bytes,
                                    size_t table_at, size_t first) {
  const uint32_t offset = LoadLe32(bytes, table_at);
  if (offset < first || offset % 4 != 0 ||
      offset > bytes.size() - kChunkHeaderSize) {
    return DxbcError(
        table_at, 0,
        absl::StrFormat("a 4-byte aligned chunk offset in [0x%x, 0x%x]", first,
                        bytes.size() - kChunkHeaderSize),
        absl::StrFormat("0x%x", offset));
  }
  const uint32_t size = LoadLe32(bytes, offset + 4);
  const size_t room = bytes.size() - offset - kChunkHeaderSize;
  if (size > room) {
    return DxbcError(offset + 4, 0,
                     absl::StrFormat("a chunk size of at most %d bytes", room),
                     absl::StrCat(size));
  }
  return DxbcChunk{LoadLe32(bytes, offset),
                   bytes.subspan(offset + kChunkHeaderSize, size),
                   offset + kChunkHeaderSize};
}

}  // namespace

std::vector<uint8_t> EmptySignatureChunk() {
  std::vector<uint8_t> data;
  AppendLe32(data, 0);  // element count
  AppendLe32(data, 8);  // offset of the first element
  return data;
}

std::vector<uint8_t> WriteDxbcContainer(absl::Span<const DxbcChunk> chunks) {
  std::vector<uint8_t> out(kHeaderSize + 4 * chunks.size(), 0);
  StoreLe32(out.data(), kFourCcDxbc);
  StoreLe32(out.data() + 20, kContainerVersion);
  StoreLe32(out.data() + 28, static_cast<uint32_t>(chunks.size()));
  for (size_t i = 0; i < chunks.size(); ++i) {
    StoreLe32(out.data() + kHeaderSize + 4 * i,
              static_cast<uint32_t>(out.size()));
    AppendLe32(out, chunks[i].fourcc);
    AppendLe32(out, static_cast<uint32_t>(chunks[i].data.size()));
    out.insert(out.end(), chunks[i].data.begin(), chunks[i].data.end());
    out.resize((out.size() + 3) / 4 * 4, 0);  // spec 5.1: 4-byte aligned
  }
  StoreLe32(out.data() + 24, static_cast<uint32_t>(out.size()));
  const std::array<uint32_t, 4> sum = DxbcChecksum(out);
  for (size_t i = 0; i < 4; ++i) {
    StoreLe32(out.data() + kDxbcChecksumOffset + 4 * i, sum[i]);
  }
  return out;
}

absl::StatusOr<std::vector<DxbcChunk>> ParseDxbcContainer(
    absl::Span<const uint8_t> bytes) {
  if (absl::Status s = CheckHeader(bytes); !s.ok()) return s;
  const uint32_t count = LoadLe32(bytes, 28);
  const size_t first = kHeaderSize + 4 * static_cast<size_t>(count);
  if (count > kMaxChunks || first + kChunkHeaderSize > bytes.size()) {
    return DxbcError(28, 0,
                     absl::StrFormat("a chunk count whose offset table and "
                                     "chunks fit in %d bytes (at most %d)",
                                     bytes.size(), kMaxChunks),
                     absl::StrCat(count));
  }
  std::vector<DxbcChunk> chunks;
  int programs = 0;
  for (size_t i = 0; i < count; ++i) {
    absl::StatusOr<DxbcChunk> chunk =
        ReadChunk(bytes, kHeaderSize + 4 * i, first);
    if (!chunk.ok()) return chunk.status();
    if (chunk->fourcc == kFourCcShex || chunk->fourcc == kFourCcShdr) {
      if (++programs > 1) {
        return DxbcError(chunk->data_offset - kChunkHeaderSize, 0,
                         "one SHEX or SHDR chunk", "a second one");
      }
    }
    chunks.push_back(*chunk);
  }
  if (programs == 0) {
    return DxbcError(28, 0, "a SHEX or SHDR chunk (spec 5.2)",
                     absl::StrFormat("%d chunks without one", count));
  }
  return chunks;
}

}  // namespace atomfuzz::isa
