#include "fuzz/engines/finding_abort.h"

#include <cstdio>
#include <cstdlib>

#include "absl/strings/string_view.h"

namespace atomfuzz::fuzz {
namespace {

// Where the abort goes: indices into the op and memory frame lists below.
struct AbortPath {
  int op = 0;   // 0: any (unknown, several, or generalised away)
  int mem = 0;  // 0: any
};

// The frames a divergence aborts through, innermost first: memory, then
// atomic, then kind. ClusterFuzz's crash state is the top three frames
// below abort(), so different bugs (a wrong return of imm_atomic_cmp_exch
// on u-raw, a wrong counter of imm_atomic_alloc) get different states.
// Each frame is noinline with a distinct body, so that neither the
// compiler nor the linker folds frames together; disable_tail_calls keeps
// the caller's frame on the stack.
#define ATOMFUZZ_NORETURN_FRAME \
  [[noreturn]] __attribute__((noinline, disable_tail_calls))

// ---- Memory frames (signature's resource field).
// clang-format off
#define ATOMFUZZ_MEM_FRAMES(X) \
  X(AtomfuzzMemAny, "*") \
  X(AtomfuzzMemURaw, "u-raw") \
  X(AtomfuzzMemUStruct, "u-struct") \
  X(AtomfuzzMemUBuffer, "u-buffer") \
  X(AtomfuzzMemUTex1d, "u-tex1d") \
  X(AtomfuzzMemUTex1dArray, "u-tex1darr") \
  X(AtomfuzzMemUTex2d, "u-tex2d") \
  X(AtomfuzzMemUTex2dArray, "u-tex2darr") \
  X(AtomfuzzMemUTex3d, "u-tex3d") \
  X(AtomfuzzMemGRaw, "g-raw") \
  X(AtomfuzzMemGStruct, "g-struct")
// clang-format on

#define ATOMFUZZ_MEM_FRAME(name, token)  \
  ATOMFUZZ_NORETURN_FRAME void name() {  \
    volatile const char* memory = token; \
    (void)memory;                        \
    std::abort();                        \
  }
ATOMFUZZ_MEM_FRAMES(ATOMFUZZ_MEM_FRAME)
#undef ATOMFUZZ_MEM_FRAME

#define ATOMFUZZ_TOKEN(name, token) token,
constexpr absl::string_view kMemTokens[] = {
    ATOMFUZZ_MEM_FRAMES(ATOMFUZZ_TOKEN)};

// Called from the frame bodies themselves, not through a helper (even an
// inlined one shows in a symbolized stack and would take a place in the
// crash state).
#define ATOMFUZZ_POINTER(name, token) &name,
constexpr void (*kMemFrames[])() = {ATOMFUZZ_MEM_FRAMES(ATOMFUZZ_POINTER)};

// ---- Atomic frames (signature's opcode field), one per atomic the spec
// has; a test checks the list against the opcode table.
// clang-format off
#define ATOMFUZZ_OP_FRAMES(X) \
  X(AtomfuzzOpAny, "*") \
  X(AtomfuzzOp_atomic_and, "atomic_and") \
  X(AtomfuzzOp_atomic_or, "atomic_or") \
  X(AtomfuzzOp_atomic_xor, "atomic_xor") \
  X(AtomfuzzOp_atomic_cmp_store, "atomic_cmp_store") \
  X(AtomfuzzOp_atomic_iadd, "atomic_iadd") \
  X(AtomfuzzOp_atomic_imax, "atomic_imax") \
  X(AtomfuzzOp_atomic_imin, "atomic_imin") \
  X(AtomfuzzOp_atomic_umax, "atomic_umax") \
  X(AtomfuzzOp_atomic_umin, "atomic_umin") \
  X(AtomfuzzOp_imm_atomic_alloc, "imm_atomic_alloc") \
  X(AtomfuzzOp_imm_atomic_consume, "imm_atomic_consume") \
  X(AtomfuzzOp_imm_atomic_iadd, "imm_atomic_iadd") \
  X(AtomfuzzOp_imm_atomic_and, "imm_atomic_and") \
  X(AtomfuzzOp_imm_atomic_or, "imm_atomic_or") \
  X(AtomfuzzOp_imm_atomic_xor, "imm_atomic_xor") \
  X(AtomfuzzOp_imm_atomic_exch, "imm_atomic_exch") \
  X(AtomfuzzOp_imm_atomic_cmp_exch, "imm_atomic_cmp_exch") \
  X(AtomfuzzOp_imm_atomic_imax, "imm_atomic_imax") \
  X(AtomfuzzOp_imm_atomic_imin, "imm_atomic_imin") \
  X(AtomfuzzOp_imm_atomic_umax, "imm_atomic_umax") \
  X(AtomfuzzOp_imm_atomic_umin, "imm_atomic_umin")
// clang-format on

#define ATOMFUZZ_OP_FRAME(name, token)                    \
  ATOMFUZZ_NORETURN_FRAME void name(const AbortPath& p) { \
    volatile const char* atomic = token;                  \
    (void)atomic;                                         \
    kMemFrames[p.mem]();                                  \
    std::abort(); /* not reached: every frame aborts */   \
  }
ATOMFUZZ_OP_FRAMES(ATOMFUZZ_OP_FRAME)
#undef ATOMFUZZ_OP_FRAME

constexpr absl::string_view kOpTokens[] = {ATOMFUZZ_OP_FRAMES(ATOMFUZZ_TOKEN)};

constexpr void (*kOpFrames[])(const AbortPath&) = {
    ATOMFUZZ_OP_FRAMES(ATOMFUZZ_POINTER)};

// ---- Kind frames (the divergence), outermost.
#define ATOMFUZZ_KIND_FRAME(name, code)                   \
  ATOMFUZZ_NORETURN_FRAME void name(const AbortPath& p) { \
    volatile int kind = code;                             \
    (void)kind;                                           \
    kOpFrames[p.op](p);                                   \
    std::abort(); /* not reached */                       \
  }
ATOMFUZZ_KIND_FRAME(AtomfuzzWrongReturn, 1)
ATOMFUZZ_KIND_FRAME(AtomfuzzWrongMemory, 2)
ATOMFUZZ_KIND_FRAME(AtomfuzzWrongCounter, 3)
ATOMFUZZ_KIND_FRAME(AtomfuzzMissingAtomic, 4)
ATOMFUZZ_KIND_FRAME(AtomfuzzExtraAtomic, 5)
ATOMFUZZ_KIND_FRAME(AtomfuzzRejected, 6)
ATOMFUZZ_KIND_FRAME(AtomfuzzCrashed, 7)
ATOMFUZZ_KIND_FRAME(AtomfuzzTimedOut, 8)
ATOMFUZZ_KIND_FRAME(AtomfuzzBudgetExceeded, 9)
ATOMFUZZ_KIND_FRAME(AtomfuzzInvalidCode, 10)
ATOMFUZZ_KIND_FRAME(AtomfuzzHarnessError, 11)
#undef ATOMFUZZ_KIND_FRAME
#undef ATOMFUZZ_POINTER
#undef ATOMFUZZ_TOKEN
#undef ATOMFUZZ_NORETURN_FRAME

template <size_t N>
int IndexOf(const absl::string_view (&tokens)[N], absl::string_view token) {
  for (size_t i = 1; i < N; ++i) {
    if (tokens[i] == token) return static_cast<int>(i);
  }
  return 0;
}

}  // namespace

bool HasOpFrame(absl::string_view mnemonic) {
  return IndexOf(kOpTokens, mnemonic) != 0;
}

bool HasMemoryFrame(absl::string_view resource) {
  return IndexOf(kMemTokens, resource) != 0;
}

void AbortOnFinding(const InputResult& r) {
  std::fprintf(stderr, "%s\n", r.report.c_str());
  if (!r.signature_key.empty())
    std::fprintf(stderr, "atomfuzz signature: %s\n", r.signature_key.c_str());
  std::fflush(stderr);
  const AbortPath p{IndexOf(kOpTokens, r.signature_opcode),
                    IndexOf(kMemTokens, r.signature_resource)};
  if (r.kind != InputResult::Kind::kDivergence || !r.divergence)
    AtomfuzzHarnessError(p);
  switch (*r.divergence) {
    case oracle::FindingKind::kWrongReturn: AtomfuzzWrongReturn(p);
    case oracle::FindingKind::kWrongMemory: AtomfuzzWrongMemory(p);
    case oracle::FindingKind::kWrongCounter: AtomfuzzWrongCounter(p);
    case oracle::FindingKind::kMissingAtomic: AtomfuzzMissingAtomic(p);
    case oracle::FindingKind::kExtraAtomic: AtomfuzzExtraAtomic(p);
    case oracle::FindingKind::kRejected: AtomfuzzRejected(p);
    case oracle::FindingKind::kCrashed: AtomfuzzCrashed(p);
    case oracle::FindingKind::kTimedOut: AtomfuzzTimedOut(p);
    case oracle::FindingKind::kBudgetExceeded: AtomfuzzBudgetExceeded(p);
    case oracle::FindingKind::kInvalidCode: AtomfuzzInvalidCode(p);
  }
  AtomfuzzHarnessError(p);
}

}  // namespace atomfuzz::fuzz
