// The structure-aware mutator (fuzz/mutate/mutator.h): every result is valid
// and round-trips through its text form, every named mutation applies somewhere
// and changes the case, names are recorded, limits hold, and the same seed
// gives the same mutations. ATOMFUZZ_MUTATIONS=N runs N mutations in the
// validity test instead of 10^4.
#include "fuzz/mutate/mutator.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "fuzz/generate/choices.h"
#include "fuzz/generate/policy.h"
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
    EXPECT_TRUE(c.ok()) << file << ": " << c.status();
    if (c.ok()) cases.push_back(*std::move(c));
  }
  return cases;
}

uint64_t MutationCount() {
  uint64_t n = 10000;
  if (const char* env = std::getenv("ATOMFUZZ_MUTATIONS")) {
    EXPECT_TRUE(absl::SimpleAtoi(env, &n)) << env;
  }
  return n;
}

std::string MutationsOf(const isa::Case& c) {
  for (const auto& [k, v] : c.metadata) {
    if (k == kMutationsKey) return v;
  }
  return "";
}

// Chains of mutations from every corpus case: each step valid, within the
// limits and round-trippable.
TEST(MutatorTest, KeepsCorpusCasesValidAndRoundTrippable) {
  const std::vector<isa::Case> corpus = Corpus();
  ASSERT_FALSE(corpus.empty());
  const Policy policy;
  const Mutator mutator(policy);
  SeededChoices choices(1);
  const uint64_t total = MutationCount();
  constexpr uint64_t kChain = 20;  // then restart from a corpus case
  uint64_t applied = 0;
  isa::Case c;
  for (uint64_t k = 0; k < total; ++k) {
    if (k % kChain == 0) c = corpus[(k / kChain) % corpus.size()];
    const std::string name = mutator.MutateOnce(c, choices);
    if (name.empty()) continue;
    ++applied;
    ASSERT_TRUE(isa::Validate(c).ok())
        << name << ": " << isa::Validate(c) << "\n"
        << isa::PrintCase(c);
    ASSERT_TRUE(WithinLimits(c, mutator.options().limits)) << name;
    ASSERT_TRUE(atomfuzz::testutil::CaseRoundTrips(c)) << "after " << name;
  }
  // Nearly every attempt applies something within max_attempts.
  EXPECT_GE(applied, total * 9 / 10);
}

// Reachability (style guide 7.6): each mutation applies to some corpus case
// within a bounded number of tries and changes what the case runs.
TEST(MutatorTest, EveryMutationAppliesSomewhereAndChangesTheCase) {
  const std::vector<isa::Case> corpus = Corpus();
  ASSERT_FALSE(corpus.empty());
  const Policy policy;
  const Mutator mutator(policy);
  SeededChoices choices(7);
  for (const NamedMutation& m : AllMutations()) {
    // The corpus draws nothing: pixel_mutations_test.cc covers those.
    if ((m.stages & kForCompute) == 0) continue;
    int applied = 0;
    for (int attempt = 0; attempt < 4000 && applied < 3; ++attempt) {
      isa::Case c = corpus[attempt % corpus.size()];
      const isa::Case before = c;
      if (!mutator.Apply(m, c, choices)) continue;
      ++applied;
      EXPECT_FALSE(c.shader == before.shader && c.groups == before.groups &&
                   c.resources == before.resources)
          << m.name << " applied without a change";
      EXPECT_TRUE(isa::Validate(c).ok()) << m.name;
    }
    EXPECT_EQ(applied, 3) << m.name << " never applies";
  }
}

TEST(MutatorTest, RecordsAppliedNamesAndDropsExpectations) {
  const std::vector<isa::Case> corpus = Corpus();
  ASSERT_FALSE(corpus.empty());
  const Policy policy;
  const Mutator mutator(policy);
  SeededChoices choices(3);
  isa::Case c = corpus.front();
  std::vector<std::string> names;
  for (int k = 0; k < 10 && names.empty(); ++k)
    names = mutator.Mutate(c, choices);
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(MutationsOf(c), absl::StrJoin(names, " "));
  EXPECT_TRUE(c.expect_words.empty() && c.expect_returns.empty() &&
              c.expect_counters.empty() && c.description.empty());
  std::vector<std::string> known;
  for (const NamedMutation& m : AllMutations()) known.emplace_back(m.name);
  for (const std::string& n : names) {
    EXPECT_NE(std::find(known.begin(), known.end(), n), known.end()) << n;
  }
}

TEST(MutatorTest, KeepsOnlyTheLastRecordedNames) {
  isa::Case c;
  RecordMutations(c, std::vector<std::string>(kMaxRecordedMutations, "a"));
  RecordMutations(c, {"b", "c"});
  const std::string v = MutationsOf(c);
  EXPECT_EQ(v.substr(0, 6), "... a ");
  EXPECT_EQ(v.substr(v.size() - 4), " b c");
  EXPECT_EQ(std::count(v.begin(), v.end(), ' '), kMaxRecordedMutations);
}

TEST(MutatorTest, RespectsTheLimits) {
  const std::vector<isa::Case> corpus = Corpus();
  const Policy policy;
  MutatorOptions options;
  options.limits.max_work = 4096;
  options.limits.max_words = 256;
  options.limits.max_instructions = 64;
  const Mutator mutator(policy, options);
  SeededChoices choices(11);
  for (const isa::Case& start : corpus) {
    if (!WithinLimits(start, options.limits)) continue;
    isa::Case c = start;
    for (int k = 0; k < 20; ++k) {
      mutator.MutateOnce(c, choices);
      ASSERT_TRUE(WithinLimits(c, options.limits)) << isa::PrintCase(c);
    }
  }
}

uint64_t GroupCount(const isa::Case& c) {
  return uint64_t{c.groups[0]} * c.groups[1] * c.groups[2];
}
uint64_t GroupThreads(const isa::Case& c) {
  for (const isa::Instruction& inst : c.shader.instructions) {
    if (inst.op == isa::Op::kDclThreadGroup) {
      return uint64_t{inst.operands[0].index} * inst.operands[1].index *
             inst.operands[2].index;
    }
  }
  return 0;
}

// The largest group count and group size that chains of the two dispatch
// mutations reach under `policy` from the corpus cases within its bounds.
// Every chain is checked against the policy's bounds or its start case's
// size, whichever is more.
std::pair<uint64_t, uint64_t> LargestDispatchReached(const Policy& policy) {
  const std::vector<isa::Case> corpus = Corpus();
  EXPECT_FALSE(corpus.empty());
  const Mutator mutator(policy);
  SeededChoices choices(5);
  uint64_t groups = 0, threads = 0;
  for (const NamedMutation& m : AllMutations()) {
    const std::string name(m.name);
    if (name != "change_groups" && name != "change_thread_group") continue;
    for (const isa::Case& start : corpus) {
      const uint64_t group_bound =
          std::max<uint64_t>(policy.max_groups, GroupCount(start));
      const uint64_t thread_bound =
          std::max<uint64_t>(policy.max_group_threads, GroupThreads(start));
      const bool within = group_bound == policy.max_groups &&
                          thread_bound == policy.max_group_threads;
      isa::Case c = start;
      for (int k = 0; k < 30; ++k) {
        if (!mutator.Apply(m, c, choices)) continue;
        EXPECT_LE(GroupCount(c), group_bound) << name << "\n"
                                              << isa::PrintCase(c);
        EXPECT_LE(GroupThreads(c), thread_bound) << name << "\n"
                                                 << isa::PrintCase(c);
        if (!within) continue;
        groups = std::max(groups, GroupCount(c));
        threads = std::max(threads, GroupThreads(c));
      }
    }
  }
  return {groups, threads};
}

// Mutants are as small as the cases the policy generates (the judge's time
// grows with the threads), unless their parent was larger.
TEST(MutatorTest, GrowsTheDispatchOnlyAsFarAsThePolicyAllows) {
  const Policy small;
  const auto [groups, threads] = LargestDispatchReached(small);
  EXPECT_EQ(groups, small.max_groups);
  EXPECT_EQ(threads, small.max_group_threads);
  // The bound is the policy's, not a constant: "wide" reaches wave sizes.
  const absl::StatusOr<Policy> wide = PolicyByName("wide");
  ASSERT_TRUE(wide.ok());
  const auto [wide_groups, wide_threads] = LargestDispatchReached(*wide);
  EXPECT_EQ(wide_groups, wide->max_groups);
  EXPECT_EQ(wide_threads, wide->max_group_threads);
}

TEST(MutatorTest, SameSeedSameMutations) {
  const std::vector<isa::Case> corpus = Corpus();
  ASSERT_FALSE(corpus.empty());
  const Policy policy;
  const Mutator mutator(policy);
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    isa::Case a = corpus[seed % corpus.size()], b = a;
    SeededChoices ca(seed), cb(seed);
    EXPECT_EQ(mutator.Mutate(a, ca), mutator.Mutate(b, cb));
    EXPECT_EQ(a, b);
  }
}

// Mutated() builds from a const parent what Mutate() makes of a copy: the
// same case, names and draws, whether or not anything applied.
TEST(MutatorTest, MutatedEqualsMutateOnACopy) {
  const std::vector<isa::Case> corpus = Corpus();
  ASSERT_FALSE(corpus.empty());
  const Policy policy;
  MutatorOptions tight;
  tight.max_attempts = 1;  // so that some stacks apply nothing
  for (const MutatorOptions& options : {MutatorOptions{}, tight}) {
    const Mutator mutator(policy, options);
    for (uint64_t seed = 1; seed <= 40; ++seed) {
      const isa::Case& parent = corpus[seed % corpus.size()];
      isa::Case a = parent;
      SeededChoices ca(seed), cb(seed);
      const std::vector<std::string> names_a = mutator.Mutate(a, ca);
      std::vector<std::string> names_b;
      const isa::Case b = mutator.Mutated(parent, cb, names_b);
      EXPECT_EQ(names_a, names_b);
      EXPECT_EQ(a, b);
      EXPECT_EQ(ca.Word(), cb.Word());
    }
  }
}

// Fuzzer bytes drive the mutator too; running out of them is harmless.
TEST(MutatorTest, ByteChoicesNeverBreakACase) {
  const std::vector<isa::Case> corpus = Corpus();
  ASSERT_FALSE(corpus.empty());
  const Policy policy;
  const Mutator mutator(policy);
  SeededChoices bytes_source(5);
  for (int k = 0; k < 300; ++k) {
    std::vector<uint8_t> bytes(bytes_source.Below(64));
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(bytes_source.Below(256));
    ByteChoices choices(bytes);
    isa::Case c = corpus[k % corpus.size()];
    mutator.Mutate(c, choices);
    ASSERT_TRUE(isa::Validate(c).ok());
  }
}

}  // namespace
}  // namespace atomfuzz::fuzz
