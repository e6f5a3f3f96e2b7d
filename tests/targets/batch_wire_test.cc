#include "targets/isolation/batch_wire.h"

#include <string>

#include "gtest/gtest.h"
#include "targets/isolation/outcome_wire.h"

namespace atomfuzz::targets {
namespace {

isa::Case Small(uint32_t groups) {
  absl::StatusOr<isa::Case> c = isa::ParseCase(
      absl::StrCat("[dispatch]\ngroups ", groups,
                   ", 1, 1\n[uav u0]\nkind raw\nwords 1\n[shader]\ncs_5_0\n"
                   "dcl_uav_raw u0\ndcl_thread_group 1, 1, 1\natomic_iadd u0, "
                   "l(0), l(1)\nret\n"));
  EXPECT_TRUE(c.ok()) << c.status();
  return *c;
}

std::vector<absl::StatusOr<isa::Outcome>> Results() {
  isa::Outcome ok;
  ok.message = "fine";
  isa::UavState u;
  u.slot = 2;
  u.words = {1, 2, 3};
  u.defined = {true, false, true};
  ok.uavs.push_back(u);
  isa::Outcome crashed;
  crashed.status = isa::RunStatus::kCrashed;
  crashed.message = "killed by signal 11 (SIGSEGV)";
  return {ok, absl::NotFoundError("no such thing"), crashed};
}

TEST(BatchWire, RequestRoundTrips) {
  const std::vector<isa::Case> cases = {Small(1), Small(2), Small(3)};
  absl::StatusOr<std::vector<std::string>> texts =
      DecodeBatchRequest(EncodeBatchRequest(cases));
  ASSERT_TRUE(texts.ok()) << texts.status();
  ASSERT_EQ(texts->size(), 3u);
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ((*texts)[i], isa::PrintCase(cases[i]));
  EXPECT_TRUE(DecodeBatchRequest(EncodeBatchRequest({})).ok());
}

TEST(BatchWire, ResultsRoundTripWithTheirErrors) {
  const auto results = Results();
  auto back = DecodeBatchResults(EncodeBatchResults(results), results.size());
  ASSERT_TRUE(back.ok()) << back.status();
  ASSERT_EQ(back->size(), 3u);
  ASSERT_TRUE((*back)[0].ok());
  EXPECT_EQ((*back)[0]->message, "fine");
  EXPECT_EQ((*back)[0]->uavs, results[0]->uavs);
  EXPECT_EQ((*back)[1].status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ((*back)[1].status().message(), "no such thing");
  ASSERT_TRUE((*back)[2].ok());
  EXPECT_EQ((*back)[2]->status, isa::RunStatus::kCrashed);
  EXPECT_EQ((*back)[2]->message, results[2]->message);
}

// Every prefix is truncated, an extra byte trails, another count is not
// the batch that was sent: all are errors.
TEST(BatchWire, RejectsTruncationTrailingBytesAndOtherCounts) {
  const std::string request =
      EncodeBatchRequest(std::vector<isa::Case>{Small(1), Small(2)});
  for (size_t n = 0; n < request.size(); ++n) {
    EXPECT_FALSE(DecodeBatchRequest(request.substr(0, n)).ok())
        << "prefix " << n;
  }
  EXPECT_FALSE(DecodeBatchRequest(request + '\0').ok());
  const std::string results = EncodeBatchResults(Results());
  for (size_t n = 0; n < results.size(); ++n) {
    EXPECT_FALSE(DecodeBatchResults(results.substr(0, n), 3).ok())
        << "prefix " << n;
  }
  EXPECT_FALSE(DecodeBatchResults(results + '\0', 3).ok());
  EXPECT_FALSE(DecodeBatchResults(results, 2).ok());
}

TEST(BatchWire, RejectsBadCountsAndKindsWithoutAllocating) {
  std::string huge = "\xff\xff\xff\x7f";  // 2^31 - 1 cases, no bytes
  EXPECT_FALSE(DecodeBatchRequest(huge).ok());
  EXPECT_FALSE(DecodeBatchResults(huge, 0x7fffffff).ok());
  std::string bad = EncodeBatchResults(Results());
  bad[4] = 'X';  // the first result's kind
  EXPECT_FALSE(DecodeBatchResults(bad, 3).ok());
  bad = EncodeBatchRequest(std::vector<isa::Case>{Small(1)});
  bad[4] = '\xff';  // the first case's length, past the end
  bad[7] = '\x7f';
  EXPECT_FALSE(DecodeBatchRequest(bad).ok());
}

}  // namespace
}  // namespace atomfuzz::targets
