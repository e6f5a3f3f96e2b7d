// The host side of runner_wire.h: a case as the request frame the Windows
// program reads, and its hello and reply frames back as atomfuzz's types.
#ifndef ATOMFUZZ_TARGETS_WINE_WINE_WIRE_H_
#define ATOMFUZZ_TARGETS_WINE_WINE_WIRE_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "isa/case_file.h"
#include "isa/outcome.h"

namespace atomfuzz::targets::wine {

struct Hello {
  uint32_t feature_level = 0;  // 0xb000 (11_0) or 0xb100 (11_1); 0: none
  std::string adapter;         // or, without a device, why
};

// The frame for `run`: a request (its resources, dispatch and compute
// shader as DXBC), or for a ps_5_0 case a draw (its triangles as clip
// positions, resources, the pass-through vertex shader and the pixel
// shader).
std::string EncodeRequest(const isa::Case& run, absl::Span<const uint8_t> dxbc);

// The clip-space x, y of a vertex in 1/256 pixel under the runner's
// viewport (runner_wire.h), D3D's way up (clip y grows upward): exact in
// float.
std::array<float, 2> D3dClipPosition(const std::array<int32_t, 2>& vertex);

absl::StatusOr<Hello> DecodeHello(absl::string_view frame);

// The outcome in a reply to the request for `run`: kOk with every UAV of
// the case, kRejected with the program's reason, or an error for a failed
// D3D11 call or a reply that does not fit the request (InvalidArgument).
absl::StatusOr<isa::Outcome> DecodeReply(absl::string_view frame,
                                         const isa::Case& run);

}  // namespace atomfuzz::targets::wine

#endif  // ATOMFUZZ_TARGETS_WINE_WINE_WIRE_H_
