// The fuzz loop's three phases apart, on the same cases (generated, or with
// --corpus partly mutants, as a campaign builds them), and the
// verdicts themselves for comparing two builds: a speed-up of the generator,
// a target or the judge must leave every line of --dump as it was.
// Usage: judge_bench [--cases=N] [--seed=S] [--reps=R] [--inject=NAME|oracle]
//                    [--notrace] [--dump] [--print-cases]
//                    [--corpus=DIR [--mutate=PER_MILLE]]
//   --inject=oracle  the oracle as the target, under random schedules
//   --notrace        judge without the target's trace (returns unobserved)
//   --dump           one line per case (verdict), then its findings (F),
//                    unknowns (U) and notes (N), on stdout
//   --print-cases    only build the cases and print them (isa::PrintCase) on
//                    stdout: shows that a faster generator or mutator still
//                    builds every case as before
//   --corpus=DIR     mutate the cases of DIR (a campaign's corpus), as a
//                    campaign does for --mutate per mille of its cases
//                    (default 300, the campaign's)
//   --exchanges      instead of the campaign's cases, words with hundreds of
//                    imm_atomic_exch whose values repeat (64-256 threads,
//                    1-4 each, 2-4 values, one or two groups): the search's
//                    hardest common shape; prints the unknown rate

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "bench/cpu_seconds.h"
#include "fuzz/campaign/campaign_worker.h"
#include "fuzz/campaign/case_source.h"
#include "fuzz/generate/policy.h"
#include "isa/case_file.h"
#include "isa/prng.h"
#include "oracle/judge.h"

namespace atomfuzz::fuzz {
namespace {

struct Args {
  uint64_t cases = 20000;
  uint64_t seed = 1;
  int reps = 1;
  std::string inject;
  bool notrace = false;
  bool dump = false;
  bool print_cases = false;
  bool exchanges = false;
  std::string corpus = "/nonexistent";
  uint32_t mutate = 300;
};

using bench::CpuSeconds;

void Dump(size_t i, const absl::StatusOr<oracle::Verdict>& v) {
  if (!v.ok()) {
    std::printf("%zu error %s\n", i, v.status().ToString().c_str());
    return;
  }
  std::printf("%zu %s\n", i, v->Summary().c_str());
  for (const oracle::Finding& f : v->findings) {
    std::printf("  F %s|%s|%s|%d|%d|%d|%lld\n",
                std::string(oracle::FindingKindName(f.kind)).c_str(),
                f.where.c_str(), f.why.c_str(), f.instruction, f.tgsm ? 1 : 0,
                f.slot, static_cast<long long>(f.word));
  }
  for (const std::string& u : v->unknown) std::printf("  U %s\n", u.c_str());
  for (const std::string& n : v->notes) std::printf("  N %s\n", n.c_str());
}

// Case `i` of --exchanges: every thread exchanges one word of u0 `per`
// times, with a value of its own from a few that repeat (2 or 4), and
// stores what it got back (so the returns are also checked through memory).
isa::Case ExchangeCase(uint64_t seed, uint64_t i) {
  isa::Prng prng(seed * 0x9E3779B97F4A7C15ull + i);
  const uint64_t groups = 1 + prng.Below(2);
  const uint64_t threads = uint64_t{64}
                           << prng.Below(2);  // 64 or 128 per group
  const uint64_t per = 1 + prng.Below(4);
  const uint64_t mask = prng.Chance(1, 2) ? 1 : 3;
  std::string body;
  for (uint64_t k = 0; k < per; ++k) {
    absl::StrAppend(&body, "iadd r0.y, vThreadIDInGroupFlattened.x, l(", k,
                    ")\n", "and r0.y, r0.y, l(", mask, ")\n",
                    "imm_atomic_exch r1.", std::string(1, "xyzw"[k]),
                    ", u0, l(0), r0.y\n");
  }
  const std::string text = absl::StrCat(
      "[dispatch]\ngroups ", groups, ", 1, 1\n",
      "[uav u0]\nkind raw\nwords 1\n", "[uav u1]\nkind raw\nwords ",
      groups * threads * 4, "\n",
      "[shader]\ncs_5_0\ndcl_uav_raw u0\ndcl_uav_raw u1\n",
      "dcl_input vThreadID.x\ndcl_input vThreadIDInGroupFlattened\n",
      "dcl_temps 2\ndcl_thread_group ", threads, ", 1, 1\n", body,
      "ishl r0.z, vThreadID.x, l(4)\nstore_raw u1.xyzw, r0.z, r1.xyzw\nret\n");
  absl::StatusOr<isa::Case> c = isa::ParseCase(text, "exchanges.case");
  if (!c.ok()) {
    std::fprintf(stderr, "judge_bench: %s\n", c.status().ToString().c_str());
    std::abort();
  }
  return *std::move(c);
}

int Main(const Args& a) {
  CampaignSetup setup;
  setup.options.target = a.inject == "oracle" ? "oracle" : "fast";
  if (a.inject != "oracle" && !a.inject.empty())
    setup.options.target_flags[targets::fast::kInjectFlag] = a.inject;
  setup.policy = *PolicyByName("default");
  setup.seed = a.seed;
  absl::StatusOr<std::unique_ptr<targets::Target>> target =
      MakeTarget(setup.Run());
  if (!target.ok()) {
    std::fprintf(stderr, "judge_bench: %s\n",
                 target.status().ToString().c_str());
    return 2;
  }
  CampaignCorpus corpus(a.corpus);
  corpus.Reload();
  std::vector<isa::Case> cases;
  std::vector<isa::Outcome> outcomes;
  cases.reserve(a.cases);
  outcomes.reserve(a.cases);
  const double t0 = CpuSeconds();
  for (uint64_t i = 0; i < a.cases; ++i) {
    CaseOrigin origin;
    cases.push_back(a.exchanges ? ExchangeCase(a.seed, i)
                                : NextCase(a.seed, i, a.mutate, corpus,
                                           setup.policy, origin));
  }
  const double t1 = CpuSeconds();
  if (a.print_cases) {
    for (const isa::Case& c : cases)
      std::fputs(isa::PrintCase(c).c_str(), stdout);
    return 0;
  }
  for (const isa::Case& c : cases) {
    absl::StatusOr<isa::Outcome> o = (*target)->Run(c);
    outcomes.push_back(o.ok() ? *std::move(o) : isa::Outcome{});
  }
  const double t2 = CpuSeconds();
  if (a.notrace) {
    for (isa::Outcome& o : outcomes) {
      o.has_trace = false;
      o.trace.clear();
    }
  }
  const oracle::JudgeOptions options = setup.JudgeOptions();
  uint64_t divergences = 0, unknown = 0;
  oracle::JudgingScratch scratch;  // as a campaign worker: one for the run
  const double t3 = CpuSeconds();
  for (int r = 0; r < a.reps; ++r) {
    for (size_t i = 0; i < cases.size(); ++i) {
      absl::StatusOr<oracle::Verdict> v =
          oracle::Judge(cases[i], outcomes[i], options, scratch);
      if (r > 0) continue;
      if (a.dump) Dump(i, v);
      if (!v.ok()) continue;
      divergences += v->kind == oracle::Verdict::Kind::kDivergence;
      unknown += v->kind == oracle::Verdict::Kind::kUnknown;
    }
  }
  const double t4 = CpuSeconds();
  const double n = static_cast<double>(a.cases);
  std::fprintf(stderr,
               "per case: generate %.2f us, target %.2f us, judge %.2f us; "
               "divergences %llu, unknown %llu\n",
               (t1 - t0) * 1e6 / n, (t2 - t1) * 1e6 / n,
               (t4 - t3) * 1e6 / n / a.reps,
               static_cast<unsigned long long>(divergences),
               static_cast<unsigned long long>(unknown));
  if (a.exchanges) {
    std::fprintf(stderr, "exchange words: unknown rate %.2f%% (%llu of %llu)\n",
                 100.0 * static_cast<double>(unknown) / n,
                 static_cast<unsigned long long>(unknown),
                 static_cast<unsigned long long>(a.cases));
  }
  return 0;
}

bool ParseArgs(int argc, char** argv, Args& a) {
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i];
    if (absl::ConsumePrefix(&arg, "--cases=")) {
      if (!absl::SimpleAtoi(arg, &a.cases) || a.cases == 0) return false;
    } else if (absl::ConsumePrefix(&arg, "--seed=")) {
      if (!absl::SimpleAtoi(arg, &a.seed)) return false;
    } else if (absl::ConsumePrefix(&arg, "--reps=")) {
      if (!absl::SimpleAtoi(arg, &a.reps) || a.reps < 1) return false;
    } else if (absl::ConsumePrefix(&arg, "--inject=")) {
      a.inject = std::string(arg);
    } else if (absl::ConsumePrefix(&arg, "--corpus=")) {
      a.corpus = std::string(arg);
    } else if (absl::ConsumePrefix(&arg, "--mutate=")) {
      if (!absl::SimpleAtoi(arg, &a.mutate) || a.mutate > 1000) return false;
    } else if (arg == "--notrace") {
      a.notrace = true;
    } else if (arg == "--dump") {
      a.dump = true;
    } else if (arg == "--exchanges") {
      a.exchanges = true;
    } else if (arg == "--print-cases") {
      a.print_cases = true;
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
                 "usage: judge_bench [--cases=N] [--seed=S] [--reps=R] "
                 "[--inject=NAME|oracle] [--notrace] [--dump] [--print-cases] "
                 "[--corpus=DIR [--mutate=PER_MILLE]] [--exchanges]\n");
    return 2;
  }
  return atomfuzz::fuzz::Main(a);
}
