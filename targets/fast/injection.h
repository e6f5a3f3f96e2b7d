// Deliberately wrong behaviours of the fast executor, to grade how well the
// fuzzer and the judge find real bug classes (in the spirit of MC Mutants).
// Off by default; choosing one selects other handlers when a case is
// compiled, so the hot loop never tests for them. docs/injected-bugs.md
// describes each: what is wrong, the spec rule it breaks, the real bug it
// imitates.
#ifndef ATOMFUZZ_TARGETS_FAST_INJECTION_H_
#define ATOMFUZZ_TARGETS_FAST_INJECTION_H_

#include <cstdint>
#include <optional>
#include <span>

#include "absl/strings/string_view.h"

namespace atomfuzz::targets::fast {

enum class Inject : uint8_t {
  kNone,
  kIMaxUnsigned,             // imax/imin compare unsigned
  kUMaxSigned,               // umax/umin compare signed
  kCmpExchSwapped,           // comparand and value swapped
  kCmpExchSuccessFlag,       // cmp_exch returns 1/0 instead of the old value
  kReturnNew,                // immediate atomics return the new value
  kOobWrap,                  // out-of-bounds atomics wrap into range
  kStructuredOffsetIgnored,  // structured byte offset dropped
  kStructuredIndexWrap32,    // struct index * stride in 32 bits (E-17)
  kTex2DYIgnored,            // typed Texture2D(Array) y coordinate dropped
  kTgsmShared,               // one TGSM for all groups
  kConsumePreDecrement,      // consume returns the value before the decrement
  kRmwNotAtomic,             // read-modify-write split into load and store
  kDst0WrongComponent,       // dst0 written to .x whatever its mask
  kSyncNoWait,               // sync_*_t does not wait for the whole group
  kXorAsOr,                  // atomic xor performs or
  kIAddSaturate,             // atomic iadd saturates instead of wrapping
  kHelperAtomicsWrite,       // helper pixels' atomics take effect
  kDiscardIgnoredByAtomics,  // discarded pixels' atomics take effect
  kDiscardKillsDerivatives,  // discard ends the lane; derivatives read junk
};

struct InjectionInfo {
  Inject inject;
  absl::string_view name;
  absl::string_view summary;
  bool pixel = false;  // shows in the pixel stage only (ps_5_0 cases)
};

std::span<const InjectionInfo> AllInjections();  // kNone excluded
std::optional<Inject> InjectionFromName(absl::string_view name);  // "" = kNone

}  // namespace atomfuzz::targets::fast

#endif  // ATOMFUZZ_TARGETS_FAST_INJECTION_H_
