// Reports: the headline, the bucket, and the oracle beside the target for
// the words and returns that differ, with the atomics' lines.
#include "fuzz/triage/report.h"

#include <string>

#include "absl/strings/match.h"
#include "fuzz/reduce/reducer.h"
#include "gtest/gtest.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

struct Rendered {
  std::string text;
  Signature signature;
};

Rendered Render(const std::string& file, const std::string& inject) {
  isa::Case c = *testutil::LoadCorpusCase(file);
  c.metadata.emplace_back("seed", "0x42");
  RunOptions o;
  o.target = "fast";
  o.target_options.flags["inject"] = inject;
  auto target = MakeTarget(ReproducibleOptions(o));
  EXPECT_TRUE(target.ok());
  absl::StatusOr<Differential> d = RunAndJudge(c, **target);
  EXPECT_TRUE(d.ok());
  absl::StatusOr<Signature> s = SignatureOf(c, *d, TargetLabel(o));
  EXPECT_TRUE(s.ok()) << s.status();
  return {RenderReport(c, *d, *s), *s};
}

TEST(Report, ShowsOracleAndTargetSideBySide) {
  const Rendered r =
      Render("corpus/seed/all-atomics-tgsm-raw.case", "xor-as-or");
  const std::string& t = r.text;
  EXPECT_TRUE(
      absl::StrContains(t, "verdict:  divergence: wrong-memory at u0[2]"))
      << t;
  EXPECT_TRUE(absl::StrContains(t, "bucket:   " + r.signature.Key())) << t;
  EXPECT_TRUE(absl::StrContains(t, "target:   fast+inject=xor-as-or")) << t;
  EXPECT_TRUE(absl::StrContains(t, "seed = 0x42")) << t;
  EXPECT_TRUE(absl::StrContains(t, "| oracle allows | target gave")) << t;
  // The xor's word: the spec's value beside the or's.
  EXPECT_TRUE(absl::StrContains(t, "* u0[2]  | 0x5555aaaa    | 0xffffaaaa"))
      << t;
}

TEST(Report, ListsTheAtomicsWithTheirLines) {
  const Rendered r = Render("corpus/spec/e12-raw-bounds.case", "oob-wrap");
  EXPECT_TRUE(absl::StrContains(r.text, "atomics involved")) << r.text;
  EXPECT_TRUE(absl::StrContains(r.text, "imm_atomic_iadd")) << r.text;
  EXPECT_TRUE(absl::StrContains(r.text, "  line ")) << r.text;
  // A skipped atomic's return is undefined for the oracle.
  EXPECT_TRUE(absl::StrContains(r.text, "| ????????")) << r.text;
}

TEST(Report, WorkerFailureSaysWhatHappened) {
  isa::Case c = *testutil::LoadCorpusCase("corpus/spec/e01-iadd-wrap.case");
  const Signature s = WorkerFailureSignature(c, WorkerFailure::kCrash, "fast");
  const std::string t = RenderWorkerFailureReport(c, s, "killed by signal 11");
  EXPECT_TRUE(absl::StrContains(t, "verdict:  crash: killed by signal 11"))
      << t;
  EXPECT_TRUE(absl::StrContains(t, "bucket:   ?|?|?|crash|fast")) << t;
}

}  // namespace
}  // namespace atomfuzz::fuzz
