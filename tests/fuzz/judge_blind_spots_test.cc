// The judge's blind spots of issue 17, each shown with a faulty executor:
// the fast target with an injected bug, or its outcome without a trace and
// with the wrong value an executor without atomicity would leave. Each
// outcome is a divergence; the same run without the fault is allowed.
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"
#include "fuzz/campaign/campaign_corpus.h"
#include "fuzz/campaign/case_source.h"
#include "fuzz/generate/policy.h"
#include "fuzz/runner.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "oracle/judge.h"
#include "tests/fuzz/corpus_files.h"
#include "tests/fuzz/fast_testing.h"

namespace atomfuzz::fuzz {
namespace {

using testutil::Fast;
using testutil::LoadCorpusCase;
using testutil::RunFast;

oracle::Verdict JudgeOf(const isa::Case& c, const isa::Outcome& o) {
  absl::StatusOr<oracle::Verdict> v = oracle::Judge(c, o);
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : oracle::Verdict{};
}

// The verdict on `good` with u<uav's slot>'s `word` changed to `value`, as
// an executor that left that value there would report it.
oracle::Verdict JudgeChanged(const isa::Case& c, const isa::Outcome& good,
                             uint32_t word, uint32_t value, size_t uav = 0) {
  isa::Outcome o = good;
  o.uavs[uav].words[word] = value;
  return JudgeOf(c, o);
}

// That verdict is a wrong-memory divergence.
void ExpectWrongMemory(const isa::Case& c, const isa::Outcome& good,
                       uint32_t word, uint32_t value) {
  SCOPED_TRACE(testing::Message() << "u0[" << word << "] = " << value);
  const oracle::Verdict v = JudgeChanged(c, good, word, value);
  ASSERT_EQ(v.kind, oracle::Verdict::Kind::kDivergence)
      << v.Summary() << "; notes: " << absl::StrJoin(v.notes, " | ");
  EXPECT_EQ(v.findings.front().kind, oracle::FindingKind::kWrongMemory);
}

isa::Case Load(const std::string& relative) {
  absl::StatusOr<isa::Case> c = LoadCorpusCase(relative);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : isa::Case{};
}

// The fast target's outcome of `c` as an executor that sees only final
// memory reports it: no trace.
isa::Outcome FastWithoutTrace(const isa::Case& c) {
  isa::Outcome o = testutil::RunOn(c, "fast");
  o.has_trace = false;
  o.trace.clear();
  return o;
}

// Point 1: the atomic's wrong return (1, not 0) makes its own thread store
// out of a one-element g1, poisoning all TGSM. Poison excuses only what
// comes after it: the return is still judged.
TEST(BlindSpots, WrongReturnIsNotExcusedByThePoisonItCauses) {
  const isa::Case c =
      Load("corpus/regress/judge-wrong-return-before-own-poison.case");
  const isa::Outcome bad = RunFast(c, Fast{.inject = "return-new"});
  const oracle::Verdict v = JudgeOf(c, bad);
  ASSERT_EQ(v.kind, oracle::Verdict::Kind::kDivergence) << v.Summary();
  EXPECT_EQ(v.findings.front().kind, oracle::FindingKind::kWrongReturn);
  EXPECT_EQ(v.findings.front().where.rfind("g0[0]", 0), 0u)
      << v.findings.front().where;
  EXPECT_EQ(JudgeOf(c, RunFast(c)).kind, oracle::Verdict::Kind::kAllowed);
}

// The same return with a two-element g1 (nothing poisoned) was always a
// divergence: the poison must change nothing about it.
TEST(BlindSpots, WrongReturnIsADivergenceWithOrWithoutPoison) {
  isa::Case c =
      Load("corpus/regress/judge-wrong-return-before-own-poison.case");
  bool grown = false;
  for (isa::Instruction& inst : c.shader.instructions) {
    if (inst.op != isa::Op::kDclTgsmStructured || inst.operands[0].index != 1)
      continue;
    inst.operands[2].index = 2;  // dcl_tgsm_structured g1, 4, 2
    grown = true;
  }
  ASSERT_TRUE(grown);
  const oracle::Verdict v =
      JudgeOf(c, RunFast(c, Fast{.inject = "return-new"}));
  EXPECT_EQ(v.kind, oracle::Verdict::Kind::kDivergence) << v.Summary();
}

// Point 2: without a trace, a counter's final value is still the start
// plus the allocs, whatever else happened to the UAV (here: poisoned).
TEST(BlindSpots, CounterIsJudgedWithoutATraceAndAfterPoison) {
  const isa::Case c = Load("corpus/regress/judge-counter-after-poison.case");
  isa::Outcome o = FastWithoutTrace(c);
  EXPECT_EQ(JudgeOf(c, o).kind, oracle::Verdict::Kind::kAllowed);
  ASSERT_EQ(o.uavs.size(), 1u);
  ASSERT_TRUE(o.uavs[0].counter.has_value());
  *o.uavs[0].counter -= 1;  // one lost increment
  const oracle::Verdict v = JudgeOf(c, o);
  ASSERT_EQ(v.kind, oracle::Verdict::Kind::kDivergence) << v.Summary();
  EXPECT_EQ(v.findings.front().kind, oracle::FindingKind::kWrongCounter);
}

// The same for the corpus' own counter cases, without a trace.
TEST(BlindSpots, CorpusCountersAreJudgedWithoutATrace) {
  for (const char* file : {"corpus/seed/counter-alloc-uav-structured.case",
                           "corpus/spec/e35-glc-same-atomics.case"}) {
    SCOPED_TRACE(file);
    const isa::Case c = Load(file);
    isa::Outcome o = FastWithoutTrace(c);
    EXPECT_EQ(JudgeOf(c, o).kind, oracle::Verdict::Kind::kAllowed);
    for (isa::UavState& u : o.uavs) {
      if (u.counter) *u.counter += 1;
    }
    const oracle::Verdict v = JudgeOf(c, o);
    ASSERT_EQ(v.kind, oracle::Verdict::Kind::kDivergence) << v.Summary();
    EXPECT_EQ(v.findings.front().kind, oracle::FindingKind::kWrongCounter);
  }
}

// Point 3: a consume's verdict names the value it returned (the counter
// after its decrement), not the one the counter held.
TEST(BlindSpots, ConsumeVerdictNamesTheValueItReturned) {
  const isa::Case c =
      Load("corpus/regress/consume-verdict-names-its-return.case");
  const oracle::Verdict v =
      JudgeOf(c, RunFast(c, Fast{.inject = "consume-pre-decrement"}));
  ASSERT_EQ(v.kind, oracle::Verdict::Kind::kDivergence) << v.Summary();
  // Thread 0 ran first and returned 2 (the counter before its decrement).
  EXPECT_NE(v.Summary().find(
                "returned 0x00000002 (imm_atomic_consume returns the counter "
                "after its decrement, so the counter held 0x00000003)"),
            std::string::npos)
      << v.Summary();
}

// Point 4: racing plain stores leave one of their values. An executor that
// leaves any other value there (here: the fast target's word, changed
// afterwards, as a store torn or lost would) is a divergence.
TEST(BlindSpots, RacingStoresLeaveOneOfTheirValues) {
  const isa::Case c = Load("corpus/regress/racing-stores-leave-one-value.case");
  const isa::Outcome good = testutil::RunOn(c, "fast");
  EXPECT_EQ(JudgeOf(c, good).kind, oracle::Verdict::Kind::kAllowed);
  struct Change {
    uint32_t word, value;
    bool allowed;
  };
  for (const Change& change :
       {Change{0, 6, false}, Change{1, 2, false}, Change{1, 1, true},
        Change{1, 0, true}, Change{2, 7, false}, Change{2, 3, true},
        Change{4, 0, false}}) {
    SCOPED_TRACE(testing::Message()
                 << "u0[" << change.word << "] = " << change.value);
    const oracle::Verdict v = JudgeChanged(c, good, change.word, change.value);
    EXPECT_EQ(v.kind, change.allowed ? oracle::Verdict::Kind::kAllowed
                                     : oracle::Verdict::Kind::kDivergence)
        << v.Summary();
  }
}

// Point 6: a barrier that does not wait lets half the group read a stale
// count and store it into the shared word; the word is definite now, so
// the stale value is a divergence.
TEST(BlindSpots, BarrierBugIsNotHiddenByRacingStores) {
  const isa::Case c = Load("corpus/regress/barrier-hides-no-stale-count.case");
  EXPECT_EQ(JudgeOf(c, RunFast(c)).kind, oracle::Verdict::Kind::kAllowed);
  const oracle::Verdict v =
      JudgeOf(c, RunFast(c, Fast{.inject = "sync-no-wait"}));
  ASSERT_EQ(v.kind, oracle::Verdict::Kind::kDivergence) << v.Summary();
  EXPECT_EQ(v.findings.front().kind, oracle::FindingKind::kWrongMemory);
  EXPECT_EQ(v.findings.front().where, "u0[1]");
}

// Point 5: a read racing with atomics sees a value of the word's order.
// After its own umax a thread reads at least its operand, so every flag is
// set; a target whose read returns a stale word (a flag 0) diverges, as
// does a value thread 0 read that the word never holds.
TEST(BlindSpots, ReadRacingWithAtomicsSeesTheWordsOrder) {
  const isa::Case c = Load("corpus/regress/read-back-after-own-umax.case");
  const isa::Outcome good = testutil::RunOn(c, "fast");
  EXPECT_EQ(JudgeOf(c, good).kind, oracle::Verdict::Kind::kAllowed);
  ExpectWrongMemory(c, good, 7, 0);
  ExpectWrongMemory(c, good, 65, 64);
}

// E-28b: a read racing with one exch or one iadd sees the word before or
// after it: exactly those two values.
TEST(BlindSpots, ReadRacingWithOneAtomicSeesBeforeOrAfter) {
  const isa::Case c = Load("corpus/spec/e28b-plain-read-order-dependent.case");
  const isa::Outcome good = testutil::RunOn(c, "fast");
  ASSERT_EQ(JudgeOf(c, good).kind, oracle::Verdict::Kind::kAllowed);
  const isa::UavState* u1 = good.FindUav(1);
  ASSERT_NE(u1, nullptr);
  const size_t slot = static_cast<size_t>(u1 - good.uavs.data());
  for (const auto& [word, value, allowed] :
       {std::tuple<uint32_t, uint32_t, bool>{0, 0, true},
        {0, 7, true},
        {0, 5, false},
        {1, 3, true},
        {1, 8, true},
        {1, 5, false}}) {
    SCOPED_TRACE(testing::Message() << "u1[" << word << "] = " << value);
    EXPECT_EQ(JudgeChanged(c, good, word, value, slot).kind,
              allowed ? oracle::Verdict::Kind::kAllowed
                      : oracle::Verdict::Kind::kDivergence);
  }
}

// E-27's u# half: a plain store racing with atomics on a UAV is atomic with
// respect to them (spec 2.1), so it has a place in the word's one order and
// the final word must fit it. The judge once gave up on such words.
TEST(BlindSpots, AStoreRacingWithAtomicsOnAUavHasAPlaceInTheOrder) {
  const isa::Case c = Load("corpus/spec/e27b-uav-store-vs-atomic.case");
  const isa::Outcome good = RunFast(c);
  ASSERT_EQ(JudgeOf(c, good).kind, oracle::Verdict::Kind::kAllowed);
  // The fast target ran the store first: the adds returned 5, 6 and 7, so
  // the word ends at 8, and 9 (an add counted twice) or 103 (the store
  // lost) fit no order.
  for (uint32_t wrong : {9u, 103u, 5u}) {
    SCOPED_TRACE(testing::Message() << "u0[0] = " << wrong);
    const oracle::Verdict v = JudgeChanged(c, good, 0, wrong);
    ASSERT_EQ(v.kind, oracle::Verdict::Kind::kDivergence) << v.Summary();
    EXPECT_EQ(v.findings.front().where.rfind("u0[0]", 0), 0u) << v.Summary();
  }
}

// Point 2 without a trace, through memory: an alloc's return is one of the
// counter's values, so each thread's record lands in one of the structs it
// may have been given. A record outside them (struct 19: an alloc off by
// one) or a value no thread stores is a divergence even without a trace;
// which thread got which struct is AnIndexHandedOutTwice's.
TEST(BlindSpots, AllocIndicesWithoutATraceAreJudgedThroughMemory) {
  const isa::Case c = Load("corpus/seed/counter-alloc-uav-structured.case");
  isa::Outcome good = FastWithoutTrace(c);
  ASSERT_EQ(JudgeOf(c, good).kind, oracle::Verdict::Kind::kAllowed);
  // Structs are 2 words (id, 0xa0000000 + id); 3..18 are handed out.
  ExpectWrongMemory(c, good, 38, 5);
  ExpectWrongMemory(c, good, 39, 0xa0000005);
  ExpectWrongMemory(c, good, 6, 0x12345678);
  ExpectWrongMemory(c, good, 4, 7);
}

// Point 2's "each index exactly once" without a trace: the 16 allocs hand
// out each of structs 3..18 once, so final memory is one assignment of the
// threads' records to those structs. A record twice (and one lost), or a
// struct left as it was, passes word by word; only the assignment catches
// it. Any permutation of the records is allowed.
TEST(BlindSpots, AnIndexHandedOutTwiceWithoutATraceIsADivergence) {
  const isa::Case c = Load("corpus/seed/counter-alloc-uav-structured.case");
  isa::Outcome good = FastWithoutTrace(c);
  ASSERT_EQ(JudgeOf(c, good).kind, oracle::Verdict::Kind::kAllowed);
  auto with = [&](uint32_t s, uint32_t id, uint32_t tag) {
    isa::Outcome o = good;
    o.uavs[0].words[2 * s] = id;
    o.uavs[0].words[2 * s + 1] = tag;
    return o;
  };
  std::vector<uint32_t>& words = good.uavs[0].words;
  // Structs 3 and 4 swapped: another thread got each.
  isa::Outcome swapped = with(3, words[8], words[9]);
  swapped.uavs[0].words[8] = words[6];
  swapped.uavs[0].words[9] = words[7];
  EXPECT_EQ(JudgeOf(c, swapped).kind, oracle::Verdict::Kind::kAllowed);
  // Struct 6 holds struct 5's record: two threads were given 5 or 6.
  const oracle::Verdict twice = JudgeOf(c, with(6, words[10], words[11]));
  ASSERT_EQ(twice.kind, oracle::Verdict::Kind::kDivergence) << twice.Summary();
  EXPECT_EQ(twice.findings.front().kind, oracle::FindingKind::kWrongMemory);
  // Struct 7 untouched (its initial words, each allowed alone).
  const oracle::Verdict untouched = JudgeOf(c, with(7, 0xdddddddd, 0xdddddddd));
  ASSERT_EQ(untouched.kind, oracle::Verdict::Kind::kDivergence)
      << untouched.Summary();
  EXPECT_EQ(untouched.findings.front().where, "u0[14]");
}

// Judging without a trace must stay free of false alarms as the judge
// learns more (racing stores, reads, stores among atomics, counters): the
// fast target's and the oracle's own outcomes (random schedules) of
// generated cases, their traces dropped, are never divergences.
TEST(BlindSpots, WithoutATraceNoLegalOutcomeIsADivergence) {
  const absl::StatusOr<Policy> policy = PolicyByName("default");
  ASSERT_TRUE(policy.ok());
  CampaignCorpus corpus("/nonexistent");
  int judged = 0;
  for (uint64_t i = 0; i < 20000; ++i) {
    CaseOrigin origin;
    const isa::Case c = NextCase(20261126, i, 0, corpus, *policy, origin);
    for (const std::string target : {"fast", "oracle"}) {
      RunOptions run;
      run.target = target;
      run.schedule = oracle::Schedule::Random(i);  // the oracle's
      absl::StatusOr<isa::Outcome> ran = RunCase(c, run);
      ASSERT_TRUE(ran.ok()) << ran.status();
      isa::Outcome o = *std::move(ran);
      if (o.status != isa::RunStatus::kOk) continue;
      o.has_trace = false;
      o.trace.clear();
      const oracle::Verdict v = JudgeOf(c, o);
      ASSERT_NE(v.kind, oracle::Verdict::Kind::kDivergence)
          << target << " case " << i << ": " << v.Summary() << "\n"
          << isa::PrintCase(c);
      ++judged;
    }
  }
  EXPECT_GT(judged, 35000);
}

}  // namespace
}  // namespace atomfuzz::fuzz
