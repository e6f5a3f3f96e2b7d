// Execution in the pixel stage (docs/pixel-stage.md): quads as groups of
// four lanes, their inputs, discard, and derivatives across the quad.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "isa/raster.h"
#include "isa/stages.h"
#include "oracle/execution.h"

namespace atomfuzz::oracle {

using isa::Op;
using isa::RegFile;

namespace {

uint32_t FloatBits(float f) { return std::bit_cast<uint32_t>(f); }

// Whether a float may enter a derivative the oracle computes: finite and
// not a denormal (which an implementation may flush, FS 3.1).
bool Plain(float f) {
  return std::isfinite(f) && (f == 0.0f || std::fabs(f) >= 0x1p-126f);
}

// b - a where every implementation gives the same bits: both plain and
// the difference exact (so no rounding mode or precision matters) and
// plain too (P.5). Else undefined.
Value ExactDifference(Value a, Value b) {
  if (!a.defined || !b.defined) return Value::Undefined();
  const float fa = std::bit_cast<float>(a.bits);
  const float fb = std::bit_cast<float>(b.bits);
  if (!Plain(fa) || !Plain(fb)) return Value::Undefined();
  const double d = static_cast<double>(fb) - static_cast<double>(fa);
  const float f = static_cast<float>(d);
  if (static_cast<double>(f) != d || !Plain(f)) return Value::Undefined();
  return Value::Of(FloatBits(f == 0.0f ? 0.0f : f));  // x - x is +0
}

// Whether `a` is further behind in the program than `b`: in an earlier
// iteration of a loop around both, else at an earlier instruction
// (structured flow: what lies ahead in the text runs later).
bool Behind(const Thread& a, const Thread& b) {
  const size_t n = std::min(a.iterations.size(), b.iterations.size());
  for (size_t i = 0; i < n; ++i) {
    if (a.iterations[i] != b.iterations[i]) {
      return a.iterations[i] < b.iterations[i];
    }
  }
  return a.pc < b.pc;
}

}  // namespace

absl::Status Execution::SetupPixel() {
  pixel_ = true;
  // Which input each v# component reads (P.2): position's four, or the
  // one component of sampleIndex or primitive_id.
  input_slots_.clear();
  for (const uint32_t i : declarations_) {
    const isa::Instruction& inst = program_.instructions[i];
    if (inst.op != Op::kDclInputPsSgv && inst.op != Op::kDclInputPsSiv) {
      continue;
    }
    const uint32_t reg = inst.operands[0].index;
    if (reg >= 32) return absl::InvalidArgumentError("v# beyond v31");
    if (input_slots_.size() < (reg + 1) * 4) {
      input_slots_.resize((reg + 1) * 4, -1);
    }
    const auto name = static_cast<isa::InputName>(inst.operands[1].index);
    for (uint32_t c = 0; c < 4; ++c) {
      if (!(inst.operands[0].mask >> c & 1)) continue;
      int slot = -1;
      if (name == isa::InputName::kPosition) {
        slot = kPositionSlot + static_cast<int>(c);
      } else if (c == 0) {
        slot = name == isa::InputName::kSampleIndex ? kSampleIndexSlot
                                                    : kPrimitiveIdSlot;
      }
      input_slots_[reg * 4 + c] = static_cast<int8_t>(slot);
    }
  }
  if (case_.draw.width > isa::kMaxFramebufferSide ||
      case_.draw.height > isa::kMaxFramebufferSide ||
      case_.draw.triangles.size() > isa::kMaxTriangles ||
      (case_.draw.samples != 1 && case_.draw.samples != 4)) {
    return absl::InvalidArgumentError(
        "a [draw] past its limits (docs/case-format.md)");
  }
  quads_ = PixelQuads(case_);
  const uint64_t threads = uint64_t{quads_.size()} * 4;
  if (threads > options_.max_threads ||
      threads * (uint64_t{temps_} * 4) > options_.max_register_values) {
    return absl::InvalidArgumentError(
        absl::StrCat("case too large for the oracle: ", quads_.size(),
                     " quads, ", temps_, " temps"));
  }
  groups_.resize(quads_.size());
  threads_.resize(threads);
  const bool canonical = options_.schedule.kind == Schedule::Kind::kCanonical;
  const uint64_t live = canonical ? 4 : threads;
  reg_pool_.resize(live * (kSystemValueCount + size_t{temps_} * 4));
  occurrence_pool_.resize(live * atomic_count_);
  for (uint32_t g = 0; g < quads_.size(); ++g) {
    Group& group = groups_[g];
    group.tgsm.clear();
    group.tgsm_interval = 0;
    group.uav_interval = 0;
    group.first_thread = g * 4;
    group.thread_count = 4;
  }
  return absl::OkStatus();
}

void Execution::StartQuad(uint32_t g) {
  const Group& group = groups_[g];
  const bool canonical = options_.schedule.kind == Schedule::Kind::kCanonical;
  const bool per_sample = isa::RunsPerSample(program_);
  const auto pattern = isa::SamplePattern(case_.draw.samples);
  for (uint32_t k = 0; k < 4; ++k) {
    const PixelLane& lane = quads_[g][k];
    Thread& t = threads_[group.first_thread + k];
    t.id = group.first_thread + k;
    t.group = g;
    t.domain = t.id;  // coherent with itself alone (spec 2.3)
    t.gid = {lane.primitive, 0, 0};
    t.tid = {lane.x, lane.y, lane.sample};
    t.pc = 0;
    t.done = false;
    t.waiting = false;
    t.active = lane.covered;
    t.iterations.clear();
    t.steps = 0;
    t.accesses = 0;
    const size_t live = canonical ? k : group.first_thread + k;
    const size_t values = kSystemValueCount + size_t{temps_} * 4;
    t.values = absl::MakeSpan(reg_pool_).subspan(live * values, values);
    t.regs = t.values.subspan(kSystemValueCount);
    std::memset(static_cast<void*>(t.values.data()), 0,
                t.values.size() * sizeof(Value));
    Value* const sv = t.values.data();
    // SV_Position (P.2): the pixel's centre at pixel frequency. Per sample,
    // the centre or the sample's location (the documents we follow do not
    // settle which), so one of the two: its integer part is the pixel
    // either way.
    for (int c = 0; c < 2; ++c) {
      const float centre = static_cast<float>(c == 0 ? lane.x : lane.y) + 0.5f;
      if (!per_sample) {
        sv[kPositionSlot + c] = Value::Of(FloatBits(centre));
        continue;
      }
      const float at = static_cast<float>(c == 0 ? lane.x : lane.y) +
                       static_cast<float>(pattern[lane.sample][c]) /
                           static_cast<float>(isa::kSubpixelsPerPixel);
      std::vector<uint32_t> both = {FloatBits(centre), FloatBits(at)};
      sv[kPositionSlot + c] = sets_.Of(both, FloatBits(centre));
    }
    sv[kPositionSlot + 2] = Value::Of(FloatBits(0.0f));  // the draw's depth
    sv[kPositionSlot + 3] = Value::Of(FloatBits(1.0f));  // 1/w, w = 1
    sv[kSampleIndexSlot] = Value::Of(lane.sample);
    sv[kPrimitiveIdSlot] = Value::Of(lane.primitive);
    // vCoverage: the pixel's covered samples, for a live lane at pixel
    // frequency; a helper's, or one sample's run's, we leave undefined.
    sv[kCoverageSlot] =
        lane.covered && !per_sample ? Value::Of(lane.coverage) : Value{};
    t.xregs.resize(xsizes_.size());
    for (size_t x = 0; x < xsizes_.size(); ++x) {
      t.xregs[x].assign(size_t{xsizes_[x]} * 4, Value{});
    }
    t.occurrences = absl::MakeSpan(occurrence_pool_)
                        .subspan(live * atomic_count_, atomic_count_);
    std::fill(t.occurrences.begin(), t.occurrences.end(), 0u);
  }
}

void Execution::TrackLoops(Thread& t, Op op, uint32_t here) {
  const bool jumped = t.pc != here + 1;
  switch (op) {
    case Op::kLoop: t.iterations.push_back(0); return;
    case Op::kEndLoop:  // the back edge, always taken
    case Op::kContinue:
    case Op::kContinuecZ:
    case Op::kContinuecNz:
      if ((op == Op::kEndLoop || jumped) && !t.iterations.empty()) {
        ++t.iterations.back();
      }
      return;
    case Op::kBreak:
    case Op::kBreakcZ:
    case Op::kBreakcNz:
      // Out of a loop, not a switch: it lands just past an endloop.
      if (jumped && t.pc > 0 && t.pc <= program_.instructions.size() &&
          program_.instructions[t.pc - 1].op == Op::kEndLoop &&
          !t.iterations.empty()) {
        t.iterations.pop_back();
      }
      return;
    default: return;
  }
}

void Execution::ExecDiscard(Thread& t, const isa::Instruction& inst) {
  // An inactive lane stays inactive whatever its condition: a helper's
  // undefined vCoverage decides nothing here.
  if (!t.active) return;
  const bool nonzero = Condition(t, inst.operands[0]);
  if (nonzero == inst.info().test_nonzero) t.active = false;
}

void Execution::ExecInactiveAtomic(Thread& t, uint32_t index,
                                   const isa::Instruction& inst) {
  ++t.occurrences[decoded_[index].atomic_ordinal];
  if (!inst.info().returns_old()) return;
  const isa::Operand& dst0 = inst.operands[0];
  for (int c = 0; c < 4; ++c) {
    if (dst0.file != RegFile::kNull && (dst0.mask >> c & 1)) {
      Write(t, dst0, c, Value{});
    }
  }
}

bool Execution::MaybeReleaseQuad(uint32_t g) {
  const Group& group = groups_[g];
  std::array<Thread*, 4> quad;
  uint32_t waiting = 0;
  for (uint32_t k = 0; k < 4; ++k) {
    quad[k] = &threads_[group.first_thread + k];
    if (quad[k]->waiting) {
      ++waiting;
    } else if (!quad[k]->done) {
      return false;
    }
  }
  if (waiting == 0) return false;
  // The lanes furthest behind go on; those ahead wait for them, as a quad
  // reconverges after a branch. Together means all four at one
  // instruction in the same iteration of every loop around it; else the
  // quad is in divergent flow, where derivatives are undefined (P.5).
  const Thread* behind = nullptr;
  for (const Thread* t : quad) {
    if (t->waiting && (behind == nullptr || Behind(*t, *behind))) behind = t;
  }
  std::array<bool, 4> released{};
  uint32_t at_behind = 0;
  for (uint32_t k = 0; k < 4; ++k) {
    released[k] = quad[k]->waiting && quad[k]->pc == behind->pc &&
                  quad[k]->iterations == behind->iterations;
    at_behind += released[k];
  }
  const bool together = at_behind == 4;
  // Every lane reads its neighbours' sources before any writes its result
  // (a destination may be a source).
  std::array<std::array<Value, 4>, 4> results{};
  for (uint32_t k = 0; k < 4; ++k) {
    Thread& t = *quad[k];
    if (!released[k]) continue;
    const isa::Instruction& inst = program_.instructions[t.pc];
    if (inst.info().family != isa::Family::kDeriv) continue;  // invalid case
    const isa::Operand& src = inst.operands[1];
    const bool rtx = inst.op == Op::kDerivRtx ||
                     inst.op == Op::kDerivRtxCoarse ||
                     inst.op == Op::kDerivRtxFine;
    const bool fine =
        inst.op == Op::kDerivRtxFine || inst.op == Op::kDerivRtyFine;
    for (int c = 0; c < 4; ++c) {
      if (!together) continue;
      // The pairs the lane's result may come from: its own row (column)
      // for _fine; for _coarse, and the plain form, which may be either,
      // any of the quad's two.
      const int step = rtx ? 1 : 2;
      const int own = rtx ? static_cast<int>(k & 2) : static_cast<int>(k & 1);
      const int other = rtx ? own ^ 2 : own ^ 1;
      auto pair = [&](int first) {
        return ExactDifference(Read(*quad[first], src, c),
                               Read(*quad[first + step], src, c));
      };
      const Value mine = pair(own);
      results[k][c] = fine || pair(other) == mine ? mine : Value::Undefined();
    }
  }
  for (uint32_t k = 0; k < 4; ++k) {
    Thread& t = *quad[k];
    if (!released[k]) continue;
    const isa::Instruction& inst = program_.instructions[t.pc];
    if (inst.info().family == isa::Family::kDeriv) {
      const isa::Operand& dst = inst.operands[0];
      for (int c = 0; c < 4; ++c) {
        if (dst.mask >> c & 1) Write(t, dst, c, results[k][c]);
      }
    }
    t.waiting = false;
    ++t.pc;
    if (t.pc >= program_.instructions.size()) t.done = true;
  }
  return true;
}

}  // namespace atomfuzz::oracle
