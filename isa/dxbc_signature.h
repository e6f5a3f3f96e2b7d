// The input signature (ISGN) a ps_5_0 program needs: one element per
// dcl_input_ps_sgv/_siv, naming the system value vkd3d-shader and the D3D
// runtimes match the register against (spec 5.2; docs/pixel-stage.md P.2).
#ifndef ATOMFUZZ_ISA_DXBC_SIGNATURE_H_
#define ATOMFUZZ_ISA_DXBC_SIGNATURE_H_

#include <cstdint>
#include <vector>

#include "isa/program.h"

namespace atomfuzz::isa {

// The data of the ISGN chunk: empty for a compute program.
std::vector<uint8_t> InputSignatureChunk(const Program& program);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_DXBC_SIGNATURE_H_
