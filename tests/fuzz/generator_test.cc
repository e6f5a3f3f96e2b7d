// The case generator (fuzz/generate/generator.h): every case it makes is valid,
// from seeds under every preset and from arbitrary fuzzer bytes; it reaches
// every atomic on every memory kind and the address outcomes of spec 1.3; cases
// survive print/parse; and a seed makes the same case forever (goldens).
//
// Changing what the generator makes for a seed changes the golden hashes
// below: update them, and bump kGeneratorVersion
// (fuzz/generate/generator_internal.h) so that old [metadata] "generator = N"
// lines say which generator made them.
#include "fuzz/generate/generator.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "fuzz/generate/choices.h"
#include "fuzz/generate/policy.h"
#include "fuzz/runner.h"
#include "fuzz/triage/signature.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "isa/coverage.h"
#include "isa/prng.h"
#include "isa/validator.h"
#include "tests/fuzz/generator_testing.h"

namespace atomfuzz::fuzz {
namespace {

using testutil::FromSeed;
using testutil::Preset;
using testutil::Problems;

TEST(GeneratorTest, DefaultPolicyCasesAreValid) {
  const Policy policy;
  for (uint64_t seed = 0; seed < 60000; ++seed) {
    const std::string problems = Problems(FromSeed(CaseSeed(7, seed), policy));
    ASSERT_EQ(problems, "") << "CaseSeed(7, " << seed << ")";
  }
}

TEST(GeneratorTest, EveryPresetMakesValidCases) {
  for (const std::string& name : PolicyNames()) {
    const Policy policy = Preset(name);
    for (uint64_t seed = 0; seed < 5000; ++seed) {
      const std::string problems = Problems(FromSeed(seed, policy));
      ASSERT_EQ(problems, "") << name << ", seed " << seed;
    }
  }
}

TEST(GeneratorTest, FuzzerBytesMakeValidCases) {
  isa::Prng prng(99);
  const std::vector<std::string> names = PolicyNames();
  std::vector<uint8_t> bytes;
  for (int i = 0; i < 15000; ++i) {
    bytes.resize(prng.Below(1024));
    for (uint8_t& b : bytes) b = static_cast<uint8_t>(prng.Next32());
    ByteChoices choices(bytes);
    const Policy policy = Preset(names[static_cast<size_t>(i) % names.size()]);
    const std::string problems = Problems(GenerateCase(choices, policy));
    ASSERT_EQ(problems, "")
        << "input " << i << " of " << bytes.size() << " bytes";
  }
}

TEST(GeneratorTest, ShortInputsAreValid) {
  const Policy policy;
  for (uint32_t v = 0; v < 65536; v += 7) {  // every 1-byte input, most 2-byte
    const std::vector<uint8_t> one = {static_cast<uint8_t>(v)};
    const std::vector<uint8_t> two = {static_cast<uint8_t>(v),
                                      static_cast<uint8_t>(v >> 8)};
    for (const auto* bytes : {&one, &two}) {
      ByteChoices choices(*bytes);
      const std::string problems = Problems(GenerateCase(choices, policy));
      ASSERT_EQ(problems, "") << "input " << v;
    }
  }
}

// Limits and weights at their extremes still make valid cases: every weight
// and chance 0 (each choice falls back to the simplest), and everything
// large.
TEST(GeneratorTest, ExtremePoliciesMakeValidCases) {
  Policy zero;
  zero.name = "zero";
  zero.memory_weights = {};
  zero.init_weights = {};
  zero.interesting_values.clear();
  zero.statement_weights = {};
  zero.op_weights = {};
  zero.sync_weights = {};
  zero.uav_address_weights = {};
  zero.tgsm_address_weights = {};
  zero.aliasing_weights = {};
  zero.edge_coordinate_weights = {};
  zero.value_weights = {};
  zero.comparand_weights = {};
  zero.dst0_component_weights = {};
  zero.id_source_weights = {};
  zero.max_results = 0;
  Policy big;
  big.name = "big";
  big.max_groups = 65535;
  big.max_group_threads = 1024;
  big.max_memories = 63;
  big.max_tgsm = 8;
  big.max_raw_words = 4096;
  big.max_stride_words = 64;
  big.max_elements = 256;
  big.max_tgsm_words = 1024;
  big.max_tgsm_elements = 1024;
  big.max_extent = {128, 16, 16};
  big.max_statements = 40;
  big.max_block_statements = 6;
  big.max_depth = 4;
  big.max_loop_iterations = 16;
  big.max_results = 64;
  big.max_threads_per_word_log2 = 31;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    for (const Policy* p : {&zero, &big}) {
      const std::string problems = Problems(FromSeed(seed, *p));
      ASSERT_EQ(problems, "") << p->name << ", seed " << seed;
    }
  }
}

// Out of bytes every draw is 0, which must mean the simplest choice
// everywhere: one thread, one small raw UAV, one atomic.
TEST(GeneratorTest, EmptyInputMakesTheSimplestCase) {
  ByteChoices empty({});
  const isa::Case c = GenerateCase(empty, Policy{});
  EXPECT_EQ(Problems(c), "");
  EXPECT_EQ(c.groups, (std::array<uint32_t, 3>{1, 1, 1}));
  ASSERT_EQ(c.resources.size(), 1u);
  EXPECT_EQ(c.resources[0].kind, isa::ResourceKind::kRaw);
  EXPECT_EQ(c.resources[0].words, 1u);
  int atomics = 0;
  for (const isa::Instruction& i : c.shader.instructions) {
    atomics += i.info().is_atomic();
    if (i.op == isa::Op::kDclThreadGroup) {
      EXPECT_EQ(i.operands[0].index * i.operands[1].index * i.operands[2].index,
                1u);
    }
  }
  EXPECT_EQ(atomics, 1);
  // Zero bytes are the same draws as no bytes.
  const std::vector<uint8_t> zeros(64, 0);
  ByteChoices zero(zeros);
  EXPECT_EQ(GenerateCase(zero, Policy{}), c);
}

uint64_t TotalThreads(const isa::Case& c) {
  uint64_t n = uint64_t{c.groups[0]} * c.groups[1] * c.groups[2];
  for (const isa::Instruction& i : c.shader.instructions) {
    if (i.op == isa::Op::kDclThreadGroup) {
      n *= uint64_t{i.operands[0].index} * i.operands[1].index *
           i.operands[2].index;
    }
  }
  return n;
}

// The dispatch-size swarm: most default cases are small (cheap to judge),
// the rest full size; `wide` makes only full-size, larger dispatches.
TEST(GeneratorTest, DispatchSizesFollowThePolicy) {
  const Policy def = Preset("default"), wide = Preset("wide");
  int small = 0;
  uint64_t widest = 0, widest_default = 0;
  constexpr int kCases = 2000;
  for (uint64_t seed = 0; seed < kCases; ++seed) {
    const uint64_t n = TotalThreads(FromSeed(seed, def));
    small += n <= uint64_t{def.small_max_groups} * def.small_max_group_threads;
    widest_default = std::max(widest_default, n);
    widest = std::max(widest, TotalThreads(FromSeed(seed, wide)));
  }
  // 700 per mille are small by construction; full-size draws can be too.
  EXPECT_GT(small, kCases * 70 / 100);
  EXPECT_LT(small, kCases * 90 / 100);
  EXPECT_EQ(widest_default, uint64_t{def.max_groups} * def.max_group_threads);
  EXPECT_GT(widest, widest_default);
  EXPECT_LE(widest, uint64_t{wide.max_groups} * wide.max_group_threads);
}

TEST(GeneratorTest, EveryAtomicOnEveryMemoryKind) {
  isa::CoverageMatrix m;
  const Policy policy;
  for (uint64_t seed = 0; seed < 3000; ++seed) m.Add(FromSeed(seed, policy));
  for (const isa::OpcodeInfo& row : isa::AllOpcodes()) {
    if (!row.is_atomic()) continue;
    for (int k = 0; k < isa::kTargetKindCount; ++k) {
      const auto kind = static_cast<isa::TargetKind>(k);
      if (!isa::IsLegal(row.op, kind)) continue;
      EXPECT_GT(m.Count(row.op, kind), 0)
          << row.mnemonic << " on " << isa::TargetKindName(kind) << "\n"
          << m.Render();
    }
  }
}

TEST(GeneratorTest, PrintParseRoundTrip) {
  const std::vector<std::string> names = PolicyNames();
  for (uint64_t seed = 0; seed < 6000; ++seed) {
    const std::string& name = names[seed % names.size()];
    const isa::Case c = FromSeed(seed, Preset(name));
    const std::string text = isa::PrintCase(c);
    absl::StatusOr<isa::Case> back = isa::ParseCase(text, "generated.case");
    ASSERT_TRUE(back.ok()) << name << ", seed " << seed << ": " << back.status()
                           << "\n"
                           << text;
    ASSERT_TRUE(*back == c) << name << ", seed " << seed << "\n" << text;
    ASSERT_EQ(isa::PrintCase(*back), text);
  }
}

// Callers add the seed and the policy (cli gen, the campaign).
TEST(GeneratorTest, MetadataNamesTheGenerator) {
  const isa::Case c = FromSeed(5, Preset("counters"));
  const std::vector<std::pair<std::string, std::string>> want = {
      {"generator", "2"}};
  EXPECT_EQ(c.metadata, want);
}

TEST(GeneratorTest, SameSeedSameCase) {
  const Policy policy;
  int distinct = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    const isa::Case a = FromSeed(seed, policy);
    EXPECT_TRUE(a == FromSeed(seed, policy)) << seed;
    distinct += !(a == FromSeed(seed + 1, policy));
  }
  EXPECT_GT(distinct, 190);
}

// Pins what seeds make, on every compiler and standard library: the
// generator draws only through Choices (no std:: distributions). A change to
// PrintCase changes the hashes too; the failure message prints new ones.
TEST(GeneratorTest, GoldenCases) {
  struct Golden {
    uint64_t seed;
    const char* policy;
    uint64_t hash;
  };
  const Golden kGoldens[] = {
      {1, "default", 0x6249e57c79662c50ull},
      {2, "default", 0x9a3dd5158d1f5f8full},
      {3, "default", 0x64f7adb56c0aee22ull},
      {0xdeadbeef, "default", 0xa5f2b4b6d0a0ea1cull},
      {7, "untraceable", 0x666d76ab26d90c79ull},
      {7, "tgsm", 0xfe121179064bf8ebull},
      {7, "wide", 0x0974099d488c4e56ull},
  };
  for (const Golden& g : kGoldens) {
    const std::string text = isa::PrintCase(FromSeed(g.seed, Preset(g.policy)));
    EXPECT_EQ(Fnv1a64(text), g.hash)
        << absl::StrFormat("seed 0x%x, %s: 0x%016xull\n", g.seed, g.policy,
                           Fnv1a64(text))
        << text;
  }
}

// The addresses reach every outcome of spec 1.3, as the oracle classifies
// them: in bounds, SKIP (out of bounds), UAV-POISON (misaligned, offset past
// the stride), TGSM-POISON; and compares both succeed and fail (E-5, E-6).
TEST(GeneratorTest, ReachesEveryAddressOutcome) {
  RunOptions options;  // the oracle
  absl::StatusOr<std::unique_ptr<targets::Target>> target = MakeTarget(options);
  ASSERT_TRUE(target.ok()) << target.status();
  std::array<int, 5> classes = {0, 0, 0, 0, 0};
  int cmp_succeeded = 0, cmp_failed = 0;
  const Policy policy;
  for (uint64_t seed = 0; seed < 1500; ++seed) {
    const isa::Case c = FromSeed(seed, policy);
    absl::StatusOr<isa::Outcome> out = (*target)->Run(c);
    ASSERT_TRUE(out.ok()) << out.status();
    for (const isa::AtomicEvent& e : out->trace) {
      ++classes[static_cast<size_t>(e.address)];
      const isa::Instruction& i = c.shader.instructions[e.instruction];
      if (i.info().rmw == isa::Rmw::kCmpExch && e.returned &&
          e.address == isa::AddressClass::kInBounds) {
        (*e.returned == e.src0 ? cmp_succeeded : cmp_failed)++;
      }
    }
  }
  EXPECT_GT(classes[static_cast<size_t>(isa::AddressClass::kInBounds)], 0);
  EXPECT_GT(classes[static_cast<size_t>(isa::AddressClass::kSkip)], 0);
  EXPECT_GT(classes[static_cast<size_t>(isa::AddressClass::kUavPoison)], 0);
  EXPECT_GT(classes[static_cast<size_t>(isa::AddressClass::kTgsmPoison)], 0);
  EXPECT_GT(cmp_succeeded, 0);
  EXPECT_GT(cmp_failed, 0);
}

}  // namespace
}  // namespace atomfuzz::fuzz
