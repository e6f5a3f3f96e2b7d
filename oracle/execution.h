// One pass of the reference interpreter over a case under a schedule
// (internal to oracle/; Interpret() in interpreter.h drives the passes).
#ifndef ATOMFUZZ_ORACLE_EXECUTION_H_
#define ATOMFUZZ_ORACLE_EXECUTION_H_

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "isa/case_file.h"
#include "isa/outcome.h"
#include "isa/prng.h"
#include "oracle/access_log.h"
#include "oracle/addressing.h"
#include "oracle/control_map.h"
#include "oracle/counter_slots.h"
#include "oracle/internal/decoded_program.h"
#include "oracle/interpreter.h"
#include "oracle/pixel_quads.h"
#include "oracle/replay.h"
#include "oracle/system_values.h"
#include "oracle/value.h"
#include "oracle/value_sets.h"

namespace atomfuzz::oracle {

// The outcome message of a run whose control flow read an undefined value.
inline constexpr char kChaosMessage[] =
    "control flow depended on an undefined value";

struct Thread {
  uint32_t id = 0;                          // global index
  uint32_t group = 0;                       // linear group index
  std::array<uint32_t, 3> tid = {0, 0, 0};  // vThreadIDInGroup
  std::array<uint32_t, 3> gid = {0, 0, 0};  // vThreadGroupID
  // Whom its UAV accesses are coherent with (spec 2.3): its group's
  // threads in cs, itself alone in ps (docs/pixel-stage.md P.6).
  uint32_t domain = 0;
  uint32_t pc = 0;
  bool done = false;
  bool waiting = false;  // at a sync_*_t, or (ps) at a derivative
  // ps: covered and not discarded; only then do stores and atomics take
  // effect (spec 1.3, P.3). Always true in cs.
  bool active = true;
  // ps: the iteration each enclosing loop is in, outermost first: lanes at
  // one instruction with the same iterations run it together, whatever
  // branches they took before (structured flow reconverges), P.5.
  absl::InlinedVector<uint32_t, 4> iterations;
  uint64_t steps = 0;
  uint32_t accesses =
      0;  // memory words read or written so far (WriteRecord::seq)
  // r# (4 per register) and atomic occurrences, in Execution's pools: one
  // allocation per pass instead of several per thread.
  absl::Span<Value> regs;
  // The system values (SystemValueSlot), then regs: what FlatAlu indexes.
  absl::Span<Value> values;
  std::vector<std::vector<Value>> xregs;  // x#: 4 per element
  absl::Span<uint32_t> occurrences;       // per atomic ordinal
};

// A write that no later write to its word is ordered after yet
// (Execution::AfterRacingStore).
struct LastWrite {
  Value value;
  Accessor by;
};

struct Uav {
  Layout layout;
  isa::Format format = isa::Format::kR32Uint;
  std::vector<Value> words;
  std::optional<Value> counter;
};

struct Group {
  std::vector<std::vector<Value>> tgsm;  // per g# slot (empty if undeclared)
  uint32_t tgsm_interval = 0;            // barriers with _t and _g passed
  uint32_t uav_interval = 0;  // barriers with _t and a UAV fence passed
  uint32_t first_thread = 0, thread_count = 0;
};

// What an Execution allocates, kept by a caller that runs pass after pass
// (the judge keeps one for all its cases): each pass borrows the vectors and
// hands them back, with their room, when it ends. Their contents mean
// nothing between passes.
struct ExecutionStorage {
  std::vector<uint32_t> xsizes;
  std::vector<std::optional<Uav>> uavs;
  std::vector<std::optional<Layout>> tgsm_layouts;
  std::vector<Group> groups;
  std::vector<Thread> threads;
  std::vector<Value> reg_pool;
  std::vector<uint32_t> occurrence_pool;
  std::vector<std::vector<Value>> spare_words;  // UAV words' room
  std::vector<std::vector<Value>> spare_tgsm;   // a group's g#' room
  AccessLog log;
  ValueSets sets;
  absl::flat_hash_map<uint64_t, absl::InlinedVector<LastWrite, 2>> last_writes;
  std::vector<WriteRecord> racing_writes;
};

class Execution {
 public:
  // `known` holds what earlier passes saw (races, poison); this pass records
  // its own accesses into log().
  // With `replay`, atomics take their returns from it (the judge).
  // `decoded` is Decode(c.shader). With `storage`, the pass works in its
  // vectors and gives them back when it is destroyed.
  Execution(const isa::Case& c, const ControlMap& map,
            const DecodedProgram& decoded, const InterpretOptions& options,
            const AccessLog& known, Replay* replay = nullptr,
            ExecutionStorage* storage = nullptr);
  ~Execution();
  Execution(const Execution&) = delete;
  Execution& operator=(const Execution&) = delete;

  absl::Status Run();
  isa::Outcome TakeOutcome();
  // What the outcome's status and message will be, and the UAVs its words
  // and counters come from (by slot; a slot no dcl_uav_* names is empty),
  // for a caller that needs no outcome built (the judge). After Run.
  isa::RunStatus status() const { return outcome_.status; }
  absl::string_view message() const {
    return chaos_ ? absl::string_view(kChaosMessage)
                  : absl::string_view(outcome_.message);
  }
  absl::Span<const std::optional<Uav>> uavs() const { return uavs_; }
  // The sets of values the UAVs' words and the registers may name.
  const ValueSets& sets() const { return sets_; }
  // Stores at the indices counters handed out, for a judge without a trace.
  const CounterSlots& counter_slots() const { return counter_slots_; }
  const AccessLog& log() const { return log_; }
  AccessLog TakeLog() { return std::move(log_); }
  // known.LearnFrom(this pass's log), the log's room staying here.
  bool LearnInto(AccessLog& known) { return known.LearnFrom(std::move(log_)); }
  // Whether a branch, loop or switch took an undefined condition: from then
  // on the spec allows any behaviour (6.0), so nothing may be judged.
  bool chaos() const { return chaos_; }
  // InterpretFacts::may_leave_tgsm for this pass. After Run.
  bool may_leave_tgsm() const {
    return tgsm_out_of_bounds_ ||
           ((chaos_ || outcome_.status != isa::RunStatus::kOk) &&
            !tgsm_layouts_.empty());
  }

 private:
  using Decoded = DecodedInstruction;

  // execution.cc: setup, scheduling, control flow, registers, ALU.
  absl::Status Setup();
  void StartGroup(uint32_t g);
  absl::Status RunCanonical();
  absl::Status RunRandom();
  // The random schedule's unit: one instruction of `t`.
  absl::Status Step(Thread& t);
  // The canonical schedule's unit: `t` until it finishes or waits at a
  // barrier. The same steps as Step in a loop, with the budget kept in a
  // local count.
  absl::Status RunThread(Thread& t);
  // The instruction at t.pc (`inst`, decoded as `d`), dispatched on its
  // family; what Step and RunThread share.
  absl::Status Execute(Thread& t, const isa::Instruction& inst,
                       const Decoded& d);
  // The canonical schedule's shortcut past the program's leading
  // declarations; see its definition.
  absl::Status SkipLeadingDecls(Thread& t);
  // Step's errors, out of line: building their messages would otherwise
  // weigh on every step.
  ABSL_ATTRIBUTE_NOINLINE absl::Status OverBudget() const;
  ABSL_ATTRIBUTE_NOINLINE absl::Status OverTraceCap() const;
  bool MaybeReleaseBarrier(uint32_t g);  // true if it released
  // The group's release, whatever the stage: a barrier in cs, a quad's
  // derivatives in ps.
  bool MaybeRelease(uint32_t g) {
    return pixel_ ? MaybeReleaseQuad(g) : MaybeReleaseBarrier(g);
  }

  // pixel_execution.cc: the pixel stage (docs/pixel-stage.md).
  // Setup's part for a ps_5_0 case: quads as groups of four, v# inputs.
  absl::Status SetupPixel();
  // StartGroup's part for quad `g`: each lane's inputs and state.
  void StartQuad(uint32_t g);
  // After the control instruction at `here` moved the lane: the loop it
  // entered, went round or left, in t.iterations.
  void TrackLoops(Thread& t, isa::Op op, uint32_t here);
  // discard_z/nz: the lane goes on for its neighbours, inactive (P.3).
  void ExecDiscard(Thread& t, const isa::Instruction& inst);
  // Once every lane of quad `g` that has not ended waits at a derivative,
  // each gets its result (P.5); true if it released.
  bool MaybeReleaseQuad(uint32_t g);
  // An atomic in an inactive lane: no access, no event, dst0 undefined.
  void ExecInactiveAtomic(Thread& t, uint32_t index,
                          const isa::Instruction& inst);
  // Temps and immediates are most reads and writes: those paths are here,
  // to inline into the instruction loops; the other files in ReadOther and
  // WriteOther.
  ABSL_ATTRIBUTE_ALWAYS_INLINE Value Read(const Thread& t,
                                          const isa::Operand& op,
                                          int lane) const {
    if (op.file == isa::RegFile::kTemp) {
      const size_t k = size_t{op.index} * 4 + op.Component(lane);
      return k < t.regs.size() ? t.regs[k] : Value{};
    }
    if (op.file == isa::RegFile::kImmediate) {
      return Value::Of(
          op.values[op.value_count == 1 ? 0 : static_cast<size_t>(lane & 3)]);
    }
    return ReadOther(t, op, lane);
  }
  ABSL_ATTRIBUTE_ALWAYS_INLINE void Write(Thread& t, const isa::Operand& dst,
                                          int component, Value v) {
    if (dst.file == isa::RegFile::kTemp) {
      const size_t k =
          size_t{dst.index} * 4 + static_cast<size_t>(component & 3);
      if (k < t.regs.size()) t.regs[k] = v;
      return;
    }
    WriteOther(t, dst, component, v);
  }
  Value ReadOther(const Thread& t, const isa::Operand& op, int lane) const;
  // The element an x# operand names now (its offset plus its register
  // index), or nullopt where that register is undefined.
  static std::optional<uint64_t> ElementOf(const Thread& t,
                                           const isa::Operand& op);
  void WriteOther(Thread& t, const isa::Operand& dst, int component, Value v);
  bool Condition(const Thread& t, const isa::Operand& op);
  void ExecAlu(Thread& t, const isa::Instruction& inst, const Decoded& d);
  // ExecAlu's general case (several lanes, or two destinations), out of
  // line: its staging would weigh on the common case's registers.
  ABSL_ATTRIBUTE_NOINLINE void ExecAluLanes(Thread& t,
                                            const isa::Instruction& inst,
                                            const Decoded& d);
  void ExecControl(Thread& t, const isa::Instruction& inst);
  // Whether two register destinations may name the same register (r#, or
  // an x# element) in this thread now.
  bool SameRegister(const Thread& t, const isa::Operand& a,
                    const isa::Operand& b) const;

  // memory_ops.cc: loads, stores, atomics, with races and poison.
  void ExecLoad(Thread& t, const isa::Instruction& inst);
  void ExecStore(Thread& t, const isa::Instruction& inst);
  void ExecAtomic(Thread& t, uint32_t index, const isa::Instruction& inst);
  void ExecCounter(Thread& t, uint32_t index, const isa::Instruction& inst);
  const Layout* LayoutOf(const Thread& t, const isa::Operand& target) const;
  std::vector<Value>* WordsOf(Thread& t, const isa::Operand& target);
  MemoryId IdOf(const Thread& t, const isa::Operand& target) const;
  Accessor AccessorOf(const Thread& t, bool tgsm) const;
  Value ReadWord(Thread& t, const isa::Operand& target, uint32_t word);
  // What a read of the word by `a` (its `seq`th access) may see while other
  // threads write it (racing_read.h), from the last pass's record of its
  // writes: undefined where there is none, or poison may be involved.
  Value RacingReadOf(const MemoryId& id, uint32_t word, uint64_t key,
                     const Accessor& a, uint32_t seq);
  // Whether writes to `id` are kept for the next pass's racing reads: a
  // memory no instruction loads from has none, and a shared key names no
  // one word. Asked before a record is built (most writes keep none).
  bool Recorded(const MemoryId& id) const {
    return program_info_.Loaded(id.tgsm, id.slot) &&
           AccessLog::NumberedAlone(id);
  }
  // What an alloc or consume without a trace returned, from the last
  // pass's record of the counter's ops: one of a few, or undefined.
  Value CounterReturns(const MemoryId& id, uint64_t key, const Accessor& a,
                       uint32_t seq, isa::Rmw rmw);
  // Keeps a write (sets as undefined: their ids are this pass's).
  ABSL_ATTRIBUTE_NOINLINE void KeepWrite(uint64_t key, const WriteRecord& w);
  void StoreWord(Thread& t, const isa::Operand& target, uint32_t word, Value v);
  // A store of `v` that lands on the word or on another of a few (its
  // address is a set): the word keeps its value or takes `v`. `lands`:
  // this run's address is this word (what the oracle as a target reports).
  void MaybeStoreWord(Thread& t, const isa::Operand& target, uint32_t word,
                      Value v, bool lands);
  // The word's value after a store of `v` by `a` that other threads'
  // stores race with (and no atomic or poisoning): one of their values.
  Value AfterRacingStore(uint64_t key, const Accessor& a, Value v);
  // An atomic by `a` on the word: the writes ordered before it are no
  // longer among its last.
  void ForgetWritesBefore(uint64_t key, const Accessor& a);
  void Poison(Thread& t, const isa::Operand& target);
  AtomicSite SiteOf(const Thread& t, uint32_t index, bool tgsm) const;
  // Counts an atomic against the trace cap and records the event `make`
  // builds, except for the judge: it reads returns from Replay, and the
  // trace would go unread (so the event is not even built).
  template <typename MakeEvent>
  void Trace(const MakeEvent& make) {
    ++atomics_run_;
    if (replay_ == nullptr) outcome_.trace.push_back(make());
  }
  // The components an address takes for `layout` (spec 1.2); false if any
  // is undefined.
  bool ReadAddress(const Thread& t, const isa::Operand& addr,
                   const Layout& layout, std::array<uint32_t, 3>& coords) const;

  const isa::Case& case_;
  const isa::Program& program_;
  const ControlMap& map_;
  const InterpretOptions& options_;
  const AccessLog& known_;
  Replay* replay_;
  ExecutionStorage* storage_;
  AccessLog log_;
  isa::Prng prng_;

  bool pixel_ = false;            // a ps_5_0 case: groups are quads
  std::vector<PixelQuad> quads_;  // ps: by group
  // ps: v#'s component -> its slot in Thread::values (-1: not an input);
  // by v# index * 4 + component.
  std::vector<int8_t> input_slots_;
  uint32_t temps_ = 0;                       // the last dcl_temps' count
  std::vector<uint32_t> xsizes_;             // x# -> elements (0 = undeclared)
  absl::Span<const Decoded> decoded_;        // by instruction index
  absl::Span<const uint32_t> declarations_;  // DecodedProgram::declarations
  uint32_t leading_decls_ =
      0;  // declarations before the first other instruction
  uint32_t atomic_count_ = 0;
  const DecodedProgram& program_info_;  // which memories are loaded
  std::array<uint32_t, 3> group_size_ = {1, 1, 1};
  std::vector<std::optional<Uav>> uavs_;             // by slot
  std::vector<std::optional<Layout>> tgsm_layouts_;  // by g# slot
  std::vector<Group> groups_;
  std::vector<Thread> threads_;
  // Backing store of Thread::regs and occurrences: a group's worth under the
  // canonical schedule (groups run one after another), else every thread's.
  std::vector<Value> reg_pool_;
  std::vector<uint32_t> occurrence_pool_;
  // Room for UAV words, from the storage's last pass.
  std::vector<std::vector<Value>> spare_words_;
  // Room for a group's g# (Group::tgsm), from the last group to finish.
  std::vector<std::vector<Value>> spare_tgsm_;
  uint64_t total_steps_ = 0;
  uint64_t atomics_run_ = 0;
  bool chaos_ = false;  // control flow depended on an undefined value
  // Some g# access was out of bounds, misaligned or at an undefined address.
  bool tgsm_out_of_bounds_ = false;
  isa::Outcome outcome_;
  // The pass's sets of values (value.h), from the storage's last pass.
  ValueSets sets_;
  CounterSlots counter_slots_;
  // Per word written by racing stores: the values of the writes that no
  // later write to it is ordered after yet, with who wrote them (the
  // word's last write is one of them: spec 2.1). By AccessLog::WordKey.
  absl::flat_hash_map<uint64_t, absl::InlinedVector<LastWrite, 2>> last_writes_;
  // RacingReadOf's room for a word's recorded writes.
  std::vector<WriteRecord> racing_writes_;
  // Drops from `last` the writes ordered before an access by `a`: in this
  // pass's order, one already made that is not concurrent with it (program
  // order, or a barrier between).
  static void DropOrderedBefore(uint64_t key, const Accessor& a,
                                absl::InlinedVector<LastWrite, 2>& last);
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_EXECUTION_H_
