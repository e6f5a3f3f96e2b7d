#include "fuzz/reduce/reducer.h"

#include <algorithm>
#include <iterator>
#include <memory>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/differential.h"
#include "fuzz/reduce/reduce_passes.h"
#include "isa/validator.h"

namespace atomfuzz::fuzz {
namespace {

constexpr ReducePass kPasses[] = {
    {"drop-expectations", DropExpectationEdits},
    {"drop-resources", DropResourceEdits},
    {"drop-blocks", DropBlockEdits},
    {"drop-chunks", DropChunkEdits},
    {"unwrap-blocks", UnwrapBlockEdits},
    {"constant-sources", ConstantSourceEdits},
    {"drop-instructions", DropInstructionEdits},
    {"drop-threads", DropThreadEdits},
    {"drop-words", DropWordEdits},
    {"tidy-declarations", TidyDeclarationEdits},
    {"simplify-values", SimplifyValueEdits},
};

uint64_t ValueSum(const isa::Case& c) {
  uint64_t sum = 0;
  for (const isa::Resource& r : c.resources) {
    for (uint32_t w : r.init) sum += w;
    sum += r.counter.value_or(0);
  }
  const auto& list = c.shader.instructions;
  for (size_t i = FirstBodyInstruction(c.shader); i < list.size(); ++i) {
    for (const isa::Operand& o : list[i].operands) {
      if (o.file != isa::RegFile::kImmediate) continue;
      for (size_t lane = 0; lane < o.value_count && lane < 4; ++lane)
        sum += o.values[lane];
    }
  }
  return sum;
}

uint64_t DeclaredTemps(const isa::Program& p) {
  uint64_t n = 0;
  for (size_t i = 0; i < FirstBodyInstruction(p); ++i) {
    const isa::Instruction& d = p.instructions[i];
    const int count = d.info().operand_with_role(isa::Role::kCount);
    const bool temps =
        d.op == isa::Op::kDclTemps || d.op == isa::Op::kDclIndexableTemp;
    if (temps && count >= 0 && static_cast<size_t>(count) < d.operands.size()) {
      n += d.operands[static_cast<size_t>(count)].index;
    }
  }
  return n;
}

struct Loop {
  const Interesting& interesting;
  const ReduceOptions& options;
  ReduceStats& stats;
  isa::Case current;
  std::vector<uint64_t> measure;

  bool OutOfBudget() const {
    return stats.attempts >= options.max_attempts ||
           absl::Now() >= options.deadline;
  }

  // Tries every edit of one pass; after a kept edit the pass is asked again
  // about the new case and goes on at the same position. False when the
  // budget ran out.
  bool RunPass(const ReducePass& pass, PassStats& ps, bool& progress) {
    size_t next = 0;
    for (;;) {
      std::vector<ReduceEdit> edits = pass.edits(current);
      bool kept = false;
      for (; next < edits.size(); ++next) {
        if (OutOfBudget()) return false;
        isa::Case candidate = current;
        if (!edits[next](candidate)) continue;
        std::vector<uint64_t> m = ReductionMeasure(candidate);
        if (!(m < measure)) continue;
        if (!isa::Validate(candidate).ok()) {
          ++stats.invalid;
          continue;
        }
        ++stats.attempts;
        ++ps.attempts;
        if (!interesting(candidate)) continue;
        current = std::move(candidate);
        measure = std::move(m);
        ++ps.accepted;
        progress = kept = true;
        break;
      }
      if (!kept) return true;
    }
  }
};

}  // namespace

std::span<const ReducePass> AllReducePasses() { return kPasses; }

std::vector<uint64_t> ReductionMeasure(const isa::Case& c) {
  const CaseSize s = SizeOf(c);
  const size_t decls = FirstBodyInstruction(c.shader);
  const size_t expectations = c.expect_words.size() + c.expect_counters.size() +
                              c.expect_returns.size();
  return {static_cast<uint64_t>(s.instructions),
          static_cast<uint64_t>(s.threads),
          static_cast<uint64_t>(s.resources),
          static_cast<uint64_t>(s.words),
          decls,
          DeclaredTemps(c.shader),
          expectations,
          RegisterSources(c.shader),
          ValueSum(c)};
}

std::string ReduceStats::Summary() const {
  std::string s =
      absl::StrCat(before.ToString(), " -> ", after.ToString(), "; ", attempts,
                   " attempts, ", rounds, " rounds");
  if (!complete)
    absl::StrAppend(&s, " (budget ran out: not known to be 1-minimal)");
  return s;
}

ReduceResult Reduce(const isa::Case& c, const Interesting& interesting,
                    const ReduceOptions& options) {
  ReduceResult result;
  ReduceStats& stats = result.stats;
  for (const ReducePass& p : kPasses)
    stats.passes.push_back({std::string(p.name)});
  Loop loop{interesting, options, stats, c, ReductionMeasure(c)};
  bool budget_left = true;
  while (budget_left) {
    ++stats.rounds;
    bool progress = false;
    for (size_t i = 0; i < std::size(kPasses) && budget_left; ++i) {
      const int64_t kept = stats.passes[i].accepted;
      budget_left = loop.RunPass(kPasses[i], stats.passes[i], progress);
      if (options.log && stats.passes[i].accepted > kept) {
        options.log(absl::StrCat("round ", stats.rounds, " ", kPasses[i].name,
                                 ": kept ", stats.passes[i].accepted - kept,
                                 ", now ", SizeOf(loop.current).ToString()));
      }
    }
    if (!progress && budget_left) {
      stats.complete = true;
      break;
    }
  }
  // Provenance stays; the size it came from is added once (a reduced case
  // reduced again keeps its first origin).
  auto& meta = loop.current.metadata;
  const bool has_origin =
      std::any_of(meta.begin(), meta.end(),
                  [](const auto& kv) { return kv.first == "reduced_from"; });
  if (!has_origin && !(loop.current == c)) {
    meta.emplace_back("reduced_from", SizeOf(c).ToString());
  }
  // Line numbers as in the printed case, so reports and judge messages
  // about the reduced case point into the file that gets saved.
  result.reduced = isa::NumberedAsPrinted(loop.current);
  stats.before = SizeOf(c);
  stats.after = SizeOf(result.reduced);
  return result;
}

namespace {

// A divergence whose signature `matches`.
absl::StatusOr<Interesting> DivergesAs(
    const RunOptions& options, std::function<bool(const Signature&)> matches) {
  absl::StatusOr<std::unique_ptr<targets::Target>> made =
      MakeTarget(ReproducibleOptions(options));
  if (!made.ok()) return made.status();
  std::shared_ptr<targets::Target> target = *std::move(made);
  const std::string label = TargetLabel(options);
  oracle::JudgeOptions judge;
  judge.interpret.max_steps_per_thread = kReproducibleStepBudget;
  return Interesting(
      [target, label, matches = std::move(matches), judge](const isa::Case& c) {
        absl::StatusOr<Differential> d = RunAndJudge(c, *target, judge);
        if (!d.ok() || d->verdict.kind != oracle::Verdict::Kind::kDivergence)
          return false;
        absl::StatusOr<Signature> s = SignatureOf(c, *d, label);
        return s.ok() && matches(*s);
      });
}

}  // namespace

absl::StatusOr<Interesting> SameBucketAs(const Signature& signature,
                                         const RunOptions& options) {
  return DivergesAs(options,
                    [signature](const Signature& s) { return s == signature; });
}

absl::StatusOr<Interesting> SameBugAs(const Signature& signature,
                                      const RunOptions& options) {
  return DivergesAs(options, [signature](const Signature& s) {
    Signature any_opcode = s;
    any_opcode.opcode = signature.opcode;
    return any_opcode == signature;
  });
}

absl::StatusOr<SameBucket> MakeSameBucket(const isa::Case& original,
                                          const RunOptions& options) {
  absl::StatusOr<std::unique_ptr<targets::Target>> target =
      MakeTarget(ReproducibleOptions(options));
  if (!target.ok()) return target.status();
  oracle::JudgeOptions judge;
  judge.interpret.max_steps_per_thread = kReproducibleStepBudget;
  absl::StatusOr<Differential> d = RunAndJudge(original, **target, judge);
  if (!d.ok()) return d.status();
  if (d->verdict.kind != oracle::Verdict::Kind::kDivergence) {
    return absl::FailedPreconditionError(
        absl::StrCat("the case does not diverge on ", TargetLabel(options),
                     " in deterministic mode: ", d->verdict.Summary()));
  }
  absl::StatusOr<Signature> s = SignatureOf(original, *d, TargetLabel(options));
  if (!s.ok()) return s.status();
  absl::StatusOr<Interesting> pred = SameBucketAs(*s, options);
  if (!pred.ok()) return pred.status();
  return SameBucket{*s, *std::move(pred)};
}

}  // namespace atomfuzz::fuzz
