// The reducer on corpus cases that catch injected bugs: the result stays in
// the original's bucket, validates, is no larger, and is 1-minimal (no
// single instruction, thread step, resource or word can go). Also the
// pass machinery alone, on a predicate with a known minimum.
#include "fuzz/reduce/reducer.h"

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "fuzz/reduce/reduce_passes.h"
#include "gtest/gtest.h"
#include "isa/validator.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

struct InjectionCase {
  std::string inject;
  std::string file;  // docs/injected-bugs.md lists it as catching the bug
};

const InjectionCase kCases[] = {
    {"xor-as-or", "corpus/spec/e25b-commutative-prefix-sets.case"},
    {"xor-as-or", "corpus/seed/all-atomics-uav-raw.case"},
    {"return-new", "corpus/spec/e07-returns-old.case"},
    {"cmpxchg-swapped", "corpus/spec/e05-cmp-operand-order.case"},
    {"oob-wrap", "corpus/spec/e12-raw-bounds.case"},
    {"iadd-saturate", "corpus/spec/e01-iadd-wrap.case"},
    {"consume-pre-decrement", "corpus/spec/e36-counter-wraps.case"},
    {"sync-no-wait", "corpus/spec/e30-sync-t-uniform-flow.case"},
    {"tex2d-y-ignored", "corpus/spec/e18-typed-coord-extent.case"},
    {"rmw-not-atomic", "corpus/spec/e25-iadd-n-threads.case"},
};

void PrintTo(const InjectionCase& c, std::ostream* os) {
  *os << c.inject << " on " << c.file;
}

RunOptions FastWith(const std::string& inject) {
  RunOptions o;
  o.target = "fast";
  o.target_options.flags["inject"] = inject;
  return o;
}

class ReduceInjectedBug : public ::testing::TestWithParam<InjectionCase> {};

TEST_P(ReduceInjectedBug, StaysInBucketValidatesAndIsOneMinimal) {
  const InjectionCase& param = GetParam();
  absl::StatusOr<isa::Case> original = testutil::LoadCorpusCase(param.file);
  ASSERT_TRUE(original.ok()) << original.status();
  absl::StatusOr<SameBucket> bucket =
      MakeSameBucket(*original, FastWith(param.inject));
  ASSERT_TRUE(bucket.ok()) << bucket.status();

  const ReduceResult r = Reduce(*original, bucket->interesting);
  const isa::Case& reduced = r.reduced;
  EXPECT_TRUE(r.stats.complete) << r.stats.Summary();
  EXPECT_TRUE(isa::Validate(reduced).ok()) << isa::PrintCase(reduced);
  EXPECT_TRUE(bucket->interesting(reduced)) << isa::PrintCase(reduced);

  // Its own bucket, computed afresh, is the original's.
  absl::StatusOr<SameBucket> again =
      MakeSameBucket(reduced, FastWith(param.inject));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->signature, bucket->signature);

  const CaseSize before = SizeOf(*original), after = SizeOf(reduced);
  EXPECT_EQ(r.stats.before, before);
  EXPECT_EQ(r.stats.after, after);
  EXPECT_LT(after.instructions, before.instructions);
  EXPECT_LE(after.threads, before.threads);
  EXPECT_LE(after.resources, before.resources);
  EXPECT_LE(after.words, before.words);

  // 1-minimal: every single removal either breaks validity or the bucket.
  using EditsOf = std::vector<ReduceEdit> (*)(const isa::Case&);
  for (EditsOf edits : {EditsOf{DropInstructionEdits}, EditsOf{DropThreadEdits},
                        EditsOf{DropResourceEdits}, EditsOf{DropWordEdits}}) {
    for (const ReduceEdit& edit : edits(reduced)) {
      isa::Case smaller = reduced;
      if (!edit(smaller) || !isa::Validate(smaller).ok()) continue;
      EXPECT_FALSE(bucket->interesting(smaller))
          << "still in the bucket after a removal:\n"
          << isa::PrintCase(smaller);
    }
  }
  // Each body instruction by itself, as a reader would check it.
  const size_t first = FirstBodyInstruction(reduced.shader);
  for (size_t i = first; i + 1 < reduced.shader.instructions.size(); ++i) {
    isa::Case smaller = reduced;
    smaller.shader.instructions.erase(smaller.shader.instructions.begin() +
                                      static_cast<std::ptrdiff_t>(i));
    if (isa::Validate(smaller).ok())
      EXPECT_FALSE(bucket->interesting(smaller)) << i;
  }
  RecordProperty("reduced", r.stats.Summary());
}

std::string NameOf(const ::testing::TestParamInfo<InjectionCase>& info) {
  std::string name =
      info.param.inject + "_" + testutil::TestNameOf(info.param.file);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, ReduceInjectedBug, ::testing::ValuesIn(kCases),
                         NameOf);

// A predicate with a known minimum: "some imm_atomic_xor on u#". The least
// valid case holding one is the atomic and ret, one thread, one word.
bool HasUavXor(const isa::Case& c) {
  for (const isa::Instruction& i : c.shader.instructions) {
    if (i.op == isa::Op::kImmAtomicXor &&
        i.operands[1].file == isa::RegFile::kUav)
      return true;
  }
  return false;
}

TEST(Reduce, ReachesTheKnownMinimum) {
  absl::StatusOr<isa::Case> c =
      testutil::LoadCorpusCase("corpus/seed/all-atomics-uav-raw.case");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(HasUavXor(*c));
  const ReduceResult r = Reduce(*c, HasUavXor);
  EXPECT_TRUE(r.stats.complete);
  EXPECT_EQ(r.stats.after.instructions, 2) << isa::PrintCase(r.reduced);
  EXPECT_EQ(r.stats.after.threads, 1);
  EXPECT_EQ(r.stats.after.resources, 1);
  EXPECT_EQ(r.stats.after.words, 1);
  // Values went to 0 where the predicate allows: the xor's operands.
  const auto& list = r.reduced.shader.instructions;
  const isa::Instruction& x = list[list.size() - 2];
  EXPECT_EQ(x.op, isa::Op::kImmAtomicXor);
  for (const isa::Operand& o : x.operands) {
    if (o.file == isa::RegFile::kImmediate) EXPECT_EQ(o.values[0], 0u);
  }
}

TEST(Reduce, KeepsProvenanceAndRecordsTheOrigin) {
  absl::StatusOr<isa::Case> c =
      testutil::LoadCorpusCase("corpus/seed/all-atomics-uav-raw.case");
  ASSERT_TRUE(c.ok());
  c->metadata.emplace_back("seed", "0x1234");
  const ReduceResult r = Reduce(*c, HasUavXor);
  ASSERT_EQ(r.reduced.metadata.size(), 2u);
  EXPECT_EQ(r.reduced.metadata[0],
            (std::pair<std::string, std::string>{"seed", "0x1234"}));
  EXPECT_EQ(r.reduced.metadata[1].first, "reduced_from");
  EXPECT_EQ(r.reduced.metadata[1].second, SizeOf(*c).ToString());
}

TEST(Reduce, StopsAtTheAttemptBudget) {
  absl::StatusOr<isa::Case> c =
      testutil::LoadCorpusCase("corpus/seed/all-atomics-uav-raw.case");
  ASSERT_TRUE(c.ok());
  ReduceOptions options;
  options.max_attempts = 3;
  const ReduceResult r = Reduce(*c, HasUavXor, options);
  EXPECT_FALSE(r.stats.complete);
  EXPECT_LE(r.stats.attempts, 3);
  EXPECT_TRUE(isa::Validate(r.reduced).ok());
  EXPECT_TRUE(HasUavXor(r.reduced));
}

TEST(Reduce, UninterestingInputComesBackUnchanged) {
  absl::StatusOr<isa::Case> c =
      testutil::LoadCorpusCase("corpus/spec/e01-iadd-wrap.case");
  ASSERT_TRUE(c.ok());
  const ReduceResult r = Reduce(*c, [](const isa::Case&) { return false; });
  EXPECT_EQ(r.reduced, *c);
  EXPECT_TRUE(r.stats.complete);
}

TEST(MakeSameBucket, RefusesACaseThatDoesNotDiverge) {
  absl::StatusOr<isa::Case> c =
      testutil::LoadCorpusCase("corpus/spec/e01-iadd-wrap.case");
  ASSERT_TRUE(c.ok());
  absl::StatusOr<SameBucket> b = MakeSameBucket(*c, FastWith(""));
  EXPECT_TRUE(absl::IsFailedPrecondition(b.status())) << b.status();
  EXPECT_TRUE(
      absl::IsInvalidArgument(MakeSameBucket(*c, FastWith("frob")).status()));
}

}  // namespace
}  // namespace atomfuzz::fuzz
