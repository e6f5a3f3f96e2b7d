// Where a thread keeps its system values (spec 1.9) and a pixel
// invocation its inputs (docs/pixel-stage.md P.2): in slots ahead of its
// r#, in one array (Thread::values), so that a read of either is an index.
#ifndef ATOMFUZZ_ORACLE_SYSTEM_VALUES_H_
#define ATOMFUZZ_ORACLE_SYSTEM_VALUES_H_

#include <cstddef>

#include "isa/operand.h"

namespace atomfuzz::oracle {

// vThreadID.xyz 0-2, vThreadGroupID.xyz 3-5, vThreadIDInGroup.xyz 6-8,
// vThreadIDInGroupFlattened 9 (the same in any component); the pixel
// inputs: SV_Position.xyzw 10-13, SV_SampleIndex 14, SV_PrimitiveID 15,
// vCoverage 16. A v# names its input by declaration, so its slot comes
// from the program (Execution::ReadOther), not from here.
inline constexpr size_t kSystemValueCount = 17;
inline constexpr int kPositionSlot = 10;
inline constexpr int kSampleIndexSlot = 14;
inline constexpr int kPrimitiveIdSlot = 15;
inline constexpr int kCoverageSlot = 16;
// The slot of component `c` of system value `file`, or -1 where it reads as
// undefined (a component past z, or no system value) or depends on the
// program's declarations (v#).
inline int SystemValueSlot(isa::RegFile file, int c) {
  switch (file) {
    case isa::RegFile::kThreadID: return c <= 2 ? c : -1;
    case isa::RegFile::kThreadGroupID: return c <= 2 ? 3 + c : -1;
    case isa::RegFile::kThreadIDInGroup: return c <= 2 ? 6 + c : -1;
    case isa::RegFile::kThreadIDInGroupFlattened: return 9;
    case isa::RegFile::kInputCoverageMask: return kCoverageSlot;
    default: return -1;
  }
}

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_SYSTEM_VALUES_H_
