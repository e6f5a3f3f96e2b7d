// A trace without addresses (an instrumented GPU run) gets word, address
// class and operands from the oracle's run of the same case, so coverage
// and reports show the real address on every target.
#include "fuzz/trace_addresses.h"

#include <string>

#include "fuzz/differential.h"
#include "fuzz/runner.h"
#include "gtest/gtest.h"
#include "oracle/interpreter.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

// The oracle's own outcome with what an instrumented trace lacks wiped.
isa::Outcome WithoutAddresses(const isa::Outcome& o) {
  isa::Outcome stripped = o;
  stripped.trace_has_addresses = false;
  for (isa::AtomicEvent& e : stripped.trace) {
    e.word = 0;
    e.address = isa::AddressClass::kInBounds;
    e.src0 = e.src1 = 0;
  }
  return stripped;
}

int CountOutOfBounds(const isa::Outcome& o) {
  int n = 0;
  for (const isa::AtomicEvent& e : o.trace)
    n += e.address != isa::AddressClass::kInBounds;
  return n;
}

TEST(TraceAddresses, AStrippedTraceGetsTheOraclesAddressesBack) {
  for (const char* name : {"corpus/spec/e12-raw-bounds.case",
                           "corpus/spec/e20-typed-buffer-oob.case",
                           "corpus/spec/e14-structured-index-oob.case",
                           "corpus/seed/all-atomics-tex2darray.case"}) {
    absl::StatusOr<isa::Case> c = testutil::LoadCorpusCase(name);
    ASSERT_TRUE(c.ok()) << c.status();
    absl::StatusOr<isa::Outcome> reference =
        oracle::Interpret(*c, oracle::InterpretOptions{});
    ASSERT_TRUE(reference.ok()) << reference.status();
    isa::Outcome target = WithoutAddresses(*reference);
    ASSERT_TRUE(CompleteTraceAddresses(*c, {}, target)) << name;
    EXPECT_TRUE(target.trace_has_addresses);
    ASSERT_EQ(target.trace.size(), reference->trace.size());
    for (size_t i = 0; i < target.trace.size(); ++i)
      EXPECT_EQ(target.trace[i], reference->trace[i]) << name << " event " << i;
    // A second call changes nothing: the trace has its addresses now.
    EXPECT_FALSE(CompleteTraceAddresses(*c, {}, target));
  }
}

TEST(TraceAddresses, ATraceWithAddressesIsLeftAlone) {
  absl::StatusOr<isa::Case> c =
      testutil::LoadCorpusCase("corpus/spec/e12-raw-bounds.case");
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<isa::Outcome> reference =
      oracle::Interpret(*c, oracle::InterpretOptions{});
  ASSERT_TRUE(reference.ok());
  isa::Outcome target = WithoutAddresses(*reference);
  target.trace_has_addresses = true;  // the target claims its own
  EXPECT_FALSE(CompleteTraceAddresses(*c, {}, target));
  EXPECT_EQ(CountOutOfBounds(target), 0);
}

// On the real thing (lavapipe here): a vulkan run of out-of-bounds atomics
// comes out of RunOne with out-of-bounds address classes.
TEST(TraceAddresses, VulkanRunsReportOutOfBoundsAddresses) {
  // No Vulkan call in this process: the target's child opens the device,
  // and a device opened here before its fork would not survive it.
  RunOptions run;
  run.target = "vulkan";
  absl::StatusOr<std::unique_ptr<targets::Target>> t = MakeTarget(run);
  ASSERT_TRUE(t.ok()) << t.status();
  absl::StatusOr<isa::Case> c =
      testutil::LoadCorpusCase("corpus/spec/e12-raw-bounds.case");
  ASSERT_TRUE(c.ok()) << c.status();
  RunResult r = RunOne(*c, **t);
  if (r.kind == RunKind::kTargetFailed) GTEST_SKIP() << r.message;
  ASSERT_TRUE(r.outcome.has_value()) << r.message;
  ASSERT_TRUE(r.outcome->has_trace) << r.outcome->message;
  EXPECT_TRUE(r.outcome->trace_has_addresses);
  EXPECT_GT(CountOutOfBounds(*r.outcome), 0);
}

}  // namespace
}  // namespace atomfuzz::fuzz
