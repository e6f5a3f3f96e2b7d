// Byte-level helpers shared by the DXBC files: little-endian words (spec 4:
// every token and header field is a little-endian u32, whatever the host) and
// the one shape of a decoding error, "+0x4c (instr 3): expected X, found Y",
// which the CLI prefixes with the file name (docs/case-format.md, "DXBC
// error messages").
#ifndef ATOMFUZZ_ISA_DXBC_BYTES_H_
#define ATOMFUZZ_ISA_DXBC_BYTES_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace atomfuzz::isa {

// The u32 at bytes[offset..offset+4); the caller has checked the bound.
inline uint32_t LoadLe32(absl::Span<const uint8_t> bytes, size_t offset) {
  return static_cast<uint32_t>(bytes[offset]) |
         static_cast<uint32_t>(bytes[offset + 1]) << 8 |
         static_cast<uint32_t>(bytes[offset + 2]) << 16 |
         static_cast<uint32_t>(bytes[offset + 3]) << 24;
}

inline void StoreLe32(uint8_t* out, uint32_t v) {
  out[0] = static_cast<uint8_t>(v);
  out[1] = static_cast<uint8_t>(v >> 8);
  out[2] = static_cast<uint8_t>(v >> 16);
  out[3] = static_cast<uint8_t>(v >> 24);
}

inline void AppendLe32(std::vector<uint8_t>& out, uint32_t v) {
  const size_t at = out.size();
  out.resize(at + 4);
  StoreLe32(out.data() + at, v);
}

// InvalidArgument naming the byte offset in the container and, when known
// (instr > 0, counted from 1), the instruction.
inline absl::Status DxbcError(size_t byte_offset, int instr,
                              absl::string_view expected,
                              absl::string_view found) {
  if (instr > 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("+0x%x (instr %d): expected %s, found %s", byte_offset,
                        instr, expected, found));
  }
  return absl::InvalidArgumentError(absl::StrFormat(
      "+0x%x: expected %s, found %s", byte_offset, expected, found));
}

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_DXBC_BYTES_H_
