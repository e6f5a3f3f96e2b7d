// The program rules of the validator, variant by variant: sync flags,
// typed and raw memory access, declarations. validator_test.cc has one case
// per rule and the case-level checks; control_flow_check_test.cc the
// control-flow rules.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "isa/assembler.h"
#include "isa/case_file.h"
#include "isa/validator.h"

namespace atomfuzz::isa {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> Render(const DiagnosticSink& sink) {
  std::vector<std::string> out;
  for (const Diagnostic& d : sink.diagnostics()) out.push_back(d.Render());
  return out;
}

// Every diagnostic of validating `text` as the case file "t.case".
std::vector<std::string> Diagnose(absl::string_view text) {
  absl::StatusOr<Case> c = ParseCase(text, "t.case");
  if (!c.ok()) return {absl::StrCat("parse error: ", c.status().message())};
  DiagnosticSink sink("t.case");
  ValidateCase(*c, sink);
  return Render(sink);
}

// The same for a lone program ("t.asm"), program rules only.
std::vector<std::string> DiagnoseProgram(absl::string_view text) {
  absl::StatusOr<Program> p = Assemble(text, "t.asm");
  if (!p.ok()) return {absl::StrCat("parse error: ", p.status().message())};
  DiagnosticSink sink("t.asm");
  ValidateProgram(*p, sink);
  return Render(sink);
}

// "file:line:1: expected E, found F [rule, spec]", the spec taken from
// AllRules() (validator_test.cc checks each rule's text in full once).
std::string Message(absl::string_view file, int line,
                    absl::string_view expected, absl::string_view found,
                    absl::string_view rule) {
  for (const Rule& r : AllRules()) {
    if (r.id == rule) {
      return absl::StrCat(file, ":", line, ":1: expected ", expected,
                          ", found ", found, " [", rule, ", ", r.spec, "]");
    }
  }
  return absl::StrCat("no rule ", rule);
}
std::string C(int line, absl::string_view expected, absl::string_view found,
              absl::string_view rule) {
  return Message("t.case", line, expected, found, rule);
}
std::string P(int line, absl::string_view expected, absl::string_view found,
              absl::string_view rule) {
  return Message("t.asm", line, expected, found, rule);
}

// A program with one thread group and `body` on line 3.
std::vector<std::string> Body(absl::string_view body) {
  return DiagnoseProgram(
      absl::StrCat("cs_5_0\ndcl_thread_group 4, 1, 1\n", body, "\nret\n"));
}
// A program with `decls` from line 2, then one thread group.
std::vector<std::string> Decls(absl::string_view decls) {
  return DiagnoseProgram(
      absl::StrCat("cs_5_0\n", decls, "\ndcl_thread_group 4, 1, 1\nret\n"));
}

constexpr absl::string_view kSyncRule =
    "sync with _uglobal or _ugroup (not both) and/or _g, and an optional _t";

TEST(ValidatorSyncFlags, ValidVariantsPass) {  // spec 2.2, E-31
  for (absl::string_view sync :
       {"sync_g", "sync_ugroup", "sync_uglobal", "sync_g_t", "sync_ugroup_t",
        "sync_uglobal_t", "sync_ugroup_g", "sync_uglobal_g", "sync_ugroup_g_t",
        "sync_uglobal_g_t", "sync_sat_ugroup", "sync_sat_ugroup_g_t"}) {
    EXPECT_THAT(Body(sync), IsEmpty()) << sync;
  }
}

TEST(ValidatorSyncFlags, InvalidVariantsFail) {
  // Both UAV bits (E-32), a bare _t (E-33), no flag at all.
  for (absl::string_view sync :
       {"sync_sat_uglobal", "sync_sat_uglobal_g_t", "sync_t", "sync"}) {
    EXPECT_THAT(Body(sync),
                ElementsAre(P(3, kSyncRule, absl::StrCat("'", sync, "'"),
                              "sync-flags")))
        << sync;
  }
}

// A typed u0 bound to a matching view; `body` starts on line 12.
std::vector<std::string> Typed(absl::string_view dim, absl::string_view type,
                               absl::string_view format, absl::string_view size,
                               absl::string_view body) {
  return Diagnose(absl::StrCat(
      "[uav u0]\nkind typed\ndim ", dim, "\nformat ", format, "\nsize ", size,
      "\n[shader]\ncs_5_0\ndcl_uav_typed_", dim, " (", type, ",", type, ",",
      type, ",", type,
      ") u0\ndcl_input vThreadID.xyz\ndcl_temps 1\ndcl_thread_group 4, 1, 1\n",
      body, "\nret\n"));
}
constexpr absl::string_view kTypedRule =
    "an atomic on a typed UAV declared uint or sint";

TEST(ValidatorTyped, SignednessFollowsTheOpcodeNotTheType) {  // E-3
  EXPECT_THAT(Typed("buffer", "uint", "r32_uint", "4",
                    "atomic_imax u0, l(0), l(-1)\n"
                    "imm_atomic_imin r0.x, u0, l(1), l(-1)"),
              IsEmpty());
  EXPECT_THAT(
      Typed("buffer", "sint", "r32_sint", "4", "atomic_umax u0, l(0), l(1)"),
      IsEmpty());
}

TEST(ValidatorTyped, NonIntegerDeclarationsAreRejected) {  // E-24
  EXPECT_THAT(
      Typed("buffer", "float", "r32_float", "4",
            "imm_atomic_exch r0.x, u0, l(0), l(1)"),
      ElementsAre(C(12, kTypedRule, "u0 declared float", "typed-format")));
  // unorm matches no view format either.
  EXPECT_THAT(
      Typed("buffer", "unorm", "r32_uint", "4", "atomic_iadd u0, l(0), l(1)"),
      ElementsAre(C(12, kTypedRule, "u0 declared unorm", "typed-format"),
                  C(1, "a format matching (unorm,...)", "format r32_uint",
                    "resource-binding")));
  // Plain stores to float UAVs are fine.
  EXPECT_THAT(Typed("buffer", "float", "r32_float", "4",
                    "store_uav_typed u0.xyzw, l(0), l(1)"),
              IsEmpty());
}

TEST(ValidatorTyped, AddressWidthFollowsTheDimension) {
  EXPECT_THAT(Typed("texture3d", "uint", "r32_uint", "4, 4, 4",
                    "atomic_umin u0, vThreadID.xyzx, l(1)"),
              IsEmpty());
  EXPECT_THAT(Typed("texture3d", "uint", "r32_uint", "4, 4, 4",
                    "atomic_umin u0, vThreadID.x, l(1)"),
              ElementsAre(C(12, "an address with 3 components", "'vThreadID.x'",
                            "operand-width")));
  EXPECT_THAT(Typed("texture2darray", "uint", "r32_uint", "4, 4, 2",
                    "atomic_umin u0, l(1), l(1)"),
              ElementsAre(C(12, "an address with 3 components", "'l(1)'",
                            "operand-width")));
}

TEST(ValidatorTyped, StoreMaskIsAlwaysXyzw) {
  EXPECT_THAT(Typed("buffer", "uint", "r32_uint", "4",
                    "store_uav_typed u0.x, l(0), l(1)"),
              ElementsAre(C(12, "the mask .xyzw", "'u0.x'", "store-mask")));
}

// A raw u0 of 4 words; `body` starts on line 9.
std::vector<std::string> Raw(absl::string_view body) {
  return Diagnose(absl::StrCat(
      "[uav u0]\nkind raw\nwords 4\n[shader]\ncs_5_0\ndcl_uav_raw u0\n"
      "dcl_temps 2\ndcl_thread_group 4, 1, 1\n",
      body, "\nret\n"));
}

TEST(ValidatorRaw, StoreMasks) {
  for (absl::string_view mask : {"x", "xy", "xyz", "xyzw"}) {
    EXPECT_THAT(
        Raw(absl::StrCat("store_raw u0.", mask, ", l(0), l(1, 2, 3, 4)")),
        IsEmpty())
        << mask;
  }
  for (absl::string_view mask : {"y", "xz", "yzw", "xyw"}) {
    EXPECT_THAT(
        Raw(absl::StrCat("store_raw u0.", mask, ", l(0), l(1, 2, 3, 4)")),
        ElementsAre(C(9, "a mask .x, .xy, .xyz or .xyzw",
                      absl::StrCat("'u0.", mask, "'"), "store-mask")))
        << mask;
  }
}

TEST(ValidatorRaw, Dst0) {
  // null and any single component are fine (E-9).
  EXPECT_THAT(Raw("imm_atomic_iadd null, u0, l(0), l(1)\n"
                  "imm_atomic_cmp_exch r1.w, u0, l(0), l(1), l(2)"),
              IsEmpty());
  EXPECT_THAT(Raw("imm_atomic_iadd r0.xyzw, u0, l(0), l(1)"),
              ElementsAre(C(9, "dst0 with exactly one component", "'r0.xyzw'",
                            "dst0-single-component")));
}

TEST(ValidatorRaw, ValuesTakeOneComponentAddressesAny) {  // E-10
  EXPECT_THAT(Raw("mov r0.x, l(1)\natomic_iadd u0, r0.xxxx, r0.x"), IsEmpty());
  EXPECT_THAT(Raw("mov r0.x, l(1)\natomic_iadd u0, l(0), r0.xxxx"),
              ElementsAre(C(10, "a one-component source (r#.c or l(v))",
                            "'r0.xxxx'", "operand-width")));
}

TEST(ValidatorRaw, IndexedTargets) {  // E-44
  constexpr absl::string_view kNoIndex = "a u# or g# without an index";
  EXPECT_THAT(Raw("atomic_iadd u0[2], l(0), l(1)"),
              ElementsAre(C(9, kNoIndex, "'u0[2]'", "dynamic-uav-index")));
  EXPECT_THAT(
      Raw("mov r0.x, l(0)\nld_raw r1.x, l(0), u0[r0.x + 1].xxxx"),
      ElementsAre(C(10, kNoIndex, "'u0[r0.x + 1].xxxx'", "dynamic-uav-index")));
}

TEST(ValidatorRaw, MemoryKinds) {
  EXPECT_THAT(Raw("ld_structured r0.x, l(0), l(0), u0.xxxx"),
              ElementsAre(C(9,
                            "ld_structured on a structured u# or a structured "
                            "g#",
                            "a raw u#", "memory-kind")));
  // A counter op on a raw UAV is one mistake, reported once.
  EXPECT_THAT(Raw("imm_atomic_alloc r0.x, u0"),
              ElementsAre(C(9, "imm_atomic_alloc on a structured u#",
                            "a raw u#", "memory-kind")));
}

TEST(ValidatorDeclarations, UndeclaredRegisters) {
  constexpr absl::string_view kRule = "decl-before-use";
  EXPECT_THAT(Body("mov r0.x, vThreadID.y\natomic_iadd u1, l(0), l(1)\n"
                   "atomic_iadd g0, l(0), l(1)"),
              ElementsAre(P(3, "a dcl_temps before using r#", "'r0.x'", kRule),
                          P(3, "components declared by dcl_input vThreadID",
                            "'vThreadID.y'", kRule),
                          P(4, "a u# declared by dcl_uav_*", "'u1'", kRule),
                          P(5, "a g# declared by dcl_tgsm_*", "'g0'", kRule)));
  EXPECT_THAT(DiagnoseProgram("cs_5_0\ndcl_temps 1\n"
                              "dcl_indexableTemp x0[4], 4\n"
                              "dcl_thread_group 4, 1, 1\n"
                              "mov x0[4].x, l(0)\n"
                              "mov x0[r0.x + 4].x, l(0)\nret\n"),
              ElementsAre(P(5, "an element below 4", "'x0[4].x'", kRule)));
}

TEST(ValidatorDeclarations, ThreadGroupLimits) {
  constexpr absl::string_view kLimits =
      "1 <= x, y <= 1024, 1 <= z <= 64 and x*y*z <= 1024";
  for (absl::string_view ok : {"1024, 1, 1", "1, 1024, 1", "16, 1, 64"}) {
    EXPECT_THAT(DiagnoseProgram(
                    absl::StrCat("cs_5_0\ndcl_thread_group ", ok, "\nret\n")),
                IsEmpty())
        << ok;
  }
  for (absl::string_view bad :
       {"32, 32, 2", "1025, 1, 1", "1, 1, 65", "0, 1, 1", "1, 2048, 1"}) {
    EXPECT_THAT(DiagnoseProgram(
                    absl::StrCat("cs_5_0\ndcl_thread_group ", bad, "\nret\n")),
                ElementsAre(P(2, kLimits, bad, "thread-group")))
        << bad;
  }
  EXPECT_THAT(Decls("dcl_thread_group 4, 1, 1"),
              ElementsAre(P(3, "one dcl_thread_group", "a second one",
                            "thread-group")));
  EXPECT_THAT(DiagnoseProgram("cs_5_0\ndcl_temps 1\nmov r0.x, l(0)\nret\n"),
              ElementsAre(P(3, "a dcl_thread_group", "none", "thread-group")));
}

TEST(ValidatorDeclarations, TgsmSizes) {
  // Exactly 32768 bytes in all is allowed (E-23).
  EXPECT_THAT(Decls("dcl_tgsm_raw g0, 16384\ndcl_tgsm_structured g1, 8, 2047\n"
                    "dcl_tgsm_raw g2, 8"),
              IsEmpty());
  // Going over is reported once, where it goes over.
  EXPECT_THAT(Decls("dcl_tgsm_structured g0, 4, 8192\ndcl_tgsm_raw g1, 4\n"
                    "dcl_tgsm_raw g2, 4"),
              ElementsAre(P(3, "at most 32768 bytes of g# in all",
                            "32772 bytes", "tgsm-size")));
  EXPECT_THAT(Decls("dcl_tgsm_raw g0, 6\ndcl_tgsm_structured g1, 4, 0"),
              ElementsAre(P(2, "a byte count > 0 and a multiple of 4",
                            "'dcl_tgsm_raw g0, 6'", "tgsm-size"),
                          P(3,
                            "a stride > 0 and a multiple of 4, and a count > "
                            "0",
                            "'dcl_tgsm_structured g1, 4, 0'", "tgsm-size")));
}

TEST(ValidatorDeclarations, StridesTempsAndRanges) {
  for (absl::string_view bad : {"6", "0", "2052"}) {
    EXPECT_THAT(Decls(absl::StrCat("dcl_uav_structured u0, ", bad)),
                ElementsAre(P(2, "a stride > 0, a multiple of 4 and <= 2048",
                              bad, "stride")))
        << bad;
  }
  EXPECT_THAT(Decls("dcl_uav_structured u0, 2048\ndcl_temps 4096\n"
                    "dcl_uav_raw u63\ndcl_tgsm_raw g8191, 4"),
              IsEmpty());
  EXPECT_THAT(Decls("dcl_temps 4097"),
              ElementsAre(P(2, "at most 4096 temps and indexable temps in all",
                            "4097", "temps-limit")));
  // u64 is reported once: no [uav] section can bind it.
  EXPECT_THAT(
      Diagnose("[shader]\ncs_5_0\ndcl_uav_raw u64\n"
               "dcl_thread_group 4, 1, 1\n"
               "atomic_iadd u64, l(0), l(1)\nret\n"),
      ElementsAre(C(3, "u0..u63 or g0..g8191", "'u64'", "register-range")));
}

TEST(ValidatorDeclarations, Duplicates) {
  constexpr absl::string_view kRule = "decl-duplicate";
  EXPECT_THAT(
      Decls("dcl_input vThreadID.x\ndcl_input vThreadID.y\n"
            "dcl_temps 1\ndcl_temps 1\ndcl_tgsm_raw g0, 4\n"
            "dcl_tgsm_structured g0, 4, 1"),
      ElementsAre(P(3, "one dcl_input of vThreadID", "a second one", kRule),
                  P(5, "one dcl_temps", "a second one", kRule),
                  P(7, "one declaration of g0", "a second one", kRule)));
}

}  // namespace
}  // namespace atomfuzz::isa
