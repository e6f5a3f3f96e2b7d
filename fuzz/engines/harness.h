// "Run one input", shared by the libFuzzer and AFL++ harnesses (and unit
// tests): decode the bytes into a valid case (fuzz/mutate/case_decoder.h), run
// it on the target, and bring the outcome to the oracle's judge. The engines
// own argv, so options come as one string, ATOMFUZZ_OPTIONS
// ("target=fast,inject=xor-as-or,policy=default"), read once at start-up.
#ifndef ATOMFUZZ_FUZZ_ENGINES_HARNESS_H_
#define ATOMFUZZ_FUZZ_ENGINES_HARNESS_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "fuzz/generate/policy.h"
#include "fuzz/mutate/case_decoder.h"
#include "fuzz/runner.h"
#include "fuzz/triage/generalise.h"
#include "fuzz/triage/known_findings.h"
#include "fuzz/triage/signature.h"
#include "oracle/judge.h"
#include "oracle/schedule.h"
#include "targets/target.h"

namespace atomfuzz::fuzz {

struct HarnessOptions {
  // Any --target name ("fast", "oracle", "vulkan", "ext:PATH.so"); in it and
  // in `vkd3d`, $ORIGIN is the directory of the harness binary, as in an
  // rpath, so that a fuzzer finds what was shipped beside it.
  std::string target = "fast";
  std::string inject;  // an injected bug of the fast target
  std::string vkd3d;   // the vulkan targets' libvkd3d-shader ("" = linked)
  // Run ext: and vulkan targets in a child process (isolated_target.h).
  // Off by default: in this process the engine sees the translator's
  // coverage and its sanitizer reports, and a crash is its crash.
  bool isolate = false;
  // corpus/known-findings.txt's format ($ORIGIN too): a divergence in a
  // bucket listed there is passed over (kRejected, "known: ..."), so that a
  // translator's open bugs do not end every run at its first seed.
  std::string known;
  // A divergence its found signature does not list in `known` is
  // generalised (fuzz/triage/generalise.h) for at most this long and passed
  // over if its essential signature is listed: one bug shows through many
  // found signatures (vkd3d's wrapped structured load, observed by an
  // exchange on a raw buffer). 0: never.
  double generalise_seconds = 10;
  std::string policy = "default";
  oracle::Schedule schedule;  // the oracle target's interleaving
  bool deterministic = true;  // one worker, fixed order: reproducible
  int threads = 1;
  // Instructions a wave (target) or a thread (oracle) may run: loops end.
  uint64_t max_steps = uint64_t{1} << 12;
  uint64_t search_budget = uint64_t{1} << 16;  // judge, per word
  // Atomics the target ran on one word, beyond which the outcome is not
  // judged: the serialization check grows faster than quadratically in
  // them (512 on a word take a second). The corpus has up to 256.
  uint64_t max_atomics_per_word = 256;
  DecodeOptions decode;
};

// The keys of ATOMFUZZ_OPTIONS, one line each, for messages and the README.
absl::string_view HarnessOptionsHelp();
// Parses "key=value,key=value" over `defaults` (a harness built for one
// target starts from its own); unknown keys and malformed values are
// InvalidArgument (a harness exits 2 on them).
absl::StatusOr<HarnessOptions> ParseHarnessOptions(
    absl::string_view text, HarnessOptions defaults = {});
// `text` with $ORIGIN replaced by the directory of the running binary.
std::string ExpandOrigin(absl::string_view text);

struct InputResult {
  enum class Kind : uint8_t {
    kRejected,    // too big, or a case the target or oracle cannot run
    kPassed,      // allowed, or unknown (a search ran out of budget)
    kDivergence,  // the judge found an outcome the spec does not allow
    kError,       // the oracle or target failed: our bug
  };
  Kind kind = Kind::kRejected;
  // kDivergence and kError: a report with the case (isa::PrintCase);
  // otherwise the reason or the verdict's summary.
  std::string report;
  // kDivergence: the kind of its first finding, and the bucket's signature
  // (fuzz/triage/signature.h): its key, atomic and memory, which the
  // engines' abort frames are named after (finding_abort.h).
  std::optional<oracle::FindingKind> divergence;
  std::string signature_key;
  std::string signature_opcode = "?";
  std::string signature_resource = "?";
};

class Harness {
 public:
  // InvalidArgument for an unknown target, injection or policy.
  static absl::StatusOr<std::unique_ptr<Harness>> Create(
      const HarnessOptions& options);

  InputResult RunOne(absl::Span<const uint8_t> bytes) const;

  const HarnessOptions& options() const { return options_; }
  const Policy& policy() const { return policy_; }

 private:
  Harness(HarnessOptions options, std::optional<KnownFindings> known,
          targets::TargetInfo row, Policy policy,
          std::unique_ptr<targets::Target> target, RunOptions reproducible);
  // `c` diverges on the target as `found`; its essential signature.
  Generalised GeneraliseFound(const isa::Case& c, const Signature& found) const;
  std::string Report(const isa::Case& c, absl::string_view headline,
                     absl::string_view detail) const;

  HarnessOptions options_;
  std::optional<KnownFindings> known_;
  // The target's row (registry.h): what it refuses is not run.
  targets::TargetInfo row_;
  Policy policy_;
  std::unique_ptr<targets::Target> target_;
  // The target as generalisation runs it (one worker, traced), made at the
  // first divergence that needs it.
  RunOptions reproducible_;
  mutable std::unique_ptr<targets::Target> generalise_target_;
  oracle::JudgeOptions judge_;
  // The judge's buffers, kept from input to input (RunOne is const to its
  // callers; the scratch holds nothing between calls that they could see).
  mutable oracle::JudgingScratch judging_;
};

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_ENGINES_HARNESS_H_
