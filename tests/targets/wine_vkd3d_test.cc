// --vkd3d=wine's compiler (targets/vulkan/wine_vkd3d.h): the vkd3d-shader
// inside Wine's wined3d.dll, asked through the Windows helper, compiles a
// corpus case to valid SPIR-V in both buffer modes, refuses what is not
// DXBC as vkd3d does, and serves a fork child with a helper of its own.
// Skips, saying why, without Wine or the mingw-built helper.
#include "targets/vulkan/wine_vkd3d.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gtest/gtest.h"
#include "isa/dxbc.h"
#include "targets/vulkan/spirv_disassembly.h"
#include "targets/vulkan/spirv_validation.h"
#include "targets/vulkan/vkd3d_compiler.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::targets::vulkan {
namespace {

#define LOAD_WINE_VKD3D_OR_SKIP(lib)                                     \
  absl::StatusOr<const Vkd3dLibrary*> lib = LoadVkd3d(kWineVkd3d);       \
  if (!lib.ok() && absl::IsFailedPrecondition(lib.status())) {           \
    GTEST_SKIP() << "no vkd3d-shader under Wine here: " << lib.status(); \
  }                                                                      \
  ASSERT_TRUE(lib.ok()) << lib.status()

std::vector<uint8_t> CorpusDxbc(const std::string& file) {
  absl::StatusOr<isa::Case> c = fuzz::testutil::LoadCorpusCase(file);
  EXPECT_TRUE(c.ok()) << c.status();
  if (!c.ok()) return {};
  absl::StatusOr<std::vector<uint8_t>> dxbc = isa::EncodeDxbc(c->shader);
  EXPECT_TRUE(dxbc.ok()) << dxbc.status();
  return dxbc.ok() ? *dxbc : std::vector<uint8_t>{};
}

TEST(WineVkd3d, CompilesToValidSpirvAndNamesItsVersion) {
  LOAD_WINE_VKD3D_OR_SKIP(lib);
  EXPECT_NE((*lib)->version.find("vkd3d-shader 1.6"), std::string::npos)
      << (*lib)->version;
  const std::vector<uint8_t> dxbc =
      CorpusDxbc("corpus/seed/counter-alloc-uav-structured.case");
  const UavBinding uav{0, true, true};
  for (BufferUavMode mode : {BufferUavMode::kTexel, BufferUavMode::kSsbo}) {
    SpirvModule m = CompileDxbcToSpirv(dxbc, {&uav, 1}, mode, **lib);
    ASSERT_TRUE(m.compiler.ok()) << m.compiler;
    ASSERT_TRUE(m.ok) << m.messages;
    EXPECT_EQ(m.words[0], 0x07230203u);  // the SPIR-V magic
    EXPECT_EQ(ValidateSpirv(m.words), std::nullopt);
  }
}

// The request carries the discard mode (ATOMFUZZ_VKD3D_DEMOTE): 1.6 too
// lowers discard to OpKill, or with its demote extension to
// OpDemoteToHelperInvocation.
TEST(WineVkd3d, CarriesTheDiscardMode) {
  LOAD_WINE_VKD3D_OR_SKIP(lib);
  const std::vector<uint8_t> dxbc =
      CorpusDxbc("tests/targets/pixel_cases/discard_around_atomics.case");
  const UavBinding uavs[] = {{0, true, false}, {1, true, false}};
  for (DiscardMode discard : {DiscardMode::kKill, DiscardMode::kDemote}) {
    SpirvModule m =
        CompileDxbcToSpirv(dxbc, uavs, BufferUavMode::kTexel, **lib, discard);
    ASSERT_TRUE(m.compiler.ok()) << m.compiler;
    ASSERT_TRUE(m.ok) << m.messages;
    EXPECT_EQ(ValidateSpirv(m.words), std::nullopt);
    absl::StatusOr<std::string> text = DisassembleSpirv(m.words);
    ASSERT_TRUE(text.ok()) << text.status();
    const bool demote = discard == DiscardMode::kDemote;
    EXPECT_EQ(text->find("OpKill") != std::string::npos, !demote) << *text;
    EXPECT_EQ(text->find("OpDemoteToHelperInvocation") != std::string::npos,
              demote)
        << *text;
  }
}

TEST(WineVkd3d, RefusesWhatIsNotDxbcAsVkd3dDoes) {
  LOAD_WINE_VKD3D_OR_SKIP(lib);
  const std::vector<uint8_t> junk(64, 0x5a);
  SpirvModule m = CompileDxbcToSpirv(junk, {}, BufferUavMode::kTexel, **lib);
  EXPECT_TRUE(m.compiler.ok()) << m.compiler;  // a refusal, not a crash
  EXPECT_FALSE(m.ok);
  EXPECT_FALSE(m.messages.empty());
}

// The vulkan targets compile in a fork-server child: the child must not
// write to its parent's helper, and the parent's helper must outlive the
// child's.
TEST(WineVkd3d, AForkChildCompilesWithAHelperOfItsOwn) {
  LOAD_WINE_VKD3D_OR_SKIP(lib);
  const std::vector<uint8_t> dxbc =
      CorpusDxbc("corpus/seed/all-atomics-uav-raw.case");
  const UavBinding uav{0, true, false};
  ASSERT_TRUE(
      CompileDxbcToSpirv(dxbc, {&uav, 1}, BufferUavMode::kTexel, **lib).ok);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const bool ok =
        CompileDxbcToSpirv(dxbc, {&uav, 1}, BufferUavMode::kTexel, **lib).ok;
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  SpirvModule again =
      CompileDxbcToSpirv(dxbc, {&uav, 1}, BufferUavMode::kSsbo, **lib);
  EXPECT_TRUE(again.ok) << again.compiler << again.messages;
}

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    const char* old = getenv(name);
    had_ = old != nullptr;
    if (had_) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (had_) {
      setenv(name_, old_.c_str(), 1);
    } else {
      unsetenv(name_);
    }
  }

 private:
  const char* name_;
  bool had_ = false;
  std::string old_;
};

TEST(WineVkd3d, AMissingHelperIsAClearError) {
  ScopedEnv env("ATOMFUZZ_WINE_VKD3D", "/nonexistent/vkd3d_compile_server.exe");
  absl::StatusOr<std::unique_ptr<Vkd3dLibrary>> lib = StartWineVkd3d();
  ASSERT_FALSE(lib.ok());
  EXPECT_EQ(lib.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(lib.status().message().rfind("--vkd3d=wine: ", 0), 0u)
      << lib.status();
}

// The vulkan target makes Unavailable a crash outcome, as it does for the
// linked vkd3d's crashes, which kill its fork child.
TEST(WineVkd3d, AHelperThatDiesWhileCompilingIsNotARefusal) {
#ifndef CRASHING_VKD3D_HELPER
  GTEST_SKIP() << "no mingw-w64: the crashing helper was not built";
#else
  ScopedEnv env("ATOMFUZZ_WINE_VKD3D", CRASHING_VKD3D_HELPER);
  absl::StatusOr<std::unique_ptr<Vkd3dLibrary>> lib = StartWineVkd3d();
  if (!lib.ok() && absl::IsFailedPrecondition(lib.status()))
    GTEST_SKIP() << "no Wine here: " << lib.status();
  ASSERT_TRUE(lib.ok()) << lib.status();
  EXPECT_EQ((*lib)->version, "vkd3d-shader 0.0 (crashes)");
  const std::vector<uint8_t> dxbc =
      CorpusDxbc("corpus/seed/all-atomics-uav-raw.case");
  SpirvModule m = CompileDxbcToSpirv(dxbc, {}, BufferUavMode::kTexel, **lib);
  EXPECT_FALSE(m.ok);
  EXPECT_TRUE(absl::IsUnavailable(m.compiler)) << m.compiler;
  EXPECT_NE(m.compiler.message().find("the Wine vkd3d helper died"),
            std::string::npos)
      << m.compiler;
#endif
}

}  // namespace
}  // namespace atomfuzz::targets::vulkan
