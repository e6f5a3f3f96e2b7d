// The external target on examples/simple_executor (built by CMake; its path
// comes as SIMPLE_EXECUTOR_PATH).
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "isa/dxbc.h"
#include "oracle/judge.h"
#include "targets/registry.h"

namespace atomfuzz::targets {
namespace {

const std::string kLibrary = SIMPLE_EXECUTOR_PATH;

isa::Case Load(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  absl::StatusOr<isa::Case> c = isa::ParseCase(text.str(), path);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : isa::Case{};
}

TEST(ExternalTarget, SimpleExecutorIsAllowedOnCorpusCases) {
  auto target = CreateTarget("ext:" + kLibrary, TargetOptions{});
  ASSERT_TRUE(target.ok()) << target.status();
  int judged = 0;
  for (const char* name :
       {"corpus/seed/all-atomics-uav-raw.case",
        "corpus/seed/all-atomics-tgsm-structured.case",
        "corpus/seed/all-atomics-tex3d.case",
        "corpus/seed/counter-alloc-consume-two-uavs.case",
        "corpus/seed/e25-iadd-n-threads-tgsm.case",
        "corpus/seed/loop-exch-occurrences-uav-structured.case",
        "corpus/seed/sync-ugroup-g-t-tgsm-tex3d.case",
        "corpus/spec/e26-exch-chains.case"}) {
    const isa::Case c = Load(name);
    absl::StatusOr<isa::Outcome> o = (*target)->Run(c);
    ASSERT_TRUE(o.ok()) << name << ": " << o.status();
    ASSERT_EQ(o->status, isa::RunStatus::kOk) << name << ": " << o->message;
    EXPECT_TRUE(o->has_trace);
    absl::StatusOr<oracle::Verdict> v =
        oracle::Judge(c, *o, oracle::JudgeOptions{});
    ASSERT_TRUE(v.ok()) << name << ": " << v.status();
    EXPECT_EQ(v->kind, oracle::Verdict::Kind::kAllowed)
        << name << ": " << v->Summary();
    ++judged;
  }
  EXPECT_EQ(judged, 8);
}

// What an external translator is given: the case's shader as DXBC, which
// decodes back to the very program (tests/targets/dxbc_probe_executor.c
// writes it to a file).
TEST(ExternalTarget, TheLibraryGetsTheShaderAsDxbc) {
  const std::string out = ::testing::TempDir() + "/probe.dxbc";
  std::remove(out.c_str());
  auto target = CreateTarget(std::string("ext:") + DXBC_PROBE_PATH + ":" + out,
                             TargetOptions{});
  ASSERT_TRUE(target.ok()) << target.status();
  for (const char* name : {"corpus/seed/all-atomics-uav-raw.case",
                           "corpus/seed/counter-alloc-consume-two-uavs.case",
                           "corpus/spec/e26-exch-chains.case"}) {
    const isa::Case c = Load(name);
    absl::StatusOr<isa::Outcome> o = (*target)->Run(c);
    ASSERT_TRUE(o.ok()) << name << ": " << o.status();
    EXPECT_EQ(o->status, isa::RunStatus::kRejected) << name;
    std::ifstream in(out, std::ios::binary);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                                     std::istreambuf_iterator<char>());
    ASSERT_FALSE(bytes.empty()) << name << ": " << o->message;
    EXPECT_EQ(o->message, absl::StrCat("dxbc ", bytes.size(), " bytes, ",
                                       bytes.size(), " written"));
    absl::StatusOr<isa::Program> decoded = isa::DecodeDxbc(bytes);
    ASSERT_TRUE(decoded.ok()) << name << ": " << decoded.status();
    EXPECT_TRUE(*decoded == c.shader) << name;
  }
}

TEST(ExternalTarget, CrashingLibraryIsAFindingNotTheEnd) {
  auto target = CreateTarget("ext:" + kLibrary + ":crash", TargetOptions{});
  ASSERT_TRUE(target.ok()) << target.status();
  absl::StatusOr<isa::Outcome> o =
      (*target)->Run(Load("corpus/seed/imm_atomic_cmp_exch-uav.case"));
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->status, isa::RunStatus::kCrashed);
  EXPECT_TRUE(absl::StartsWith(o->message, "killed by signal 11 (SIGSEGV)"))
      << o->message;
  o = (*target)->Run(Load("corpus/seed/atomic_or-uav.case"));  // no cmp_exch
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->status, isa::RunStatus::kOk) << o->message;
}

TEST(ExternalTarget, BadNamesAndOptionsAreInvalidArguments) {
  for (const std::string& name :
       {std::string("ext:"), std::string("ext:/no/such/lib.so"),
        "ext:" + kLibrary + ":frob"}) {
    auto target = CreateTarget(name, TargetOptions{});
    EXPECT_EQ(target.status().code(), absl::StatusCode::kInvalidArgument)
        << name;
  }
  auto target = CreateTarget("ext:" + kLibrary + ":frob", TargetOptions{});
  EXPECT_NE(target.status().message().find("unknown option 'frob'"),
            absl::string_view::npos)
      << target.status();
}

}  // namespace
}  // namespace atomfuzz::targets
