// Execution: scheduling, barriers, control flow, registers and ALU (setup
// and the outcome in execution_setup.cc, memory in memory_ops.cc).
#include "oracle/execution.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "oracle/alu.h"

namespace atomfuzz::oracle {

using isa::Op;
using isa::Operand;
using isa::RegFile;

absl::Status Execution::Run() {
  if (absl::Status s = Setup(); !s.ok()) return s;
  absl::Status s = options_.schedule.kind == Schedule::Kind::kCanonical
                       ? RunCanonical()
                       : RunRandom();
  if (absl::IsResourceExhausted(s)) {
    outcome_.status = isa::RunStatus::kBudgetExceeded;
    outcome_.message = std::string(s.message());
    return absl::OkStatus();
  }
  return s;
}

absl::Status Execution::RunCanonical() {
  for (uint32_t g = 0; g < groups_.size(); ++g) {
    StartGroup(g);
    Group& group = groups_[g];
    for (;;) {
      bool all_done = true;
      for (uint32_t k = 0; k < group.thread_count; ++k) {
        Thread& t = threads_[group.first_thread + k];
        if (t.pc < leading_decls_) {
          if (absl::Status s = SkipLeadingDecls(t); !s.ok()) return s;
        }
        if (absl::Status s = RunThread(t); !s.ok()) return s;
        all_done = all_done && t.done;
      }
      if (all_done) break;
      MaybeRelease(g);
    }
    // Canonical order finishes a group before the next: its TGSM and x#
    // can go, their room to the next group (StartGroup refills it); the
    // last group's to the first, for the next pass.
    if (replay_) replay_->GroupDone(g);
    spare_tgsm_.swap(group.tgsm);
    const Group& next = groups_[(g + 1) % groups_.size()];
    for (uint32_t k = 0; k < group.thread_count; ++k) {
      Thread& t = threads_[group.first_thread + k];
      t.regs = {};
      t.values = {};
      if (!xsizes_.empty()) threads_[next.first_thread + k].xregs.swap(t.xregs);
    }
  }
  return absl::OkStatus();
}

absl::Status Execution::RunRandom() {
  std::vector<uint32_t> runnable;
  for (uint32_t g = 0; g < groups_.size(); ++g) StartGroup(g);
  for (const Thread& t : threads_) runnable.push_back(t.id);
  while (!runnable.empty()) {
    const size_t pick = prng_.Below(runnable.size());
    Thread& t = threads_[runnable[pick]];
    if (absl::Status s = Step(t); !s.ok()) return s;
    if (!t.done && !t.waiting) continue;
    runnable[pick] = runnable.back();
    runnable.pop_back();
    if (!MaybeRelease(t.group)) continue;
    // Every live thread of the group was waiting, so none is in the list;
    // those a quad's release left waiting (ps) stay out.
    const Group& group = groups_[t.group];
    for (uint32_t k = 0; k < group.thread_count; ++k) {
      const Thread& u = threads_[group.first_thread + k];
      if (!u.done && !u.waiting) runnable.push_back(u.id);
    }
  }
  return absl::OkStatus();
}

bool Execution::MaybeReleaseBarrier(uint32_t g) {
  Group& group = groups_[g];
  uint32_t waiting = 0, done = 0;
  uint8_t flags = 0;
  for (uint32_t k = 0; k < group.thread_count; ++k) {
    const Thread& t = threads_[group.first_thread + k];
    if (t.waiting) {
      ++waiting;
      flags |= program_.instructions[t.pc - 1].sync_flags;
    }
    if (t.done) ++done;
  }
  if (waiting == 0 || waiting + done != group.thread_count) return false;
  // Spec 2.2: the barrier orders g# accesses when it fences g#, u#
  // accesses within the group when it fences UAVs.
  if (flags & isa::kSyncTgsm) ++group.tgsm_interval;
  if (flags & (isa::kSyncUavGroup | isa::kSyncUavGlobal)) ++group.uav_interval;
  for (uint32_t k = 0; k < group.thread_count; ++k) {
    threads_[group.first_thread + k].waiting = false;
  }
  if (replay_) replay_->Barrier(g, flags, known_);
  return true;
}

// Inlined into Step and RunThread: the dispatch is most of a step.
ABSL_ATTRIBUTE_ALWAYS_INLINE inline absl::Status Execution::Execute(
    Thread& t, const isa::Instruction& inst, const Decoded& d) {
  const uint32_t index = t.pc;
  switch (d.family) {
    case isa::Family::kDecl: ++t.pc; break;
    case isa::Family::kAlu:
      ExecAlu(t, inst, d);
      ++t.pc;
      break;
    case isa::Family::kControl:
      ExecControl(t, inst);
      if (pixel_) TrackLoops(t, inst.op, index);  // for derivatives (P.5)
      break;
    case isa::Family::kDiscard:
      ExecDiscard(t, inst);
      ++t.pc;
      break;
    case isa::Family::kDeriv: t.waiting = true; break;  // MaybeReleaseQuad
    case isa::Family::kSync:
      ++t.pc;
      if (inst.sync_flags & isa::kSyncThreads) t.waiting = true;
      break;
    case isa::Family::kLoad:
      ExecLoad(t, inst);
      ++t.pc;
      break;
    // An inactive pixel lane's stores and atomics leave memory alone, and
    // an atomic returns an undefined value (spec 1.3).
    case isa::Family::kStore:
      if (t.active) ExecStore(t, inst);
      ++t.pc;
      break;
    // Only atomics count against the trace cap, so only they are checked.
    case isa::Family::kAtomic:
    case isa::Family::kImmAtomic:
      if (t.active) {
        ExecAtomic(t, index, inst);
      } else {
        ExecInactiveAtomic(t, index, inst);
      }
      ++t.pc;
      if (atomics_run_ > options_.max_trace_events) return OverTraceCap();
      break;
    case isa::Family::kCounter:
      if (t.active) {
        ExecCounter(t, index, inst);
      } else {
        ExecInactiveAtomic(t, index, inst);
      }
      ++t.pc;
      if (atomics_run_ > options_.max_trace_events) return OverTraceCap();
      break;
  }
  return absl::OkStatus();
}

absl::Status Execution::Step(Thread& t) {
  const size_t size = program_.instructions.size();
  if (t.pc >= size) {
    t.done = true;
    return absl::OkStatus();
  }
  if (++t.steps > options_.max_steps_per_thread ||
      ++total_steps_ > options_.max_total_steps) {
    return OverBudget();
  }
  const absl::Status s =
      Execute(t, program_.instructions[t.pc], decoded_[t.pc]);
  if (!s.ok()) return s;
  if (t.pc >= size) t.done = true;
  return absl::OkStatus();
}

absl::Status Execution::RunThread(Thread& t) {
  // Read once: no step reallocates them.
  const isa::Instruction* const code = program_.instructions.data();
  const Decoded* const decoded = decoded_.data();
  const size_t size = program_.instructions.size();
  if (t.pc >= size) {
    t.done = true;
    return absl::OkStatus();
  }
  // Both counts are within their limits here (a step past one ends the
  // run), so this is how many steps the thread may take before the first
  // of them would cross its limit: Step's checks, counted down.
  const uint64_t allowed = std::min(options_.max_steps_per_thread - t.steps,
                                    options_.max_total_steps - total_steps_);
  uint64_t taken = 0;
  absl::Status status;
  while (!t.done && !t.waiting) {
    if (taken == allowed) {
      status = OverBudget();
      break;
    }
    ++taken;
    const Decoded& d = decoded[t.pc];
    // Most steps: an ALU instruction neither fails nor stops the thread, so
    // it skips Execute's dispatch and the tests after it.
    // A run of them goes on here, with the pc in a register: a step
    // changes neither t.done nor t.waiting, nor where the values are.
    if (d.family == isa::Family::kAlu) {
      Value* const values = t.values.data();
      uint32_t pc = t.pc;
      const Decoded* e = &d;
      for (;;) {
        if (!e->alu_flat || !e->flat.Run(values)) {
          ExecAluLanes(t, code[pc], *e);
        }
        ++pc;
        // At the budget, the loop above returns the error at its next turn.
        if (pc >= size || taken == allowed) break;
        e = &decoded[pc];
        if (e->family != isa::Family::kAlu) break;
        ++taken;
      }
      t.pc = pc;
      if (pc < size) continue;
      t.done = true;
      break;
    }
    status = Execute(t, code[t.pc], d);
    if (!status.ok()) break;
    if (t.pc >= size) t.done = true;
  }
  t.steps += taken;
  total_steps_ += taken;
  return status;
}

// A declaration is a step like any other for the budget (InterpretOptions:
// every instruction executed counts), and at run time it does nothing else
// (Setup read them all). So under the canonical schedule, where a thread
// runs alone until it finishes or waits, its leading declarations are taken
// in one go: the same steps counted, the same budget error where one of
// them would have crossed a limit (nothing in between could have changed
// memory or the outcome).
// The random schedule steps them one by one: each step there is a PRNG
// draw, and skipping would change every later pick.
absl::Status Execution::SkipLeadingDecls(Thread& t) {
  const uint64_t n = leading_decls_ - t.pc;
  // Both counts are within their limits here (Step stops at the first step
  // past one), so neither subtraction wraps.
  if (n > options_.max_steps_per_thread - t.steps ||
      n > options_.max_total_steps - total_steps_) {
    return OverBudget();
  }
  t.steps += n;
  total_steps_ += n;
  t.pc = leading_decls_;
  if (t.pc >= program_.instructions.size()) t.done = true;
  return absl::OkStatus();
}

absl::Status Execution::OverBudget() const {
  return absl::ResourceExhaustedError(absl::StrCat(
      "instruction budget exceeded (", options_.max_steps_per_thread,
      " per thread, ", options_.max_total_steps, " in all)"));
}

absl::Status Execution::OverTraceCap() const {
  return absl::ResourceExhaustedError(absl::StrCat(
      "more than ", options_.max_trace_events, " atomics executed"));
}

Value Execution::ReadOther(const Thread& t, const Operand& op, int lane) const {
  const int c = op.Component(lane);
  switch (op.file) {
    case RegFile::kIndexableTemp: {
      if (op.index >= t.xregs.size()) return Value{};
      const std::optional<uint64_t> element = ElementOf(t, op);
      if (!element) return Value{};
      const auto& x = t.xregs[op.index];
      const uint64_t k = *element * 4 + static_cast<uint64_t>(c);
      return k < x.size() ? x[k] : Value{};  // out of range: undefined
    }
    case RegFile::kThreadID:
    case RegFile::kThreadGroupID:
    case RegFile::kThreadIDInGroup:
    case RegFile::kThreadIDInGroupFlattened:
    case RegFile::kInputCoverageMask: {
      const int slot = SystemValueSlot(op.file, c);
      return slot < 0 ? Value{} : t.values[static_cast<size_t>(slot)];
    }
    case RegFile::kInput: {
      const uint64_t k = uint64_t{op.index} * 4 + static_cast<uint64_t>(c);
      const int slot = k < input_slots_.size() ? input_slots_[k] : -1;
      return slot < 0 ? Value{} : t.values[static_cast<size_t>(slot)];
    }
    default: return Value{};
  }
}

std::optional<uint64_t> Execution::ElementOf(const Thread& t,
                                             const Operand& op) {
  uint64_t element = op.offset;
  if (!op.relative) return element;
  const size_t r = size_t{op.relative->temp} * 4 + op.relative->component;
  if (r >= t.regs.size() || !t.regs[r].defined) return std::nullopt;
  return element + t.regs[r].bits;
}

void Execution::WriteOther(Thread& t, const Operand& dst, int component,
                           Value v) {
  const size_t c = static_cast<size_t>(component & 3);
  if (dst.file != RegFile::kIndexableTemp || dst.index >= t.xregs.size())
    return;
  auto& x = t.xregs[dst.index];
  const std::optional<uint64_t> element = ElementOf(t, dst);
  const uint64_t k = element ? *element * 4 + c : 0;
  if (!element || k >= x.size()) {
    // A write to an unknown or out-of-range element may land anywhere in x#.
    std::fill(x.begin(), x.end(), Value{});
    return;
  }
  x[k] = v;
}

bool Execution::Condition(const Thread& t, const Operand& op) {
  const Value v = Read(t, op, 0);
  // Control flow on an undefined value: the executor may take either path,
  // so nothing it writes afterwards can be judged (spec 6.0). One of a set
  // of values takes one path where they all do.
  if (v.defined) return v.bits != 0;
  if (!v.set) {
    chaos_ = true;
    return v.bits != 0;  // either path: the bits it happens to hold
  }
  uint32_t one;
  const absl::Span<const uint32_t> e = sets_.Elements(v, one);
  const bool any_true =
      std::any_of(e.begin(), e.end(), [](uint32_t c) { return c != 0; });
  const bool any_false =
      std::any_of(e.begin(), e.end(), [](uint32_t c) { return c == 0; });
  if (e.empty() || (any_true && any_false)) chaos_ = true;
  return any_true;
}

void Execution::ExecAlu(Thread& t, const isa::Instruction& inst,
                        const Decoded& d) {
  // One lane with no x#, as most instructions: the operands resolved by
  // Decode.
  // Unchecked: FlatAlu::Of kept the indices within the thread's values.
  if (d.alu_flat && d.flat.Run(t.values.data())) return;
  ExecAluLanes(t, inst, d);
}

void Execution::ExecAluLanes(Thread& t, const isa::Instruction& inst,
                             const Decoded& d) {
  const size_t sources = d.alu_sources;
  const bool two_dst = isa::Layout(inst.op).destinations() == 2;
  const Operand* src_ops = inst.operands.data() + (two_dst ? 2 : 1);
  const Operand& lo = inst.operands[two_dst ? 1 : 0];
  const Operand* hi = two_dst ? &inst.operands[0] : nullptr;
  const unsigned mask = (lo.mask | (hi ? hi->mask : 0u)) & 0xFu;
  // Every source is read before any destination is written (dst may alias).
  // Lanes are visited by their mask bits.
  std::array<Value, 4> result{}, high{};
  for (unsigned m = mask; m != 0; m &= m - 1) {
    const int c = std::countr_zero(m);
    std::array<Value, 4> src;
    for (size_t k = 0; k < 4; ++k) {
      src[k] = k < d.alu_counted && k < sources
                   ? Read(t, src_ops[k], c)
                   : AbsentSource(k, d.alu_counted);
    }
    result[static_cast<size_t>(c)] =
        sets_.EvalAlu(inst.op, src, &high[static_cast<size_t>(c)]);
  }
  // Where both destinations name one register component, the spec does not
  // say which half stays (docs/semantics.md, "Two destinations"): it is
  // undefined. Found before any write, as a write may move an x# index.
  const unsigned both = hi != nullptr && SameRegister(t, lo, *hi)
                            ? lo.mask & hi->mask & 0xFu
                            : 0u;
  for (unsigned m = lo.mask & 0xFu; m != 0; m &= m - 1) {
    const int c = std::countr_zero(m);
    Write(t, lo, c, result[static_cast<size_t>(c)]);
  }
  if (hi == nullptr) return;
  for (unsigned m = hi->mask & 0xFu; m != 0; m &= m - 1) {
    const int c = std::countr_zero(m);
    const Value h = high[static_cast<size_t>(c)];
    Write(t, *hi, c, (both >> c) & 1u ? Value{h.bits, false} : h);
  }
}

bool Execution::SameRegister(const Thread& t, const Operand& a,
                             const Operand& b) const {
  if (a.file != b.file || a.index != b.index) return false;
  if (a.file != RegFile::kIndexableTemp) return true;
  // x#[element]: an unknown element may be any, so it may be the same.
  const std::optional<uint64_t> ea = ElementOf(t, a), eb = ElementOf(t, b);
  return !ea || !eb || *ea == *eb;
}

void Execution::ExecControl(Thread& t, const isa::Instruction& inst) {
  const uint32_t here = t.pc;
  const uint32_t target = map_.target[here];
  switch (inst.op) {
    case Op::kIfZ:
    case Op::kIfNz: {
      const bool nonzero = Condition(t, inst.operands[0]);
      const bool taken = (inst.op == Op::kIfNz) == nonzero;
      t.pc = taken ? here + 1 : target;
      return;
    }
    case Op::kElse: t.pc = target; return;         // end of the true branch
    case Op::kEndLoop: t.pc = target + 1; return;  // back to the body
    case Op::kBreak: t.pc = target + 1; return;
    case Op::kContinue: t.pc = target + 1; return;
    case Op::kBreakcZ:
    case Op::kBreakcNz:
    case Op::kContinuecZ:
    case Op::kContinuecNz:
    case Op::kRetcZ:
    case Op::kRetcNz: {
      const bool nonzero = Condition(t, inst.operands[0]);
      const bool taken = inst.info().test_nonzero == nonzero;
      if (!taken) {
        t.pc = here + 1;
      } else if (inst.op == Op::kRetcZ || inst.op == Op::kRetcNz) {
        t.done = true;
      } else {
        t.pc = target + 1;
      }
      return;
    }
    case Op::kSwitch: {
      const Value v = Read(t, inst.operands[0], 0);
      auto label_of = [&](uint32_t value) {
        uint32_t chosen = target;  // endswitch when nothing matches
        for (uint32_t k = map_.next_case[here]; k != ControlMap::kNoCase;
             k = map_.next_case[k]) {
          const isa::Instruction& label = program_.instructions[k];
          if (label.op == Op::kDefault) {
            if (chosen == target) chosen = k;
          } else if (label.operands[0].values[0] == value) {
            return k;
          }
        }
        return chosen;
      };
      const uint32_t chosen = label_of(v.bits);
      if (!v.defined) {
        // One of a set of values goes where they all go; else anywhere.
        uint32_t one;
        const absl::Span<const uint32_t> e = sets_.Elements(v, one);
        const uint32_t first = e.empty() ? target : label_of(e[0]);
        if (e.empty() || std::any_of(e.begin() + 1, e.end(), [&](uint32_t x) {
              return label_of(x) != first;
            })) {
          chaos_ = true;
        } else {
          t.pc = first + 1;
          return;
        }
      }
      t.pc = chosen + 1;
      return;
    }
    case Op::kRet: t.done = true; return;
    default:  // endif, loop, case, default, endswitch: nothing to do
      t.pc = here + 1;
      return;
  }
}

}  // namespace atomfuzz::oracle
