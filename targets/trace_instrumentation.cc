#include "targets/trace_instrumentation.h"

#include <algorithm>
#include <map>
#include <optional>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "isa/assembler.h"
#include "isa/printer.h"

namespace atomfuzz::targets {
namespace {

using isa::Instruction;
using isa::Op;

constexpr uint32_t kSentinel = 0xffffffffu;
// Entries per thread for the atomics inside loops (their count is dynamic).
constexpr uint32_t kLoopEntries = 4096;
// The log is a 2D R32_UINT storage image of this width, not a buffer: in
// vkd3d 1.2's ssbo mode a second buffer UAV makes invalid SPIR-V (a shared
// runtime array decorated with ArrayStride twice), which would hide every case.
constexpr uint32_t kLogWidthBits = 12;
constexpr uint32_t kLogWidth = 1u << kLogWidthBits;
// At least one row: an empty dispatch (spec 1.8: nothing runs) still binds
// a valid image.
uint64_t LogRows(uint64_t words) {
  return std::max<uint64_t>(1, (words + kLogWidth - 1) / kLogWidth);
}
// Record words before the masks: {loop iterations started, loop entries
// written}. The loop count comes first: an executor whose loop budget is
// spent still runs the record's loop once, so that word is always there.
constexpr uint32_t kRecordHead = 2;

// Words of the entries of atomics in loops: K rows of entry pairs and the
// overflow row, or none when no atomic is in a loop.
uint64_t EntryWords(bool loop_atomics, uint32_t entries, uint64_t threads) {
  return loop_atomics ? 2 * (entries + uint64_t{1}) * threads : 0;
}

std::string Component(uint32_t first_register, uint32_t k) {
  return absl::StrFormat("r%d.%c", first_register + k / 4, "xyzw"[k % 4]);
}

// Our own code as fxc text: short, and the assembler checks it.
std::vector<Instruction> Snippet(const std::string& text,
                                 isa::Stage stage = isa::Stage::kCompute) {
  absl::StatusOr<isa::Program> p =
      isa::Assemble(absl::StrCat(isa::StagePrefix(stage), "_5_0\n", text));
  return p.ok() ? std::move(p->instructions) : std::vector<Instruction>{};
}

bool Returns(const Instruction& in) {
  const int ret = in.info().operand_with_role(isa::Role::kReturn);
  return ret >= 0 && in.operands[ret].file != isa::RegFile::kNull;
}

// What the instrumentation and the decoder both derive from the original
// program, so that the layout needs to carry none of it.
struct Scan {
  uint32_t temps = 0;       // dcl_temps count
  int temps_decl = -1;      // its index
  int thread_id_decl = -1;  // dcl_input vThreadID
  int first_code = -1;      // first non-declaration
  std::array<uint32_t, 3> group_size = {1, 1, 1};
  // Per instruction: the index of the outermost loop around it, or -1.
  std::vector<int> outer_loop;
  // Atomics outside every loop run at most once per thread (no backward
  // jumps but loops), so a register holds each one's value and a mask bit
  // says whether it ran. Instruction indices, in program order.
  std::vector<uint32_t> register_atomics;
  uint32_t returning_register_atomics = 0;
  uint32_t loop_atomics = 0;
  int final_ret = -1;  // the program's last instruction, at depth 0

  uint32_t mask_words() const {
    return static_cast<uint32_t>((register_atomics.size() + 31) / 32);
  }
  uint32_t record_words() const {
    return kRecordHead + mask_words() + returning_register_atomics;
  }
};

Scan ScanProgram(const isa::Program& p) {
  Scan s;
  s.outer_loop.assign(p.instructions.size(), -1);
  int depth = 0, outer = -1;
  for (size_t i = 0; i < p.instructions.size(); ++i) {
    const Instruction& in = p.instructions[i];
    const int idx = static_cast<int>(i);
    if (in.info().family != isa::Family::kDecl) {
      if (s.first_code < 0) s.first_code = idx;
    } else if (in.op == Op::kDclTemps) {
      s.temps = in.operands[0].index;
      s.temps_decl = idx;
    } else if (in.op == Op::kDclInput &&
               in.operands[0].file == isa::RegFile::kThreadID) {
      s.thread_id_decl = idx;
    } else if (in.op == Op::kDclThreadGroup) {
      for (size_t k = 0; k < 3; ++k) s.group_size[k] = in.operands[k].index;
    }
    if (in.op == Op::kLoop && depth++ == 0) outer = idx;
    s.outer_loop[i] = depth > 0 ? outer : -1;
    if (in.op == Op::kEndLoop && depth > 0) --depth;
    if (!in.info().is_atomic()) continue;
    if (depth > 0) {
      ++s.loop_atomics;
    } else {
      s.register_atomics.push_back(static_cast<uint32_t>(i));
      s.returning_register_atomics += Returns(in) ? 1 : 0;
    }
  }
  if (s.first_code < 0) s.first_code = static_cast<int>(p.instructions.size());
  if (!p.instructions.empty() && p.instructions.back().op == Op::kRet) {
    s.final_ret = static_cast<int>(p.instructions.size()) - 1;
  }
  return s;
}

// Why the executor's loop cap may have cut a loop short, or "".
std::string LoopCapHit(const std::vector<uint32_t>& log, const TraceLayout& l,
                       const TraceDecodeOptions& options) {
  // Loop iterations per SIMD vector (InvocationSpace::Vector): a vector
  // iterates while any lane does, so its count is at most its lanes' sum;
  // the record's own loop adds its words once per vector (after the
  // program's loops, but a cut there would lose record words).
  std::map<std::array<uint32_t, 4>, uint64_t> vectors;
  for (uint32_t t = 0; t < l.threads; ++t) {
    // A thread without a record started no counted loop; the decoder says
    // that it wrote none. (A pixel helper's loops are not counted: it
    // writes nothing.)
    const uint32_t loops = log[uint64_t{t} * l.record_words];
    if (l.invocations.pixel && loops == kSentinel) continue;
    auto [it, fresh] = vectors.try_emplace(l.invocations.Vector(t), 0);
    if (fresh) it->second = l.record_words;
    if (loops != kSentinel) it->second += loops;
  }
  for (const auto& [v, loops] : vectors) {
    if (loops >= options.loop_cap) {
      return absl::StrFormat(
          "%s: %s started %d loop iterations, the executor stops at %d",
          options.loop_cap_name, l.invocations.DescribeVector(v), loops,
          options.loop_cap);
    }
  }
  return "";
}

// Writes the thread's record before a ret.
class RecordWriter {
 public:
  RecordWriter(const Scan& scan, const TraceLayout& l, uint32_t rc, uint32_t ra,
               uint32_t masks, uint32_t values)
      : l_(l), rc_(rc), ra_(ra) {
    sources_ = {absl::StrFormat("r%d.z", rc), absl::StrFormat("r%d.x", rc)};
    for (uint32_t m = 0; m < scan.mask_words(); ++m)
      sources_.push_back(Component(masks, m));
    for (uint32_t v = 0; v < scan.returning_register_atomics; ++v) {
      sources_.push_back(Component(values, v));
    }
  }

  // The program's last ret: one loop whose only store is the record's, so
  // the JIT compiles one image store however long the record is (lavapipe's
  // LLVM time grows with the memory instructions, not with ALU code).
  std::string Looped() const {
    std::string text = absl::StrFormat(
        "mov r%1$d.x, l(0)\n"
        "loop\n"
        "uge r%1$d.y, r%1$d.x, l(%2$d)\n"
        "breakc_nz r%1$d.y\n"
        "mov r%1$d.z, %3$s\n",
        ra_, sources_.size(), sources_[0]);
    for (size_t j = 1; j < sources_.size(); ++j) {
      absl::StrAppendFormat(&text,
                            "ieq r%1$d.y, r%1$d.x, l(%2$d)\n"
                            "movc r%1$d.z, r%1$d.y, %3$s, r%1$d.z\n",
                            ra_, j, sources_[j]);
    }
    absl::StrAppendFormat(
        &text,
        "imad r%1$d.w, r%2$d.y, l(%3$d), r%1$d.x\n"
        "%4$s"
        "iadd r%1$d.x, r%1$d.x, l(1)\n"
        "endloop\n",
        ra_, rc_, sources_.size(),
        Store(absl::StrFormat("r%d.w", ra_), absl::StrFormat("r%d.zzzz", ra_)));
    return text;
  }

  // A ret inside control flow: straight stores (rare; no loop inside a
  // switch or a loop, where vkd3d's control flow has been wrong).
  std::string Unrolled() const {
    std::string text = absl::StrFormat("imul null, r%d.x, r%d.y, l(%d)\n", ra_,
                                       rc_, sources_.size());
    for (size_t j = 0; j < sources_.size(); ++j) {
      // "r5.y" -> "r5.yyyy": the store takes a four-component source.
      const std::string& source = sources_[j];
      absl::StrAppendFormat(&text, "iadd r%1$d.w, r%1$d.x, l(%2$d)\n", ra_, j);
      absl::StrAppend(
          &text, Store(absl::StrFormat("r%d.w", ra_),
                       absl::StrCat(source, std::string(3, source.back()))));
    }
    return text;
  }

  // Stores `value` at log word `word` (a register component, clobbered).
  std::string Store(const std::string& word, const std::string& value) const {
    return absl::StrFormat(
        "and r%1$d.y, %2$s, l(%3$d)\n"
        "ushr r%1$d.w, %2$s, l(%4$d)\n"
        "store_uav_typed u%5$d.xyzw, r%1$d.ywww, %6$s\n",
        ra_, word, kLogWidth - 1, kLogWidthBits, l_.log_slot, value);
  }

 private:
  const TraceLayout& l_;
  uint32_t rc_, ra_;
  std::vector<std::string> sources_;
};

}  // namespace

absl::StatusOr<InstrumentedCase> InstrumentForTrace(const isa::Case& c) {
  const Scan scan = ScanProgram(c.shader);
  InstrumentedCase out;
  TraceLayout& l = out.layout;
  l.invocations = InvocationsOf(c, scan.group_size);
  const uint64_t threads = l.invocations.Count();
  const uint64_t budget =
      isa::kMaxResourceWords - kLogWidth;  // the last row's padding
  const uint64_t records = threads * scan.record_words();
  // Entry pairs start at even words, so a pair shares its row; loop atomics
  // need at least the overflow row.
  const uint64_t entries_base = records + (records & 1);
  const uint64_t least =
      entries_base + (scan.loop_atomics > 0 ? 2 * threads : 0);
  if (least > budget) {
    return absl::FailedPreconditionError(
        absl::StrCat("a trace log for ", threads, " threads does not fit in ",
                     budget, " words"));
  }
  l.threads = static_cast<uint32_t>(threads);
  l.record_words = scan.record_words();
  l.entries_base = static_cast<uint32_t>(entries_base);
  l.entries =
      scan.loop_atomics == 0 || threads == 0
          ? 0
          : static_cast<uint32_t>(std::min<uint64_t>(
                kLoopEntries, (budget - entries_base) / (2 * threads) - 1));
  // The lowest u# neither bound nor declared.
  std::vector<bool> used(isa::kMaxUavSlot + 1, false);
  for (const isa::Resource& r : c.resources) {
    if (r.slot <= isa::kMaxUavSlot) used[r.slot] = true;
  }
  for (const Instruction& in : c.shader.instructions) {
    for (const isa::Operand& o : in.operands) {
      if (o.file == isa::RegFile::kUav && o.index <= isa::kMaxUavSlot)
        used[o.index] = true;
    }
  }
  const auto free_slot = std::find(used.begin(), used.end(), false);
  if (free_slot == used.end()) {
    return absl::FailedPreconditionError("no free UAV slot for the trace log");
  }
  l.log_slot = static_cast<uint32_t>(free_slot - used.begin());

  // Our temps after the program's: r_c = {loop entries written, flat thread
  // id, loop iterations started, -}, r_a scratch, then the mask words and
  // the returned values of the atomics outside loops.
  const uint32_t rc = scan.temps, ra = scan.temps + 1, masks = scan.temps + 2;
  const uint32_t values = masks + (scan.mask_words() + 3) / 4;
  const uint32_t temps = values + (scan.returning_register_atomics + 3) / 4;
  const uint64_t log_words =
      entries_base + EntryWords(scan.loop_atomics > 0, l.entries, threads);
  const uint64_t log_rows = LogRows(log_words);
  const isa::Stage stage = c.shader.stage;
  const PixelInputs inputs = l.invocations.pixel
                                 ? PlanPixelInputs(c.shader, l.invocations)
                                 : PixelInputs{};
  std::vector<Instruction> decls = Snippet(
      absl::StrFormat("dcl_uav_typed_texture2d (uint,uint,uint,uint) u%d\n",
                      l.log_slot),
      stage);
  std::string input_decls = inputs.added_decls;
  if (!l.invocations.pixel && scan.thread_id_decl < 0) {
    input_decls = "dcl_input vThreadID.xyz\n";
  }
  if (!input_decls.empty()) {
    const auto extra = Snippet(input_decls, stage);
    decls.insert(decls.end(), extra.begin(), extra.end());
  }
  if (scan.temps_decl < 0) {
    const auto extra = Snippet(absl::StrFormat("dcl_temps %d\n", temps), stage);
    decls.insert(decls.end(), extra.begin(), extra.end());
  }
  std::string prologue_text =
      absl::StrCat(FlatIndexCode(l.invocations, inputs, rc, ra),
                   absl::StrFormat("mov r%d.xzw, l(0, 0, 0, 0)\n", rc));
  // Values too: a register never written is not read as undefined.
  for (uint32_t r = masks; r < temps; ++r) {
    absl::StrAppendFormat(&prologue_text, "mov r%d.xyzw, l(0, 0, 0, 0)\n", r);
  }
  const std::vector<Instruction> prologue = Snippet(prologue_text, stage);
  const std::vector<Instruction> count_loop =
      Snippet(absl::StrFormat("iadd r%1$d.z, r%1$d.z, l(1)\n", rc), stage);
  const RecordWriter record(scan, l, rc, ra, masks, values);
  const std::vector<Instruction> final_record = Snippet(record.Looped(), stage);
  const std::vector<Instruction> nested_record =
      Snippet(record.Unrolled(), stage);
  if (decls.empty() || prologue.empty() || count_loop.empty() ||
      final_record.empty() || nested_record.empty()) {
    return absl::InternalError("trace snippet did not assemble");
  }

  isa::Program& p = out.instrumented.shader;
  out.instrumented = c;
  p.instructions.clear();
  const auto& src = c.shader.instructions;
  uint32_t register_atomic = 0, returning = 0;
  for (size_t i = 0; i < src.size(); ++i) {
    const int idx = static_cast<int>(i);
    if (idx == scan.first_code) {
      p.instructions.insert(p.instructions.end(), decls.begin(), decls.end());
      p.instructions.insert(p.instructions.end(), prologue.begin(),
                            prologue.end());
    }
    Instruction in = src[i];
    if (idx == scan.temps_decl) in.operands[0].index = temps;
    if (idx == scan.thread_id_decl) in.operands[0].mask |= 0x7;
    if (idx == inputs.position_decl) in.operands[0].mask |= 0x3;
    if (in.info().family == isa::Family::kDiscard) {
      // Once discarded, the invocation's stores are dropped (OpKill ends
      // it; a demoted one is a helper): what it did so far goes out now,
      // and a later record, if it goes on, replaces this one.
      p.instructions.insert(p.instructions.end(), nested_record.begin(),
                            nested_record.end());
    }
    if (in.op == Op::kRet || in.op == Op::kRetcZ || in.op == Op::kRetcNz) {
      // Every way out writes the record first; retc becomes if + ret.
      const bool conditional = in.op != Op::kRet;
      std::vector<Instruction> around;
      if (conditional) {
        around = Snippet(
            absl::StrCat(in.op == Op::kRetcZ ? "if_z " : "if_nz ",
                         isa::PrintOperand(in.operands[0]), "\nret\nendif\n"),
            stage);
        if (around.size() != 3)
          return absl::InternalError("trace snippet did not assemble");
        p.instructions.push_back(around[0]);
      }
      const auto& rec = idx == scan.final_ret ? final_record : nested_record;
      p.instructions.insert(p.instructions.end(), rec.begin(), rec.end());
      if (conditional) {
        p.instructions.push_back(around[1]);
        p.instructions.push_back(around[2]);
      } else {
        p.instructions.push_back(in);
      }
      continue;
    }
    p.instructions.push_back(in);
    if (in.op == Op::kLoop) {
      p.instructions.insert(p.instructions.end(), count_loop.begin(),
                            count_loop.end());
    }
    if (!in.info().is_atomic()) continue;
    const bool returns = Returns(in);
    const std::string returned =
        returns
            ? isa::PrintOperand(
                  in.operands[in.info().operand_with_role(isa::Role::kReturn)])
            : std::string("l(0)");
    std::string text;
    if (scan.outer_loop[i] < 0) {
      const uint32_t s = register_atomic++;
      // A one-component destination prints as the source that reads it.
      if (returns)
        absl::StrAppendFormat(&text, "mov %s, %s\n",
                              Component(values, returning++), returned);
      absl::StrAppendFormat(&text, "or %1$s, %1$s, l(%2$d)\n",
                            Component(masks, s / 32), 1u << (s % 32));
    } else {
      // Entry word = base + (min(entries so far, K) * T + thread) * 2:
      // {instruction, returned}; entries past K all go to the overflow row K,
      // never read.
      absl::StrAppendFormat(&text,
                            "umin r%1$d.x, r%2$d.x, l(%3$d)\n"
                            "imad r%1$d.x, r%1$d.x, l(%4$d), r%2$d.y\n"
                            "ishl r%1$d.x, r%1$d.x, l(1)\n"
                            "iadd r%1$d.x, r%1$d.x, l(%5$d)\n"
                            "mov r%1$d.z, %6$s\n",
                            ra, rc, l.entries, l.threads, l.entries_base,
                            returned);
      absl::StrAppend(
          &text,
          record.Store(
              absl::StrFormat("r%d.x", ra),
              absl::StrFormat("l(%1$d, %1$d, %1$d, %1$d)",
                              returns ? uint32_t(i) : uint32_t(i) | kNoReturn)),
          absl::StrFormat("iadd r%1$d.y, r%1$d.y, l(1)\n"
                          "store_uav_typed u%2$d.xyzw, r%1$d.ywww, r%1$d.zzzz\n"
                          "iadd r%3$d.x, r%3$d.x, l(1)\n",
                          ra, l.log_slot, rc));
    }
    const std::vector<Instruction> log = Snippet(text, stage);
    if (log.empty())
      return absl::InternalError("trace snippet did not assemble");
    p.instructions.insert(p.instructions.end(), log.begin(), log.end());
  }
  if (scan.first_code == static_cast<int>(src.size())) {
    p.instructions.insert(p.instructions.end(), decls.begin(), decls.end());
  }

  isa::Resource log;
  log.slot = l.log_slot;
  log.kind = isa::ResourceKind::kTyped;
  log.dim = isa::Dim::kTexture2D;
  log.format = isa::Format::kR32Uint;
  log.size = {kLogWidth, static_cast<uint32_t>(log_rows), 1};
  log.init.assign(log_rows * kLogWidth, 0);
  std::fill(log.init.begin(),
            log.init.begin() + static_cast<ptrdiff_t>(log_words), kSentinel);
  auto& res = out.instrumented.resources;
  res.insert(std::lower_bound(
                 res.begin(), res.end(), log.slot,
                 [](const isa::Resource& r, uint32_t s) { return r.slot < s; }),
             std::move(log));
  out.instrumented.expect_words.clear();
  out.instrumented.expect_counters.clear();
  out.instrumented.expect_returns.clear();
  return out;
}

isa::Outcome DecodeTrace(const isa::Case& original, const TraceLayout& l,
                         isa::Outcome run, const TraceDecodeOptions& options) {
  isa::Outcome out = std::move(run);
  std::vector<uint32_t> log;
  for (auto it = out.uavs.begin(); it != out.uavs.end(); ++it) {
    if (it->slot == l.log_slot) {
      log = std::move(it->words);
      out.uavs.erase(it);
      break;
    }
  }
  out.has_trace = false;
  out.trace.clear();
  if (out.status != isa::RunStatus::kOk) return out;
  const Scan scan = ScanProgram(original.shader);
  const uint64_t entry_words =
      EntryWords(scan.loop_atomics > 0, l.entries, l.threads);
  if (scan.record_words() != l.record_words ||
      log.size() !=
          LogRows(uint64_t{l.entries_base} + entry_words) * kLogWidth ||
      uint64_t{l.threads} * l.record_words > l.entries_base) {
    out.message = "trace log missing from the outcome";
    return out;
  }
  if (options.loop_cap != 0) {
    if (std::string why = LoopCapHit(log, l, options); !why.empty()) {
      out.status = isa::RunStatus::kBudgetExceeded;
      out.message = why;
      return out;
    }
  }
  const auto& code = original.shader.instructions;
  std::string problem;
  for (uint32_t t = 0; t < l.threads && problem.empty(); ++t) {
    isa::AtomicEvent base;
    l.invocations.Key(t, base.group, base.thread);
    const uint32_t* record = &log[uint64_t{t} * l.record_words];
    const uint32_t loops = record[0], entries = record[1];
    // A pixel invocation that never was live has no record, and no events.
    if (loops == kSentinel && l.invocations.pixel) continue;
    if (loops == kSentinel) {
      problem =
          absl::StrFormat("trace log corrupt: thread %d wrote no record", t);
      break;
    }
    if (entries == kSentinel) {
      // Not the program's loops (the cap check above passed): lavapipe
      // spends its loop budget on loops no thread enters (docs/findings.md
      // #10), so the program's own loops may have been cut short as well;
      // its memory is still judged.
      problem = absl::StrFormat(
          "%s: thread %d started %d loop iterations, yet the executor stopped "
          "the record's "
          "loop after one",
          kRecordCutShort, t, loops);
      break;
    }
    if (entries > l.entries) {
      problem = absl::StrCat("trace overflow: a thread ran ", entries,
                             " atomics in loops, its log holds ", l.entries,
                             "; judged without returned values");
      break;
    }
    // Events sorted by where they sit in program order: an atomic outside
    // loops by its own index, one inside by its outermost loop's (entered
    // once, its entries in the order they ran).
    std::vector<std::tuple<uint32_t, uint32_t, std::optional<uint32_t>>> events;
    const uint32_t* mask = record + kRecordHead;
    const uint32_t* value = mask + scan.mask_words();
    for (size_t s = 0, v = 0; s < scan.register_atomics.size(); ++s) {
      const uint32_t index = scan.register_atomics[s];
      const bool returns = Returns(code[index]);
      if (mask[s / 32] & (1u << (s % 32))) {
        events.emplace_back(
            index, index,
            returns ? std::optional<uint32_t>(value[v]) : std::nullopt);
      }
      v += returns ? 1 : 0;
    }
    for (uint32_t e = 0; e < entries; ++e) {
      const uint64_t at = l.entries_base + (uint64_t{e} * l.threads + t) * 2;
      const uint32_t tag = log[at];
      const uint32_t index = tag & ~kNoReturn;
      if (tag == kSentinel || index >= code.size() ||
          !code[index].info().is_atomic() || scan.outer_loop[index] < 0) {
        problem = absl::StrFormat(
            "trace log corrupt: entry %d of thread %d reads 0x%08x", e, t, tag);
        break;
      }
      events.emplace_back(static_cast<uint32_t>(scan.outer_loop[index]), index,
                          (tag & kNoReturn)
                              ? std::nullopt
                              : std::optional<uint32_t>(log[at + 1]));
    }
    if (!problem.empty()) break;
    std::stable_sort(events.begin(), events.end(),
                     [](const auto& a, const auto& b) {
                       return std::get<0>(a) < std::get<0>(b);
                     });
    std::map<uint32_t, uint32_t> occurrences;
    for (const auto& [position, index, returned] : events) {
      isa::AtomicEvent ev = base;
      ev.instruction = index;
      ev.occurrence = occurrences[index]++;
      const isa::Instruction& in = code[index];
      const isa::Operand& target =
          in.operands[in.info().operand_with_role(isa::Role::kTarget)];
      ev.file = target.file;
      ev.slot = target.index;
      ev.returned = returned;
      out.trace.push_back(ev);
    }
  }
  if (!problem.empty()) {
    out.trace.clear();
    out.message = problem;
    return out;
  }
  out.has_trace = true;
  out.trace_has_addresses = false;  // the log holds no addresses
  return out;
}

}  // namespace atomfuzz::targets
