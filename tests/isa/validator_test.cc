// The validator's rules, one minimal case per rule: each case is valid except
// for one violation and must produce exactly one diagnostic, spelled out in
// full. A meta-test keeps the table in step with AllRules(). Then the
// case-level checks (binding, counters, expectations, dispatch) in detail.
#include "isa/validator.h"

#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"

namespace atomfuzz::isa {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Every diagnostic of validating `text`, read as the case file "t.case".
std::vector<std::string> Diagnose(absl::string_view text) {
  absl::StatusOr<Case> c = ParseCase(text, "t.case");
  if (!c.ok()) return {absl::StrCat("parse error: ", c.status().message())};
  DiagnosticSink sink("t.case");
  ValidateCase(*c, sink);
  std::vector<std::string> out;
  for (const Diagnostic& d : sink.diagnostics()) out.push_back(d.Render());
  return out;
}

struct RuleCase {
  absl::string_view rule;
  absl::string_view text;        // line 1 is the first line
  absl::string_view diagnostic;  // the only one expected
};

// Kept in AllRules() order; RuleTableTest.EveryRuleHasACase checks it.
constexpr RuleCase kRuleCases[] = {
    {"decl-before-use", R"([shader]
cs_5_0
dcl_temps 1
dcl_thread_group 4, 1, 1
mov r1.x, l(0)
ret
)",
     "t.case:5:1: expected a register below dcl_temps 1, found 'r1.x' "
     "[decl-before-use, spec 3.1, 1.8]"},
    {"decl-order", R"([shader]
cs_5_0
dcl_temps 1
mov r0.x, l(0)
dcl_thread_group 4, 1, 1
ret
)",
     "t.case:5:1: expected declarations before the first instruction, found "
     "'dcl_thread_group 4, 1, 1' [decl-order, spec 3.1]"},
    {"decl-duplicate", R"([uav u0]
kind raw
words 4
[shader]
cs_5_0
dcl_uav_raw u0
dcl_uav_raw u0
dcl_thread_group 4, 1, 1
atomic_iadd u0, l(0), l(1)
ret
)",
     "t.case:7:1: expected one declaration of u0, found a second one "
     "[decl-duplicate, spec 1.8]"},
    {"temps-limit", R"([shader]
cs_5_0
dcl_temps 4000
dcl_indexableTemp x0[97], 4
dcl_thread_group 4, 1, 1
ret
)",
     "t.case:4:1: expected at most 4096 temps and indexable temps in all, "
     "found 4097 [temps-limit, spec 1.8]"},
    {"thread-group", R"([shader]
cs_5_0
dcl_thread_group 1025, 1, 1
ret
)",
     "t.case:3:1: expected 1 <= x, y <= 1024, 1 <= z <= 64 and x*y*z <= 1024, "
     "found 1025, 1, 1 [thread-group, spec 1.8]"},
    {"tgsm-size", R"([shader]
cs_5_0
dcl_tgsm_raw g0, 32768
dcl_tgsm_raw g1, 4
dcl_thread_group 4, 1, 1
atomic_iadd g1, l(0), l(1)
ret
)",
     "t.case:4:1: expected at most 32768 bytes of g# in all, found 32772 "
     "bytes [tgsm-size, spec 1.8]"},
    {"stride", R"([uav u0]
kind structured
stride 2052
elements 1
[shader]
cs_5_0
dcl_uav_structured u0, 2052
dcl_thread_group 4, 1, 1
atomic_iadd u0, l(0, 0, 0, 0), l(1)
ret
)",
     "t.case:7:1: expected a stride > 0, a multiple of 4 and <= 2048, found "
     "2052 [stride, spec 1.2, 1.8]"},
    {"typed-format", R"([uav u0]
kind typed
dim buffer
format r32_float
size 4
[shader]
cs_5_0
dcl_uav_typed_buffer (float,float,float,float) u0
dcl_thread_group 4, 1, 1
atomic_iadd u0, l(0), l(1)
ret
)",
     "t.case:10:1: expected an atomic on a typed UAV declared uint or sint, "
     "found u0 declared float [typed-format, E-24, spec 1.1]"},
    {"dst0-single-component", R"([uav u0]
kind raw
words 4
[shader]
cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 4, 1, 1
imm_atomic_iadd r0.xy, u0, l(0), l(1)
ret
)",
     "t.case:9:1: expected dst0 with exactly one component, found 'r0.xy' "
     "[dst0-single-component, spec 1.5]"},
    {"counter-needs-counter", R"([uav u0]
kind structured
stride 4
elements 4
[shader]
cs_5_0
dcl_uav_structured u0, 4
dcl_temps 1
dcl_thread_group 4, 1, 1
imm_atomic_alloc r0.x, u0
ret
)",
     "t.case:10:1: expected a 'counter' line in [uav u0], found a UAV without "
     "a counter [counter-needs-counter, spec 1.6]"},
    {"alloc-and-consume", R"([uav u0]
kind structured
stride 4
elements 4
counter 0
[shader]
cs_5_0
dcl_uav_structured u0, 4
dcl_temps 1
dcl_thread_group 4, 1, 1
imm_atomic_alloc r0.x, u0
imm_atomic_consume r0.y, u0
ret
)",
     "t.case:12:1: expected alloc or consume on one UAV, not both, found both "
     "on u0 [alloc-and-consume, E-37, spec 1.6]"},
    {"sync-in-divergent-flow", R"([shader]
cs_5_0
dcl_input vThreadID.x
dcl_thread_group 4, 1, 1
if_nz vThreadID.x
  sync_g_t
endif
ret
)",
     "t.case:6:1: expected sync with _t in control flow uniform across the "
     "group, found 'sync_g_t' in divergent control flow "
     "[sync-in-divergent-flow, E-30, spec 2.2]"},
    {"sync-flags", R"([shader]
cs_5_0
dcl_thread_group 4, 1, 1
sync_t
ret
)",
     "t.case:4:1: expected sync with _uglobal or _ugroup (not both) and/or "
     "_g, and an optional _t, found 'sync_t' [sync-flags, E-32, E-33, spec "
     "2.2]"},
    {"dynamic-uav-index", R"([uav u0]
kind raw
words 4
[shader]
cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 4, 1, 1
mov r0.x, l(0)
atomic_iadd u0[r0.x + 0], l(0), l(1)
ret
)",
     "t.case:10:1: expected a u# or g# without an index, found "
     "'u0[r0.x + 0]' [dynamic-uav-index, E-44, spec 1.1]"},
    {"control-flow", R"([shader]
cs_5_0
dcl_thread_group 4, 1, 1
endif
ret
)",
     "t.case:4:1: expected endif closing an if, found 'endif' [control-flow, "
     "spec 3.1]"},
    {"resource-binding", R"([shader]
cs_5_0
dcl_uav_raw u0
dcl_thread_group 4, 1, 1
atomic_iadd u0, l(0), l(1)
ret
)",
     "t.case:3:1: expected a [uav u0] section for u0, found none "
     "[resource-binding, spec 1.1, 1.2]"},
    {"memory-kind", R"([uav u0]
kind raw
words 4
[shader]
cs_5_0
dcl_uav_raw u0
dcl_thread_group 4, 1, 1
store_uav_typed u0.xyzw, l(0), l(1)
ret
)",
     "t.case:8:1: expected store_uav_typed on a typed u#, found a raw u# "
     "[memory-kind, spec 1.1, 1.7]"},
    {"store-mask", R"([uav u0]
kind raw
words 4
[shader]
cs_5_0
dcl_uav_raw u0
dcl_thread_group 4, 1, 1
store_raw u0.xz, l(0), l(1, 2, 3, 4)
ret
)",
     "t.case:8:1: expected a mask .x, .xy, .xyz or .xyzw, found 'u0.xz' "
     "[store-mask, spec 1.7]"},
    {"operand-width", R"([uav u0]
kind structured
stride 4
elements 4
[shader]
cs_5_0
dcl_uav_structured u0, 4
dcl_thread_group 4, 1, 1
atomic_iadd u0, l(1), l(1)
ret
)",
     "t.case:9:1: expected an address with 2 components, found 'l(1)' "
     "[operand-width, spec 1.2, 1.4]"},
    {"dispatch", R"([dispatch]
groups 65536, 1, 1
[shader]
cs_5_0
dcl_thread_group 4, 1, 1
ret
)",
     "t.case:1:1: expected group counts <= 65535, found 65536, 1, 1 "
     "[dispatch, spec 1.8]"},
    {"register-range", R"([shader]
cs_5_0
dcl_tgsm_raw g8192, 4
dcl_thread_group 4, 1, 1
ret
)",
     "t.case:3:1: expected u0..u63 or g0..g8191, found 'g8192' "
     "[register-range, spec 1.1, 1.8]"},
    {"opc-needs-counter", R"([uav u0]
kind structured
stride 4
elements 4
[shader]
cs_5_0
dcl_uav_structured_opc u0, 4
dcl_thread_group 4, 1, 1
atomic_iadd u0, l(0, 0, 0, 0), l(1)
ret
)",
     "t.case:1:1: expected a 'counter' line for u0, declared _opc, found none "
     "[opc-needs-counter, spec 1.6]"},
    {"ends-with-ret", R"([shader]
cs_5_0
dcl_thread_group 4, 1, 1
sync_g
)",
     "t.case:4:1: expected ret as the last instruction, found 'sync_g' "
     "[ends-with-ret, spec 3.1]"},
    {"case-literal", R"([shader]
cs_5_0
dcl_temps 1
dcl_thread_group 4, 1, 1
mov r0.x, l(0)
switch r0.x
  case r0.x
  break
endswitch
ret
)",
     "t.case:7:1: expected case l(N), found 'case r0.x' [case-literal, FS "
     "22.7]"},
    {"expectation", R"([uav u0]
kind raw
words 4
[shader]
cs_5_0
dcl_uav_raw u0
dcl_thread_group 4, 1, 1
atomic_iadd u0, l(0), l(1)
ret
[expect u0]
word 4 = 0
)",
     "t.case:11:1: expected word indices below 4, found word 4 [expectation, "
     "docs/case-format.md]"},
    {"stage", R"([shader]
cs_5_0
dcl_temps 1
dcl_thread_group 4, 1, 1
mov r0.x, l(0)
discard_nz r0.x
ret
)",
     "t.case:6:1: expected no discard or derivative in cs_5_0, found "
     "'discard_nz r0.x' [stage, spec 1.1, docs/pixel-stage.md P.1]"},
    {"pixel-input", R"([draw]
framebuffer 2, 2
samples 1
triangle 0 0, 4 0, 0 4
[shader]
ps_5_0
dcl_input_ps_sgv linear v0.x, sampleIndex
ret
)",
     "t.case:7:1: expected dcl_input_ps_sgv constant v#.x, sampleIndex or "
     "primitive_id, found 'dcl_input_ps_sgv linear v0.x, sampleInde...' "
     "[pixel-input, docs/pixel-stage.md P.2]"},
    {"draw", R"([draw]
framebuffer 2, 2
samples 1
triangle 0.5 0.5, 4 0.5, 0.5 4
[shader]
ps_5_0
ret
)",
     "t.case:1:1: expected every sample point 1/64 pixel or more from every "
     "edge, found triangle 0: sample 0 of pixel (0, 0) lies within 1/64 "
     "pixel of the edge from vertex 0 to 1 [draw, docs/pixel-stage.md P.1]"},
};

class RuleTableTest : public testing::TestWithParam<RuleCase> {};

TEST_P(RuleTableTest, ExactlyOneDiagnostic) {
  const RuleCase& rc = GetParam();
  EXPECT_THAT(Diagnose(rc.text), ElementsAre(std::string(rc.diagnostic)));
  // The diagnostic names the rule it is listed under.
  EXPECT_NE(rc.diagnostic.find(absl::StrCat("[", rc.rule, ", ")),
            absl::string_view::npos);
}

// Where the program alone passes, skipping its rules changes nothing: the
// case rules' violations (binding, dispatch, ...) come out the same.
TEST_P(RuleTableTest, CheckedProgramAgreesWhereTheProgramPasses) {
  absl::StatusOr<Case> c = ParseCase(GetParam().text, "t.case");
  ASSERT_TRUE(c.ok()) << c.status();
  DiagnosticSink program("t.case");
  ValidateProgram(c->shader, program);
  if (!program.diagnostics().empty()) return;
  EXPECT_EQ(ValidateWithCheckedProgram(*c), Validate(*c));
  EXPECT_FALSE(ValidateWithCheckedProgram(*c).ok());
}

INSTANTIATE_TEST_SUITE_P(Validator, RuleTableTest,
                         testing::ValuesIn(kRuleCases),
                         [](const testing::TestParamInfo<RuleCase>& info) {
                           std::string name(info.param.rule);
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

TEST(ValidatorRules, EveryRuleHasACase) {
  std::set<absl::string_view> tested;
  for (const RuleCase& rc : kRuleCases) tested.insert(rc.rule);
  std::set<absl::string_view> ids;
  for (const Rule& r : AllRules()) {
    ids.insert(r.id);
    EXPECT_TRUE(tested.contains(r.id)) << "no test case for rule " << r.id;
  }
  EXPECT_EQ(ids.size(), AllRules().size()) << "duplicate rule ids";
  for (absl::string_view id : tested) {
    EXPECT_TRUE(ids.contains(id)) << "test case for unknown rule " << id;
  }
  EXPECT_EQ(AllRules().size(), 28u);
}

TEST(ValidatorRules, EveryRuleHasASpecAndSummary) {
  for (const Rule& r : AllRules()) {
    EXPECT_FALSE(r.spec.empty()) << r.id;
    EXPECT_FALSE(r.summary.empty()) << r.id;
  }
}

// Every feature at once, all valid: raw, structured with a counter, typed,
// TGSM, a barrier in a uniform loop, and every kind of expectation.
constexpr absl::string_view kBaseline = R"(# valid
[dispatch]
groups 2, 1, 1

[uav u0]
kind raw
words 8

[uav u1]
kind structured
stride 8
elements 8
counter 0

[uav u2]
kind typed
dim texture2d
format r32_sint
size 4, 4

[shader]
cs_5_0
dcl_uav_raw u0
dcl_uav_structured_opc u1, 8
dcl_uav_typed_texture2d (sint,sint,sint,sint) u2
dcl_input vThreadID.x
dcl_input vThreadIDInGroup.xy
dcl_temps 2
dcl_tgsm_structured g0, 4, 64
dcl_thread_group 4, 1, 1
ishl r0.x, vThreadID.x, l(2)
imm_atomic_iadd r1.x, u0, r0.x, l(1)
imm_atomic_alloc r1.y, u1
atomic_imax u2, vThreadIDInGroup.xyxx, l(-1)
mov r0.y, l(0)
loop
  uge r0.z, r0.y, l(2)
  breakc_nz r0.z
  atomic_or g0, vThreadIDInGroup.xyxx, l(1)
  sync_g_t
  iadd r0.y, r0.y, l(1)
endloop
store_structured u1.xy, r1.y, l(0), r1.xyxx
ret

[expect u0]
word 0..7 = 1

[expect u1]
counter = 8

[expect returns]
atomic 1 group 1, 0, 0 thread 3, 0, 0 = {0, 1, 2, 3, 4, 5, 6, 7}
)";

TEST(ValidatorTest, BaselineIsValid) {
  EXPECT_THAT(Diagnose(kBaseline), IsEmpty());
  absl::StatusOr<Case> c = ParseCase(kBaseline, "t.case");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(Validate(*c).ok());
  EXPECT_TRUE(ValidateWithCheckedProgram(*c).ok());
}

TEST(ValidatorTest, ValidateListsEveryViolation) {
  absl::StatusOr<Case> c = ParseCase(R"([shader]
cs_5_0
sync
)",
                                     "bad.case");
  ASSERT_TRUE(c.ok()) << c.status();
  const absl::Status s = Validate(*c);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(),
            "bad.case:3:1: expected a dcl_thread_group, found none "
            "[thread-group, spec 1.8]\n"
            "bad.case:3:1: expected sync with _uglobal or _ugroup (not both) "
            "and/or _g, and an optional _t, found 'sync' [sync-flags, E-32, "
            "E-33, spec 2.2]\n"
            "bad.case:3:1: expected ret as the last instruction, found 'sync' "
            "[ends-with-ret, spec 3.1]");
}

// The case-level checks, variant by variant (the program rules' variants
// are in validator_program_test.cc). The rule table above spells diagnostics
// out in full; C() builds them, taking the spec section from AllRules().
std::string C(int line, absl::string_view expected, absl::string_view found,
              absl::string_view rule) {
  for (const Rule& r : AllRules()) {
    if (r.id == rule) {
      return absl::StrCat("t.case:", line, ":1: expected ", expected,
                          ", found ", found, " [", rule, ", ", r.spec, "]");
    }
  }
  return absl::StrCat("no rule ", rule);
}

TEST(ValidatorCounters, AllocAndConsumeOnTwoUavsIsFine) {  // E-37
  EXPECT_THAT(Diagnose(R"([uav u0]
kind structured
stride 4
elements 4
counter 0
[uav u1]
kind structured
stride 4
elements 4
counter 4
[shader]
cs_5_0
dcl_uav_structured u0, 4
dcl_uav_structured u1, 4
dcl_temps 1
dcl_thread_group 4, 1, 1
imm_atomic_alloc r0.x, u0
imm_atomic_consume r0.y, u1
imm_atomic_alloc r0.z, u0
ret
[expect u0]
counter = 8
[expect u1]
counter = 0
)"),
              IsEmpty());
}

// u0 bound as `resource` and declared by `dcl`.
std::vector<std::string> Bound(absl::string_view resource,
                               absl::string_view dcl) {
  return Diagnose(absl::StrCat("[uav u0]\n", resource, "\n[shader]\ncs_5_0\n",
                               dcl, "\ndcl_thread_group 4, 1, 1\nret\n"));
}

TEST(ValidatorBinding, Mismatches) {
  constexpr absl::string_view kRule = "resource-binding";
  constexpr absl::string_view kStructured4 =
      "kind structured with stride 4, as declared";
  EXPECT_THAT(
      Bound("kind structured\nstride 8\nelements 2",
            "dcl_uav_structured u0, 4"),
      ElementsAre(C(1, kStructured4, "kind structured stride 8", kRule)));
  EXPECT_THAT(Bound("kind raw\nwords 4", "dcl_uav_structured u0, 4"),
              ElementsAre(C(1, kStructured4, "kind raw", kRule)));
  EXPECT_THAT(Bound("kind structured\nstride 4\nelements 4", "dcl_uav_raw u0"),
              ElementsAre(C(1, "kind raw, as declared for u0",
                            "kind structured", kRule)));
  EXPECT_THAT(Bound("kind typed\ndim texture2d\nformat r32_uint\nsize 4, 4",
                    "dcl_uav_typed_texture2darray (uint,uint,uint,uint) u0"),
              ElementsAre(C(1, "kind typed, dim texture2darray, as declared",
                            "kind typed dim texture2d", kRule)));
  EXPECT_THAT(Bound("kind typed\ndim buffer\nformat r32_sint\nsize 4",
                    "dcl_uav_typed_buffer (uint,uint,uint,uint) u0"),
              ElementsAre(C(1, "a format matching (uint,...)",
                            "format r32_sint", kRule)));
  // A counter belongs to a structured view only (spec 1.6).
  EXPECT_THAT(Bound("kind raw\nwords 4\ncounter 0", "dcl_uav_raw u0"),
              ElementsAre(C(1, "a counter on structured UAVs only",
                            "a counter on a raw UAV", kRule)));
  EXPECT_THAT(Diagnose("[uav u0]\nkind raw\nwords 4\n[uav u3]\nkind raw\n"
                       "words 4\n[shader]\ncs_5_0\ndcl_uav_raw u0\n"
                       "dcl_thread_group 4, 1, 1\nret\n"),
              ElementsAre(C(4, "a dcl_uav_* for the bound u3", "none", kRule)));
}

TEST(ValidatorExpectations, NamesThatDoNotExist) {
  constexpr absl::string_view kRule = "expectation";
  EXPECT_THAT(
      Diagnose(R"([dispatch]
groups 2, 1, 1
[uav u0]
kind structured
stride 4
elements 4
[shader]
cs_5_0
dcl_uav_structured u0, 4
dcl_temps 1
dcl_thread_group 4, 1, 1
imm_atomic_iadd r0.x, u0, l(0, 0, 0, 0), l(1)
ret
[expect u0]
word 0..4 = any
counter = 0
[expect u1]
word 0 = 0
[expect returns]
atomic 0 group 1, 0, 0 thread 3, 0, 0 = any
atomic 1 thread 0, 0, 0 = any
atomic 0 group 2, 0, 0 thread 0, 1, 0 = any
)"),
      ElementsAre(
          C(15, "word indices below 4", "word 4", kRule),
          C(18, "a bound u1", "word 0", kRule),
          C(16, "a counter on u0", "none", kRule),
          C(21, "an atomic number below 1", "1", kRule),
          C(22, "a group inside the dispatch 2, 1, 1", "group 2, 0, 0", kRule),
          C(22, "a thread inside the group 4, 1, 1", "thread 0, 1, 0", kRule)));
}

TEST(ValidatorDispatch, ZeroGroupsAndTheLimitAreFine) {
  EXPECT_THAT(Diagnose("[dispatch]\ngroups 65535, 65535, 0\n[shader]\n"
                       "cs_5_0\ndcl_thread_group 4, 1, 1\nret\n"),
              IsEmpty());  // a 0 means nothing runs, which is legal
}

}  // namespace
}  // namespace atomfuzz::isa
