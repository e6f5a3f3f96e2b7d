// Crossover (fuzz/mutate/crossover.h, Mutator::CrossOver): every child of two
// corpus cases is valid and round-trips, and splicing (not only the fallback to
// a mutation) happens.
#include "fuzz/mutate/crossover.h"

#include <string>
#include <vector>

#include "fuzz/generate/choices.h"
#include "fuzz/generate/policy.h"
#include "fuzz/mutate/mutator.h"
#include "gtest/gtest.h"
#include "isa/validator.h"
#include "tests/fuzz/corpus_files.h"
#include "tests/testing/round_trip.h"

namespace atomfuzz::fuzz {
namespace {

std::vector<isa::Case> Corpus() {
  std::vector<isa::Case> cases;
  for (const std::string& file : testutil::CorpusCaseFiles()) {
    absl::StatusOr<isa::Case> c = testutil::LoadCorpusCase(file);
    if (c.ok()) cases.push_back(*std::move(c));
  }
  return cases;
}

bool Spliced(const isa::Case& c) {
  for (const auto& [k, v] : c.metadata) {
    if (k == kMutationsKey && v.find("crossover") != std::string::npos) {
      return true;
    }
  }
  return false;
}

TEST(CrossOverTest, ChildrenOfCorpusPairsAreValid) {
  const std::vector<isa::Case> corpus = Corpus();
  ASSERT_GE(corpus.size(), 2u);
  const Policy policy;
  const Mutator mutator(policy);
  SeededChoices choices(42);
  int spliced = 0;
  constexpr int kPairs = 1000;
  for (int k = 0; k < kPairs; ++k) {
    const isa::Case& a = corpus[choices.Below(corpus.size())];
    const isa::Case& b = corpus[choices.Below(corpus.size())];
    const isa::Case child = mutator.CrossOver(a, b, choices);
    ASSERT_TRUE(isa::Validate(child).ok()) << isa::PrintCase(child);
    ASSERT_TRUE(WithinLimits(child, mutator.options().limits));
    ASSERT_TRUE(atomfuzz::testutil::CaseRoundTrips(child));
    if (Spliced(child)) ++spliced;
  }
  EXPECT_GE(spliced, kPairs / 2);
}

// The splice itself: b's code lands in a, and a keeps its memories.
TEST(CrossOverTest, SpliceAddsCodeAndKeepsTheMemories) {
  const std::vector<isa::Case> corpus = Corpus();
  ASSERT_GE(corpus.size(), 2u);
  SeededChoices choices(9);
  int grew = 0;
  for (int k = 0; k < 200; ++k) {
    isa::Case a = corpus[k % corpus.size()];
    const isa::Case& b = corpus[(k * 7 + 3) % corpus.size()];
    const size_t before = a.shader.instructions.size();
    const auto resources = a.resources;
    if (!SpliceCode(a, b, choices)) continue;
    if (a.shader.instructions.size() > before) ++grew;
    EXPECT_EQ(a.resources, resources);
  }
  EXPECT_GT(grew, 100);
}

}  // namespace
}  // namespace atomfuzz::fuzz
