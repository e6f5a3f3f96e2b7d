// The DXBC container around a shader's chunks (spec 5.1-5.3): a 32-byte
// header with the checksum, a table of chunk offsets, then the chunks, each
// a FourCC, a byte size and its data.
#ifndef ATOMFUZZ_ISA_DXBC_CONTAINER_H_
#define ATOMFUZZ_ISA_DXBC_CONTAINER_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace atomfuzz::isa {

// FourCCs as little-endian u32 (spec 5.1).
inline constexpr uint32_t kFourCcDxbc = 0x43425844;
inline constexpr uint32_t kFourCcIsgn = 0x4E475349;
inline constexpr uint32_t kFourCcOsgn = 0x4E47534F;
inline constexpr uint32_t kFourCcShex = 0x58454853;
inline constexpr uint32_t kFourCcShdr = 0x52444853;

struct DxbcChunk {
  uint32_t fourcc = 0;
  absl::Span<const uint8_t> data;  // without the 8-byte chunk header
  size_t data_offset = 0;          // where `data` starts in the container
};

// The container holding `chunks` in order, each 4-byte aligned, with the
// exact checksum (spec 5.4).
std::vector<uint8_t> WriteDxbcContainer(absl::Span<const DxbcChunk> chunks);

// The data of an empty input or output signature (spec 5.2): no elements,
// elements would start at byte 8.
std::vector<uint8_t> EmptySignatureChunk();

// The chunks of a container, viewing `bytes` (which must outlive them). Any
// malformed input (magic, checksum, version, size field, an offset or size
// out of bounds, no or two SHEX/SHDR chunks) is InvalidArgument naming the
// byte offset and what was expected.
absl::StatusOr<std::vector<DxbcChunk>> ParseDxbcContainer(
    absl::Span<const uint8_t> bytes);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_DXBC_CONTAINER_H_
