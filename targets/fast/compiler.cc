// Case -> CompiledCase: resolve every operand to register slots once, so
// the executor never parses, looks up or branches on operand kinds per lane.
#include <algorithm>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "isa/stages.h"
#include "targets/fast/compiled.h"
#include "targets/fast/handlers.h"

namespace atomfuzz::targets::fast {
namespace {

using isa::Op;
using isa::Operand;
using isa::RegFile;

// Caps on what one case may make a wave allocate.
constexpr uint64_t kMaxSlots = 1u << 16;
constexpr uint64_t kMaxWords = isa::kMaxResourceWords;
constexpr uint64_t kMaxThreads = 1ull << 24;
constexpr size_t kScratch = 5;  // operands that may be x# in one instruction

class Compiler {
 public:
  Compiler(const isa::Case& c, Inject inject, CompileTables& tables,
           CompiledCase& out)
      : case_(c), tables_(tables), out_(out) {
    out_.Clear();
    out_.inject = inject;
    tables_.constants.Clear();
    tables_.uavs.Clear();
    tables_.tgsm.Clear();
    tables_.control.clear();
  }

  absl::Status Run() {
    if (absl::Status s = Declarations(); !s.ok()) return s;
    // Slots: temps, x# arrays, system values, scratch, then constants as met.
    next_slot_ = out_.temp_slots;
    for (auto& [base, elements] : out_.xregs) {
      base = next_slot_;
      next_slot_ += elements * 4;
    }
    out_.sv_thread_id = Reserve(3);
    out_.sv_group_id = Reserve(3);
    out_.sv_thread_in_group = Reserve(3);
    out_.sv_flattened = Reserve(1);
    out_.sv_zero = Reserve(1);
    if (out_.pixel) {
      out_.sv_position = Reserve(4);
      out_.sv_sample = Reserve(1);
      out_.sv_primitive = Reserve(1);
      out_.sv_coverage = Reserve(1);
    }
    scratch_ = Reserve(kScratch * 4);
    out_.constant_base = next_slot_;  // constants take every slot after
    const auto& code = case_.shader.instructions;
    // One entry per instruction (and an x# access now and then): grown
    // step by step, the 140-byte entries would be copied over and over.
    out_.code.reserve(code.size() + 8);
    tables_.compiled_of.assign(code.size(), 0);
    const uint32_t n =
        static_cast<uint32_t>(code.size());  // not reloaded per pass
    for (uint32_t i = 0; i < n; ++i) {
      if (absl::Status s = Instruction(i); !s.ok()) return s;
      if (next_slot_ > kMaxSlots) {
        return absl::InvalidArgumentError(
            "too many registers for the fast target");
      }
    }
    // Without control flow there is nothing to resolve or to find unbalanced.
    if (!tables_.control.empty()) {
      if (absl::Status s =
              ResolveJumps(case_.shader.instructions, tables_, out_);
          !s.ok()) {
        return s;
      }
    }
    out_.slots = next_slot_;
    return absl::OkStatus();
  }

 private:
  uint32_t Reserve(uint32_t n) {
    const uint32_t s = next_slot_;
    next_slot_ += n;
    return s;
  }

  absl::Status Declarations() {
    out_.groups = case_.groups;
    out_.pixel = case_.shader.pixel();
    uint64_t tgsm = 0;
    for (const isa::Instruction& i : case_.shader.instructions) {
      const auto& ops = i.operands;
      switch (i.op) {
        case Op::kDclTemps:
          if (ops[0].index > 4096)
            return absl::InvalidArgumentError("dcl_temps beyond 4096");
          out_.temp_slots = ops[0].index * 4;
          break;
        case Op::kDclIndexableTemp:
          if (ops[0].index >= 4096 || ops[0].offset > 4096) {
            return absl::InvalidArgumentError("dcl_indexableTemp beyond 4096");
          }
          if (out_.xregs.size() <= ops[0].index)
            out_.xregs.resize(ops[0].index + 1, {0, 0});
          out_.xregs[ops[0].index].second = ops[0].offset;
          break;
        case Op::kDclThreadGroup:
          out_.group_size = {ops[0].index, ops[1].index, ops[2].index};
          break;
        case Op::kDclInputPsSgv:
        case Op::kDclInputPsSiv:
          if (ops[0].index >= 32) {
            return absl::InvalidArgumentError("v# beyond v31");
          }
          inputs_[ops[0].index] = static_cast<isa::InputName>(ops[1].index);
          break;
        case Op::kDclUavRaw:
        case Op::kDclUavStructured:
        case Op::kDclUavTyped: {
          const isa::Resource* r = case_.FindResource(ops[0].index);
          if (r == nullptr) {
            return absl::InvalidArgumentError(
                absl::StrCat("u", ops[0].index, " is not bound"));
          }
          Memory m;
          m.slot = r->slot;
          m.words = r->init.size();
          m.kind = r->kind == isa::ResourceKind::kRaw ? Memory::Kind::kRaw
                   : r->kind == isa::ResourceKind::kStructured
                       ? Memory::Kind::kStructured
                       : Memory::Kind::kTyped;
          m.stride = r->stride;
          m.elements = r->elements;
          m.dim = r->dim;
          m.size = r->size;
          m.float_format = r->format == isa::Format::kR32Float;
          m.width = m.kind == Memory::Kind::kRaw ? 1
                    : m.kind == Memory::Kind::kStructured
                        ? 2
                        : isa::TypedAddressWidth(r->dim);
          m.uav = static_cast<uint32_t>(out_.uav_slots.size());
          out_.uav_slots.push_back(r->slot);
          tables_.uavs.Set(r->slot, static_cast<int>(out_.memories.size()));
          out_.memories.push_back(m);
          break;
        }
        case Op::kDclTgsmRaw:
        case Op::kDclTgsmStructured: {
          Memory m;
          m.tgsm = true;
          m.slot = ops[0].index;
          m.kind = i.op == Op::kDclTgsmRaw ? Memory::Kind::kRaw
                                           : Memory::Kind::kStructured;
          m.width = i.op == Op::kDclTgsmRaw ? 1 : 2;
          if (i.op == Op::kDclTgsmRaw) {
            m.words = ops[1].index / 4;
          } else {
            m.stride = ops[1].index;
            m.elements = ops[2].index;
            m.words = uint64_t{ops[1].index / 4} * ops[2].index;
          }
          m.tgsm_base = static_cast<uint32_t>(tgsm);
          tgsm += m.words;
          if (tgsm > 8192)
            return absl::InvalidArgumentError("g# beyond 32 KiB");
          tables_.tgsm.Set(m.slot, static_cast<int>(out_.memories.size()));
          out_.memories.push_back(m);
          break;
        }
        default: break;
      }
    }
    out_.tgsm_words = static_cast<uint32_t>(tgsm);
    if (out_.pixel) return PixelLanes();
    // Multiplied one factor at a time against the caps: three u32 extents
    // can wrap 64 bits (769546 * 494770 * 48448661 = 2^64 + 4), and the
    // waves count ids up to the real extents.
    uint64_t per_group = 1, threads = 1;
    for (uint32_t n : out_.group_size)
      per_group = std::min<uint64_t>(per_group * n, 1025);
    for (uint32_t n : case_.groups)
      threads = std::min(threads * n, kMaxThreads + 1);
    threads = std::min(threads * per_group, kMaxThreads + 1);
    if (per_group == 0 || per_group > 1024 || threads > kMaxThreads) {
      const auto& gs = out_.group_size;
      const auto& g = case_.groups;
      return absl::InvalidArgumentError(
          absl::StrCat("the fast target runs at most 1024 threads per group "
                       "and 2^24 in all, not groups of ",
                       gs[0], "x", gs[1], "x", gs[2], " in a dispatch of ",
                       g[0], "x", g[1], "x", g[2]));
    }
    for (const isa::Resource& r : case_.resources) {
      if (r.init.size() > kMaxWords)
        return absl::InvalidArgumentError("resource too large");
    }
    return absl::OkStatus();
  }

  absl::Status PixelLanes() {
    const isa::Draw& draw = case_.draw;
    if (draw.width > isa::kMaxFramebufferSide ||
        draw.height > isa::kMaxFramebufferSide ||
        draw.triangles.size() > isa::kMaxTriangles ||
        (draw.samples != 1 && draw.samples != 4)) {
      return absl::InvalidArgumentError("a [draw] past its limits");
    }
    for (const isa::Resource& r : case_.resources) {
      if (r.init.size() > kMaxWords)
        return absl::InvalidArgumentError("resource too large");
    }
    BuildPixelLanes(case_, out_.pixel_lanes);
    out_.per_sample = isa::RunsPerSample(case_.shader);
    return absl::OkStatus();
  }

  // The slot of component c of v<index>: what its declaration names.
  uint32_t InputSlot(uint32_t index, int c) const {
    if (index >= inputs_.size()) return out_.sv_zero;
    switch (inputs_[index]) {
      case isa::InputName::kPosition:
        return out_.sv_position + static_cast<uint32_t>(c & 3);
      case isa::InputName::kSampleIndex:
        return c == 0 ? out_.sv_sample : out_.sv_zero;
      case isa::InputName::kPrimitiveId:
        return c == 0 ? out_.sv_primitive : out_.sv_zero;
    }
    return out_.sv_zero;
  }

  // Inline for the usual hit: a scalar immediate asks four times in a row
  // (once per lane).
  uint32_t Constant(uint32_t value) {
    if (has_last_constant_ && last_value_ == value) return last_slot_;
    return NewConstant(value);
  }
  [[gnu::noinline]] uint32_t NewConstant(uint32_t value) {
    const auto [slot, added] = tables_.constants.FindOrAdd(value, next_slot_);
    if (added) out_.constants.emplace_back(Reserve(1), value);
    has_last_constant_ = true;
    last_value_ = value;
    last_slot_ = slot;
    return slot;
  }

  // The slot each source lane reads. A scalar (l(v), or one component
  // selected) reads one slot in every lane: looked up once.
  void SourceSlots(const Operand& o, size_t scratch_index,
                   std::array<uint32_t, 4>& slots) {
    if (o.file == RegFile::kImmediate) {  // l(v) or l(a, b, c, d)
      if (o.value_count == 1) {
        slots.fill(Constant(o.values[0]));
      } else {
        for (size_t lane = 0; lane < 4; ++lane)
          slots[lane] = Constant(o.values[lane]);
      }
      return;
    }
    if (o.file == RegFile::kTemp &&
        TempInRange(o)) {  // the usual case: no test per lane
      const uint32_t base = o.index * 4;
      if (o.selection == isa::Selection::kSelect1) {
        slots.fill(base + o.swizzle[0]);
      } else {
        for (size_t lane = 0; lane < 4; ++lane)
          slots[lane] = base + o.swizzle[lane];
      }
      return;
    }
    if (o.selection == isa::Selection::kSelect1) {
      slots.fill(o.file == RegFile::kTemp ? TempSlot(o.index, o.Component(0))
                                          : SourceSlot(o, 0, scratch_index));
      return;
    }
    if (o.file == RegFile::kTemp) {  // the usual swizzle: no call per lane
      for (int lane = 0; lane < 4; ++lane) {
        slots[static_cast<size_t>(lane)] = TempSlot(o.index, o.Component(lane));
      }
      return;
    }
    for (int lane = 0; lane < 4; ++lane) {
      slots[static_cast<size_t>(lane)] = SourceSlot(o, lane, scratch_index);
    }
  }

  // The slot a source lane reads; x# operands read their gathered scratch.
  uint32_t SourceSlot(const Operand& o, int lane, size_t scratch_index) {
    const int c = o.Component(lane);
    switch (o.file) {
      case RegFile::kImmediate:
        return Constant(
            o.values[o.value_count == 1 ? 0 : static_cast<size_t>(lane & 3)]);
      case RegFile::kTemp: return TempSlot(o.index, c);
      case RegFile::kIndexableTemp:
        return scratch_ + static_cast<uint32_t>(scratch_index * 4) +
               static_cast<uint32_t>(c);
      case RegFile::kThreadID:
        return c < 3 ? out_.sv_thread_id + static_cast<uint32_t>(c)
                     : out_.sv_zero;
      case RegFile::kThreadGroupID:
        return c < 3 ? out_.sv_group_id + static_cast<uint32_t>(c)
                     : out_.sv_zero;
      case RegFile::kThreadIDInGroup:
        return c < 3 ? out_.sv_thread_in_group + static_cast<uint32_t>(c)
                     : out_.sv_zero;
      case RegFile::kThreadIDInGroupFlattened: return out_.sv_flattened;
      case RegFile::kInput: return InputSlot(o.index, c);
      case RegFile::kInputCoverageMask:
        return out_.pixel ? out_.sv_coverage : out_.sv_zero;
      default: return out_.sv_zero;
    }
  }
  // Whether every component of r<index> is declared and the swizzle names
  // components (each below 4): then r<index>.<c> is simply index * 4 + c.
  bool TempInRange(const Operand& o) const {
    uint32_t swizzle;
    std::memcpy(&swizzle, o.swizzle.data(), sizeof swizzle);
    return uint64_t{o.index} * 4 + 4 <= out_.temp_slots &&
           (swizzle & 0xFCFCFCFCu) == 0;
  }
  // r<index>.<c>; a register beyond dcl_temps reads the zero slot.
  uint32_t TempSlot(uint32_t index, int c) const {
    const uint64_t slot = uint64_t{index} * 4 + static_cast<uint64_t>(c);
    return slot < out_.temp_slots ? static_cast<uint32_t>(slot) : out_.sv_zero;
  }
  // The slot each destination component writes, the file tested once.
  void DestSlots(const Operand& o, size_t scratch_index,
                 std::array<uint32_t, 4>& slots) {
    switch (o.file) {
      case RegFile::kTemp:
        for (uint32_t c = 0; c < 4; ++c)
          slots[c] = TempSlot(o.index, static_cast<int>(c));
        break;
      case RegFile::kIndexableTemp:
        for (uint32_t c = 0; c < 4; ++c) {
          slots[c] = scratch_ + static_cast<uint32_t>(scratch_index * 4) + c;
        }
        break;
      default:
        slots.fill(
            out_.sv_zero);  // null: written and never read (zero is refilled)
        break;
    }
  }

  // A gather (before) or scatter (after) of one x# operand.
  Decoded XAccess(const Operand& o, size_t scratch_index, bool scatter,
                  uint8_t mask) {
    Decoded d;
    d.fn = scatter ? ScatterHandler() : GatherHandler();
    const auto& [base, elements] = o.index < out_.xregs.size()
                                       ? out_.xregs[o.index]
                                       : std::pair<uint32_t, uint32_t>{0, 0};
    d.x_base = base;
    d.x_elements = elements;
    d.x_offset = o.offset;
    if (o.relative) {
      const uint64_t rel =
          uint64_t{o.relative->temp} * 4 + o.relative->component;
      d.x_rel =
          rel < out_.temp_slots ? static_cast<uint32_t>(rel) : out_.sv_zero;
    }
    d.mask = mask;
    for (int c = 0; c < 4; ++c) {
      d.dst[static_cast<size_t>(c)] = scratch_ +
                                      static_cast<uint32_t>(scratch_index * 4) +
                                      static_cast<uint32_t>(c);
    }
    return d;
  }

  absl::Status Instruction(uint32_t index) {
    const isa::Instruction& inst = case_.shader.instructions[index];
    const isa::OpcodeInfo& row = inst.info();
    if (row.family == isa::Family::kDecl) return absl::OkStatus();
    // The layout's count, not row.operand_count(): that walks to the end
    // marker, at every instruction.
    const int operands = isa::Layout(inst.op).count;
    const Operand* const ops = inst.operands.data();
    const size_t at = out_.code.size();
    tables_.compiled_of[index] = static_cast<uint32_t>(at);
    // Built in place: the entries are 140 bytes.
    Decoded& d = out_.code.emplace_back();
    d.instruction = index;
    d.sync_flags = inst.sync_flags;
    d.rmw = row.rmw;
    d.returns = row.returns_old();
    if (row.is_atomic()) d.atomic = out_.atomics++;
    const bool mul = isa::Layout(inst.op).destinations() == 2;
    bool indexable = false;  // an x# operand: gathers and scatters around it
    size_t src = 0;
    for (int k = 0; k < operands; ++k) {
      const Operand& o = ops[k];
      const isa::OperandSpec spec = row.operands[static_cast<size_t>(k)];
      const size_t scratch_index = static_cast<size_t>(k);
      indexable |= o.file == RegFile::kIndexableTemp;
      if (spec.kind == isa::OperandKind::kDst) {
        const bool hi = mul && k == 0 && spec.role == isa::Role::kDest;
        DestSlots(o, scratch_index, hi ? d.dst_hi : d.dst);
        (hi ? d.hi_mask : d.mask) = o.file == RegFile::kNull ? 0 : o.mask;
        if (o.file == RegFile::kNull && d.returns) d.mask = 0;
      } else if (spec.kind == isa::OperandKind::kSrc) {
        if (src >= 4) return absl::InvalidArgumentError("too many sources");
        SourceSlots(o, scratch_index, d.src[src]);
        if (spec.role == isa::Role::kCaseValue) d.case_value = o.values[0];
        ++src;
      } else if (spec.kind == isa::OperandKind::kMem ||
                 spec.kind == isa::OperandKind::kMemDst ||
                 spec.kind == isa::OperandKind::kMemSrc ||
                 spec.kind == isa::OperandKind::kUav) {
        if (o.relative)
          return absl::InvalidArgumentError("dynamically indexed u#/g# (E-44)");
        const auto& table =
            o.file == RegFile::kUav ? tables_.uavs : tables_.tgsm;
        d.memory = table.Find(o.index);
        if (d.memory < 0) {
          return absl::InvalidArgumentError(
              absl::StrCat("undeclared ", isa::RegFileName(o.file), o.index));
        }
        // Loads keep the resource swizzle in src[3]; stores their mask.
        if (spec.kind == isa::OperandKind::kMemSrc) {
          for (int lane = 0; lane < 4; ++lane) {
            d.src[3][static_cast<size_t>(lane)] =
                static_cast<uint32_t>(o.Component(lane));
          }
        }
        if (spec.kind == isa::OperandKind::kMemDst) d.mask = o.mask;
      }
    }
    switch (row.family) {
      case isa::Family::kAlu:
        d.fn = AluHandler(inst.op, Aliased(d, src), d);
        break;
      case isa::Family::kControl:
        d.fn = ControlHandler(inst.op);
        tables_.control.push_back(index);
        break;
      case isa::Family::kSync: d.fn = SyncHandler(); break;
      case isa::Family::kDiscard:
        d.nonzero = row.test_nonzero;
        d.fn = DiscardHandler(out_.inject);
        break;
      case isa::Family::kDeriv: d.fn = DerivHandler(inst.op); break;
      default: {
        if (d.memory < 0)
          return absl::InvalidArgumentError(
              "memory instruction without memory");
        d.fn = MemoryHandler(inst, out_.memories[static_cast<size_t>(d.memory)],
                             out_.inject);
        if (d.fn == nullptr) {
          return absl::InvalidArgumentError(absl::StrCat(
              row.mnemonic, " on this memory kind is not supported (line ",
              inst.line, ")"));
        }
        // Injected: dst0 always to .x (its first slot).
        if (out_.inject == Inject::kDst0WrongComponent && d.returns && d.mask) {
          d.mask = 0x1;
        }
        // A pixel lane may have no right to touch memory (spec 1.3).
        if (out_.pixel && row.family != isa::Family::kLoad) {
          d.inner = d.fn;
          d.fn = GatedHandler(row.family, out_.inject);
        }
        break;
      }
    }
    // Rare: x# gathers go before the instruction, so it moves behind them
    // (found in the one pass over the operands, not a pass of its own).
    if (indexable) {
      const Decoded built = d;  // `d` dangles once the code grows
      out_.code.pop_back();
      XAccesses(inst, /*scatter=*/false);
      tables_.compiled_of[index] = static_cast<uint32_t>(out_.code.size());
      out_.code.push_back(built);
      XAccesses(inst, /*scatter=*/true);
    }
    return absl::OkStatus();
  }

  // x# sources are gathered into scratch slots before the instruction
  // (scatter false), x# destinations scattered from them after it.
  void XAccesses(const isa::Instruction& inst, bool scatter) {
    const isa::OpcodeInfo& row = inst.info();
    for (int k = 0; k < isa::Layout(inst.op).count; ++k) {
      const Operand& o = inst.operands[static_cast<size_t>(k)];
      const bool dst =
          row.operands[static_cast<size_t>(k)].kind == isa::OperandKind::kDst;
      if (o.file == RegFile::kIndexableTemp && dst == scatter) {
        out_.code.push_back(XAccess(o, static_cast<size_t>(k), scatter,
                                    scatter ? o.mask : 0xF));
      }
    }
  }

  // Whether writing component c could clobber a slot that a component
  // computed after it (a later one in the masks) still reads. Components
  // outside the masks read nothing: `iadd r1.x, r1.x, l(1)` needs no buffer.
  static bool Aliased(const Decoded& d, size_t sources) {
    const uint32_t written = d.mask | d.hi_mask;
    if ((written & (written - 1)) == 0) return d.hi_mask != 0;  // one component
    for (int c = 0; c < 4; ++c) {
      if (!(written & (1u << c))) continue;
      const bool hi = (d.hi_mask & (1u << c)) != 0;
      for (int later = c + 1; later < 4; ++later) {
        if (!(written & (1u << later))) continue;
        for (size_t k = 0; k < sources; ++k) {
          const uint32_t read = d.src[k][static_cast<size_t>(later)];
          if (read == d.dst[static_cast<size_t>(c)] ||
              (hi && read == d.dst_hi[static_cast<size_t>(c)])) {
            return true;
          }
        }
      }
    }
    return d.hi_mask != 0;  // imul/umul: hi and lo both from the sources
  }

  const isa::Case& case_;
  CompileTables& tables_;
  CompiledCase& out_;
  uint32_t next_slot_ = 0;
  uint32_t scratch_ = 0;
  // v# -> the input its dcl_input_ps_* names (position by default: only a
  // declared v# is read in a valid case).
  std::array<isa::InputName, 32> inputs_ = [] {
    std::array<isa::InputName, 32> a;
    a.fill(isa::InputName::kPosition);
    return a;
  }();
  bool has_last_constant_ = false;  // the last constant asked for:
  uint32_t last_value_ = 0, last_slot_ = 0;
};

}  // namespace

void CompiledCase::Clear() {
  CompiledCase fresh;  // every other field at its default
  auto reuse = [](auto& old, auto& into) {
    old.clear();
    into.swap(old);
  };
  reuse(code, fresh.code);
  reuse(memories, fresh.memories);
  reuse(uav_slots, fresh.uav_slots);
  reuse(constants, fresh.constants);
  reuse(switch_values, fresh.switch_values);
  reuse(xregs, fresh.xregs);
  reuse(pixel_lanes, fresh.pixel_lanes);
  *this = std::move(fresh);
}

absl::Status Compile(const isa::Case& c, Inject inject, CompileTables& tables,
                     CompiledCase& out) {
  return Compiler(c, inject, tables, out).Run();
}

}  // namespace atomfuzz::targets::fast
