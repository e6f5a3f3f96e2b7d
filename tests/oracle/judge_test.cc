// The judge accepts every outcome the interpreter produces under random
// schedules, and rejects hand-made illegal ones (a return no order produces,
// a lost update, a final value off by one, a swapped cmp_exch).
#include "oracle/judge.h"

#include <cstdlib>
#include <iostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "oracle/interpreter.h"

namespace atomfuzz::oracle {
namespace {

isa::Case Parse(const std::string& text) {
  auto c = isa::ParseCase(text, "judge.case");
  EXPECT_TRUE(c.ok()) << c.status();
  return *c;
}

isa::Outcome RunWith(const isa::Case& c, Schedule s) {
  InterpretOptions o;
  o.schedule = s;
  auto r = Interpret(c, o);
  EXPECT_TRUE(r.ok()) << r.status();
  return *r;
}

Verdict JudgeOf(const isa::Case& c, const isa::Outcome& o) {
  auto v = Judge(c, o);
  EXPECT_TRUE(v.ok()) << v.status();
  return *v;
}

// 64 threads x several atomics on 2 words of u0 (and a counter on u1).
std::string RacyCase(const std::string& body, const std::string& init = "") {
  return absl::StrCat(
      "[dispatch]\ngroups 2, 1, 1\n"
      "[uav u0]\nkind raw\nwords 4\n",
      init,
      "[uav u1]\nkind structured\nstride 4\nelements 128\ncounter 5\n"
      "[shader]\ncs_5_0\ndcl_uav_raw u0\ndcl_uav_structured u1, 4\n"
      "dcl_input vThreadID.x\ndcl_input vThreadIDInGroupFlattened\n"
      "dcl_temps 4\ndcl_thread_group 32, 1, 1\n",
      body, "ret\n");
}

// (Declarations are instructions 0-5; each body starts at 6.)
// iadd with distinct addends, the result used as an address.
constexpr char kAddThenAddress[] =
    "iadd r0.x, vThreadID.x, l(1)\n"
    "imm_atomic_iadd r1.x, u0, l(0), r0.x\n"
    "and r1.y, r1.x, l(4)\n"
    "atomic_or u0, r1.y, l(1)\n";
// one-hot or / xor, with the returns stored.
constexpr char kOneHot[] =
    "and r0.x, vThreadID.x, l(31)\n"
    "ishl r0.y, l(1), r0.x\n"
    "imm_atomic_or r1.x, u0, l(0), r0.y\n"
    "imm_atomic_xor r1.y, u0, l(4), r0.y\n"
    "store_structured u1.x, vThreadID.x, l(0), r1.x\n";
// exchange chain and cmp_exch race.
constexpr char kExchange[] =
    "iadd r0.x, vThreadID.x, l(100)\n"
    "imm_atomic_exch r1.x, u0, l(0), r0.x\n"
    "imm_atomic_cmp_exch r1.y, u0, l(4), l(0), r0.x\n"
    "store_structured u1.x, vThreadID.x, l(0), r1.y\n";
// signed max/min with negatives.
constexpr char kMinMax[] =
    "ineg r0.x, vThreadID.x\n"
    "imm_atomic_imax r1.x, u0, l(0), r0.x\n"
    "imm_atomic_imin r1.y, u0, l(4), r0.x\n"
    "imm_atomic_umax r1.z, u0, l(8), r0.x\n";
// counters, the returned index used as an address.
constexpr char kCounter[] =
    "imm_atomic_alloc r0.x, u1\n"
    "store_structured u1.x, r0.x, l(0), vThreadID.x\n";

const char* const kRacyBodies[] = {kAddThenAddress, kOneHot, kExchange, kMinMax,
                                   kCounter};

// Schedules per racy case; ATOMFUZZ_JUDGE_SCHEDULES=20000 judges 10^5
// outcomes (the oracle issue's acceptance run).
uint64_t SchedulesPerCase() {
  const char* env = std::getenv("ATOMFUZZ_JUDGE_SCHEDULES");
  return env ? std::strtoull(env, nullptr, 10) : 1000;
}

TEST(Judge, AcceptsEveryRandomScheduleOfRacyCases) {
  uint64_t judged = 0;
  const uint64_t schedules = SchedulesPerCase();
  for (const char* body : kRacyBodies) {
    const isa::Case c = Parse(RacyCase(body, "data 0, 0, 0x80000000, 0\n"));
    for (uint64_t seed = 1; seed <= schedules; ++seed) {
      const isa::Outcome o = RunWith(c, Schedule::Random(seed));
      const Verdict v = JudgeOf(c, o);
      ASSERT_EQ(v.kind, Verdict::Kind::kAllowed)
          << body << "seed " << seed << ": " << v.Summary();
      ++judged;
    }
  }
  EXPECT_EQ(judged, schedules * std::size(kRacyBodies));
  std::cout << judged << " random-schedule outcomes judged allowed\n";
}

// Runs the case, lets `corrupt` change the outcome, expects a divergence
// whose summary mentions `what`.
void ExpectRejected(const std::string& body,
                    const std::function<void(isa::Outcome&)>& corrupt,
                    const std::string& what) {
  const isa::Case c = Parse(RacyCase(body));
  isa::Outcome o = RunWith(c, Schedule::Random(11));
  ASSERT_EQ(JudgeOf(c, o).kind, Verdict::Kind::kAllowed);
  corrupt(o);
  const Verdict v = JudgeOf(c, o);
  EXPECT_EQ(v.kind, Verdict::Kind::kDivergence) << v.Summary();
  EXPECT_NE(v.Summary().find(what), std::string::npos) << v.Summary();
}

isa::AtomicEvent& EventOf(isa::Outcome& o, uint32_t instruction, uint32_t nth) {
  for (auto& e : o.trace) {
    if (e.instruction == instruction && nth-- == 0) return e;
  }
  ADD_FAILURE() << "no event of instruction " << instruction;
  return o.trace.front();
}

TEST(Judge, RejectsAReturnNoOrderProduces) {
  ExpectRejected(
      kRacyBodies[0], [](isa::Outcome& o) { *EventOf(o, 7, 3).returned += 7; },
      "wrong-return");
}

TEST(Judge, RejectsALostUpdate) {
  // Two adds that both saw the same value: the second overwrote the first.
  ExpectRejected(
      kRacyBodies[0],
      [](isa::Outcome& o) {
        EventOf(o, 7, 5).returned = EventOf(o, 7, 4).returned;
      },
      "wrong-return");
}

TEST(Judge, RejectsAFinalValueOffByOne) {
  ExpectRejected(
      kRacyBodies[0], [](isa::Outcome& o) { o.uavs[0].words[0] += 1; },
      "u0[0]");
}

TEST(Judge, RejectsASwappedCmpExch) {
  // A translator that swaps comparand and value compares with the thread's
  // value: the word keeps the exchange chain's last value. Model it on a
  // single thread, where the spec says 0 -> r0.x.
  const std::string text = RacyCase(
      "if_z vThreadID.x\n"
      "imm_atomic_cmp_exch r1.x, u0, l(4), l(0), l(77)\n"
      "endif\n");
  const isa::Case c = Parse(text);
  isa::Outcome o = RunWith(c, Schedule::Canonical());
  ASSERT_EQ(o.uavs[0].words[1], 77u);
  o.uavs[0].words[1] = 0;  // compared with 77, failed, left 0
  const Verdict v = JudgeOf(c, o);
  EXPECT_EQ(v.kind, Verdict::Kind::kDivergence);
  EXPECT_NE(v.Summary().find("u0[1]"), std::string::npos) << v.Summary();
}

TEST(Judge, RejectsAWrongValueDerivedFromAReturn) {
  // The counter's returns are stored: a wrong counter return shows up.
  ExpectRejected(
      kRacyBodies[4],
      [](isa::Outcome& o) { *EventOf(o, 6, 0).returned = 1000; }, "divergence");
}

TEST(Judge, RejectsMissingAndExtraAtomics) {
  ExpectRejected(
      kRacyBodies[1], [](isa::Outcome& o) { o.trace.pop_back(); },
      "missing-atomic");
  ExpectRejected(
      kRacyBodies[1],
      [](isa::Outcome& o) {
        o.trace.push_back(o.trace.back());
        o.trace.back().occurrence = 1;
      },
      "extra-atomic");
}

TEST(Judge, ADivergenceNamesTheWordTheValuesAndTheAtomics) {
  const isa::Case c = Parse(RacyCase(kAddThenAddress));
  isa::Outcome o = RunWith(c, Schedule::Random(4));
  *EventOf(o, 7, 10).returned += 1;
  const std::string s = JudgeOf(c, o).Summary();
  EXPECT_NE(s.find("u0[0]"), std::string::npos) << s;
  EXPECT_NE(s.find("returned 0x"), std::string::npos) << s;
  EXPECT_NE(s.find("atomics on it: 64 x imm_atomic_iadd (line "),
            std::string::npos)
      << s;
}

TEST(Judge, SaysWhatItCouldNotJudgeWithoutATrace) {
  // exch and cmp_exch mixed on one word: without returns, order-dependent.
  const isa::Case c = Parse(RacyCase(kExchange));
  isa::Outcome o = RunWith(c, Schedule::Random(2));
  o.has_trace = false;
  o.trace.clear();
  const Verdict v = JudgeOf(c, o);
  EXPECT_EQ(v.kind, Verdict::Kind::kAllowed);
  bool named = false;
  for (const std::string& n : v.notes)
    named |= n.rfind("u0[0]: without returned values", 0) == 0;
  EXPECT_TRUE(named) << testing::PrintToString(v.notes);
}

TEST(Judge, WithoutATraceJudgesOrderIndependentWords) {
  const isa::Case c = Parse(RacyCase(kRacyBodies[3]));
  isa::Outcome o = RunWith(c, Schedule::Random(3));
  o.has_trace = false;
  o.trace.clear();
  EXPECT_EQ(JudgeOf(c, o).kind, Verdict::Kind::kAllowed);
  o.uavs[0].words[0] ^= 1;  // imax over all threads: order-independent
  EXPECT_EQ(JudgeOf(c, o).kind, Verdict::Kind::kDivergence);
}

// Without a trace, racing exchanges leave one of their values: any of
// them is allowed, anything else is a divergence (not "undefined").
TEST(Judge, WithoutATraceRacingExchangesEndAsOneOfTheirValues) {
  const isa::Case c = Parse(
      "[dispatch]\ngroups 1, 1, 1\n[uav u0]\nkind raw\nwords 1\n"
      "data 100\n[shader]\ncs_5_0\ndcl_uav_raw u0\n"
      "dcl_input vThreadIDInGroup.x\ndcl_temps 1\n"
      "dcl_thread_group 4, 1, 1\n"
      "imm_atomic_exch r0.x, u0, l(0), vThreadIDInGroup.x\nret\n");
  isa::Outcome o = RunWith(c, Schedule::Random(5));
  o.has_trace = false;
  o.trace.clear();
  for (uint32_t v : {0u, 1u, 2u, 3u}) {
    o.uavs[0].words[0] = v;
    EXPECT_EQ(JudgeOf(c, o).kind, Verdict::Kind::kAllowed) << v;
  }
  for (uint32_t v : {4u, 100u}) {
    o.uavs[0].words[0] = v;
    const Verdict verdict = JudgeOf(c, o);
    EXPECT_EQ(verdict.kind, Verdict::Kind::kDivergence) << v;
    EXPECT_NE(verdict.Summary().find("one of {0x00000000, 0x00000001, "
                                     "0x00000002, 0x00000003}"),
              std::string::npos)
        << verdict.Summary();
  }
}

// A GPU trace sees what imm_atomic_* return but not what atomic_* saw: the
// words they touch are still judged from the other returns and final value.
TEST(Judge, JudgesWordsWhoseNonReturningAtomicsHaveNoValue) {
  const isa::Case c =
      Parse(RacyCase("iadd r0.x, vThreadID.x, l(1)\n"
                     "imm_atomic_iadd r1.x, u0, l(0), r0.x\n"
                     "atomic_iadd u0, l(4), r0.x\n"
                     "store_structured u1.x, vThreadID.x, l(0), r1.x\n"));
  isa::Outcome o = RunWith(c, Schedule::Random(4));
  for (auto& e : o.trace) {
    if (e.instruction == 8) e.returned.reset();  // the atomic_iadd
  }
  const Verdict v = JudgeOf(c, o);
  EXPECT_EQ(v.kind, Verdict::Kind::kAllowed) << v.Summary();
  for (const std::string& n : v.notes)
    EXPECT_EQ(n.find("u0[1]"), std::string::npos) << n;
  o.uavs[0].words[1] += 1;  // a final value no order of the adds gives
  EXPECT_EQ(JudgeOf(c, o).kind, Verdict::Kind::kDivergence);
}

TEST(Judge, UndefinedWordsAreNeverDivergent) {
  // An out-of-bounds exchange returns an undefined value that is stored.
  const isa::Case c =
      Parse(RacyCase("imm_atomic_exch r0.x, u0, l(64), l(1)\n"
                     "store_structured u1.x, vThreadID.x, l(0), r0.x\n"));
  isa::Outcome o = RunWith(c, Schedule::Canonical());
  for (auto& e : o.trace) e.returned = 0xdeadbeef;
  for (int w = 0; w < 64; ++w) o.uavs[1].words[w] = 0xdeadbeef;
  const Verdict v = JudgeOf(c, o);
  EXPECT_EQ(v.kind, Verdict::Kind::kAllowed) << v.Summary();
}

TEST(Judge, CrashIsADivergence) {
  const isa::Case c = Parse(RacyCase(kRacyBodies[0]));
  isa::Outcome o = RunWith(c, Schedule::Canonical());
  o.status = isa::RunStatus::kCrashed;
  o.message = "SIGSEGV";
  EXPECT_EQ(JudgeOf(c, o).Summary(), "divergence: crashed at the run: SIGSEGV");
}

}  // namespace
}  // namespace atomfuzz::oracle

namespace atomfuzz::oracle {
namespace {

// A Vulkan trace cannot see atomic_*'s values nor where an atomic went:
// each event arrives in-bounds at word 0 with src 0 and no value. Found as
// a false alarm of the vulkan campaign (bucket 0221435d3d1726e7).
TEST(Judge, AcceptsATraceThatKnowsOnlyReturnedValues) {
  const isa::Case c = Parse(R"([dispatch]
groups 2, 1, 1

[uav u0]
kind typed
dim texture3d
format r32_uint
size 1, 1, 1
data 1

[shader]
cs_5_0
dcl_uav_typed_texture3d (uint,uint,uint,uint) u0
dcl_temps 6
dcl_thread_group 1, 1, 1
imm_atomic_and r5.z, u0, l(0, 0, 0, 0), l(0)
atomic_umax u0, l(0, 0, 0, 0), l(1)
atomic_umax u0, l(0, 0, 1, 0), l(0)
ret
)");
  isa::Outcome o = RunWith(c, Schedule::Canonical());
  ASSERT_EQ(JudgeOf(c, o).kind, Verdict::Kind::kAllowed);
  for (auto& e : o.trace) {
    const isa::Instruction& in = c.shader.instructions[e.instruction];
    if (in.info().operand_with_role(isa::Role::kReturn) < 0) e.returned.reset();
  }
  EXPECT_EQ(JudgeOf(c, o).kind, Verdict::Kind::kAllowed)
      << JudgeOf(c, o).Summary();
  for (auto& e : o.trace) {
    e.address = isa::AddressClass::kInBounds;
    e.word = 0;
    e.src0 = e.src1 = 0;
  }
  EXPECT_EQ(JudgeOf(c, o).kind, Verdict::Kind::kAllowed)
      << JudgeOf(c, o).Summary();
}

}  // namespace
}  // namespace atomfuzz::oracle
