#include "fuzz/campaign/campaign.h"

#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <new>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/atomic_file.h"
#include "fuzz/campaign/campaign_corpus.h"
#include "fuzz/campaign/campaign_setup.h"
#include "fuzz/campaign/campaign_sync.h"
#include "fuzz/campaign/case_source.h"
#include "fuzz/campaign/corpus_epochs.h"
#include "fuzz/campaign/epoch_keeper.h"
#include "fuzz/triage/finding_store.h"
#include "fuzz/triage/report.h"
#include "fuzz/triage/signature.h"
#include "targets/isolation/run_in_child.h"

namespace atomfuzz::fuzz {
namespace {

// Set by SIGINT/SIGTERM in the supervisor: finish cleanly, write the state.
volatile sig_atomic_t g_interrupted = 0;
void OnInterrupt(int) { g_interrupted = 1; }

// Workers exit with this when they could not start (message on stderr).
constexpr int kWorkerSetupFailed = 3;

// One anonymous shared mapping: the SharedState, then `jobs` counters.
struct Shared {
  SharedState& state;
  WorkerCounters* workers;
  static size_t StateBytes() {
    return (sizeof(SharedState) + alignof(WorkerCounters) - 1) /
           alignof(WorkerCounters) * alignof(WorkerCounters);
  }
  static size_t Bytes(int jobs) {
    return StateBytes() + sizeof(WorkerCounters) * static_cast<size_t>(jobs);
  }
};

class Supervisor {
 public:
  Supervisor(PreparedCampaign& p, Shared shared, std::FILE* log,
             FindingStore store, std::unique_ptr<CampaignSync> sync)
      : p_(p),
        shared_(shared),
        log_(log),
        jobs_(p.setup.options.jobs),
        pids_(jobs_, -1),
        last_beat_(jobs_, 0),
        last_beat_at_(jobs_, absl::Now()),
        store_(std::move(store)),
        queue_(p.setup.options.out),
        keeper_(p.setup.options.out, shared.state, queue_),
        label_(TargetLabel(p.setup.options.target, p.setup.options.inject())),
        sync_(std::move(sync)) {
    // The numbering continues where the state stands; the epochs it
    // mutates were kept already (corpus.epochs), the candidates of cases
    // it runs again are dropped.
    CaseProgress& progress = shared_.state.progress;
    const uint64_t start = p.state.next_index;
    progress.next.store(start);
    progress.end.store(
        p.setup.options.runs == 0 ? 0 : start + p.setup.options.runs);
    progress.folded.store(start);
    progress.epoch_cases.store(p.epoch_cases);
    progress.finalized_epochs.store(
        std::max(p.finalized_epochs, Epochs(p.epoch_cases).Of(start)));
    queue_.DropFrom(start);
    // The status line's corpus is the campaign's, not this session's.
    shared_.state.corpus_kept.store(
        CaseFilesIn(p.setup.options.out + "/corpus").size());
    const std::vector<std::string> ids = store_.BucketIds();
    ids_before_.insert(ids.begin(), ids.end());
    // A resumed campaign's old buckets are not new.
    announced_ = ids_before_;
  }

  absl::Status Run() {
    const absl::Time deadline =
        p_.setup.options.seconds > 0
            ? p_.setup.started + absl::Seconds(p_.setup.options.seconds)
            : absl::InfiniteFuture();
    // The state first: a campaign killed before its first periodic save
    // still resumes, with the findings and corpus it wrote.
    SaveStats();
    Sync(false);  // what the peers have, from the first case on
    for (int w = 0; w < jobs_; ++w) {
      if (absl::Status s = Spawn(w, deadline); !s.ok()) return s;
    }
    absl::Time next_status =
        absl::Now() + absl::Seconds(p_.setup.options.status_every_seconds);
    absl::Time next_stats =
        absl::Now() + absl::Seconds(p_.setup.options.stats_every_seconds);
    absl::Time next_sync =
        absl::Now() + absl::Seconds(p_.setup.options.sync_every_seconds);
    while (Running() > 0) {
      usleep(20 * 1000);
      if (g_interrupted || absl::Now() >= deadline) shared_.state.stop.store(1);
      if (absl::Status s = Reap(deadline); !s.ok()) return s;
      CheckHangs(deadline);
      Keep(false);
      const absl::Time now = absl::Now();
      if (!p_.setup.options.quiet && now >= next_status) {
        AnnounceNewBuckets();
        std::fprintf(log_, "%s\n", StatusLine(Totals()).c_str());
        std::fflush(log_);
        next_status =
            now + absl::Seconds(p_.setup.options.status_every_seconds);
      }
      if (now >= next_stats) {
        SaveStats();
        next_stats = now + absl::Seconds(p_.setup.options.stats_every_seconds);
      }
      if (sync_ && now >= next_sync && shared_.state.stop.load() == 0) {
        Sync(false);
        next_sync =
            absl::Now() + absl::Seconds(p_.setup.options.sync_every_seconds);
      }
    }
    if (!p_.setup.options.quiet) AnnounceNewBuckets();
    Keep(true);
    SaveStats();
    // Published whole, then what the peers published by now.
    Sync(true);
    return absl::OkStatus();
  }

  std::string SyncSummary() const { return sync_ ? sync_->Summary() : ""; }

  CampaignTotals Totals() {
    CampaignTotals t;
    t.crashes = p_.state.crashes + crashes_;
    t.timeouts = p_.state.timeouts + timeouts_;
    uint64_t session_cases = 0;
    for (int w = 0; w < jobs_; ++w) {
      const WorkerCounters& c = shared_.workers[w];
      session_cases += c.cases.load();
      t.divergences += c.divergences.load();
      t.unknown += c.unknown.load();
      t.rejected += c.rejected.load();
      t.errors += c.errors.load();
      t.generalised += c.generalised.load();
      t.generalise_runs += c.generalise_runs.load();
      t.generalise_seconds += static_cast<double>(c.generalise_us.load()) / 1e6;
      t.reducing +=
          c.phase.load() == static_cast<uint32_t>(WorkerPhase::kReduce);
      for (int op = 0; op < kAtomicOpCount; ++op)
        for (int k = 0; k < isa::kTargetKindCount; ++k)
          for (int cls = 0; cls < isa::kAddressClassCount; ++cls)
            t.coverage[op][k][cls] += c.coverage[op][k][cls].load();
    }
    const double session =
        absl::ToDoubleSeconds(absl::Now() - p_.setup.started);
    t.cases = p_.state.cases + session_cases;
    t.divergences += p_.state.divergences;
    t.unknown += p_.state.unknown;
    t.rejected += p_.state.rejected;
    t.errors += p_.state.errors;
    t.buckets = store_.BucketIds().size();
    t.corpus = shared_.state.corpus_kept.load();
    t.elapsed_seconds = p_.setup.elapsed_before + session;
    t.cases_per_second = session > 0 ? session_cases / session : 0;
    return t;
  }

  // Buckets this session created: {new, known} (a known one was written
  // up already, fuzz/triage/known_findings.h).
  std::pair<uint64_t, uint64_t> new_buckets() {
    std::pair<uint64_t, uint64_t> n{0, 0};
    for (const std::string& id : store_.BucketIds()) {
      if (ids_before_.contains(id) || adopted_.contains(id)) continue;
      absl::StatusOr<BucketInfo> b = store_.ReadBucket(id);
      ++(b.ok() && !b->known.empty() ? n.second : n.first);
    }
    return n;
  }

 private:
  // An event line for each bucket no line has named yet (those of a
  // resumed campaign are not new).
  void AnnounceNewBuckets() {
    for (const std::string& id : store_.BucketIds()) {
      if (!announced_.insert(id).second) continue;
      absl::StatusOr<BucketInfo> b = store_.ReadBucket(id);
      if (b.ok()) std::fprintf(log_, "%s\n", NewBucketLine(*b).c_str());
    }
    std::fflush(log_);
  }
  // Publishes and imports (campaign_sync.h). A bucket a peer found is
  // announced as such, and is not this campaign's new one.
  void Sync(bool final) {
    if (!sync_) return;
    absl::StatusOr<std::vector<AdoptedBucket>> adopted =
        sync_->Round(store_, shared_.state, keeper_, final);
    if (!WriteSucceeded(shared_.state, log_, "a synced finding or case",
                        adopted.status()))
      return;
    for (const AdoptedBucket& a : *adopted) {
      adopted_.insert(a.bucket.id);
      if (!announced_.insert(a.bucket.id).second || p_.setup.options.quiet)
        continue;
      std::fprintf(log_, "%s\n", SyncedBucketLine(a.bucket, a.peer).c_str());
    }
    std::fflush(log_);
  }

  int Running() const {
    int n = 0;
    for (pid_t pid : pids_) n += pid > 0;
    return n;
  }

  // Keeps whole epochs and folds done cases; `at_end`: no worker runs.
  void Keep(bool at_end) {
    WriteSucceeded(shared_.state, log_, "a corpus case",
                   keeper_.KeepWholeEpochs());
    keeper_.Fold(folded_, at_end);
  }

  absl::Status Spawn(int w, absl::Time deadline) {
    const CaseProgress& progress = shared_.state.progress;
    if (progress.end.load() != 0 && progress.next.load() >= progress.end.load())
      return absl::OkStatus();
    WorkerPlan plan;
    plan.supervised = true;
    plan.deadline = deadline;
    std::fflush(nullptr);  // the child must not repeat buffered output
    const pid_t pid = fork();
    if (pid < 0)
      return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
    if (pid == 0) {
      // A killed supervisor must not leave workers behind.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() == 1) _exit(0);
      signal(SIGINT, SIG_IGN);  // the supervisor stops us through `stop`
      signal(SIGTERM, SIG_DFL);
      absl::Status s =
          RunWorker(p_.setup, plan, shared_.workers[w], shared_.state);
      if (!s.ok())
        std::fprintf(stderr, "atomfuzz worker %d: %s\n", w,
                     s.ToString().c_str());
      std::fflush(nullptr);
      _exit(s.ok() ? 0 : kWorkerSetupFailed);
    }
    pids_[w] = pid;
    last_beat_[w] = shared_.workers[w].heartbeat.load();
    last_beat_at_[w] = absl::Now();
    return absl::OkStatus();
  }

  absl::Status Reap(absl::Time deadline) {
    for (int w = 0; w < jobs_; ++w) {
      if (pids_[w] <= 0) continue;
      int status = 0;
      const pid_t r = waitpid(pids_[w], &status, WNOHANG);
      if (r != pids_[w]) continue;
      pids_[w] = -1;
      if (WIFEXITED(status) && WEXITSTATUS(status) == kWorkerSetupFailed) {
        shared_.state.stop.store(1);
        return absl::InternalError(
            absl::StrCat("worker ", w, " could not start (see above)"));
      }
      const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
      if (clean && shared_.workers[w].finished.load() != 0) continue;
      const std::optional<uint64_t> index = OwnedIndex(w);
      const std::string what =
          WIFSIGNALED(status)
              ? absl::StrFormat("killed by signal %d (%s)", WTERMSIG(status),
                                strsignal(WTERMSIG(status)))
              : absl::StrFormat("exited with status %d", WEXITSTATUS(status));
      // A worker killed from outside (the OOM killer, an operator) is no
      // crash of its case: only one a fresh process repeats is filed.
      if (!index) {
        // Died between cases: nothing of its own to file.
      } else if (!CrashRepeats(w)) {
        Unreproducible(w, *index, what);
      } else {
        ++crashes_;
        Lost(w, *index, WorkerFailure::kCrash, what);
      }
      if (shared_.state.stop.load() == 0) {
        if (absl::Status s = Spawn(w, deadline); !s.ok()) return s;
      }
    }
    return absl::OkStatus();
  }

  // A worker whose heartbeat stands still for longer than its phase may
  // take is hung: kill it, record a timeout, start another.
  void CheckHangs(absl::Time deadline) {
    const absl::Time now = absl::Now();
    for (int w = 0; w < jobs_; ++w) {
      if (pids_[w] <= 0) continue;
      const WorkerCounters& c = shared_.workers[w];
      const uint64_t beat = c.heartbeat.load();
      if (beat != last_beat_[w]) {
        last_beat_[w] = beat;
        last_beat_at_[w] = now;
        continue;
      }
      const auto phase = static_cast<WorkerPhase>(c.phase.load());
      double limit = p_.setup.options.timeout_seconds;
      if (phase == WorkerPhase::kReduce)
        limit += p_.setup.options.reduce_seconds + 30;
      // The judge is ours, not the target: a slow search is no target hang.
      if (phase == WorkerPhase::kJudge) limit += 60;
      if (absl::ToDoubleSeconds(now - last_beat_at_[w]) < limit) continue;
      kill(pids_[w], SIGKILL);
      int status = 0;
      waitpid(pids_[w], &status, 0);
      pids_[w] = -1;
      // Hung between cases (no index of its own): nothing to file, but a
      // worker to replace all the same.
      if (const std::optional<uint64_t> index = OwnedIndex(w)) {
        ++timeouts_;
        const char* where = phase == WorkerPhase::kTarget ? "the target"
                            : phase == WorkerPhase::kJudge
                                ? "the oracle's judge"
                                : "reduction";
        Lost(w, *index, WorkerFailure::kTimeout,
             absl::StrFormat("no progress for %.0f s in %s", limit, where),
             phase == WorkerPhase::kJudge);
      }
      if (shared_.state.stop.load() == 0) {
        if (absl::Status s = Spawn(w, deadline); !s.ok()) {
          std::fprintf(log_, "atomfuzz: worker %d could not be restarted: %s\n",
                       w, std::string(s.message()).c_str());
        }
      }
    }
  }

  // The case worker `w` was running, rebuilt from the seed and its index.
  isa::Case CaseOf(int w, CaseOrigin& origin) {
    CampaignCorpus corpus = p_.setup.corpus;
    corpus.Reload();
    const std::string parent(shared_.workers[w].current_parent);
    return RebuildCase(p_.setup.seed, shared_.workers[w].current_index.load(),
                       corpus, parent, p_.setup.policy, origin);
  }

  // Whether the case worker `w` died on kills a fresh process too (the
  // target made anew, the case run once, within twice the timeout).
  bool CrashRepeats(int w) {
    CaseOrigin origin;
    const isa::Case c = CaseOf(w, origin);
    const RunOptions run = p_.setup.Run();
    const auto& make = p_.setup.options.make_target;
    absl::StatusOr<std::string> again = targets::RunInChild(
        [&]() -> std::string {
          absl::StatusOr<std::unique_ptr<targets::Target>> t =
              make ? make() : MakeTarget(run);
          if (!t.ok()) return "no target";
          (void)(*t)->Run(c);
          return "ran";
        },
        2 * p_.setup.options.timeout_seconds);
    // Died again, or hung: the case's own doing. (A target that cannot be
    // made in the child says nothing of the case: filed as before.)
    return !again.ok() || *again == "no target";
  }

  // The index dead worker `w` had taken and not finished, if any. Its
  // current_index names the index it tried to take; it took it unless the
  // claim failed, and then the index is another's: running (named by a
  // live worker), done, or already folded (case_progress.h).
  std::optional<uint64_t> OwnedIndex(int w) {
    const CaseProgress& progress = shared_.state.progress;
    const uint64_t index = shared_.workers[w].current_index.load();
    if (index < progress.folded.load() || index >= progress.next.load())
      return std::nullopt;
    if ((progress.of(index).load() & kCaseDone) != 0) return std::nullopt;
    for (int other = 0; other < jobs_; ++other) {
      if (other != w && pids_[other] > 0 &&
          shared_.workers[other].current_index.load() == index)
        return std::nullopt;
    }
    return index;
  }

  // The lost case of worker `w` counts as run: settled for the corpus
  // (unless the worker settled it) and done with `flags`.
  void Finish(int w, uint64_t index, uint8_t flags) {
    CaseProgress& progress = shared_.state.progress;
    WorkerCounters& c = shared_.workers[w];
    c.cases.fetch_add(1);
    if (c.corpus_settled.load() == 0)
      progress.of(index).fetch_or(kCaseCorpusSettled);
    progress.of(index).fetch_or(kCaseDone | flags);
  }

  // Worker `w` died, but its case runs cleanly in a fresh process: said,
  // counted, not filed.
  void Unreproducible(int w, uint64_t index, const std::string& what) {
    Finish(w, index, 0);
    ++unreproducible_;
    std::fprintf(log_,
                 "worker %d died on case %llu (%s), which runs cleanly in a "
                 "fresh process: an unreproducible crash, not filed (killed "
                 "from outside?)\n",
                 w, static_cast<unsigned long long>(index), what.c_str());
    std::fflush(log_);
  }

  // Saves what worker `w` was running when it was lost; the case counts
  // as run. `in_judge`: the oracle, not the target, stalled; bucketed
  // apart.
  void Lost(int w, uint64_t index, WorkerFailure failure,
            const std::string& what, bool in_judge = false) {
    Finish(w, index,
           failure == WorkerFailure::kCrash ? kCaseCrash : kCaseTimeout);
    CaseOrigin origin;
    isa::Case lost = CaseOf(w, origin);
    NewFinding f;
    f.case_index = index;
    f.signature =
        WorkerFailureSignature(lost, failure, in_judge ? "judge" : label_);
    f.original = lost;
    f.original.metadata = origin.Metadata(p_.setup.options.policy);
    f.summary = what;
    f.target = p_.setup.options.target;
    f.inject = p_.setup.options.inject();
    f.seed = origin.seed;
    f.extra = {{"campaign_seed", absl::StrCat(p_.setup.seed)},
               {"case_index", absl::StrCat(index)}};
    f.elapsed_s = p_.setup.elapsed_before +
                  absl::ToDoubleSeconds(absl::Now() - p_.setup.started);
    f.report = RenderWorkerFailureReport(f.original, f.signature, what);
    if (!p_.setup.options.quiet) {
      std::fprintf(log_, "worker %d lost on case %llu: %s\n", w,
                   static_cast<unsigned long long>(index), what.c_str());
    }
    WriteSucceeded(shared_.state, log_, "a finding", store_.Save(f).status());
  }

  void SaveStats() {
    const CampaignTotals t = Totals();
    // The state counts exactly the cases below its next_index: a resumed
    // campaign runs the rest again without counting them twice.
    CampaignState s = p_.state;
    s.cases += folded_.cases;
    s.divergences += folded_.divergences;
    s.unknown += folded_.unknown;
    s.crashes += folded_.crashes;
    s.timeouts += folded_.timeouts;
    s.rejected += folded_.rejected;
    s.errors += folded_.errors;
    s.elapsed_seconds = t.elapsed_seconds;
    s.next_index = shared_.state.progress.folded.load();
    WriteSucceeded(
        shared_.state, log_, p_.stats_path,
        WriteFileAtomically(
            p_.stats_path,
            StatsJson(t, label_, p_.setup.options.policy, p_.setup.seed, jobs_),
            false));
    WriteSucceeded(
        shared_.state, log_, p_.state_path,
        WriteFileAtomically(p_.state_path, PrintCampaignState(s), false));
  }

  PreparedCampaign& p_;
  Shared shared_;
  std::FILE* log_;
  const int jobs_;
  std::vector<pid_t> pids_;
  std::vector<uint64_t> last_beat_;
  std::vector<absl::Time> last_beat_at_;
  FindingStore store_;
  CandidateQueue queue_;
  EpochKeeper keeper_;
  FoldedCounts folded_;  // this session's cases below progress.folded
  const std::string label_;
  uint64_t crashes_ = 0, timeouts_ = 0;
  uint64_t unreproducible_ = 0;  // worker deaths a fresh process did not repeat
  std::unique_ptr<CampaignSync> sync_;
  absl::flat_hash_set<std::string> ids_before_;
  absl::flat_hash_set<std::string> adopted_;    // buckets a sync brought
  absl::flat_hash_set<std::string> announced_;  // buckets an event line named
};

}  // namespace

absl::StatusOr<CampaignResult> RunCampaign(const CampaignOptions& options,
                                           std::FILE* log) {
  absl::StatusOr<PreparedCampaign> p = PrepareCampaign(options);
  if (!p.ok()) return p.status();
  std::unique_ptr<CampaignSync> sync;
  if (!options.sync_dir.empty()) {
    absl::StatusOr<std::unique_ptr<CampaignSync>> opened =
        CampaignSync::Open(p->setup, log);
    if (!opened.ok()) return opened.status();
    sync = *std::move(opened);
  }
  std::fprintf(
      log, "atomfuzz: target %s, policy %s, seed %llu, %d job%s, out %s%s\n",
      TargetLabel(options.target, options.inject()).c_str(),
      p->setup.options.policy.c_str(),
      static_cast<unsigned long long>(p->setup.seed), options.jobs,
      options.jobs == 1 ? "" : "s", options.out.c_str(),
      options.resume ? " (resumed)" : "");
  if (sync) {
    std::fprintf(log, "atomfuzz: syncing through %s as %s\n",
                 sync->identity().dir.c_str(), sync->identity().name.c_str());
  }
  const size_t bytes = Shared::Bytes(options.jobs);
  void* mem = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED) {
    return absl::InternalError(absl::StrCat("mmap: ", std::strerror(errno)));
  }
  auto* state = new (mem) SharedState();
  auto* workers = reinterpret_cast<WorkerCounters*>(static_cast<char*>(mem) +
                                                    Shared::StateBytes());
  for (int w = 0; w < options.jobs; ++w) new (&workers[w]) WorkerCounters();
  Shared shared{*state, workers};
  if (!p->seen_features.empty()) {
    if (absl::Status s =
            LoadSeenFeatures(p->seen_features, p->features_path, *state);
        !s.ok()) {
      munmap(mem, bytes);
      return s;
    }
  }
  g_interrupted = 0;
  struct sigaction sa = {}, old_int = {}, old_term = {};
  sa.sa_handler = OnInterrupt;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  CampaignResult result;
  absl::Status status;
  absl::StatusOr<FindingStore> store = FindingStore::Open(options.out);
  if (!store.ok()) {
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);
    munmap(mem, bytes);
    return store.status();
  }
  {
    Supervisor supervisor(*p, shared, log, *std::move(store), std::move(sync));
    status = supervisor.Run();
    result.sync_summary = supervisor.SyncSummary();
    result.totals = supervisor.Totals();
    std::tie(result.new_buckets, result.known_buckets) =
        supervisor.new_buckets();
    result.write_failed = shared.state.write_failed.load() != 0;
  }
  sigaction(SIGINT, &old_int, nullptr);
  sigaction(SIGTERM, &old_term, nullptr);
  munmap(mem, bytes);
  if (!status.ok()) return status;
  result.seed = p->setup.seed;
  return result;
}

}  // namespace atomfuzz::fuzz
