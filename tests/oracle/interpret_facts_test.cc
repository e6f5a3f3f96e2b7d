// InterpretFacts: whether a case's g# accesses may leave their memory, the
// question a harness asks before running a target known to let them
// (docs/findings.md #5).
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "oracle/interpreter.h"

namespace atomfuzz::oracle {
namespace {

// One group of two threads, a raw u0 of 4 words and a 16-byte g0 (unless
// `tgsm` is false), then `body`.
bool MayLeaveTgsm(const std::string& body, bool tgsm = true) {
  const std::string text = absl::StrCat(
      "[dispatch]\ngroups 1, 1, 1\n[uav u0]\nkind raw\nwords 4\n[shader]\n"
      "cs_5_0\ndcl_uav_raw u0\n",
      tgsm ? "dcl_tgsm_raw g0, 16\n" : "",
      "dcl_input vThreadIDInGroupFlattened\ndcl_temps 2\n"
      "dcl_thread_group 2, 1, 1\n",
      body, "ret\n");
  absl::StatusOr<isa::Case> c = isa::ParseCase(text, "facts.case");
  EXPECT_TRUE(c.ok()) << c.status();
  if (!c.ok()) return false;
  InterpretOptions options;
  options.max_steps_per_thread = 1000;
  InterpretFacts facts;
  facts.may_leave_tgsm = true;  // Interpret must set it either way
  EXPECT_TRUE(Interpret(*c, options, facts).ok());
  return facts.may_leave_tgsm;
}

TEST(InterpretFacts, AccessesInsideTheirGAreKept) {
  EXPECT_FALSE(
      MayLeaveTgsm("ishl r0.x, vThreadIDInGroupFlattened.x, l(2)\n"
                   "imm_atomic_iadd r1.x, g0, r0.x, l(1)\n"
                   "store_raw g0.x, l(12), r1.x\n"
                   "ld_raw r1.x, l(8), g0.xxxx\n"
                   "store_raw u0.x, l(0), r1.x\n"));
}

TEST(InterpretFacts, AnAtomicStoreOrLoadPastTheGLeavesIt) {
  EXPECT_TRUE(MayLeaveTgsm("imm_atomic_iadd r1.x, g0, l(0x7ffffffc), l(1)\n"));
  EXPECT_TRUE(MayLeaveTgsm("atomic_or g0, l(16), l(1)\n"));
  EXPECT_TRUE(MayLeaveTgsm("store_raw g0.x, l(16), l(1)\n"));
  // Two words from 12: the second is past the end.
  EXPECT_TRUE(MayLeaveTgsm("ld_raw r1.xy, l(12), g0.xyxx\n"));
  // Only the thread that computes it goes out.
  EXPECT_TRUE(
      MayLeaveTgsm("ishl r0.x, vThreadIDInGroupFlattened.x, l(4)\n"
                   "store_raw g0.x, r0.x, l(1)\n"));
  // Misaligned: inside the g#'s bytes, but the spec poisons it (1.3).
  EXPECT_TRUE(MayLeaveTgsm("store_raw g0.x, l(2), l(1)\n"));
}

TEST(InterpretFacts, UavAccessesOutOfBoundsDoNotCount) {
  EXPECT_FALSE(
      MayLeaveTgsm("store_raw u0.x, l(64), l(1)\n"
                   "imm_atomic_iadd r1.x, u0, l(0x7ffffffc), l(1)\n"));
}

// An endless loop stops the oracle before the target stops: where its
// accesses would have gone is not known.
TEST(InterpretFacts, AnUnfinishedRunWithAGMayLeaveIt) {
  const std::string endless =
      "mov r0.x, l(0)\nloop\n  store_raw u0.x, l(0), r0.x\n"
      "  iadd r0.x, r0.x, l(1)\nendloop\n";
  EXPECT_TRUE(MayLeaveTgsm(endless));
  EXPECT_FALSE(MayLeaveTgsm(endless, /*tgsm=*/false));
}

}  // namespace
}  // namespace atomfuzz::oracle
