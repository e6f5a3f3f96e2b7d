#include "isa/validator.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "isa/case_rules.h"
#include "isa/printer.h"
#include "isa/spelling.h"
#include "isa/validation_rules.h"

namespace atomfuzz::isa {
namespace {

// The memory kind `op` names (0: undeclared), and its declaration.
uint8_t MemoryOf(const Declarations& d, const Operand& op,
                 const Instruction*& decl) {
  if (op.file == RegFile::kUav) {
    const Instruction* const* dcl = d.uavs.find(op.index);
    if (dcl == nullptr) return 0;
    decl = *dcl;
    switch ((*dcl)->op) {
      case Op::kDclUavRaw: return kUavRaw;
      case Op::kDclUavStructured: return kUavStructured;
      default: return kUavTyped;
    }
  }
  if (op.file == RegFile::kTgsm) {
    const Instruction* const* dcl = d.tgsm.find(op.index);
    if (dcl == nullptr) return 0;
    decl = *dcl;
    return (*dcl)->op == Op::kDclTgsmRaw ? kTgsmRaw : kTgsmStructured;
  }
  return 0;
}

std::string MemoryName(uint8_t m) {
  switch (m) {
    case kUavRaw: return "a raw u#";
    case kUavStructured: return "a structured u#";
    case kUavTyped: return "a typed u#";
    case kTgsmRaw: return "a raw g#";
    case kTgsmStructured: return "a structured g#";
    default: return "an undeclared register";
  }
}

// "a raw u# or a raw g#" for a MemoryBit set.
std::string MemoryList(uint8_t set) {
  std::vector<std::string> names;
  for (uint8_t bit = 1; bit <= kTgsmStructured; bit <<= 1) {
    if (set & bit) names.push_back(MemoryName(bit));
  }
  return absl::StrJoin(names, " or ");
}

class ProgramChecker {
 public:
  ProgramChecker(const Program& p, DiagnosticSink& sink) : p_(p), sink_(sink) {}

  void Run() {
    CollectDeclarations();
    bool counters = false;
    for (const Instruction& inst : p_.instructions) {
      const Family family = inst.info().family;
      if (family != Family::kDecl) CheckInstruction(inst);
      counters |= family == Family::kCounter;
    }
    if (counters) CheckCounterMix();  // it looks at alloc and consume only
    if (p_.instructions.empty() || p_.instructions.back().op != Op::kRet) {
      const int line =
          p_.instructions.empty() ? 0 : p_.instructions.back().line;
      Violation(sink_, RuleId::kEndsWithRet, line,
                "ret as the last instruction",
                p_.instructions.empty()
                    ? "no instructions"
                    : Quote(PrintInstruction(p_.instructions.back())));
    }
    CheckControlFlow(p_, sink_);
  }

  const Declarations& decls() const { return d_; }

  // The declaration rules alone, gathering decls(); Run() calls it first.
  void CollectDeclarations() {
    const Instruction* first_code = nullptr;
    Budget temps, tgsm_bytes;
    for (const Instruction& i : p_.instructions) {
      if (i.info().family != Family::kDecl) {
        if (first_code == nullptr) first_code = &i;
        continue;
      }
      const bool seen_code = first_code != nullptr;
      if (seen_code) {
        Violation(sink_, RuleId::kDeclOrder, i.line,
                  "declarations before the first instruction",
                  Quote(PrintInstruction(i)));
      }
      CheckRegisterRange(i);
      switch (i.op) {
        case Op::kDclTemps:
          if (d_.temps) {
            Violation(sink_, RuleId::kDeclDuplicate, i.line, "one dcl_temps",
                      "a second one");
          } else {
            Spend(temps, i.operands[0].index, i);
          }
          d_.temps = i.operands[0].index;
          break;
        case Op::kDclIndexableTemp:
          if (!d_.indexable.emplace(i.operands[0].index,
                                    i.operands[0].offset)) {
            Violation(sink_, RuleId::kDeclDuplicate, i.line,
                      absl::StrCat("one declaration of x", i.operands[0].index),
                      "a second one");
          } else {
            Spend(temps, i.operands[0].offset, i);
          }
          break;
        case Op::kDclUavRaw:
        case Op::kDclUavTyped: Declare(d_.uavs, i, "u"); break;
        case Op::kDclUavStructured: {
          Declare(d_.uavs, i, "u");
          const uint32_t s = i.operands[1].index;
          if (s == 0 || s % 4 != 0 || s > 2048) {
            Violation(sink_, RuleId::kStride, i.line,
                      "a stride > 0, a multiple of 4 and <= 2048",
                      absl::StrCat(s));
          }
          break;
        }
        case Op::kDclTgsmRaw:
        case Op::kDclTgsmStructured: {
          Declare(d_.tgsm, i, "g");
          const bool raw = i.op == Op::kDclTgsmRaw;
          const uint64_t stride = i.operands[1].index;
          const uint64_t bytes = raw ? stride : stride * i.operands[2].index;
          if (stride == 0 || stride % 4 != 0 || bytes == 0) {
            Violation(sink_, RuleId::kTgsmSize, i.line,
                      raw ? "a byte count > 0 and a multiple of 4"
                          : "a stride > 0 and a multiple of 4, and a count > 0",
                      Quote(PrintInstruction(i)));
          }
          Spend(tgsm_bytes, bytes, i);
          break;
        }
        case Op::kDclInput: {
          const Operand& o = i.operands[0];
          if (d_.inputs.contains(o.file)) {
            Violation(sink_, RuleId::kDeclDuplicate, i.line,
                      absl::StrCat("one dcl_input of ", RegFileName(o.file)),
                      "a second one");
          }
          d_.inputs[o.file] = o.file == RegFile::kThreadIDInGroupFlattened ||
                                      o.file == RegFile::kInputCoverageMask
                                  ? 0x1
                                  : o.mask;
          break;
        }
        case Op::kDclThreadGroup:
          if (p_.pixel()) {
            WrongStage(i, "no dcl_thread_group in ps_5_0");
          } else {
            CheckThreadGroup(i);
          }
          break;
        case Op::kDclInputPsSgv:
        case Op::kDclInputPsSiv: CheckPixelInput(i); break;
        default: break;
      }
      if (p_.pixel() &&
          (i.op == Op::kDclTgsmRaw || i.op == Op::kDclTgsmStructured)) {
        WrongStage(i, "no g# in ps_5_0 (spec 1.1)");
      }
      if (p_.pixel() && i.op == Op::kDclInput &&
          IsSystemValue(i.operands[0].file)) {
        WrongStage(i, "no compute system value in ps_5_0");
      }
      if (!p_.pixel() &&
          (i.op == Op::kDclInputPsSgv || i.op == Op::kDclInputPsSiv ||
           (i.op == Op::kDclInput && IsPixelInput(i.operands[0].file)))) {
        WrongStage(i, "no pixel input in cs_5_0");
      }
    }
    if (d_.thread_group == nullptr && !p_.pixel()) {
      // Where the declarations end, which is where it belongs.
      const int line = first_code                ? first_code->line
                       : p_.instructions.empty() ? 0
                                                 : p_.instructions.back().line;
      Violation(sink_, RuleId::kThreadGroup, line, "a dcl_thread_group",
                "none");
    }
  }

 private:
  void WrongStage(const Instruction& i, std::string expected) {
    Violation(sink_, RuleId::kStage, i.line, std::move(expected),
              Quote(PrintInstruction(i)));
  }

  // dcl_input_ps_siv linear noperspective v#.mask, position, or
  // dcl_input_ps_sgv constant v#.x, sampleIndex | primitive_id.
  void CheckPixelInput(const Instruction& i) {
    const Operand& reg = i.operands[0];
    const auto name = static_cast<InputName>(i.operands[1].index);
    const bool siv = i.op == Op::kDclInputPsSiv;
    const bool ok =
        siv ? name == InputName::kPosition &&
                  i.interpolation == Interpolation::kLinearNoPerspective
            : (name == InputName::kSampleIndex ||
               name == InputName::kPrimitiveId) &&
                  i.interpolation == Interpolation::kConstant &&
                  reg.mask == 0x1;
    if (!ok) {
      Violation(sink_, RuleId::kPixelInput, i.line,
                siv ? "dcl_input_ps_siv linear noperspective v#.mask, position"
                    : "dcl_input_ps_sgv constant v#.x, sampleIndex or "
                      "primitive_id",
                Quote(PrintInstruction(i)));
    }
    if (!d_.pixel_inputs.emplace(reg.index, reg.mask)) {
      Violation(sink_, RuleId::kDeclDuplicate, i.line,
                absl::StrCat("one declaration of v", reg.index),
                "a second one");
    }
    for (const Instruction* other : input_names_) {
      if (other->operands[1].index == i.operands[1].index) {
        Violation(sink_, RuleId::kPixelInput, i.line,
                  "each input name declared once", Quote(PrintInstruction(i)));
        break;
      }
    }
    input_names_.push_back(&i);
  }

  // What the program's stage does not have (docs/pixel-stage.md P.1).
  void CheckStage(const Instruction& i) {
    const Family family = i.info().family;
    if (p_.pixel()) {
      if (family == Family::kSync) WrongStage(i, "no sync in ps_5_0");
      for (const Operand& o : i.operands) {
        if (IsSystemValue(o.file)) {
          WrongStage(i, "no compute system value in ps_5_0");
        } else if (o.file == RegFile::kTgsm) {
          WrongStage(i, "no g# in ps_5_0 (spec 1.1)");
        }
      }
      return;
    }
    if (family == Family::kDiscard || family == Family::kDeriv) {
      WrongStage(i, "no discard or derivative in cs_5_0");
    }
    for (const Operand& o : i.operands) {
      if (IsPixelInput(o.file)) WrongStage(i, "no pixel input in cs_5_0");
    }
  }

  void Declare(SmallSortedMap<uint32_t, const Instruction*>& map,
               const Instruction& i, const char* what) {
    const uint32_t n = i.operands[0].index;
    if (!map.emplace(n, &i)) {
      Violation(sink_, RuleId::kDeclDuplicate, i.line,
                absl::StrCat("one declaration of ", what, n), "a second one");
    }
  }

  // A limit on a sum over declarations (spec 1.8), reported once, at the
  // declaration that goes over. Sums stop there, so they cannot overflow.
  struct Budget {
    uint64_t used = 0;
    bool reported = false;
  };
  void Spend(Budget& b, uint64_t n, const Instruction& i) {
    const bool tgsm = i.op == Op::kDclTgsmRaw || i.op == Op::kDclTgsmStructured;
    if (b.reported || (b.used += n) <= (tgsm ? 32768u : 4096u)) return;
    b.reported = true;
    Violation(sink_, tgsm ? RuleId::kTgsmSize : RuleId::kTempsLimit, i.line,
              tgsm ? "at most 32768 bytes of g# in all"
                   : "at most 4096 temps and indexable temps in all",
              absl::StrCat(b.used, tgsm ? " bytes" : ""));
  }

  void CheckThreadGroup(const Instruction& i) {
    if (d_.thread_group != nullptr) {
      Violation(sink_, RuleId::kThreadGroup, i.line, "one dcl_thread_group",
                "a second one");
      return;
    }
    d_.thread_group = &i;
    const uint64_t x = i.operands[0].index, y = i.operands[1].index,
                   z = i.operands[2].index;
    if (x < 1 || x > 1024 || y < 1 || y > 1024 || z < 1 || z > 64 ||
        x * y * z > 1024) {
      Violation(sink_, RuleId::kThreadGroup, i.line,
                "1 <= x, y <= 1024, 1 <= z <= 64 and x*y*z <= 1024",
                absl::StrCat(x, ", ", y, ", ", z));
    }
  }

  void CheckRegisterRange(const Instruction& i) {
    for (const Operand& o : i.operands) {
      if ((o.file == RegFile::kUav && o.index > kMaxUavSlot) ||
          (o.file == RegFile::kTgsm && o.index >= 8192)) {
        Violation(sink_, RuleId::kRegisterRange, i.line, "u0..u63 or g0..g8191",
                  Quote(PrintOperand(o)));
      }
    }
  }

  void CheckDeclared(const Instruction& i, const Operand& o) {
    auto undeclared = [&](std::string what) {
      Violation(sink_, RuleId::kDeclBeforeUse, i.line, std::move(what),
                Quote(PrintOperand(o)));
    };
    if (o.relative && (!d_.temps || o.relative->temp >= *d_.temps)) {
      undeclared(absl::StrCat("r", o.relative->temp, " declared by dcl_temps"));
    }
    switch (o.file) {
      case RegFile::kTemp:
        if (!d_.temps) {
          undeclared("a dcl_temps before using r#");
        } else if (o.index >= *d_.temps) {
          undeclared(absl::StrCat("a register below dcl_temps ", *d_.temps));
        }
        break;
      case RegFile::kIndexableTemp: {
        const uint32_t* size = d_.indexable.find(o.index);
        if (size == nullptr) {
          undeclared("an x# declared by dcl_indexableTemp");
        } else if (!o.relative && o.offset >= *size) {
          undeclared(absl::StrCat("an element below ", *size));
        }
        break;
      }
      case RegFile::kUav:
        if (!d_.uavs.contains(o.index))
          undeclared("a u# declared by dcl_uav_*");
        break;
      case RegFile::kTgsm:
        if (!d_.tgsm.contains(o.index))
          undeclared("a g# declared by dcl_tgsm_*");
        break;
      case RegFile::kInput: {
        const uint8_t* declared = d_.pixel_inputs.find(o.index);
        uint8_t used = 0;
        for (int lane = 0; lane < o.SourceWidth(); ++lane) {
          used |= static_cast<uint8_t>(1u << o.Component(lane));
        }
        if (declared == nullptr || (used & ~*declared) != 0) {
          undeclared(absl::StrCat("components of v", o.index,
                                  " declared by dcl_input_ps_*"));
        }
        break;
      }
      default:
        if (IsSystemValue(o.file) || o.file == RegFile::kInputCoverageMask) {
          const uint8_t* declared = d_.inputs.find(o.file);
          uint8_t used = 0;
          for (int lane = 0; lane < o.SourceWidth(); ++lane) {
            used |= static_cast<uint8_t>(1u << o.Component(lane));
          }
          if (declared == nullptr || (used & ~*declared) != 0) {
            undeclared(absl::StrCat("components declared by dcl_input ",
                                    RegFileName(o.file)));
          }
        }
        break;
    }
  }

  // Registers out of range are reported at their declaration; a use without
  // one is reported by CheckDeclared.
  void CheckInstruction(const Instruction& i) {
    const OpcodeInfo& row = i.info();
    const OperandLayout& layout = Layout(i.op);
    const Operand* ops = i.operands.data();
    for (int k = 0; k < layout.count; ++k) {
      const Operand& o = ops[k];
      CheckDeclared(i, o);
      // SM5.0 has no index on u# or g# at all (E-44); the reader accepts
      // u0[r1.x + 0] and u0[2] so that this rule can name them.
      if ((o.file == RegFile::kUav || o.file == RegFile::kTgsm) &&
          (o.relative || o.offset != 0)) {
        Violation(sink_, RuleId::kDynamicUavIndex, i.line,
                  "a u# or g# without an index", Quote(PrintOperand(o)));
      }
    }
    CheckStage(i);
    if (i.op == Op::kSync) CheckSyncFlags(i);
    if (i.op == Op::kCase && (i.operands[0].file != RegFile::kImmediate ||
                              i.operands[0].value_count != 1)) {
      Violation(sink_, RuleId::kCaseLiteral, i.line, "case l(N)",
                Quote(PrintInstruction(i)));
    }
    const int t = layout.with_role(Role::kTarget);
    if (row.memories != 0 && t >= 0)
      CheckMemoryAccess(i, i.operands[static_cast<size_t>(t)]);
  }

  void CheckSyncFlags(const Instruction& i) {
    const uint8_t f = i.sync_flags;
    const bool both_uav = (f & kSyncUavGroup) && (f & kSyncUavGlobal);
    const bool fences = f & (kSyncUavGroup | kSyncUavGlobal | kSyncTgsm);
    if (both_uav || !fences) {
      Violation(sink_, RuleId::kSyncFlags, i.line,
                "sync with _uglobal or _ugroup (not both) and/or _g, and an "
                "optional _t",
                Quote(SyncMnemonic(f)));
    }
  }

  // Memory kind, operand widths, masks and counters of one memory access.
  void CheckMemoryAccess(const Instruction& i, const Operand& target) {
    const OpcodeInfo& row = i.info();
    const Instruction* decl = nullptr;
    const uint8_t mem = MemoryOf(d_, target, decl);
    if (mem == 0) return;  // undeclared: reported already
    if ((row.memories & mem) == 0) {
      Violation(sink_, RuleId::kMemoryKind, i.line,
                absl::StrCat(row.mnemonic, " on ", MemoryList(row.memories)),
                MemoryName(mem));
      return;
    }
    const Instruction& dcl = *decl;
    if (row.is_atomic() && mem == kUavTyped) {
      for (ReturnType t : dcl.types) {
        if (t != ReturnType::kUint && t != ReturnType::kSint) {
          Violation(
              sink_, RuleId::kTypedFormat, i.line,
              "an atomic on a typed UAV declared uint or sint",
              absl::StrCat("u", target.index, " declared ", ReturnTypeName(t)));
          break;
        }
      }
    }
    if (row.family == Family::kImmAtomic || row.family == Family::kCounter) {
      const Operand& dst0 = i.operands[0];
      if (dst0.file != RegFile::kNull && std::popcount(dst0.mask) != 1) {
        Violation(sink_, RuleId::kDst0SingleComponent, i.line,
                  "dst0 with exactly one component", Quote(PrintOperand(dst0)));
      }
    }
    if (row.family == Family::kStore) CheckStoreMask(i, mem);
    CheckWidths(i, mem, dcl);
  }

  void CheckStoreMask(const Instruction& i, uint8_t mem) {
    const uint8_t mask = i.operands[0].mask;
    const bool typed = mem == kUavTyped;
    const bool ok =
        typed ? mask == 0xF
              : (mask == 0x1 || mask == 0x3 || mask == 0x7 || mask == 0xF);
    if (!ok) {
      Violation(sink_, RuleId::kStoreMask, i.line,
                typed ? "the mask .xyzw" : "a mask .x, .xy, .xyz or .xyzw",
                Quote(PrintOperand(i.operands[0])));
    }
  }

  void CheckWidths(const Instruction& i, uint8_t mem, const Instruction& dcl) {
    const OpcodeInfo& row = i.info();
    const OperandLayout& layout = Layout(i.op);
    const int a = layout.with_role(Role::kAddress);
    if (a >= 0) {
      int need = 1;
      if (mem == kUavStructured || mem == kTgsmStructured) need = 2;
      if (mem == kUavTyped) need = TypedAddressWidth(dcl.dim);
      const Operand& addr = i.operands[static_cast<size_t>(a)];
      if (addr.SourceWidth() < need) {
        Violation(sink_, RuleId::kOperandWidth, i.line,
                  absl::StrCat("an address with ", need, " components"),
                  Quote(PrintOperand(addr)));
      }
    }
    if (!row.is_atomic()) return;
    for (Role r : {Role::kValue, Role::kComparand}) {
      const int k = layout.with_role(r);
      if (k < 0) continue;
      const Operand& v = i.operands[static_cast<size_t>(k)];
      if (v.SourceWidth() != 1) {
        Violation(sink_, RuleId::kOperandWidth, i.line,
                  "a one-component source (r#.c or l(v))",
                  Quote(PrintOperand(v)));
      }
    }
  }

  void CheckCounterMix() {
    SmallSortedMap<uint32_t, uint8_t> use;  // u# -> 1 alloc, 2 consume
    for (const Instruction& i : p_.instructions) {
      if (i.info().family != Family::kCounter) continue;
      uint8_t& u = use[i.operands[1].index];
      u |= i.op == Op::kImmAtomicAlloc ? 1 : 2;
      if (u == 3) {
        Violation(sink_, RuleId::kAllocAndConsume, i.line,
                  "alloc or consume on one UAV, not both",
                  absl::StrCat("both on u", i.operands[1].index));
        u = 4;  // once per UAV
      }
    }
  }

  const Program& p_;
  DiagnosticSink& sink_;
  Declarations d_;
  std::vector<const Instruction*> input_names_;  // dcl_input_ps_* so far
};

}  // namespace

std::span<const Rule> AllRules() { return kRules; }

const Rule& RuleOf(RuleId id) { return kRules[static_cast<size_t>(id)]; }

void Violation(DiagnosticSink& sink, RuleId id, int line, std::string expected,
               std::string found) {
  const Rule& r = RuleOf(id);
  sink.Error(line, 1, std::move(expected), std::move(found),
             absl::StrCat(r.id, ", ", r.spec));
}

void ValidateProgram(const Program& program, DiagnosticSink& sink) {
  ProgramChecker(program, sink).Run();
}

void ValidateCase(const Case& c, DiagnosticSink& sink) {
  ProgramChecker checker(c.shader, sink);
  checker.Run();
  CheckCaseRules(c, checker.decls(), sink);
}

absl::Status Validate(const Case& c) {
  DiagnosticSink sink(c.file.empty() ? "<case>" : c.file);
  ValidateCase(c, sink);
  return sink.ToStatus();
}

absl::Status ValidateWithCheckedProgram(const Case& c) {
  DiagnosticSink sink(c.file.empty() ? "<case>" : c.file);
  // A program without violations declares nothing the declaration rules
  // report; they only gather what the case rules look up.
  ProgramChecker checker(c.shader, sink);
  checker.CollectDeclarations();
  CheckCaseRules(c, checker.decls(), sink);
  return sink.ToStatus();
}

}  // namespace atomfuzz::isa
