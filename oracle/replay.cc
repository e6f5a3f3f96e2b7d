#include "oracle/replay.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "isa/outcome_format.h"
#include "oracle/possible_ends.h"
#include "oracle/rmw.h"

namespace atomfuzz::oracle {
namespace {

std::string Hex(uint32_t v) { return absl::StrFormat("0x%08x", v); }

}  // namespace

Replay::Replay(const isa::Outcome& observed, const isa::Program& program,
               uint64_t search_budget)
    : observed_(observed), program_(program), budget_(search_budget) {
  consumed_.assign(observed.trace.size(), 0);
  index_.Build(observed.trace);
}

Replay::Replay(const isa::Outcome& observed, const isa::Program& program,
               uint64_t search_budget, Replay&& spent)
    : observed_(observed),
      program_(program),
      budget_(search_budget),
      index_(std::move(spent.index_)),
      consumed_(std::move(spent.consumed_)),
      open_(std::move(spent.open_)),
      open_at_(std::move(spent.open_at_)),
      closing_(std::move(spent.closing_)),
      findings_(std::move(spent.findings_)),
      unknowns_(std::move(spent.unknowns_)),
      unjudged_(std::move(spent.unjudged_)) {
  Restart();
  index_.Build(observed.trace);
}

void Replay::Restart() {
  consumed_.assign(observed_.trace.size(), 0);
  open_.clear();
  findings_.clear();
  unknowns_.clear();
  unjudged_.clear();
}

std::optional<uint32_t> Replay::Observed(const AtomicSite& site, bool* found) {
  *found = false;
  if (!observed_.has_trace) return std::nullopt;
  const uint32_t i = index_.Find(site.key.group, site.key.thread,
                                 site.key.instruction, site.key.occurrence);
  if (i == TraceIndex::kAbsent || consumed_[i]) {
    Missing(site);
    return std::nullopt;
  }
  *found = true;
  consumed_[i] = 1;
  return observed_.trace[i].returned;
}

void Replay::Missing(const AtomicSite& site) {
  const auto& inst = program_.instructions[site.key.instruction];
  findings_.push_back(
      {FindingKind::kMissingAtomic,
       absl::StrCat(
           inst.info().mnemonic, " (instruction ", site.key.instruction,
           ", line ", inst.line, ") in ",
           isa::InvocationName(program_, site.key.group, site.key.thread),
           " occurrence ", site.key.occurrence),
       "the spec executes it but the target's trace does not have it",
       static_cast<int>(site.key.instruction)});
}

void Replay::Untouched(const AtomicSite& site) {
  bool found;
  Observed(site, &found);  // any value is allowed (spec 1.3: undefined)
}

Value Replay::Atomic(const MemoryId& m, uint32_t word, uint32_t number,
                     Value* cell, const AtomicSite& site, isa::Rmw rmw,
                     Value src0, Value src1, bool clean, bool others) {
  bool found = false;
  const std::optional<uint32_t> seen = Observed(site, &found);
  History& h = OpenHistory(Cell{m, word}, number, cell, site).history;
  const bool needs_src1 = rmw == isa::Rmw::kCmpExch;
  const bool operands_known = rmw == isa::Rmw::kAlloc ||
                              rmw == isa::Rmw::kConsume ||
                              (src0.defined && (!needs_src1 || src1.defined));
  if (h.judgeable && !(clean && operands_known && h.start.defined)) {
    h.judgeable = false;
    h.why_not = !clean ? "a plain store or a poisoning races with its atomics"
                : !operands_known ? "an atomic's operands are undefined"
                                  : "its value before the atomics is undefined";
  }

  SerialOp op = OpOf(site, rmw, src0.bits, src1.bits, h);

  Value returned{};
  if (observed_.has_trace) {
    // The target's value, checked later against every legal order.
    if (found && seen) {
      op.returned = *seen;
      returned = Value::Of(*seen);
    }
    // atomic_* return nothing: an executor that observes only what the
    // program sees (a GPU's instrumented trace) cannot say what they saw,
    // and the order search treats them as unobserved (spec 1.4).
    const bool returns =
        program_.instructions[site.key.instruction].info().family !=
        isa::Family::kAtomic;
    if (found && !seen && returns && h.judgeable) {  // the target did not say
      h.judgeable = false;
      h.why_not = "the trace has no returned value for one of its atomics";
    }
  } else if (!others && clean && cell->defined) {
    // No other thread's atomic, store or poisoning can come between: the value
    // is the spec's (and the cell can follow it exactly).
    returned = Value::Of(SerialReturn(op, cell->bits));
  }
  h.ops.push_back(op);
  h.keys.push_back(site.key);
  // The word as this thread sees it next: exact when no other thread's
  // atomics interleave (reads that race with them are undefined anyway).
  if (returned.defined && operands_known) {
    const uint32_t before = SerialBefore(op, returned.bits);
    *cell =
        Value::Of(SerialApply(op, observed_.has_trace ? before : cell->bits));
  } else {
    *cell = Value{};
  }
  return returned;
}

Replay::Open* Replay::FindShared(const Cell& c) {
  for (Open& o : open_) {
    if (o.cell == c) return &o;
  }
  return nullptr;
}

SerialOp Replay::OpOf(const AtomicSite& site, isa::Rmw rmw, uint32_t src0,
                      uint32_t src1, const History& h) {
  SerialOp op;
  op.chain = site.thread;
  op.group = site.group;
  op.interval = site.interval;
  op.rmw = rmw;
  op.src0 = src0;
  op.src1 = src1;
  op.id = static_cast<uint32_t>(h.ops.size());
  return op;
}

Replay::Open& Replay::OpenHistory(const Cell& c, uint32_t number, Value* cell,
                                  const AtomicSite& site) {
  if (Open* open = FindOpen(c, number)) return *open;
  if (open_at_.size() <= number) open_at_.resize(number + 1, UINT32_MAX);
  open_at_[number] = static_cast<uint32_t>(open_.size());
  Open& open = open_.emplace_back();
  open.cell = c;
  open.number = number;
  open.history.cell = cell;
  open.history.start = *cell;
  open.history.first_group = site.group;
  return open;
}

void Replay::BeforeStore(const MemoryId& m, uint32_t word, uint32_t number,
                         Value* cell, const AtomicSite& site, Value value,
                         bool racing, bool stores_race) {
  if (racing && !m.tgsm && !stores_race && observed_.has_trace) {
    History& h = OpenHistory(Cell{m, word}, number, cell, site).history;
    if (h.judgeable && !(value.defined && h.start.defined)) {
      h.judgeable = false;
      h.why_not = !value.defined ? "a plain store racing with its atomics "
                                   "stores an undefined value"
                                 : "its value before the atomics is undefined";
    }
    // No return: nobody sees what a store overwrote.
    h.ops.push_back(OpOf(site, isa::Rmw::kExch, value.bits, 0, h));
    h.keys.push_back(site.key);
    return;
  }
  if (open_.empty()) return;  // nothing open: no lookup
  Open* open = FindOpen(Cell{m, word}, number);
  if (open == nullptr) return;
  if (racing && open->history.judgeable) {
    open->history.judgeable = false;
    open->history.why_not = "a plain store races with its atomics";
  }
  CloseOpen(static_cast<size_t>(open - open_.data()), std::nullopt);
}

void Replay::MaybeStore(const MemoryId& m, uint32_t word, uint32_t number) {
  if (open_.empty()) return;
  Open* open = FindOpen(Cell{m, word}, number);
  if (open == nullptr) return;
  if (open->history.judgeable) {
    open->history.judgeable = false;
    open->history.why_not =
        "a store whose address is one of a few may land among its atomics";
  }
  CloseOpen(static_cast<size_t>(open - open_.data()), std::nullopt);
}

void Replay::CloseOpen(size_t i, std::optional<uint32_t> final_value) {
  Close(open_[i].cell, open_[i].history, final_value);
  if (i + 1 != open_.size()) {
    open_[i] = std::move(open_.back());
    open_at_[open_[i].number] = static_cast<uint32_t>(i);
  }
  open_.pop_back();
}

template <typename Pick>
void Replay::Collect(Pick pick) {
  closing_.clear();
  for (Open& o : open_) {
    if (pick(o.cell, o.history)) closing_.emplace_back(o.cell, o.number);
  }
  std::sort(closing_.begin(), closing_.end(), [](const auto& a, const auto& b) {
    return CellLess(a.first, b.first);
  });
}

template <typename Pick>
void Replay::CloseWhere(Pick pick) {
  if (open_.empty()) return;
  Collect(pick);
  for (const auto& [c, number] : closing_) {
    CloseOpen(static_cast<size_t>(FindOpen(c, number) - open_.data()),
              std::nullopt);
  }
}

void Replay::Poisoned(const MemoryId& m, const AccessLog& known) {
  // Poison excuses only what comes after it (spec 1.3, 6.0): the word's
  // final value and later reads. The returns of the atomics before it are
  // judged as at any other close, without a final value: a wrong return
  // must not hide behind the poison it caused. That needs every atomic
  // that may come between them in the word's order to be in the history:
  // another thread's atomic racing with one of them may come later in this
  // pass's order (it races with the poisoning too, so its own history is
  // unjudgeable, but it may precede theirs). A counter is no word of the
  // UAV: poison leaves it alone.
  CloseWhere([&](const Cell& c, History& h) {
    if (c.word == UINT32_MAX) return false;
    const bool hit = c.m.tgsm ? m.tgsm && c.m.group == m.group
                              : !m.tgsm && c.m.slot == m.slot;
    if (!hit || !h.judgeable) return hit;
    const uint64_t key = AccessLog::WordKey(c.m, c.word);
    for (const SerialOp& op : h.ops) {
      // (A racing store on u# joins the order too.)
      const uint8_t writes =
          AccessLog::Bit(Access::kAtomic) | AccessLog::Bit(Access::kStore);
      if (known.ConcurrentAny(key, writes,
                              Accessor{op.chain, op.group, op.interval})) {
        h.judgeable = false;
        h.why_not =
            "the memory was poisoned while other threads' writes raced with "
            "its atomics";
        break;
      }
    }
    return true;
  });
}

void Replay::Barrier(uint32_t group, uint8_t flags, const AccessLog& known) {
  const bool tgsm = flags & isa::kSyncTgsm;
  const bool uav = flags & (isa::kSyncUavGroup | isa::kSyncUavGlobal);
  CloseWhere([&](const Cell& c, History& h) {
    return c.word != UINT32_MAX &&
           (c.m.tgsm ? tgsm && c.m.group == group
                     : uav && h.first_group == group &&
                           known.OnlyGroupWrites(c.m, c.word, group));
  });
}

void Replay::GroupDone(uint32_t group) {
  CloseWhere(
      [&](const Cell& c, History&) { return c.m.tgsm && c.m.group == group; });
}

bool Replay::CellLess(const Cell& a, const Cell& b) {
  return std::tie(a.m.tgsm, a.m.group, a.m.slot, a.word) <
         std::tie(b.m.tgsm, b.m.group, b.m.slot, b.word);
}

void Replay::Finish() {
  // Close in a fixed order (open_ keeps none): the first finding must be
  // the same every time.
  Collect([](const Cell&, const History&) { return true; });
  for (const auto& [c, number] : closing_) {
    History& h = FindOpen(c, number)->history;
    std::optional<uint32_t> final_value;
    if (!c.m.tgsm) {
      const isa::UavState* u = observed_.FindUav(c.m.slot);
      if (u != nullptr && c.word == UINT32_MAX) {
        if (u->counter) final_value = *u->counter;
      } else if (u != nullptr && c.word < u->words.size()) {
        final_value = u->words[c.word];
      }
    }
    Close(c, h, final_value);
  }
  open_.clear();
  for (size_t i = 0; i < consumed_.size(); ++i) {
    if (consumed_[i]) continue;
    const isa::AtomicEvent& e = observed_.trace[i];
    findings_.push_back(
        {FindingKind::kExtraAtomic,
         absl::StrCat("instruction ", e.instruction, " in ",
                      isa::InvocationName(program_, e.group, e.thread),
                      " occurrence ", e.occurrence),
         "the target's trace has an atomic the spec does not execute",
         static_cast<int>(e.instruction), e.file == isa::RegFile::kTgsm,
         static_cast<int>(e.slot)});
  }
}

void Replay::TakeUnjudged(std::vector<std::string>& notes) {
  notes.reserve(notes.size() + unjudged_.size());
  for (const Unjudged& u : unjudged_) {
    notes.push_back(Describe(u.cell, ": ", u.why, u.involved));
  }
  unjudged_.clear();
}

std::string Replay::Describe(const Cell& c, absl::string_view sep,
                             absl::string_view why,
                             absl::string_view more) const {
  if (c.word == UINT32_MAX)
    return absl::StrCat("u", c.m.slot, " counter", sep, why, more);
  if (c.m.tgsm) {
    return absl::StrCat("g", c.m.slot, "[", c.word, "] of group ", c.m.group,
                        sep, why, more);
  }
  return absl::StrCat("u", c.m.slot, "[", c.word, "]", sep, why, more);
}

std::string Replay::Involved(const History& h) const {
  std::map<uint32_t, size_t> per_instruction;
  for (const EventKey& k : h.keys) ++per_instruction[k.instruction];
  std::string out;
  for (const auto& [index, count] : per_instruction) {
    const isa::Instruction& inst = program_.instructions[index];
    absl::StrAppend(&out, out.empty() ? "" : ", ", count, " x ",
                    inst.info().mnemonic, " (line ", inst.line, ")");
  }
  return out;
}

void Replay::Close(const Cell& c, History& h,
                   std::optional<uint32_t> final_value) {
  if (!h.judgeable) {
    unjudged_.push_back({c, h.why_not, {}});
    *h.cell = Value{};
    return;
  }
  if (!observed_.has_trace) {
    // Without returns no order can be rebuilt: the final value is what
    // every order agrees on, else one of the values some order leaves.
    const SerialResult r =
        CheckSerialization(h.start.bits, h.ops, std::nullopt, 0);
    if (r.kind == SerialResult::Kind::kAllowed && r.end) {
      *h.cell = Value::Of(*r.end);
      return;
    }
    std::optional<std::vector<uint32_t>> ends;
    if (sets_ != nullptr && h.start.defined) {
      ends = PossibleEnds(h.start.bits, h.ops, ValueSets::kMaxValues,
                          kMaxEndStates);
    }
    if (ends && !ends->empty()) {
      *h.cell = sets_->Of(*ends, h.cell->bits);
      return;
    }
    unjudged_.push_back(
        {c, "without returned values its final value depends on the order of ",
         Involved(h)});
    *h.cell = Value{};
    return;
  }
  const SerialResult r =
      CheckSerialization(h.start.bits, h.ops, final_value, budget_);
  switch (r.kind) {
    case SerialResult::Kind::kAllowed:
      *h.cell = r.end ? Value::Of(*r.end) : Value{};
      return;
    case SerialResult::Kind::kUnknown:
      unknowns_.push_back(Describe(c, ": ", r.why));
      *h.cell = Value{};
      return;
    case SerialResult::Kind::kDivergence: {
      std::string where = Describe(c);
      int instruction =
          h.keys.empty() ? -1 : static_cast<int>(h.keys.front().instruction);
      if (r.culprit && *r.culprit < h.keys.size()) {
        instruction = static_cast<int>(h.keys[*r.culprit].instruction);
        const EventKey& k = h.keys[*r.culprit];
        absl::StrAppend(
            &where, ", ", program_.instructions[k.instruction].info().mnemonic,
            " (line ", program_.instructions[k.instruction].line, ") in ",
            isa::InvocationName(program_, k.group, k.thread));
      }
      findings_.push_back(
          {c.word == UINT32_MAX ? FindingKind::kWrongCounter
                                : FindingKind::kWrongReturn,
           where,
           absl::StrCat("starting from ", Hex(h.start.bits), ", ", r.why,
                        "; atomics on it: ", Involved(h)),
           instruction, c.m.tgsm, static_cast<int>(c.m.slot),
           c.word == UINT32_MAX ? int64_t{-1} : int64_t{c.word}});
      *h.cell = Value{};  // reported once
      return;
    }
  }
}

}  // namespace atomfuzz::oracle
