// Policies (fuzz/generate/policy.h): the presets exist under their names, an
// unknown name is an InvalidArgument that lists them, and the defaults derived
// from the opcode table make sense.
#include "fuzz/generate/policy.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "isa/opcode_table.h"

namespace atomfuzz::fuzz {
namespace {

TEST(PolicyTest, PresetsHaveTheirNames) {
  const std::vector<std::string> names = PolicyNames();
  for (const char* name : {"default", "untraceable", "tgsm", "counters",
                           "bounds", "wide", "pixel"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
  EXPECT_EQ(names.front(), "default");
  for (const std::string& name : names) {
    absl::StatusOr<Policy> p = PolicyByName(name);
    ASSERT_TRUE(p.ok()) << name << ": " << p.status();
    EXPECT_EQ(p->name, name);
  }
}

TEST(PolicyTest, UnknownNameListsTheKnownOnes) {
  absl::StatusOr<Policy> p = PolicyByName("nonsense");
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(p.status().message(), "'nonsense'"));
  for (const std::string& name : PolicyNames()) {
    EXPECT_TRUE(absl::StrContains(p.status().message(), name)) << name;
  }
  EXPECT_FALSE(PolicyByName("").ok());
  EXPECT_FALSE(PolicyByName("Default").ok());  // names are exact
}

TEST(PolicyTest, DefaultIsTraceableAndUntraceableIsNot) {
  EXPECT_TRUE(PolicyByName("default")->traceable);
  const Policy u = *PolicyByName("untraceable");
  EXPECT_FALSE(u.traceable);
  EXPECT_EQ(u.value_weights[static_cast<size_t>(ValueClass::kTraceable)], 0u);
}

TEST(PolicyTest, OpWeightsFollowTheTableFamilies) {
  const std::array<uint32_t, isa::kOpCount> w = DefaultOpWeights();
  for (const isa::OpcodeInfo& row : isa::AllOpcodes()) {
    const uint32_t weight = w[static_cast<size_t>(row.op)];
    if (row.is_atomic()) {
      EXPECT_GT(weight, 0u) << row.mnemonic;
    }
    if (row.family == isa::Family::kDecl) {
      EXPECT_EQ(weight, 0u) << row.mnemonic;
    }
  }
  EXPECT_EQ(Policy{}.op_weights, w);
}

// Compute presets never weigh what only a pixel shader may hold (discard,
// derivatives) nor the float conversions SV_Position needs; the pixel
// preset draws, with no g#, and weighs discard and derivatives.
TEST(PolicyTest, StagesKeepToTheirOwnInstructions) {
  for (const std::string& name : PolicyNames()) {
    const Policy p = *PolicyByName(name);
    const bool pixel = p.stage == isa::Stage::kPixel;
    EXPECT_EQ(pixel, name == "pixel") << name;
    for (const isa::OpcodeInfo& row : isa::AllOpcodes()) {
      const uint32_t w = p.op_weights[static_cast<size_t>(row.op)];
      if (row.family == isa::Family::kDiscard ||
          row.family == isa::Family::kDeriv) {
        EXPECT_EQ(w > 0, pixel) << name << " " << row.mnemonic;
      }
      if (row.op == isa::Op::kFtoI || row.op == isa::Op::kFtoU) {
        EXPECT_EQ(w, 0u) << name << " " << row.mnemonic;
      }
    }
    if (!pixel) continue;
    EXPECT_EQ(p.memory_weights[static_cast<size_t>(isa::TargetKind::kTgsmRaw)],
              0u);
    EXPECT_EQ(
        p.memory_weights[static_cast<size_t>(isa::TargetKind::kTgsmStructured)],
        0u);
    EXPECT_GT(p.pixel.statement_weights[static_cast<size_t>(
                  PixelStatementKind::kDiscard)],
              0u);
    EXPECT_GT(p.pixel.cover_all_per_mille, 0u);  // out of bytes: CoverAll
  }
}

TEST(PolicyTest, CountersPresetFavoursCounterOps) {
  const Policy d = *PolicyByName("default");
  const Policy c = *PolicyByName("counters");
  const auto alloc = static_cast<size_t>(isa::Op::kImmAtomicAlloc);
  EXPECT_GT(c.op_weights[alloc], d.op_weights[alloc]);
  EXPECT_GT(c.counter_per_mille, d.counter_per_mille);
}

// Every enum starts with its simplest member, which a draw of 0 picks: the
// defaults must give it a weight, or out-of-bytes input skips it.
TEST(PolicyTest, SimplestChoicesHaveWeight) {
  const Policy p;
  EXPECT_GT(p.memory_weights[0], 0u);  // u-raw
  EXPECT_GT(p.uav_address_weights[static_cast<size_t>(AddressClass::kInBounds)],
            0u);
  EXPECT_GT(p.statement_weights[static_cast<size_t>(StatementKind::kAtomic)],
            0u);
  EXPECT_GT(p.init_weights[static_cast<size_t>(InitClass::kZero)], 0u);
  EXPECT_GT(p.dst0_component_weights[0], 0u);  // .x
}

}  // namespace
}  // namespace atomfuzz::fuzz
