#include "fuzz/campaign/campaign_worker.h"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "fuzz/allowed_expectations.h"
#include "fuzz/campaign/campaign_corpus.h"
#include "fuzz/campaign/case_source.h"
#include "fuzz/campaign/corpus_epochs.h"
#include "fuzz/campaign/epoch_keeper.h"
#include "fuzz/differential.h"
#include "fuzz/reduce/reducer.h"
#include "fuzz/triage/finding_store.h"
#include "fuzz/triage/generalise.h"
#include "fuzz/triage/report.h"
#include "fuzz/triage/report_evidence.h"
#include "fuzz/triage/signature.h"
#include "oracle/judge.h"

namespace atomfuzz::fuzz {

namespace {
// Instructions one thread may run before the judge calls the case endless.
constexpr uint64_t kJudgeStepsPerThread = 1u << 10;
}  // namespace

RunOptions CampaignSetup::Run() const {
  RunOptions run;
  run.target = options.target;
  run.target_options.flags = options.target_flags;
  // Parallelism comes from worker processes; one thread and a fixed order
  // make every finding replay as it was found.
  run.target_options.threads = 1;
  run.target_options.deterministic = true;
  run.target_options.trace = true;
  // Generated loops run a few iterations; a mutant that loops forever
  // should cost milliseconds, not seconds. A wave of up to 64 lanes may run
  // each lane's path in turn, so the target's budget per wave is 64 times
  // the judge's per thread (kJudgeStepsPerThread): a case the spec finishes
  // never exceeds it.
  run.target_options.max_steps_per_wave = uint64_t{64} * kJudgeStepsPerThread;
  // An endless loop (a mutant's broken exit) ends when one thread has spent
  // the judge's budget: the judge then finds the spec endless too. Without
  // it each cost the whole wave's budget, a third of a campaign's time.
  run.target_options.max_steps_per_thread = kJudgeStepsPerThread;
  // A target in a child process (ext:) reports its own hang as a timed-out
  // outcome, a finding like any other, before the supervisor's watchdog
  // would kill the whole worker.
  run.target_options.timeout_seconds = options.timeout_seconds / 2;
  // The oracle against itself: random interleavings, which its judge must
  // all accept (spec 2.1, 2.4).
  if (options.target == "oracle") run.schedule = oracle::Schedule::Random(seed);
  return run;
}

oracle::JudgeOptions CampaignSetup::JudgeOptions() const {
  oracle::JudgeOptions o;
  o.search_budget = 1u << 16;
  o.interpret.max_steps_per_thread = kJudgeStepsPerThread;
  return o;
}

namespace {

class Worker {
 public:
  Worker(const CampaignSetup& setup, const WorkerPlan& plan,
         WorkerCounters& counters, SharedState& shared, FindingStore store,
         std::unique_ptr<targets::Target> target)
      : setup_(setup),
        plan_(plan),
        counters_(counters),
        shared_(shared),
        store_(std::move(store)),
        target_(std::move(target)),
        corpus_(setup.corpus),
        queue_(plan.supervised ? setup.options.out : ""),
        keeper_(setup.options.out, shared, queue_),
        label_(TargetLabel(setup.options.target, setup.options.inject())) {}

  void Loop() {
    for (;;) {
      if (shared_.stop.load(std::memory_order_relaxed) != 0) break;
      if (absl::Now() >= plan_.deadline) break;
      const std::optional<uint64_t> index = Take();
      if (!index) break;
      if (!WaitToRun(*index)) break;
      RunOne(*index);
      if (!plan_.supervised) KeepForMyself();
    }
    counters_.phase.store(static_cast<uint32_t>(WorkerPhase::kIdle));
  }

 private:
  // The next index, claimed so that a dead worker's index is known:
  // current_index names it before the claim (case_progress.h).
  std::optional<uint64_t> Take() {
    CaseProgress& p = shared_.progress;
    for (;;) {
      uint64_t i = p.next.load();
      const uint64_t end = p.end.load();
      if (end != 0 && i >= end) return std::nullopt;
      counters_.current_index.store(i);
      counters_.corpus_settled.store(0);
      if (p.next.compare_exchange_weak(i, i + 1)) return i;
    }
  }

  // Waits until the ring has room for `index` and the epochs it mutates
  // are kept; false if the campaign stops meanwhile (the index stays
  // undone: a resumed campaign runs it).
  bool WaitToRun(uint64_t index) {
    const CaseProgress& p = shared_.progress;
    bool kept_for_myself = false;
    while (index >= p.folded.load(std::memory_order_acquire) + kProgressRing ||
           p.finalized_epochs.load(std::memory_order_acquire) <
               epochs().NeededBy(index)) {
      if (!plan_.supervised) {
        // Alone, every earlier case is done: keeping them makes room.
        if (kept_for_myself) return false;
        KeepForMyself();
        kept_for_myself = true;
        continue;
      }
      if (shared_.stop.load(std::memory_order_relaxed) != 0) return false;
      // Waiting on the others is no hang of this worker's case.
      Enter(WorkerPhase::kIdle);
      usleep(500);
    }
    const uint64_t below = epochs().VisibleBelow(index);
    if (below > visible_below_) {
      corpus_.Reload(below, &offered_);
      visible_below_ = below;
      // What was offered below and not kept will never be.
      absl::erase_if(offered_, [below](const auto& entry) {
        uint64_t i = 0;
        return IndexOfKeptName(entry.first, i) && i < below;
      });
    }
    return true;
  }

  Epochs epochs() const {
    return Epochs(shared_.progress.epoch_cases.load(std::memory_order_relaxed));
  }

  // Alone in the caller's process: keep and fold as the supervisor would.
  void KeepForMyself() {
    WriteSucceeded(shared_, stderr, "a corpus case", keeper_.KeepWholeEpochs());
    keeper_.Fold(folded_, false);
  }

  void Enter(WorkerPhase phase) {
    counters_.phase.store(static_cast<uint32_t>(phase),
                          std::memory_order_relaxed);
    counters_.heartbeat.fetch_add(1, std::memory_order_relaxed);
  }

  // Whether the case joins the corpus is up to the keeper, once its epoch
  // is whole; offered if it reaches a feature missing from the kept ones
  // and from this worker's earlier cases of the epoch (corpus_epochs.h).
  void Offer(uint64_t index, const isa::Case& c) {
    if (epochs().Of(index) != offer_epoch_) {
      offer_epoch_ = epochs().Of(index);
      std::fill(epoch_features_.begin(), epoch_features_.end(), 0);
    }
    bool fresh = false;
    for (int f : features_) {
      if (shared_.seen[f].load(std::memory_order_relaxed) == 0 &&
          epoch_features_[static_cast<size_t>(f)] == 0) {
        fresh = true;
      }
      epoch_features_[static_cast<size_t>(f)] = 1;
    }
    if (!fresh || epochs().Of(index) < shared_.progress.finalized_epochs.load(
                                           std::memory_order_acquire)) {
      return;
    }
    CorpusCandidate candidate;
    candidate.index = index;
    candidate.features = features_;
    std::sort(candidate.features.begin(), candidate.features.end());
    candidate.text = isa::PrintCase(c);
    // Kept, it is loaded from here, not read back and parsed.
    offered_.emplace(KeptCaseName(index, candidate.text), c);
    WriteSucceeded(shared_, stderr, "a corpus candidate",
                   queue_.Offer(std::move(candidate)));
  }

  void Settle(uint64_t index, uint8_t flags) {
    shared_.progress.of(index).fetch_or(flags, std::memory_order_release);
  }

  void RunOne(uint64_t index) {
    CaseOrigin origin;
    const isa::Case c =
        NextCase(setup_.seed, index, setup_.options.mutate_per_mille, corpus_,
                 setup_.policy, origin);
    if (plan_.parents != nullptr) plan_.parents->push_back(origin.parent);
    // Published before the run, so the supervisor can rebuild the case if
    // the target takes this process down.
    const size_t n =
        std::min(origin.parent.size(), sizeof(counters_.current_parent) - 1);
    std::memcpy(counters_.current_parent, origin.parent.data(), n);
    counters_.current_parent[n] = '\0';
    RunOneOptions run;
    run.judge_options = judge_;
    run.scratch = &judging_;
    // Each run and the judging enter their phase: each gets its own
    // watchdog window.
    run.on_phase = [this](bool judging) {
      Enter(judging ? WorkerPhase::kJudge : WorkerPhase::kTarget);
    };
    RunResult r = fuzz::RunOne(c, *target_, run);
    counters_.cases.fetch_add(1, std::memory_order_relaxed);
    uint8_t flags = kCaseDone;
    auto settle_corpus = [&] {
      Settle(index, kCaseCorpusSettled);
      counters_.corpus_settled.store(1);
    };
    switch (r.kind) {
      case RunKind::kTargetFailed:
      case RunKind::kJudgeFailed:
        // Not the case's fault: counted apart, so that a target that cannot
        // run at all shows as errors, not as cases.
        counters_.errors.fetch_add(1, std::memory_order_relaxed);
        settle_corpus();
        Settle(index, kCaseDone | kCaseError);
        return;
      case RunKind::kNotJudged:
      case RunKind::kRan:
        counters_.rejected.fetch_add(1, std::memory_order_relaxed);
        settle_corpus();
        Settle(index, kCaseDone | kCaseRejected);
        return;
      case RunKind::kJudged: break;
    }
    std::optional<isa::Outcome>& outcome = r.outcome;
    if (outcome->status == isa::RunStatus::kRejected) {
      counters_.rejected.fetch_add(1, std::memory_order_relaxed);
      flags |= kCaseRejected;
    }
    CountCoverage(c, *outcome, counters_, features_);
    Offer(index, c);
    // Settled before any reduction: the epoch need not wait for it.
    settle_corpus();
    switch (r.verdict.kind) {
      case oracle::Verdict::Kind::kAllowed: break;
      case oracle::Verdict::Kind::kUnknown:
        counters_.unknown.fetch_add(1, std::memory_order_relaxed);
        flags |= kCaseUnknown;
        break;
      case oracle::Verdict::Kind::kDivergence:
        counters_.divergences.fetch_add(1, std::memory_order_relaxed);
        flags |= kCaseDivergence;
        Found(c, origin,
              Differential{*std::move(outcome), std::move(r.verdict)});
        break;
    }
    Settle(index, flags);
    Enter(WorkerPhase::kIdle);
  }

  double Elapsed() const {
    return setup_.elapsed_before +
           absl::ToDoubleSeconds(absl::Now() - setup_.started);
  }

  // A divergence: count a known bucket; reduce, write up and save a new
  // one. The bucket is the reduced case's signature (the found one may
  // blame an innocent neighbour of the faulty atomic); an alias remembers
  // where a found signature's reduction landed.
  void Found(const isa::Case& c, const CaseOrigin& origin,
             const Differential& d) {
    absl::StatusOr<Signature> sig = SignatureOf(c, d, label_);
    if (!sig.ok()) return;
    if (store_.Contains(*sig)) {
      WriteSucceeded(shared_, stderr, "a finding's hit",
                     store_.RecordHit(*sig, origin.index));
      return;
    }
    if (std::optional<Signature> bucket = store_.AliasOf(*sig)) {
      WriteSucceeded(shared_, stderr, "a finding's hit",
                     store_.RecordHit(*bucket, origin.index));
      return;
    }
    Enter(WorkerPhase::kReduce);
    NewFinding f;
    f.signature = *sig;
    f.case_index = origin.index;
    f.original = c;
    f.original.metadata = origin.Metadata(setup_.options.policy);
    f.target = setup_.options.target;
    f.inject = setup_.options.inject();
    f.seed = origin.seed;
    // The versions of what the target drives (vkd3d-shader, the renderer):
    // a finding names what it was found on.
    f.extra = {{"campaign_seed", absl::StrCat(setup_.seed)},
               {"case_index", absl::StrCat(origin.index)},
               {"executor", target_->Describe()}};
    if (!setup_.options.tool_commit.empty())
      f.extra.push_back({"atomfuzz", setup_.options.tool_commit});
    // The target's other options (--vk-device, --vkd3d): what replays it.
    for (const auto& [flag, value] : setup_.options.target_flags) {
      if (flag != targets::fast::kInjectFlag && !value.empty())
        f.extra.push_back({absl::StrCat("target_", flag), value});
    }
    for (const auto& row : setup_.options.versions) f.extra.push_back(row);
    f.elapsed_s = Elapsed();
    // Judged again (the same outcome) with the lines original.case has: a
    // generated case's verdict says "line 0" otherwise.
    const isa::Case as_saved = isa::NumberedAsPrinted(OriginalAsSaved(f));
    for (size_t i = 0; i < as_saved.shader.instructions.size() &&
                       i < f.original.shader.instructions.size();
         ++i) {
      f.original.shader.instructions[i].line =
          as_saved.shader.instructions[i].line;
    }
    std::optional<Differential> numbered;
    if (absl::StatusOr<oracle::Verdict> v =
            oracle::Judge(f.original, d.outcome, judge_, judging_);
        v.ok() && v->kind == oracle::Verdict::Kind::kDivergence) {
      numbered = Differential{d.outcome, *std::move(v)};
    }
    f.summary = (numbered ? *numbered : d).verdict.Summary();
    const isa::Case* shown = &f.original;
    const Differential* shown_d = numbered ? &*numbered : &d;
    std::optional<Differential> reduced_d;
    // A known bug's bucket is kept, marked, but not reduced again.
    if (const std::string* known = setup_.known.Find(sig->Key()))
      f.known = *known;
    if (setup_.options.reduce_seconds > 0 && f.known.empty()) {
      absl::StatusOr<Interesting> same =
          SameBugAs(*sig, ReproducibleOptions(setup_.Run()));
      if (same.ok() && (*same)(f.original)) {
        ReduceOptions ro;
        // Within the campaign's --seconds too: a reduction started near the
        // end ran 15 s past it.
        ro.deadline =
            std::min(absl::Now() + absl::Seconds(setup_.options.reduce_seconds),
                     plan_.deadline);
        // From the original with its provenance, which the reducer keeps.
        ReduceResult r = Reduce(f.original, *same, ro);
        absl::StatusOr<Differential> again = RunAndJudge(r.reduced, *target_);
        // Signed only if it still diverges.
        absl::StatusOr<Signature> reduced_sig =
            again.ok() ? SignatureOf(r.reduced, *again, label_)
                       : again.status();
        if (reduced_sig.ok()) {
          f.reduced = std::move(r.reduced);
          // The reproducer checks itself (`atomfuzz check`).
          if (!ExpectWhatTheSpecAllows(*f.reduced).ok()) {
            f.reduced->expect_words.clear();
            f.reduced->expect_counters.clear();
          }
          f.reduced->expect_returns.clear();
          reduced_d = *std::move(again);
          // With the provenance reduced.case will carry, judged again so
          // the report's lines are the file's.
          f.reduced = isa::NumberedAsPrinted(ReducedAsSaved(f));
          if (absl::StatusOr<oracle::Verdict> v = oracle::Judge(
                  *f.reduced, reduced_d->outcome, judge_, judging_);
              v.ok() && v->kind == oracle::Verdict::Kind::kDivergence) {
            reduced_d->verdict = *std::move(v);
          }
          shown = &*f.reduced;
          shown_d = &*reduced_d;
          if (*reduced_sig != *sig) {
            WriteSucceeded(shared_, stderr, "a bucket alias",
                           store_.SaveAlias(*sig, *reduced_sig));
            f.signature = *reduced_sig;
          }
          if (const std::string* known = setup_.known.Find(f.signature.Key()))
            f.known = *known;
        }
      }
    }
    if (f.known.empty() && setup_.options.reduce_seconds > 0) {
      // The bucket is the essential signature of what was found (reduced
      // or not); the found signature aliases it.
      Signature essential = Generalised(*shown, f.signature, f);
      if (essential != f.signature) {
        WriteSucceeded(shared_, stderr, "a bucket alias",
                       store_.SaveAlias(*sig, essential));
        f.signature = essential;
        if (const std::string* known = setup_.known.Find(essential.Key()))
          f.known = *known;
      }
    }
    f.report = RenderReport(*shown, *shown_d, f.signature, f.trigger);
    absl::StrAppend(
        &f.report,
        ReportEvidence(*shown, *shown_d, setup_.options.target,
                       f.reduced ? "reduced.case" : "original.case"));
    if (!f.generalised.empty())
      absl::StrAppend(&f.report, "\ngeneralised: ", f.generalised, "\n");
    WriteSucceeded(shared_, stderr, "a finding", store_.Save(f).status());
  }

  // The essential signature of `c` (which diverges as `signed_as`), its
  // trigger and cost into `f`; the signature unchanged if the target cannot
  // be set up for the edits.
  // The essential signature of `c` (which diverges as `signed_as`), its
  // trigger and cost into `f`; the signature unchanged if the target cannot
  // be set up for the edits.
  Signature Generalised(const isa::Case& c, const Signature& signed_as,
                        NewFinding& f) {
    absl::StatusOr<std::unique_ptr<targets::Target>> target =
        MakeTarget(ReproducibleOptions(setup_.Run()));
    if (!target.ok()) return signed_as;
    GeneraliseOptions go;
    go.deadline =
        std::min(absl::Now() + absl::Seconds(setup_.options.reduce_seconds),
                 plan_.deadline);
    go.judge = judge_;
    const fuzz::Generalised g = Generalise(c, signed_as, **target, go);
    f.trigger = g.trigger;
    f.generalised = g.Cost();
    counters_.generalised.fetch_add(1, std::memory_order_relaxed);
    counters_.generalise_runs.fetch_add(static_cast<uint64_t>(g.runs),
                                        std::memory_order_relaxed);
    counters_.generalise_us.fetch_add(static_cast<uint64_t>(g.seconds * 1e6),
                                      std::memory_order_relaxed);
    return g.signature;
  }

  const CampaignSetup& setup_;
  const WorkerPlan plan_;
  WorkerCounters& counters_;
  SharedState& shared_;
  FindingStore store_;
  std::unique_ptr<targets::Target> target_;
  CampaignCorpus corpus_;
  uint64_t visible_below_ = 0;  // corpus_ holds the kept cases below it
  // Cases this worker offered, by the name they would be kept under.
  absl::flat_hash_map<std::string, isa::Case> offered_;
  CandidateQueue queue_;
  EpochKeeper keeper_;  // used only when unsupervised
  FoldedCounts folded_;
  const std::string label_;
  std::vector<int> features_;
  uint64_t offer_epoch_ = UINT64_MAX;
  std::vector<uint8_t> epoch_features_ = std::vector<uint8_t>(kFeatureCount);
  // A word whose order the search cannot settle quickly is `unknown`, not a
  // stalled worker: a campaign prefers the next case.
  const oracle::JudgeOptions judge_ = setup_.JudgeOptions();
  oracle::JudgingScratch
      judging_;  // the judge's buffers, kept from case to case
};

}  // namespace

absl::Status RunWorker(const CampaignSetup& setup, const WorkerPlan& plan,
                       WorkerCounters& counters, SharedState& shared) {
  absl::StatusOr<std::unique_ptr<targets::Target>> target =
      setup.options.make_target ? setup.options.make_target()
                                : MakeTarget(setup.Run());
  if (!target.ok()) return target.status();
  absl::StatusOr<FindingStore> store = FindingStore::Open(setup.options.out);
  if (!store.ok()) return store.status();
  if (!plan.supervised) {
    CaseProgress& p = shared.progress;
    p.next.store(plan.first_index);
    p.end.store(plan.quota == 0 ? 0 : plan.first_index + plan.quota);
    p.folded.store(plan.first_index);
    p.finalized_epochs.store(Epochs(p.epoch_cases.load()).Of(plan.first_index));
  }
  Worker worker(setup, plan, counters, shared, *std::move(store),
                *std::move(target));
  worker.Loop();
  counters.finished.store(1);
  return absl::OkStatus();
}

}  // namespace atomfuzz::fuzz
