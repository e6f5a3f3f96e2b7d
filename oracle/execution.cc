// Execution: setup, scheduling, barriers, control flow, registers and ALU.
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

Execution::Execution(const isa::Case& c, const ControlMap& map,
                     const DecodedProgram& decoded,
                     const InterpretOptions& options, const AccessLog& known,
                     Replay* replay, ExecutionStorage* storage)
    : case_(c),
      program_(c.shader),
      map_(map),
      options_(options),
      known_(known),
      replay_(replay),
      storage_(storage),
      prng_(options.schedule.seed),
      temps_(decoded.temps),
      decoded_(decoded.code),
      declarations_(decoded.declarations),
      leading_decls_(decoded.leading_decls),
      atomic_count_(decoded.atomic_count) {
  if (storage_ != nullptr) {
    xsizes_ = std::move(storage_->xsizes);
    uavs_ = std::move(storage_->uavs);
    tgsm_layouts_ = std::move(storage_->tgsm_layouts);
    groups_ = std::move(storage_->groups);
    threads_ = std::move(storage_->threads);
    reg_pool_ = std::move(storage_->reg_pool);
    occurrence_pool_ = std::move(storage_->occurrence_pool);
    log_ = std::move(storage_->log);
    spare_words_ = std::move(storage_->spare_words);
    spare_tgsm_ = std::move(storage_->spare_tgsm);
    // Emptied, not freed: Setup fills them afresh, UAVs' words in the room
    // of the last pass's.
    xsizes_.clear();
    for (std::optional<Uav>& u : uavs_) {
      if (u) spare_words_.push_back(std::move(u->words));
    }
    uavs_.clear();
    tgsm_layouts_.clear();
    log_.Clear();
  }
  // A later pass touches about the words the earlier ones did.
  log_.Reserve(known.WordCount());
}

Execution::~Execution() {
  if (storage_ == nullptr) return;
  storage_->xsizes = std::move(xsizes_);
  storage_->uavs = std::move(uavs_);
  storage_->tgsm_layouts = std::move(tgsm_layouts_);
  storage_->groups = std::move(groups_);
  storage_->threads = std::move(threads_);
  storage_->reg_pool = std::move(reg_pool_);
  storage_->occurrence_pool = std::move(occurrence_pool_);
  storage_->spare_words = std::move(spare_words_);
  storage_->spare_tgsm = std::move(spare_tgsm_);
  storage_->log = std::move(log_);
}

absl::Status Execution::Setup() {
  const auto& code = program_.instructions;
  for (const uint32_t i : declarations_) {
    const isa::Instruction& inst = code[i];
    const auto& ops = inst.operands;
    switch (inst.op) {
      case Op::kDclIndexableTemp:
        if (ops[0].index >= 4096 || ops[0].offset > 4096) {
          return absl::InvalidArgumentError("indexable temp beyond 4096");
        }
        if (xsizes_.size() <= ops[0].index) xsizes_.resize(ops[0].index + 1, 0);
        xsizes_[ops[0].index] = ops[0].offset;
        break;
      case Op::kDclThreadGroup:
        group_size_ = {ops[0].index, ops[1].index, ops[2].index};
        break;
      case Op::kDclUavRaw: case Op::kDclUavStructured: case Op::kDclUavTyped: {
        const uint32_t slot = ops[0].index;
        const isa::Resource* r = case_.FindResource(slot);
        if (r == nullptr || slot > isa::kMaxUavSlot) {
          return absl::InvalidArgumentError(absl::StrCat("u", slot, " is not bound"));
        }
        Uav u;
        u.layout.words = r->init.size();
        switch (r->kind) {
          case isa::ResourceKind::kRaw: u.layout.kind = Layout::Kind::kRaw; break;
          case isa::ResourceKind::kStructured:
            u.layout.kind = Layout::Kind::kStructured;
            u.layout.stride = r->stride;
            u.layout.elements = r->elements;
            break;
          case isa::ResourceKind::kTyped:
            u.layout.kind = Layout::Kind::kTyped;
            u.layout.dim = r->dim;
            u.layout.size = r->size;
            break;
        }
        const Op want = r->kind == isa::ResourceKind::kRaw ? Op::kDclUavRaw
                        : r->kind == isa::ResourceKind::kStructured
                            ? Op::kDclUavStructured
                            : Op::kDclUavTyped;
        if (want != inst.op) {
          return absl::InvalidArgumentError(
              absl::StrCat("u", slot, " is bound to a resource of another kind"));
        }
        u.format = r->format;
        if (!spare_words_.empty()) {
          u.words = std::move(spare_words_.back());
          spare_words_.pop_back();
          u.words.clear();
        }
        u.words.reserve(r->init.size());
        for (uint32_t w : r->init) u.words.push_back(Value::Of(w));
        if (r->counter) u.counter = Value::Of(*r->counter);
        if (uavs_.size() <= slot) uavs_.resize(slot + 1);
        uavs_[slot] = std::move(u);
        break;
      }
      case Op::kDclTgsmRaw: case Op::kDclTgsmStructured: {
        const uint32_t slot = ops[0].index;
        if (slot >= 8192) return absl::InvalidArgumentError("g# beyond 8191");
        Layout l;
        l.tgsm = true;
        if (inst.op == Op::kDclTgsmRaw) {
          l.kind = Layout::Kind::kRaw;
          l.words = ops[1].index / 4;
        } else {
          l.kind = Layout::Kind::kStructured;
          l.stride = ops[1].index;
          l.elements = ops[2].index;
          l.words = uint64_t{ops[1].index / 4} * ops[2].index;
        }
        if (l.words > 8192) return absl::InvalidArgumentError("g# over 32 KiB");
        if (tgsm_layouts_.size() <= slot) tgsm_layouts_.resize(slot + 1);
        tgsm_layouts_[slot] = l;
        break;
      }
      default:
        break;
    }
  }
  // Each product saturates just past its cap: three 32-bit extents could
  // wrap 64 bits and slip through.
  auto capped = [](const std::array<uint32_t, 3>& v, uint64_t cap) {
    uint64_t n = 1;
    for (uint32_t x : v) n = std::min<uint64_t>(n * x, cap + 1);
    return n;
  };
  const uint64_t per_group = capped(group_size_, 1024);
  const uint64_t group_count = capped(case_.groups, options_.max_threads);
  const uint64_t threads = std::min(per_group * group_count, options_.max_threads + 1);
  uint64_t xvalues = 0;
  for (uint32_t s : xsizes_) xvalues += uint64_t{s} * 4;
  if (per_group == 0 || per_group > 1024 || threads > options_.max_threads ||
      group_count >= AccessLog::kMaxGroups ||
      threads * (uint64_t{temps_} * 4 + xvalues) > options_.max_register_values) {
    return absl::InvalidArgumentError(absl::StrCat(
        "case too large for the oracle: groups of ", group_size_[0], "x",
        group_size_[1], "x", group_size_[2], " in a dispatch of ", case_.groups[0],
        "x", case_.groups[1], "x", case_.groups[2], ", ", temps_, " temps"));
  }
  // Resized, every field set below or (threads) by StartGroup: the vectors
  // may hold a last pass's groups and threads, whose g# and x# keep their
  // room.
  groups_.resize(group_count);
  threads_.resize(threads);
  const bool canonical = options_.schedule.kind == Schedule::Kind::kCanonical;
  const uint64_t live = canonical ? per_group : threads;
  reg_pool_.resize(live * (kSystemValueCount + size_t{temps_} * 4));
  occurrence_pool_.resize(live * atomic_count_);
  for (uint64_t g = 0; g < group_count; ++g) {
    Group& group = groups_[g];
    group.tgsm_interval = 0;
    group.uav_interval = 0;
    group.first_thread = static_cast<uint32_t>(g * per_group);
    group.thread_count = static_cast<uint32_t>(per_group);
  }
  return absl::OkStatus();
}

void Execution::StartGroup(uint32_t g) {
  Group& group = groups_[g];
  // Spec 1.8, E-22: TGSM is undefined at group start. Filled in the room of
  // an earlier group's, if any (assigning keeps the inner vectors' room).
  group.tgsm.swap(spare_tgsm_);
  group.tgsm.assign(tgsm_layouts_.size(), {});
  for (size_t s = 0; s < tgsm_layouts_.size(); ++s) {
    if (tgsm_layouts_[s]) group.tgsm[s].assign(tgsm_layouts_[s]->words, Value{});
  }
  const bool canonical = options_.schedule.kind == Schedule::Kind::kCanonical;
  const std::array<uint32_t, 3> gid = {g % case_.groups[0],
                                       g / case_.groups[0] % case_.groups[1],
                                       g / case_.groups[0] / case_.groups[1]};
  // Spec 1.9: vThreadID = vThreadGroupID * group size + vThreadIDInGroup.
  const std::array<uint32_t, 3> base = {gid[0] * group_size_[0], gid[1] * group_size_[1],
                                        gid[2] * group_size_[2]};
  // vThreadIDInGroup counts x fastest: counted up here, thread by thread,
  // rather than divided out of k; its flattened form is k itself.
  std::array<uint32_t, 3> tid = {0, 0, 0};
  for (uint32_t k = 0; k < group.thread_count; ++k) {
    Thread& t = threads_[group.first_thread + k];
    t.id = group.first_thread + k;
    t.group = g;
    t.tid = tid;
    t.gid = gid;
    t.pc = 0;
    t.done = false;
    t.waiting = false;
    t.steps = 0;
    const size_t live = canonical ? k : group.first_thread + k;
    const size_t regs = size_t{temps_} * 4;
    const size_t values = kSystemValueCount + regs;
    t.values = absl::MakeSpan(reg_pool_).subspan(live * values, values);
    t.regs = t.values.subspan(kSystemValueCount);
    // Temps start undefined. All bytes zero is Value{}: cleared as bytes,
    // in wide stores (a loop of Value{} stores its two fields one by one).
    static_assert(std::is_trivially_copyable_v<Value>);
    std::memset(static_cast<void*>(t.regs.data()), 0, t.regs.size() * sizeof(Value));
    Value* const sv = t.values.data();  // the slots of SystemValueSlot
    for (size_t c = 0; c < 3; ++c) {
      sv[c] = Value::Of(base[c] + tid[c]);
      sv[3 + c] = Value::Of(gid[c]);
      sv[6 + c] = Value::Of(tid[c]);
    }
    sv[9] = Value::Of(k);
    if (++tid[0] == group_size_[0]) {
      tid[0] = 0;
      if (++tid[1] == group_size_[1]) {
        tid[1] = 0;
        ++tid[2];
      }
    }
    t.xregs.resize(xsizes_.size());
    for (size_t x = 0; x < xsizes_.size(); ++x) {
      t.xregs[x].assign(size_t{xsizes_[x]} * 4, Value{});
    }
    t.occurrences = absl::MakeSpan(occurrence_pool_).subspan(live * atomic_count_, atomic_count_);
    std::fill(t.occurrences.begin(), t.occurrences.end(), 0u);
  }
}

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
      MaybeReleaseBarrier(g);
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
    if (!MaybeReleaseBarrier(t.group)) continue;
    // Every live thread of the group was waiting, so none is in the list.
    const Group& group = groups_[t.group];
    for (uint32_t k = 0; k < group.thread_count; ++k) {
      const Thread& u = threads_[group.first_thread + k];
      if (!u.done) runnable.push_back(u.id);
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
    case isa::Family::kAlu: ExecAlu(t, inst, d); ++t.pc; break;
    case isa::Family::kControl: ExecControl(t, inst); break;
    case isa::Family::kSync:
      ++t.pc;
      if (inst.sync_flags & isa::kSyncThreads) t.waiting = true;
      break;
    case isa::Family::kLoad: ExecLoad(t, inst); ++t.pc; break;
    case isa::Family::kStore: ExecStore(t, inst); ++t.pc; break;
    // Only atomics count against the trace cap, so only they are checked.
    case isa::Family::kAtomic:
    case isa::Family::kImmAtomic:
      ExecAtomic(t, index, inst);
      ++t.pc;
      if (atomics_run_ > options_.max_trace_events) return OverTraceCap();
      break;
    case isa::Family::kCounter:
      ExecCounter(t, index, inst);
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
  const absl::Status s = Execute(t, program_.instructions[t.pc], decoded_[t.pc]);
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
    if (d.family == isa::Family::kAlu) {
      ExecAlu(t, code[t.pc], d);
      if (++t.pc < size) continue;
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
      uint64_t element = op.offset;
      if (op.relative) {
        const size_t r = size_t{op.relative->temp} * 4 + op.relative->component;
        if (r >= t.regs.size() || !t.regs[r].defined) return Value{};
        element += t.regs[r].bits;
      }
      const auto& x = t.xregs[op.index];
      const uint64_t k = element * 4 + static_cast<uint64_t>(c);
      return k < x.size() ? x[k] : Value{};  // out of range: undefined
    }
    case RegFile::kThreadID:
    case RegFile::kThreadGroupID:
    case RegFile::kThreadIDInGroup:
    case RegFile::kThreadIDInGroupFlattened: {
      const int slot = SystemValueSlot(op.file, c);
      return slot < 0 ? Value{} : t.values[static_cast<size_t>(slot)];
    }
    default:
      return Value{};
  }
}

void Execution::WriteOther(Thread& t, const Operand& dst, int component, Value v) {
  const size_t c = static_cast<size_t>(component & 3);
  if (dst.file != RegFile::kIndexableTemp || dst.index >= t.xregs.size()) return;
  auto& x = t.xregs[dst.index];
  uint64_t element = dst.offset;
  bool known = true;
  if (dst.relative) {
    const size_t r = size_t{dst.relative->temp} * 4 + dst.relative->component;
    known = r < t.regs.size() && t.regs[r].defined;
    if (known) element += t.regs[r].bits;
  }
  const uint64_t k = element * 4 + c;
  if (!known || k >= x.size()) {
    // A write to an unknown or out-of-range element may land anywhere in x#.
    std::fill(x.begin(), x.end(), Value{});
    return;
  }
  x[k] = v;
}

bool Execution::Condition(const Thread& t, const Operand& op) {
  const Value v = Read(t, op, 0);
  // Control flow on an undefined value: the executor may take either path,
  // so nothing it writes afterwards can be judged (spec 6.0).
  if (!v.defined) chaos_ = true;
  return v.bits != 0;
}

void Execution::ExecAlu(Thread& t, const isa::Instruction& inst, const Decoded& d) {
  // One lane with no x#, as most instructions: the operands resolved by
  // Decode.
  if (d.alu_flat) {
    const FlatAlu& f = d.flat;
    // Unchecked: FlatAlu::Of kept the indices within the thread's values.
    Value* const values = t.values.data();
    std::array<Value, 4> src = f.constant;
    for (size_t k = 0; k < f.reg_count; ++k) src[f.reg_slot[k]] = values[f.reg[k]];
    const Value v = EvalAlu(f.op, src, nullptr);
    if (f.dst != FlatAlu::kNone) values[f.dst] = v;
    return;
  }
  ExecAluLanes(t, inst, d);
}

void Execution::ExecAluLanes(Thread& t, const isa::Instruction& inst, const Decoded& d) {
  const size_t sources = d.alu_sources;
  const bool two_dst = inst.op == Op::kIMul || inst.op == Op::kUMul;
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
      src[k] = k < d.alu_counted && k < sources ? Read(t, src_ops[k], c)
                                                : AbsentSource(k, d.alu_counted);
    }
    result[static_cast<size_t>(c)] = EvalAlu(inst.op, src, &high[static_cast<size_t>(c)]);
  }
  // The high half after the low one: where both name one component, the
  // high half is what stays.
  for (unsigned m = lo.mask & 0xFu; m != 0; m &= m - 1) {
    const int c = std::countr_zero(m);
    Write(t, lo, c, result[static_cast<size_t>(c)]);
  }
  if (hi == nullptr) return;
  for (unsigned m = hi->mask & 0xFu; m != 0; m &= m - 1) {
    const int c = std::countr_zero(m);
    Write(t, *hi, c, high[static_cast<size_t>(c)]);
  }
}

void Execution::ExecControl(Thread& t, const isa::Instruction& inst) {
  const uint32_t here = t.pc;
  const uint32_t target = map_.target[here];
  switch (inst.op) {
    case Op::kIfZ: case Op::kIfNz: {
      const bool nonzero = Condition(t, inst.operands[0]);
      const bool taken = (inst.op == Op::kIfNz) == nonzero;
      t.pc = taken ? here + 1 : target;
      return;
    }
    case Op::kElse: t.pc = target; return;        // end of the true branch
    case Op::kEndLoop: t.pc = target + 1; return;  // back to the body
    case Op::kBreak: t.pc = target + 1; return;
    case Op::kContinue: t.pc = target + 1; return;
    case Op::kBreakcZ: case Op::kBreakcNz:
    case Op::kContinuecZ: case Op::kContinuecNz:
    case Op::kRetcZ: case Op::kRetcNz: {
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
      if (!v.defined) chaos_ = true;
      uint32_t chosen = target;  // endswitch when nothing matches
      for (uint32_t k = map_.next_case[here]; k != ControlMap::kNoCase;
           k = map_.next_case[k]) {
        const isa::Instruction& label = program_.instructions[k];
        if (label.op == Op::kDefault) {
          if (chosen == target) chosen = k;
        } else if (label.operands[0].values[0] == v.bits) {
          chosen = k;
          break;
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

isa::Outcome Execution::TakeOutcome() {
  outcome_.uavs.reserve(uavs_.size());
  for (uint32_t slot = 0; slot < uavs_.size(); ++slot) {
    if (!uavs_[slot]) continue;
    const Uav& u = *uavs_[slot];
    // Poison left its mark in the words themselves (Poison, StoreWord).
    const bool all_undefined = chaos_;
    isa::UavState s;
    s.slot = slot;
    s.words.reserve(u.words.size());
    s.defined.reserve(u.words.size());
    for (const Value& v : u.words) {
      s.words.push_back(v.bits);
      s.defined.push_back(v.defined && !all_undefined);
    }
    if (u.counter) {
      s.counter = u.counter->bits;
      s.counter_defined = u.counter->defined && !chaos_;
    }
    outcome_.uavs.push_back(std::move(s));
  }
  if (chaos_) {
    outcome_.message = kChaosMessage;
    for (auto& e : outcome_.trace) e.returned.reset();
  }
  outcome_.has_trace = true;
  return std::move(outcome_);
}

}  // namespace atomfuzz::oracle
