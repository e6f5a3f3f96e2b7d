// Control-flow rules: blocks balance, and sync_*_t appears only where the
// whole group gets there together (E-30). Uniformity is over-approximated:
// a value is "varying" if it may differ between threads of one group, and any
// doubt makes it varying. Calling uniform flow divergent only rejects a case;
// the reverse would let an invalid one through.
//
// The analysis is flow-sensitive, because fxc reuses registers: r0.x may hold
// vThreadID.x early on and a uniform loop counter later. A write in uniform
// flow from uniform sources makes its components uniform again.
#include <algorithm>
#include <bit>
#include <optional>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "isa/printer.h"
#include "isa/temp_bits.h"
#include "isa/validation_rules.h"

namespace atomfuzz::isa {
namespace {

enum class Block : uint8_t { kIf, kElse, kLoop, kSwitch };

Block BlockOf(BlockKind k) {
  return k == BlockKind::kLoop     ? Block::kLoop
         : k == BlockKind::kSwitch ? Block::kSwitch
                                   : Block::kIf;
}

// Returns whether the blocks balance; reports every place where they do not.
// Sets `thread_sync` when some sync has _t.
bool CheckBalance(const Program& p, DiagnosticSink& sink, bool& thread_sync) {
  bool ok = true;
  thread_sync = false;
  // Inline: programs nest a few levels and switch a few labels, and this
  // runs on every case the fuzzer builds.
  absl::InlinedVector<std::pair<Block, int>, 16> stack;  // block, its line
  // Per open switch, its labels so far (nullopt: default). fxc never emits
  // a label twice, the spec does not say which one a repeat would pick, and
  // translators differ (vkd3d's SPIR-V takes the last): such a case is not
  // a program to judge.
  absl::InlinedVector<absl::InlinedVector<std::optional<uint32_t>, 8>, 4>
      labels;
  auto inside = [&](Block b) {
    for (const auto& [blk, line] : stack) {
      if (blk == b) return true;
    }
    return false;
  };
  auto error = [&](const Instruction& i, std::string expected) {
    ok = false;
    Violation(sink, RuleId::kControlFlow, i.line, std::move(expected),
              Quote(PrintInstruction(i)));
  };
  for (const Instruction& i : p.instructions) {
    const Block top = stack.empty() ? Block::kIf : stack.back().first;
    const OpcodeInfo& row = i.info();
    switch (row.block) {
      case BlockShape::kOpen:
        if (stack.size() >= static_cast<size_t>(kMaxNesting)) {
          error(i, absl::StrCat("at most ", kMaxNesting,
                                " blocks nested (atomfuzz's cap)"));
        }
        stack.push_back({BlockOf(row.block_kind), i.line});
        if (row.block_kind == BlockKind::kSwitch) labels.emplace_back();
        break;
      case BlockShape::kMiddle:
        if (stack.empty() || top != Block::kIf) {
          error(i, "else inside an if without else");
        } else {
          stack.back().first = Block::kElse;
        }
        break;
      case BlockShape::kClose: {
        const Block want = BlockOf(row.block_kind);
        if (stack.empty() ||
            (top != want && !(want == Block::kIf && top == Block::kElse))) {
          error(i, want == Block::kIf     ? "endif closing an if"
                   : want == Block::kLoop ? "endloop closing a loop"
                                          : "endswitch closing a switch");
        } else {
          stack.pop_back();
          if (want == Block::kSwitch) labels.pop_back();
        }
        break;
      }
      case BlockShape::kLabel:
        if (stack.empty() || top != Block::kSwitch) {
          error(i, "case or default directly inside a switch");
        } else {
          const std::optional<uint32_t> label =
              i.op == Op::kCase && !i.operands.empty()
                  ? std::optional<uint32_t>(i.operands[0].values[0])
                  : std::nullopt;
          auto& seen = labels.back();
          if (std::find(seen.begin(), seen.end(), label) != seen.end()) {
            error(i, i.op == Op::kCase
                         ? "a case value not used before in this switch"
                         : "one default in this switch");
          }
          seen.push_back(label);
        }
        break;
      case BlockShape::kBreak:
        if (!inside(Block::kLoop) && !inside(Block::kSwitch)) {
          error(i, "break inside a loop or switch");
        }
        break;
      case BlockShape::kContinue:
        if (!inside(Block::kLoop)) error(i, "continue inside a loop");
        break;
      case BlockShape::kNone: break;
    }
    if (i.op == Op::kSync) thread_sync |= (i.sync_flags & kSyncThreads) != 0;
  }
  for (const auto& [block, line] : stack) {
    ok = false;
    Violation(sink, RuleId::kControlFlow, line,
              block == Block::kLoop     ? "endloop for this loop"
              : block == Block::kSwitch ? "endswitch for this switch"
                                        : "endif for this if",
              "end of program");
  }
  return ok;
}

// Beyond these the analysis gives up and calls everything varying, so that
// hostile input stays cheap. No real shader comes close.
constexpr uint32_t kMaxTrackedTemps = 4096;  // the dcl_temps limit (spec 1.8)
constexpr size_t kMaxDepth = 64;
constexpr int kMaxRounds = 32;
constexpr uint64_t kMaxStateBits = uint64_t{1} << 22;

// What may differ between the threads of one group at one program point.
struct State {
  TempBits temps;         // r#.c varying, at 4 * # + c
  bool returned = false;  // some threads of the group have returned

  // Whether everything varying here is varying in `o`.
  bool SubsetOf(const State& o) const {
    return (!returned || o.returned) && temps.SubsetOf(o.temps);
  }
  // Returns whether anything became varying.
  bool Join(const State& o) {
    bool changed = !returned && o.returned;
    returned = returned || o.returned;
    changed |= temps.Union(o.temps);
    return changed;
  }
};

struct Frame {
  Block block;
  bool divergent;        // threads may disagree about being here
  bool entry_divergent;  // the same, where the block starts
  size_t id;             // kLoop: index into the per-loop tables
  State other;  // kIf, kSwitch: the state before it; kElse: at the end of
                // the then part
  std::optional<State> exit;  // kLoop, kSwitch: joined over the breaks
};

using Frames = absl::InlinedVector<Frame, 16>;

// Forward walks over the instruction list, repeated until the states at loop
// heads and the divergence of loops stop changing. The round that changed
// nothing saw exactly the heads a further walk would see, so its findings
// are reported; when the rounds do not settle, one last walk with everything
// varying reports instead. A round after which every loop would start from
// the state it started from (Settled) is followed by one that repeats it
// step for step and so changes nothing: that round is not walked.
class UniformityPass {
 public:
  explicit UniformityPass(const Program& p) : p_(p) {}

  void Run(DiagnosticSink& sink) {
    Size();
    bool converged = false;
    for (int round = 0; round < kMaxRounds && !converged && !gave_up_;
         ++round) {
      changed_ = false;
      Walk();
      converged = !changed_ || Settled();
    }
    if (!converged || gave_up_) {
      everything_varying_ = true;
      tracked_ = 0;
      heads_.assign(heads_.size(), Empty());
      Walk();
    }
    for (const Instruction* i : divergent_syncs_) {
      Violation(sink, RuleId::kSyncInDivergentFlow, i->line,
                "sync with _t in control flow uniform across the group",
                absl::StrCat(Quote(PrintInstruction(*i)),
                             " in divergent control flow"));
    }
  }

 private:
  // Sizes the tables; gives up on programs whose states would be huge.
  void Size() {
    uint32_t max_temp = 0;
    size_t loops = 0, blocks = 0;
    for (const Instruction& i : p_.instructions) {
      for (const Operand& o : i.operands) {
        if (o.file == RegFile::kTemp) {
          const uint32_t n = std::min(o.index, kMaxTrackedTemps) + 1;
          max_temp = std::max(max_temp, n);
        }
      }
      loops += i.op == Op::kLoop;
      blocks += i.op == Op::kLoop || i.op == Op::kSwitch || i.op == Op::kIfZ ||
                i.op == Op::kIfNz;
    }
    tracked_ = std::min(max_temp, kMaxTrackedTemps);
    if (uint64_t{tracked_} * 4 * (loops + blocks) > kMaxStateBits) {
      gave_up_ = true;
      tracked_ = 0;
    }
    heads_.assign(loops, Empty());
    starts_.assign(loops, State{});
    divergent_loops_.assign(loops, false);
    started_divergent_.assign(loops, false);
  }

  // The state at program start: temps hold undefined, per-thread values.
  State Fresh() const {
    State s;
    s.temps = TempBits(size_t{tracked_} * 4, true);
    return s;
  }
  // Nothing known yet (the start of a loop's back-edge join).
  State Empty() const {
    State s;
    s.temps = TempBits(size_t{tracked_} * 4, false);
    return s;
  }

  bool Varying(const State& s, const Operand& o) const {
    if (everything_varying_) return true;
    switch (o.file) {
      case RegFile::kImmediate:
      case RegFile::kThreadGroupID: return false;
      case RegFile::kTemp:
        for (int lane = 0; lane < o.SourceWidth(); ++lane) {
          if (o.index >= tracked_ ||
              s.temps.Get(size_t{o.index} * 4 + o.Component(lane))) {
            return true;
          }
        }
        return false;
      default: return true;  // thread ids, x# (may be indexed per thread)
    }
  }

  void Write(State& s, const Operand& dst, bool varying) const {
    if (dst.file != RegFile::kTemp || dst.index >= tracked_) return;
    for (int c = 0; c < 4; ++c) {
      if (dst.mask & (1u << c)) s.temps.Set(size_t{dst.index} * 4 + c, varying);
    }
  }

  // Index of the innermost loop (or, for break, loop or switch).
  static std::optional<size_t> Target(const Frames& stack, bool switch_too) {
    for (size_t k = stack.size(); k-- > 0;) {
      if (stack[k].block == Block::kLoop ||
          (switch_too && stack[k].block == Block::kSwitch)) {
        return k;
      }
    }
    return std::nullopt;  // unbalanced programs are not analysed
  }

  // Whether a further walk would repeat the last one exactly: at each loop
  // the head joined over back edges adds nothing to the state the loop
  // started from, and the loop's divergence is what it started with. By
  // induction over the loops in program order, every state of the next
  // walk is then the same, so it joins nothing new and changes nothing.
  bool Settled() const {
    if (gave_up_) return false;
    for (size_t id = 0; id < heads_.size(); ++id) {
      if (!heads_[id].SubsetOf(starts_[id]) ||
          divergent_loops_[id] != started_divergent_[id]) {
        return false;
      }
    }
    return true;
  }

  // Fills divergent_syncs_ afresh.
  void Walk();
  void Escape(Frames& stack, State& state, Op op, bool divergent);

  const Program& p_;
  uint32_t tracked_ = 0;  // temps r0..r(tracked_-1) are tracked
  // Inline for the few loops, blocks and syncs of a typical program: the
  // pass runs on every case the fuzzer builds.
  absl::InlinedVector<State, 8> heads_;  // per loop: joined over back edges
  absl::InlinedVector<bool, 8> divergent_loops_;
  // Per loop, as the last walk entered it: its state after the join with
  // its head, and divergent_loops_ (for Settled).
  absl::InlinedVector<State, 8> starts_;
  absl::InlinedVector<bool, 8> started_divergent_;
  absl::InlinedVector<const Instruction*, 4> divergent_syncs_;  // sync_*_t
  absl::InlinedVector<Frame, 16> frames_;  // Walk's open blocks
  bool changed_ = false;
  bool gave_up_ = false;
  bool everything_varying_ = false;
};

// break, continue and their conditional forms. After a `divergent` escape
// (only some threads take it) the rest of the blocks it leaves is divergent,
// and so is all of a loop it breaks or continues: later iterations run
// without those threads.
void UniformityPass::Escape(Frames& stack, State& state, Op op,
                            bool divergent) {
  const bool is_break =
      op == Op::kBreak || op == Op::kBreakcZ || op == Op::kBreakcNz;
  const std::optional<size_t> t = Target(stack, is_break);
  if (!t) return;
  Frame& f = stack[*t];
  const bool loop = f.block == Block::kLoop;
  if (divergent) {
    for (size_t k = *t; k < stack.size(); ++k) stack[k].divergent = true;
    if (loop && !divergent_loops_[f.id]) {
      divergent_loops_[f.id] = true;
      changed_ = true;
    }
  }
  if (!is_break) {
    changed_ |= heads_[f.id].Join(state);
  } else if (f.exit) {
    f.exit->Join(state);
  } else {
    f.exit = state;
  }
}

void UniformityPass::Walk() {
  divergent_syncs_.clear();
  Frames& stack = frames_;
  stack.clear();
  State state = Fresh();
  size_t next_loop = 0;
  auto push = [&](Block block, bool divergent, size_t id, State other) {
    stack.push_back(
        {block, divergent, divergent, id, std::move(other), std::nullopt});
  };
  auto divergent_here = [&] {
    return everything_varying_ || state.returned ||
           (!stack.empty() && stack.back().divergent);
  };
  for (const Instruction& i : p_.instructions) {
    const OpcodeInfo& row = i.info();
    const OperandLayout& layout = Layout(i.op);
    const Operand* ops = i.operands.data();
    // Only control flow has a condition to follow (movc's is data).
    const int cond = row.family == Family::kControl
                         ? layout.with_role(Role::kCondition)
                         : -1;
    const bool cond_varying =
        cond >= 0 && Varying(state, ops[static_cast<size_t>(cond)]);
    if (stack.size() > kMaxDepth && !everything_varying_) {
      gave_up_ = true;
      return;
    }
    switch (i.op) {
      case Op::kIfZ:
      case Op::kIfNz:
        push(Block::kIf, divergent_here() || cond_varying, 0, state);
        continue;
      case Op::kElse: {
        // The else part starts from the if's state: a break or ret in the
        // then part left from there, not from here.
        Frame& f = stack.back();
        std::swap(state, f.other);
        f.block = Block::kElse;
        f.divergent = f.entry_divergent;
        continue;
      }
      case Op::kEndIf:
        state.Join(stack.back().other);  // the path that skipped this part
        stack.pop_back();
        continue;
      case Op::kLoop: {
        const size_t id = next_loop++;
        state.Join(heads_[id]);
        starts_[id] = state;
        started_divergent_[id] = divergent_loops_[id];
        push(Block::kLoop, divergent_here() || divergent_loops_[id], id,
             State{});
        continue;
      }
      case Op::kEndLoop: {
        Frame& f = stack.back();
        changed_ |= heads_[f.id].Join(state);
        // Threads leave only through breaks; a loop without one never ends
        // (or ends by ret), so what follows keeps the current state.
        if (f.exit) state = *std::move(f.exit);
        stack.pop_back();
        continue;
      }
      case Op::kSwitch:
        push(Block::kSwitch, divergent_here() || cond_varying, 0, state);
        continue;
      case Op::kCase:
      case Op::kDefault:
        state.Join(stack.back().other);  // jumped to from the switch
        continue;
      case Op::kEndSwitch: {
        Frame& f = stack.back();
        state.Join(f.other);  // no case matched and no default
        if (f.exit) state.Join(*f.exit);
        stack.pop_back();
        continue;
      }
      case Op::kBreak:
      case Op::kBreakcZ:
      case Op::kBreakcNz:
      case Op::kContinue:
      case Op::kContinuecZ:
      case Op::kContinuecNz:
        Escape(stack, state, i.op, cond_varying || divergent_here());
        continue;
      case Op::kRet:
      case Op::kRetcZ:
      case Op::kRetcNz:
        if (cond_varying || divergent_here()) state.returned = true;
        continue;
      case Op::kSync:
        if ((i.sync_flags & kSyncThreads) && divergent_here()) {
          divergent_syncs_.push_back(&i);
        }
        continue;
      default: break;
    }
    // Results of memory reads and atomics are varying, as is anything
    // written where only some threads run; ALU results follow their sources.
    bool varying = divergent_here() || row.family != Family::kAlu;
    for (unsigned m = layout.src_mask; !varying && m != 0; m &= m - 1) {
      varying = Varying(state, ops[std::countr_zero(m)]);
    }
    for (unsigned m = layout.dst_mask; m != 0; m &= m - 1) {
      Write(state, ops[std::countr_zero(m)], varying);
    }
  }
}

}  // namespace

void CheckControlFlow(const Program& program, DiagnosticSink& sink) {
  // The uniformity walk needs the block structure; an unbalanced program is
  // rejected already. It reports only sync_*_t in divergent flow, so a
  // program without one has nothing to walk for.
  bool thread_sync = false;
  if (CheckBalance(program, sink, thread_sync) && thread_sync) {
    UniformityPass(program).Run(sink);
  }
}

}  // namespace atomfuzz::isa
