// The generator's phases (YARPGen's split, style guide 5): the shape of the
// dispatch and its memories first, then the program over them, then the
// declarations and resources that make it a valid case.
#include "fuzz/generate/generator.h"

#include <algorithm>
#include <bit>
#include <utility>

#include "absl/strings/str_cat.h"
#include "fuzz/generate/generator_internal.h"

namespace atomfuzz::fuzz {
namespace gen {

using isa::Instruction;
using isa::Op;
using isa::Operand;
using isa::RegFile;

uint32_t FloorPow2(uint32_t n) { return n == 0 ? 1 : std::bit_floor(n); }
int Log2(uint32_t pow2) { return std::countr_zero(pow2); }

Operand Swizzle(uint32_t reg, std::array<uint8_t, 4> swizzle) {
  return isa::TempSwizzle(reg, swizzle);
}

namespace {

// Built in place at the end of `code`: each move of an Instruction copies
// its inline operands.
Instruction& Append(std::vector<Instruction>& code, Op op,
                    absl::Span<const Operand> operands) {
  Instruction& inst = code.emplace_back();
  inst.op = op;
  // push_back's fast path; absl's assign() is generic and several times dearer.
  for (const Operand& o : operands) inst.operands.push_back(o);
  return inst;
}

}  // namespace

void Builder::Emit(Op op, absl::Span<const Operand> operands,
                   uint8_t sync_flags) {
  Append(code_, op, operands).sync_flags = sync_flags;
}

Op Builder::PickOp(std::initializer_list<Op> ops) {
  std::array<uint32_t, 8> w{};
  size_t n = 0;
  for (Op op : ops) w[n++] = p_.op_weights[static_cast<size_t>(op)];
  return ops.begin()[c_.Weighted(absl::MakeConstSpan(w.data(), n))];
}

// A fresh result register component, its component drawn by the policy
// (dst0 other than .x, E-9); reuses an old one when all are taken. -1 when
// there is none to use (dst0 is then null).
int Builder::NewResult() {
  if (p_.max_results == 0) return -1;
  const uint32_t regs_per_comp = (p_.max_results + 3) / 4;
  std::array<uint32_t, 4> w = p_.dst0_component_weights;
  for (size_t k = 0; k < 4; ++k) {
    if (result_regs_used_[k] >= regs_per_comp) w[k] = 0;
  }
  if (w == std::array<uint32_t, 4>{} || results_.size() >= p_.max_results) {
    if (results_.empty()) {
      w = {1, 0, 0, 0};  // the policy's component weights are all 0
    } else {
      // Inside a loop a safe slot may form an address earlier in the body,
      // which the next iteration reads after this write: leave those.
      std::vector<size_t> pool;
      for (size_t k = 0; k < results_.size(); ++k) {
        if (loop_depth_ == 0 || !results_[k].safe) pool.push_back(k);
      }
      if (pool.empty()) return -1;
      const size_t k = pool[c_.Below(pool.size())];
      results_[k].safe = false;  // holds one of two values now
      return static_cast<int>(k);
    }
  }
  const auto comp = static_cast<uint8_t>(c_.Weighted(w));
  results_.push_back({kFirstResult + result_regs_used_[comp]++, comp, false});
  return static_cast<int>(results_.size() - 1);
}

// The generator's version only: callers add the seed and the policy's name
// (cli gen, the campaign), which the generator does not know or would repeat.
void Builder::Metadata() {
  case_.metadata.emplace_back("generator", absl::StrCat(kGeneratorVersion));
}

// The UAVs' declarations, by slot (resources are sorted by then).
void Builder::DeclareUavs(std::vector<Instruction>& out) const {
  for (const isa::Resource& r : case_.resources) {
    const auto t = std::find_if(
        targets_.begin(), targets_.end(),
        [&](const Target& t) { return !t.tgsm && t.slot == r.slot; });
    Instruction* d = nullptr;
    switch (r.kind) {
      case isa::ResourceKind::kRaw:
        d = &Append(out, Op::kDclUavRaw, {isa::Uav(r.slot)});
        break;
      case isa::ResourceKind::kStructured:
        d = &Append(out, Op::kDclUavStructured,
                    {isa::Uav(r.slot), isa::Number(r.stride)});
        break;
      case isa::ResourceKind::kTyped:
        d = &Append(out, Op::kDclUavTyped, {isa::Uav(r.slot)});
        d->dim = r.dim;
        d->types.fill(r.format == isa::Format::kR32Sint
                          ? isa::ReturnType::kSint
                          : isa::ReturnType::kUint);
        break;
    }
    if (t != targets_.end()) {
      d->glc = t->glc;
      d->opc = t->opc;  // only set where the view has a counter (spec 1.6)
    }
  }
}

// Declarations in fxc's order (spec 3.1): flags, UAVs, inputs, temps, g#,
// thread group.
std::vector<Instruction> Builder::Declarations() const {
  std::vector<Instruction> out;
  // Room for every declaration and the program Build appends after them.
  out.reserve(7 + case_.resources.size() + targets_.size() + code_.size());
  Append(out, Op::kDclGlobalFlags, {}).global_flags = isa::kRefactoringAllowed;
  DeclareUavs(out);
  const auto temps = [&] {
    return isa::Number(
        kFirstResult +
        std::max<uint32_t>(1, *std::max_element(result_regs_used_.begin(),
                                                result_regs_used_.end())));
  };
  if (pixel_) {
    PixelInputDeclarations(out);
    Append(out, Op::kDclTemps, {temps()});
    return out;
  }
  for (RegFile f : {RegFile::kThreadID, RegFile::kThreadGroupID,
                    RegFile::kThreadIDInGroup}) {
    Operand o;
    o.file = f;
    o.selection = isa::Selection::kMask;
    o.mask = 0x7;
    Append(out, Op::kDclInput, {o});
  }
  Operand flat;
  flat.file = RegFile::kThreadIDInGroupFlattened;
  Append(out, Op::kDclInput, {flat});
  Append(out, Op::kDclTemps, {temps()});
  for (const Target& t : targets_) {
    if (!t.tgsm) continue;
    if (t.kind == isa::TargetKind::kTgsmRaw) {
      Append(out, Op::kDclTgsmRaw,
             {isa::Tgsm(t.slot), isa::Number(4 * t.words)});
    } else {
      Append(out, Op::kDclTgsmStructured,
             {isa::Tgsm(t.slot), isa::Number(4 * t.stride_words()),
              isa::Number(t.extent[0])});
    }
  }
  Append(out, Op::kDclThreadGroup,
         {isa::Number(group_size_[0]), isa::Number(group_size_[1]),
          isa::Number(group_size_[2])});
  return out;
}

namespace {

// The code is built in a buffer kept per thread: its instructions move out
// into the case, and its capacity (128 instructions, 28 KiB, which most
// programs fit) serves the next case instead of being allocated anew.
std::vector<Instruction>& CodeBuffer() {
  thread_local std::vector<Instruction> buffer;
  return buffer;
}

}  // namespace

isa::Case Builder::Build() {
  code_.swap(CodeBuffer());
  code_.clear();
  code_.reserve(128);          // most programs fit: no copies as the code grows
  case_.resources.reserve(8);  // the same for the UAVs
  if (p_.stage == isa::Stage::kPixel) {
    ChooseDraw();  // the framebuffer sizes the per-pixel memories
    ChooseMemories();
    PixelPrologue();
  } else {
    ChooseDispatch();
    ChooseMemories();
    Prologue();
    FillTgsm();
  }
  Block(0, c_.InRange(1, p_.max_statements));
  // g# reaches the judge only through a UAV (spec 1.1); returned values
  // also through the trace, but the registers only through memory.
  if (Chance(p_.copy_tgsm_per_mille)) CopyTgsm();
  if (Chance(p_.store_results_per_mille)) StoreResults();
  Emit(Op::kRet, {});
  AddOutputUav();
  std::sort(case_.resources.begin(), case_.resources.end(),
            [](const isa::Resource& a, const isa::Resource& b) {
              return a.slot < b.slot;
            });
  std::vector<Instruction> all = Declarations();
  all.reserve(all.size() + code_.size());
  all.insert(all.end(), std::make_move_iterator(code_.begin()),
             std::make_move_iterator(code_.end()));
  case_.shader.instructions = std::move(all);
  case_.shader.stage = p_.stage;
  code_.clear();
  code_.swap(CodeBuffer());
  Metadata();
  return std::move(case_);
}

}  // namespace gen

isa::Case GenerateCase(Choices& choices, const Policy& policy) {
  return gen::Builder(choices, policy).Build();
}

}  // namespace atomfuzz::fuzz
