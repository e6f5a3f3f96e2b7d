#include "targets/trace_instrumentation.h"

#include <algorithm>
#include <map>
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
// Entries per thread when loops make the count unknown.
constexpr uint32_t kLoopEntries = 4096;
// lavapipe runs a group as SIMD vectors of 8 (AVX2) or 16 lanes.
constexpr uint32_t kVectorLanes = 16;
// The log is a 2D R32_UINT storage image of this width, not a buffer: in
// vkd3d 1.2's ssbo mode a second buffer UAV makes invalid SPIR-V (a shared
// runtime array decorated with ArrayStride twice), which would hide every case.
constexpr uint32_t kLogWidthBits = 12;
constexpr uint32_t kLogWidth = 1u << kLogWidthBits;
uint64_t LogRows(uint64_t words) { return (words + kLogWidth - 1) / kLogWidth; }
// Instructions logged after each atomic.
constexpr size_t kLogSnippetLength = 12;

// Our own code as fxc text: short, and the assembler checks it.
std::vector<Instruction> Snippet(const std::string& text) {
  absl::StatusOr<isa::Program> p = isa::Assemble(absl::StrCat("cs_5_0\n", text));
  return p.ok() ? std::move(p->instructions) : std::vector<Instruction>{};
}

struct Scan {
  uint32_t temps = 0;          // dcl_temps count
  int temps_decl = -1;         // its index
  int thread_id_decl = -1;     // dcl_input vThreadID
  int first_code = -1;         // first non-declaration
  uint32_t atomics = 0;
  bool loops = false;
  std::array<uint32_t, 3> group_size = {1, 1, 1};
};

Scan ScanProgram(const isa::Program& p) {
  Scan s;
  for (size_t i = 0; i < p.instructions.size(); ++i) {
    const Instruction& in = p.instructions[i];
    const int idx = static_cast<int>(i);
    if (in.info().family != isa::Family::kDecl) {
      if (s.first_code < 0) s.first_code = idx;
    } else if (in.op == Op::kDclTemps) {
      s.temps = in.operands[0].index;
      s.temps_decl = idx;
    } else if (in.op == Op::kDclInput && in.operands[0].file == isa::RegFile::kThreadID) {
      s.thread_id_decl = idx;
    } else if (in.op == Op::kDclThreadGroup) {
      for (size_t k = 0; k < 3; ++k) s.group_size[k] = in.operands[k].index;
    }
    if (in.info().is_atomic()) ++s.atomics;
    if (in.op == Op::kLoop) s.loops = true;
  }
  if (s.first_code < 0) s.first_code = static_cast<int>(p.instructions.size());
  return s;
}

// Why the executor's loop cap may have cut a loop short, or "".
std::string LoopCapHit(const std::vector<uint32_t>& log, uint64_t header, const TraceLayout& l,
                       const std::array<uint32_t, 3>& extent, const TraceDecodeOptions& options) {
  // Loop iterations per (group, vector of kVectorLanes threads): a vector
  // iterates while any lane does, so its count is at most its lanes' sum.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, uint64_t> vectors;
  for (uint32_t t = 0; t < l.threads; ++t) {
    std::array<uint32_t, 3> group, thread;
    uint32_t rest = t;
    for (size_t k = 0; k < 3; ++k) {
      const uint32_t id = rest % extent[k];
      rest /= extent[k];
      group[k] = id / l.group_size[k];
      thread[k] = id % l.group_size[k];
    }
    const uint32_t in_group =
        thread[0] + l.group_size[0] * (thread[1] + l.group_size[1] * thread[2]);
    vectors[{group[0], group[1], group[2], in_group / kVectorLanes}] += log[header + 2 * t + 1];
  }
  for (const auto& [v, loops] : vectors) {
    if (loops >= options.loop_cap) {
      return absl::StrFormat(
          "%s: threads %d..%d of group (%d,%d,%d) started %d loop iterations, the executor "
          "stops at %d",
          options.loop_cap_name, std::get<3>(v) * kVectorLanes,
          std::get<3>(v) * kVectorLanes + kVectorLanes - 1, std::get<0>(v), std::get<1>(v),
          std::get<2>(v), loops, options.loop_cap);
    }
  }
  return "";
}

}  // namespace

absl::StatusOr<InstrumentedCase> InstrumentForTrace(const isa::Case& c) {
  const Scan scan = ScanProgram(c.shader);
  InstrumentedCase out;
  TraceLayout& l = out.layout;
  l.group_size = scan.group_size;
  l.groups = c.groups;
  std::array<uint64_t, 3> extent;
  uint64_t threads = 1;
  for (size_t k = 0; k < 3; ++k) {
    extent[k] = uint64_t{c.groups[k]} * scan.group_size[k];
    threads *= extent[k];
  }
  const uint64_t budget = isa::kMaxResourceWords - kLogWidth;  // the last row's padding
  if (threads == 0 || 4 * threads > budget) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a trace log for ", threads, " threads does not fit in ", budget, " words"));
  }
  l.threads = static_cast<uint32_t>(threads);
  const uint64_t most = (budget - 2 * threads) / (2 * threads);
  l.entries = static_cast<uint32_t>(
      std::max<uint64_t>(1, std::min<uint64_t>(most, scan.loops ? kLoopEntries : scan.atomics)));
  // The lowest u# neither bound nor declared.
  std::vector<bool> used(isa::kMaxUavSlot + 1, false);
  for (const isa::Resource& r : c.resources) {
    if (r.slot <= isa::kMaxUavSlot) used[r.slot] = true;
  }
  for (const Instruction& in : c.shader.instructions) {
    for (const isa::Operand& o : in.operands) {
      if (o.file == isa::RegFile::kUav && o.index <= isa::kMaxUavSlot) used[o.index] = true;
    }
  }
  const auto free_slot = std::find(used.begin(), used.end(), false);
  if (free_slot == used.end()) {
    return absl::FailedPreconditionError("no free UAV slot for the trace log");
  }
  l.log_slot = static_cast<uint32_t>(free_slot - used.begin());

  const uint32_t rc = scan.temps, ra = scan.temps + 1;  // cursor/ids, scratch
  const uint64_t header_words = uint64_t{l.entries} * l.threads * 2;
  const uint64_t log_words = header_words + 2 * uint64_t{l.threads};
  const uint64_t log_rows = LogRows(log_words);
  std::vector<Instruction> decls = Snippet(absl::StrFormat(
      "dcl_uav_typed_texture2d (uint,uint,uint,uint) u%d\n", l.log_slot));
  if (scan.thread_id_decl < 0) {
    const auto extra = Snippet("dcl_input vThreadID.xyz\n");
    decls.insert(decls.end(), extra.begin(), extra.end());
  }
  if (scan.temps_decl < 0) {
    const auto extra = Snippet("dcl_temps 2\n");
    decls.insert(decls.end(), extra.begin(), extra.end());
  }
  // Log word w lives at texel (w % kLogWidth, w / kLogWidth); entries and
  // header pairs start at even words, so a pair shares its row.
  auto store = [&](const std::string& word, const std::string& value, bool second) {
    return absl::StrFormat(
        "and r%1$d.y, %2$s, l(%3$d)\n"
        "ushr r%1$d.w, %2$s, l(%4$d)\n"
        "%5$s"
        "store_uav_typed u%6$d.xyzw, r%1$d.ywww, %7$s\n",
        ra, word, kLogWidth - 1, kLogWidthBits,
        second ? absl::StrFormat("iadd r%1$d.y, r%1$d.y, l(1)\n", ra) : "", l.log_slot, value);
  };
  // r_c = {atomics so far, flat thread id, header word, loops}.
  const std::vector<Instruction> prologue = Snippet(absl::StrFormat(
      "imad r%1$d.y, vThreadID.z, l(%2$d), vThreadID.y\n"
      "imad r%1$d.y, r%1$d.y, l(%3$d), vThreadID.x\n"
      "mov r%1$d.xw, l(0, 0, 0, 0)\n"
      "ishl r%1$d.z, r%1$d.y, l(1)\n"
      "iadd r%1$d.z, r%1$d.z, l(%4$d)\n",
      rc, extent[1], extent[0], header_words));
  const std::vector<Instruction> count_loop = Snippet(absl::StrCat(
      absl::StrFormat("iadd r%1$d.w, r%1$d.w, l(1)\n", rc),
      store(absl::StrFormat("r%d.z", rc), absl::StrFormat("r%d.wwww", rc), true)));

  isa::Program& p = out.instrumented.shader;
  out.instrumented = c;
  p.instructions.clear();
  const auto& src = c.shader.instructions;
  for (size_t i = 0; i < src.size(); ++i) {
    if (static_cast<int>(i) == scan.first_code) {
      p.instructions.insert(p.instructions.end(), decls.begin(), decls.end());
      p.instructions.insert(p.instructions.end(), prologue.begin(), prologue.end());
    }
    Instruction in = src[i];
    if (static_cast<int>(i) == scan.temps_decl) in.operands[0].index += 2;
    if (static_cast<int>(i) == scan.thread_id_decl) in.operands[0].mask |= 0x7;
    p.instructions.push_back(in);
    if (in.op == Op::kLoop) {
      p.instructions.insert(p.instructions.end(), count_loop.begin(), count_loop.end());
    }
    if (!in.info().is_atomic()) continue;
    const int ret = in.info().operand_with_role(isa::Role::kReturn);
    const bool returns = ret >= 0 && in.operands[ret].file != isa::RegFile::kNull;
    // Entry word = (events so far * T + thread) * 2: {instruction, returned}.
    std::vector<Instruction> log = Snippet(absl::StrCat(
        absl::StrFormat("imad r%1$d.x, r%2$d.x, l(%3$d), r%2$d.y\n"
                        "ishl r%1$d.x, r%1$d.x, l(1)\n"
                        // A one-component destination prints as the source that reads it.
                        "mov r%1$d.z, %4$s\n",
                        ra, rc, l.threads,
                        returns ? isa::PrintOperand(in.operands[ret]) : std::string("l(0)")),
        store(absl::StrFormat("r%d.x", ra),
              absl::StrFormat("l(%1$d, %1$d, %1$d, %1$d)",
                              returns ? uint32_t(i) : uint32_t(i) | kNoReturn),
              false),
        absl::StrFormat("iadd r%d.y, r%d.y, l(1)\n", ra, ra),
        absl::StrFormat("store_uav_typed u%d.xyzw, r%d.ywww, r%d.zzzz\n", l.log_slot, ra, ra),
        absl::StrFormat("iadd r%1$d.x, r%1$d.x, l(1)\n", rc),
        store(absl::StrFormat("r%d.z", rc), absl::StrFormat("r%d.xxxx", rc), false)));
    if (log.size() != kLogSnippetLength) return absl::InternalError("trace snippet did not assemble");
    p.instructions.insert(p.instructions.end(), log.begin(), log.end());
  }
  if (decls.empty() || prologue.size() != 5 || count_loop.size() != 5) {
    return absl::InternalError("trace snippet did not assemble");
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
  std::fill(log.init.begin(), log.init.begin() + static_cast<ptrdiff_t>(header_words), kSentinel);
  auto& res = out.instrumented.resources;
  res.insert(std::lower_bound(res.begin(), res.end(), log.slot,
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
  const uint64_t header = uint64_t{l.entries} * l.threads * 2;
  if (out.status != isa::RunStatus::kOk) return out;
  if (log.size() != LogRows(header + 2 * uint64_t{l.threads}) * kLogWidth) {
    out.message = "trace log missing from the outcome";
    return out;
  }
  const std::array<uint32_t, 3> extent = {l.groups[0] * l.group_size[0],
                                          l.groups[1] * l.group_size[1],
                                          l.groups[2] * l.group_size[2]};
  const auto& code = original.shader.instructions;
  if (options.loop_cap != 0) {
    if (std::string why = LoopCapHit(log, header, l, extent, options); !why.empty()) {
      out.status = isa::RunStatus::kBudgetExceeded;
      out.message = why;
      return out;
    }
  }
  std::string problem;
  for (uint32_t t = 0; t < l.threads && problem.empty(); ++t) {
    const std::array<uint32_t, 3> id = {t % extent[0], t / extent[0] % extent[1],
                                        t / extent[0] / extent[1]};
    isa::AtomicEvent base;
    for (size_t k = 0; k < 3; ++k) {
      base.group[k] = id[k] / l.group_size[k];
      base.thread[k] = id[k] % l.group_size[k];
    }
    const uint32_t executed = log[header + 2 * t];
    if (executed > l.entries) {
      problem = absl::StrCat("trace overflow: a thread ran ", executed,
                             " atomics, its log holds ", l.entries,
                             "; judged without returned values");
      break;
    }
    std::map<uint32_t, uint32_t> occurrences;
    for (uint32_t e = 0; e < executed; ++e) {
      const uint64_t at = (uint64_t{e} * l.threads + t) * 2;
      const uint32_t tag = log[at];
      const uint32_t index = tag & ~kNoReturn;
      if (tag == kSentinel || index >= code.size() || !code[index].info().is_atomic()) {
        problem = absl::StrFormat("trace log corrupt: entry %d of thread %d reads 0x%08x", e, t,
                                  tag);
        break;
      }
      isa::AtomicEvent ev = base;
      ev.instruction = index;
      ev.occurrence = occurrences[index]++;
      const isa::Instruction& in = code[index];
      const isa::Operand& target = in.operands[in.info().operand_with_role(isa::Role::kTarget)];
      ev.file = target.file;
      ev.slot = target.index;
      if (!(tag & kNoReturn)) ev.returned = log[at + 1];
      out.trace.push_back(ev);
    }
  }
  if (!problem.empty()) {
    out.trace.clear();
    out.message = problem;
    return out;
  }
  out.has_trace = true;
  return out;
}

}  // namespace atomfuzz::targets
