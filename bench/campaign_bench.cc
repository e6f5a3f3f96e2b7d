// The campaign's figures, each measured in this run on the same work:
//  1. throughput: cases/s of the fuzz loop on --target=fast (build, run,
//     judge, coverage, corpus; one core) beside the oracle alone on the same
//     cases: as `atomfuzz fuzz` runs it (30% of the cases mutants of the
//     corpus it grows), then on generated cases only;
//  2. hunt: for every injected bug of the fast target, a campaign from an
//     empty corpus; time and cases to the first divergence and the size of
//     the reduced reproducer. The goals of issue 5 are printed beside them.
// Usage: campaign_bench [--cases=N] [--limit=SECONDS] [--seed=S]
//                       [--only=throughput|INJECTION]
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "bench/cpu_seconds.h"
#include "fuzz/campaign/campaign_worker.h"
#include "fuzz/campaign/case_source.h"
#include "fuzz/generate/policy.h"
#include "fuzz/triage/finding_store.h"
#include "oracle/interpreter.h"
#include "targets/fast/injection.h"

namespace atomfuzz::fuzz {
namespace {

struct Args {
  uint64_t cases = 20000;
  double limit = 60;
  uint64_t seed = 1;
  std::string only;
};

CampaignSetup Setup(const std::string& inject, const std::string& out,
                    uint64_t seed, const char* policy = "default") {
  CampaignSetup s;
  s.options.target = "fast";
  if (!inject.empty())
    s.options.target_flags[targets::fast::kInjectFlag] = inject;
  s.options.out = out;
  s.corpus = CampaignCorpus(out + "/corpus");
  s.options.quiet = true;
  s.policy = *PolicyByName(policy);
  s.seed = seed;
  s.started = absl::Now();
  return s;
}

std::string TempDir(const std::string& name) {
  // TMPDIR, as std::filesystem reads it, else /tmp.
  const std::string dir =
      absl::StrCat(std::filesystem::temp_directory_path().string(),
                   "/atomfuzz-bench-", getpid(), "-", name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/corpus");
  return dir;
}

using bench::CpuSeconds;

// Each phase of the loop alone on the same cases, in microseconds per case:
// where the fuzz loop's time goes.
void PrintBreakdown(const CampaignSetup& setup,
                    const std::vector<isa::Case>& cases) {
  absl::StatusOr<std::unique_ptr<targets::Target>> target =
      MakeTarget(setup.Run());
  if (!target.ok()) return;
  std::vector<isa::Outcome> outcomes;
  outcomes.reserve(cases.size());
  const double t0 = CpuSeconds();
  for (const isa::Case& c : cases) {
    absl::StatusOr<isa::Outcome> o = (*target)->Run(c);
    outcomes.push_back(o.ok() ? *std::move(o) : isa::Outcome{});
  }
  const double t1 = CpuSeconds();
  oracle::JudgingScratch judging;  // as the workers judge
  for (size_t i = 0; i < cases.size(); ++i) {
    (void)oracle::Judge(cases[i], outcomes[i], setup.JudgeOptions(), judging);
  }
  const double t2 = CpuSeconds();
  CampaignCorpus corpus(setup.options.out + "/corpus");
  corpus.Reload();
  for (uint64_t i = 0; i < cases.size(); ++i) {
    CaseOrigin origin;
    (void)NextCase(setup.seed, i, setup.options.mutate_per_mille, corpus,
                   setup.policy, origin);
  }
  const double t3 = CpuSeconds();
  const double n = static_cast<double>(cases.size());
  auto us = [n](double seconds) { return seconds * 1e6 / n; };
  std::printf("  per case: build %.1f us, target %.1f us, judge %.1f us\n",
              us(t3 - t2), us(t1 - t0), us(t2 - t1));
}

// The cases the loop ran, rebuilt from the seed, each index and its parent
// in the corpus the loop grew.
std::vector<isa::Case> SameCases(const CampaignSetup& setup,
                                 const std::string& corpus_dir,
                                 const std::vector<std::string>& parents) {
  CampaignCorpus corpus(corpus_dir);
  corpus.Reload();
  std::vector<isa::Case> cases;
  cases.reserve(parents.size());
  for (uint64_t i = 0; i < parents.size(); ++i) {
    const isa::Case* parent =
        parents[i].empty() ? nullptr : corpus.Find(parents[i]);
    CaseOrigin origin;
    cases.push_back(BuildCase(setup.seed, i, parent, setup.policy, origin));
  }
  return cases;
}

// One throughput figure: the loop on `a.cases` cases with `mutate_per_mille`
// of them mutants of the corpus it grows, beside the oracle alone.
void Throughput(const Args& a, uint32_t mutate_per_mille, const char* what) {
  const std::string out = TempDir("throughput");
  CampaignSetup setup = Setup("", out, a.seed);
  setup.options.mutate_per_mille = mutate_per_mille;
  auto shared_owner = std::make_unique<SharedState>();  // about 1 MiB
  SharedState& shared = *shared_owner;
  WorkerCounters counters;
  WorkerPlan plan;
  plan.quota = a.cases;
  std::vector<std::string> parents;
  parents.reserve(a.cases);
  plan.parents = &parents;
  const double t0 = CpuSeconds();
  if (absl::Status s = RunWorker(setup, plan, counters, shared); !s.ok()) {
    std::printf("throughput: %s\n", s.ToString().c_str());
    return;
  }
  const double fuzz_s = CpuSeconds() - t0;
  const std::vector<isa::Case> cases =
      SameCases(setup, out + "/corpus", parents);
  const double t1 = CpuSeconds();
  // With the judge's budget: an endless mutant stops where the loop stops it.
  for (const isa::Case& c : cases)
    (void)oracle::Interpret(c, setup.JudgeOptions().interpret);
  const double oracle_s = CpuSeconds() - t1;
  const double fuzz_rate = a.cases / fuzz_s, oracle_rate = a.cases / oracle_s;
  const auto mutants =
      std::count_if(parents.begin(), parents.end(),
                    [](const std::string& p) { return !p.empty(); });
  std::printf("%s: %llu cases, %lld of them mutants (policy default):\n", what,
              static_cast<unsigned long long>(a.cases),
              static_cast<long long>(mutants));
  std::printf(
      "  fuzz loop --target=fast (generate, run, judge): %9.0f cases/s (goal "
      ">= 20000)\n",
      fuzz_rate);
  std::printf(
      "  oracle alone (interpret the same cases):       %9.0f cases/s\n",
      oracle_rate);
  std::printf("  ratio fuzz loop / oracle alone:                 %9.2f\n",
              fuzz_rate / oracle_rate);
  PrintBreakdown(setup, cases);
  std::printf("  divergences %llu, unknown %llu (%.3f%%), corpus %llu\n\n",
              static_cast<unsigned long long>(counters.divergences.load()),
              static_cast<unsigned long long>(counters.unknown.load()),
              100.0 * counters.unknown.load() / a.cases,
              static_cast<unsigned long long>(shared.corpus_kept.load()));
  std::filesystem::remove_all(out);
}

void Throughput(const Args& a) {
  std::printf("throughput per CPU second on one core:\n");
  Throughput(a, CampaignOptions{}.mutate_per_mille, "as atomfuzz fuzz runs it");
  Throughput(a, 0, "generated cases only");
}

struct HuntRow {
  std::string name;
  bool found = false;
  double seconds = 0;
  uint64_t cases = 0;
  CaseSize reduced;
};

// A pixel-stage bug is hunted with the pixel policy, as its campaign would.
HuntRow Hunt(const targets::fast::InjectionInfo& info, const Args& a) {
  const std::string inject(info.name);
  const std::string out = TempDir(inject);
  CampaignSetup setup =
      Setup(inject, out, a.seed, info.pixel ? "pixel" : "default");
  auto shared_owner = std::make_unique<SharedState>();  // about 1 MiB
  SharedState& shared = *shared_owner;
  WorkerCounters counters;
  WorkerPlan plan;
  plan.deadline = absl::Now() + absl::Seconds(a.limit);
  HuntRow row;
  row.name = inject;
  const absl::Time t0 = absl::Now();
  std::atomic<bool> done{false};
  std::thread worker([&] {
    (void)RunWorker(setup, plan, counters, shared);
    done.store(true);
  });
  while (!done.load()) {
    if (!row.found && counters.divergences.load() > 0) {
      row.found = true;
      row.seconds = absl::ToDoubleSeconds(absl::Now() - t0);
      row.cases = counters.cases.load();
      shared.stop.store(1);  // the worker reduces this finding, then stops
    }
    usleep(200);
  }
  worker.join();
  if (absl::StatusOr<FindingStore> store = FindingStore::Open(out);
      store.ok()) {
    if (auto buckets = store->ReadAll(); buckets.ok() && !buckets->empty()) {
      row.reduced = buckets->front().reduced_size;
    }
  }
  std::filesystem::remove_all(out);
  return row;
}

void HuntAll(const Args& a) {
  std::printf(
      "hunt: each injected bug from an empty corpus (pixel-stage bugs with "
      "the pixel policy), one core, seed %llu, "
      "limit %.0f s\n",
      static_cast<unsigned long long>(a.seed), a.limit);
  std::printf("%-26s %10s %9s %14s %9s\n", "bug", "seconds", "cases",
              "instructions", "threads");
  std::vector<HuntRow> rows;
  for (const auto& info : targets::fast::AllInjections()) {
    if (!a.only.empty() && info.name != a.only) continue;
    HuntRow r = Hunt(info, a);
    if (r.found) {
      std::printf("%-26s %10.3f %9llu %14lld %9lld\n", r.name.c_str(),
                  r.seconds, static_cast<unsigned long long>(r.cases),
                  static_cast<long long>(r.reduced.instructions),
                  static_cast<long long>(r.reduced.threads));
    } else {
      std::printf("%-26s %10s\n", r.name.c_str(), "NOT FOUND");
    }
    std::fflush(stdout);
    rows.push_back(r);
  }
  std::vector<double> seconds;
  std::vector<int64_t> sizes;
  int found = 0;
  for (const HuntRow& r : rows) {
    if (!r.found) continue;
    ++found;
    seconds.push_back(r.seconds);
    sizes.push_back(r.reduced.instructions);
  }
  std::sort(seconds.begin(), seconds.end());
  std::sort(sizes.begin(), sizes.end());
  auto median = [](const auto& v) {
    return v.empty() ? 0.0 : (v[(v.size() - 1) / 2] + v[v.size() / 2]) / 2.0;
  };
  std::printf(
      "found %d of %zu; time to first divergence: median %.3f s (goal <= 5), "
      "max %.3f s (goal <= 60); reduced instructions: median %.1f (goal <= "
      "8)\n",
      found, rows.size(), median(seconds),
      seconds.empty() ? 0.0 : seconds.back(), median(sizes));
}

bool ParseArgs(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (absl::ConsumePrefix(&arg, "--cases=")) {
      if (!absl::SimpleAtoi(arg, &a.cases) || a.cases == 0) return false;
    } else if (absl::ConsumePrefix(&arg, "--limit=")) {
      if (!absl::SimpleAtod(arg, &a.limit)) return false;
    } else if (absl::ConsumePrefix(&arg, "--seed=")) {
      if (!absl::SimpleAtoi(arg, &a.seed)) return false;
    } else if (absl::ConsumePrefix(&arg, "--only=")) {
      a.only = std::string(arg);
      bool known = a.only == "throughput";
      for (const auto& info : targets::fast::AllInjections())
        known |= info.name == a.only;
      if (!known) {
        std::fprintf(stderr,
                     "campaign_bench: --only: expected throughput or an "
                     "injected bug's name, found '%s'\n",
                     a.only.c_str());
        return false;
      }
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace
}  // namespace atomfuzz::fuzz

int main(int argc, char** argv) {
  atomfuzz::fuzz::Args a;
  if (!atomfuzz::fuzz::ParseArgs(argc, argv, a)) {
    std::fprintf(stderr,
                 "usage: campaign_bench [--cases=N] [--limit=SECONDS] "
                 "[--seed=S] [--only=NAME]\n");
    return 2;
  }
  if (a.only.empty() || a.only == "throughput") atomfuzz::fuzz::Throughput(a);
  if (a.only != "throughput") atomfuzz::fuzz::HuntAll(a);
  return 0;
}
