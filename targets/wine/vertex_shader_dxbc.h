// The vertex shader of every pixel case's draw on the Wine targets: a
// vs_5_0 DXBC container that passes its one input, POSITION (a float4 clip
// position the host computed, wine_wire.cc), to SV_Position. The runner
// creates the input layout against its signature.
#ifndef ATOMFUZZ_TARGETS_WINE_VERTEX_SHADER_DXBC_H_
#define ATOMFUZZ_TARGETS_WINE_VERTEX_SHADER_DXBC_H_

#include <cstdint>

#include "absl/types/span.h"

namespace atomfuzz::targets::wine {

// The container, checksum included (tests/targets read it back).
absl::Span<const uint8_t> PassThroughVertexShaderDxbc();

}  // namespace atomfuzz::targets::wine

#endif  // ATOMFUZZ_TARGETS_WINE_VERTEX_SHADER_DXBC_H_
