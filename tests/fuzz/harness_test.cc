// "Run one input" (fuzz/engines/harness.h), as both fuzz harnesses use it:
// options from ATOMFUZZ_OPTIONS text, corpus cases pass on the correct target,
// an injected bug is a divergence with a readable report, and random bytes
// never crash or report on the correct target.
#include "fuzz/engines/harness.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "fuzz/engines/finding_abort.h"
#include "fuzz/generate/choices.h"
#include "gtest/gtest.h"
#include "isa/coverage.h"
#include "isa/opcode_table.h"
#include "tests/fuzz/corpus_files.h"
#include "tests/fuzz/fast_testing.h"

namespace atomfuzz::fuzz {
namespace {

using Kind = InputResult::Kind;

absl::Span<const uint8_t> Bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

std::string CorpusText(const std::string& file) {
  absl::StatusOr<isa::Case> c = testutil::LoadCorpusCase(file);
  EXPECT_TRUE(c.ok()) << file << ": " << c.status();
  return c.ok() ? isa::PrintCase(*c) : "";
}

std::unique_ptr<Harness> Make(absl::string_view options) {
  absl::StatusOr<HarnessOptions> o = ParseHarnessOptions(options);
  EXPECT_TRUE(o.ok()) << o.status();
  absl::StatusOr<std::unique_ptr<Harness>> h = Harness::Create(*o);
  EXPECT_TRUE(h.ok()) << h.status();
  return h.ok() ? *std::move(h) : nullptr;
}

TEST(HarnessOptionsTest, ParsesKeysOverTheDefaults) {
  absl::StatusOr<HarnessOptions> o = ParseHarnessOptions(
      "target=oracle, inject=xor-as-or,policy=tgsm,deterministic=0,threads=3,"
      "max_steps=99,max_work=1000,max_words=50,max_bytes=70,"
      "max_instructions=40,search_budget=5,schedule=random:7");
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->target, "oracle");
  EXPECT_EQ(o->inject, "xor-as-or");
  EXPECT_EQ(o->policy, "tgsm");
  EXPECT_FALSE(o->deterministic);
  EXPECT_EQ(o->threads, 3);
  EXPECT_EQ(o->max_steps, 99u);
  EXPECT_EQ(o->decode.limits.max_work, 1000u);
  EXPECT_EQ(o->decode.limits.max_words, 50u);
  EXPECT_EQ(o->decode.max_bytes, 70u);
  EXPECT_EQ(o->decode.limits.max_instructions, 40u);
  EXPECT_EQ(o->search_budget, 5u);
  EXPECT_EQ(o->schedule.kind, oracle::Schedule::Kind::kRandom);
  const absl::StatusOr<HarnessOptions> empty = ParseHarnessOptions("");
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->target, "fast");
  EXPECT_TRUE(empty->deterministic);
}

TEST(HarnessOptionsTest, ATargetsHarnessStartsFromItsOwnDefaults) {
  absl::StatusOr<HarnessOptions> defaults =
      ParseHarnessOptions("target=vulkan,vkd3d=$ORIGIN/libvkd3d-shader.so");
  ASSERT_TRUE(defaults.ok()) << defaults.status();
  absl::StatusOr<HarnessOptions> o =
      ParseHarnessOptions("isolate=1,policy=tgsm", *defaults);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->target, "vulkan");
  EXPECT_EQ(o->vkd3d, "$ORIGIN/libvkd3d-shader.so");
  EXPECT_TRUE(o->isolate);
  EXPECT_EQ(o->policy, "tgsm");
  // ATOMFUZZ_OPTIONS wins over the harness's defaults.
  o = ParseHarnessOptions("target=fast", *defaults);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->target, "fast");
  EXPECT_FALSE(ParseHarnessOptions("").value().isolate);
}

TEST(HarnessOptionsTest, OriginIsTheBinarysDirectory) {
  const std::string expanded = ExpandOrigin("ext:$ORIGIN/t.so:notrace");
  const std::string self =
      std::filesystem::read_symlink("/proc/self/exe").parent_path().string();
  EXPECT_EQ(expanded, "ext:" + self + "/t.so:notrace");
  EXPECT_EQ(ExpandOrigin("fast"), "fast");
}

TEST(HarnessTest, AnExternalTargetRunsInTheHarnesssProcess) {
  // In process (the default), the engine sees the executor's coverage and
  // crashes; isolate=1 puts it in a child as the CLI does. Both judge alike.
  const std::string text = CorpusText("corpus/spec/e07-returns-old.case");
  for (const char* isolate : {"0", "1"}) {
    const std::unique_ptr<Harness> h = Make(absl::StrCat(
        "target=ext:", SIMPLE_EXECUTOR_PATH, ",isolate=", isolate));
    ASSERT_NE(h, nullptr);
    const InputResult r = h->RunOne(Bytes(text));
    EXPECT_EQ(r.kind, Kind::kPassed) << isolate << ": " << r.report;
  }
}

TEST(HarnessOptionsTest, RejectsUnknownKeysAndBadValues) {
  for (absl::string_view bad :
       {"colour=red", "max_work=lots", "deterministic=maybe", "target",
        "threads=-1", "schedule=sometimes", "isolate=perhaps",
        "generalise_seconds=-1", "generalise_seconds=soon"}) {
    const absl::StatusOr<HarnessOptions> o = ParseHarnessOptions(bad);
    EXPECT_EQ(o.status().code(), absl::StatusCode::kInvalidArgument) << bad;
  }
}

TEST(HarnessTest, CreateRejectsUnknownNames) {
  HarnessOptions o;
  o.inject = "no-such-bug";
  EXPECT_FALSE(Harness::Create(o).ok());
  o = HarnessOptions{};
  o.policy = "no-such-policy";
  EXPECT_FALSE(Harness::Create(o).ok());
  o = HarnessOptions{};
  o.target = "no-such-target";
  EXPECT_FALSE(Harness::Create(o).ok());
}

TEST(HarnessTest, CorpusCasePassesOnTheCorrectTarget) {
  const std::unique_ptr<Harness> h = Make("");
  ASSERT_NE(h, nullptr);
  const InputResult r =
      h->RunOne(Bytes(CorpusText("corpus/spec/e07-returns-old.case")));
  EXPECT_EQ(r.kind, Kind::kPassed) << r.report;
}

TEST(HarnessTest, InjectedBugIsADivergenceWithTheCase) {
  const std::unique_ptr<Harness> h = Make("inject=return-new");
  ASSERT_NE(h, nullptr);
  const InputResult r =
      h->RunOne(Bytes(CorpusText("corpus/spec/e07-returns-old.case")));
  ASSERT_EQ(r.kind, Kind::kDivergence) << r.report;
  EXPECT_NE(r.report.find("divergence: "), std::string::npos) << r.report;
  EXPECT_NE(r.report.find("inject = return-new"), std::string::npos);
  const size_t at = r.report.find("--- case ---\n");
  ASSERT_NE(at, std::string::npos);
  // The report's case is a case file: it reads back.
  EXPECT_TRUE(isa::ParseCase(r.report.substr(at + 13)).ok()) << r.report;
}

// A divergence carries its bucket's signature, which names the frames the
// engines abort through (finding_abort.h).
TEST(HarnessTest, ADivergenceCarriesItsSignature) {
  const std::unique_ptr<Harness> h = Make("inject=return-new");
  ASSERT_NE(h, nullptr);
  const InputResult r =
      h->RunOne(Bytes(CorpusText("corpus/spec/e07-returns-old.case")));
  ASSERT_EQ(r.kind, Kind::kDivergence) << r.report;
  EXPECT_NE(r.signature_key.find("|wrong-return|fast+inject=return-new"),
            std::string::npos)
      << r.signature_key;
  EXPECT_TRUE(HasOpFrame(r.signature_opcode)) << r.signature_opcode;
  EXPECT_TRUE(HasMemoryFrame(r.signature_resource)) << r.signature_resource;
}

// known=FILE passes over the buckets it lists (a translator's open bugs),
// and only those.
TEST(HarnessTest, AKnownBucketIsPassedOver) {
  const std::string text = CorpusText("corpus/spec/e07-returns-old.case");
  const std::unique_ptr<Harness> h = Make("inject=return-new");
  ASSERT_NE(h, nullptr);
  const InputResult found = h->RunOne(Bytes(text));
  ASSERT_EQ(found.kind, Kind::kDivergence) << found.report;
  const std::string file = ::testing::TempDir() + "/harness-known-findings.txt";
  for (const auto& [key, kind] :
       {std::pair<std::string, Kind>{found.signature_key, Kind::kRejected},
        {"imm_atomic_or|u-raw|in-bounds|wrong-return|fast",
         Kind::kDivergence}}) {
    std::ofstream(file) << "# test\n" << key << " = #0 a test\n";
    const std::unique_ptr<Harness> known =
        Make(absl::StrCat("inject=return-new,known=", file));
    ASSERT_NE(known, nullptr);
    const InputResult r = known->RunOne(Bytes(text));
    EXPECT_EQ(r.kind, kind) << key << ": " << r.report;
    if (kind == Kind::kRejected) EXPECT_EQ(r.report, "known: #0 a test");
  }
  absl::StatusOr<HarnessOptions> missing =
      ParseHarnessOptions("known=/no/such/known-findings.txt");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(Harness::Create(*missing).ok());
}

// A divergence listed by its essential signature only (one bug, many
// found signatures) is passed over after generalising it, as a campaign
// does; with generalise_seconds=0 only found signatures count.
TEST(HarnessTest, AKnownEssentialSignatureIsPassedOver) {
  const std::string text = CorpusText("corpus/spec/e07-returns-old.case");
  const std::string file =
      ::testing::TempDir() + "/harness-known-essential.txt";
  std::ofstream(file) << "nothing|u-raw|in-bounds|wrong-return|fast = #0\n";
  const std::unique_ptr<Harness> unlisted =
      Make(absl::StrCat("inject=return-new,known=", file));
  ASSERT_NE(unlisted, nullptr);
  const InputResult found = unlisted->RunOne(Bytes(text));
  ASSERT_EQ(found.kind, Kind::kDivergence) << found.report;
  const std::string kLine = "\natomfuzz essential signature: ";
  const size_t at = found.report.find(kLine);
  ASSERT_NE(at, std::string::npos) << found.report;
  const size_t from = at + kLine.size();
  const std::string essential =
      found.report.substr(from, found.report.find('\n', from) - from);
  EXPECT_NE(essential, found.signature_key);

  std::ofstream(file) << essential << " = #0 a test\n";
  const std::unique_ptr<Harness> listed =
      Make(absl::StrCat("inject=return-new,known=", file));
  ASSERT_NE(listed, nullptr);
  const InputResult r = listed->RunOne(Bytes(text));
  EXPECT_EQ(r.kind, Kind::kRejected) << r.report;
  EXPECT_EQ(r.report,
            absl::StrCat("known: #0 a test (essential ", essential, ")"));
  const std::unique_ptr<Harness> found_only =
      Make(absl::StrCat("inject=return-new,generalise_seconds=0,known=", file));
  ASSERT_NE(found_only, nullptr);
  EXPECT_EQ(found_only->RunOne(Bytes(text)).kind, Kind::kDivergence);
}

// What a target's registry row says it refuses is not run on it: vkd3d 1.2's
// umad would end each vulkan harness run at the first case that has one.
TEST(HarnessTest, WhatTheTargetIsKnownToRefuseIsNotRun) {
  absl::StatusOr<isa::Case> c = isa::ParseCase(R"([dispatch]
groups 1, 1, 1
[uav u0]
kind raw
words 1
[shader]
cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1, 1, 1
umad r0.x, l(2), l(3), l(4)
store_raw u0.x, l(0), r0.x
ret
)");
  ASSERT_TRUE(c.ok()) << c.status();
  const std::unique_ptr<Harness> h = Make("target=vulkan");
  ASSERT_NE(h, nullptr);
  const InputResult r = h->RunOne(Bytes(isa::PrintCase(*c)));
  EXPECT_EQ(r.kind, Kind::kRejected);
  EXPECT_EQ(r.report, "umad: known to be refused by vulkan");
  EXPECT_EQ(h->policy().op_weights[static_cast<size_t>(isa::Op::kUMad)], 0);

  // vkd3d 1.2's UAV fences are execution barriers (findings.md #27).
  isa::Case fenced = *c;
  for (isa::Instruction& in : fenced.shader.instructions) {
    if (in.op != isa::Op::kUMad) continue;
    in = isa::Instruction{};
    in.op = isa::Op::kSync;
    in.sync_flags = isa::kSyncUavGlobal;
  }
  const InputResult f = h->RunOne(Bytes(isa::PrintCase(fenced)));
  EXPECT_EQ(f.kind, Kind::kRejected);
  EXPECT_EQ(f.report, "sync_uglobal: known to run wrongly on vulkan");
}

// vkd3d indexes g# unguarded (findings.md #5): a case whose g# accesses may
// leave their memory is not run on vulkan, where lavapipe's stray write
// could surface cases later; the fast target runs it.
TEST(HarnessTest, AGAccessOutOfBoundsIsNotRunWhereItIsUnguarded) {
  const std::string text = R"([dispatch]
groups 1, 1, 1
[uav u0]
kind raw
words 2
[shader]
cs_5_0
dcl_uav_raw u0
dcl_tgsm_raw g0, 8
dcl_input vThreadIDInGroupFlattened
dcl_temps 2
dcl_thread_group 4, 1, 1
ishl r0.x, vThreadIDInGroupFlattened.x, l(2)
store_raw g0.x, r0.x, l(7)
store_raw u0.x, l(0), l(1)
ret
)";
  const std::unique_ptr<Harness> vulkan = Make("target=vulkan");
  ASSERT_NE(vulkan, nullptr);
  const InputResult r = vulkan->RunOne(Bytes(text));
  EXPECT_EQ(r.kind, Kind::kRejected);
  EXPECT_EQ(r.report,
            "a g# access out of bounds: known to reach outside its memory on "
            "vulkan (docs/findings.md #5)");
  const std::unique_ptr<Harness> fast = Make("target=fast");
  ASSERT_NE(fast, nullptr);
  EXPECT_EQ(fast->RunOne(Bytes(text)).kind, Kind::kPassed);
}

// Every atomic the spec has, and every memory kind, aborts through a frame
// of its own.
TEST(FindingAbortTest, EveryAtomicAndMemoryKindHasAFrame) {
  for (const isa::OpcodeInfo& row : isa::AllOpcodes()) {
    if (row.family != isa::Family::kAtomic &&
        row.family != isa::Family::kImmAtomic &&
        row.family != isa::Family::kCounter)
      continue;
    EXPECT_TRUE(HasOpFrame(row.mnemonic)) << row.mnemonic;
  }
  for (int k = 0; k < isa::kTargetKindCount; ++k) {
    const absl::string_view name =
        isa::TargetKindName(static_cast<isa::TargetKind>(k));
    EXPECT_TRUE(HasMemoryFrame(name)) << name;
  }
  EXPECT_FALSE(HasOpFrame("mov"));
  EXPECT_FALSE(HasOpFrame("atomic_and+atomic_or"));
  EXPECT_FALSE(HasMemoryFrame("*"));
}

// The abort's stack names the kind, atomic and memory (death test: the
// symbolized frames are what ClusterFuzz reads).
TEST(FindingAbortDeathTest, AbortsThroughFramesNamedAfterTheSignature) {
  InputResult r;
  r.kind = Kind::kDivergence;
  r.divergence = oracle::FindingKind::kWrongReturn;
  r.report = "a report";
  r.signature_key = "imm_atomic_cmp_exch|u-raw|in-bounds|wrong-return|fast";
  r.signature_opcode = "imm_atomic_cmp_exch";
  r.signature_resource = "u-raw";
  EXPECT_DEATH(AbortOnFinding(r),
               "atomfuzz signature: imm_atomic_cmp_exch\\|u-raw");
}

// The limits leave every corpus case runnable, and none diverges (an
// endless loop in corpus/regress is judged as the spec's endless run too).
TEST(HarnessTest, EveryCorpusCasePassesOnTheCorrectTarget) {
  const std::unique_ptr<Harness> h = Make("");
  ASSERT_NE(h, nullptr);
  for (const std::string& file : testutil::CorpusCaseFiles()) {
    const InputResult r = h->RunOne(Bytes(CorpusText(file)));
    const bool endless = r.kind == Kind::kRejected &&
                         r.report.find("ran more than") != std::string::npos;
    EXPECT_TRUE(r.kind == Kind::kPassed || endless) << file << ": " << r.report;
  }
}

// The judge's serialization check is superlinear in the atomics on a word.
TEST(HarnessTest, RejectsOutcomesWithTooManyAtomicsOnOneWord) {
  const std::string text = testutil::CaseText(
      8, 64, testutil::RawUav(0, 4), "dcl_uav_raw u0\ndcl_temps 1\n",
      "imm_atomic_iadd r0.x, u0, l(0), l(1)\n");
  const std::unique_ptr<Harness> h = Make("max_atomics_per_word=511");
  ASSERT_NE(h, nullptr);
  const InputResult r = h->RunOne(Bytes(text));
  EXPECT_EQ(r.kind, Kind::kRejected);
  EXPECT_NE(r.report.find("512 atomics on one word"), std::string::npos)
      << r.report;
  EXPECT_EQ(Make("max_atomics_per_word=512")->RunOne(Bytes(text)).kind,
            Kind::kPassed);
}

TEST(HarnessTest, RejectsOversizedInputs) {
  const std::unique_ptr<Harness> h = Make("max_bytes=8");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->RunOne(Bytes("0123456789")).kind, Kind::kRejected);
}

TEST(HarnessTest, RandomBytesNeverReportOnTheCorrectTarget) {
  const std::unique_ptr<Harness> h = Make("");
  ASSERT_NE(h, nullptr);
  SeededChoices source(77);
  int passed = 0;
  for (int k = 0; k < 300; ++k) {
    std::string bytes(source.Below(512), '\0');
    for (char& b : bytes) b = static_cast<char>(source.Below(256));
    const InputResult r = h->RunOne(Bytes(bytes));
    ASSERT_NE(r.kind, Kind::kDivergence) << r.report;
    ASSERT_NE(r.kind, Kind::kError) << r.report;
    if (r.kind == Kind::kPassed) ++passed;
  }
  EXPECT_GT(passed, 150);
}

}  // namespace
}  // namespace atomfuzz::fuzz
