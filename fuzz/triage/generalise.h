// Generalisation before bucketing: which features of a reduced finding its
// divergence depends on. A reduced case still carries incidental features
// (the opcode, memory kind and address class the bug happened to meet), and
// a signature made of them splits one bug into a bucket per opcode x memory
// kind x address class. Generalise edits one feature at a time
// (generalise_edits.h), runs the edited case on the target, and keeps in the
// signature only what the divergence needs: the essential signature, keyed
// the same whichever campaign or case found the bug, and said in a sentence,
// the trigger. It runs once per new signature (a campaign keeps an alias
// from the found signature), within a budget of runs.
#ifndef ATOMFUZZ_FUZZ_TRIAGE_GENERALISE_H_
#define ATOMFUZZ_FUZZ_TRIAGE_GENERALISE_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "fuzz/triage/signature.h"
#include "isa/case_file.h"
#include "oracle/judge.h"
#include "targets/target.h"

namespace atomfuzz::fuzz {

struct GeneraliseOptions {
  int max_runs = 400;  // runs of the target, all edits together
  absl::Time deadline = absl::InfiniteFuture();
  oracle::JudgeOptions judge;  // how each run is judged
  // Called with each edit run and whether it diverged ("opcode 7 ->
  // imm_atomic_or: diverges"), for `atomfuzz generalise --verbose`.
  std::function<void(const std::string& line)> log;
};

struct Generalised {
  // Fields that do not matter read "*"; the opcode field lists the
  // operations the divergence shows with ("imax+imin"), "imm:" when only the
  // returning form shows it; the divergence is "wrong-value" for every kind
  // of wrong value (returned, in memory, a counter, an atomic missing or
  // extra: where it shows depends on what observes the faulty atomic, not
  // on the bug); the address is "out-of-bounds" only when the atomic must
  // stay there and nothing else explains the divergence, else "*";
  // `conditions` adds "dst!=x" (dst0 in a component other than x), or
  // "barrier" for a divergence without atomics that goes with its barriers.
  Signature signature;
  // Seen in this case but not keyed: "threads>1", "groups>1", "barrier"
  // (no thread alone, no group alone, not without its barriers), and what
  // the wrong return was ("returns=new": the value after the operation;
  // "returns=flag"; "returns=before-decrement").
  std::string notes;
  std::string trigger;  // the essential signature as a sentence
  int runs = 0;         // edited cases run
  double seconds = 0;
  bool complete = true;  // false: the budget cut some edits
  // "57 runs, 0.12 s" (and ", budget spent").
  std::string Cost() const;
};

// `reduced` diverges on `target` as `found` (its signature) says; an
// edited case "still diverges" when `target` gives a wrong value of any
// kind on it (which kind the judge names first depends on what observes
// the faulty atomic). Run `target` reproducibly (ReproducibleOptions,
// fuzz/runner.h). A finding that did not run to the end (crash, timeout,
// rejected) is keyed by its cause already and comes back as it is, with its
// sentence.
Generalised Generalise(const isa::Case& reduced, const Signature& found,
                       targets::Target& target,
                       const GeneraliseOptions& options = {});

// An operation as essential signatures name it: "iadd", "cmp_exch",
// "consume" ("?" for none).
const char* OperationName(isa::Rmw rmw);

// The sentence of an essential signature (also for ones read back from
// bucket.txt); `notes` adds conditions seen in the case that found it but
// left out of the key.
std::string TriggerSentence(const Signature& s, absl::string_view notes = "");

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_TRIAGE_GENERALISE_H_
