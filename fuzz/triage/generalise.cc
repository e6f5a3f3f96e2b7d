#include "fuzz/triage/generalise.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzz/differential.h"
#include "fuzz/runner.h"
#include "fuzz/triage/generalise_edits.h"
#include "fuzz/triage/memory_conversion.h"
#include "isa/coverage.h"
#include "isa/validator.h"
#include "oracle/rmw.h"

namespace atomfuzz::fuzz {

const char* OperationName(isa::Rmw rmw) {
  switch (rmw) {
    case isa::Rmw::kIAdd: return "iadd";
    case isa::Rmw::kAnd: return "and";
    case isa::Rmw::kOr: return "or";
    case isa::Rmw::kXor: return "xor";
    case isa::Rmw::kExch: return "exch";
    case isa::Rmw::kCmpExch: return "cmp_exch";
    case isa::Rmw::kIMax: return "imax";
    case isa::Rmw::kIMin: return "imin";
    case isa::Rmw::kUMax: return "umax";
    case isa::Rmw::kUMin: return "umin";
    case isa::Rmw::kAlloc: return "alloc";
    case isa::Rmw::kConsume: return "consume";
    case isa::Rmw::kNone: break;
  }
  return "?";
}

namespace {

using isa::Op;

// Operation names in one fixed order (the key must not depend on the order
// edits ran in).
constexpr const char* kOperations[] = {"iadd", "and",      "or",    "xor",
                                       "exch", "cmp_exch", "imax",  "imin",
                                       "umax", "umin",     "alloc", "consume"};

// Runs edited cases within the budget.
class Prober {
 public:
  Prober(targets::Target& target, const GeneraliseOptions& options)
      : target_(target), options_(options) {}

  // The target's outcome on `c` if it gives a wrong value there; nullopt
  // when it does not, or when `c` was not run (`ran` says which).
  std::optional<isa::Outcome> Run(const std::optional<isa::Case>& c,
                                  const std::string& edit, bool& ran) {
    ran = false;
    if (!c) return std::nullopt;
    if (absl::Status v = isa::Validate(*c); !v.ok()) {
      Log(edit, absl::StrCat("invalid (", v.message(), ")"));
      return std::nullopt;
    }
    if (runs_ >= options_.max_runs || absl::Now() >= options_.deadline) {
      cut_ = true;
      return std::nullopt;
    }
    ++runs_;
    ran = true;
    absl::StatusOr<Differential> d = RunAndJudge(*c, target_, options_.judge);
    const bool diverges =
        d.ok() && d->verdict.kind == oracle::Verdict::Kind::kDivergence &&
        !d->verdict.findings.empty() &&
        IsWrongValue(FindingKindToken(d->verdict.findings.front().kind));
    Log(edit, diverges ? "diverges" : "does not");
    if (!diverges) return std::nullopt;
    return std::move(d->outcome);
  }
  // nullopt: not run (invalid edit, or the budget is spent).
  std::optional<bool> Diverges(const std::optional<isa::Case>& c,
                               const std::string& edit) {
    bool ran = false;
    const bool d = Run(c, edit, ran).has_value();
    if (!ran) return std::nullopt;
    return d;
  }
  int runs() const { return runs_; }
  bool cut() const { return cut_; }
  void Log(const std::string& edit, absl::string_view what) const {
    if (options_.log) options_.log(absl::StrCat(edit, ": ", what));
  }

 private:
  targets::Target& target_;
  const GeneraliseOptions& options_;
  int runs_ = 0;
  bool cut_ = false;
};

// What the opcode edits of one atomic showed.
struct OpcodeProfile {
  size_t at = 0;
  std::set<std::string> tried, shown;  // operation names
  bool imm_tried = false, imm_shown = false;
  bool plain_tried = false, plain_shown = false;
  int runs = 0, diverged = 0;  // its own opcode included
  double Share() const { return runs == 0 ? 1.0 : double(diverged) / runs; }
};

void Note(OpcodeProfile& p, const isa::OpcodeInfo& row, bool diverged) {
  const std::string name = OperationName(row.rmw);
  p.tried.insert(name);
  ++p.runs;
  const bool imm = row.family == isa::Family::kImmAtomic;
  const bool plain = row.family == isa::Family::kAtomic;
  p.imm_tried |= imm;
  p.plain_tried |= plain;
  if (!diverged) return;
  ++p.diverged;
  p.shown.insert(name);
  p.imm_shown |= imm;
  p.plain_shown |= plain;
}

OpcodeProfile ProfileOpcodes(const isa::Case& c, size_t at, Prober& prober) {
  OpcodeProfile p;
  p.at = at;
  const isa::Instruction& atomic = c.shader.instructions[at];
  Note(p, atomic.info(), true);
  for (Op op : OpcodeAlternatives(atomic)) {
    const std::string as =
        absl::StrCat("instruction ", at, " as ", isa::Info(op).mnemonic);
    std::optional<isa::Case> v = WithOpcode(c, at, op);
    std::optional<bool> d = prober.Diverges(v, as);
    if (!d) continue;
    // The case's value may leave the word as it was under this operation
    // (and with 0, umin with 0, xor with 0): a bug in what all operations
    // share cannot show then. Two values that change most words do.
    for (uint32_t value : {1u, 0xffffffffu}) {
      if (*d || !v) break;
      *d = prober
               .Diverges(WithValue(*v, at, value),
                         absl::StrFormat("%s, value 0x%x", as, value))
               .value_or(false);
    }
    Note(p, isa::Info(op), *d);
  }
  return p;
}

// "*" when the divergence shows with three or more operations (one whose
// arithmetic leaves this case's word unchanged cannot show a bug that needs
// a change, so "all" would ask too much), else the operations it shows with;
// "imm:" when it needs the returning form, and "atomic:" when it needs the
// other.
std::string OpcodeToken(const OpcodeProfile& p, isa::Family family) {
  std::vector<std::string> shown;
  for (const char* name : kOperations) {
    if (p.shown.count(name) != 0) shown.push_back(name);
  }
  const bool counter = family == isa::Family::kCounter;
  // Bugs of the arithmetic are of one operation or of a min/max pair of one
  // signedness; any other set (iadd+xor) is operations whose arithmetic
  // happened to change this case's words, not the bug's.
  const bool pair =
      shown.size() == 2 && ((shown[0] == "imax" && shown[1] == "imin") ||
                            (shown[0] == "umax" && shown[1] == "umin"));
  const bool most =
      !counter && p.tried.size() >= 6 && shown.size() >= 2 && !pair;
  std::string ops = most ? "*" : absl::StrJoin(shown, "+");
  if (!counter && family == isa::Family::kImmAtomic && p.plain_tried &&
      !p.plain_shown)
    return "imm:" + ops;
  if (!counter && family == isa::Family::kAtomic && p.imm_tried && !p.imm_shown)
    return "atomic:" + ops;
  return ops;
}

// What the dst0 edits of an atomic showed: the condition ("" when the
// component does not matter or nothing could be learnt), and an edited case
// that diverges with dst0 elsewhere than the case had it.
struct DstProfile {
  std::string condition;
  std::optional<isa::Case> exposed;
  size_t exposed_at = 0;
};

DstProfile ProfileDst(const isa::Case& c, size_t at, Prober& prober) {
  DstProfile out;
  std::vector<int> shown, tried;
  // A component the atomic should have written keeps what was there: a
  // value no reduced case computes, else 0 (what a register holds before
  // anything is written, on most executors), whichever the case's use of
  // it tells apart from the right one. The edited case kept to ask the
  // operations again is the first that diverged, the marker's if it did.
  constexpr uint32_t kFills[] = {0xa5e1f00d, 0};
  for (int k = 0; k < 4; ++k) {
    bool ran = false, diverged = false;
    for (uint32_t fill : kFills) {
      size_t moved = 0;
      std::optional<isa::Case> v = WithDstComponent(c, at, k, fill, &moved);
      std::optional<bool> d = prober.Diverges(
          v, absl::StrFormat("instruction %d dst0 in .%c (filled with 0x%x)",
                             at, "xyzw"[k], fill));
      ran |= d.has_value();
      if (d.value_or(false)) {
        diverged = true;
        if (!out.exposed) {
          out.exposed = std::move(v);
          out.exposed_at = moved;
        }
        break;
      }
    }
    if (!diverged) {
      std::optional<bool> d = prober.Diverges(
          WithDstComponentInPlace(c, at, k),
          absl::StrFormat("instruction %d dst0 in .%c of its own register", at,
                          "xyzw"[k]));
      ran |= d.has_value();
      diverged = d.value_or(false);
    }
    if (!ran) continue;
    tried.push_back(k);
    if (diverged) shown.push_back(k);
  }
  if (tried.size() < 4 || shown.empty() || shown.size() == 4) {
    out.exposed.reset();
    return out;
  }
  static constexpr char kXyzw[] = "xyzw";
  if (shown.size() == 3) {
    for (int k = 0; k < 4; ++k) {
      if (std::find(shown.begin(), shown.end(), k) == shown.end())
        out.condition = absl::StrCat("dst!=", std::string(1, kXyzw[k]));
    }
  } else {
    std::string set;
    for (int k : shown) set += kXyzw[k];
    out.condition = absl::StrCat("dst=", set);
  }
  return out;
}

// "threads>1" when no thread alone shows the divergence (up to four are
// tried, with the others returning at once), "groups>1" when neither does
// one group of the dispatch; "barrier" when it goes with the barriers.
std::vector<std::string> ThreadConditions(const isa::Case& c, Prober& prober) {
  std::vector<std::string> out;
  if (prober.Diverges(WithoutBarriers(c), "no barriers").value_or(true) ==
      false)
    out.push_back("barrier");
  const uint64_t n = isa::ThreadCount(c);
  if (n <= 1 || HasBarrier(c.shader)) return out;
  std::set<uint64_t> picks = {0, 1, n / 2, n - 1};
  bool alone = false, tried = false;
  for (uint64_t k : picks) {
    std::optional<bool> d = prober.Diverges(
        WithOnlyThread(c, k), absl::StrCat("only thread ", k, " runs"));
    tried |= d.has_value();
    if (d.value_or(false)) {
      alone = true;
      break;
    }
  }
  if (!tried || alone) return out;
  const bool many_groups = c.groups[0] * c.groups[1] * c.groups[2] > 1;
  out.push_back(
      !many_groups ||
              prober.Diverges(WithOneGroup(c), "one group").value_or(false)
          ? "threads>1"
          : "groups>1");
  return out;
}

// How the atomic's wrong return relates to the spec's value (the oracle's
// canonical run), in its first event whose return differs.
std::string ReturnRelation(const isa::Case& c, const isa::Outcome& outcome,
                           size_t at) {
  const isa::OpcodeInfo& row = c.shader.instructions[at].info();
  if (!row.returns_old() || !outcome.has_trace) return "";
  RunOptions spec_run;
  spec_run.target = "oracle";
  absl::StatusOr<isa::Outcome> spec = RunCase(c, spec_run);
  if (!spec.ok() || !spec->has_trace) return "";
  auto relation = [&](uint32_t got, const isa::AtomicEvent& o) -> std::string {
    if (row.rmw == isa::Rmw::kConsume && got == *o.returned + 1)
      return "returns=before-decrement";
    if (row.rmw == isa::Rmw::kAlloc || row.rmw == isa::Rmw::kConsume) return "";
    // cmp_exch: src0 is the comparand (isa/outcome.h).
    if (row.rmw == isa::Rmw::kCmpExch &&
        got == (*o.returned == o.src0 ? 1u : 0u))
      return "returns=flag";
    if (got == oracle::ApplyRmw(row.rmw, *o.returned, o.src0, o.src1))
      return "returns=new";
    return "";
  };
  for (const isa::AtomicEvent& t : outcome.trace) {
    if (t.instruction != at || !t.returned) continue;
    for (const isa::AtomicEvent& o : spec->trace) {
      if (o.instruction != at || o.group != t.group || o.thread != t.thread ||
          o.occurrence != t.occurrence || !o.returned ||
          *o.returned == *t.returned) {
        continue;
      }
      return relation(*t.returned, o);
    }
  }
  return "";
}

// The relation of ReturnRelation, checked in a thread running alone where
// the case has several (a racing neighbour's update can make a return look
// like "the value after": the first thread whose return differs runs), then
// again with another value (a coincidence of small numbers, an old 1 that
// equals 0 | 1, does not survive a value whose result differs).
std::string RelationAlone(const isa::Case& c, const isa::Outcome& outcome,
                          size_t at, Prober& prober) {
  std::string relation = ReturnRelation(c, outcome, at);
  if (relation.empty()) return "";
  std::optional<isa::Case> alone;
  size_t alone_at = at;
  if (isa::ThreadCount(c) > 1) {
    // The thread of the trace's first event at `at`, flattened as
    // WithOnlyThread counts them.
    std::array<uint32_t, 3> size = {1, 1, 1};
    for (const isa::Instruction& d : c.shader.instructions) {
      if (d.op == isa::Op::kDclThreadGroup && d.operands.size() == 3)
        for (size_t k = 0; k < 3; ++k) size[k] = d.operands[k].index;
    }
    for (const isa::AtomicEvent& e : outcome.trace) {
      if (e.instruction != at || !e.returned) continue;
      const uint64_t group =
          e.group[0] + uint64_t{c.groups[0]} *
                           (e.group[1] + uint64_t{c.groups[1]} * e.group[2]);
      const uint64_t local =
          e.thread[0] +
          uint64_t{size[0]} * (e.thread[1] + uint64_t{size[1]} * e.thread[2]);
      const uint64_t per_group = uint64_t{size[0]} * size[1] * size[2];
      alone = WithOnlyThread(c, group * per_group + local);
      break;
    }
    if (!alone) return "";
    alone_at =
        at + alone->shader.instructions.size() - c.shader.instructions.size();
    bool ran = false;
    std::optional<isa::Outcome> o =
        prober.Run(alone,
                   absl::StrCat("only the thread of instruction ", at,
                                "'s first wrong return runs"),
                   ran);
    if (!o) return "";
    relation = ReturnRelation(*alone, *o, alone_at);
    if (relation.empty()) return "";
  }
  const isa::Case& base = alone ? *alone : c;
  // A success flag must follow the compare: 1 with the comparand set to
  // the old value, 0 with another (a wrong word that holds 0 or 1 cannot
  // do both); the value after the operation must follow the value.
  std::vector<std::optional<isa::Case>> checks;
  if (relation == "returns=flag") {
    RunOptions spec_run;
    spec_run.target = "oracle";
    absl::StatusOr<isa::Outcome> spec = RunCase(base, spec_run);
    if (!spec.ok()) return "";
    std::optional<uint32_t> old;
    for (const isa::AtomicEvent& e : spec->trace) {
      if (e.instruction == alone_at && e.returned) {
        old = *e.returned;
        break;
      }
    }
    if (!old) return "";
    checks.push_back(WithComparand(base, alone_at, *old));
    checks.push_back(WithComparand(base, alone_at, *old ^ 0x5a5a5a5au));
  } else if (relation == "returns=new") {
    checks.push_back(WithValue(base, alone_at, 0x00c0ffee));
  }  // a counter has no operand to vary: the thread alone is the check
  for (const std::optional<isa::Case>& other : checks) {
    bool ran = false;
    std::optional<isa::Outcome> o = prober.Run(
        other, absl::StrCat("instruction ", at, "'s return, another value"),
        ran);
    if (!o || ReturnRelation(*other, *o, alone_at) != relation) return "";
  }
  return relation;
}

// The culprit's memory kind when the divergence goes with it, "*" when it
// shows on another kind too, or when no other kind could be tried (then
// `untested`: a memory with a counter, a g# read back through u#).
std::string MemoryToken(const isa::Case& c, size_t at, Prober& prober,
                        bool& untested) {
  const isa::Instruction& atomic = c.shader.instructions[at];
  const int t = atomic.info().operand_with_role(isa::Role::kTarget);
  std::string own = "?";
  if (t >= 0) {
    const isa::Operand& o = atomic.operands[static_cast<size_t>(t)];
    const auto kinds = isa::DeclaredKinds(c.shader);
    auto it = kinds.find({o.file, o.index});
    if (it != kinds.end()) own = std::string(isa::TargetKindName(it->second));
  }
  bool tried = false;
  for (MemoryVariant& v : WithOtherMemory(c, at)) {
    std::optional<bool> d = prober.Diverges(
        std::move(v.c),
        absl::StrCat("instruction ", at, "'s memory as ", v.kind));
    tried |= d.has_value();
    if (d.value_or(false)) return "*";
  }
  untested = !tried;
  return tried ? own : "*";
}

// The memory classes a key names: u-raw, u-struct, u-typed (any dimension:
// a bug of Texture2D coordinates shows on Texture2DArray too, and which
// typed view a case declared is incidental), g (raw or structured). The
// exact kind is said in the trigger.
std::string MemoryClass(const std::string& kind) {
  if (kind == "*" || kind == "?" || kind == "u-raw" || kind == "u-struct")
    return kind;
  if (absl::StartsWith(kind, "g-")) return "g";
  return "u-typed";
}

// The spec's class of the atomic's accesses (the oracle's run): the most
// unusual one, as signatures do.
std::optional<std::string> SpecClassOf(const isa::Case& c, size_t at) {
  RunOptions spec_run;
  spec_run.target = "oracle";
  absl::StatusOr<isa::Outcome> spec = RunCase(c, spec_run);
  if (!spec.ok() || !spec->has_trace) return std::nullopt;
  std::optional<isa::AddressClass> worst;
  for (const isa::AtomicEvent& e : spec->trace) {
    if (e.instruction != at) continue;
    if (!worst || AddressSeverity(e.address) > AddressSeverity(*worst))
      worst = e.address;
  }
  if (!worst) return std::nullopt;
  return std::string(isa::AddressClassName(*worst));
}

// Where nothing about an atomic explains the divergence, the atomic only
// observed it: a load or store with a constant address out of bounds that
// must stay there (its memory kind then keyed, as for an atomic), or an ALU
// instruction on constants that the target computes wrong (folded to the
// spec's values, the divergence goes: keyed by its mnemonic). Two bugs that
// only meet atomics would otherwise share the "nothing" bucket.
bool ExplainWithoutAtomics(const isa::Case& c, Prober& prober, Signature& s,
                           std::vector<std::string>& notes) {
  for (size_t at : PlainAccesses(c.shader)) {
    if (!ConstantlyOutOfBounds(c, at)) continue;
    const bool moved =
        prober
            .Diverges(WithFirstAddress(c, at),
                      absl::StrCat("instruction ", at, " at address 0"))
            .value_or(true);
    if (moved) continue;
    bool untested = false;
    s.resource = MemoryClass(MemoryToken(c, at, prober, untested));
    // Out of bounds keys the bucket where the memory kind does not.
    s.address = s.resource == "*" ? "out-of-bounds" : "*";
    s.opcode = "*";
    notes.push_back(
        absl::StrCat("via=", c.shader.instructions[at].info().mnemonic));
    return true;
  }
  for (size_t at = 0; at < c.shader.instructions.size(); ++at) {
    std::optional<isa::Case> folded = WithFolded(c, at);
    if (!folded) continue;
    if (prober
            .Diverges(folded, absl::StrCat("instruction ", at,
                                           " folded to the spec's values"))
            .value_or(true))
      continue;
    // "alu:": ALU and atomic operations share names (xor, imax).
    s.opcode = absl::StrCat("alu:", c.shader.instructions[at].info().mnemonic);
    s.resource = "*";
    s.address = "*";
    return true;
  }
  return false;
}

}  // namespace

std::string Generalised::Cost() const {
  return absl::StrFormat("%d runs, %.2f s%s", runs, seconds,
                         complete ? "" : ", budget spent");
}

Generalised Generalise(const isa::Case& reduced, const Signature& found,
                       targets::Target& target,
                       const GeneraliseOptions& options) {
  const absl::Time start = absl::Now();
  Generalised g;
  g.signature = found;
  if (!found.cause.empty() || !IsWrongValue(found.divergence)) {
    g.trigger = TriggerSentence(g.signature);
    return g;
  }
  Prober prober(target, options);
  bool ran = false;
  const std::optional<isa::Outcome> outcome =
      prober.Run(reduced, "the case as it is", ran);
  if (!outcome) {
    // Not reproducible on this target as it is run here: nothing to learn.
    g.runs = prober.runs();
    g.trigger = TriggerSentence(g.signature);
    return g;
  }
  Signature& s = g.signature;
  s.divergence = "wrong-value";
  std::vector<std::string> conditions, notes;
  const std::vector<size_t> atomics = AtomicInstructions(reduced.shader);

  // The culprit, the atomic the divergence depends on most: one whose dst0
  // component matters (a wrong dst0 shows wherever its value goes next),
  // then one out of bounds that must stay there, then the one with the
  // smallest share of opcode edits still diverging; on a tie, the one the
  // signature names.
  struct Candidate {
    OpcodeProfile opcodes;
    DstProfile dst;
    std::string address;           // the spec's class of its accesses
    bool address_matters = false;  // out of bounds, and not at address 0
  };
  std::optional<Candidate> culprit;
  const auto named = [&](const Candidate& x) {
    return reduced.shader.instructions[x.opcodes.at].info().mnemonic ==
           found.opcode;
  };
  const auto rank = [&](const Candidate& x) {
    return std::make_tuple(x.dst.condition.empty(), !x.address_matters,
                           x.opcodes.Share(), !named(x));
  };
  for (size_t at : atomics) {
    Candidate k{ProfileOpcodes(reduced, at, prober), {}, "?", false};
    if (reduced.shader.instructions[at].info().returns_old())
      k.dst = ProfileDst(reduced, at, prober);
    k.address = SpecClassOf(reduced, at).value_or("?");
    if (k.address != "in-bounds" && k.address != "?") {
      // An atomic out of bounds that diverges as well at address 0 shows
      // the bug in bounds: its class was the case's, not the bug's.
      const bool moved =
          prober
              .Diverges(WithFirstAddress(reduced, at),
                        absl::StrCat("instruction ", at, " at address 0"))
              .value_or(false);
      if (moved) k.address = "in-bounds";
      k.address_matters = !moved;
    }
    if (!culprit || rank(k) < rank(*culprit)) culprit = std::move(k);
  }
  std::string address = "?";
  if (!culprit) {
    // No atomic at all: loads, stores and barriers diverge by themselves.
    s.opcode = "none";
    s.resource = "*";
  } else {
    // Where dst0 matters, the operations are asked again with dst0 where it
    // shows: the case's own values may hide it from some of them (an old
    // value equal to what the register held), the marker does not.
    if (culprit->dst.exposed) {
      OpcodeProfile again = ProfileOpcodes(*culprit->dst.exposed,
                                           culprit->dst.exposed_at, prober);
      again.at = culprit->opcodes.at;
      culprit->opcodes = std::move(again);
    }
    const OpcodeProfile& profile = culprit->opcodes;
    const isa::Instruction& atomic = reduced.shader.instructions[profile.at];
    s.opcode = profile.Share() >= 1.0 && profile.runs > 1
                   ? "*"
                   : OpcodeToken(profile, atomic.info().family);
    // Whether only the returning form shows it is said, not keyed: a return
    // is also just how some cases observe a wrong word.
    for (absl::string_view form : {"imm:", "atomic:"}) {
      if (absl::StartsWith(s.opcode, form)) {
        notes.push_back(absl::StrCat("form=", form.substr(0, form.size() - 1)));
        s.opcode = s.opcode.substr(form.size());
      }
    }
    if (!culprit->dst.condition.empty())
      conditions.push_back(culprit->dst.condition);
    // How its return was wrong is said, not keyed: a return also comes out
    // wrong from a word an earlier faulty atomic left, and small values
    // make coincidences.
    if (atomic.info().returns_old()) {
      const std::string relation =
          RelationAlone(reduced, *outcome, profile.at, prober);
      if (!relation.empty()) notes.push_back(relation);
    }
    bool memory_untested = false;
    const std::string kind =
        MemoryToken(reduced, profile.at, prober, memory_untested);
    s.resource = MemoryClass(kind);
    if (memory_untested) notes.push_back("memory-untested");
    if (s.resource != kind) notes.push_back("kind=" + kind);
    address = culprit->address;
  }
  bool elsewhere = false;  // a load, store or ALU instruction explains it
  if ((s.opcode == "*" || s.opcode == "none") && s.resource == "*" &&
      conditions.empty() && !(culprit && culprit->address_matters)) {
    elsewhere = ExplainWithoutAtomics(reduced, prober, s, notes);
  }
  // The rest keys the bucket only where nothing about the atomic does (its
  // operation, memory kind, dst0 or return): otherwise it is where this
  // case put the atomic (an address computed from a racing return is
  // "undefined" to the spec) and how its threads met, said, not keyed.
  const bool explained =
      s.opcode != "*" || s.resource != "*" || !conditions.empty();
  // In bounds is where every bug can show; out of bounds keys the bucket
  // when the atomic must stay there (not at address 0) and nothing else
  // explains the divergence. An undefined address (computed from a racing
  // return, say) is the case's doing whatever the probes say.
  if (elsewhere) {
    // Keyed there.
  } else if (!explained && culprit && culprit->address_matters &&
             address != "undefined-address") {
    s.address = "out-of-bounds";
    notes.push_back("at=" + address);
  } else {
    s.address = "*";
    if (address != "?") notes.push_back("at=" + address);
  }
  for (std::string& t : ThreadConditions(reduced, prober)) {
    // With an atomic in the case, a barrier may only be how this case
    // orders its observer: keyed where no atomic is.
    (s.opcode == "none" && t == "barrier" ? conditions : notes)
        .push_back(std::move(t));
  }
  s.conditions = absl::StrJoin(conditions, ",");
  g.notes = absl::StrJoin(notes, ",");
  g.runs = prober.runs();
  g.complete = !prober.cut();
  g.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  g.trigger = TriggerSentence(s, g.notes);
  return g;
}

}  // namespace atomfuzz::fuzz
