// The campaign driver: counts, files, resume, and what it does when the
// target crashes or hangs (a stand-in target here, since ours do neither).
#include "fuzz/campaign/campaign.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "fuzz/atomic_file.h"
#include "fuzz/campaign/campaign_state.h"
#include "fuzz/campaign/corpus_epochs.h"
#include "fuzz/differential.h"
#include "fuzz/reduce/reducer.h"
#include "fuzz/runner.h"
#include "fuzz/triage/finding_store.h"
#include "fuzz/triage/generalise.h"
#include "fuzz/triage/signature.h"
#include "gtest/gtest.h"
#include "targets/target_versions.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

std::string FreshDir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "/campaign-" + name + "-" +
                          std::to_string(getpid());
  fs::remove_all(dir);
  return dir;
}

CampaignOptions Options(const std::string& out) {
  CampaignOptions o;
  o.target = "fast";
  o.out = out;
  o.seed = 7;
  o.quiet = true;
  o.status_every_seconds = 0.2;
  o.stats_every_seconds = 0.2;
  return o;
}

std::FILE* Log() { return stderr; }

// The buckets the campaign in `out` saved (none, with a failure, if they
// cannot be read).
std::vector<BucketInfo> BucketsOf(const std::string& out) {
  absl::StatusOr<FindingStore> store = FindingStore::Open(out);
  EXPECT_TRUE(store.ok()) << store.status();
  if (!store.ok()) return {};
  absl::StatusOr<std::vector<BucketInfo>> buckets = store->ReadAll();
  EXPECT_TRUE(buckets.ok()) << buckets.status();
  return buckets.ok() ? *std::move(buckets) : std::vector<BucketInfo>{};
}

TEST(CampaignState, RoundTrips) {
  CampaignState s;
  s.seed = 42;
  s.target = "fast";
  s.inject = "xor-as-or";
  s.policy = "tgsm";
  s.next_index = 1000;
  s.cases = 999;
  s.divergences = 3;
  s.elapsed_seconds = 12.5;
  absl::StatusOr<CampaignState> back =
      ParseCampaignState(PrintCampaignState(s), "x");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->seed, 42u);
  EXPECT_EQ(back->inject, "xor-as-or");
  EXPECT_EQ(back->policy, "tgsm");
  EXPECT_EQ(back->next_index, 1000u);
  EXPECT_EQ(back->divergences, 3u);
  EXPECT_DOUBLE_EQ(back->elapsed_seconds, 12.5);
}

TEST(CampaignState, MalformedNamesFileAndLine) {
  absl::StatusOr<CampaignState> s = ParseCampaignState(
      "seed 1\ntarget fast\ncases many\n", "dir/campaign.state");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(
      absl::StrContains(s.status().message(), "dir/campaign.state:3: expected"))
      << s.status();
}

TEST(Campaign, CorrectTargetRunsCleanAndWritesStats) {
  const std::string out = FreshDir("clean");
  CampaignOptions o = Options(out);
  // Past one whole epoch, so that something is kept (corpus_epochs.h).
  o.runs = kEpochCases + 400;
  o.jobs = 2;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->totals.cases, kEpochCases + 400);
  EXPECT_EQ(r->totals.divergences, 0u);
  EXPECT_EQ(r->totals.crashes, 0u);
  EXPECT_EQ(r->new_buckets, 0u);
  absl::StatusOr<std::string> stats = ReadWholeFile(out + "/stats.json");
  ASSERT_TRUE(stats.ok());
  for (const char* key :
       {"\"cases\": 1424", "\"cases_per_second\"", "\"divergences\": 0",
        "\"buckets\"", "\"unknown\"", "\"crashes\"", "\"timeouts\"",
        "\"elapsed_seconds\"", "\"coverage\""}) {
    EXPECT_TRUE(absl::StrContains(*stats, key)) << key << " in\n" << *stats;
  }
  EXPECT_GT(r->totals.corpus, 0u);
}

// What a campaign of N cases finds: its buckets with their hits, its
// kept corpus, its counts.
std::string WhatItFound(const std::string& out) {
  std::string found;
  for (const BucketInfo& b : BucketsOf(out))
    absl::StrAppend(&found, b.id, " ", b.hits, "\n");
  std::vector<std::string> kept;
  for (const auto& e : std::filesystem::directory_iterator(out + "/corpus"))
    kept.push_back(e.path().filename().string());
  std::sort(kept.begin(), kept.end());
  absl::StrAppend(&found, "corpus ", absl::StrJoin(kept, " "), "\n");
  absl::StatusOr<std::string> state = ReadWholeFile(out + "/campaign.state");
  EXPECT_TRUE(state.ok());
  if (state.ok()) {
    for (absl::string_view line : absl::StrSplit(*state, '\n')) {
      if (!absl::StartsWith(line, "elapsed"))
        absl::StrAppend(&found, line, "\n");
    }
  }
  return found;
}

// The case at an index depends on the seed and the index alone
// (corpus_epochs.h): one worker or two, in one session or two, a campaign
// of N cases finds the same buckets with the same hits and keeps the same
// corpus.
TEST(Campaign, JobsAndSessionsDoNotChangeWhatItFinds) {
  auto options = [](const std::string& out) {
    CampaignOptions o = Options(out);
    o.target_flags["inject"] = "rmw-not-atomic";
    o.seed = 11;
    o.runs = 3 * kEpochCases + 100;
    return o;
  };
  const std::string one = FreshDir("same-one-job");
  ASSERT_TRUE(RunCampaign(options(one), Log()).ok());
  const std::string found = WhatItFound(one);
  EXPECT_TRUE(absl::StrContains(found, "next_index 3172")) << found;
  EXPECT_TRUE(absl::StrContains(found, ".case")) << found;

  const std::string two = FreshDir("same-two-jobs");
  CampaignOptions o = options(two);
  o.jobs = 2;
  ASSERT_TRUE(RunCampaign(o, Log()).ok());
  EXPECT_EQ(WhatItFound(two), found);

  // Stopped mid-epoch and resumed: the rest of the epoch waits on disk.
  const std::string resumed = FreshDir("same-resumed");
  o = options(resumed);
  o.jobs = 2;
  o.runs = kEpochCases + 300;
  ASSERT_TRUE(RunCampaign(o, Log()).ok());
  o.resume = true;
  o.runs = 2 * kEpochCases - 200;
  ASSERT_TRUE(RunCampaign(o, Log()).ok());
  EXPECT_EQ(WhatItFound(resumed), found);
}

TEST(Campaign, RefusesToMixAndResumes) {
  const std::string out = FreshDir("resume");
  CampaignOptions o = Options(out);
  o.runs = 100;
  ASSERT_TRUE(RunCampaign(o, Log()).ok());
  // The same directory again without --resume: refused, nothing touched.
  absl::StatusOr<CampaignResult> again = RunCampaign(o, Log());
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), absl::StatusCode::kInvalidArgument);
  o.resume = true;
  o.seed = 0;  // the state's seed is used
  absl::StatusOr<CampaignResult> resumed = RunCampaign(o, Log());
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  EXPECT_EQ(resumed->seed, 7u);
  EXPECT_EQ(resumed->totals.cases, 200u);
  // Another target on the same state is refused.
  o.target_flags["inject"] = "xor-as-or";
  EXPECT_FALSE(RunCampaign(o, Log()).ok());
}

TEST(Campaign, ResumeWithoutStateIsBadInput) {
  CampaignOptions o = Options(FreshDir("nostate"));
  o.resume = true;
  o.runs = 1;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(Campaign, FindsAnInjectedBugAndSavesAReducedReproducer) {
  const std::string out = FreshDir("inject");
  CampaignOptions o = Options(out);
  o.target_flags["inject"] = "return-new";
  o.runs = 500;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GT(r->totals.divergences, 0u);
  ASSERT_GT(r->new_buckets, 0u);
  absl::StatusOr<FindingStore> store = FindingStore::Open(out);
  ASSERT_TRUE(store.ok());
  absl::StatusOr<std::vector<BucketInfo>> buckets = store->ReadAll();
  ASSERT_TRUE(buckets.ok());
  ASSERT_FALSE(buckets->empty());
  for (const BucketInfo& b : *buckets) {
    EXPECT_EQ(b.signature.target, "fast+inject=return-new");
    EXPECT_TRUE(fs::exists(b.reduced_path)) << b.reduced_path;
  }
}

// Buckets written up already (--known) are kept marked, not reduced again
// when the first signature is known, and do not count as new (issue 19).
TEST(Campaign, KnownFindingsAreMarkedAndNotNew) {
  const std::string first = FreshDir("known-first");
  CampaignOptions o = Options(first);
  o.target_flags["inject"] = "return-new";
  o.runs = 150;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_GT(r->new_buckets, 0u);
  const std::vector<BucketInfo> buckets = BucketsOf(first);
  std::string list = "# the first campaign's buckets\n";
  for (const BucketInfo& b : buckets)
    list += b.signature.Key() + " = injected return-new\n";
  const std::string known_file = first + "-known.txt";
  ASSERT_TRUE(WriteFileAtomically(known_file, list).ok());

  // The same campaign again, knowing them: nothing new.
  const std::string second = FreshDir("known-second");
  o.out = second;
  o.known = known_file;
  r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->new_buckets, 0u);
  EXPECT_EQ(r->known_buckets, buckets.size());
  for (const BucketInfo& b : BucketsOf(second))
    EXPECT_EQ(b.known, "injected return-new");

  o.known = second + "/no-such-list.txt";
  o.out = FreshDir("known-missing");
  EXPECT_TRUE(absl::IsInvalidArgument(RunCampaign(o, Log()).status()));
}

// A generated case has no lines of its own: a finding's summary names the
// lines its atomics have in original.case (and reduced.case, the same file
// when nothing was reduced), not "line 0" (issue 19).
TEST(Campaign, FindingsNameTheLinesOfTheSavedCase) {
  const std::string out = FreshDir("lines");
  CampaignOptions o = Options(out);
  o.target_flags["inject"] = "return-new";
  o.reduce_seconds = 0;
  o.runs = 200;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  const std::vector<BucketInfo> buckets = BucketsOf(out);
  ASSERT_FALSE(buckets.empty());
  for (const BucketInfo& b : buckets) {
    // "..., imm_atomic_and (line 42) in group ...": that line holds it.
    const size_t at = b.summary.find(" (line ");
    ASSERT_NE(at, std::string::npos) << b.summary;
    const size_t op = b.summary.rfind(' ', at - 1) + 1;
    const std::string opcode = b.summary.substr(op, at - op);
    const int line = std::atoi(b.summary.c_str() + at + 7);
    ASSERT_GT(line, 0) << b.summary;
    absl::StatusOr<std::string> text =
        ReadWholeFile(out + "/findings/" + b.id + "/original.case");
    ASSERT_TRUE(text.ok());
    std::vector<std::string> lines = absl::StrSplit(*text, '\n');
    ASSERT_LE(line, static_cast<int>(lines.size()));
    EXPECT_TRUE(absl::StrContains(lines[line - 1], opcode))
        << b.id << ": line " << line << " is '" << lines[line - 1]
        << "', the summary: " << b.summary;
  }
}

// reduced.case carries the provenance original.case does (target,
// injection, bucket, the commit), and the report's "line N: ..." are the
// lines of reduced.case as saved.
TEST(Campaign, ReducedCasesKeepTheirProvenanceAndTheirLines) {
  const std::string out = FreshDir("reduced-lines");
  CampaignOptions o = Options(out);
  o.target_flags["inject"] = "return-new";
  o.tool_commit = "0123abcd";
  // As the CLI looks them up for a vulkan target (whatever this machine
  // has): the saved cases must still parse.
  o.versions = targets::TargetVersions("vulkan");
  ASSERT_FALSE(o.versions.empty());
  o.runs = 300;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  int checked = 0;
  for (const BucketInfo& b : BucketsOf(out)) {
    const std::string dir = out + "/findings/" + b.id;
    absl::StatusOr<std::string> reduced = ReadWholeFile(dir + "/reduced.case");
    absl::StatusOr<std::string> report = ReadWholeFile(dir + "/report.txt");
    ASSERT_TRUE(reduced.ok() && report.ok());
    for (const char* name : {"/reduced.case", "/original.case"}) {
      absl::StatusOr<std::string> text = ReadWholeFile(dir + name);
      ASSERT_TRUE(text.ok());
      EXPECT_TRUE(isa::ParseCase(*text, name).ok())
          << isa::ParseCase(*text, name).status();
    }
    EXPECT_TRUE(absl::StrContains(*reduced, "\n" + o.versions[0].first + " = "))
        << *reduced;
    // The reproducer checks itself: what the spec allows of its words.
    EXPECT_TRUE(absl::StrContains(*reduced, "\n[expect u")) << *reduced;
    EXPECT_TRUE(absl::StrContains(*report, "atomfuzz export --format=json"))
        << *report;
    EXPECT_TRUE(absl::StrContains(*reduced, "\ntarget = fast\n")) << *reduced;
    EXPECT_TRUE(absl::StrContains(*reduced, "\ninject = return-new\n"));
    EXPECT_TRUE(absl::StrContains(*reduced, "\natomfuzz = 0123abcd\n"));
    EXPECT_TRUE(absl::StrContains(*reduced, "\nbucket = " + b.id + "\n"));
    std::vector<std::string> lines = absl::StrSplit(*reduced, '\n');
    for (absl::string_view l : absl::StrSplit(*report, '\n')) {
      // "  line   23: imm_atomic_or r0.x, u0, l(0), l(2)"
      int n = 0;
      if (!absl::ConsumePrefix(&l, "  line ")) continue;
      l = absl::StripLeadingAsciiWhitespace(l);
      const size_t colon = l.find(": ");
      if (colon == absl::string_view::npos ||
          !absl::SimpleAtoi(l.substr(0, colon), &n))
        continue;
      ASSERT_GT(n, 0);
      ASSERT_LE(n, static_cast<int>(lines.size()));
      EXPECT_EQ(absl::StripAsciiWhitespace(lines[n - 1]), l.substr(colon + 2))
          << dir;
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

// The seeds run as they are before anything is mutated or generated
// (issue 19): a seed that shows the bug by itself is the finding, and a
// resumed campaign does not run them again.
TEST(Campaign, SeedsRunAsTheyAreFirst) {
  const std::string out = FreshDir("seeds-first");
  CampaignOptions o = Options(out);
  o.target_flags["inject"] = "consume-pre-decrement";
  o.seeds = {(testutil::ProjectRoot() / "corpus/spec/e36-counter-wraps.case")
                 .string()};
  o.mutate_per_mille = 0;  // past the seed, generated cases only
  o.runs = 1;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->totals.cases, 1u);
  EXPECT_EQ(r->totals.divergences, 1u);
  const std::vector<BucketInfo> buckets = BucketsOf(out);
  ASSERT_EQ(buckets.size(), 1u);
  absl::StatusOr<std::string> original =
      ReadWholeFile(out + "/findings/" + buckets[0].id + "/original.case");
  ASSERT_TRUE(original.ok()) << original.status();
  EXPECT_TRUE(absl::StrContains(*original, "e36-counter-wraps.case"));
  EXPECT_TRUE(absl::StrContains(*original, "mutations = none"));

  // Resumed: case 1 on, so the seed is not run again.
  o.resume = true;
  o.runs = 50;
  r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<std::string> state = ReadWholeFile(out + "/campaign.state");
  ASSERT_TRUE(state.ok());
  EXPECT_TRUE(absl::StrContains(*state, "next_index 51")) << *state;
}

// A bucket is named by the essential signature of its reduced case: the
// found signature often blames an innocent neighbour of the faulty xor (a
// cmp_exch reading the word it corrupted), reduction lets the neighbour go,
// and generalisation keeps only what the divergence needs. Each bucket's
// reduced case generalises to the bucket, and found signatures are kept as
// aliases.
TEST(Campaign, EachBucketIsTheEssentialSignatureOfItsReducedCase) {
  const std::string out = FreshDir("reduced-signature");
  CampaignOptions o = Options(out);
  o.target_flags["inject"] = "xor-as-or";
  o.runs = 1500;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  absl::StatusOr<FindingStore> store = FindingStore::Open(out);
  ASSERT_TRUE(store.ok());
  absl::StatusOr<std::vector<BucketInfo>> buckets = store->ReadAll();
  ASSERT_TRUE(buckets.ok());
  ASSERT_FALSE(buckets->empty());
  RunOptions run;
  run.target = "fast";
  run.target_options.flags = o.target_flags;
  absl::StatusOr<std::unique_ptr<targets::Target>> fast =
      MakeTarget(ReproducibleOptions(run));
  ASSERT_TRUE(fast.ok());
  for (const BucketInfo& b : *buckets) {
    absl::StatusOr<std::string> text = ReadWholeFile(b.reduced_path);
    ASSERT_TRUE(text.ok());
    absl::StatusOr<isa::Case> reduced = isa::ParseCase(*text, b.reduced_path);
    ASSERT_TRUE(reduced.ok()) << reduced.status();
    absl::StatusOr<Differential> d = RunAndJudge(*reduced, **fast);
    ASSERT_TRUE(d.ok());
    absl::StatusOr<Signature> s = SignatureOf(*reduced, *d, TargetLabel(run));
    ASSERT_TRUE(s.ok()) << s.status();
    EXPECT_EQ(Generalise(*reduced, *s, **fast).signature.Key(),
              b.signature.Key())
        << b.reduced_path;
  }
  EXPECT_FALSE(fs::is_empty(out + "/findings/.aliases"));
  // The buckets name the faulty xor, not the neighbours that saw its result
  // (nor the memory kinds and addresses it met: few buckets).
  const auto xor_buckets =
      std::count_if(buckets->begin(), buckets->end(), [](const BucketInfo& b) {
        return absl::StrContains(b.signature.opcode, "xor");
      });
  EXPECT_GE(xor_buckets * 4, static_cast<int64_t>(buckets->size()) * 3)
      << xor_buckets << " of " << buckets->size();
  EXPECT_LE(buckets->size(), 4u);
}

// The fast target, except that some cases go wrong. kCrash: one case in
// about 50, picked by its text, aborts the process, in any process (a
// crash the campaign confirms in a fresh one). kHistory: every 50th case of
// a process aborts it, which no fresh process repeats (a worker killed
// from outside looks so). kHang: the 30th case never returns.
enum class Fault { kCrash, kHistory, kHang };
template <Fault kFault>
class FaultyTarget : public targets::Target {
 public:
  explicit FaultyTarget(std::unique_ptr<targets::Target> inner)
      : inner_(std::move(inner)) {}
  absl::string_view name() const override { return "faulty"; }
  absl::StatusOr<isa::Outcome> Run(const isa::Case& c) override {
    ++runs_;
    // std::hash of a string is not seeded: the same in every process.
    if (kFault == Fault::kCrash &&
        std::hash<std::string>{}(isa::PrintCase(c)) % 50 == 0)
      std::abort();
    if (kFault == Fault::kHistory && runs_ % 50 == 0) std::abort();
    if (kFault == Fault::kHang && runs_ == 30) {
      for (;;) pause();
    }
    return inner_->Run(c);
  }

 private:
  std::unique_ptr<targets::Target> inner_;
  int runs_ = 0;
};
using CrashingTarget = FaultyTarget<Fault::kCrash>;
using HistoryCrashingTarget = FaultyTarget<Fault::kHistory>;
using HangingTarget = FaultyTarget<Fault::kHang>;

// The fast target, except that the runs numbered `kFirst` to `kLast`
// (per worker process) report a timeout, as an isolated target does when
// its child misses the deadline.
template <int kFirst, int kLast>
class TimingOutTarget : public targets::Target {
 public:
  explicit TimingOutTarget(std::unique_ptr<targets::Target> inner)
      : inner_(std::move(inner)) {}
  absl::string_view name() const override { return "timing-out"; }
  absl::StatusOr<isa::Outcome> Run(const isa::Case& c) override {
    ++runs_;
    if (runs_ < kFirst || runs_ > kLast) return inner_->Run(c);
    isa::Outcome o;
    o.status = isa::RunStatus::kTimedOut;
    o.message = "the child did not answer within 1 s";
    return o;
  }

 private:
  std::unique_ptr<targets::Target> inner_;
  int runs_ = 0;
};
// One stalled run: the case's second run completes.
using StalledOnceTarget = TimingOutTarget<30, 30>;
// A case that times out twice: its run and the confirming run.
using TimesOutTwiceTarget = TimingOutTarget<30, 31>;

template <typename Wrapper>
absl::StatusOr<std::unique_ptr<targets::Target>> Wrapped() {
  RunOptions run;
  run.target = "fast";
  run.target_options.threads = 1;
  run.target_options.deterministic = true;
  absl::StatusOr<std::unique_ptr<targets::Target>> fast = MakeTarget(run);
  if (!fast.ok()) return fast.status();
  return std::unique_ptr<targets::Target>(new Wrapper(*std::move(fast)));
}

// Hits of the campaign's buckets whose divergence kind is `kind`.
int64_t HitsOfKind(const std::string& out, const std::string& kind) {
  absl::StatusOr<FindingStore> store = FindingStore::Open(out);
  if (!store.ok()) return -1;
  absl::StatusOr<std::vector<BucketInfo>> buckets = store->ReadAll();
  if (!buckets.ok()) return -1;
  int64_t hits = 0;
  for (const BucketInfo& b : *buckets) {
    if (b.signature.divergence == kind) hits += b.hits;
  }
  return hits;
}

TEST(Campaign, ACrashingTargetIsAFindingAndTheCampaignGoesOn) {
  const std::string out = FreshDir("crash");
  CampaignOptions o = Options(out);
  o.runs = 300;
  o.jobs = 2;
  o.make_target = Wrapped<CrashingTarget>;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GE(r->totals.crashes, 4u);
  // The cases it died on count as run; the replacements did the rest.
  EXPECT_EQ(r->totals.cases, 300u);
  EXPECT_GE(HitsOfKind(out, "crash"), 1);
}

// A worker that dies where a fresh process does not (the OOM killer, an
// operator, a crash that needs the process's history) files nothing: the
// campaign says so and goes on (issue 21).
TEST(Campaign, AWorkerDeathNoFreshProcessRepeatsIsNotFiled) {
  const std::string out = FreshDir("history-crash");
  CampaignOptions o = Options(out);
  o.runs = 300;
  o.jobs = 2;
  o.make_target = Wrapped<HistoryCrashingTarget>;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->totals.crashes, 0u);
  EXPECT_EQ(r->totals.cases, 300u);
  EXPECT_EQ(HitsOfKind(out, "crash"), 0);
}

TEST(Campaign, AHangingTargetIsATimeoutFinding) {
  const std::string out = FreshDir("hang");
  CampaignOptions o = Options(out);
  o.runs = 100;
  o.timeout_seconds = 0.5;
  o.make_target = Wrapped<HangingTarget>;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_GE(r->totals.timeouts, 1u);
  EXPECT_GE(HitsOfKind(out, "timeout"), 1);
}

TEST(Campaign, AStallThatPassesIsNoFinding) {
  const std::string out = FreshDir("stall");
  CampaignOptions o = Options(out);
  o.runs = 60;
  o.make_target = Wrapped<StalledOnceTarget>;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->totals.cases, 60u);
  EXPECT_EQ(r->totals.divergences, 0u);
  EXPECT_EQ(HitsOfKind(out, "timeout"), 0);
}

TEST(Campaign, ATimeoutThatRepeatsIsAFinding) {
  const std::string out = FreshDir("timeout-twice");
  CampaignOptions o = Options(out);
  o.runs = 60;
  o.make_target = Wrapped<TimesOutTwiceTarget>;
  absl::StatusOr<CampaignResult> r = RunCampaign(o, Log());
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->totals.divergences, 1u);
  EXPECT_EQ(HitsOfKind(out, "timeout"), 1);
}

}  // namespace
}  // namespace atomfuzz::fuzz
