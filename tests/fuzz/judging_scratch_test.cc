// Judging in a JudgingScratch, which keeps its buffers from case to case,
// gives every case the verdict Judge() gives it alone: over the corpus, run on
// the fast target plainly, with an injected bug, without a trace and with a
// tampered trace, judged in one order and then the reverse (so each case
// follows others of every size and shape).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "oracle/judge.h"
#include "tests/fuzz/corpus_files.h"
#include "tests/fuzz/fast_testing.h"

namespace atomfuzz::fuzz::testutil {
namespace {

std::string Describe(const absl::StatusOr<oracle::Verdict>& v) {
  if (!v.ok()) return std::string(v.status().ToString());
  std::string s = v->Summary();
  for (const oracle::Finding& f : v->findings) {
    s += "\nfinding " + std::string(oracle::FindingKindName(f.kind)) + "|" +
         f.where + "|" + f.why + "|" + std::to_string(f.instruction) + "|" +
         std::to_string(f.tgsm) + "|" + std::to_string(f.slot) + "|" +
         std::to_string(f.word);
  }
  for (const std::string& u : v->unknown) s += "\nunknown " + u;
  for (const std::string& n : v->notes) s += "\nnote " + n;
  return s;
}

TEST(JudgingScratch, SameVerdictsAsJudgeInAnyOrder) {
  struct Judged {
    isa::Case c;
    isa::Outcome o;
  };
  std::vector<Judged> runs;
  for (const std::string& file : CorpusCaseFiles()) {
    absl::StatusOr<isa::Case> c = LoadCorpusCase(file);
    if (!c.ok()) continue;
    runs.push_back({*c, RunOn(*c, "fast")});
    runs.push_back({*c, RunOn(*c, "fast", {.inject = "return-new"})});
    isa::Outcome notrace = runs.back().o;
    notrace.has_trace = false;
    notrace.trace.clear();
    runs.push_back({*c, notrace});
    isa::Outcome tampered = runs[runs.size() - 3].o;
    if (!tampered.trace.empty()) {
      // A return no order explains, an atomic dropped, one added twice.
      isa::AtomicEvent& first = tampered.trace.front();
      if (first.returned) first.returned = *first.returned + 1;
      tampered.trace.push_back(tampered.trace.back());
      tampered.trace.erase(tampered.trace.begin() + tampered.trace.size() / 2);
      runs.push_back({*c, tampered});
    }
  }
  ASSERT_GT(runs.size(), 100u);
  std::vector<std::string> alone;
  int divergences = 0;
  for (const Judged& r : runs) {
    alone.push_back(Describe(oracle::Judge(r.c, r.o)));
    divergences += alone.back().rfind("divergence", 0) == 0;
  }
  EXPECT_GT(divergences, 10);  // the comparison covers findings too
  oracle::JudgingScratch scratch;
  for (size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(Describe(oracle::Judge(runs[i].c, runs[i].o, {}, scratch)),
              alone[i])
        << i;
  }
  for (size_t i = runs.size(); i-- > 0;) {
    EXPECT_EQ(Describe(oracle::Judge(runs[i].c, runs[i].o, {}, scratch)),
              alone[i])
        << i;
  }
}

}  // namespace
}  // namespace atomfuzz::fuzz::testutil
