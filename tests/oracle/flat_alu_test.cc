// FlatAlu (oracle/internal/flat_alu.h), the ALU fast path, against the plain
// path, over every row of the opcode table whose family is kAlu (not a hand
// list of ops): each row's instructions, with edge operand values, operands
// of every file a flat form reads, undefined and set-valued sources, must
// leave a thread's values exactly as the plain path leaves them.
//  - Per step: FlatAlu::Run (in place, and staged for EvalAlu) against the
//    plain step written out here from Execution::Read/Write and
//    ExecAluLanes (each source read from its operand, ValueSets::EvalAlu).
//  - Per case: the interpreter's passes with the program's flat forms, and
//    with every one of them turned off (so that every ALU step takes
//    Execution::ExecAluLanes), must give the same outcome.
// Decode gives a flat form only to an instruction with one destination
// writing one component (DecodedInstruction::alu_lane) and no x# operand
// (FlatAlu::Of): imul and umul, with two destinations, never have one, and
// are the only rows skipped.
#include "oracle/internal/flat_alu.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "isa/opcode_table.h"
#include "isa/operand.h"
#include "isa/printer.h"
#include "isa/prng.h"
#include "oracle/access_log.h"
#include "oracle/control_map.h"
#include "oracle/execution.h"
#include "oracle/internal/decoded_program.h"
#include "oracle/interpreter.h"
#include "oracle/system_values.h"
#include "oracle/value_sets.h"

namespace atomfuzz::oracle {
namespace {

using isa::Op;
using isa::RegFile;

// Operand values at the edges of the ops: zero, one, the signed extremes,
// all ones, and shift and bit-field amounts at and past the 5 bits read.
constexpr uint32_t kEdges[] = {0,          1,  0x7fffffff, 0x80000000,
                               0xffffffff, 31, 32,         33};
constexpr size_t kEdgeCount = std::size(kEdges);
constexpr char kLanes[] = "xyzw";

// Every row of the ALU family, in table order.
std::vector<Op> AluRows() {
  std::vector<Op> rows;
  for (const isa::OpcodeInfo& info : isa::AllOpcodes()) {
    if (info.family == isa::Family::kAlu) rows.push_back(info.op);
  }
  return rows;
}

// Whether Decode can give the row's instructions a flat form: its alu_lane
// needs exactly one destination.
bool Flattens(Op op) { return isa::Layout(op).destinations() == 1; }

std::string Name(Op op) { return std::string(isa::Info(op).mnemonic); }

// The rows the tests below skip, checked against Decode's own rule rather
// than assumed: its instructions are never flat, however they are spelled.
TEST(FlatAlu, SkipsOnlyTheRowsDecodeNeverFlattens) {
  const std::vector<Op> rows = AluRows();
  std::vector<Op> skipped;
  for (const Op op : rows) {
    if (!Flattens(op)) skipped.push_back(op);
  }
  EXPECT_EQ(skipped, (std::vector<Op>{Op::kIMul, Op::kUMul}));
  // Not vacuous: the table has its 26 one-destination rows, at least.
  EXPECT_GE(rows.size() - skipped.size(), 26u);
  for (const Op op : skipped) {
    for (uint8_t mask = 1; mask < 16; mask <<= 1) {
      isa::Program p;
      isa::Instruction temps;
      temps.op = Op::kDclTemps;
      temps.operands = {isa::Number(4)};
      p.instructions.push_back(temps);
      isa::Instruction inst;
      inst.op = op;
      // op r0.<one>, r1.<one>, r2.x, r3.x: one lane in both destinations.
      inst.operands = {isa::Temp(0, isa::Selection::kMask, mask),
                       isa::Temp(1, isa::Selection::kMask, mask),
                       isa::Temp(2, isa::Selection::kSelect1, 0),
                       isa::Temp(3, isa::Selection::kSelect1, 0)};
      p.instructions.push_back(inst);
      EXPECT_FALSE(Decode(p).code[1].alu_flat) << Name(op);
    }
  }
}

// ---- One step ----------------------------------------------------------

// A thread's values (Thread::values): system values, then `temps` r#
// components, then kGuard more that neither path may touch (in a pass, the
// next thread's).
constexpr size_t kGuard = 8;
struct Lane {
  std::vector<Value> values;
  size_t temps = 0;
};

// What Execution::Read (and ReadOther, for the files a flat form reads)
// gives for source `op` in lane `lane`.
Value PlainRead(const Lane& t, const isa::Operand& op, int lane) {
  switch (op.file) {
    case RegFile::kTemp: {
      const size_t k = size_t{op.index} * 4 + op.Component(lane);
      return k < t.temps ? t.values[kSystemValueCount + k] : Value{};
    }
    case RegFile::kImmediate:
      return Value::Of(
          op.values[op.value_count == 1 ? 0 : static_cast<size_t>(lane & 3)]);
    default: {
      const int slot = SystemValueSlot(op.file, op.Component(lane));
      return slot < 0 ? Value{} : t.values[static_cast<size_t>(slot)];
    }
  }
}

// ExecAluLanes on a one-destination instruction writing `lane`: each source
// the op reads from its operand, undefined where the instruction lacks it,
// defined where the op reads none; the result written through Write.
// Returns whether a source read was a set.
bool PlainStep(ValueSets& sets, Lane& t, const isa::Instruction& inst,
               int lane) {
  const int counted = isa::Layout(inst.op).sources();
  const size_t sources = std::min<size_t>(inst.operands.size() - 1, 4);
  std::array<Value, 4> src;
  bool any_set = false;
  for (size_t k = 0; k < 4; ++k) {
    if (static_cast<int>(k) < counted && k < sources) {
      src[k] = PlainRead(t, inst.operands[1 + k], lane);
    } else {
      src[k] = {0, static_cast<int>(k) >= counted};
    }
    any_set |= src[k].set != 0;
  }
  Value high;
  const Value r = sets.EvalAlu(inst.op, src, &high);
  const isa::Operand& dst = inst.operands[0];
  const size_t k = size_t{dst.index} * 4 + static_cast<size_t>(lane);
  if (dst.file == RegFile::kTemp && k < t.temps)
    t.values[kSystemValueCount + k] = r;
  return any_set;
}

// The same value: equal, or sets of the same values holding the same bits
// (a flat mov or movc passes a set on as it is; EvalAlu on sets names the
// result anew).
bool Same(const ValueSets& sets, const Value& a, const Value& b) {
  if (a == b) return true;
  if (!a.set || !b.set || a.bits != b.bits) return false;
  uint32_t one;
  const absl::Span<const uint32_t> ea = sets.Elements(a, one);
  const absl::Span<const uint32_t> eb = sets.Elements(b, one);
  return std::equal(ea.begin(), ea.end(), eb.begin(), eb.end());
}

std::string Describe(const Value& v) {
  return absl::StrCat(v.defined ? "" : v.set ? "set " : "undefined ", v.bits);
}

// One step of `inst` on `t` both ways, from the same values, as
// Execution::RunThread takes it: FlatAlu::Run, or where it declines (a set
// source), the plain step. With `staged`, Run stages the sources for
// EvalAlu as it does for an op without an in-place case. Adds a failure and
// returns false where any value differs.
bool SameStep(ValueSets& sets, const Lane& t, const isa::Instruction& inst,
              bool staged) {
  isa::Program p;
  isa::Instruction temps;
  temps.op = Op::kDclTemps;
  temps.operands = {isa::Number(static_cast<uint32_t>(t.temps / 4))};
  p.instructions = {temps, inst};
  const DecodedProgram d = Decode(p);
  const DecodedInstruction& e = d.code[1];
  if (!e.alu_flat) {
    ADD_FAILURE() << "not flat: " << isa::PrintInstruction(inst);
    return false;
  }
  FlatAlu f = e.flat;
  if (staged) f.direct = false;
  Lane fast = t, plain = t;
  const bool ran = f.Run(fast.values.data());
  const int lane = e.alu_lane;
  if (!ran) {
    if (fast.values != t.values) {
      ADD_FAILURE() << "declined after writing: "
                    << isa::PrintInstruction(inst);
      return false;
    }
    PlainStep(sets, fast, inst, lane);
  }
  const bool read_set = PlainStep(sets, plain, inst, lane);
  if (!ran && !read_set) {
    ADD_FAILURE() << "declined without a set source: "
                  << isa::PrintInstruction(inst);
    return false;
  }
  for (size_t i = 0; i < t.values.size(); ++i) {
    if (!Same(sets, fast.values[i], plain.values[i])) {
      std::vector<std::string> in;
      for (size_t k = 1; k < inst.operands.size(); ++k) {
        in.push_back(Describe(PlainRead(t, inst.operands[k], lane)));
      }
      ADD_FAILURE() << isa::PrintInstruction(inst)
                    << (staged ? " (staged)" : "") << " on "
                    << absl::StrJoin(in, ", ") << ": value " << i << " is "
                    << Describe(fast.values[i]) << ", the plain path gives "
                    << Describe(plain.values[i]);
      return false;
    }
  }
  return true;
}

isa::Instruction Inst(Op op, isa::OperandList operands) {
  isa::Instruction inst;
  inst.op = op;
  inst.operands = std::move(operands);
  return inst;
}

isa::Operand Select1(RegFile file, uint32_t index, uint8_t component) {
  isa::Operand o = isa::Temp(index, isa::Selection::kSelect1, component);
  o.file = file;
  return o;
}

// Every combination of edge values in the op's sources, each source read
// from a register (defined, or undefined with the edge value's bits) or as
// an immediate, in every lane: in place and staged.
TEST(FlatAlu, EveryAluRowOnEdgeValues) {
  size_t rows = 0, steps = 0;
  for (const Op op : AluRows()) {
    if (!Flattens(op)) continue;
    ++rows;
    const size_t n = static_cast<size_t>(isa::Layout(op).sources());
    ASSERT_LE(n, 4u);
    size_t combinations = 1;
    for (size_t k = 0; k < n; ++k) combinations *= kEdgeCount;
    ValueSets sets;
    bool ok = true;
    for (size_t i = 0; i < combinations && ok; ++i) {
      std::array<uint32_t, 4> v{};
      for (size_t k = 0, rest = i; k < n; ++k, rest /= kEdgeCount)
        v[k] = kEdges[rest % kEdgeCount];
      // Shapes: bit k of `immediates` reads source k as l(v[k]); `undefined`
      // (past n: none) is a register source whose value is undefined.
      for (uint32_t immediates = 0; immediates < (1u << n) && ok;
           ++immediates) {
        for (size_t undefined = 0; undefined <= n && ok; ++undefined) {
          if (undefined < n && (immediates >> undefined & 1)) continue;
          const int lane = static_cast<int>(i % 4);
          // r1 and r2 hold the register sources: source k in r(1 + k / 2),
          // component (k + lane) % 4, so that lanes and components vary.
          Lane t;
          t.temps = 3 * 4;
          t.values.assign(kSystemValueCount + t.temps + kGuard,
                          Value::Of(0x5A5A5A5A));
          isa::OperandList operands = {isa::Temp(
              0, isa::Selection::kMask, static_cast<uint8_t>(1u << lane))};
          for (size_t k = 0; k < n; ++k) {
            if (immediates >> k & 1) {
              operands.push_back(isa::Imm(v[k]));
              continue;
            }
            const uint32_t reg = 1 + static_cast<uint32_t>(k / 2);
            const uint8_t c =
                static_cast<uint8_t>((k + static_cast<size_t>(lane)) % 4);
            operands.push_back(isa::Temp(reg, isa::Selection::kSelect1, c));
            t.values[kSystemValueCount + reg * 4 + c] = {v[k], k != undefined};
          }
          const isa::Instruction inst = Inst(op, operands);
          ok = SameStep(sets, t, inst, false) && SameStep(sets, t, inst, true);
          steps += 2;
        }
      }
    }
  }
  EXPECT_GE(rows, 26u);
  EXPECT_GT(steps, 0u);
}

// A fixed-seed sweep of random instructions per row: sources of every file
// a flat form reads (r# in and past the declared ones, with one component or
// a swizzle; scalar and vector immediates; each system value's components,
// w included; null), fewer or more sources than the op reads, destinations
// in and past the declared r# and null, and register values defined,
// undefined with any bits, or sets.
TEST(FlatAlu, EveryAluRowOnARandomSweep) {
  constexpr RegFile kSystemValues[] = {
      RegFile::kThreadID, RegFile::kThreadGroupID, RegFile::kThreadIDInGroup,
      RegFile::kThreadIDInGroupFlattened};
  isa::Prng prng(0xF1A7A1);
  for (const Op op : AluRows()) {
    if (!Flattens(op)) continue;
    const size_t n = static_cast<size_t>(isa::Layout(op).sources());
    ValueSets sets;
    const Value set_values[] = {
        [&] {
          std::vector<uint32_t> s = {1, 2};
          return sets.Of(s, 2);
        }(),
        [&] {
          std::vector<uint32_t> s = {0, 0xffffffff};
          return sets.Of(s, 0);
        }(),
        [&] {
          std::vector<uint32_t> s = {31, 32, 33, 0x80000000};
          return sets.Of(s, 33);
        }(),
    };
    auto word = [&] {
      return prng.Chance(1, 2) ? kEdges[prng.Below(kEdgeCount)] : prng.Next32();
    };
    for (int round = 0; round < 4000; ++round) {
      Lane t;
      t.temps = 4 * (1 + prng.Below(4));
      t.values.resize(kSystemValueCount + t.temps + kGuard);
      for (Value& v : t.values) {
        switch (prng.Below(8)) {
          case 0: v = {word(), false}; break;  // undefined, whatever its bits
          case 1: v = set_values[prng.Below(std::size(set_values))]; break;
          default: v = Value::Of(word()); break;
        }
      }
      const uint32_t regs = static_cast<uint32_t>(t.temps / 4);
      const int lane = static_cast<int>(prng.Below(4));
      isa::Operand dst =
          isa::Temp(static_cast<uint32_t>(prng.Below(regs + 1)),
                    isa::Selection::kMask, static_cast<uint8_t>(1u << lane));
      if (prng.Chance(1, 10)) dst.file = RegFile::kNull;
      isa::OperandList operands = {dst};
      // Mostly the op's own count; at times fewer (the ones missing read as
      // undefined) or one more (never read).
      size_t count = n;
      if (prng.Chance(1, 8)) count = prng.Below(n);
      if (prng.Chance(1, 8)) count = std::min<size_t>(n + 1, 4);
      for (size_t k = 0; k < count; ++k) {
        isa::Operand src;
        switch (prng.Below(8)) {
          case 0: src = isa::Imm(word()); break;
          case 1: src = isa::Imm4(word(), word(), word(), word()); break;
          case 2:
            src = Select1(kSystemValues[prng.Below(std::size(kSystemValues))],
                          0, static_cast<uint8_t>(prng.Below(4)));
            break;
          case 3: src = Select1(RegFile::kNull, 0, 0); break;
          case 4:
            src = isa::TempSwizzle(static_cast<uint32_t>(prng.Below(regs + 1)),
                                   {static_cast<uint8_t>(prng.Below(4)),
                                    static_cast<uint8_t>(prng.Below(4)),
                                    static_cast<uint8_t>(prng.Below(4)),
                                    static_cast<uint8_t>(prng.Below(4))});
            break;
          default:  // r#, at times past the declared ones
            src = isa::Temp(static_cast<uint32_t>(prng.Below(regs + 1)),
                            isa::Selection::kSelect1,
                            static_cast<uint8_t>(prng.Below(4)));
            break;
        }
        operands.push_back(src);
      }
      const isa::Instruction inst = Inst(op, operands);
      if (!SameStep(sets, t, inst, false) || !SameStep(sets, t, inst, true))
        break;
    }
  }
}

// ---- Whole cases -------------------------------------------------------

// The outcome of the interpreter's passes (as Interpret runs them) with
// `decoded` for the case's program.
isa::Outcome RunPasses(const isa::Case& c, const DecodedProgram& decoded) {
  absl::StatusOr<ControlMap> map = BuildControlMap(c.shader);
  EXPECT_TRUE(map.ok()) << map.status();
  AccessLog known;
  for (int pass = 0;; ++pass) {
    Execution e(c, *map, decoded, InterpretOptions{}, known);
    const absl::Status s = e.Run();
    EXPECT_TRUE(s.ok()) << s;
    const bool learned = known.LearnFrom(e.TakeLog());
    isa::Outcome outcome = e.TakeOutcome();
    if (!learned || outcome.status != isa::RunStatus::kOk || pass == 7)
      return outcome;
  }
}

// A case per row: each thread loads four source values from u0 (every
// combination of edge values, then a fixed-seed sweep) and stores what the
// row's instruction makes of them, in many operand shapes, to u1. Run with
// the flat forms and with none: the words and their definedness must agree.
TEST(FlatAlu, InterpreterGivesTheSameOutcomeWithoutFlatForms) {
  constexpr uint32_t kOutWords = 64;  // per thread
  isa::Prng prng(0xA1u);
  size_t rows = 0;
  for (const Op op : AluRows()) {
    if (!Flattens(op)) continue;
    ++rows;
    const std::string m = Name(op);
    const size_t n = static_cast<size_t>(isa::Layout(op).sources());
    // The sources of each variant; the destination lane cycles.
    std::vector<std::vector<std::string>> variants;
    std::vector<std::string> base;
    for (size_t k = 0; k < n; ++k)
      base.push_back(absl::StrCat("r1.", std::string(1, kLanes[k])));
    variants.push_back(base);
    auto with = [&](size_t k, const std::string& s) {
      std::vector<std::string> v = base;
      v[k] = s;
      variants.push_back(v);
    };
    for (size_t k = 0; k < n; ++k) {
      with(k, "r2.x");     // never written: undefined
      with(k, "r9.y");     // past dcl_temps: undefined
      with(k, "r1.wzyx");  // a swizzle: the lane picks the component
      with(k, "l(0, 1, 0x7fffffff, 0x80000000)");
      with(k, "vThreadIDInGroup.x");
      with(k, "vThreadIDInGroupFlattened.x");
      with(k, "vThreadGroupID.x");
      for (const uint32_t e : kEdges) with(k, absl::StrFormat("l(0x%x)", e));
    }
    std::string body;
    int flat_expected = 0;
    for (size_t i = 0; i < variants.size(); ++i) {
      const char lane = kLanes[i % 4];
      absl::StrAppend(&body, m, " r0.", std::string(1, lane), ", ",
                      absl::StrJoin(variants[i], ", "), "\n",
                      "store_raw u1.x, r6.x, r0.", std::string(1, lane), "\n",
                      "iadd r6.x, r6.x, l(4)\n");
      ++flat_expected;
    }
    // The destination one of the sources: every source read first.
    absl::StrAppend(&body, m, " r1.x, ", absl::StrJoin(base, ", "), "\n",
                    "store_raw u1.x, r6.x, r1.x\n");
    ++flat_expected;
    ASSERT_LE(variants.size() + 1, kOutWords);

    // Threads: every combination of edge values in the n sources, then 256
    // from the sweep, in groups of 64.
    std::vector<std::array<uint32_t, 4>> inputs;
    size_t combinations = 1;
    for (size_t k = 0; k < n; ++k) combinations *= kEdgeCount;
    for (size_t i = 0; i < combinations; ++i) {
      std::array<uint32_t, 4> v{};
      for (size_t k = 0, rest = i; k < n; ++k, rest /= kEdgeCount)
        v[k] = kEdges[rest % kEdgeCount];
      inputs.push_back(v);
    }
    for (int i = 0; i < 256; ++i) {
      std::array<uint32_t, 4> v;
      for (uint32_t& w : v)
        w = prng.Chance(1, 4) ? kEdges[prng.Below(kEdgeCount)] : prng.Next32();
      inputs.push_back(v);
    }
    const uint32_t groups = static_cast<uint32_t>((inputs.size() + 63) / 64);
    const uint32_t threads = groups * 64;
    const std::string text = absl::StrCat(
        "[dispatch]\ngroups ", groups, ", 1, 1\n", "[uav u0]\nkind raw\nwords ",
        threads * 4, "\n", "[uav u1]\nkind raw\nwords ", threads * kOutWords,
        "\n",
        "[shader]\ncs_5_0\ndcl_uav_raw u0\ndcl_uav_raw u1\n"
        "dcl_input vThreadID.x\ndcl_input vThreadGroupID.x\n"
        "dcl_input vThreadIDInGroup.x\ndcl_input vThreadIDInGroupFlattened\n"
        "dcl_temps 8\ndcl_thread_group 64, 1, 1\n"
        "ishl r5.x, vThreadID.x, l(4)\n"
        "ld_raw r1.xyzw, r5.x, u0.xyzw\n"
        "ishl r6.x, vThreadID.x, l(8)\n",  // kOutWords * 4 bytes
        body, "ret\n");
    absl::StatusOr<isa::Case> c = isa::ParseCase(text, m + ".case");
    ASSERT_TRUE(c.ok()) << c.status();
    for (isa::Resource& r : c->resources) {
      r.init.assign(r.WordCount(), 0);
      if (r.slot != 0) continue;
      for (size_t i = 0; i < inputs.size(); ++i) {
        std::copy(inputs[i].begin(), inputs[i].end(), r.init.begin() + 4 * i);
      }
    }

    const DecodedProgram flat = Decode(c->shader);
    DecodedProgram plain = flat;
    int flat_count = 0;
    for (size_t i = 0; i < flat.code.size(); ++i) {
      // The variants write r0 or r1; the addressing around them, r5 and r6.
      const isa::Instruction& inst = c->shader.instructions[i];
      if (inst.op == op && inst.operands[0].index <= 1 && flat.code[i].alu_flat)
        ++flat_count;
      plain.code[i].alu_flat = false;
    }
    EXPECT_EQ(flat_count, flat_expected) << m;
    const isa::Outcome fast = RunPasses(*c, flat);
    const isa::Outcome slow = RunPasses(*c, plain);
    ASSERT_EQ(fast.status, isa::RunStatus::kOk) << m << ": " << fast.message;
    // The same driver as Interpret's.
    absl::StatusOr<isa::Outcome> interpreted = Interpret(*c);
    ASSERT_TRUE(interpreted.ok()) << interpreted.status();
    EXPECT_EQ(interpreted->uavs, fast.uavs) << m;
    ASSERT_EQ(fast.uavs.size(), slow.uavs.size());
    const isa::UavState& a = fast.uavs[1];
    const isa::UavState& b = slow.uavs[1];
    ASSERT_EQ(a.slot, 1u);
    size_t undefined = 0;
    for (size_t w = 0; w < a.words.size(); ++w) {
      undefined += !b.defined[w];
      if (a.words[w] != b.words[w] || a.defined[w] != b.defined[w]) {
        ADD_FAILURE() << m << ": thread " << w / kOutWords << ", result "
                      << w % kOutWords << ": flat " << a.words[w]
                      << (a.defined[w] ? "" : " (undefined)") << ", plain "
                      << b.words[w] << (b.defined[w] ? "" : " (undefined)");
        break;
      }
    }
    EXPECT_EQ(fast.uavs, slow.uavs) << m;
    // Not vacuous: the undefined sources gave undefined results.
    EXPECT_GT(undefined, 0u) << m;
  }
  EXPECT_GE(rows, 26u);
}

}  // namespace
}  // namespace atomfuzz::oracle
