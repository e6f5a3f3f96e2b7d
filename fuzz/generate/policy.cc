#include "fuzz/generate/policy.h"

#include <functional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace atomfuzz::fuzz {
namespace {

// Per family, so that a new row of the table gets a sensible weight without
// an edit here (style guide 7.1: no switch on op outside the table).
uint32_t FamilyWeight(isa::Family f) {
  switch (f) {
    case isa::Family::kAtomic:
    case isa::Family::kImmAtomic:
    case isa::Family::kCounter:
    case isa::Family::kLoad:
    case isa::Family::kStore: return 10;
    case isa::Family::kAlu: return 4;
    case isa::Family::kControl:
    case isa::Family::kSync: return 1;
    case isa::Family::kDecl:
    case isa::Family::kDiscard:  // pixel only: the pixel preset weighs them
    case isa::Family::kDeriv: return 0;
  }
  return 0;
}

template <typename E, size_t N>
void Set(std::array<uint32_t, N>& w, E e, uint32_t v) {
  w[static_cast<size_t>(e)] = v;
}

// Order-independent values only: every thread adds, ands, ors the same
// constant, exchanges the same few values. The judge cannot read orders off
// the returns and has to search for them.
Policy Untraceable() {
  Policy p;
  p.name = "untraceable";
  p.traceable = false;
  Set(p.value_weights, ValueClass::kTraceable, 0);
  Set(p.value_weights, ValueClass::kThreadLinear, 0);
  Set(p.value_weights, ValueClass::kConstant, 60);
  Set(p.comparand_weights, ComparandClass::kChain, 0);
  Set(p.aliasing_weights, Aliasing::kAllThreadsOneWord, 50);
  return p;
}

// Shared memory: several groups, g# of both kinds, barriers (E-21..E-23,
// E-27, E-28).
Policy Tgsm() {
  Policy p;
  p.name = "tgsm";
  p.memory_weights = {10, 5, 2, 1, 1, 2, 2, 2, 40, 35};
  p.max_tgsm = 3;
  p.max_memories = 4;
  Set(p.statement_weights, StatementKind::kSync, 14);
  Set(p.statement_weights, StatementKind::kLoad, 10);
  p.sync_weights = {6, 1, 1, 2, 2, 14, 2, 2, 4, 4};
  return p;
}

// Hidden counters: alloc and consume from both ends of the range (E-36),
// indices used to append (E-37 keeps alloc and consume apart).
Policy Counters() {
  Policy p;
  p.name = "counters";
  p.memory_weights = {10, 60, 2, 1, 1, 2, 2, 2, 5, 5};
  p.counter_per_mille = 900;
  p.counter_wrap_per_mille = 700;
  for (const isa::OpcodeInfo& row : isa::AllOpcodes()) {
    if (row.family == isa::Family::kCounter) {
      p.op_weights[static_cast<size_t>(row.op)] = 60;
    }
  }
  p.append_store_per_mille = 700;
  return p;
}

// Addresses at and past the ends of every memory (E-12..E-20).
Policy Bounds() {
  Policy p;
  p.name = "bounds";
  p.memory_weights = {25, 25, 10, 8, 8, 10, 10, 10, 6, 6};
  p.uav_address_weights = {200, 150, 150, 80, 100, 30, 30, 40};
  p.tgsm_address_weights = {600, 150, 20, 10, 10, 10, 10, 40};
  p.immediate_address_per_mille = 500;
  Set(p.statement_weights, StatementKind::kLoad, 12);
  Set(p.statement_weights, StatementKind::kStore, 8);
  return p;
}

// Atomics in divergent control flow, deeper nests, more loop trips.
Policy Control() {
  Policy p;
  p.name = "control";
  p.max_depth = 3;
  p.max_block_statements = 4;
  p.max_loop_iterations = 4;
  p.statement_weights = {50, 6, 6, 4, 14, 10, 8, 8};
  p.divergent_condition_per_mille = 850;
  p.divergent_loop_per_mille = 600;
  return p;
}

// Full-size dispatches only, and larger: many threads and groups on few
// words (E-25, E-26) at the cost of cases per second.
Policy Wide() {
  Policy p;
  p.name = "wide";
  p.small_dispatch_per_mille = 0;
  p.max_groups = 8;
  p.max_group_threads = 64;
  return p;
}

// ps_5_0 draws (docs/pixel-stage.md): UAVs only (no g#, no sync), atomics
// before and after discards, derivatives of SV_Position, helper lanes.
Policy Pixel() {
  Policy p;
  p.name = "pixel";
  p.stage = isa::Stage::kPixel;
  Set(p.memory_weights, isa::TargetKind::kTgsmRaw, 0);
  Set(p.memory_weights, isa::TargetKind::kTgsmStructured, 0);
  p.max_tgsm = 0;
  p.counter_per_mille = 150;
  p.max_raw_words = 64;
  for (const isa::OpcodeInfo& row : isa::AllOpcodes()) {
    if (row.family == isa::Family::kDiscard ||
        row.family == isa::Family::kDeriv) {
      p.op_weights[static_cast<size_t>(row.op)] = 4;
    }
  }
  return p;
}

using Preset = std::pair<absl::string_view, std::function<Policy()>>;

const std::vector<Preset>& Presets() {
  static const auto* const kPresets = new std::vector<Preset>{
      {"default", [] { return Policy{}; }},
      {"untraceable", Untraceable},
      {"tgsm", Tgsm},
      {"counters", Counters},
      {"bounds", Bounds},
      {"control", Control},
      {"wide", Wide},
      {"pixel", Pixel},
  };
  return *kPresets;
}

}  // namespace

std::array<uint32_t, isa::kOpCount> DefaultOpWeights() {
  std::array<uint32_t, isa::kOpCount> w{};
  for (const isa::OpcodeInfo& row : isa::AllOpcodes()) {
    w[static_cast<size_t>(row.op)] = FamilyWeight(row.family);
  }
  // ftoi and ftou exist to turn SV_Position into an address (P.4), and the
  // pixel generator emits them where it does; on the generator's integer
  // values they only reinterpret bits. Weighted as ALU rows they changed
  // the case of every compute seed with an ALU statement (GoldenCases).
  for (isa::Op op : {isa::Op::kFtoI, isa::Op::kFtoU}) {
    w[static_cast<size_t>(op)] = 0;
  }
  return w;
}

std::vector<std::string> PolicyNames() {
  std::vector<std::string> names;
  for (const Preset& p : Presets()) names.emplace_back(p.first);
  return names;
}

void WithoutOps(Policy& policy, const std::vector<isa::Op>& ops) {
  for (isa::Op op : ops) policy.op_weights[static_cast<size_t>(op)] = 0;
}

void WithoutSyncs(Policy& policy, const std::vector<uint8_t>& variants) {
  for (size_t i = 0; i < kSyncVariants.size(); ++i) {
    for (uint8_t v : variants) {
      if (kSyncVariants[i] == v) policy.sync_weights[i] = 0;
    }
  }
}

absl::StatusOr<Policy> PolicyByName(absl::string_view name) {
  for (const Preset& p : Presets()) {
    if (p.first == name) return p.second();
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown policy '", name,
                   "'; known: ", absl::StrJoin(PolicyNames(), ", ")));
}

}  // namespace atomfuzz::fuzz
