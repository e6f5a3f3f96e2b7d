#include "targets/fast/wave.h"

#include <algorithm>
#include <bit>

namespace atomfuzz::targets::fast {

Frame& Wave::Push(Frame::Kind kind) {
  if (depth == frames.size()) frames.emplace_back();
  Frame& f = frames[depth++];
  f.kind = kind;
  // One pass over the four masks, not four assign calls: each call cost
  // more than a small group's lanes.
  for (Mask* m : {&f.parent, &f.broken, &f.continued, &f.taken})
    Ensure(*m, lanes);
  const uint32_t* const entering = active.data();
  uint32_t* const parent = f.parent.data();
  uint32_t* const broken = f.broken.data();
  uint32_t* const continued = f.continued.data();
  uint32_t* const taken = f.taken.data();
  for (uint32_t l = 0; l < lanes; ++l) {
    parent[l] = entering[l];
    broken[l] = continued[l] = taken[l] = 0;
  }
  return f;
}

void Wave::Restore(const Mask& parent) {
  // Innermost loop's continued lanes and innermost breakable's broken lanes
  // stay off until their block ends; returned lanes stay off for good.
  const Mask* continued = nullptr;
  const Mask* broken = nullptr;
  for (size_t i = depth; i-- > 0;) {
    const Frame& f = frames[i];
    if (!broken &&
        (f.kind == Frame::Kind::kLoop || f.kind == Frame::Kind::kSwitch)) {
      broken = &f.broken;
    }
    if (!continued && f.kind == Frame::Kind::kLoop) continued = &f.continued;
    if (broken && continued) break;
  }
  for (uint32_t l = 0; l < lanes; ++l) {
    uint32_t off = returned[l];
    if (broken) off |= (*broken)[l];
    if (continued) off |= (*continued)[l];
    active[l] = parent[l] & ~off;
  }
}

namespace {
void FillWholeGroup(Wave& w, uint64_t group);

// v = n copies of value, inline: assign's out-of-line call cost more than
// a small group's lanes.
template <class T>
void Refill(std::vector<T>& v, size_t n, T value) {
  Ensure(v, n);
  std::fill_n(v.data(), n, value);
}
void FillLanes(Wave& w, uint64_t first, uint64_t per_group);
void FillPixelLanes(Wave& w, uint64_t first);
bool Execute(Wave& w, uint64_t max_steps);
}  // namespace

bool RunWave(Wave& w, uint64_t first, uint64_t max_steps) {
  const CompiledCase& cc = *w.cc;
  const uint32_t L = w.lanes;
  // Constant slots are never written (destinations are temps, x#, scratch
  // or the zero slot), so a run's waves of one width fill them once; every
  // slot below them starts each wave at 0.
  if (w.constant_lanes != L) {
    Ensure(w.regs, size_t{cc.slots} * L);
    for (const auto& [slot, value] : cc.constants) {
      std::fill_n(w.Slot(slot), L, value);
    }
    w.constant_lanes = L;
  }
  std::fill_n(w.regs.data(), size_t{cc.constant_base} * L, 0u);
  Refill(w.active, L, ~0u);
  Refill(w.returned, L, 0u);
  Ensure(w.scratch, size_t{8} * L);  // written before read: not cleared
  w.depth = 0;
  w.pc = 0;
  w.stop = false;
  w.over_budget = false;
  Refill(w.iterations, L, uint64_t{0});
  Ensure(w.lane_gid, L);
  Ensure(w.lane_tid, L);
  if (w.trace != nullptr) Refill(w.occurrences, size_t{cc.atomics} * L, 0u);
  if (cc.pixel) {
    FillPixelLanes(w, first);
    return Execute(w, max_steps);
  }
  const auto& gs = cc.group_size;
  const uint64_t per_group = uint64_t{gs[0]} * gs[1] * gs[2];
  if (first % per_group == 0 && L == per_group) {
    FillWholeGroup(w, first / per_group);
  } else {
    FillLanes(w, first, per_group);
  }
  return Execute(w, max_steps);
}

namespace {

std::array<uint32_t, 3> GroupId(const CompiledCase& cc, uint64_t g) {
  return {static_cast<uint32_t>(g % cc.groups[0]),
          static_cast<uint32_t>(g / cc.groups[0] % cc.groups[1]),
          static_cast<uint32_t>(g / cc.groups[0] / cc.groups[1])};
}

// Where a wave's system values live, resolved once per wave: a store
// through uint32_t* may alias the case's slot numbers, and setting each
// lane reloaded and multiplied them all.
struct SystemValues {
  uint32_t* thread_id[3];
  uint32_t* group_id[3];
  uint32_t* thread_in_group[3];
  uint32_t* flattened;
  std::array<uint32_t, 3> group_size;
  std::array<uint32_t, 3>* lane_gid;
  std::array<uint32_t, 3>* lane_tid;

  explicit SystemValues(Wave& w) {
    const CompiledCase& cc = *w.cc;
    for (uint32_t c = 0; c < 3; ++c) {
      thread_id[c] = w.Slot(cc.sv_thread_id + c);
      group_id[c] = w.Slot(cc.sv_group_id + c);
      thread_in_group[c] = w.Slot(cc.sv_thread_in_group + c);
    }
    flattened = w.Slot(cc.sv_flattened);
    group_size = cc.group_size;
    lane_gid = w.lane_gid.data();
    lane_tid = w.lane_tid.data();
  }

  // Lane l is thread `tid` (flattened `flat`) of the group with id `gid`.
  void SetLane(uint32_t l, const std::array<uint32_t, 3>& gid,
               const std::array<uint32_t, 3>& tid, uint32_t flat) const {
    lane_gid[l] = gid;
    lane_tid[l] = tid;
    for (size_t c = 0; c < 3; ++c) {
      thread_id[c][l] = gid[c] * group_size[c] + tid[c];
      group_id[c][l] = gid[c];
      thread_in_group[c][l] = tid[c];
    }
    flattened[l] = flat;
  }
};

// The usual wave is one whole group: its ids by counting, no division per
// lane (the divisions were half of a small case's setup).
void FillWholeGroup(Wave& w, uint64_t g) {
  const SystemValues sv(w);
  const auto& gs = sv.group_size;
  const std::array<uint32_t, 3> gid = GroupId(*w.cc, g);
  uint32_t l = 0;
  for (uint32_t z = 0; z < gs[2]; ++z) {
    for (uint32_t y = 0; y < gs[1]; ++y) {
      for (uint32_t x = 0; x < gs[0]; ++x, ++l)
        sv.SetLane(l, gid, {x, y, z}, l);
    }
  }
}

// Any run of consecutive threads (the injected timing bugs' waves).
void FillLanes(Wave& w, uint64_t first, uint64_t per_group) {
  const SystemValues sv(w);
  const auto& gs = sv.group_size;
  for (uint32_t l = 0; l < w.lanes; ++l) {
    const uint64_t t = first + l;
    const uint64_t g = t / per_group, k = t % per_group;
    const std::array<uint32_t, 3> tid = {
        static_cast<uint32_t>(k % gs[0]),
        static_cast<uint32_t>(k / gs[0] % gs[1]),
        static_cast<uint32_t>(k / gs[0] / gs[1])};
    sv.SetLane(l, GroupId(*w.cc, g), tid, static_cast<uint32_t>(k));
  }
}

// Pixel lanes: their inputs (docs/pixel-stage.md P.2) and whether each is
// a helper. SV_Position is the pixel centre here, also per sample (the
// oracle allows that or the sample's location).
void FillPixelLanes(Wave& w, uint64_t first) {
  const CompiledCase& cc = *w.cc;
  Ensure(w.covered, w.lanes);
  Refill(w.discarded, w.lanes, 0u);
  uint32_t* const pos[4] = {w.Slot(cc.sv_position), w.Slot(cc.sv_position + 1),
                            w.Slot(cc.sv_position + 2),
                            w.Slot(cc.sv_position + 3)};
  uint32_t* const sample = w.Slot(cc.sv_sample);
  uint32_t* const primitive = w.Slot(cc.sv_primitive);
  uint32_t* const coverage = w.Slot(cc.sv_coverage);
  const bool per_sample = cc.per_sample;
  for (uint32_t l = 0; l < w.lanes; ++l) {
    const PixelLaneInfo& p = cc.pixel_lanes[first + l];
    w.covered[l] = p.covered ? ~0u : 0u;
    w.lane_gid[l] = {p.primitive, 0, 0};
    w.lane_tid[l] = {p.x, p.y, p.sample};
    pos[0][l] = std::bit_cast<uint32_t>(static_cast<float>(p.x) + 0.5f);
    pos[1][l] = std::bit_cast<uint32_t>(static_cast<float>(p.y) + 0.5f);
    pos[2][l] = 0;            // 0.0f: the draw's depth
    pos[3][l] = 0x3f800000u;  // 1.0f: 1/w
    sample[l] = p.sample;
    primitive[l] = p.primitive;
    coverage[l] = per_sample ? 1u << p.sample : p.coverage;
  }
}

bool Execute(Wave& w, uint64_t max_steps) {
  const CompiledCase& cc = *w.cc;
  const Decoded* const code = cc.code.data();
  const uint32_t n = static_cast<uint32_t>(cc.code.size());
  uint64_t steps = 0;
  while (w.pc < n) {
    const Decoded& d = code[w.pc++];
    d.fn(w, d);
    if (++steps > max_steps) return false;
    if (w.stop) return !w.over_budget && !w.TraceFull();
  }
  return true;
}

}  // namespace
}  // namespace atomfuzz::targets::fast
