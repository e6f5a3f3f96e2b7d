// The pixel stage's frame (docs/pixel-stage.md): the draw, the inputs
// (P.2), the ids the rest of the generator reads from r0, memories sized
// per pixel and addresses from SV_Position, and the input declarations.
#include <algorithm>

#include "fuzz/generate/draw_geometry.h"
#include "fuzz/generate/generator_internal.h"

namespace atomfuzz::fuzz::gen {

using isa::Op;
using isa::Operand;
using isa::RegFile;

namespace {

Operand Input(uint32_t reg, isa::Selection sel, uint8_t mask_or_comp) {
  Operand o;
  o.file = RegFile::kInput;
  o.index = reg;
  o.selection = sel;
  if (sel == isa::Selection::kMask) {
    o.mask = mask_or_comp;
  } else {
    o.swizzle = {mask_or_comp, 0, 0, 0};
  }
  return o;
}

isa::Instruction InputDeclaration(Op op, Operand reg, isa::InputName name) {
  isa::Instruction d;
  d.op = op;
  d.operands = {reg, isa::Number(static_cast<uint32_t>(name))};
  d.interpolation = op == Op::kDclInputPsSiv
                        ? isa::Interpolation::kLinearNoPerspective
                        : isa::Interpolation::kConstant;
  return d;
}

// Typed memories addressed by (x, y): a texel per pixel.
bool IsTwoDimensional(isa::TargetKind k) {
  return k == isa::TargetKind::kUavTexture2D ||
         k == isa::TargetKind::kUavTexture2DArray ||
         k == isa::TargetKind::kUavTexture3D;
}

}  // namespace

void Builder::ChooseDraw() {
  pixel_ = true;
  case_.draw = PickDraw(p_.pixel, c_);
  // The validator knows a [draw] by its header's line; a case built in
  // memory has none, so it gets the first.
  case_.draw_line = 1;
  width_ = (case_.draw.width + 1) & ~1u;
  height_ = (case_.draw.height + 1) & ~1u;
  helpers_ = HasHelperLanes(case_.draw);
  ChooseInputs();
}

// SV_Position always (ids and addresses come from it), on v0 or v1; the
// others on the registers after it.
void Builder::ChooseInputs() {
  const uint32_t triangles = static_cast<uint32_t>(case_.draw.triangles.size());
  position_reg_ = c_.InRange(0, 1);
  static constexpr uint8_t kMasks[] = {0x3, 0x7, 0xf};
  position_mask_ = kMasks[c_.Below(3)];
  uint32_t next = position_reg_ + 1;
  if (c_.PerMille(triangles > 1 ? p_.pixel.primitive_id_multi_per_mille
                                : p_.pixel.primitive_id_per_mille)) {
    primitive_reg_ = next++;
  }
  if (c_.PerMille(p_.pixel.sample_index_per_mille)) {
    sample_reg_ = next++;
    runs_ = case_.draw.samples;
  }
  // Per sample, vCoverage is undefined (P.2): only at pixel frequency.
  coverage_ = !sample_reg_ && c_.PerMille(p_.pixel.coverage_per_mille);
  group_threads_ = width_ * height_ * runs_;
  groups_ = primitive_reg_ ? triangles : 1;
  total_threads_ = group_threads_ * groups_;
}

// A raw UAV of a random word per pixel that nothing writes: a load of it
// is defined in every lane, so discards may depend on it.
void Builder::AddReadOnlyUav() {
  if (!Chance(p_.pixel.read_only_uav_per_mille)) return;
  isa::Resource r;
  r.slot = uav_count_;
  r.kind = isa::ResourceKind::kRaw;
  r.words = width_ * height_;
  r.init.resize(r.words);
  for (uint32_t& w : r.init) w = c_.Word();
  Target t;
  t.slot = r.slot;
  t.extent = {r.words, 1, 1};
  t.byte_coord = 0;
  t.words = r.words;
  t.formula = false;
  t.resource = static_cast<int>(case_.resources.size());
  case_.resources.push_back(std::move(r));
  read_only_ = t;
  output_slot_ = uav_count_ + 1;
}

// A word (raw), a structure (structured) or a texel (typed) per pixel of
// the quads, so that PositionAddress fits.
void Builder::SizePerPixel(isa::Resource& r, Target& t) {
  const uint32_t pixels = width_ * height_;
  switch (r.kind) {
    case isa::ResourceKind::kRaw:
      r.words = pixels;
      t.extent[0] = pixels;
      break;
    case isa::ResourceKind::kStructured:
      r.elements = pixels;
      t.extent[0] = pixels;
      break;
    case isa::ResourceKind::kTyped:
      if (IsTwoDimensional(t.kind)) {
        r.size[0] = width_;
        r.size[1] = height_;
      } else {
        r.size[0] = pixels;
      }
      t.extent = r.size;
      break;
  }
}

// r0 as the register plan says, from ftou(SV_Position) (P.4).
void Builder::PixelPrologue() {
  Operand xy = Input(position_reg_, isa::Selection::kSwizzle, 0);
  xy.swizzle = {kX, kY, kX, kX};
  Operand dst = Dst(kIds, kX);
  dst.mask = 0x3;
  Emit(Op::kFtoU, {dst, xy});
  Emit(Op::kIMad,
       {Dst(kIds, kX), Src(kIds, kY), isa::Imm(width_), Src(kIds, kX)});
  if (primitive_reg_) {
    Emit(Op::kMov,
         {Dst(kIds, kY), Input(*primitive_reg_, isa::Selection::kSelect1, kX)});
    Emit(Op::kIMad, {Dst(kIds, kZ), Src(kIds, kY), isa::Imm(group_threads_),
                     Src(kIds, kX)});
  } else {
    Emit(Op::kMov, {Dst(kIds, kY), isa::Imm(0)});
    Emit(Op::kMov, {Dst(kIds, kZ), Src(kIds, kX)});
  }
  if (sample_reg_) {
    Emit(Op::kIMad,
         {Dst(kIds, kZ), Input(*sample_reg_, isa::Selection::kSelect1, kX),
          isa::Imm(width_ * height_), Src(kIds, kZ)});
  }
}

// By register, as fxc orders them; vCoverage last.
void Builder::PixelInputDeclarations(std::vector<isa::Instruction>& out) const {
  std::vector<isa::Instruction> inputs;
  inputs.push_back(InputDeclaration(
      Op::kDclInputPsSiv,
      Input(position_reg_, isa::Selection::kMask, position_mask_),
      isa::InputName::kPosition));
  if (primitive_reg_) {
    inputs.push_back(InputDeclaration(
        Op::kDclInputPsSgv, Input(*primitive_reg_, isa::Selection::kMask, 1),
        isa::InputName::kPrimitiveId));
  }
  if (sample_reg_) {
    inputs.push_back(InputDeclaration(
        Op::kDclInputPsSgv, Input(*sample_reg_, isa::Selection::kMask, 1),
        isa::InputName::kSampleIndex));
  }
  std::sort(inputs.begin(), inputs.end(),
            [](const isa::Instruction& a, const isa::Instruction& b) {
              return a.operands[0].index < b.operands[0].index;
            });
  for (isa::Instruction& d : inputs) out.push_back(std::move(d));
  if (coverage_) {
    isa::Instruction& d = out.emplace_back();
    d.op = Op::kDclInput;
    Operand o;
    o.file = RegFile::kInputCoverageMask;
    d.operands = {o};
  }
}

Operand Builder::InputComponent(uint32_t reg, uint8_t comp) const {
  return Input(reg, isa::Selection::kSelect1, comp);
}

Operand Builder::Position(uint8_t comp) const {
  return InputComponent(position_reg_, comp);
}

Operand Builder::CoverageMask() const {
  Operand o;
  o.file = RegFile::kInputCoverageMask;
  o.selection = isa::Selection::kSelect1;
  o.swizzle = {0, 0, 0, 0};
  return o;
}

// The compute sources by the same weights: the pixel, the primitive, the
// invocation, or a system value read directly (primitive or sample).
Operand Builder::PixelId() {
  switch (static_cast<IdSource>(Pick(p_.id_source_weights))) {
    case IdSource::kFlat: return Src(kIds, kX);
    case IdSource::kGroup: return Src(kIds, kY);
    case IdSource::kGlobal: return Src(kIds, kZ);
    case IdSource::kSystemValue: break;
  }
  std::vector<uint32_t> regs;
  if (primitive_reg_) regs.push_back(*primitive_reg_);
  if (sample_reg_) regs.push_back(*sample_reg_);
  if (regs.empty()) return Src(kIds, kX);
  return Input(regs[c_.Below(regs.size())], isa::Selection::kSelect1, kX);
}

// The pixel's own element: y * W + x on a linear memory, (x, y) on a 2D
// one, straight from ftou(SV_Position). In bounds for every lane of every
// quad, helpers past an odd edge included.
std::optional<Address> Builder::PositionAddress(const Target& t) {
  if (t.tgsm) return std::nullopt;
  const bool two_d = IsTwoDimensional(t.kind);
  if (two_d ? t.extent[0] < width_ || t.extent[1] < height_
            : t.extent[0] < width_ * height_) {
    return std::nullopt;
  }
  Operand xy = Input(position_reg_, isa::Selection::kSwizzle, 0);
  xy.swizzle = {kX, kY, kX, kX};
  Operand dst = Dst(kAddr, kX);
  dst.mask = 0x3;
  Emit(Op::kFtoU, {dst, xy});
  if (!two_d) {
    Emit(Op::kIMad,
         {Dst(kAddr, kX), Src(kAddr, kY), isa::Imm(width_), Src(kAddr, kX)});
  }
  Address a;
  a.in_bounds = true;
  a.index = Src(kAddr, kX);
  a.offset = Src(kAddr, kY);
  if (t.byte_coord == 0) {  // raw: bytes
    Emit(Op::kIShl, {Dst(kAddr, kX), Src(kAddr, kX), isa::Imm(2)});
  } else if (t.structured()) {
    Emit(Op::kMov,
         {Dst(kAddr, kY), isa::Imm(4 * c_.InRange(0, t.stride_words() - 1))});
  } else if (t.coords == 3) {  // a slice of an array, or a depth
    Emit(Op::kMov, {Dst(kAddr, kZ), isa::Imm(c_.InRange(0, t.extent[2] - 1))});
  } else if (t.coords == 2 && !two_d) {  // a 1D array's slice
    Emit(Op::kMov, {Dst(kAddr, kY), isa::Imm(c_.InRange(0, t.extent[1] - 1))});
  }
  switch (t.coords) {
    case 1: a.operand = Src(kAddr, kX); break;
    case 2: a.operand = Swizzle(kAddr, {kX, kY, kX, kX}); break;
    default: a.operand = Swizzle(kAddr, {kX, kY, kZ, kX}); break;
  }
  return a;
}

}  // namespace atomfuzz::fuzz::gen
