#include "targets/case_batch.h"

#include <algorithm>
#include <bit>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "isa/assembler.h"
#include "isa/validator.h"

namespace atomfuzz::targets {
namespace {

using isa::Instruction;
using isa::Op;
using isa::RegFile;

// Instructions of the leaf's prologue and of one tree node, at most.
constexpr uint32_t kLeafInstructions = 6;
constexpr uint32_t kNodeInstructions = 4;

// What the builder needs to know of one case, in one pass.
struct Shape {
  std::optional<BatchKey> key;
  std::array<uint32_t, 3> groups = {0, 0, 0};  // all 0 when nothing runs
  uint32_t temps = 0, indexable = 0, code = 0, depth = 0, memory_ops = 0,
           barriers = 0;
  uint32_t first_code = 0;
  uint32_t descriptors = 0;
  uint64_t words = 0;
};

Shape ShapeOf(const isa::Case& c) {
  Shape s;
  s.key = BatchKeyOf(c);
  const auto& code = c.shader.instructions;
  s.first_code = static_cast<uint32_t>(code.size());
  uint32_t depth = 0;
  for (size_t i = 0; i < code.size(); ++i) {
    const Instruction& in = code[i];
    if (in.info().family == isa::Family::kDecl) {
      if (in.op == Op::kDclTemps) s.temps = in.operands[0].index;
      if (in.op == Op::kDclIndexableTemp) s.indexable += in.operands[0].offset;
      continue;
    }
    s.first_code = std::min(s.first_code, static_cast<uint32_t>(i));
    ++s.code;
    const isa::Family f = in.info().family;
    s.memory_ops += f == isa::Family::kLoad || f == isa::Family::kStore ||
                    in.info().is_atomic();
    s.barriers +=
        in.op == Op::kSync && (in.sync_flags & isa::kSyncThreads) != 0;
    if (in.info().block == isa::BlockShape::kOpen)
      s.depth = std::max(s.depth, ++depth);
    if (in.info().block == isa::BlockShape::kClose) depth -= depth > 0 ? 1 : 0;
  }
  // Spec 1.8: a zero in any dimension means nothing runs.
  if (c.groups[0] != 0 && c.groups[1] != 0 && c.groups[2] != 0)
    s.groups = c.groups;
  for (const isa::Resource& r : c.resources) {
    s.descriptors += r.counter ? 2 : 1;
    s.words += r.WordCount() + (r.counter ? 1 : 0);
  }
  return s;
}

uint32_t TreeDepth(size_t cases) {
  return static_cast<uint32_t>(std::bit_width(cases > 0 ? cases - 1 : 0));
}

using TgsmShapes =
    std::vector<std::array<uint32_t, 3>>;  // {op, bytes or stride, count}

// Gives each g# of `c` a combined slot: the first one declared alike that no
// other g# of `c` took, else a new one. Returns the (case, combined) pairs.
std::vector<std::pair<uint32_t, uint32_t>> AssignTgsm(const isa::Case& c,
                                                      TgsmShapes& shapes) {
  std::vector<std::pair<uint32_t, uint32_t>> map;
  std::vector<bool> taken(shapes.size(), false);
  for (const Instruction& in : c.shader.instructions) {
    if (in.op != Op::kDclTgsmRaw && in.op != Op::kDclTgsmStructured) continue;
    const std::array<uint32_t, 3> shape = {
        static_cast<uint32_t>(in.op), in.operands[1].index,
        in.op == Op::kDclTgsmRaw ? 0 : in.operands[2].index};
    size_t k = 0;
    while (k < shapes.size() && (taken[k] || shapes[k] != shape)) ++k;
    if (k == shapes.size()) {
      shapes.push_back(shape);
      taken.push_back(false);
    }
    taken[k] = true;
    map.emplace_back(in.operands[0].index, static_cast<uint32_t>(k));
  }
  return map;
}

uint64_t TgsmBytes(const TgsmShapes& shapes) {
  uint64_t bytes = 0;
  for (const auto& [op, a, b] : shapes) {
    bytes += op == static_cast<uint32_t>(Op::kDclTgsmRaw) ? a : uint64_t{a} * b;
  }
  return bytes;
}

uint32_t Lookup(const std::vector<std::pair<uint32_t, uint32_t>>& map,
                uint32_t from) {
  for (const auto& [a, b] : map) {
    if (a == from) return b;
  }
  return from;  // the validator has made sure every register is declared
}

// Our own code as fxc text: short, and the assembler checks it.
absl::StatusOr<std::vector<Instruction>> Snippet(const std::string& text) {
  absl::StatusOr<isa::Program> p =
      isa::Assemble(absl::StrCat("cs_5_0\n", text));
  if (!p.ok())
    return absl::InternalError(
        absl::StrCat("batch snippet: ", p.status().message()));
  return std::move(p->instructions);
}

// One case's registers in the combined program.
struct Renaming {
  std::vector<std::pair<uint32_t, uint32_t>> uavs, tgsm, indexable;
  uint32_t group_id_temp = 0, thread_id_temp = 0;

  void Apply(Instruction& in) const {
    for (isa::Operand& o : in.operands) {
      switch (o.file) {
        case RegFile::kUav: o.index = Lookup(uavs, o.index); break;
        case RegFile::kTgsm: o.index = Lookup(tgsm, o.index); break;
        case RegFile::kIndexableTemp:
          o.index = Lookup(indexable, o.index);
          break;
        case RegFile::kThreadGroupID:
          if (in.info().family == isa::Family::kDecl) break;
          o.file = RegFile::kTemp;
          o.index = group_id_temp;
          break;
        case RegFile::kThreadID:
          if (in.info().family == isa::Family::kDecl) break;
          o.file = RegFile::kTemp;
          o.index = thread_id_temp;
          break;
        default: break;
      }
    }
  }
};

}  // namespace

std::optional<BatchKey> BatchKeyOf(const isa::Case& c) {
  BatchKey key;
  bool group_size = false;
  for (const Instruction& in : c.shader.instructions) {
    if (in.op == Op::kDclThreadGroup) {
      for (size_t k = 0; k < 3; ++k) key.group_size[k] = in.operands[k].index;
      group_size = true;
    } else if (in.op == Op::kDclGlobalFlags) {
      key.global_flags = in.global_flags;
    } else if (in.op == Op::kDclInput &&
               (in.operands[0].file == RegFile::kThreadID ||
                in.operands[0].file == RegFile::kThreadGroupID) &&
               (in.operands[0].mask & 0x8) != 0) {
      return std::nullopt;
    }
  }
  if (!group_size) return std::nullopt;
  return key;
}

bool BatchBuilder::Add(const isa::Case& c) {
  const Shape s = ShapeOf(c);
  if (!s.key || (key_ && *key_ != *s.key)) return false;
  const size_t n = cases_.size() + 1;
  TgsmShapes tgsm = tgsm_;
  AssignTgsm(c, tgsm);
  const uint32_t temps = std::max(temps_, s.temps);
  const uint64_t instructions = uint64_t{instructions_} + s.code +
                                kLeafInstructions +
                                (n > 1 ? kNodeInstructions : 0);
  const bool fits =
      n <= limits_.max_cases &&
      uint64_t{uavs_} + c.resources.size() <= limits_.max_uavs &&
      uint64_t{descriptors_} + s.descriptors <= limits_.max_descriptors &&
      words_ + s.words <= limits_.max_words &&
      TgsmBytes(tgsm) <= limits_.max_tgsm_bytes &&
      uint64_t{temps} + 2 + indexable_ + s.indexable <= limits_.max_temps &&
      instructions <= limits_.max_instructions &&
      uint64_t{group_z_} + s.groups[2] <= limits_.max_group_z &&
      uint64_t{std::max(depth_, s.depth)} + TreeDepth(n) <= limits_.max_depth &&
      uint64_t{memory_ops_} + s.memory_ops <= limits_.max_memory_ops &&
      uint64_t{barriers_} + s.barriers <= limits_.max_barriers;
  if (!fits) return false;
  key_ = s.key;
  cases_.push_back(&c);
  tgsm_ = std::move(tgsm);
  uavs_ += static_cast<uint32_t>(c.resources.size());
  descriptors_ += s.descriptors;
  words_ += s.words;
  temps_ = temps;
  indexable_ += s.indexable;
  instructions_ = static_cast<uint32_t>(instructions);
  group_z_ += s.groups[2];
  depth_ = std::max(depth_, s.depth);
  memory_ops_ += s.memory_ops;
  barriers_ += s.barriers;
  return true;
}

namespace {

// Builds the combined program from the cases of one batch.
class Combiner {
 public:
  Combiner(absl::Span<const isa::Case* const> cases, const BatchKey& key,
           uint32_t temps)
      : cases_(cases), key_(key), temps_(temps) {}

  absl::StatusOr<Batch> Run() {
    Layout();
    for (size_t i = 0; i < cases_.size(); ++i) Rename(i);
    if (absl::Status s = EmitTree(0, cases_.size()); !s.ok()) return s;
    absl::StatusOr<std::vector<Instruction>> tail = Snippet("ret\n");
    if (!tail.ok()) return tail.status();
    code_.insert(code_.end(), tail->begin(), tail->end());
    absl::StatusOr<std::vector<Instruction>> head = Declarations();
    if (!head.ok()) return head.status();
    // Code positions so far count from the first instruction after the
    // declarations.
    for (BatchSlice& s : batch_.slices)
      s.first_instruction += static_cast<uint32_t>(head->size());
    auto& program = batch_.combined.shader.instructions;
    program = *std::move(head);
    program.insert(program.end(), code_.begin(), code_.end());
    if (absl::Status valid = isa::Validate(batch_.combined); !valid.ok()) {
      return absl::InternalError(
          absl::StrCat("the combined case is invalid: ", valid.message()));
    }
    return std::move(batch_);
  }

 private:
  // The dispatch and each case's range of z.
  void Layout() {
    std::array<uint32_t, 3>& d = batch_.combined.groups;
    d = {1, 1, 0};
    for (const isa::Case* c : cases_) {
      shapes_.push_back(ShapeOf(*c));
      BatchSlice slice;
      slice.first_group_z = d[2];
      slice.group_z = shapes_.back().groups[2];
      d[0] = std::max(d[0], shapes_.back().groups[0]);
      d[1] = std::max(d[1], shapes_.back().groups[1]);
      d[2] += slice.group_z;
      batch_.slices.push_back(std::move(slice));
    }
  }

  // Gives case `i` its slots and collects its declarations.
  void Rename(size_t i) {
    const isa::Case& c = *cases_[i];
    Renaming& r = renamings_.emplace_back();
    r.group_id_temp = temps_;
    r.thread_id_temp = temps_ + 1;
    r.tgsm = AssignTgsm(c, tgsm_);
    for (const isa::Resource& res : c.resources) {  // sorted by slot
      r.uavs.emplace_back(
          res.slot, static_cast<uint32_t>(batch_.combined.resources.size()));
      batch_.combined.resources.push_back(res);
      batch_.combined.resources.back().slot = r.uavs.back().second;
    }
    for (const Instruction& in : c.shader.instructions) {
      if (in.op == Op::kDclIndexableTemp) {
        r.indexable.emplace_back(
            in.operands[0].index,
            static_cast<uint32_t>(r.indexable.size() + indexable_.size()));
      }
    }
    for (const Instruction& in : c.shader.instructions) {
      const isa::Operand& o =
          in.operands.empty() ? isa::Operand{} : in.operands[0];
      Instruction d = in;
      r.Apply(d);
      switch (in.op) {
        case Op::kDclUavRaw:
        case Op::kDclUavStructured:
        case Op::kDclUavTyped: uavs_.push_back(std::move(d)); break;
        case Op::kDclIndexableTemp: indexable_.push_back(std::move(d)); break;
        case Op::kDclTgsmRaw:
        case Op::kDclTgsmStructured:
          // A new shape is the next slot; a shared one is declared already.
          if (d.operands[0].index == tgsm_decls_.size())
            tgsm_decls_.push_back(std::move(d));
          break;
        case Op::kDclInput:
          if (o.file == RegFile::kThreadIDInGroup) in_group_mask_ |= o.mask;
          if (o.file == RegFile::kThreadIDInGroupFlattened) flattened_ = true;
          break;
        default: break;
      }
    }
    batch_.slices[i].uavs = r.uavs;
    batch_.slices[i].tgsm = r.tgsm;
  }

  absl::StatusOr<std::vector<Instruction>> Declarations() {
    if (key_.global_flags != 0) {
      // The flags' spelling is the printer's; take it from a case.
      for (const Instruction& in : cases_[0]->shader.instructions) {
        if (in.op == Op::kDclGlobalFlags) head_.push_back(in);
      }
    }
    head_.insert(head_.end(), uavs_.begin(), uavs_.end());
    std::string text =
        "dcl_input vThreadID.xyz\ndcl_input vThreadGroupID.xyz\n";
    if (in_group_mask_ != 0) {
      text += "dcl_input vThreadIDInGroup.";
      for (int k = 0; k < 4; ++k) {
        if (in_group_mask_ & (1 << k)) text += "xyzw"[k];
      }
      text += "\n";
    }
    if (flattened_) text += "dcl_input vThreadIDInGroupFlattened\n";
    absl::StrAppendFormat(&text, "dcl_temps %d\n", temps_ + 2);
    absl::StatusOr<std::vector<Instruction>> mid = Snippet(text);
    if (!mid.ok()) return mid.status();
    head_.insert(head_.end(), mid->begin(), mid->end());
    head_.insert(head_.end(), indexable_.begin(), indexable_.end());
    head_.insert(head_.end(), tgsm_decls_.begin(), tgsm_decls_.end());
    absl::StatusOr<std::vector<Instruction>> group = Snippet(
        absl::StrFormat("dcl_thread_group %d, %d, %d\n", key_.group_size[0],
                        key_.group_size[1], key_.group_size[2]));
    if (!group.ok()) return group.status();
    head_.insert(head_.end(), group->begin(), group->end());
    return std::move(head_);
  }

  // Cases [lo, hi): split at the first z of case mid. vThreadGroupID.z is
  // the same in the whole group, so the branches are uniform.
  absl::Status EmitTree(size_t lo, size_t hi) {
    if (hi - lo == 1) return EmitLeaf(lo);
    const size_t mid = lo + (hi - lo) / 2;
    absl::StatusOr<std::vector<Instruction>> node = Snippet(absl::StrFormat(
        "ult r%1$d.w, vThreadGroupID.z, l(%2$d)\nif_nz r%1$d.w\nelse\nendif\n",
        temps_, batch_.slices[mid].first_group_z));
    if (!node.ok()) return node.status();
    code_.insert(code_.end(), (*node)[0]);
    code_.insert(code_.end(), (*node)[1]);
    if (absl::Status s = EmitTree(lo, mid); !s.ok()) return s;
    code_.push_back((*node)[2]);
    if (absl::Status s = EmitTree(mid, hi); !s.ok()) return s;
    code_.push_back((*node)[3]);
    return absl::OkStatus();
  }

  // Case `i`: its own group and thread ids in two temps, the early return
  // of groups past its X or Y extent, then its code.
  absl::Status EmitLeaf(size_t i) {
    const Shape& s = shapes_[i];
    const Renaming& r = renamings_[i];
    BatchSlice& slice = batch_.slices[i];
    const uint32_t g = r.group_id_temp, t = r.thread_id_temp;
    std::string text = absl::StrFormat(
        "iadd r%d.xyz, vThreadGroupID.xyzx, l(0, 0, 0x%x, 0)\n"
        "iadd r%d.xyz, vThreadID.xyzx, l(0, 0, 0x%x, 0)\n",
        g, 0u - slice.first_group_z, t,
        0u - slice.first_group_z * key_.group_size[2]);
    const std::array<uint32_t, 3>& d = batch_.combined.groups;
    const bool past_x = s.groups[0] < d[0], past_y = s.groups[1] < d[1];
    if (past_x)
      absl::StrAppendFormat(&text, "uge r%d.w, vThreadGroupID.x, l(%d)\n", g,
                            s.groups[0]);
    if (past_y)
      absl::StrAppendFormat(&text, "uge r%d.w, vThreadGroupID.y, l(%d)\n", t,
                            s.groups[1]);
    if (past_x && past_y)
      absl::StrAppendFormat(&text, "or r%1$d.w, r%1$d.w, r%2$d.w\n", g, t);
    if (past_x || past_y)
      absl::StrAppendFormat(&text, "retc_nz r%d.w\n", past_x ? g : t);
    absl::StatusOr<std::vector<Instruction>> prologue = Snippet(text);
    if (!prologue.ok()) return prologue.status();
    code_.insert(code_.end(), prologue->begin(), prologue->end());
    slice.first_code = s.first_code;
    slice.first_instruction = static_cast<uint32_t>(code_.size());
    slice.code_length = s.code;
    const auto& src = cases_[i]->shader.instructions;
    for (size_t k = s.first_code; k < src.size(); ++k) {
      code_.push_back(src[k]);
      r.Apply(code_.back());
    }
    return absl::OkStatus();
  }

  absl::Span<const isa::Case* const> cases_;
  const BatchKey key_;
  const uint32_t temps_;  // the most any case declares
  Batch batch_;
  std::vector<Shape> shapes_;
  std::vector<Renaming> renamings_;
  TgsmShapes tgsm_;
  std::vector<Instruction> head_, uavs_, indexable_, tgsm_decls_, code_;
  uint8_t in_group_mask_ = 0;
  bool flattened_ = false;
};

}  // namespace

absl::StatusOr<Batch> BatchBuilder::Build() const {
  if (cases_.empty() || !key_)
    return absl::FailedPreconditionError("an empty batch");
  return Combiner(cases_, *key_, temps_).Run();
}

absl::StatusOr<Batch> BatchCases(absl::Span<const isa::Case* const> cases,
                                 const BatchLimits& limits) {
  BatchBuilder builder(limits);
  for (size_t i = 0; i < cases.size(); ++i) {
    if (!builder.Add(*cases[i])) {
      return absl::FailedPreconditionError(absl::StrCat(
          "case ", i,
          " does not fit in the batch (its group size, global flags "
          "or the batch limits)"));
    }
  }
  return builder.Build();
}

std::vector<isa::Outcome> SplitBatchOutcome(isa::Outcome combined,
                                            const Batch& batch) {
  std::vector<isa::Outcome> out;
  auto back = [](const std::vector<std::pair<uint32_t, uint32_t>>& map,
                 uint32_t slot) {
    for (const auto& [mine, theirs] : map) {
      if (theirs == slot) return mine;
    }
    return slot;
  };
  for (const BatchSlice& s : batch.slices) {
    isa::Outcome& o = out.emplace_back();
    o.status = combined.status;
    o.message = combined.message;
    o.has_trace = combined.has_trace;
    for (const auto& [mine, theirs] : s.uavs) {
      for (isa::UavState& u : combined.uavs) {
        if (u.slot != theirs) continue;
        o.uavs.push_back(std::move(u));  // each combined slot has one owner
        o.uavs.back().slot = mine;
        break;
      }
    }
    for (const isa::AtomicEvent& e : combined.trace) {
      if (e.group[2] - s.first_group_z >= s.group_z ||
          e.group[2] < s.first_group_z || e.instruction < s.first_instruction ||
          e.instruction - s.first_instruction >= s.code_length) {
        continue;
      }
      isa::AtomicEvent& mine = o.trace.emplace_back(e);
      mine.group[2] -= s.first_group_z;
      mine.instruction = e.instruction - s.first_instruction + s.first_code;
      mine.slot = back(e.file == RegFile::kUav ? s.uavs : s.tgsm, e.slot);
    }
  }
  return out;
}

}  // namespace atomfuzz::targets
