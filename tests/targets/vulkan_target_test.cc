// The Vulkan target end to end: every corpus case runs on lavapipe (or the
// first device) in both buffer modes without a setup error, and the cases'
// [expect] sections hold where vkd3d and lavapipe are known to be right.
// Skips without a Vulkan device.
#include "targets/vulkan/vulkan_target.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "isa/dxbc.h"
#include "isa/expectation_check.h"
#include "targets/case_batch.h"
#include "targets/vulkan/spirv_validation.h"
#include "targets/vulkan/vk_context.h"
#include "targets/vulkan/vk_dispatch.h"
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
  std::unique_ptr<Target> target =
      *CreateVulkanTarget({}, BufferUavMode::kTexel);
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
    if (o->status == isa::RunStatus::kRejected &&
        o->message.rfind("vkd3d-shader:", 0) == 0) {
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
  std::printf("refused by vkd3d: %zu: %s\n", refused.size(),
              absl::StrJoin(refused, " ").c_str());
  std::printf("[expect] mismatches on vulkan: %zu of %zu: %s\n",
              mismatched.size(), files.size(),
              absl::StrJoin(mismatched, " ").c_str());
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

void ExpectRunBatchAgreesWithRun(BufferUavMode mode,
                                 const std::vector<isa::Case>& cases) {
  std::unique_ptr<Target> target = *CreateVulkanTarget({}, mode);
  std::vector<absl::StatusOr<isa::Outcome>> batched = target->RunBatch(cases);
  ASSERT_EQ(batched.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    absl::StatusOr<isa::Outcome> alone = target->Run(cases[i]);
    ASSERT_TRUE(alone.ok()) << cases[i].file << ": " << alone.status();
    ASSERT_TRUE(batched[i].ok())
        << cases[i].file << ": " << batched[i].status();
    // lavapipe's loop cap: a batch lowers it by the other cases' loops, and
    // some regress cases loop as often as an undefined register says.
    const auto ok_or_capped = [](const isa::Outcome& o) {
      return o.status == isa::RunStatus::kOk ||
             o.status == isa::RunStatus::kBudgetExceeded;
    };
    if (batched[i]->status == isa::RunStatus::kBudgetExceeded ||
        alone->status == isa::RunStatus::kBudgetExceeded) {
      EXPECT_TRUE(ok_or_capped(*batched[i]) && ok_or_capped(*alone))
          << cases[i].file << ": " << batched[i]->message << " / "
          << alone->message;
      continue;
    }
    EXPECT_EQ(batched[i]->status, alone->status)
        << cases[i].file << ": " << batched[i]->message;
    EXPECT_EQ(batched[i]->message, alone->message) << cases[i].file;
    EXPECT_EQ(batched[i]->has_trace, alone->has_trace) << cases[i].file;
    EXPECT_EQ(isa::CheckExpectations(cases[i], *batched[i]).empty(),
              isa::CheckExpectations(cases[i], *alone).empty())
        << cases[i].file;
  }
}

// RunBatch gives every corpus case what Run gives it: the same status, and
// the same [expect] verdict (racy cases may differ in words the
// expectations leave open).
TEST(VulkanTarget, RunBatchAgreesWithRunOnTheCorpus) {
  absl::StatusOr<VkContext*> vk = GetVkContext("");
  if (!vk.ok()) GTEST_SKIP() << vk.status();
  std::vector<isa::Case> cases;
  for (const std::string& f : fuzz::testutil::CorpusCaseFiles()) {
    absl::StatusOr<isa::Case> c = fuzz::testutil::LoadCorpusCase(f);
    ASSERT_TRUE(c.ok()) << c.status();
    cases.push_back(*std::move(c));
  }
  for (BufferUavMode mode : {BufferUavMode::kTexel, BufferUavMode::kSsbo}) {
    SCOPED_TRACE(mode == BufferUavMode::kSsbo ? "ssbo" : "texel");
    ExpectRunBatchAgreesWithRun(mode, cases);
  }
}

// One shader with 64 texel-buffer UAVs (the most a batch binds on lavapipe
// in texel mode): 21 cases of 3 UAVs and the trace log, split back out.
TEST(VulkanTarget, RunsABatchOfSixtyFourTexelBuffers) {
  absl::StatusOr<VkContext*> vk = GetVkContext("");
  if (!vk.ok()) GTEST_SKIP() << vk.status();
  if (DescriptorLimit(**vk, BufferUavMode::kTexel) < 64)
    GTEST_SKIP() << "fewer descriptors";
  std::vector<isa::Case> cases;
  for (uint32_t k = 0; k < 21; ++k) {
    std::string text =
        absl::StrCat("[dispatch]\ngroups ", 1 + k % 3, ", 1, 1\n");
    std::string decls, body;
    for (int u = 0; u < 3; ++u) {
      absl::StrAppend(&text, "[uav u", u, "]\nkind raw\nwords 2\ndata ", k,
                      ", 0\n");
      absl::StrAppend(&decls, "dcl_uav_raw u", u, "\n");
      absl::StrAppend(&body, "atomic_iadd u", u, ", l(4), l(", u + 1, ")\n");
    }
    absl::StatusOr<isa::Case> c = isa::ParseCase(
        absl::StrCat(text, "[shader]\ncs_5_0\n", decls,
                     "dcl_thread_group 4, 1, 1\n", body, "ret\n"));
    ASSERT_TRUE(c.ok()) << c.status();
    cases.push_back(*std::move(c));
  }
  std::vector<const isa::Case*> pointers;
  for (const isa::Case& c : cases) pointers.push_back(&c);
  absl::StatusOr<Batch> batch = BatchCases(pointers);
  ASSERT_TRUE(batch.ok()) << batch.status();
  ASSERT_EQ(batch->combined.resources.size(), 63u);  // the log is the 64th
  std::unique_ptr<Target> target =
      *CreateVulkanTarget({}, BufferUavMode::kTexel);
  absl::StatusOr<isa::Outcome> run = target->Run(batch->combined);
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->status, isa::RunStatus::kOk) << run->message;
  std::vector<isa::Outcome> split = SplitBatchOutcome(*std::move(run), *batch);
  for (uint32_t k = 0; k < 21; ++k) {
    ASSERT_EQ(split[k].uavs.size(), 3u);
    for (uint32_t u = 0; u < 3; ++u) {
      // (1 + k % 3) groups of 4 threads each add u + 1 to word 1.
      EXPECT_EQ(split[k].uavs[u].words,
                (std::vector<uint32_t>{k, 4 * (1 + k % 3) * (u + 1)}))
          << "case " << k << " u" << u;
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
  if (std::string((*vk)->properties.deviceName).find("llvmpipe") ==
      std::string::npos) {
    GTEST_SKIP() << "not lavapipe";
  }
  EXPECT_TRUE((*vk)->robust_buffer_access2);
}

}  // namespace
}  // namespace atomfuzz::targets::vulkan
