// The DXBC codec: a Program <-> a cs_5_0 container (spec 4, 5). The encoder
// writes what vkd3d-shader and the D3D runtimes read (ISGN, OSGN, SHEX, exact
// checksum); the decoder is strict and returns decode(encode(p)) == p.
#ifndef ATOMFUZZ_ISA_DXBC_H_
#define ATOMFUZZ_ISA_DXBC_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "isa/program.h"

namespace atomfuzz::isa {

// The cs_5_0 container for a validated program (ISGN, OSGN, SHEX; spec 5.2).
absl::StatusOr<std::vector<uint8_t>> EncodeDxbc(const Program& program);
// Any bytes: a program or InvalidArgument saying where and what was expected.
absl::StatusOr<Program> DecodeDxbc(absl::Span<const uint8_t> bytes);

// The SHEX token stream alone: version, length, instructions (spec 4.1).
absl::StatusOr<std::vector<uint32_t>> EncodeShex(const Program& program);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_DXBC_H_
