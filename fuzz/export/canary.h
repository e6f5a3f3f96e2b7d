// A canary for reproducers of cases whose final words the spec leaves all
// undefined (or that have no UAV): such a reproducer would check nothing
// and PASS although the driver skipped the dispatch or failed to compile
// the shader without a word (wined3d's GL renderer does both, findings #15
// and #17). The canary is one more raw UAV, which every thread stores a
// constant to before anything else: a run leaves it, a skipped one does
// not.
#ifndef ATOMFUZZ_FUZZ_EXPORT_CANARY_H_
#define ATOMFUZZ_FUZZ_EXPORT_CANARY_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

inline constexpr uint32_t kCanaryValue = 0x600dcafe;

struct WithCanary {
  isa::Case c;
  uint32_t slot = 0;  // the canary's u#
};

// `c` with the canary at the lowest free slot (D3D11 at feature level
// 11_0 binds u0..u7 only); FailedPrecondition when none is free.
absl::StatusOr<WithCanary> AddCanary(const isa::Case& c);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_EXPORT_CANARY_H_
