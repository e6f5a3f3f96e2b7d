// Mutations of pixel cases (fuzz/mutate/mutations_pixel.cc) and the
// dispatcher's stages (mutator.h): every pixel mutation applies to
// generated draws and changes them, every mutant of a pixel case is a valid
// pixel case with clear margins, compute cases draw only the mutations
// they drew before, and crossover never splices across stages.
#include <set>
#include <string>
#include <vector>

#include "fuzz/generate/choices.h"
#include "fuzz/generate/generator.h"
#include "fuzz/generate/policy.h"
#include "fuzz/mutate/mutations.h"
#include "fuzz/mutate/mutator.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "isa/raster.h"
#include "isa/validator.h"
#include "tests/testing/round_trip.h"

namespace atomfuzz::fuzz {
namespace {

Policy PixelPolicy() {
  absl::StatusOr<Policy> p = PolicyByName("pixel");
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : Policy{};
}

std::vector<isa::Case> PixelCases(int n) {
  const Policy policy = PixelPolicy();
  std::vector<isa::Case> cases;
  for (int i = 0; i < n; ++i) {
    SeededChoices choices(CaseSeed(21, static_cast<uint64_t>(i)));
    cases.push_back(GenerateCase(choices, policy));
  }
  return cases;
}

bool SameRun(const isa::Case& a, const isa::Case& b) {
  return a.shader == b.shader && a.draw == b.draw && a.groups == b.groups &&
         a.resources == b.resources;
}

TEST(PixelMutationsTest, EachAppliesToDrawsAndChangesThem) {
  const std::vector<isa::Case> cases = PixelCases(60);
  const Policy policy = PixelPolicy();
  const Mutator mutator(policy);
  SeededChoices choices(4);
  for (const NamedMutation& m : MutationsFor(isa::Stage::kPixel)) {
    int applied = 0;
    for (int attempt = 0; attempt < 3000 && applied < 5; ++attempt) {
      isa::Case c = cases[static_cast<size_t>(attempt) % cases.size()];
      const isa::Case before = c;
      if (!mutator.Apply(m, c, choices)) continue;
      ++applied;
      EXPECT_FALSE(SameRun(c, before)) << m.name;
      EXPECT_TRUE(isa::Validate(c).ok()) << m.name << ": " << isa::Validate(c);
    }
    EXPECT_EQ(applied, 5) << m.name << " never applies";
  }
}

TEST(PixelMutationsTest, MutantsArePixelCasesWithClearMargins) {
  const std::vector<isa::Case> cases = PixelCases(50);
  const Policy policy = PixelPolicy();
  const Mutator mutator(policy);
  SeededChoices choices(8);
  std::set<std::string> seen;
  int applied = 0;
  isa::Case c;
  for (int k = 0; k < 3000; ++k) {
    if (k % 10 == 0) c = cases[static_cast<size_t>(k / 10) % cases.size()];
    const std::string name = mutator.MutateOnce(c, choices);
    if (name.empty()) continue;
    ++applied;
    seen.insert(name);
    ASSERT_TRUE(isa::Validate(c).ok())
        << name << ": " << isa::Validate(c) << "\n"
        << isa::PrintCase(c);
    ASSERT_TRUE(c.shader.pixel()) << name;
    ASSERT_FALSE(isa::ClearMarginProblem(c.draw).has_value()) << name;
    ASSERT_EQ(c.groups, (std::array<uint32_t, 3>{1, 1, 1})) << name;
    ASSERT_TRUE(testutil::CaseRoundTrips(c)) << "after " << name;
  }
  EXPECT_GE(applied, 2700);
  for (const char* name :
       {"change_groups", "change_thread_group", "resize_tgsm"}) {
    EXPECT_FALSE(seen.contains(name)) << name;
  }
  for (const char* name : {"move_vertex", "toggle_discard", "change_samples",
                           "add_triangle", "remove_triangle"}) {
    EXPECT_TRUE(seen.contains(name)) << name;
  }
}

// Compute cases draw from the table they drew from before pixel mutations
// existed, in its order, so a seed keeps making the same compute mutants.
TEST(PixelMutationsTest, ComputeCasesDrawOnlyComputeMutations) {
  const absl::Span<const NamedMutation> all = AllMutations();
  const absl::Span<const NamedMutation> compute =
      MutationsFor(isa::Stage::kCompute);
  ASSERT_EQ(compute.size(), 17u);
  for (size_t i = 0; i < compute.size(); ++i) {
    EXPECT_EQ(compute[i].name, all[i].name);
    EXPECT_NE(compute[i].stages & kForCompute, 0);
  }
  for (const NamedMutation& m : MutationsFor(isa::Stage::kPixel)) {
    EXPECT_NE(m.stages & kForPixel, 0) << m.name;
  }
  // A pixel mutation applied directly to a compute case does not apply.
  SeededChoices choices(2);
  isa::Case compute_case = GenerateCase(choices, Policy{});
  for (const NamedMutation& m : all) {
    if (m.stages != kForPixel) continue;
    isa::Case c = compute_case;
    EXPECT_FALSE(m.fn(c, choices, Policy{})) << m.name;
  }
  isa::Case pixel_case = PixelCases(1)[0];
  EXPECT_FALSE(ChangeGroups(pixel_case, choices, PixelPolicy()));
}

TEST(PixelMutationsTest, FourSamplesOnlyWhereTheMarginsStayClear) {
  isa::Case c = PixelCases(1)[0];
  c.draw.samples = 1;
  c.draw.width = c.draw.height = 4;
  isa::Triangle t;  // x = 0.375 is clear of the centre, on a 4x sample
  t.v = {{{96, 0}, {768, 0}, {96, 768}}};
  c.draw.triangles = {t};
  ASSERT_FALSE(isa::ClearMarginProblem(c.draw).has_value());
  SeededChoices choices(1);
  EXPECT_FALSE(ChangeSamples(c, choices, PixelPolicy()));
}

TEST(PixelMutationsTest, CrossOverKeepsToOneStage) {
  const std::vector<isa::Case> pixel = PixelCases(20);
  const Policy policy = PixelPolicy();
  const Mutator mutator(policy);
  SeededChoices choices(6);
  std::vector<isa::Case> compute;
  for (int i = 0; i < 20; ++i) compute.push_back(GenerateCase(choices, {}));
  for (int i = 0; i < 20; ++i) {
    const isa::Case a = mutator.CrossOver(pixel[i], compute[i], choices);
    EXPECT_TRUE(a.shader.pixel());
    EXPECT_TRUE(isa::Validate(a).ok()) << isa::Validate(a);
    const isa::Case b = mutator.CrossOver(compute[i], pixel[i], choices);
    EXPECT_FALSE(b.shader.pixel());
    EXPECT_TRUE(isa::Validate(b).ok()) << isa::Validate(b);
    const isa::Case p =
        mutator.CrossOver(pixel[i], pixel[(i + 1) % 20], choices);
    EXPECT_TRUE(p.shader.pixel());
    EXPECT_TRUE(isa::Validate(p).ok()) << isa::Validate(p);
  }
}

}  // namespace
}  // namespace atomfuzz::fuzz
