// The DXBC container checksum: MD5's compression function with its own
// padding (spec 5.4). vkd3d-shader refuses a container whose stored checksum
// differs (E-42), so the encoder must get it exactly right.
#ifndef ATOMFUZZ_ISA_DXBC_CHECKSUM_H_
#define ATOMFUZZ_ISA_DXBC_CHECKSUM_H_

#include <array>
#include <cstdint>

#include "absl/types/span.h"

namespace atomfuzz::isa {

inline constexpr size_t kDxbcChecksumOffset = 4;
inline constexpr size_t kDxbcHashedFrom = 20;  // the version field onwards

// The four words stored at offsets 4..19 of `container`, computed over
// container[20..). A container shorter than 20 bytes hashes as empty.
std::array<uint32_t, 4> DxbcChecksum(absl::Span<const uint8_t> container);

// One MD5 compression of a 64-byte block into `state` (RFC 1321), exposed
// so tests can build reference digests from the same primitive.
void Md5Compress(std::array<uint32_t, 4>& state, const uint8_t* block);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_DXBC_CHECKSUM_H_
