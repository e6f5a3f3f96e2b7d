// A target row that declares the instructions it refuses (TargetInfo::
// unsupported) gets campaigns that neither generate nor mutate into them:
// vkd3d-shader 1.2 rejects umad, and campaigns on vulkan spent a third of
// their cases on it.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "fuzz/campaign/campaign_setup.h"
#include "fuzz/generate/choices.h"
#include "fuzz/generate/generator.h"
#include "fuzz/mutate/mutator.h"
#include "gtest/gtest.h"
#include "targets/registry.h"

namespace atomfuzz::fuzz {
namespace {

using isa::Op;

bool Uses(const isa::Case& c, Op op) {
  for (const isa::Instruction& inst : c.shader.instructions) {
    if (inst.op == op) return true;
  }
  return false;
}

// How many of `n` cases (generated, then each mutated a few times) use
// `op`, under `policy`.
int CasesUsing(const Policy& policy, Op op, int n) {
  const Mutator mutator(policy);
  int using_op = 0;
  for (int seed = 1; seed <= n; ++seed) {
    SeededChoices choices(static_cast<uint64_t>(seed));
    isa::Case c = GenerateCase(choices, policy);
    bool uses = Uses(c, op);
    std::vector<std::string> names;
    for (int m = 0; m < 4; ++m) {
      c = mutator.Mutated(c, choices, names);
      uses = uses || Uses(c, op);
    }
    using_op += uses;
  }
  return using_op;
}

TEST(UnsupportedOps, ARowsRefusedOpsAreNeitherGeneratedNorMutatedInto) {
  targets::TargetInfo row;
  for (const targets::TargetInfo& r : targets::AllTargets()) {
    if (r.name == "fast") row = r;
  }
  row.name = row.usage = "test-no-umad";
  row.unsupported = {Op::kUMad};
  targets::RegisterTarget(row);

  CampaignOptions o;
  o.target = "test-no-umad";
  o.out = (std::filesystem::temp_directory_path() / "atomfuzz-unsupported-ops")
              .string();
  std::filesystem::remove_all(o.out);
  absl::StatusOr<PreparedCampaign> p = PrepareCampaign(o);
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(p->setup.policy.op_weights[static_cast<size_t>(Op::kUMad)], 0u);
  EXPECT_EQ(CasesUsing(p->setup.policy, Op::kUMad, 300), 0);

  // The same policy without the row's list does use umad: the test can
  // fail.
  absl::StatusOr<Policy> plain = PolicyByName(o.policy);
  ASSERT_TRUE(plain.ok());
  EXPECT_GT(CasesUsing(*plain, Op::kUMad, 300), 10);
  std::filesystem::remove_all(o.out);
}

// vkd3d-shader 1.2 refuses umad (findings.md #8) and drops umul and
// two-destination imul (#3).
TEST(UnsupportedOps, TheVulkanRowsDeclareWhatVkd3dDoesNotImplement) {
  for (const char* name : {"vulkan", "vulkan-ssbo", "vulkan-demote"}) {
    const std::optional<targets::TargetInfo> row = targets::FindTarget(name);
    ASSERT_TRUE(row.has_value()) << name;
    EXPECT_EQ(row->unsupported,
              (std::vector<Op>{Op::kUMad, Op::kUMul, Op::kIMul}))
        << name;
    // UAV fences without _t (#27): a campaign's policy leaves them out.
    EXPECT_EQ(row->unsupported_syncs.size(), 4u) << name;
    absl::StatusOr<Policy> policy = PolicyByName("default");
    ASSERT_TRUE(policy.ok());
    WithoutSyncs(*policy, row->unsupported_syncs);
    for (size_t i = 0; i < kSyncVariants.size(); ++i) {
      const uint8_t v = kSyncVariants[i];
      const bool fence = (v & (isa::kSyncUavGroup | isa::kSyncUavGlobal)) &&
                         !(v & isa::kSyncThreads);
      EXPECT_EQ(policy->sync_weights[i] == 0, fence) << name << " " << int{v};
    }
  }
}

// wined3d refuses umad; its GLSL drops umul and two-destination imul (#18),
// and so does the vkd3d-shader 1.6 inside its Vulkan renderer (#3). Both
// index g# unguarded (#19, #5).
TEST(UnsupportedOps, TheWineRowsDeclareWhatWined3dDoesNotImplement) {
  for (const char* name : {"wine-d3d11-gl", "wine-d3d11-vk"}) {
    const std::optional<targets::TargetInfo> row = targets::FindTarget(name);
    ASSERT_TRUE(row.has_value()) << name;
    EXPECT_EQ(row->unsupported,
              (std::vector<Op>{Op::kUMad, Op::kUMul, Op::kIMul}))
        << name;
    EXPECT_TRUE(row->unguarded_tgsm) << name;
  }
  for (const char* name : {"vulkan", "vulkan-ssbo", "vulkan-demote"})
    EXPECT_TRUE(targets::FindTarget(name)->unguarded_tgsm) << name;
  EXPECT_FALSE(targets::FindTarget("fast")->unguarded_tgsm);
}

}  // namespace
}  // namespace atomfuzz::fuzz
