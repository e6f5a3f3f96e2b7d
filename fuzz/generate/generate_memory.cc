// The dispatch and the memories: its shape (spec 1.8), target UAVs of every
// kind with their views and hidden counters (1.2, 1.6), g# of both kinds,
// and initial contents chosen so that comparands can match them.
#include <algorithm>

#include "fuzz/generate/generator_internal.h"

namespace atomfuzz::fuzz::gen {

using isa::TargetKind;

namespace {

// x * y * z <= n, each >= 1, z <= 64 (spec 1.8).
std::array<uint32_t, 3> Split(Choices& c, uint32_t n) {
  const uint32_t x = c.InRange(1, n);
  const uint32_t y = c.InRange(1, n / x);
  const uint32_t z = c.InRange(1, std::min<uint32_t>(64, n / (x * y)));
  return {x, y, z};
}

isa::Dim DimOf(TargetKind k) {
  switch (k) {
    case TargetKind::kUavTexture1D: return isa::Dim::kTexture1D;
    case TargetKind::kUavTexture1DArray: return isa::Dim::kTexture1DArray;
    case TargetKind::kUavTexture2D: return isa::Dim::kTexture2D;
    case TargetKind::kUavTexture2DArray: return isa::Dim::kTexture2DArray;
    case TargetKind::kUavTexture3D: return isa::Dim::kTexture3D;
    default: return isa::Dim::kBuffer;
  }
}

bool IsTgsm(TargetKind k) {
  return k == TargetKind::kTgsmRaw || k == TargetKind::kTgsmStructured;
}

}  // namespace

void Builder::ChooseDispatch() {
  const bool small = Chance(p_.small_dispatch_per_mille);
  const uint32_t groups = c_.InRange(
      1,
      std::clamp<uint32_t>(
          small ? std::min(p_.small_max_groups, p_.max_groups) : p_.max_groups,
          1, 65535));
  case_.groups = Chance(p_.multi_dim_groups_per_mille)
                     ? Split(c_, groups)
                     : std::array<uint32_t, 3>{groups, 1, 1};
  const uint32_t max_threads = std::clamp<uint32_t>(
      small ? std::min(p_.small_max_group_threads, p_.max_group_threads)
            : p_.max_group_threads,
      1, 1024);
  const uint32_t threads =
      Chance(p_.pow2_threads_per_mille)
          ? 1u << c_.InRange(
                0, static_cast<uint32_t>(Log2(FloorPow2(max_threads))))
          : c_.InRange(1, max_threads);
  group_size_ = Chance(p_.multi_dim_threads_per_mille)
                    ? Split(c_, threads)
                    : std::array<uint32_t, 3>{threads, 1, 1};
  group_threads_ = group_size_[0] * group_size_[1] * group_size_[2];
  groups_ = case_.groups[0] * case_.groups[1] * case_.groups[2];
  total_threads_ = group_threads_ * groups_;
}

void Builder::ChooseMemories() {
  // u0..u62 for targets, one slot left for the output (spec 1.1: u63).
  const uint32_t n =
      c_.InRange(1, std::clamp<uint32_t>(p_.max_memories, 1, 63));
  uint32_t tgsm = 0;
  for (uint32_t i = 0; i < n; ++i) {
    std::array<uint32_t, isa::kTargetKindCount> w = p_.memory_weights;
    if (tgsm >= std::min<uint32_t>(p_.max_tgsm, 8)) {
      w[static_cast<size_t>(TargetKind::kTgsmRaw)] = 0;
      w[static_cast<size_t>(TargetKind::kTgsmStructured)] = 0;
    }
    const auto kind = static_cast<TargetKind>(Pick(w));
    if (IsTgsm(kind)) {
      AddTgsm(kind, tgsm++);
    } else {
      AddUav(kind, uav_count_++);
    }
  }
  output_slot_ = uav_count_;
  if (pixel_) AddReadOnlyUav();
}

void Builder::AddUav(TargetKind kind, uint32_t slot) {
  isa::Resource r;
  r.slot = slot;
  Target t;
  t.kind = kind;
  t.slot = slot;
  switch (kind) {
    case TargetKind::kUavRaw:
      r.kind = isa::ResourceKind::kRaw;
      r.words =
          c_.InRange(1, std::clamp<uint32_t>(p_.max_raw_words, 1, 1u << 20));
      t.extent = {r.words, 1, 1};
      t.byte_coord = 0;
      break;
    case TargetKind::kUavStructured: {
      r.kind = isa::ResourceKind::kStructured;
      const uint32_t s =
          c_.InRange(1, std::clamp<uint32_t>(p_.max_stride_words, 1, 512));
      r.stride = 4 * s;
      r.elements =
          c_.InRange(1, std::clamp<uint32_t>(p_.max_elements, 1, 4096));
      t.coords = 2;
      t.extent = {r.elements, s, 1};
      t.byte_coord = 1;
      if (Chance(p_.counter_per_mille)) {
        t.counter = Chance(p_.consume_per_mille) ? isa::Rmw::kConsume
                                                 : isa::Rmw::kAlloc;
        r.counter = CounterInit(*t.counter);
        t.opc = Chance(p_.opc_per_mille);
      }
      break;
    }
    default:
      r.kind = isa::ResourceKind::kTyped;
      r.dim = DimOf(kind);
      r.format = Chance(p_.sint_per_mille) ? isa::Format::kR32Sint
                                           : isa::Format::kR32Uint;
      t.coords = isa::TypedAddressWidth(r.dim);
      for (int i = 0; i < t.coords; ++i) {
        // 128^3 words stay below the case format's 2^22 (case_file.h).
        r.size[static_cast<size_t>(i)] =
            c_.InRange(1, std::clamp<uint32_t>(
                              p_.max_extent[static_cast<size_t>(i)], 1, 128));
      }
      t.extent = r.size;
      break;
  }
  if (pixel_ && Chance(p_.pixel.per_pixel_uav_per_mille)) SizePerPixel(r, t);
  t.glc = Chance(p_.glc_per_mille);
  t.words = static_cast<uint32_t>(r.WordCount());
  FillInit(r, t);
  t.resource = static_cast<int>(case_.resources.size());
  case_.resources.push_back(std::move(r));
  targets_.push_back(t);
}

void Builder::AddTgsm(TargetKind kind, uint32_t slot) {
  Target t;
  t.kind = kind;
  t.tgsm = true;
  t.slot = slot;
  // The 32 KiB of spec 1.8 shared by at most 8 g#: 1024 words each.
  if (kind == TargetKind::kTgsmRaw) {
    t.extent = {c_.InRange(1, std::clamp<uint32_t>(p_.max_tgsm_words, 1, 1024)),
                1, 1};
    t.byte_coord = 0;
  } else {
    const uint32_t s =
        c_.InRange(1, std::clamp<uint32_t>(p_.max_stride_words, 1, 32));
    t.extent = {
        c_.InRange(1, std::clamp<uint32_t>(p_.max_tgsm_elements, 1, 1024 / s)),
        s, 1};
    t.coords = 2;
    t.byte_coord = 1;
  }
  t.words = t.extent[0] * t.extent[1];
  // The program stores g#'s contents, so they are always a formula.
  switch (static_cast<InitClass>(Pick(p_.init_weights))) {
    case InitClass::kZero: break;
    case InitClass::kConstant: t.init_base = InterestingValue(); break;
    case InitClass::kRandom:
      t.init_base = c_.Word();
      t.init_step = c_.InRange(1, std::max<uint32_t>(1, p_.max_ramp_step));
      break;
    default:
      t.init_base = InterestingValue();
      t.init_step = c_.InRange(1, std::max<uint32_t>(1, p_.max_ramp_step));
      break;
  }
  targets_.push_back(t);
}

void Builder::FillInit(isa::Resource& r, Target& t) {
  r.init.assign(t.words, 0);
  switch (static_cast<InitClass>(Pick(p_.init_weights))) {
    case InitClass::kZero: return;
    case InitClass::kRamp:
      t.init_base = InterestingValue();
      t.init_step = c_.InRange(1, std::max<uint32_t>(1, p_.max_ramp_step));
      break;
    case InitClass::kConstant: t.init_base = InterestingValue(); break;
    case InitClass::kInteresting:
      t.formula = false;
      for (uint32_t& w : r.init) w = InterestingValue();
      return;
    case InitClass::kRandom:
      t.formula = false;
      for (uint32_t& w : r.init) w = c_.Word();
      return;
  }
  for (uint32_t i = 0; i < t.words; ++i)
    r.init[i] = t.init_base + t.init_step * i;
}

// E-36: consume from near 0 and alloc from near 0xffffffff wrap.
uint32_t Builder::CounterInit(isa::Rmw op) {
  if (!Chance(p_.counter_wrap_per_mille)) {
    return c_.InRange(0, 2 * std::max<uint32_t>(1, p_.max_group_threads));
  }
  const uint32_t k = c_.InRange(0, 2);
  return op == isa::Rmw::kConsume ? k : 0xffffffffu - k;
}

void Builder::AddOutputUav() {
  if (output_words_ == 0) return;
  isa::Resource r;
  r.slot = output_slot_;
  r.kind = isa::ResourceKind::kRaw;
  r.words = output_words_;
  r.init.assign(output_words_, 0);
  case_.resources.push_back(std::move(r));
}

}  // namespace atomfuzz::fuzz::gen
