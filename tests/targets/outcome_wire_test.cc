#include "targets/isolation/outcome_wire.h"

#include <string>

#include "gtest/gtest.h"

namespace atomfuzz::targets {
namespace {

isa::Outcome Sample() {
  isa::Outcome o;
  o.status = isa::RunStatus::kOk;
  o.message = "note";
  isa::UavState u;
  u.slot = 3;
  u.words = {1, 0xFFFFFFFF, 7, 9, 10, 11, 12, 13, 14};
  u.defined = {true, false, true, true, true, true, true, true, false};
  u.counter = 42;
  o.uavs.push_back(u);
  isa::UavState v;
  v.slot = 5;
  v.counter_defined = false;
  o.uavs.push_back(v);
  o.has_trace = true;
  isa::AtomicEvent e;
  e.group = {1, 2, 3};
  e.thread = {4, 5, 6};
  e.instruction = 7;
  e.occurrence = 2;
  e.file = isa::RegFile::kTgsm;
  e.slot = 1;
  e.word = 99;
  e.address = isa::AddressClass::kTgsmPoison;
  e.src0 = 0xAB;
  e.src1 = 0xCD;
  e.returned = 0x1234;
  o.trace.push_back(e);
  e.returned.reset();
  o.trace.push_back(e);
  return o;
}

void ExpectSame(const isa::Outcome& a, const isa::Outcome& b) {
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.message, b.message);
  EXPECT_EQ(a.uavs, b.uavs);
  EXPECT_EQ(a.has_trace, b.has_trace);
  EXPECT_EQ(a.trace, b.trace);
}

TEST(OutcomeWire, RoundTrips) {
  const isa::Outcome o = Sample();
  absl::StatusOr<isa::Outcome> back = DecodeOutcome(EncodeOutcome(o));
  ASSERT_TRUE(back.ok()) << back.status();
  ExpectSame(o, *back);

  isa::Outcome crashed;
  crashed.status = isa::RunStatus::kCrashed;
  crashed.message = "killed by signal 11 (SIGSEGV)";
  back = DecodeOutcome(EncodeOutcome(crashed));
  ASSERT_TRUE(back.ok()) << back.status();
  ExpectSame(crashed, *back);

  // Every status travels, the last one (a translator's invalid code) too.
  for (int s = 0; s <= static_cast<int>(isa::kLastRunStatus); ++s) {
    isa::Outcome one;
    one.status = static_cast<isa::RunStatus>(s);
    back = DecodeOutcome(EncodeOutcome(one));
    ASSERT_TRUE(back.ok()) << s << ": " << back.status();
    EXPECT_EQ(back->status, one.status);
  }
}

// Every prefix is truncated, every extra byte is trailing: all are errors.
TEST(OutcomeWire, RejectsEveryTruncationAndTrailingBytes) {
  const std::string bytes = EncodeOutcome(Sample());
  for (size_t n = 0; n < bytes.size(); ++n) {
    EXPECT_FALSE(DecodeOutcome(bytes.substr(0, n)).ok()) << "prefix " << n;
  }
  EXPECT_FALSE(DecodeOutcome(bytes + '\0').ok());
}

void Put32(std::string& s, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    s[at + static_cast<size_t>(i)] = static_cast<char>(v >> (8 * i));
}

TEST(OutcomeWire, RejectsBadFieldsWithoutAllocating) {
  const std::string good = EncodeOutcome(Sample());
  std::string bad = good;
  bad[0] ^= 1;
  EXPECT_FALSE(DecodeOutcome(bad).ok());  // magic
  bad = good;
  bad[4] = 9;
  EXPECT_FALSE(DecodeOutcome(bad).ok());  // status
  bad = good;
  Put32(bad, 5, 0xFFFFFFF0);
  EXPECT_FALSE(DecodeOutcome(bad).ok());  // message length
  bad = good;
  Put32(bad, 13, 1000);
  EXPECT_FALSE(DecodeOutcome(bad).ok());  // UAV count past the cap
  bad = good;
  Put32(bad, 21, 0x7FFFFFFF);  // first UAV's word count: huge, short input
  absl::StatusOr<isa::Outcome> r = DecodeOutcome(bad);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("claims"), absl::string_view::npos)
      << r.status();
}

}  // namespace
}  // namespace atomfuzz::targets
