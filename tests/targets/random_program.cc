#include "tests/targets/random_program.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "isa/opcode_table.h"
#include "isa/operand.h"
#include "isa/program.h"
#include "tests/targets/random_operands.h"

namespace atomfuzz::testutil {
namespace {

using isa::Family;
using isa::Instruction;
using isa::Op;
using isa::Operand;
using isa::RegFile;
using isa::Selection;

constexpr isa::Dim kTypedDims[] = {
    isa::Dim::kBuffer,    isa::Dim::kTexture1D,      isa::Dim::kTexture1DArray,
    isa::Dim::kTexture2D, isa::Dim::kTexture2DArray, isa::Dim::kTexture3D};
constexpr Op kOpeners[] = {Op::kIfNz, Op::kLoop, Op::kSwitch};
constexpr Op kClosers[] = {Op::kEndIf, Op::kEndLoop, Op::kEndSwitch};
// Spec 2.2's list; a bare _t is not in it.
constexpr uint8_t kValidSync[] = {
    isa::kSyncTgsm,
    isa::kSyncTgsm | isa::kSyncThreads,
    isa::kSyncUavGroup,
    isa::kSyncUavGroup | isa::kSyncThreads,
    isa::kSyncUavGroup | isa::kSyncTgsm,
    isa::kSyncUavGroup | isa::kSyncTgsm | isa::kSyncThreads,
    isa::kSyncUavGlobal,
    isa::kSyncUavGlobal | isa::kSyncThreads,
    isa::kSyncUavGlobal | isa::kSyncTgsm,
    isa::kSyncUavGlobal | isa::kSyncTgsm | isa::kSyncThreads};

// The rows a straight-line statement draws from, by family.
std::vector<const isa::OpcodeInfo*> RowsOf(bool memory) {
  std::vector<const isa::OpcodeInfo*> rows;
  for (const isa::OpcodeInfo& row : isa::AllOpcodes()) {
    const bool is_memory = row.family == Family::kLoad ||
                           row.family == Family::kStore || row.is_atomic();
    if (memory ? is_memory : row.family == Family::kAlu) rows.push_back(&row);
  }
  return rows;
}

class CaseMaker {
 public:
  CaseMaker(uint64_t seed, const RandomCasePolicy& policy)
      : dice_(seed),
        policy_(policy),
        seed_(seed),
        operands_(dice_, policy, code_) {}

  RandomCase Make() {
    Dispatch();
    Uavs();
    Tgsm();
    temps_ = dice_.Range(policy_.min_temps, policy_.max_temps);
    if (dice_.PerMille(policy_.indexable_temps)) xsize_ = dice_.Range(1, 8);
    operands_.SetRegisters(temps_, xsize_);
    Block(0, dice_.Range(1, policy_.max_statements));
    if (dice_.PerMille(policy_.unbalanced)) Unbalance();
    code_.push_back(Make(Op::kRet, {}));
    std::vector<Instruction> all = Declarations();
    all.insert(all.end(), code_.begin(), code_.end());
    case_.shader.instructions = std::move(all);
    case_.description = {absl::StrCat(" stress case, seed ", seed_)};
    std::sort(case_.resources.begin(), case_.resources.end(),
              [](const isa::Resource& a, const isa::Resource& b) {
                return a.slot < b.slot;
              });
    return {std::move(case_), unbalanced_};
  }

 private:
  static Instruction Make(Op op, isa::OperandList operands) {
    Instruction inst;
    inst.op = op;
    inst.operands = std::move(operands);
    return inst;
  }
  void Emit(Op op, isa::OperandList operands) {
    code_.push_back(Make(op, std::move(operands)));
  }

  // ---- Dispatch and memories ----

  void Dispatch() {
    if (dice_.PerMille(policy_.odd_dispatch)) return OddDispatch();
    const uint32_t g = policy_.max_groups, t = policy_.max_group_threads;
    case_.groups = {dice_.Range(1, g), 1, 1};
    if (dice_.Coin()) {  // sometimes 2D/3D, never more groups than the cap
      case_.groups[1] = dice_.Range(1, g / case_.groups[0]);
      case_.groups[2] = dice_.Range(1, g / (case_.groups[0] * case_.groups[1]));
    }
    const uint32_t x = dice_.Chance(1, 10) ? 1 : dice_.Range(1, t);
    group_size_ = {x, 1, 1};
    if (dice_.Coin()) {
      group_size_[1] = dice_.Range(1, t / x);
      group_size_[2] = dice_.Range(1, t / (x * group_size_[1]));
    }
  }

  // Shapes every executor must refuse or run as empty.
  void OddDispatch() {
    // 769546 * 494770 * 48448661 = 2^64 + 4: a product that wraps 64 bits.
    constexpr std::array<uint32_t, 3> kWraps = {769546, 494770, 48448661};
    switch (dice_.Below(7)) {
      case 0: case_.groups = {0, dice_.Range(1, 4), 1}; break;
      case 1: group_size_ = {0, 1, 1}; break;
      case 2: group_size_ = {dice_.Range(1025, 4096), 1, 1}; break;
      case 3: group_size_ = {65536, 65536, dice_.Range(1, 3)}; break;
      case 4: group_size_ = kWraps; break;
      case 5: case_.groups = kWraps; break;
      default:
        case_.groups = {0xFFFFFFFFu, 0xFFFFFFFFu, dice_.Range(1, 3)};
        break;
    }
    declare_group_ = dice_.Coin() || group_size_ == kWraps;
  }

  void Uavs() {
    const uint32_t n = dice_.Range(1, policy_.max_uavs);
    std::vector<uint32_t> slots;
    while (slots.size() < n) {
      const uint32_t s = dice_.Chance(1, 20) ? dice_.Range(8, isa::kMaxUavSlot)
                                             : dice_.Below(8);
      if (std::find(slots.begin(), slots.end(), s) == slots.end())
        slots.push_back(s);
    }
    for (uint32_t s : slots) case_.resources.push_back(RandomResource(s));
  }

  isa::Resource RandomResource(uint32_t slot) {
    isa::Resource r;
    r.slot = slot;
    DeclaredMemory d;
    d.slot = slot;
    switch (dice_.Below(3)) {
      case 0:
        r.kind = isa::ResourceKind::kRaw;
        r.words = dice_.Chance(1, 20)   ? 0
                  : dice_.Chance(1, 10) ? dice_.Range(65, 1024)
                                        : dice_.Range(1, 64);
        d.words = r.words;
        break;
      case 1:
        r.kind = isa::ResourceKind::kStructured;
        r.stride = 4 * dice_.Range(1, 8);
        r.elements = dice_.Chance(1, 20) ? 0 : dice_.Range(1, 16);
        d.bit = isa::kUavStructured;
        d.stride = r.stride;
        d.elements = r.elements;
        break;
      default:
        TypedShape(r);
        d.bit = isa::kUavTyped;
        d.dim = r.dim;
        d.size = r.size;
        break;
    }
    const bool structured = r.kind == isa::ResourceKind::kStructured;
    if (dice_.Chance(structured ? 2 : 1, structured ? 5 : 20)) {
      r.counter =
          dice_.Chance(1, 4) ? dice_.Pick(kInteresting) : dice_.Below(8);
    }
    Fill(r.init, r.WordCount());
    memories_.push_back(d);
    return r;
  }

  void TypedShape(isa::Resource& r) {
    r.kind = isa::ResourceKind::kTyped;
    r.dim = dice_.Pick(kTypedDims);
    const int width = isa::TypedAddressWidth(r.dim);
    for (int i = 0; i < width; ++i) {
      r.size[static_cast<size_t>(i)] =
          dice_.Chance(1, 30) ? 0 : dice_.Range(1, 8);
    }
    const uint32_t f = dice_.Below(20);
    r.format = f == 0  ? isa::Format::kR32Float
               : f < 4 ? isa::Format::kR32Sint
                       : isa::Format::kR32Uint;
  }

  void Fill(std::vector<uint32_t>& words, uint64_t n) {
    const uint32_t mode = dice_.Below(3);
    words.resize(n);
    for (uint64_t i = 0; i < n; ++i) {
      words[i] = mode == 0   ? 0
                 : mode == 1 ? static_cast<uint32_t>(i)
                             : (dice_.Coin() ? dice_.Pick(kInteresting)
                                             : dice_.Next32());
    }
  }

  void Tgsm() {
    const uint32_t n = dice_.Below(policy_.max_tgsm + 1);
    for (uint32_t g = 0; g < n; ++g) {
      DeclaredMemory d;
      d.file = RegFile::kTgsm;
      d.slot = g;
      if (dice_.Coin()) {
        d.bit = isa::kTgsmRaw;
        const uint32_t bytes = dice_.Chance(1, 20) ? dice_.OneOf({0u, 2u, 6u})
                                                   : 4 * dice_.Range(1, 64);
        d.words = bytes / 4;
        tgsm_bytes_.push_back(bytes);
      } else {
        d.bit = isa::kTgsmStructured;
        d.stride = dice_.Chance(1, 20) ? 6 : 4 * dice_.Range(1, 4);
        d.elements = dice_.Range(1, 32);
        tgsm_bytes_.push_back(0);
      }
      memories_.push_back(d);
    }
  }
  // ---- Declarations (they go first, as fxc puts them) ----

  std::vector<Instruction> Declarations() {
    std::vector<Instruction> out;
    if (dice_.Coin()) {
      Instruction flags = Make(Op::kDclGlobalFlags, {});
      flags.global_flags = isa::kRefactoringAllowed;
      out.push_back(flags);
    }
    for (const isa::Resource& r : case_.resources) out.push_back(DeclareUav(r));
    if (dice_.PerMille(policy_.mismatch)) {  // a declared u# with no resource
      Instruction stray = Make(Op::kDclUavRaw, {isa::Uav(isa::kMaxUavSlot)});
      if (!case_.FindResource(isa::kMaxUavSlot)) out.push_back(stray);
    }
    for (size_t i = 0; i < memories_.size(); ++i) {
      const DeclaredMemory& d = memories_[i];
      if (d.file != RegFile::kTgsm) continue;
      if (d.bit == isa::kTgsmRaw) {
        out.push_back(
            Make(Op::kDclTgsmRaw,
                 {isa::Tgsm(d.slot), isa::Number(tgsm_bytes_[d.slot])}));
      } else {
        out.push_back(Make(Op::kDclTgsmStructured,
                           {isa::Tgsm(d.slot), isa::Number(d.stride),
                            isa::Number(d.elements)}));
      }
    }
    DeclareInputs(out);
    if (!dice_.PerMille(policy_.odd_register)) {
      out.push_back(Make(Op::kDclTemps, {isa::Number(temps_)}));
    }
    if (xsize_ > 0) {
      Operand x;
      x.file = RegFile::kIndexableTemp;
      x.offset = xsize_;
      out.push_back(Make(Op::kDclIndexableTemp, {x, isa::Number(4)}));
    }
    if (declare_group_) {
      out.push_back(Make(Op::kDclThreadGroup, {isa::Number(group_size_[0]),
                                               isa::Number(group_size_[1]),
                                               isa::Number(group_size_[2])}));
    }
    return out;
  }

  Instruction DeclareUav(const isa::Resource& r) {
    Instruction d;
    d.operands = {isa::Uav(r.slot)};
    d.glc = dice_.Coin();
    switch (r.kind) {
      case isa::ResourceKind::kRaw: d.op = Op::kDclUavRaw; break;
      case isa::ResourceKind::kStructured:
        d.op = Op::kDclUavStructured;
        d.operands.push_back(isa::Number(r.stride));
        d.opc = r.counter.has_value() && dice_.Coin();
        break;
      case isa::ResourceKind::kTyped:
        d.op = Op::kDclUavTyped;
        d.dim = r.dim;
        d.types.fill(r.format == isa::Format::kR32Sint ? isa::ReturnType::kSint
                     : r.format == isa::Format::kR32Float
                         ? isa::ReturnType::kFloat
                         : isa::ReturnType::kUint);
        break;
    }
    return d;
  }

  static void DeclareInputs(std::vector<Instruction>& out) {
    for (RegFile f : {RegFile::kThreadID, RegFile::kThreadGroupID,
                      RegFile::kThreadIDInGroup}) {
      Operand o;
      o.file = f;
      o.selection = Selection::kMask;
      o.mask = 0x7;
      out.push_back(Make(Op::kDclInput, {o}));
    }
    Operand flat;
    flat.file = RegFile::kThreadIDInGroupFlattened;
    out.push_back(Make(Op::kDclInput, {flat}));
  }

  // ---- Statements ----

  void Block(uint32_t depth, uint32_t count) {
    for (uint32_t i = 0; i < count; ++i) Statement(depth);
  }
  uint32_t InnerCount() { return dice_.Below(policy_.max_statements / 3 + 2); }

  void Statement(uint32_t depth) {
    const uint32_t roll = dice_.Below(100);
    const bool nest = depth < policy_.max_depth;
    if (nest && roll < 9) return If(depth);
    if (nest && roll < 15) return Loop(depth);
    if (nest && roll < 19) return Switch(depth);
    if (roll >= 19 && roll < 23) return Exit(depth);
    if (roll >= 23 && roll < 26 && breakables_.empty() && depth == 0)
      return Sync();
    SimpleInstruction();
  }

  void If(uint32_t depth) {
    Emit(dice_.Coin() ? Op::kIfNz : Op::kIfZ, {operands_.Condition()});
    Block(depth + 1, InnerCount());
    if (dice_.Coin()) {
      Emit(Op::kElse, {});
      Block(depth + 1, InnerCount());
    }
    Emit(Op::kEndIf, {});
  }

  // Loops count down a component of the last temp, which ordinary
  // statements leave alone: r<temps-1>.<depth>. Some have no exit at all.
  void Loop(uint32_t depth) {
    const uint32_t r = temps_ - 1;
    const uint8_t c = static_cast<uint8_t>(depth & 3);
    const Operand dst =
        isa::Temp(r, Selection::kMask, static_cast<uint8_t>(1u << c));
    const Operand src = isa::Temp(r, Selection::kSelect1, c);
    const bool endless = dice_.PerMille(policy_.endless_loop);
    const bool top_test = dice_.Coin();
    if (!endless)
      Emit(Op::kMov, {dst, isa::Imm(dice_.Range(top_test ? 0 : 1, 4))});
    Emit(Op::kLoop, {});
    // continue skips the rest of the body: safe only when the count is
    // taken at the top (or when the loop never ends anyway).
    breakables_.push_back(endless || top_test ? kLoopContinuable : kLoop);
    if (!endless && top_test) CountDown(dst, src);
    Block(depth + 1, InnerCount());
    if (!endless && !top_test) CountDown(dst, src);
    if (endless && dice_.Coin())
      Emit(Op::kBreakcNz, {isa::Imm(0)});  // never taken
    breakables_.pop_back();
    Emit(Op::kEndLoop, {});
  }
  void CountDown(const Operand& dst, const Operand& src) {
    Emit(Op::kBreakcZ, {src});
    Emit(Op::kIAdd, {dst, src, isa::Imm(0xFFFFFFFFu)});
  }

  void Switch(uint32_t depth) {
    Operand selector = operands_.Condition();
    if (dice_.Coin()) {  // divergent: a few lanes per case
      const uint32_t t = operands_.WorkTemp();
      Emit(Op::kAnd, {isa::Temp(t, Selection::kMask, 1),
                      OperandMaker::FlatThread(), isa::Imm(dice_.Range(1, 7))});
      selector = isa::Temp(t, Selection::kSelect1, 0);
    }
    Emit(Op::kSwitch, {selector});
    breakables_.push_back(kSwitch);
    std::vector<uint32_t> used;
    const uint32_t cases = dice_.Range(1, 3);
    for (uint32_t i = 0; i < cases; ++i) {
      uint32_t v =
          dice_.Chance(1, 8) ? dice_.Pick(kInteresting) : dice_.Below(8);
      if (std::find(used.begin(), used.end(), v) != used.end()) continue;
      used.push_back(v);
      Emit(Op::kCase, {isa::Imm(v)});
      if (dice_.Chance(1, 4)) continue;  // shares the next label's body
      Block(depth + 1, InnerCount());
      if (dice_.Chance(9, 10)) Emit(Op::kBreak, {});
    }
    if (dice_.Coin()) {
      Emit(Op::kDefault, {});
      Block(depth + 1, InnerCount());
      Emit(Op::kBreak, {});
    }
    breakables_.pop_back();
    Emit(Op::kEndSwitch, {});
  }

  // ret, retc, and break/continue where a block allows them.
  void Exit(uint32_t depth) {
    // continue goes to the innermost loop, whatever switch is in between.
    const auto loop = std::find_if(breakables_.rbegin(), breakables_.rend(),
                                   [](int b) { return b != kSwitch; });
    const bool can_continue =
        loop != breakables_.rend() && *loop == kLoopContinuable;
    const uint32_t roll = dice_.Below(6);
    if (roll == 0 && !breakables_.empty()) {
      Emit(dice_.Coin() ? Op::kBreakcNz : Op::kBreakcZ,
           {operands_.Condition()});
    } else if (roll == 1 && can_continue) {
      Emit(dice_.Coin() ? Op::kContinuecNz : Op::kContinuecZ,
           {operands_.Condition()});
    } else if (roll == 2 && depth > 0 && !breakables_.empty()) {
      Emit(Op::kBreak, {});
    } else if (roll == 3 && depth > 0 && can_continue) {
      Emit(Op::kContinue, {});
    } else if (roll == 4 && depth > 0) {
      Emit(Op::kRet, {});
    } else {
      Emit(dice_.Coin() ? Op::kRetcNz : Op::kRetcZ, {operands_.Condition()});
    }
  }

  void Sync() {
    Instruction s = Make(Op::kSync, {});
    s.sync_flags = dice_.PerMille(policy_.mismatch * 10)
                       ? static_cast<uint8_t>(dice_.Below(16))
                       : dice_.Pick(kValidSync);
    code_.push_back(s);
  }

  // One instruction drawn from the table, its operands built from its row.
  void SimpleInstruction() {
    static const std::vector<const isa::OpcodeInfo*> alu = RowsOf(false);
    static const std::vector<const isa::OpcodeInfo*> memory = RowsOf(true);
    const isa::OpcodeInfo* row = dice_.Chance(2, 5)
                                     ? alu[dice_.Below(alu.size())]
                                     : memory[dice_.Below(memory.size())];
    const DeclaredMemory* mem = nullptr;
    if (row->memories != 0) {
      mem = PickMemory(row->memories);
      if (mem == nullptr) row = alu[dice_.Below(alu.size())];
    }
    Instruction inst;
    inst.op = row->op;
    for (int k = 0; k < row->operand_count(); ++k) {
      inst.operands.push_back(
          operands_.For(row->operands[static_cast<size_t>(k)], mem));
    }
    if (row->suffix == isa::Suffix::kIndexable && mem != nullptr &&
        mem->file == RegFile::kUav && dice_.Coin()) {
      inst.indexable = Indexable(*mem);
    }
    code_.push_back(std::move(inst));
  }

  // A declared memory the row may access; now and then any memory, or an
  // undeclared one. nullptr: nothing fits (the caller picks an ALU row).
  const DeclaredMemory* PickMemory(uint8_t memories) {
    std::vector<const DeclaredMemory*> fits;
    for (const DeclaredMemory& d : memories_) {
      if (d.bit & memories) fits.push_back(&d);
    }
    if (dice_.PerMille(policy_.mismatch)) {
      ghost_ = memories_[dice_.Below(memories_.size())];
      if (dice_.Chance(1, 3)) ghost_.slot = isa::kMaxUavSlot - 1;  // undeclared
      return &ghost_;
    }
    return fits.empty() ? nullptr : fits[dice_.Below(fits.size())];
  }

  isa::ResourceSuffix Indexable(const DeclaredMemory& m) {
    isa::ResourceSuffix s;
    if (m.bit == isa::kUavRaw) {
      s.dim = isa::Dim::kRawBuffer;
    } else if (m.bit == isa::kUavStructured) {
      s.dim = isa::Dim::kStructuredBuffer;
      s.stride = m.stride;
    } else {
      s.dim = m.dim;
      s.types.fill(isa::ReturnType::kUint);
    }
    return s;
  }

  // ---- Broken control flow ----

  static bool IsCloser(Op op) {
    return op == Op::kEndIf || op == Op::kEndLoop || op == Op::kEndSwitch;
  }

  // Changes the count of one block kind, or puts a label or a jump where no
  // block is open (the start of the body): no executor may run the result.
  void Unbalance() {
    std::vector<size_t> closers;
    for (size_t i = 0; i < code_.size(); ++i) {
      if (IsCloser(code_[i].op)) closers.push_back(i);
    }
    const size_t at = dice_.Below(code_.size() + 1);
    switch (dice_.Below(4)) {
      case 0:
        if (!closers.empty()) {
          code_.erase(code_.begin() +
                      static_cast<std::ptrdiff_t>(
                          closers[dice_.Below(closers.size())]));
          break;
        }
        [[fallthrough]];
      case 1: {
        const Op opener = dice_.Pick(kOpeners);
        isa::OperandList ops;
        if (opener != Op::kLoop) ops.push_back(isa::Imm(1));
        code_.insert(code_.begin() + static_cast<std::ptrdiff_t>(at),
                     Make(opener, ops));
        break;
      }
      case 2: {
        const Op closer = dice_.Pick(kClosers);
        code_.insert(code_.begin() + static_cast<std::ptrdiff_t>(at),
                     Make(closer, {}));
        break;
      }
      default: code_.insert(code_.begin(), StrayAtTop()); break;
    }
    unbalanced_ = true;
  }

  Instruction StrayAtTop() {
    switch (dice_.Below(6)) {
      case 0: return Make(Op::kElse, {});
      case 1: return Make(Op::kBreak, {});
      case 2: return Make(Op::kBreakcNz, {isa::Imm(1)});
      case 3: return Make(Op::kContinue, {});
      case 4: return Make(Op::kCase, {isa::Imm(0)});
      default: return Make(Op::kDefault, {});
    }
  }

  static constexpr int kLoop = 0, kLoopContinuable = 1, kSwitch = 2;

  Dice dice_;
  const RandomCasePolicy& policy_;
  const uint64_t seed_;
  isa::Case case_;
  std::array<uint32_t, 3> group_size_ = {1, 1, 1};
  bool declare_group_ = true;
  std::vector<DeclaredMemory> memories_;  // u# in resource order, then g#
  std::vector<uint32_t> tgsm_bytes_;      // by g# slot (raw)
  DeclaredMemory ghost_;                  // a memory picked against the row
  std::vector<Instruction> code_;         // the body; declarations go first
  uint32_t temps_ = 2;
  uint32_t xsize_ = 0;           // elements of x0; 0 = no x0
  std::vector<int> breakables_;  // enclosing loops and switches
  bool unbalanced_ = false;
  OperandMaker operands_;  // after dice_ and code_, which it uses
};

}  // namespace

RandomCase MakeRandomCase(uint64_t seed, const RandomCasePolicy& policy) {
  return CaseMaker(seed, policy).Make();
}

}  // namespace atomfuzz::testutil
