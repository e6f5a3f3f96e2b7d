// The expectations a saved case gets (what the judge allows of a target it
// cannot trace) are met by every correct run, and name the values exactly.
#include "fuzz/allowed_expectations.h"

#include <string>

#include "gtest/gtest.h"
#include "isa/expectation_check.h"
#include "oracle/interpreter.h"
#include "tests/fuzz/corpus_files.h"
#include "tests/fuzz/fast_testing.h"

namespace atomfuzz::fuzz {
namespace {

// Every corpus case, with the spec's expectations, meets them on the
// oracle under three schedules and on the fast target in both modes.
TEST(AllowedExpectations, EveryCorrectRunOfTheCorpusMeetsThem) {
  const auto files = testutil::CorpusCaseFiles();
  ASSERT_GT(files.size(), 100u);
  size_t checked_words = 0;
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    absl::StatusOr<isa::Case> c = testutil::LoadCorpusCase(file);
    ASSERT_TRUE(c.ok()) << c.status();
    ASSERT_TRUE(ExpectWhatTheSpecAllows(*c).ok());
    for (const auto& w : c->expect_words) checked_words += w.last - w.first + 1;
    for (const oracle::Schedule& schedule :
         {oracle::Schedule::Canonical(), oracle::Schedule::Random(1),
          oracle::Schedule::Random(2)}) {
      oracle::InterpretOptions o;
      o.schedule = schedule;
      absl::StatusOr<isa::Outcome> run = oracle::Interpret(*c, o);
      ASSERT_TRUE(run.ok());
      if (run->status != isa::RunStatus::kOk) continue;
      for (const isa::Mismatch& m : isa::CheckExpectations(*c, *run))
        ADD_FAILURE() << schedule.ToString() << ": " << m.Render();
    }
    for (const testutil::Fast& mode : testutil::kModes) {
      const isa::Outcome fast = testutil::RunOn(*c, "fast", mode);
      if (fast.status != isa::RunStatus::kOk) continue;
      for (const isa::Mismatch& m : isa::CheckExpectations(*c, fast))
        ADD_FAILURE() << "fast: " << m.Render();
    }
  }
  EXPECT_GT(checked_words, 1000u);  // not met by checking nothing
}

// Racing exchanges leave one of the values stored; their sum is exact.
TEST(AllowedExpectations, ASetWhereTheOrderDecidesAValueWhereItDoesNot) {
  isa::Case c = testutil::Parse(testutil::CaseText(
      1, 4, testutil::RawUav(0, 2, "0, 0"),
      "dcl_uav_raw u0\ndcl_input vThreadIDInGroup.x\ndcl_temps 1\n",
      "imm_atomic_exch r0.x, u0, l(0), vThreadIDInGroup.x\n"
      "atomic_iadd u0, l(4), l(1)\n"));
  ASSERT_TRUE(ExpectWhatTheSpecAllows(c).ok());
  ASSERT_EQ(c.expect_words.size(), 2u);
  EXPECT_EQ(c.expect_words[0].value.kind, isa::ValueSet::Kind::kOneOf);
  EXPECT_EQ(c.expect_words[0].value.values,
            (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(c.expect_words[1].value.kind, isa::ValueSet::Kind::kExact);
  EXPECT_EQ(c.expect_words[1].value.values, (std::vector<uint32_t>{4}));
}

// An injected bug that changes a final word breaks the expectations.
TEST(AllowedExpectations, AWrongWordMissesThem) {
  isa::Case c = testutil::Parse(
      testutil::CaseText(1, 4, testutil::RawUav(0, 1, "5"), "dcl_uav_raw u0\n",
                         "atomic_imax u0, l(0), l(-1)\n"));
  ASSERT_TRUE(ExpectWhatTheSpecAllows(c).ok());
  testutil::Fast buggy;
  buggy.inject = "imax-unsigned";
  const isa::Outcome o = testutil::RunOn(c, "fast", buggy);
  EXPECT_FALSE(isa::CheckExpectations(c, o).empty());
}

}  // namespace
}  // namespace atomfuzz::fuzz
