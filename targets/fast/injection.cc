#include "targets/fast/injection.h"

namespace atomfuzz::targets::fast {
namespace {

constexpr InjectionInfo kInjections[] = {
    {Inject::kIMaxUnsigned, "imax-unsigned", "imax/imin compare as unsigned"},
    {Inject::kUMaxSigned, "umax-signed", "umax/umin compare as signed"},
    {Inject::kCmpExchSwapped, "cmpxchg-swapped",
     "cmp_exch/cmp_store swap comparand and value"},
    {Inject::kCmpExchSuccessFlag, "cmpxchg-success-flag",
     "imm_atomic_cmp_exch returns 1 on success, 0 on failure"},
    {Inject::kReturnNew, "return-new",
     "immediate atomics return the new value"},
    {Inject::kOobWrap, "oob-wrap",
     "out-of-bounds atomics wrap into range instead of skipping"},
    {Inject::kStructuredOffsetIgnored, "structured-offset-ignored",
     "structured atomics ignore the byte offset"},
    {Inject::kStructuredIndexWrap32, "structured-index-wrap32",
     "structured index*stride computed in 32 bits (E-17)"},
    {Inject::kTex2DYIgnored, "tex2d-y-ignored",
     "typed Texture2D/2DArray atomics ignore y"},
    {Inject::kTgsmShared, "tgsm-shared", "all thread groups share one TGSM"},
    {Inject::kConsumePreDecrement, "consume-pre-decrement",
     "imm_atomic_consume returns the value before the decrement"},
    {Inject::kRmwNotAtomic, "rmw-not-atomic",
     "atomics are a load then a store: concurrent updates get lost"},
    {Inject::kDst0WrongComponent, "dst0-wrong-component",
     "dst0 of immediate atomics always written to .x"},
    {Inject::kSyncNoWait, "sync-no-wait",
     "sync_*_t does not wait: half a group runs ahead"},
    {Inject::kXorAsOr, "xor-as-or", "atomic xor performs or"},
    {Inject::kIAddSaturate, "iadd-saturate",
     "atomic iadd saturates at 0xffffffff instead of wrapping"},
    {Inject::kHelperAtomicsWrite, "helper-atomics-write",
     "atomics of helper pixels (uncovered quad members) take effect", true},
    {Inject::kDiscardIgnoredByAtomics, "discard-ignored-by-atomics",
     "atomics after discard still take effect (stores do not)", true},
    {Inject::kDiscardKillsDerivatives, "discard-kills-derivatives",
     "discard ends the lane, so its quad's derivatives read junk", true},
};

}  // namespace

std::span<const InjectionInfo> AllInjections() { return kInjections; }

std::optional<Inject> InjectionFromName(absl::string_view name) {
  if (name.empty()) return Inject::kNone;
  for (const InjectionInfo& i : kInjections) {
    if (i.name == name) return i.inject;
  }
  return std::nullopt;
}

}  // namespace atomfuzz::targets::fast
