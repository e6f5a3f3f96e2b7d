// The Vulkan targets draw ps_5_0 cases (targets/vulkan/vk_draw.h): on
// lavapipe (or the first device) every pixel case ends with the oracle's
// memory and trace, and the judge allows it, with discard as OpKill
// (vulkan) and as OpDemoteToHelperInvocationEXT (vulkan-demote). Skips
// without a Vulkan device.
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/raster.h"
#include "targets/trace_instrumentation.h"
#include "targets/vulkan/case_shader.h"
#include "targets/vulkan/spirv_disassembly.h"
#include "targets/vulkan/spirv_validation.h"
#include "targets/vulkan/vertex_shader.h"
#include "targets/vulkan/vk_context.h"
#include "targets/vulkan/vk_draw.h"
#include "targets/vulkan/vulkan_target.h"
#include "tests/targets/pixel_testing.h"

namespace atomfuzz::targets::vulkan {
namespace {

TEST(VulkanPixel, TheVertexShaderIsValidSpirv) {
  EXPECT_EQ(ValidateSpirv(PassThroughVertexShader()), std::nullopt);
}

// Exact clip coordinates: the device's viewport transform gives the
// vertex back to the bit, so the rasterizer sees the case's own grid.
TEST(VulkanPixel, ClipPositionsAreExact) {
  for (int32_t v : {-64 * 256, -1, 0, 1, 255, 256, 12345, 128 * 256}) {
    const std::array<float, 4> p = ClipPosition({v, -v});
    EXPECT_EQ((p[0] + 1.0f) * 256.0f - 128.0f, static_cast<float>(v) / 256.0f);
    EXPECT_EQ((p[1] + 1.0f) * 256.0f - 128.0f, static_cast<float>(-v) / 256.0f);
    EXPECT_GE(p[0], -1.0f);
    EXPECT_LE(p[0], 1.0f);
    EXPECT_EQ(p[2], 0.0f);
    EXPECT_EQ(p[3], 1.0f);
  }
}

// vkd3d 1.2 lowers discard_nz to OpKill by default and, with its
// demote extension, to OpDemoteToHelperInvocationEXT; both are valid
// SPIR-V (CompileCase runs spirv-val), with the instrumented record too.
TEST(VulkanPixel, DiscardBecomesKillOrDemote) {
  absl::StatusOr<isa::Case> c = testutil::LoadPixelCase(
      "tests/targets/pixel_cases/discard_around_atomics.case");
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(*c);
  ASSERT_TRUE(ic.ok()) << ic.status();
  for (DiscardMode mode : {DiscardMode::kKill, DiscardMode::kDemote}) {
    const CaseShader shader = CompileCase(
        ic->instrumented, BufferUavMode::kTexel, LinkedVkd3d(), mode);
    ASSERT_TRUE(shader.compiler.ok()) << shader.compiler;
    ASSERT_FALSE(shader.refused) << shader.refused->message;
    absl::StatusOr<std::string> text = DisassembleSpirv(shader.spirv);
    ASSERT_TRUE(text.ok()) << text.status();
    const bool demote = mode == DiscardMode::kDemote;
    EXPECT_EQ(text->find("OpKill") != std::string::npos, !demote) << *text;
    EXPECT_EQ(text->find("OpDemoteToHelperInvocation") != std::string::npos,
              demote)
        << *text;
    EXPECT_NE(text->find("OriginUpperLeft"), std::string::npos) << *text;
  }
}

class VulkanPixelCases : public ::testing::TestWithParam<DiscardMode> {};

TEST_P(VulkanPixelCases, AgreeWithTheOracle) {
  absl::StatusOr<VkContext*> vk = GetVkContext("");
  if (!vk.ok()) GTEST_SKIP() << vk.status();
  if (GetParam() == DiscardMode::kDemote && !(*vk)->demote_to_helper)
    GTEST_SKIP() << "no demote-to-helper on " << (*vk)->properties.deviceName;
  absl::StatusOr<std::unique_ptr<Target>> target =
      CreateVulkanTarget({}, BufferUavMode::kTexel, GetParam());
  ASSERT_TRUE(target.ok()) << target.status();
  const std::vector<std::string> files = testutil::PixelCaseFiles();
  ASSERT_GE(files.size(), 5u);
  for (const std::string& f : files) {
    absl::StatusOr<isa::Case> c = testutil::LoadPixelCase(f);
    ASSERT_TRUE(c.ok()) << f << ": " << c.status();
    absl::StatusOr<isa::Outcome> o = (*target)->Run(*c);
    ASSERT_TRUE(o.ok()) << f << ": " << o.status();
    testutil::ExpectAgreesWithOracle(*c, *o, f);
  }
}

INSTANTIATE_TEST_SUITE_P(Discard, VulkanPixelCases,
                         ::testing::Values(DiscardMode::kKill,
                                           DiscardMode::kDemote),
                         [](const auto& info) {
                           return info.param == DiscardMode::kKill
                                      ? std::string("Kill")
                                      : std::string("Demote");
                         });

// Pixel cases never share a draw: RunBatch runs each alone, as Run does.
TEST(VulkanPixel, RunBatchRunsEachPixelCaseAlone) {
  absl::StatusOr<VkContext*> vk = GetVkContext("");
  if (!vk.ok()) GTEST_SKIP() << vk.status();
  std::vector<isa::Case> cases;
  for (const std::string& f : testutil::PixelCaseFiles()) {
    absl::StatusOr<isa::Case> c = testutil::LoadPixelCase(f);
    ASSERT_TRUE(c.ok()) << f << ": " << c.status();
    cases.push_back(*std::move(c));
  }
  std::unique_ptr<Target> target =
      *CreateVulkanTarget({}, BufferUavMode::kSsbo);
  const std::vector<absl::StatusOr<isa::Outcome>> out = target->RunBatch(cases);
  ASSERT_EQ(out.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    ASSERT_TRUE(out[i].ok()) << out[i].status();
    testutil::ExpectAgreesWithOracle(cases[i], *out[i],
                                     absl::StrCat("batch member ", i));
  }
}

// A framebuffer of 4 samples per pixel at pixel frequency: one invocation
// per pixel that has any covered sample, however many it has.
TEST(VulkanPixel, PixelFrequencyRunsOncePerPixel) {
  absl::StatusOr<VkContext*> vk = GetVkContext("");
  if (!vk.ok()) GTEST_SKIP() << vk.status();
  absl::StatusOr<isa::Case> c = isa::ParseCase(R"([draw]
framebuffer 5, 5
samples 4
triangle 0.25 0.25, 5.125 0.25, 0.25 5.125

[uav u0]
kind raw
words 1

[shader]
ps_5_0
dcl_uav_raw u0
dcl_temps 1
imm_atomic_iadd r0.x, u0, l(0), l(1)
ret
)");
  ASSERT_TRUE(c.ok()) << c.status();
  std::unique_ptr<Target> target =
      *CreateVulkanTarget({}, BufferUavMode::kTexel);
  absl::StatusOr<isa::Outcome> o = target->Run(*c);
  ASSERT_TRUE(o.ok()) << o.status();
  ASSERT_EQ(o->status, isa::RunStatus::kOk) << o->message;
  EXPECT_EQ(o->uavs[0].words[0], isa::Rasterize(c->draw).size());
  testutil::ExpectAgreesWithOracle(*c, *o, "pixel frequency");
}

}  // namespace
}  // namespace atomfuzz::targets::vulkan
