#include "tests/fuzz/fast_testing.h"

#include <numeric>

#include "absl/strings/str_cat.h"
#include "fuzz/runner.h"
#include "gtest/gtest.h"
#include "isa/validator.h"
#include "oracle/judge.h"

namespace atomfuzz::fuzz::testutil {

isa::Case Parse(const std::string& text) {
  absl::StatusOr<isa::Case> c = isa::ParseCase(text, "fast_target_test.case");
  EXPECT_TRUE(c.ok()) << c.status();
  if (!c.ok()) return {};
  const absl::Status valid = isa::Validate(*c);
  EXPECT_TRUE(valid.ok()) << valid << "\n" << text;
  return *std::move(c);
}

isa::Outcome RunOn(const isa::Case& c, const std::string& target,
                   const Fast& f) {
  RunOptions o;
  o.target = target;
  o.target_options.deterministic = f.deterministic;
  o.target_options.threads = f.threads;
  o.target_options.max_steps_per_wave = f.max_steps;
  o.target_options.max_steps_per_thread = f.max_steps_per_thread;
  if (!f.inject.empty()) o.target_options.flags["inject"] = f.inject;
  absl::StatusOr<isa::Outcome> out = RunCase(c, o);
  EXPECT_TRUE(out.ok()) << out.status();
  return out.ok() ? *std::move(out) : isa::Outcome{};
}

isa::Outcome RunFast(const isa::Case& c, const Fast& f) {
  isa::Outcome o = RunOn(c, "fast", f);
  EXPECT_EQ(o.status, isa::RunStatus::kOk) << o.message;
  return o;
}

void ExpectAllowed(const isa::Case& c, const isa::Outcome& o) {
  absl::StatusOr<oracle::Verdict> v = oracle::Judge(c, o);
  ASSERT_TRUE(v.ok()) << v.status();
  EXPECT_EQ(v->kind, oracle::Verdict::Kind::kAllowed) << v->Summary();
}

void ExpectMatchesOracle(const isa::Outcome& fast, const isa::Outcome& oracle,
                         size_t min_defined) {
  ASSERT_EQ(fast.uavs.size(), oracle.uavs.size());
  size_t defined = 0;
  for (size_t u = 0; u < oracle.uavs.size(); ++u) {
    const isa::UavState& want = oracle.uavs[u];
    const isa::UavState& got = fast.uavs[u];
    ASSERT_EQ(got.slot, want.slot);
    ASSERT_EQ(got.words.size(), want.words.size());
    for (size_t i = 0; i < want.words.size(); ++i) {
      if (!want.defined[i]) continue;
      ++defined;
      EXPECT_EQ(got.words[i], want.words[i])
          << "u" << want.slot << "[" << i << "]";
    }
  }
  EXPECT_GE(defined, min_defined);
}

std::string CaseText(int groups, int threads, const std::string& uavs,
                     const std::string& decls, const std::string& body) {
  return absl::StrCat("[dispatch]\ngroups ", groups, ", 1, 1\n", uavs,
                      "[shader]\ncs_5_0\n", decls, "dcl_thread_group ", threads,
                      ", 1, 1\n", body, "ret\n");
}

std::string RawUav(int slot, int words, const std::string& data) {
  return absl::StrCat("[uav u", slot, "]\nkind raw\nwords ", words, "\n",
                      data.empty() ? "" : absl::StrCat("data ", data, "\n"));
}

std::vector<uint32_t> Ramp(uint32_t start, size_t n) {
  std::vector<uint32_t> v(n);
  std::iota(v.begin(), v.end(), start);
  return v;
}

uint32_t InstructionIndex(const isa::Case& c, absl::string_view mnemonic,
                          int nth) {
  const auto& code = c.shader.instructions;
  for (uint32_t i = 0; i < code.size(); ++i) {
    if (code[i].info().mnemonic == mnemonic && nth-- == 0) return i;
  }
  ADD_FAILURE() << "no " << mnemonic;
  return 0;
}

}  // namespace atomfuzz::fuzz::testutil
