// --vkd3d=wine end to end: the vulkan targets, built by the registry (in
// a fork-server child, as campaigns run them), compile with the
// vkd3d-shader Wine bundles, run the SPIR-V on lavapipe, and name that
// vkd3d (1.6 in Wine 8.0) as their executor. Skips, saying why, without
// Wine, the mingw-built helper or a Vulkan device.
#include <memory>
#include <string>

#include "absl/strings/match.h"
#include "fuzz/differential.h"
#include "fuzz/runner.h"
#include "gtest/gtest.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

class VulkanWineVkd3d : public ::testing::TestWithParam<const char*> {};

TEST_P(VulkanWineVkd3d, RunsACaseAllowedAndNamesWinesVkd3d) {
  RunOptions options;
  options.target = GetParam();
  options.target_options.flags["vkd3d"] = "wine";
  absl::StatusOr<std::unique_ptr<targets::Target>> t = MakeTarget(options);
  if (!t.ok() && absl::IsFailedPrecondition(t.status()))
    GTEST_SKIP() << "no vkd3d-shader under Wine here: " << t.status();
  ASSERT_TRUE(t.ok()) << t.status();
  const std::string described = (*t)->Describe();
  EXPECT_TRUE(absl::StrContains(described, "vkd3d-shader 1.6")) << described;
  EXPECT_TRUE(absl::StrContains(described, "Wine")) << described;

  absl::StatusOr<isa::Case> c =
      testutil::LoadCorpusCase("corpus/seed/all-atomics-uav-raw.case");
  ASSERT_TRUE(c.ok()) << c.status();
  const RunResult r = RunOne(*c, **t);
  if (r.kind == RunKind::kTargetFailed &&
      absl::StrContains(r.message, "Vulkan")) {
    GTEST_SKIP() << "no Vulkan device: " << r.message;
  }
  ASSERT_EQ(r.kind, RunKind::kJudged) << r.message;
  EXPECT_EQ(r.verdict.kind, oracle::Verdict::Kind::kAllowed)
      << r.verdict.Summary();
  ASSERT_TRUE(r.outcome->has_trace) << r.outcome->message;
}

INSTANTIATE_TEST_SUITE_P(Modes, VulkanWineVkd3d,
                         ::testing::Values("vulkan", "vulkan-ssbo"),
                         [](const auto& info) {
                           return std::string(info.param) == "vulkan"
                                      ? std::string("Texel")
                                      : std::string("Ssbo");
                         });

}  // namespace
}  // namespace atomfuzz::fuzz
