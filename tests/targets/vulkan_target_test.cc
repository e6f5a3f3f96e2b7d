// The Vulkan target end to end: every corpus case runs on lavapipe (or the
// first device) in both buffer modes without a setup error, and the cases'
// [expect] sections hold where vkd3d and lavapipe are known to be right.
// Skips without a Vulkan device.
#include "targets/vulkan/vulkan_target.h"

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "isa/expectation_check.h"
#include "isa/dxbc.h"
#include "targets/vulkan/spirv_validation.h"
#include "targets/vulkan/vk_context.h"
#include "targets/vulkan/vkd3d_compiler.h"
#include "targets/vulkan/vkd3d_workarounds.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::targets::vulkan {
namespace {

TEST(VulkanTarget, RunsEveryCorpusCase) {
  absl::StatusOr<VkContext*> vk = GetVkContext("");
  if (!vk.ok()) GTEST_SKIP() << vk.status();
  const std::vector<std::string> files = fuzz::testutil::CorpusCaseFiles();
  ASSERT_FALSE(files.empty());
  std::unique_ptr<Target> target = *CreateVulkanTarget({}, BufferUavMode::kTexel);
  int traced = 0;
  std::vector<std::string> mismatched, refused;
  for (const std::string& f : files) {
    absl::StatusOr<isa::Case> c = fuzz::testutil::LoadCorpusCase(f);
    ASSERT_TRUE(c.ok()) << c.status();
    absl::StatusOr<isa::Outcome> o = target->Run(*c);
    ASSERT_TRUE(o.ok()) << f << ": " << o.status();
    // Endless loops meet lavapipe's loop cap; nothing else may fail.
    if (o->status == isa::RunStatus::kBudgetExceeded) {
      EXPECT_NE(o->message.find("lavapipe loop cap"), std::string::npos) << f;
      continue;
    }
    // vkd3d 1.2 refuses some valid SM5 (e.g. umad, opcode 0x52): a finding
    // about vkd3d, not a failure of this target.
    if (o->status == isa::RunStatus::kRejected && o->message.rfind("vkd3d-shader:", 0) == 0) {
      refused.push_back(f);
      continue;
    }
    ASSERT_EQ(o->status, isa::RunStatus::kOk) << f << ": " << o->message;
    ASSERT_EQ(o->uavs.size(), c->resources.size()) << f;
    traced += o->has_trace ? 1 : 0;
    if (!isa::CheckExpectations(*c, *o).empty()) mismatched.push_back(f);
  }
  EXPECT_GT(traced, static_cast<int>(files.size()) / 2);
  // Printed, not failed: a mismatch may be a vkd3d/lavapipe bug to report.
  std::printf("refused by vkd3d: %zu: %s\n", refused.size(), absl::StrJoin(refused, " ").c_str());
  std::printf("[expect] mismatches on vulkan: %zu of %zu: %s\n", mismatched.size(),
              files.size(), absl::StrJoin(mismatched, " ").c_str());
}

TEST(VulkanTarget, TracesTheSpecProgram) {
  absl::StatusOr<VkContext*> vk = GetVkContext("");
  if (!vk.ok()) GTEST_SKIP() << vk.status();
  absl::StatusOr<isa::Case> c = isa::ParseCase(R"([dispatch]
groups 2, 1, 1

[uav u0]
kind raw
words 64
data fill(7, 64)

[shader]
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 64, 1, 1
ishl r0.x, vThreadID.x, l(2)
imm_atomic_iadd r0.y, u0, r0.x, l(1)
atomic_iadd u0, r0.x, l(2)
ret
)");
  ASSERT_TRUE(c.ok()) << c.status();
  // The trace log is a texture, so SSBO mode traces a one-buffer case too.
  for (BufferUavMode mode : {BufferUavMode::kTexel, BufferUavMode::kSsbo}) {
    std::unique_ptr<Target> target = *CreateVulkanTarget({}, mode);
    absl::StatusOr<isa::Outcome> o = target->Run(*c);
    ASSERT_TRUE(o.ok()) << o.status();
    ASSERT_EQ(o->status, isa::RunStatus::kOk) << o->message;
    ASSERT_TRUE(o->has_trace) << o->message;
    // Group 1's threads address past the 64 words: dropped (spec 1.3).
    EXPECT_EQ(o->uavs[0].words, std::vector<uint32_t>(64, 10));
    ASSERT_EQ(o->trace.size(), 256u);
    for (const isa::AtomicEvent& e : o->trace) {
      if (e.instruction == 7) {
        EXPECT_FALSE(e.returned.has_value());
      } else if (e.group[0] == 0) {
        EXPECT_EQ(e.returned, 7u);
      }
    }
  }
}

TEST(VulkanTarget, SsboModeRepairsVkd3dsRepeatedArrayStride) {
  absl::StatusOr<VkContext*> vk = GetVkContext("");
  if (!vk.ok()) GTEST_SKIP() << vk.status();
  absl::StatusOr<isa::Case> c = isa::ParseCase(R"([uav u0]
kind raw
words 4

[uav u1]
kind raw
words 4

[shader]
cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_temps 1
dcl_thread_group 1, 1, 1
imm_atomic_iadd r0.x, u0, l(0), l(1)
store_raw u1.x, l(0), r0.x
ret
)");
  ASSERT_TRUE(c.ok()) << c.status();
  // vkd3d 1.2's SSBO lowering decorates the buffers' shared array type once
  // per UAV (the note's ArrayStride bug): spirv-val must catch it, and the
  // target repairs it, so the case runs.
  absl::StatusOr<std::vector<uint8_t>> dxbc = isa::EncodeDxbc(c->shader);
  ASSERT_TRUE(dxbc.ok()) << dxbc.status();
  const std::vector<UavBinding> bindings = {{0, true, false}, {1, true, false}};
  SpirvModule spirv = CompileDxbcToSpirv(*dxbc, bindings, BufferUavMode::kSsbo);
  ASSERT_TRUE(spirv.ok) << spirv.messages;
  const std::optional<std::string> invalid = ValidateSpirv(spirv.words);
  ASSERT_TRUE(invalid.has_value());
  EXPECT_NE(invalid->find("ArrayStride"), std::string::npos) << *invalid;
  EXPECT_EQ(DropRepeatedArrayStride(spirv.words), 1);
  EXPECT_EQ(ValidateSpirv(spirv.words), std::nullopt);

  std::unique_ptr<Target> ssbo = *CreateVulkanTarget({}, BufferUavMode::kSsbo);
  absl::StatusOr<isa::Outcome> o = ssbo->Run(*c);
  ASSERT_TRUE(o.ok()) << o.status();
  ASSERT_EQ(o->status, isa::RunStatus::kOk) << o->message;
  EXPECT_EQ(o->uavs[0].words, (std::vector<uint32_t>{1, 0, 0, 0}));
  EXPECT_EQ(o->uavs[1].words, (std::vector<uint32_t>{0, 0, 0, 0}));
}

}  // namespace
}  // namespace atomfuzz::targets::vulkan

namespace atomfuzz::targets::vulkan {
namespace {

// Finding #6 is a lavapipe bug only because robustBufferAccess2 is on.
TEST(VkContext, LavapipeRunsWithRobustBufferAccess2) {
  absl::StatusOr<VkContext*> vk = GetVkContext("");
  if (!vk.ok()) GTEST_SKIP() << vk.status();
  if (std::string((*vk)->properties.deviceName).find("llvmpipe") == std::string::npos) {
    GTEST_SKIP() << "not lavapipe";
  }
  EXPECT_TRUE((*vk)->robust_buffer_access2);
}

}  // namespace
}  // namespace atomfuzz::targets::vulkan
