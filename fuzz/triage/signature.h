// The bucket of a finding: which atomic, on which kind of memory, with which
// address class, went wrong how, on which target. Two findings with the same
// signature are taken to be the same bug (libFuzzer's DEDUP_TOKEN): the
// finding store keeps one directory per signature, and the reducer only
// keeps candidates whose signature is unchanged, so reduction cannot drift
// to another bug.
#ifndef ATOMFUZZ_FUZZ_TRIAGE_SIGNATURE_H_
#define ATOMFUZZ_FUZZ_TRIAGE_SIGNATURE_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "fuzz/differential.h"
#include "fuzz/runner.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

// Every field is a short token without '|' or spaces; "?" when unknown.
struct Signature {
  // Mnemonic of the atomic involved, or several joined by '+' (sorted).
  std::string opcode = "?";
  // isa::TargetKindName of its memory: u-raw, u-struct, u-buffer, u-tex2d,
  // ..., g-raw, g-struct.
  std::string resource = "?";
  // isa::AddressClassName as the spec resolves it: in-bounds, oob-skip,
  // uav-poison, tgsm-poison, undefined-address.
  std::string address = "?";
  // wrong-return, wrong-memory, wrong-counter, missing-atomic, extra-atomic,
  // crash, timeout, rejected, budget.
  std::string divergence = "?";
  // TargetLabel(): "fast", "fast+inject=xor-as-or".
  std::string target = "?";
  // A run that did not finish (rejected, invalid-code, crash) points at no
  // instruction; its message, with numbers and ids masked, tells one bug
  // from another (vkd3d's unknown opcode from its invalid SPIR-V). Empty
  // for runs that finished.
  std::string cause;
  // Of an essential signature (generalise.h): what else the divergence
  // needs, comma-separated ("dst!=x", "threads>1"); "" for none.
  std::string conditions;

  // "opcode|resource|address|divergence|target", then "|cause" when there
  // is one, then "|conditions" (after an empty cause if need be) when there
  // are some; stable across runs.
  std::string Key() const;
  // 16 lowercase hex digits, Fnv1a64(Key()): a directory name.
  std::string Id() const;
  bool operator==(const Signature&) const = default;
};

// A judge's finding kind as a signature's divergence token ("crash",
// "wrong-return", ...).
std::string FindingKindToken(oracle::FindingKind kind);

// When the events of one finding resolve differently, the unusual class
// names the bug (an oob-wrap finding also has in-bounds neighbours): in
// bounds 0, skip 1, u# poison 2, g# poison 3, undefined address 4.
int AddressSeverity(isa::AddressClass a);

// Whether a divergence kind is a wrong value (returned, in memory, a
// counter, an atomic missing or extra), rather than a run that did not end
// well (crash, timeout, rejected, budget).
bool IsWrongValue(absl::string_view divergence);

// Inverse of Key(); InvalidArgument unless it has five non-empty fields
// (then a cause, then conditions).
absl::StatusOr<Signature> ParseSignatureKey(absl::string_view key);

// FNV-1a, 64 bits. Frozen (a golden test pins it): ids name directories that
// outlive the binary, so no per-process seeded hash (absl::Hash) may be used.
// A run's message as a signature cause: its first line, decimal and hex
// numbers as N, SPIR-V ids (%12) as %N, separators and spaces replaced,
// at most 60 characters; then, for a crash whose frames are known (a line
// "frames: lib:symbol < ..."), '@' and those frames (120 characters).
std::string CauseOf(absl::string_view message);

uint64_t Fnv1a64(absl::string_view bytes);

// "fast", or "fast+inject=NAME" when a bug is injected. Threads and
// determinism are left out: they change how often a bug shows, not which.
std::string TargetLabel(absl::string_view target, absl::string_view inject);
std::string TargetLabel(const RunOptions& options);

// The bucket of a divergence (d.verdict.kind must be kDivergence, else
// FailedPrecondition), from its headline finding. If the target's trace
// puts an atomic into the finding's word that the spec resolves elsewhere
// (the oracle's own run, canonical schedule, says skip or poison), that
// atomic and its spec class are the bucket's. Otherwise the opcode is the
// finding's instruction, else the atomics the traces show at its word (or
// memory), and the address class is the spec's for those atomics, else the
// target's own.
absl::StatusOr<Signature> SignatureOf(const isa::Case& c, const Differential& d,
                                      absl::string_view target_label);

// How a worker process died, seen from outside.
enum class WorkerFailure : uint8_t { kCrash, kTimeout };
// For a worker that crashed or hung on `c`: no outcome, no verdict. Only
// the divergence kind and the target are known; the rest is "?".
Signature WorkerFailureSignature(const isa::Case& c, WorkerFailure failure,
                                 absl::string_view target_label);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_TRIAGE_SIGNATURE_H_
