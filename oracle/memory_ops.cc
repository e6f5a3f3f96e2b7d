// Execution: loads, stores and atomics (spec 1.3-1.7), with the race and
// poison rules of spec 2.1-2.4 applied through the access log.
#include <array>
#include <bit>
#include <utility>

#include "oracle/execution.h"
#include "oracle/racing_read.h"
#include "oracle/rmw.h"

namespace atomfuzz::oracle {

using isa::AddressClass;
using isa::Op;
using isa::Operand;
using isa::RegFile;
using isa::Role;

namespace {

// The accesses that change a word: what a read, store or atomic races with.
constexpr uint8_t kWrites =
    AccessLog::Bit(Access::kStore) | AccessLog::Bit(Access::kAtomic);

// An instruction's operands by role, from the opcode table's compile-time
// layout (isa::Layout): a memory op asks for three or four roles at every
// step, and OpcodeInfo::operand_with_role scans the row's list each time.
class OperandsByRole {
 public:
  explicit OperandsByRole(const isa::Instruction& inst)
      : operands_(inst.operands.data()), layout_(isa::Layout(inst.op)) {}
  const Operand& operator[](Role role) const {
    return operands_[static_cast<size_t>(layout_.with_role(role))];
  }

 private:
  const Operand* operands_;
  const isa::OperandLayout& layout_;
};

// The trace event of an atomic: who ran it, which one, on which memory
// (the caller adds where it landed and what it saw).
isa::AtomicEvent EventOf(const Thread& t, uint32_t instruction,
                         uint32_t occurrence, RegFile file, uint32_t slot) {
  isa::AtomicEvent e;
  e.group = t.gid;
  e.thread = t.tid;
  e.instruction = instruction;
  e.occurrence = occurrence;
  e.file = file;
  e.slot = slot;
  return e;
}

// Highest window component (0..3) a load's resource swizzle reads for the
// destination's mask.
int HighestRead(const Operand& dst, const Operand& mem) {
  int highest = 0;
  for (int c = 0; c < 4; ++c) {
    if (dst.mask & (1u << c))
      highest = std::max<int>(highest, mem.Component(c));
  }
  return highest;
}

}  // namespace

const Layout* Execution::LayoutOf(const Thread& t,
                                  const Operand& target) const {
  if (target.file == RegFile::kUav) {
    return target.index < uavs_.size() && uavs_[target.index]
               ? &uavs_[target.index]->layout
               : nullptr;
  }
  return target.index < tgsm_layouts_.size() && tgsm_layouts_[target.index]
             ? &*tgsm_layouts_[target.index]
             : nullptr;
}

std::vector<Value>* Execution::WordsOf(Thread& t, const Operand& target) {
  if (target.file == RegFile::kUav) return &uavs_[target.index]->words;
  return &groups_[t.group].tgsm[target.index];
}

MemoryId Execution::IdOf(const Thread& t, const Operand& target) const {
  const bool tgsm = target.file == RegFile::kTgsm;
  return MemoryId{tgsm, tgsm ? t.group : 0, target.index};
}

Accessor Execution::AccessorOf(const Thread& t, bool tgsm) const {
  const Group& g = groups_[t.group];
  return {t.id, t.domain, tgsm ? g.tgsm_interval : g.uav_interval};
}

Value Execution::ReadWord(Thread& t, const Operand& target, uint32_t word) {
  const MemoryId id = IdOf(t, target);
  const Accessor a = AccessorOf(t, id.tgsm);
  const uint64_t key = AccessLog::WordKey(id, word);  // once, for all four
  const uint32_t seq = t.accesses++;
  log_.Record(key, Access::kRead, a);
  // Racing with a poisoning, any value. Racing with another thread's write,
  // a value of the word's order (spec 2.1, 2.4, E-28, E-34).
  if (known_.ConcurrentPoison(key, a)) return Value{};
  const Value cell = (*WordsOf(t, target))[word];
  if (!known_.ConcurrentAny(key, kWrites, a)) return cell;
  Value v = RacingReadOf(id, word, key, a, seq);
  if (!v.defined) v.bits = cell.bits;  // what this run read: one of them
  return v;
}

Value Execution::RacingReadOf(const MemoryId& id, uint32_t word, uint64_t key,
                              const Accessor& a, uint32_t seq) {
  if (!AccessLog::NumberedAlone(id) || known_.PoisonedEver(key) ||
      !known_.RecordedWrites(key, racing_writes_)) {
    return Value{};
  }
  Value initial{};  // g# starts undefined (spec 1.8)
  if (!id.tgsm) {
    const isa::Resource* r = case_.FindResource(id.slot);
    if (r != nullptr && word < r->init.size())
      initial = Value::Of(r->init[word]);
  }
  return RacingRead(racing_writes_, a, seq, id.tgsm, initial, sets_);
}

Value Execution::CounterReturns(const MemoryId& id, uint64_t key,
                                const Accessor& a, uint32_t seq, isa::Rmw rmw) {
  const isa::Resource* r = case_.FindResource(id.slot);
  if (r == nullptr || !r->counter || !AccessLog::NumberedAlone(id) ||
      !known_.RecordedWrites(key, racing_writes_)) {
    return Value{};
  }
  const Value before =
      AtomicSees(racing_writes_, a, seq, Value::Of(*r->counter), sets_);
  uint32_t one;
  const absl::Span<const uint32_t> seen = sets_.Elements(before, one);
  std::vector<uint32_t> returns(seen.begin(), seen.end());
  if (returns.empty()) return Value{};
  for (uint32_t& v : returns)
    v = rmw == isa::Rmw::kConsume ? Consume(v).returned : Alloc(v).returned;
  return sets_.Of(returns, returns.front());
}

void Execution::KeepWrite(uint64_t key, const WriteRecord& w) {
  WriteRecord kept = w;
  if (kept.a.set) kept.a = Value{};
  if (kept.b.set) kept.b = Value{};
  log_.RecordWrite(key, kept);
}

void Execution::StoreWord(Thread& t, const Operand& target, uint32_t word,
                          Value v) {
  const MemoryId id = IdOf(t, target);
  const Accessor a = AccessorOf(t, id.tgsm);
  const uint64_t key = AccessLog::WordKey(id, word);  // once, for all three
  const uint32_t seq = t.accesses++;
  // Recorded first, for the word's number: what is asked is known_, not log_.
  const uint32_t number = log_.Record(key, Access::kStore, a);
  if (!id.tgsm) counter_slots_.OtherWrite(id.slot);
  // Other threads' atomics racing with this store may fall on either side
  // of it, so the history it closes need not hold all that came before.
  const uint8_t racing = known_.ConcurrentKinds(key, kWrites, a);
  if (Recorded(id)) KeepWrite(key, {a, seq, true, isa::Rmw::kNone, v, {}});
  const bool racing_atomic = racing & AccessLog::Bit(Access::kAtomic);
  Value& cell = (*WordsOf(t, target))[word];
  if (replay_ && (racing_atomic || replay_->HasOpen())) {
    // The store's place in the word's order, for the judge (t.pc is the
    // store: Execute moves past it after). Whether stores race with each
    // other matters only then, and is asked only then.
    AtomicSite site;
    site.key = {t.gid, t.tid, t.pc, 0};
    site.thread = t.id;
    site.group = t.domain;
    site.interval = a.interval;
    const bool stores_race =
        racing_atomic &&
        known_.ConcurrentKinds(key, AccessLog::kStoreRace, a) != 0;
    replay_->BeforeStore(id, word, number, &cell, site, v, racing_atomic,
                         stores_race);
  }
  // A store racing with an atomic on g# is undefined (spec 2.1 TGSM
  // limitation, E-27), and on u# order-dependent: beyond what the oracle
  // follows. A poisoning that is not ordered before the store may land
  // after it.
  const bool undefined = racing_atomic || known_.ConcurrentPoison(key, a);
  if (racing == 0 && !undefined) {
    cell = v;
    if (!last_writes_.empty()) last_writes_.erase(key);
    return;
  }
  // Kept among the word's last writes even where undefined: a racing store
  // that comes later in this pass's order must not hide it.
  cell = AfterRacingStore(key, a, undefined ? Value{v.bits, false} : v);
}

void Execution::DropOrderedBefore(uint64_t key, const Accessor& a,
                                  absl::InlinedVector<LastWrite, 2>& last) {
  const bool tgsm = key >> 63;
  last.erase(std::remove_if(last.begin(), last.end(),
                            [&](const LastWrite& w) {
                              return !Concurrent(w.by, a, tgsm);
                            }),
             last.end());
}

void Execution::ForgetWritesBefore(uint64_t key, const Accessor& a) {
  auto it = last_writes_.find(key);
  if (it == last_writes_.end()) return;
  DropOrderedBefore(key, a, it->second);
  if (it->second.empty()) last_writes_.erase(it);
}

Value Execution::AfterRacingStore(uint64_t key, const Accessor& a, Value v) {
  // Memory is written in 32-bit quanta (spec 2.1), so racing stores leave
  // the value of one of them: of those that no other write to the word is
  // ordered after. In this pass's order, a write already made that is not
  // concurrent with this one is ordered before it (program order, or a
  // barrier between), and this one follows it.
  auto& last = last_writes_[key];
  DropOrderedBefore(key, a, last);
  last.push_back({v, a});
  if (last.size() == 1) return v;
  absl::InlinedVector<Value, 4> values;
  for (const LastWrite& w : last) values.push_back(w.value);
  return sets_.Union(values, v.bits);  // this run: its last store
}

bool Execution::ReadAddress(const Thread& t, const Operand& addr,
                            const Layout& layout,
                            std::array<uint32_t, 3>& coords) const {
  bool defined = true;
  const int width = layout.AddressWidth();
  for (int k = 0; k < width; ++k) {
    const Value v = Read(t, addr, k);
    defined = defined && v.defined;
    coords[static_cast<size_t>(k)] = v.bits;
  }
  return defined;
}

AtomicSite Execution::SiteOf(const Thread& t, uint32_t index, bool tgsm) const {
  AtomicSite s;
  s.key = {t.gid, t.tid, index, t.occurrences[decoded_[index].atomic_ordinal]};
  s.thread = t.id;
  s.group = t.domain;
  s.interval = AccessorOf(t, tgsm).interval;
  return s;
}

void Execution::Poison(Thread& t, const Operand& target) {
  const MemoryId id = IdOf(t, target);
  tgsm_out_of_bounds_ = tgsm_out_of_bounds_ || id.tgsm;
  log_.RecordPoison(id, AccessorOf(t, id.tgsm));
  if (replay_) replay_->Poisoned(id, known_);
  if (!id.tgsm) {
    counter_slots_.OtherWrite(id.slot);
    for (Value& v : uavs_[target.index]->words) v = {v.bits, false};
    return;
  }
  // TGSM-POISON: every g# of the group (spec 0.1, 1.3, E-21).
  for (auto& words : groups_[t.group].tgsm) {
    for (Value& v : words) v = {v.bits, false};
  }
}

void Execution::ExecLoad(Thread& t, const isa::Instruction& inst) {
  const OperandsByRole operand(inst);
  const Operand& dst = inst.operands[0];
  const Operand& mem = operand[Role::kTarget];
  const Layout* layout = LayoutOf(t, mem);
  const bool uav = mem.file == RegFile::kUav;
  std::array<Value, 4> window{};  // what the 4-word window holds
  if (layout == nullptr) {
    // Undeclared: the validator rejects it; nothing to read.
  } else if (inst.op == Op::kLdUavTyped) {
    const Operand& addr = operand[Role::kAddress];
    std::array<uint32_t, 3> coords{};
    const bool defined = ReadAddress(t, addr, *layout, coords);
    // Spec 1.7: like ld, the format's component (x) then the defaults
    // (0, 0, 1); out of bounds reads 0 for x.
    const uint32_t one =
        uavs_[mem.index]->format == isa::Format::kR32Float ? 0x3f800000u : 1u;
    window = {Value::Of(0), Value::Of(0), Value::Of(0), Value::Of(one)};
    const Resolved r = ResolveTyped(*layout, coords);
    if (!defined) {
      window[0] = Value{};
    } else if (r.cls == AddressClass::kInBounds) {
      window[0] = ReadWord(t, mem, r.word);
    }
  } else {
    const bool structured = inst.op == Op::kLdStructured;
    const Value index =
        structured ? Read(t, operand[Role::kStructIndex], 0) : Value::Of(0);
    const Value offset = Read(t, operand[Role::kByteOffset], 0);
    const int count = HighestRead(dst, mem) + 1;
    const WordRange r = ResolveRange(*layout, index.bits, offset.bits, count);
    // Spec 1.7: misaligned reads and offsets past the structure are
    // undefined; other out-of-bounds u# words read 0 and g# words undefined.
    const bool all_undefined =
        !index.defined || !offset.defined || r.misaligned || r.offset_overflow;
    if (!uav && (all_undefined || !r.in_bounds[static_cast<size_t>(count - 1)]))
      tgsm_out_of_bounds_ = true;  // a read: no poison, but out all the same
    for (int c = 0; c < count && !all_undefined; ++c) {
      const size_t k = static_cast<size_t>(c);
      if (r.in_bounds[k]) {
        window[k] = ReadWord(t, mem, static_cast<uint32_t>(r.first_word + k));
      } else {
        window[k] = uav ? Value::Of(0) : Value{};
      }
    }
  }
  std::array<Value, 4> result{};
  for (int c = 0; c < 4; ++c) {
    result[static_cast<size_t>(c)] = window[mem.Component(c)];
  }
  for (int c = 0; c < 4; ++c) {
    if (dst.mask & (1u << c)) Write(t, dst, c, result[static_cast<size_t>(c)]);
  }
}

void Execution::ExecStore(Thread& t, const isa::Instruction& inst) {
  const Operand& mem = inst.operands[0];
  const Layout* layout = LayoutOf(t, mem);
  if (layout == nullptr) return;
  const bool uav = mem.file == RegFile::kUav;
  const OperandsByRole operand(inst);
  const Operand& src = operand[Role::kValue];
  if (inst.op == Op::kStoreUavTyped) {
    const Operand& addr = operand[Role::kAddress];
    std::array<uint32_t, 3> coords{};
    const bool defined = ReadAddress(t, addr, *layout, coords);
    if (!defined) {
      // An address that is one of a few: a store to one of their texels
      // (out of bounds: none), each of which may keep its value. Else it
      // could land anywhere (spec 6.0).
      std::array<Value, 3> parts{};
      const int width = layout->AddressWidth();
      for (int k = 0; k < width; ++k)
        parts[static_cast<size_t>(k)] = Read(t, addr, k);
      const auto address =
          absl::MakeConstSpan(parts.data(), static_cast<size_t>(width));
      if (sets_.Combinations(address, ValueSets::kMaxValues) == 0)
        return Poison(t, mem);
      absl::InlinedVector<uint32_t, 8> words;
      sets_.ForEachCombination(address, [&](const std::array<uint32_t, 4>& a) {
        const Resolved r = ResolveTyped(*layout, {a[0], a[1], a[2]});
        if (r.cls == AddressClass::kInBounds) words.push_back(r.word);
      });
      const Value v = Read(t, src, 0);
      counter_slots_.OtherWrite(mem.index);
      const Resolved here = ResolveTyped(*layout, coords);  // this run's texel
      for (uint32_t w : words) {
        MaybeStoreWord(t, mem, w, v,
                       here.cls == AddressClass::kInBounds && here.word == w);
      }
      return;
    }
    const Resolved r = ResolveTyped(*layout, coords);
    if (r.cls == AddressClass::kInBounds)
      StoreWord(t, mem, r.word, Read(t, src, 0));
    return;  // out of bounds: nothing written (spec 1.7)
  }
  const bool structured = inst.op == Op::kStoreStructured;
  const Value index =
      structured ? Read(t, operand[Role::kStructIndex], 0) : Value::Of(0);
  const Value offset = Read(t, operand[Role::kByteOffset], 0);
  const int count = std::bit_width(static_cast<unsigned>(mem.mask));
  std::array<Value, 4> values{};
  for (int c = 0; c < count; ++c)
    values[static_cast<size_t>(c)] = Read(t, src, c);
  if (!index.defined || !offset.defined) {
    // An address that is one of a few: the store goes to one of them, so
    // each of their words may keep its value, where none of them poisons.
    const std::array<Value, 2> parts = {index, offset};
    if (sets_.Combinations(parts, ValueSets::kMaxValues) == 0)
      return Poison(t, mem);
    bool poisons = false;
    absl::InlinedVector<std::pair<uint32_t, int>, 16>
        words;  // (word, component)
    sets_.ForEachCombination(parts, [&](const std::array<uint32_t, 4>& a) {
      const WordRange r = ResolveRange(*layout, a[0], a[1], count);
      if (r.misaligned || r.offset_overflow) poisons = true;
      for (int c = 0; c < count; ++c) {
        const size_t k = static_cast<size_t>(c);
        if (!r.in_bounds[k] && !uav) poisons = true;
        if ((mem.mask & (1u << c)) && r.in_bounds[k]) {
          words.emplace_back(static_cast<uint32_t>(r.first_word + k), c);
        }
      }
    });
    if (poisons) return Poison(t, mem);
    if (uav && structured && offset.defined &&
        counter_slots_.IsAllocReturn(index)) {
      counter_slots_.Stored(mem.index, t.pc, index, offset.bits, mem.mask,
                            count, values);
    } else if (uav) {
      counter_slots_.OtherWrite(mem.index);
    }
    const WordRange here =
        ResolveRange(*layout, index.bits, offset.bits, count);  // this run's
    for (const auto& [w, c] : words) {
      const size_t k = static_cast<size_t>(c);
      MaybeStoreWord(t, mem, w, values[k],
                     here.in_bounds[k] && here.first_word + k == w);
    }
    return;
  }
  const WordRange r = ResolveRange(*layout, index.bits, offset.bits, count);
  // Spec 1.7: misaligned writes and offsets past the structure poison; on
  // g# any out-of-bounds word poisons all TGSM.
  if (r.misaligned || r.offset_overflow) return Poison(t, mem);
  for (int c = 0; c < count; ++c) {
    if (!r.in_bounds[static_cast<size_t>(c)] && !uav) return Poison(t, mem);
  }
  for (int c = 0; c < count; ++c) {
    const size_t k = static_cast<size_t>(c);
    if (!(mem.mask & (1u << c)) || !r.in_bounds[k]) continue;  // u#: skipped
    StoreWord(t, mem, static_cast<uint32_t>(r.first_word + k), values[k]);
  }
}

void Execution::MaybeStoreWord(Thread& t, const Operand& target, uint32_t word,
                               Value v, bool lands) {
  const MemoryId id = IdOf(t, target);
  const Accessor a = AccessorOf(t, id.tgsm);
  const uint64_t key = AccessLog::WordKey(id, word);
  const uint32_t seq = t.accesses++;
  const uint32_t number = log_.Record(key, Access::kStore, a);
  const uint8_t racing = known_.ConcurrentKinds(key, kWrites, a);
  // Whether it lands here is not known: a racing read sees anything.
  if (Recorded(id))
    KeepWrite(key, {a, seq, true, isa::Rmw::kNone, Value{}, {}});
  // The word's atomics may or may not have this store among them.
  if (replay_) replay_->MaybeStore(id, word, number);
  Value& cell = (*WordsOf(t, target))[word];
  const uint32_t bits = lands ? v.bits : cell.bits;
  const bool undefined = (racing & AccessLog::Bit(Access::kAtomic)) ||
                         known_.ConcurrentPoison(key, a);
  if (racing != 0) {
    // One of the word's last writes, if it lands: a later racing store
    // must not hide it. It drops none of the others (it may not land).
    last_writes_[key].push_back({undefined ? Value{bits, false} : v, a});
  }
  if (undefined) {
    cell = {bits, false};
    return;
  }
  // The value it had, or this one.
  const Value either[2] = {cell, v};
  cell = sets_.Union(either, bits);
}

void Execution::ExecAtomic(Thread& t, uint32_t index,
                           const isa::Instruction& inst) {
  const isa::OpcodeInfo& row = inst.info();
  const OperandsByRole operand(inst);
  const Operand& mem = operand[Role::kTarget];
  const Operand& addr = operand[Role::kAddress];
  const Layout* layout = LayoutOf(t, mem);
  // Spec 1.4/1.5: for cmp forms src0 is the comparand and src1 the value.
  const bool cmp = row.rmw == isa::Rmw::kCmpExch;
  const Value src0 = Read(t, operand[cmp ? Role::kComparand : Role::kValue], 0);
  const Value src1 = cmp ? Read(t, operand[Role::kValue], 0) : Value{};
  if (mem.file == RegFile::kUav) counter_slots_.OtherWrite(mem.index);

  const AtomicSite site = SiteOf(t, index, mem.file == RegFile::kTgsm);
  const uint32_t occurrence = t.occurrences[decoded_[index].atomic_ordinal]++;

  Resolved r;   // where it lands (the event's kInBounds, word 0 without memory)
  Value old{};  // what dst0 receives: undefined unless the access happens
  if (layout != nullptr) {
    std::array<uint32_t, 3> coords{};
    const bool defined = ReadAddress(t, addr, *layout, coords);
    r = defined ? ResolveAtomic(*layout, coords)
                : Resolved{AddressClass::kUndefined, 0};
    switch (r.cls) {
      case AddressClass::kInBounds: {
        const MemoryId id = IdOf(t, mem);
        const Accessor a = AccessorOf(t, id.tgsm);
        const uint64_t key =
            AccessLog::WordKey(id, r.word);  // once, for all three
        const uint32_t number = log_.Record(key, Access::kAtomic, a);
        Value& word = (*WordsOf(t, mem))[r.word];
        // The stores ordered before it are no longer last; one racing with
        // it stays (and makes the word undefined).
        if (!last_writes_.empty()) ForgetWritesBefore(key, a);
        // Other threads' atomics matter only to a judge without a trace
        // (Replay::Atomic's `others`); not asking otherwise keeps a pass
        // that learns only of them from running again for nothing.
        const uint8_t ask =
            AccessLog::Bit(Access::kStore) |
            (replay_ && !replay_->has_trace() ? AccessLog::Bit(Access::kAtomic)
                                              : 0);
        const uint8_t racing = known_.ConcurrentKinds(key, ask, a);
        const uint32_t seq = t.accesses++;
        if (Recorded(id)) KeepWrite(key, {a, seq, false, row.rmw, src0, src1});
        const bool store_races = racing & AccessLog::Bit(Access::kStore);
        const bool poisoned = known_.ConcurrentPoison(key, a);
        if (replay_) {
          // On u# a racing store is one more write of the word's order
          // (Replay::BeforeStore), where no two stores race with each
          // other; on g# it is not atomic with respect to the atomics
          // (spec 2.1, E-27).
          // (Without a trace there are no returns to fit an order to.)
          const bool clean =
              !poisoned &&
              !(store_races &&
                (id.tgsm || !replay_->has_trace() ||
                 known_.ConcurrentKinds(key, AccessLog::kStoreRace, a) != 0));
          old = replay_->Atomic(id, r.word, number, &word, site, row.rmw, src0,
                                src1, clean,
                                racing & AccessLog::Bit(Access::kAtomic));
          if (store_races) {
            // Without a trace the return was the word as this pass left
            // it; a racing store may have come between.
            if (!replay_->has_trace()) old = {old.bits, false};
            word = {word.bits, false};
          }
          break;
        }
        // Order against a plain store is not one value the interpreter
        // follows (the bits stay: this run's value).
        if (store_races || poisoned) word = {word.bits, false};
        old = word;
        const bool needs_old = row.rmw != isa::Rmw::kExch;
        const bool defined_new = src0.defined && (!needs_old || old.defined) &&
                                 (!cmp || src1.defined);
        word = {ApplyRmw(row.rmw, old.bits, src0.bits, src1.bits), defined_new};
        break;
      }
      case AddressClass::kSkip:
        if (replay_) replay_->Untouched(site);
        break;  // spec 1.3: memory untouched, dst0 undefined
      default:  // poison, or an undefined address (spec 6.0)
        if (replay_) replay_->Untouched(site);
        Poison(t, mem);
        break;
    }
  } else if (replay_) {
    replay_->Untouched(site);
  }
  if (row.returns_old()) {
    const Operand& dst0 = inst.operands[0];
    for (int c = 0; c < 4; ++c) {
      if (dst0.mask & (1u << c)) Write(t, dst0, c, old);
    }
  }
  Trace([&] {
    isa::AtomicEvent e = EventOf(t, index, occurrence, mem.file, mem.index);
    e.address = r.cls;
    e.word = r.word;
    e.src0 = src0.bits;
    e.src1 = src1.bits;
    // The old value, also for atomic_* (see isa::AtomicEvent::returned).
    if (old.defined) e.returned = old.bits;
    return e;
  });
}

void Execution::ExecCounter(Thread& t, uint32_t index,
                            const isa::Instruction& inst) {
  const Operand& dst0 = inst.operands[0];
  const Operand& uav = inst.operands[1];
  const AtomicSite site = SiteOf(t, index, false);
  const uint32_t occurrence = t.occurrences[decoded_[index].atomic_ordinal]++;
  Value returned{};
  auto event = [&] {
    isa::AtomicEvent e =
        EventOf(t, index, occurrence, RegFile::kUav, uav.index);
    e.returned = returned.defined ? std::optional<uint32_t>(returned.bits)
                                  : std::nullopt;
    return e;
  };
  if (uav.index < uavs_.size() && uavs_[uav.index] &&
      uavs_[uav.index]->counter) {
    Value& counter = *uavs_[uav.index]->counter;
    // The counter is one more word, shared by every thread (spec 1.6).
    const MemoryId id{false, 0, uav.index};
    const Accessor a = AccessorOf(t, false);
    const uint64_t key = AccessLog::WordKey(id, UINT32_MAX);
    const uint32_t number = log_.Record(key, Access::kAtomic, a);
    const uint32_t seq = t.accesses++;
    const isa::Rmw rmw = inst.info().rmw;
    // Kept for a judge without a trace (below): counters are few.
    if (AccessLog::NumberedAlone(id))
      KeepWrite(key, {a, seq, false, rmw, {}, {}});
    if (replay_) {
      // As in ExecAtomic: only a judge without a trace asks.
      const bool others = !replay_->has_trace() &&
                          known_.Concurrent(id, UINT32_MAX, Access::kAtomic, a);
      returned = replay_->Atomic(id, UINT32_MAX, number, &counter, site, rmw,
                                 Value{}, Value{}, true, others);
      // Without a trace and with other threads' ops on the counter, what it
      // returned is one of a few: the counter as its own earlier ops and
      // any prefix of each other thread's leave it (spec 1.6, E-36).
      if (!returned.defined && others)
        returned = CounterReturns(id, key, a, seq, rmw);
      if (!replay_->has_trace())
        counter_slots_.Counted(uav.index, rmw, returned);
      for (int c = 0; c < 4; ++c) {
        if (dst0.mask & (1u << c)) Write(t, dst0, c, returned);
      }
      Trace(event);
      return;
    }
    const CounterStep step = inst.op == Op::kImmAtomicAlloc
                                 ? Alloc(counter.bits)
                                 : Consume(counter.bits);
    returned = {step.returned, counter.defined};
    counter = {step.next, counter.defined};
  } else if (replay_) {
    replay_->Untouched(site);
  }
  for (int c = 0; c < 4; ++c) {
    if (dst0.mask & (1u << c)) Write(t, dst0, c, returned);
  }
  Trace(event);
}

}  // namespace atomfuzz::oracle
