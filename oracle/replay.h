// The judge's side of an execution: instead of performing each atomic, the
// interpreter asks Replay what it returned (the target's observed value, or
// "undefined when order-dependent" without a trace) and records it in the
// history of its memory word. Histories are checked for a legal order
// (serialization.h) when a barrier closes them, a plain store overwrites
// them, their group ends, or the run ends (against the observed final word).
#ifndef ATOMFUZZ_ORACLE_REPLAY_H_
#define ATOMFUZZ_ORACLE_REPLAY_H_

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"
#include "isa/outcome.h"
#include "isa/program.h"
#include "oracle/access_log.h"
#include "oracle/finding.h"
#include "oracle/internal/trace_index.h"
#include "oracle/serialization.h"
#include "oracle/value.h"
#include "oracle/value_sets.h"

namespace atomfuzz::oracle {

struct EventKey {
  std::array<uint32_t, 3> group, thread;
  uint32_t instruction, occurrence;
  bool operator==(const EventKey&) const = default;
  template <typename H>
  friend H AbslHashValue(H h, const EventKey& k) {
    return H::combine(std::move(h), k.group, k.thread, k.instruction,
                      k.occurrence);
  }
};

// Who performs an atomic, as the history needs it.
struct AtomicSite {
  EventKey key;
  uint32_t thread = 0, group = 0, interval = 0;
};

class Replay {
 public:
  // With a trace, atomics return what was observed; without, a return that
  // depends on the order of other threads' atomics is undefined.
  Replay(const isa::Outcome& observed, const isa::Program& program,
         uint64_t search_budget);
  // The same, in the room of a finished Replay's containers (`spent` is
  // left empty): a caller that judges case after case allocates nothing
  // here once the room is there.
  Replay(const isa::Outcome& observed, const isa::Program& program,
         uint64_t search_budget, Replay&& spent);
  Replay(Replay&&) = default;
  // Forgets what the last pass recorded, for the next pass over the same
  // case; the index of the observed trace is kept (building it is a good
  // part of a small case's cost).
  void Restart();

  // An in-bounds atomic on `cell` (a memory word or a counter), whose
  // `number` is the one the pass's access log gave the word (Record). `clean`
  // is false when the word's value cannot be reasoned about (poisoned, racing
  // with a plain store, or the operands are undefined). `others` is whether
  // other threads' atomics on it are concurrent. Returns dst0; updates *cell.
  Value Atomic(const MemoryId& m, uint32_t word, uint32_t number, Value* cell,
               const AtomicSite& site, isa::Rmw rmw, Value src0, Value src1,
               bool clean, bool others);
  // An atomic that did not access memory (out of bounds, poison): its
  // observed event is accounted for; dst0 stays undefined.
  void Untouched(const AtomicSite& site);

  // A plain store of `value` to the word (`number` as for Atomic; `cell` its
  // value now) by `site`'s thread is about to happen; `racing`: other
  // threads' atomics on the word are concurrent with it; `stores_race`: two
  // threads' stores to the word race. On u# a store is atomic with respect
  // to atomics (spec 2.1), so a racing one takes its place in the word's
  // order, as an exchange whose return nobody sees (E-27's u# half), where
  // no two stores race: then every store that may fall among the history's
  // atomics is in it. Otherwise a racing store leaves the history
  // unjudgeable (on g#: E-27). Without a race it closes the history: all
  // of it comes before the store.
  void BeforeStore(const MemoryId& m, uint32_t word, uint32_t number,
                   Value* cell, const AtomicSite& site, Value value,
                   bool racing, bool stores_race);
  // A store that may or may not land on the word (its address is one of a
  // few): the word's history cannot be judged, and closes.
  void MaybeStore(const MemoryId& m, uint32_t word, uint32_t number);
  // `m` was poisoned (for g#: every g# of m.group): its words may now hold
  // anything, so their histories close with their returns judged but no
  // final value.
  // `known` says which other threads' atomics race with the history's.
  void Poisoned(const MemoryId& m, const AccessLog& known);
  // A barrier released `group`: close the histories it orders.
  void Barrier(uint32_t group, uint8_t sync_flags, const AccessLog& known);
  // The group's TGSM is about to be freed.
  void GroupDone(uint32_t group);
  // End of run: close everything, UAV words against the observed finals.
  void Finish();

  // What the replay concluded, handed over once it is finished (moved, not
  // copied: the judge builds its verdict from them).
  std::vector<Finding> TakeFindings() { return std::move(findings_); }
  std::vector<std::string> TakeUnknowns() { return std::move(unknowns_); }
  // Words whose atomics could not be judged, and why, appended to `notes`.
  void TakeUnjudged(std::vector<std::string>& notes);
  bool has_trace() const { return observed_.has_trace; }
  // The pass's sets, where a word without a trace may end as one of a few
  // values (PossibleEnds); nullptr between passes.
  void UseSets(ValueSets* sets) { sets_ = sets; }
  // Whether any word's history is open (a store that races with no atomic
  // matters only to an open one).
  bool HasOpen() const { return !open_.empty(); }

 private:
  struct Cell {
    MemoryId m;
    uint32_t word;  // UINT32_MAX: the counter of UAV m.slot
    bool operator==(const Cell&) const = default;
    template <typename H>
    friend H AbslHashValue(H h, const Cell& c) {
      return H::combine(std::move(h), c.m, c.word);
    }
  };
  struct History {
    Value* cell = nullptr;
    Value start;
    // A word's history is mostly a few ops: room for them in place, so
    // most histories allocate nothing.
    absl::InlinedVector<SerialOp, 4> ops;
    absl::InlinedVector<EventKey, 4> keys;  // per op, for messages
    bool judgeable = true;
    absl::string_view
        why_not;  // when not judgeable: one of a few fixed reasons
    uint32_t first_group = 0;
  };

  // An open history and its word. Found by the word's number (a hash of
  // the word at every atomic cost more than the rest of its bookkeeping);
  // kept unordered, the closing order is CellLess's.
  struct Open {
    Cell cell;
    uint32_t number;
    History history;
  };
  // The open history of `c`, numbered `number`, or nullptr. A word that
  // shares its number (AccessLog::NumberedAlone) is looked for in them all;
  // one that does not is the only one with its number.
  Open* FindOpen(const Cell& c, uint32_t number) {
    const bool alone = AccessLog::NumberedAlone(c.m);
    const uint32_t i = number < open_at_.size() ? open_at_[number] : UINT32_MAX;
    if (i < open_.size() && open_[i].number == number &&
        (alone || open_[i].cell == c)) {
      return &open_[i];
    }
    return alone ? nullptr : FindShared(c);
  }
  Open* FindShared(const Cell& c);  // by a scan of open_
  // The op `site` adds to `h` (its returned value left to the caller).
  static SerialOp OpOf(const AtomicSite& site, isa::Rmw rmw, uint32_t src0,
                       uint32_t src1, const History& h);
  // The open history of `c` (numbered `number`, its word `cell`), opened
  // by an access of `site` if there is none.
  Open& OpenHistory(const Cell& c, uint32_t number, Value* cell,
                    const AtomicSite& site);
  // Closes open_[i] and forgets it (the last entry takes its place).
  void CloseOpen(size_t i, std::optional<uint32_t> final_value);

  // Inlined into its two callers: at every atomic, its call's saving and
  // restoring of registers cost about as much as its lookup.
  ABSL_ATTRIBUTE_ALWAYS_INLINE std::optional<uint32_t> Observed(
      const AtomicSite& site, bool* found);
  // Observed's finding for an atomic the trace lacks, out of line: building
  // it would weigh on every lookup.
  ABSL_ATTRIBUTE_NOINLINE void Missing(const AtomicSite& site);
  // Histories close in this order (open_ keeps none; findings must come in
  // the same order every time).
  static bool CellLess(const Cell& a, const Cell& b);
  // closing_ := the open histories `pick(const Cell&, History&)` selects,
  // in CellLess order. A template, not a std::function: it runs at every
  // barrier.
  template <typename Pick>
  void Collect(Pick pick);
  // Closes the histories Collect(pick) lists.
  template <typename Pick>
  void CloseWhere(Pick pick);
  void Close(const Cell& c, History& h, std::optional<uint32_t> final_value);
  // "u2[5]", "g0[3] of group 1" or "u1 counter", then `sep`, `why` and
  // `more`, in one string (a campaign's verdicts carry thousands of
  // unjudged notes).
  std::string Describe(const Cell& c, absl::string_view sep = {},
                       absl::string_view why = {},
                       absl::string_view more = {}) const;
  // "64 x imm_atomic_iadd (line 12), 1 x atomic_or (line 14)"
  std::string Involved(const History& h) const;

  // States PossibleEnds may walk for one word: enough for a dozen racing
  // threads, and bounded, so no case makes the judge slow.
  static constexpr uint64_t kMaxEndStates = 1u << 14;

  const isa::Outcome& observed_;
  const isa::Program& program_;
  uint64_t budget_;
  ValueSets* sets_ = nullptr;
  TraceIndex index_;
  std::vector<uint8_t>
      consumed_;  // per trace event (bytes: read at every atomic)
  std::vector<Open> open_;
  // By word number: where its history is in open_. Checked against the
  // entry's word, so entries left from closed histories, an earlier pass or
  // a word sharing the number mislead nothing, and clearing open_ forgets
  // them all.
  std::vector<uint32_t> open_at_;
  // CloseWhere's and Finish's: the word and its number, kept for its room.
  std::vector<std::pair<Cell, uint32_t>> closing_;
  std::vector<Finding> findings_;
  std::vector<std::string> unknowns_;
  // Kept as parts and written out by TakeUnjudged: most passes but the
  // last are thrown away, and with them their notes.
  struct Unjudged {
    Cell cell;
    absl::string_view why;  // one of a few fixed reasons
    std::string involved;   // without a trace: the atomics whose order decides
  };
  std::vector<Unjudged> unjudged_;
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_REPLAY_H_
