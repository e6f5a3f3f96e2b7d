#include "isa/validator.h"

#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "isa/printer.h"
#include "isa/spelling.h"
#include "isa/validation_rules.h"

namespace atomfuzz::isa {
namespace {

constexpr Rule kRules[] = {
    {"decl-before-use", "spec 3.1, 1.8", "every register is declared before use"},
    {"decl-order", "spec 3.1", "declarations precede instructions"},
    {"decl-duplicate", "spec 1.8", "a register is declared once"},
    {"temps-limit", "spec 1.8", "temps plus indexable temps <= 4096"},
    {"thread-group", "spec 1.8", "one dcl_thread_group within 1024x1024x64, x*y*z <= 1024"},
    {"tgsm-size", "spec 1.8", "g# sizes are positive multiples of 4, total <= 32768 bytes"},
    {"stride", "spec 1.2, 1.8", "structured stride > 0, multiple of 4, <= 2048"},
    {"typed-format", "E-24, spec 1.1", "typed atomics only on uint/sint R32 views"},
    {"dst0-single-component", "spec 1.5", "dst0 of an immediate atomic has one component"},
    {"counter-needs-counter", "spec 1.6", "alloc/consume target a structured UAV with a counter"},
    {"alloc-and-consume", "E-37, spec 1.6", "alloc and consume not both on one UAV"},
    {"sync-in-divergent-flow", "E-30, spec 2.2", "sync with _t only in uniform control flow"},
    {"sync-flags", "E-32, E-33, spec 2.2", "sync flags form one of the valid variants"},
    {"dynamic-uav-index", "E-44, spec 1.1", "u# and g# are not indexed dynamically"},
    {"control-flow", "spec 3.1", "if/else/endif, loop/endloop, switch/case/endswitch balance"},
    {"resource-binding", "spec 1.1, 1.2", "every declared u# is bound to a matching resource"},
    {"memory-kind", "spec 1.1, 1.7", "an instruction targets a memory kind it supports"},
    {"store-mask", "spec 1.7", "store masks are .x, .xy, .xyz, .xyzw (typed: .xyzw)"},
    {"operand-width", "spec 1.2, 1.4", "addresses have enough components; atomic values one"},
    {"dispatch", "spec 1.8", "each group count <= 65535"},
    {"register-range", "spec 1.1, 1.8", "u# <= 63, g# < 8192"},
    {"opc-needs-counter", "spec 1.6", "_opc declares a UAV whose view has a counter"},
    {"ends-with-ret", "spec 3.1", "the program ends with ret"},
    {"case-literal", "FS 22.7", "case takes a scalar immediate"},
    {"expectation", "docs/case-format.md", "expectations name existing words, counters and atomics"},
};
static_assert(std::size(kRules) == static_cast<size_t>(RuleId::kExpectation) + 1);

// Declarations gathered in one pass, then consulted by the instruction checks.
struct Declarations {
  std::optional<uint32_t> temps;
  std::map<uint32_t, uint32_t> indexable;        // x# -> size
  std::map<uint32_t, const Instruction*> uavs;   // u# -> dcl
  std::map<uint32_t, const Instruction*> tgsm;   // g# -> dcl
  std::map<RegFile, uint8_t> inputs;             // system value -> mask
  int thread_groups = 0;
};

uint8_t MemoryOf(const Declarations& d, const Operand& op) {
  if (op.file == RegFile::kUav) {
    auto it = d.uavs.find(op.index);
    if (it == d.uavs.end()) return 0;
    switch (it->second->op) {
      case Op::kDclUavRaw: return kUavRaw;
      case Op::kDclUavStructured: return kUavStructured;
      default: return kUavTyped;
    }
  }
  if (op.file == RegFile::kTgsm) {
    auto it = d.tgsm.find(op.index);
    if (it == d.tgsm.end()) return 0;
    return it->second->op == Op::kDclTgsmRaw ? kTgsmRaw : kTgsmStructured;
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

class ProgramChecker {
 public:
  ProgramChecker(const Program& p, DiagnosticSink& sink) : p_(p), sink_(sink) {}

  void Run() {
    CollectDeclarations();
    for (const Instruction& inst : p_.instructions) {
      if (inst.info().family != Family::kDecl) CheckInstruction(inst);
    }
    CheckCounterMix();
    if (p_.instructions.empty() || p_.instructions.back().op != Op::kRet) {
      const int line = p_.instructions.empty() ? 0 : p_.instructions.back().line;
      Violation(sink_, RuleId::kEndsWithRet, line, "ret as the last instruction",
                p_.instructions.empty() ? "no instructions"
                                        : Quote(PrintInstruction(p_.instructions.back())));
    }
    CheckControlFlow(p_, sink_);
  }

  const Declarations& decls() const { return d_; }

 private:
  void Declare(std::map<uint32_t, const Instruction*>& map, const Instruction& i,
               const char* what) {
    const uint32_t n = i.operands[0].index;
    if (!map.emplace(n, &i).second) {
      Violation(sink_, RuleId::kDeclDuplicate, i.line,
                absl::StrCat("one declaration of ", what, n), "a second one");
    }
  }

  void CollectDeclarations() {
    bool seen_code = false;
    uint32_t tgsm_bytes = 0;
    for (const Instruction& i : p_.instructions) {
      if (i.info().family != Family::kDecl) {
        seen_code = true;
        continue;
      }
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
          }
          d_.temps = i.operands[0].index;
          break;
        case Op::kDclIndexableTemp:
          if (!d_.indexable.emplace(i.operands[0].index, i.operands[0].offset)
                   .second) {
            Violation(sink_, RuleId::kDeclDuplicate, i.line,
                      absl::StrCat("one declaration of x", i.operands[0].index),
                      "a second one");
          }
          break;
        case Op::kDclUavRaw:
        case Op::kDclUavTyped:
          Declare(d_.uavs, i, "u");
          break;
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
          tgsm_bytes = static_cast<uint32_t>(
              std::min<uint64_t>(tgsm_bytes + bytes, 0xFFFFFFFFu));
          if (tgsm_bytes > 32768) {
            Violation(sink_, RuleId::kTgsmSize, i.line,
                      "at most 32768 bytes of g# in all",
                      absl::StrCat(tgsm_bytes, " bytes"));
            tgsm_bytes = 0;  // report once per overflow
          }
          break;
        }
        case Op::kDclInput: {
          const Operand& o = i.operands[0];
          if (d_.inputs.contains(o.file)) {
            Violation(sink_, RuleId::kDeclDuplicate, i.line,
                      absl::StrCat("one dcl_input of ", RegFileName(o.file)),
                      "a second one");
          }
          d_.inputs[o.file] = o.file == RegFile::kThreadIDInGroupFlattened
                                  ? 0x1
                                  : o.mask;
          break;
        }
        case Op::kDclThreadGroup:
          CheckThreadGroup(i);
          break;
        default:
          break;
      }
    }
    uint64_t total = d_.temps.value_or(0);
    for (const auto& [x, size] : d_.indexable) total += size;
    if (total > 4096) {
      Violation(sink_, RuleId::kTempsLimit, 0,
                "at most 4096 temps and indexable temps in all",
                absl::StrCat(total));
    }
    if (d_.thread_groups != 1) {
      Violation(sink_, RuleId::kThreadGroup, 0, "exactly one dcl_thread_group",
                absl::StrCat(d_.thread_groups));
    }
  }

  void CheckThreadGroup(const Instruction& i) {
    ++d_.thread_groups;
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
        if (!d_.temps || o.index >= *d_.temps) {
          undeclared(absl::StrCat("a register below dcl_temps ",
                                  d_.temps.value_or(0)));
        }
        break;
      case RegFile::kIndexableTemp: {
        auto it = d_.indexable.find(o.index);
        if (it == d_.indexable.end()) {
          undeclared("an x# declared by dcl_indexableTemp");
        } else if (!o.relative && o.offset >= it->second) {
          undeclared(absl::StrCat("an element below ", it->second));
        }
        break;
      }
      case RegFile::kUav:
        if (!d_.uavs.contains(o.index)) undeclared("a u# declared by dcl_uav_*");
        break;
      case RegFile::kTgsm:
        if (!d_.tgsm.contains(o.index)) undeclared("a g# declared by dcl_tgsm_*");
        break;
      default:
        if (IsSystemValue(o.file)) {
          auto it = d_.inputs.find(o.file);
          uint8_t used = 0;
          for (int lane = 0; lane < o.SourceWidth(); ++lane) {
            used |= static_cast<uint8_t>(1u << o.Component(lane));
          }
          if (it == d_.inputs.end() || (used & ~it->second) != 0) {
            undeclared(absl::StrCat("components declared by dcl_input ",
                                    RegFileName(o.file)));
          }
        }
        break;
    }
  }

  void CheckInstruction(const Instruction& i) {
    const OpcodeInfo& row = i.info();
    CheckRegisterRange(i);
    for (int k = 0; k < row.operand_count(); ++k) {
      const Operand& o = i.operands[static_cast<size_t>(k)];
      CheckDeclared(i, o);
      if ((o.file == RegFile::kUav || o.file == RegFile::kTgsm) && o.relative) {
        Violation(sink_, RuleId::kDynamicUavIndex, i.line,
                  "a u# or g# with a constant index", Quote(PrintOperand(o)));
      }
    }
    if (i.op == Op::kSync) CheckSyncFlags(i);
    if (i.op == Op::kCase &&
        (i.operands[0].file != RegFile::kImmediate ||
         i.operands[0].value_count != 1)) {
      Violation(sink_, RuleId::kCaseLiteral, i.line, "case l(N)",
                Quote(PrintInstruction(i)));
    }
    const int t = row.operand_with_role(Role::kTarget);
    if (row.memories != 0 && t >= 0) CheckMemoryAccess(i, i.operands[static_cast<size_t>(t)]);
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
    const uint8_t mem = MemoryOf(d_, target);
    if (mem == 0) return;  // undeclared: reported already
    if ((row.memories & mem) == 0) {
      Violation(sink_, RuleId::kMemoryKind, i.line,
                absl::StrCat(row.mnemonic, " on a memory kind it supports"),
                MemoryName(mem));
      return;
    }
    const Instruction& dcl = target.file == RegFile::kUav
                                 ? *d_.uavs.at(target.index)
                                 : *d_.tgsm.at(target.index);
    if (row.is_atomic() && mem == kUavTyped) {
      for (ReturnType t : dcl.types) {
        if (t != ReturnType::kUint && t != ReturnType::kSint) {
          Violation(sink_, RuleId::kTypedFormat, i.line,
                    "an atomic on a typed UAV declared uint or sint",
                    Quote(PrintInstruction(dcl)));
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
    const bool ok = typed ? mask == 0xF
                          : (mask == 0x1 || mask == 0x3 || mask == 0x7 ||
                             mask == 0xF);
    if (!ok) {
      Violation(sink_, RuleId::kStoreMask, i.line,
                typed ? "the mask .xyzw" : "a mask .x, .xy, .xyz or .xyzw",
                Quote(PrintOperand(i.operands[0])));
    }
  }

  void CheckWidths(const Instruction& i, uint8_t mem, const Instruction& dcl) {
    const OpcodeInfo& row = i.info();
    const int a = row.operand_with_role(Role::kAddress);
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
      const int k = row.operand_with_role(r);
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
    std::map<uint32_t, uint8_t> use;  // u# -> 1 alloc, 2 consume
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
};

bool TypeMatchesFormat(ReturnType t, Format f) {
  return (t == ReturnType::kUint && f == Format::kR32Uint) ||
         (t == ReturnType::kSint && f == Format::kR32Sint) ||
         (t == ReturnType::kFloat && f == Format::kR32Float);
}

void CheckBinding(const Case& c, const Declarations& d, DiagnosticSink& sink) {
  for (const auto& [slot, dcl] : d.uavs) {
    const Resource* r = c.FindResource(slot);
    const std::string what = absl::StrCat("u", slot);
    if (r == nullptr) {
      Violation(sink, RuleId::kResourceBinding, dcl->line,
                absl::StrCat("a [uav ", what, "] section for ", what),
                "none");
      continue;
    }
    auto mismatch = [&](std::string expected, std::string found) {
      Violation(sink, RuleId::kResourceBinding, r->line, std::move(expected),
                std::move(found));
    };
    switch (dcl->op) {
      case Op::kDclUavRaw:
        if (r->kind != ResourceKind::kRaw)
          mismatch(absl::StrCat("kind raw, as declared for ", what),
                   absl::StrCat("kind ", ResourceKindName(r->kind)));
        break;
      case Op::kDclUavStructured:
        if (r->kind != ResourceKind::kStructured ||
            r->stride != dcl->operands[1].index) {
          mismatch(absl::StrCat("kind structured with stride ",
                                dcl->operands[1].index, ", as declared"),
                   absl::StrCat("kind ", ResourceKindName(r->kind),
                                r->kind == ResourceKind::kStructured
                                    ? absl::StrCat(" stride ", r->stride)
                                    : ""));
        }
        if (dcl->opc && !r->counter) {
          Violation(sink, RuleId::kOpcNeedsCounter, r->line,
                    absl::StrCat("a 'counter' line for ", what,
                                 ", declared _opc"),
                    "none");
        }
        break;
      default:
        if (r->kind != ResourceKind::kTyped || r->dim != dcl->dim) {
          mismatch(absl::StrCat("kind typed, dim ", DimName(dcl->dim),
                                ", as declared"),
                   absl::StrCat("kind ", ResourceKindName(r->kind),
                                r->kind == ResourceKind::kTyped
                                    ? absl::StrCat(" dim ", DimName(r->dim))
                                    : ""));
        } else if (!TypeMatchesFormat(dcl->types[0], r->format)) {
          mismatch(absl::StrCat("a format matching (",
                                ReturnTypeName(dcl->types[0]), ",...)"),
                   absl::StrCat("format ", FormatName(r->format)));
        }
        break;
    }
  }
  for (const Resource& r : c.resources) {
    if (!d.uavs.contains(r.slot)) {
      Violation(sink, RuleId::kResourceBinding, r.line,
                absl::StrCat("a dcl_uav_* for the bound u", r.slot), "none");
    }
  }
}

void CheckCounters(const Case& c, const Program& p, DiagnosticSink& sink) {
  for (const Instruction& i : p.instructions) {
    if (i.info().family != Family::kCounter) continue;
    const Resource* r = c.FindResource(i.operands[1].index);
    if (r != nullptr && !r->counter) {
      Violation(sink, RuleId::kCounterNeedsCounter, i.line,
                absl::StrCat("a 'counter' line in [uav u", r->slot, "]"),
                "a UAV without a counter");
    }
  }
}

void CheckExpectations(const Case& c, DiagnosticSink& sink) {
  for (const WordExpectation& w : c.expect_words) {
    const Resource* r = c.FindResource(w.slot);
    if (r == nullptr || w.last >= r->init.size()) {
      Violation(sink, RuleId::kExpectation, w.line,
                r ? absl::StrCat("word indices below ", r->init.size())
                  : absl::StrCat("a bound u", w.slot),
                absl::StrCat("word ", w.last));
    }
  }
  for (const CounterExpectation& k : c.expect_counters) {
    const Resource* r = c.FindResource(k.slot);
    if (r == nullptr || !r->counter) {
      Violation(sink, RuleId::kExpectation, k.line,
                absl::StrCat("a counter on u", k.slot), "none");
    }
  }
  uint32_t returning = 0;
  for (const Instruction& i : c.shader.instructions) {
    if (i.info().returns_old()) ++returning;
  }
  for (const ReturnExpectation& e : c.expect_returns) {
    if (e.atomic >= returning) {
      Violation(sink, RuleId::kExpectation, e.line,
                absl::StrCat("an atomic number below ", returning),
                absl::StrCat(e.atomic));
    }
  }
}

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
  for (uint32_t g : c.groups) {
    if (g > 65535) {
      Violation(sink, RuleId::kDispatch, 0, "group counts <= 65535",
                absl::StrCat(c.groups[0], ", ", c.groups[1], ", ", c.groups[2]));
      break;
    }
  }
  CheckBinding(c, checker.decls(), sink);
  CheckCounters(c, c.shader, sink);
  CheckExpectations(c, sink);
}

absl::Status Validate(const Case& c) {
  DiagnosticSink sink(c.file.empty() ? "<case>" : c.file);
  ValidateCase(c, sink);
  return sink.ToStatus();
}

}  // namespace atomfuzz::isa
