// Generalisation before bucketing: the edits that must not change what a
// case computes do not (a correct target stays allowed on every corpus
// case), and reduced findings of injected bugs get the essential signature
// and trigger that name what the bug needs, whatever incidental opcode,
// memory or component the case that found it had.
#include "fuzz/triage/generalise.h"

#include <memory>
#include <string>

#include "absl/strings/str_join.h"
#include "fuzz/differential.h"
#include "fuzz/reduce/reducer.h"
#include "fuzz/runner.h"
#include "fuzz/triage/generalise_edits.h"
#include "fuzz/triage/memory_conversion.h"
#include "gtest/gtest.h"
#include "isa/validator.h"
#include "tests/fuzz/corpus_files.h"
#include "tests/fuzz/fast_testing.h"

namespace atomfuzz::fuzz {
namespace {

RunOptions Fast(const std::string& inject) {
  RunOptions o;
  o.target = "fast";
  o.target_options.flags["inject"] = inject;
  return ReproducibleOptions(o);
}

// The edit keeps the case valid and, on a correct target, not divergent.
void ExpectSound(const isa::Case& v, targets::Target& fast,
                 const std::string& what) {
  ASSERT_TRUE(isa::Validate(v).ok()) << what << ": " << isa::Validate(v) << "\n"
                                     << isa::PrintCase(v);
  absl::StatusOr<Differential> d = RunAndJudge(v, fast);
  ASSERT_TRUE(d.ok()) << what << ": " << d.status();
  EXPECT_NE(d->verdict.kind, oracle::Verdict::Kind::kDivergence)
      << what << ": " << d->verdict.Summary() << "\n"
      << isa::PrintCase(v);
}

TEST(GeneraliseEdits, KeepEveryCorpusCaseAllowedOnACorrectTarget) {
  auto fast = MakeTarget(Fast(""));
  ASSERT_TRUE(fast.ok()) << fast.status();
  int edits = 0;
  for (const std::string& file : testutil::CorpusCaseFiles()) {
    absl::StatusOr<isa::Case> c = testutil::LoadCorpusCase(file);
    ASSERT_TRUE(c.ok()) << c.status();
    for (size_t at : AtomicInstructions(c->shader)) {
      for (int k = 0; k < 4; ++k) {
        if (auto v = WithDstComponent(*c, at, k, 0xa5e1f00d)) {
          ExpectSound(*v, **fast, file + " dst0 edit");
          ++edits;
        }
      }
      for (MemoryVariant& m : WithOtherMemory(*c, at)) {
        ExpectSound(m.c, **fast, file + " memory as " + m.kind);
        ++edits;
      }
    }
    for (size_t at = 0; at < c->shader.instructions.size(); ++at) {
      if (auto v = WithFolded(*c, at)) {
        ExpectSound(*v, **fast, file + " folded");
        ++edits;
      }
    }
  }
  // Most corpus cases have an atomic whose memory converts.
  EXPECT_GT(edits, 300);
}

TEST(GeneraliseEdits, FoldingPutsTheSpecsValuesInPlace) {
  const isa::Case c = testutil::Parse(R"([uav u0]
kind raw
words 2
[shader]
cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1, 1, 1
movc r0.x, l(0), l(0xbf800000), l(0)
iadd r0.y, l(2), l(3)
store_raw u0.xy, l(0), r0.xyxx
ret
)");
  std::optional<isa::Case> movc = WithFolded(c, 3);
  std::optional<isa::Case> iadd = WithFolded(c, 4);
  ASSERT_TRUE(movc && iadd);
  EXPECT_EQ(movc->shader.instructions[3].op, isa::Op::kMov);
  EXPECT_EQ(movc->shader.instructions[3].operands[1].values[0], 0u);
  EXPECT_EQ(iadd->shader.instructions[4].operands[1].values[1], 5u);
  EXPECT_FALSE(WithFolded(c, 5).has_value());  // a store
  EXPECT_TRUE(ConstantlyOutOfBounds(testutil::Parse(R"([uav u0]
kind raw
words 2
[shader]
cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1, 1, 1
mov r0.x, l(8)
store_raw u0.x, r0.x, l(1)
ret
)"),
                                    4));
}

TEST(GeneraliseEdits, OnlyThreadLeavesOneThreadRunning) {
  const isa::Case c = testutil::Parse(R"([dispatch]
groups 2, 1, 1
[uav u0]
kind raw
words 1
[shader]
cs_5_0
dcl_uav_raw u0
dcl_thread_group 2, 1, 1
atomic_iadd u0, l(0), l(1)
ret
)");
  for (uint64_t k = 0; k < 4; ++k) {
    std::optional<isa::Case> v = WithOnlyThread(c, k);
    ASSERT_TRUE(v.has_value());
    ASSERT_TRUE(isa::Validate(*v).ok()) << isa::PrintCase(*v);
    RunOptions o;
    o.target = "oracle";
    absl::StatusOr<isa::Outcome> out = RunCase(*v, o);
    ASSERT_TRUE(out.ok()) << out.status();
    ASSERT_EQ(out->uavs.size(), 1u);
    EXPECT_EQ(out->uavs[0].words[0], 1u) << "thread " << k;
  }
  EXPECT_FALSE(WithOnlyThread(c, 4).has_value());
}

struct Expected {
  const char* inject;
  const char* text;
  const char* key;         // opcode|resource|address|divergence
  const char* conditions;  // the key's conditions
  const char* trigger;     // a phrase the trigger must contain
};

// Reduced cases as campaigns saved them (their incidental features: a
// Texture1DArray, a cmp_exch, dst0 in .z ...).
const Expected kCases[] = {
    {"dst0-wrong-component", R"([uav u0]
kind typed
dim texture1darray
format r32_uint
size 1, 1
data 1
[uav u2]
kind raw
words 3
[shader]
cs_5_0
dcl_uav_typed_texture1darray (uint,uint,uint,uint) u0
dcl_uav_raw u2
dcl_temps 5
dcl_thread_group 1, 1, 1
imm_atomic_imax r4.z, u0, l(0, 0, 0, 0), l(0)
store_raw u2.xyzw, l(0), r4.xyzw
ret
)",
     "*|*|*|wrong-value", "dst!=x", "dst0 is a component other than x"},
    {"xor-as-or", R"([uav u0]
kind structured
stride 8
elements 2
data 3, 5, 7, 9
[shader]
cs_5_0
dcl_uav_structured u0, 8
dcl_temps 1
dcl_thread_group 1, 1, 1
imm_atomic_xor r0.y, u0, l(1, 4, 0, 0), l(15)
ret
)",
     "xor|*|*|wrong-value", "", "atomic_xor or imm_atomic_xor"},
    {"imax-unsigned", R"([uav u0]
kind typed
dim texture2d
format r32_sint
size 2, 2
data 1, 2, 3, 4
[shader]
cs_5_0
dcl_uav_typed_texture2d (sint,sint,sint,sint) u0
dcl_thread_group 1, 1, 1
atomic_imax u0, l(1, 1, 0, 0), l(-1)
ret
)",
     "imax+imin|*|*|wrong-value", "", "imm_atomic_imin"},
    {"tex2d-y-ignored", R"([uav u0]
kind typed
dim texture2d
format r32_uint
size 2, 2
data 1, 2, 3, 4
[shader]
cs_5_0
dcl_uav_typed_texture2d (uint,uint,uint,uint) u0
dcl_thread_group 1, 1, 1
atomic_iadd u0, l(1, 1, 0, 0), l(16)
ret
)",
     "*|u-typed|*|wrong-value", "", "this case's memory: u-tex2d"},
    {"return-new", R"([uav u0]
kind raw
words 1
data 5
[uav u1]
kind raw
words 1
[shader]
cs_5_0
dcl_uav_raw u0
dcl_uav_raw u1
dcl_temps 1
dcl_thread_group 1, 1, 1
imm_atomic_or r0.x, u0, l(0), l(2)
store_raw u1.x, l(0), r0.x
ret
)",
     "*|*|*|wrong-value", "",
     "the value after the operation instead of before"},
    {"oob-wrap", R"([uav u0]
kind raw
words 2
data 1, 2
[shader]
cs_5_0
dcl_uav_raw u0
dcl_thread_group 1, 1, 1
atomic_iadd u0, l(8), l(16)
ret
)",
     "*|*|out-of-bounds|wrong-value", "", "out of bounds"},
    // The same bug as the xor-as-or case above, met on other memory by
    // another form: the same essential signature.
    {"xor-as-or", R"([uav u0]
kind raw
words 1
[shader]
cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_tgsm_raw g0, 8
dcl_thread_group 1, 1, 1
store_raw g0.xy, l(0), l(6, 6, 0, 0)
atomic_xor g0, l(4), l(3)
ld_raw r0.x, l(4), g0.xxxx
store_raw u0.x, l(0), r0.x
ret
)",
     "xor|*|*|wrong-value", "", "atomic_xor or imm_atomic_xor"},
};

TEST(Generalise, ReducedFindingsOfInjectedBugsGetTheirEssentialSignature) {
  for (const Expected& e : kCases) {
    SCOPED_TRACE(e.inject);
    const isa::Case c = testutil::Parse(e.text);
    const RunOptions options = Fast(e.inject);
    auto target = MakeTarget(options);
    ASSERT_TRUE(target.ok()) << target.status();
    absl::StatusOr<Differential> d = RunAndJudge(c, **target);
    ASSERT_TRUE(d.ok()) << d.status();
    ASSERT_EQ(d->verdict.kind, oracle::Verdict::Kind::kDivergence);
    absl::StatusOr<Signature> found = SignatureOf(c, *d, TargetLabel(options));
    ASSERT_TRUE(found.ok()) << found.status();
    const Generalised g = Generalise(c, *found, **target);
    const Signature& s = g.signature;
    EXPECT_EQ(
        absl::StrJoin({s.opcode, s.resource, s.address, s.divergence}, "|"),
        e.key)
        << s.Key();
    EXPECT_EQ(s.conditions, e.conditions) << s.Key();
    EXPECT_NE(g.trigger.find(e.trigger), std::string::npos) << g.trigger;
    EXPECT_TRUE(g.complete);
    EXPECT_GT(g.runs, 0);
  }
}

TEST(Generalise, ACrashIsKeptAsItIs) {
  Signature s;
  s.divergence = "rejected";
  s.target = "vulkan";
  s.cause = "vkd3d-shader:-Unrecognized-opcode-N";
  const isa::Case c = testutil::Parse(kCases[0].text);
  auto target = MakeTarget(Fast(""));
  ASSERT_TRUE(target.ok()) << target.status();
  const Generalised g = Generalise(c, s, **target);
  EXPECT_EQ(g.signature, s);
  EXPECT_EQ(g.runs, 0);
  EXPECT_NE(g.trigger.find("Unrecognized-opcode"), std::string::npos);
}

}  // namespace
}  // namespace atomfuzz::fuzz
