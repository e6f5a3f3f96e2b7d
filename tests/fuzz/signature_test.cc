// Bucket signatures: the hash is frozen (ids name directories that outlive
// the binary), keys parse back, and a corpus case with an injected bug
// signs the same way on every run.
#include "fuzz/triage/signature.h"

#include <string>

#include "fuzz/differential.h"
#include "fuzz/runner.h"
#include "gtest/gtest.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

absl::StatusOr<Signature> SignCorpusCase(const std::string& file,
                                         const std::string& inject) {
  absl::StatusOr<isa::Case> c = testutil::LoadCorpusCase(file);
  if (!c.ok()) return c.status();
  RunOptions options;
  options.target = "fast";
  options.target_options.deterministic = true;
  options.target_options.flags["inject"] = inject;
  auto target = MakeTarget(options);
  if (!target.ok()) return target.status();
  absl::StatusOr<Differential> d = RunAndJudge(*c, **target);
  if (!d.ok()) return d.status();
  return SignatureOf(*c, *d, TargetLabel(options));
}

TEST(Fnv1a64, MatchesThePublishedVectors) {
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cull);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171f73967e8ull);
}

TEST(Signature, GoldenIdIsFrozen) {
  const Signature s{
      "imm_atomic_xor",        "u-raw", "in-bounds", "wrong-return",
      "fast+inject=xor-as-or", "",      ""};
  EXPECT_EQ(
      s.Key(),
      "imm_atomic_xor|u-raw|in-bounds|wrong-return|fast+inject=xor-as-or");
  // Changing this breaks every existing finding store: don't.
  EXPECT_EQ(s.Id(), "7dc5d4b833602d6e");
  EXPECT_EQ(s.Id().size(), 16u);
}

TEST(Signature, KeyParsesBack) {
  const Signature s{"atomic_xor+imm_atomic_iadd",
                    "g-struct",
                    "tgsm-poison",
                    "wrong-memory",
                    "fast",
                    "",
                    ""};
  absl::StatusOr<Signature> back = ParseSignatureKey(s.Key());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, s);
  Signature with_cause = s;
  with_cause.cause = "vkd3d-shader:-Unrecognized-opcode-N";
  back = ParseSignatureKey(with_cause.Key());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, with_cause);
  EXPECT_NE(with_cause.Id(), s.Id());
  EXPECT_FALSE(ParseSignatureKey("a|b|c").ok());
  EXPECT_FALSE(ParseSignatureKey("a|b||d|e").ok());
}

TEST(Signature, ConditionsFollowAnEmptyCause) {
  Signature s;
  s.opcode = "imm:*";
  s.resource = "*";
  s.address = "in-bounds";
  s.divergence = "wrong-value";
  s.target = "fast";
  s.conditions = "dst!=x";
  EXPECT_EQ(s.Key(), "imm:*|*|in-bounds|wrong-value|fast||dst!=x");
  absl::StatusOr<Signature> back = ParseSignatureKey(s.Key());
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, s);
  // An empty conditions field is not a key Key() writes.
  EXPECT_FALSE(ParseSignatureKey("a|b|c|d|e|f|").ok());
  EXPECT_FALSE(ParseSignatureKey("a|b|c|d|e|f|g|h").ok());
}

TEST(Signature, TargetLabelNamesTheInjection) {
  EXPECT_EQ(TargetLabel("fast", ""), "fast");
  EXPECT_EQ(TargetLabel("fast", "xor-as-or"), "fast+inject=xor-as-or");
  RunOptions o;
  o.target = "fast";
  o.target_options.flags["inject"] = "oob-wrap";
  o.target_options.threads = 8;  // not part of the label
  EXPECT_EQ(TargetLabel(o), "fast+inject=oob-wrap");
}

TEST(Signature, SameCaseSignsTheSameOnEveryRun) {
  absl::StatusOr<Signature> first = SignCorpusCase(
      "corpus/spec/e25b-commutative-prefix-sets.case", "xor-as-or");
  ASSERT_TRUE(first.ok()) << first.status();
  for (int run = 0; run < 3; ++run) {
    absl::StatusOr<Signature> again = SignCorpusCase(
        "corpus/spec/e25b-commutative-prefix-sets.case", "xor-as-or");
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_EQ(again->Key(), first->Key());
    EXPECT_EQ(again->Id(), first->Id());
  }
  EXPECT_EQ(
      first->Key(),
      "imm_atomic_xor|u-raw|in-bounds|wrong-return|fast+inject=xor-as-or");
}

TEST(Signature, AddressClassComesFromTheSpec) {
  // The wrapped atomic hit a word on the target; the spec skips it.
  absl::StatusOr<Signature> s =
      SignCorpusCase("corpus/spec/e12-raw-bounds.case", "oob-wrap");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->address, "oob-skip");
  EXPECT_EQ(s->resource, "u-raw");
}

TEST(Signature, CounterFindingsNameTheCounterAtomic) {
  absl::StatusOr<Signature> s = SignCorpusCase(
      "corpus/spec/e36-counter-wraps.case", "consume-pre-decrement");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->opcode, "imm_atomic_consume");
  EXPECT_EQ(s->resource, "u-struct");
  EXPECT_EQ(s->divergence, "wrong-counter");
}

TEST(Signature, AllowedOutcomeHasNoSignature) {
  absl::StatusOr<Signature> s =
      SignCorpusCase("corpus/spec/e01-iadd-wrap.case", "");
  EXPECT_TRUE(absl::IsFailedPrecondition(s.status())) << s.status();
}

TEST(Signature, WorkerFailuresKnowOnlyKindAndTarget) {
  absl::StatusOr<isa::Case> c =
      testutil::LoadCorpusCase("corpus/spec/e01-iadd-wrap.case");
  ASSERT_TRUE(c.ok());
  const Signature crash =
      WorkerFailureSignature(*c, WorkerFailure::kCrash, "fast");
  EXPECT_EQ(crash.Key(), "?|?|?|crash|fast");
  const Signature hang =
      WorkerFailureSignature(*c, WorkerFailure::kTimeout, "fast");
  EXPECT_EQ(hang.divergence, "timeout");
  EXPECT_NE(crash.Id(), hang.Id());
}

TEST(Signature, CauseMasksNumbersAndKeepsTheWords) {
  EXPECT_EQ(CauseOf("vkd3d-shader: Unrecognized opcode 0x52 (token 17)."),
            "vkd3d-shader:-Unrecognized-opcode-N-(token-N).");
  EXPECT_EQ(CauseOf("spirv-val: ID '6' decorated with ArrayStride multiple "
                    "times\n  %x = ..."),
            "spirv-val:-ID-'N'-decorated-with-ArrayStride-multiple-times");
  EXPECT_EQ(CauseOf("killed by signal 11 (SIGSEGV)"),
            "killed-by-signal-N-(SIGSEGV)");
  // A crash's frames tell it from another crash of the same signal.
  EXPECT_EQ(CauseOf("killed by signal 11 (SIGSEGV)\nframes: "
                    "libvulkan_lvp.so:lp_build_tgsi < libLLVM-15.so.1:? < "
                    "libvulkan_lvp.so:lvp_pipeline_compile"),
            "killed-by-signal-N-(SIGSEGV)@libvulkan_lvp.so:lp_build_tgsi-<-"
            "libLLVM-N.so.N:?-<-libvulkan_lvp.so:lvp_pipeline_compile");
  // Where a library has no symbol, the offset into it tells two sites
  // apart; scanned callers ("~", under JIT code) and the thread are kept.
  // (Frames found by scanning the stack, "~", vary from run to run: the
  // key leaves them out.)
  EXPECT_EQ(CauseOf("killed by signal 6 (SIGABRT)\nframes: "
                    "libvkd3d-shader.so.1:+0x2bdc5 < ~libvulkan_lvp.so:? "
                    "(thread lavapipe-3)"),
            "killed-by-signal-N-(SIGABRT)@libvkd3d-shader.so.N:+0x2bdc5-"
            "(thread-lavapipe-N)");
  EXPECT_EQ(CauseOf("killed by signal 11\nframes: ?:? < ~lib.so:? (thread a)"),
            CauseOf("killed by signal 11\nframes: ?:? (thread a)"));
  EXPECT_NE(CauseOf("killed by signal 6\nframes: lib.so:+0x10"),
            CauseOf("killed by signal 6\nframes: lib.so:+0x24"));
  // One key for every instruction spirv-val finds outside a block.
  EXPECT_EQ(CauseOf("spirv-val: ULessThan must appear in a block\n"
                    "  %157 = OpULessThan %bool %uint_2147483648 %uint_6"),
            "spirv-val:-an-instruction-must-appear-in-a-block");
  EXPECT_EQ(CauseOf("spirv-val: Load must appear in a block"),
            CauseOf("spirv-val: MemoryBarrier must appear in a block"));
  EXPECT_NE(CauseOf("spirv-val: Load must appear in a block"),
            CauseOf("spirv-val: ID '6' decorated with ArrayStride multiple "
                    "times"));
  EXPECT_EQ(CauseOf("a|b"), "a/b");
  EXPECT_EQ(CauseOf(""), "");
  EXPECT_LE(CauseOf(std::string(200, 'x')).size(), 60u);
}

TEST(Signature, RunsThatDidNotFinishAreToldApartByTheirMessage) {
  absl::StatusOr<isa::Case> c =
      testutil::LoadCorpusCase("corpus/spec/e01-iadd-wrap.case");
  ASSERT_TRUE(c.ok());
  auto sign = [&](isa::RunStatus status, const std::string& message) {
    Differential d;
    d.outcome.status = status;
    d.outcome.message = message;
    d.verdict.kind = oracle::Verdict::Kind::kDivergence;
    d.verdict.findings.push_back(
        {oracle::FindingKindOf(status), "the run", message});
    absl::StatusOr<Signature> s = SignatureOf(*c, d, "vulkan");
    EXPECT_TRUE(s.ok()) << s.status();
    return s.ok() ? *s : Signature{};
  };
  const Signature a =
      sign(isa::RunStatus::kRejected, "vkd3d-shader: Unrecognized opcode 0x52");
  const Signature b =
      sign(isa::RunStatus::kRejected, "vkd3d-shader: Unrecognized opcode 0xeb");
  const Signature c2 = sign(isa::RunStatus::kRejected, "DXBC encoder: no room");
  EXPECT_EQ(a.Id(), b.Id());
  EXPECT_NE(a.Id(), c2.Id());
  EXPECT_EQ(a.divergence, "rejected");
  EXPECT_NE(
      sign(isa::RunStatus::kCrashed, "killed by signal 11 (SIGSEGV)").Id(),
      sign(isa::RunStatus::kCrashed, "killed by signal 6 (SIGABRT)").Id());
}

}  // namespace
}  // namespace atomfuzz::fuzz
