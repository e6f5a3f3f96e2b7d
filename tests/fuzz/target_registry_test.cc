// A new target is one row of the registration table and its own code: here a
// target that lives in this test alone, registered at run time, reached by
// name through the same path as the CLI and campaigns (fuzz::MakeTarget),
// listed with the others, refused options it does not take, and judged.
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <string>

#include "fuzz/differential.h"
#include "fuzz/runner.h"
#include "gtest/gtest.h"
#include "targets/registry.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

// Runs nothing: every UAV keeps its initial words and counter. A broken
// executor of the simplest kind, which the judge must catch.
class NothingTarget : public targets::Target {
 public:
  absl::string_view name() const override { return "test-nothing"; }
  absl::StatusOr<isa::Outcome> Run(const isa::Case& c) override {
    isa::Outcome o;
    for (const isa::Resource& r : c.resources) {
      isa::UavState u;
      u.slot = r.slot;
      u.words = r.init;
      u.defined.assign(r.init.size(), true);
      u.counter = r.counter;
      o.uavs.push_back(std::move(u));
    }
    std::sort(o.uavs.begin(), o.uavs.end(),
              [](const isa::UavState& a, const isa::UavState& b) {
                return a.slot < b.slot;
              });
    return o;
  }
};

void RegisterNothing() {
  targets::RegisterTarget(
      {"test-nothing",
       false,
       "test-nothing",
       "runs nothing (a test's own target)",
       {},
       [](const std::string&, const targets::TargetOptions&) {
         return absl::StatusOr<std::unique_ptr<targets::Target>>(
             std::make_unique<NothingTarget>());
       }});
}

TEST(TargetRegistry, ATargetRegisteredInATestIsReachedByName) {
  RegisterNothing();
  const std::vector<std::string> names = TargetNames();
  EXPECT_NE(std::find(names.begin(), names.end(), "test-nothing"), names.end());
  EXPECT_EQ(names.front(),
            "oracle");  // the oracle's row first, then the table's

  RunOptions run;
  run.target = "test-nothing";
  absl::StatusOr<std::unique_ptr<targets::Target>> t = MakeTarget(run);
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ((*t)->name(), "test-nothing");

  // A case whose atomics change memory: doing nothing is a divergence.
  absl::StatusOr<isa::Case> c =
      testutil::LoadCorpusCase("corpus/seed/counter-alloc-uav-structured.case");
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<Differential> d = RunAndJudge(*c, **t);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->verdict.kind, oracle::Verdict::Kind::kDivergence)
      << d->verdict.Summary();
}

TEST(TargetRegistry, OptionsARowDoesNotTakeAreRefused) {
  RegisterNothing();
  RunOptions run;
  run.target = "test-nothing";
  run.target_options.flags["inject"] = "return-new";
  absl::StatusOr<std::unique_ptr<targets::Target>> t = MakeTarget(run);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().message(),
            "--inject applies to --target=fast only, not 'test-nothing'");
  run.target_options.flags.clear();
  run.target_options.flags["vk_device"] = "llvmpipe";
  EXPECT_FALSE(MakeTarget(run).ok());
  run.target = "no-such-target";
  run.target_options.flags.clear();
  t = MakeTarget(run);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find(
                "known: oracle, fast, vulkan, vulkan-ssbo, vulkan-demote, "
                "wine-d3d11-gl, wine-d3d11-vk, ext:PATH.so"),
            std::string::npos)
      << t.status();
}

// A target's own option is a flag its row names: the row's factory gets it
// by name, and nothing outside the row and the target's code changes.
TEST(TargetRegistry, ATargetsOwnFlagReachesOnlyItsFactory) {
  std::string seen = "(not called)";
  targets::RegisterTarget(
      {"test-flagged",
       false,
       "test-flagged",
       "records its --vk-device (a test's own target)",
       {"vk_device"},
       [&seen](const std::string&, const targets::TargetOptions& o) {
         seen = o.Flag("vk_device");
         return absl::StatusOr<std::unique_ptr<targets::Target>>(
             std::make_unique<NothingTarget>());
       }});
  RunOptions run;
  run.target = "test-flagged";
  run.target_options.flags["vk_device"] = "a test device";
  ASSERT_TRUE(MakeTarget(run).ok());
  EXPECT_EQ(seen, "a test device");
  // Its flag is refused on a row that does not name it, and the message
  // lists every row that does.
  run.target = "fast";
  absl::StatusOr<std::unique_ptr<targets::Target>> t = MakeTarget(run);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("--vk-device applies to --target="),
            std::string::npos)
      << t.status();
  EXPECT_NE(t.status().message().find("test-flagged"), std::string::npos)
      << t.status();
}

// --vkd3d=PATH: the vulkan targets compile with a libvkd3d-shader opened
// at run time, and name its version and path as their executor.
TEST(TargetRegistry, TheVulkanTargetsTakeTheirOwnVkd3d) {
  std::string lib;
  for (const char* p : {"/lib/x86_64-linux-gnu/libvkd3d-shader.so.1",
                        "/usr/lib/x86_64-linux-gnu/libvkd3d-shader.so.1"}) {
    if (access(p, R_OK) == 0) lib = p;
  }
  if (lib.empty()) GTEST_SKIP() << "no libvkd3d-shader.so.1 at a known path";
  RunOptions run;
  run.target = "vulkan";
  run.target_options.flags["vkd3d"] = lib;
  absl::StatusOr<std::unique_ptr<targets::Target>> t = MakeTarget(run);
  ASSERT_TRUE(t.ok()) << t.status();
  const std::string described = (*t)->Describe();
  EXPECT_NE(described.find("vkd3d-shader 1."), std::string::npos) << described;
  EXPECT_NE(described.find(" from " + lib), std::string::npos) << described;

  run.target_options.flags["vkd3d"] = "/nonexistent/libvkd3d-shader.so";
  t = MakeTarget(run);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(t.status().message().find("--vkd3d=/nonexistent"),
            std::string::npos);
}

}  // namespace
}  // namespace atomfuzz::fuzz
