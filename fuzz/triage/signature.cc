#include "fuzz/triage/signature.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "isa/coverage.h"
#include "isa/diagnostics.h"
#include "targets/fast/fast_target.h"

namespace atomfuzz::fuzz {
namespace {

constexpr char kUnknown[] = "?";

// Keys are joined by '|', opcodes by '+'; a field must contain neither
// separator nor spaces, or keys would not parse back.
std::string Token(absl::string_view s) {
  std::string t = absl::StrReplaceAll(s, {{"|", "/"}, {" ", "-"}, {"\n", "-"}});
  return t.empty() ? std::string(kUnknown) : t;
}

}  // namespace

std::string FindingKindToken(oracle::FindingKind kind) {
  switch (kind) {
    case oracle::FindingKind::kCrashed: return "crash";
    case oracle::FindingKind::kTimedOut: return "timeout";
    case oracle::FindingKind::kBudgetExceeded: return "budget";
    default: return Token(oracle::FindingKindName(kind));
  }
}

namespace {

struct Memory {
  bool tgsm = false;
  uint32_t slot = 0;
};

// The memory an atomic instruction targets.
std::optional<Memory> TargetOf(const isa::Instruction& inst) {
  const int t = inst.info().operand_with_role(isa::Role::kTarget);
  if (t < 0 || static_cast<size_t>(t) >= inst.operands.size())
    return std::nullopt;
  const isa::Operand& o = inst.operands[static_cast<size_t>(t)];
  return Memory{o.file == isa::RegFile::kTgsm, o.index};
}

const isa::Instruction* AtomicAt(const isa::Program& p, int index) {
  if (index < 0 || static_cast<size_t>(index) >= p.instructions.size())
    return nullptr;
  const isa::Instruction& inst = p.instructions[static_cast<size_t>(index)];
  return inst.info().is_atomic() ? &inst : nullptr;
}

bool SameMemory(const isa::AtomicEvent& e, const Memory& m) {
  return (e.file == isa::RegFile::kTgsm) == m.tgsm && e.slot == m.slot;
}

// Whether an event is where the finding points: its instruction (if known)
// at its word (if known, as the executor resolved it) or in its memory.
bool AtFinding(const isa::AtomicEvent& e, const oracle::Finding& f,
               const std::optional<Memory>& m) {
  if (f.instruction >= 0 &&
      e.instruction != static_cast<uint32_t>(f.instruction)) {
    return false;
  }
  if (f.word >= 0 && m) {
    return SameMemory(e, *m) && e.address == isa::AddressClass::kInBounds &&
           e.word == static_cast<uint64_t>(f.word);
  }
  return f.instruction >= 0 || (m && SameMemory(e, *m));
}

// Events of `trace` at the finding; when none is at its word, every event
// of its instruction (a missing or skipped atomic has no word).
std::vector<const isa::AtomicEvent*> EventsAt(
    const std::vector<isa::AtomicEvent>& trace, const oracle::Finding& f,
    const std::optional<Memory>& m) {
  std::vector<const isa::AtomicEvent*> out;
  for (const isa::AtomicEvent& e : trace) {
    if (AtFinding(e, f, m)) out.push_back(&e);
  }
  if (out.empty() && f.instruction >= 0) {
    for (const isa::AtomicEvent& e : trace) {
      if (e.instruction == static_cast<uint32_t>(f.instruction))
        out.push_back(&e);
    }
  }
  return out;
}

std::string JoinedMnemonics(const isa::Program& p,
                            const std::set<uint32_t>& instructions) {
  std::set<std::string> names;
  for (uint32_t i : instructions) {
    if (const isa::Instruction* inst = AtomicAt(p, static_cast<int>(i))) {
      names.emplace(inst->info().mnemonic);
    }
  }
  return names.empty() ? std::string(kUnknown) : absl::StrJoin(names, "+");
}

std::string ResourceName(const isa::Case& c, const std::optional<Memory>& m) {
  if (!m) return kUnknown;
  const auto kinds = isa::DeclaredKinds(c.shader);
  const isa::RegFile file = m->tgsm ? isa::RegFile::kTgsm : isa::RegFile::kUav;
  auto it = kinds.find({file, m->slot});
  return it == kinds.end() ? std::string(kUnknown)
                           : std::string(isa::TargetKindName(it->second));
}

using EventKeyTuple = std::tuple<std::array<uint32_t, 3>,
                                 std::array<uint32_t, 3>, uint32_t, uint32_t>;
EventKeyTuple KeyOf(const isa::AtomicEvent& e) {
  return {e.group, e.thread, e.instruction, e.occurrence};
}
using SpecClasses = std::map<EventKeyTuple, isa::AddressClass>;

// An atomic the target resolved into the finding's word although the spec
// resolves it elsewhere (skip, poison): the likely culprit, whichever
// instruction the judge's history blamed (it names the word's first atomic).
std::optional<std::pair<const isa::AtomicEvent*, isa::AddressClass>>
Misdirected(const std::vector<isa::AtomicEvent>& trace,
            const oracle::Finding& f, const std::optional<Memory>& m,
            const SpecClasses& spec) {
  std::optional<std::pair<const isa::AtomicEvent*, isa::AddressClass>> worst;
  if (f.word < 0 || !m) return worst;
  for (const isa::AtomicEvent& e : trace) {
    if (!SameMemory(e, *m) || e.address != isa::AddressClass::kInBounds ||
        e.word != static_cast<uint64_t>(f.word)) {
      continue;
    }
    auto it = spec.find(KeyOf(e));
    if (it == spec.end() || it->second == isa::AddressClass::kInBounds)
      continue;
    if (!worst || AddressSeverity(it->second) > AddressSeverity(worst->second))
      worst = {{&e, it->second}};
  }
  return worst;
}

// The spec's class of each involved event (the oracle's run), else the
// target's own account.
std::string AddressName(
    const std::vector<const isa::AtomicEvent*>& target_events,
    const std::vector<const isa::AtomicEvent*>& oracle_events,
    const SpecClasses& spec) {
  std::optional<isa::AddressClass> pick;
  auto consider = [&](isa::AddressClass a) {
    if (!pick || AddressSeverity(a) > AddressSeverity(*pick)) pick = a;
  };
  for (const isa::AtomicEvent* e : target_events) {
    auto it = spec.find(KeyOf(*e));
    consider(it != spec.end() ? it->second : e->address);
  }
  if (!pick) {
    for (const isa::AtomicEvent* e : oracle_events) consider(e->address);
  }
  return pick ? std::string(isa::AddressClassName(*pick))
              : std::string(kUnknown);
}

}  // namespace

int AddressSeverity(isa::AddressClass a) {
  switch (a) {
    case isa::AddressClass::kInBounds: return 0;
    case isa::AddressClass::kSkip: return 1;
    case isa::AddressClass::kUavPoison: return 2;
    case isa::AddressClass::kTgsmPoison: return 3;
    case isa::AddressClass::kUndefined: return 4;
  }
  return 0;
}

bool IsWrongValue(absl::string_view d) {
  return d == "wrong-return" || d == "wrong-memory" || d == "wrong-counter" ||
         d == "missing-atomic" || d == "extra-atomic" || d == "wrong-value";
}

std::string Signature::Key() const {
  std::string key =
      absl::StrJoin({opcode, resource, address, divergence, target}, "|");
  if (!cause.empty() || !conditions.empty()) absl::StrAppend(&key, "|", cause);
  if (!conditions.empty()) absl::StrAppend(&key, "|", conditions);
  return key;
}

namespace {

// Decimal and hex numbers as N ("vkd3d" keeps its 3), separators replaced,
// at most `limit` characters. With `keep_offsets`, a "+0x..." stays: a
// crash frame's offset into a library without symbols (crash_frames.h)
// tells one crash site from another.
std::string Masked(absl::string_view message, size_t limit,
                   bool keep_offsets = false) {
  std::string out;
  for (size_t i = 0; i < message.size() && out.size() < limit;) {
    const char ch = message[i];
    const bool in_word =
        i > 0 &&
        (absl::ascii_isalpha(static_cast<unsigned char>(message[i - 1])) ||
         message[i - 1] == '_');
    if (absl::ascii_isdigit(static_cast<unsigned char>(ch)) && !in_word) {
      const bool offset = keep_offsets && i > 0 && message[i - 1] == '+';
      if (ch == '0' && i + 1 < message.size() &&
          (message[i + 1] == 'x' || message[i + 1] == 'X')) {
        const size_t start = i;
        i += 2;
        while (i < message.size() &&
               absl::ascii_isxdigit(static_cast<unsigned char>(message[i])))
          ++i;
        if (offset) {
          absl::StrAppend(&out, message.substr(start, i - start));
          continue;
        }
      } else {
        while (i < message.size() &&
               absl::ascii_isdigit(static_cast<unsigned char>(message[i])))
          ++i;
      }
      out += 'N';
      continue;
    }
    out += ch;
    ++i;
  }
  return out;
}

}  // namespace

std::string CauseOf(absl::string_view message) {
  // A crash's frames (targets/isolation/crash_frames.h) follow on a line of
  // their own and tell one crash from another: kept after an '@'.
  constexpr absl::string_view kFrames = "\nframes: ";
  absl::string_view frames;
  if (size_t at = message.find(kFrames); at != absl::string_view::npos) {
    frames = message.substr(at + kFrames.size());
    frames = frames.substr(0, frames.find('\n'));
  }
  message = message.substr(0, message.find('\n'));
  // spirv-val names the first instruction it found outside any block:
  // which one depends on the dead code that follows a terminator, not on
  // the bug (findings.md #4 had a bucket per instruction).
  if (absl::StartsWith(message, "spirv-val: ") &&
      absl::EndsWith(message, " must appear in a block")) {
    message = "spirv-val: an instruction must appear in a block";
  }
  std::string out = Masked(message, 60);
  // Frames found by scanning the stack under JIT code ("~lib:sym") help a
  // reader but vary from run to run: the key keeps the unwound ones.
  absl::string_view thread;
  if (const size_t t = frames.find(" (thread "); t != absl::string_view::npos) {
    thread = frames.substr(t);
    frames = frames.substr(0, t);
  }
  std::vector<absl::string_view> unwound;
  for (absl::string_view f : absl::StrSplit(frames, " < ", absl::SkipEmpty()))
    if (!absl::StartsWith(f, "~")) unwound.push_back(f);
  const std::string kept = absl::StrCat(absl::StrJoin(unwound, " < "), thread);
  if (!kept.empty())
    absl::StrAppend(&out, "@", Masked(kept, 160, /*keep_offsets=*/true));
  std::string t = Token(absl::StripAsciiWhitespace(out));
  return t == kUnknown ? std::string() : t;
}

std::string Signature::Id() const {
  return absl::StrFormat("%016x", Fnv1a64(Key()));
}

absl::StatusOr<Signature> ParseSignatureKey(absl::string_view key) {
  std::vector<std::string> parts = absl::StrSplit(key, '|');
  // The cause may be empty only when conditions follow it.
  const size_t must_fill = parts.size() == 7 ? 5 : parts.size();
  if (parts.size() < 5 || parts.size() > 7 ||
      std::any_of(parts.begin(), parts.begin() + must_fill,
                  [](const std::string& p) { return p.empty(); }) ||
      (parts.size() == 7 && parts[6].empty())) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "expected a signature key "
        "'opcode|resource|address|divergence|target[|cause[|conditions]]', "
        "found %s",
        isa::Quote(key)));
  }
  Signature s;
  s.opcode = parts[0];
  s.resource = parts[1];
  s.address = parts[2];
  s.divergence = parts[3];
  s.target = parts[4];
  if (parts.size() >= 6) s.cause = parts[5];
  if (parts.size() == 7) s.conditions = parts[6];
  return s;
}

uint64_t Fnv1a64(absl::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;  // FNV offset basis
  for (unsigned char b : bytes) {
    h ^= b;
    h *= 0x100000001b3ull;  // FNV prime
  }
  return h;
}

std::string TargetLabel(absl::string_view target, absl::string_view inject) {
  if (inject.empty()) return Token(target);
  return Token(absl::StrCat(target, "+inject=", inject));
}

std::string TargetLabel(const RunOptions& options) {
  return TargetLabel(options.target,
                     options.target_options.Flag(targets::fast::kInjectFlag));
}

absl::StatusOr<Signature> SignatureOf(const isa::Case& c, const Differential& d,
                                      absl::string_view target_label) {
  if (d.verdict.kind != oracle::Verdict::Kind::kDivergence ||
      d.verdict.findings.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("no divergence to sign: ", d.verdict.Summary()));
  }
  const oracle::Finding& f = d.verdict.findings.front();
  Signature s;
  s.divergence = FindingKindToken(f.kind);
  s.target = Token(target_label);
  if (d.outcome.status != isa::RunStatus::kOk) {  // nothing ran to point at
    s.cause = CauseOf(d.outcome.message);
    return s;
  }

  std::optional<Memory> memory;
  if (f.slot >= 0) {
    memory = Memory{f.tgsm, static_cast<uint32_t>(f.slot)};
  } else if (const isa::Instruction* inst = AtomicAt(c.shader, f.instruction)) {
    memory = TargetOf(*inst);
  }
  s.resource = ResourceName(c, memory);

  // The oracle's own run says where the spec resolves each atomic. A case
  // the oracle cannot run leaves the address to the target's trace.
  RunOptions spec_run;
  spec_run.target = "oracle";
  absl::StatusOr<isa::Outcome> spec = RunCase(c, spec_run);
  const std::vector<isa::AtomicEvent> no_events;
  const std::vector<isa::AtomicEvent>& spec_trace =
      spec.ok() && spec->has_trace ? spec->trace : no_events;

  SpecClasses spec_classes;
  for (const isa::AtomicEvent& e : spec_trace)
    spec_classes.emplace(KeyOf(e), e.address);
  if (auto m = Misdirected(d.outcome.trace, f, memory, spec_classes)) {
    s.opcode = JoinedMnemonics(c.shader, {m->first->instruction});
    s.address = std::string(isa::AddressClassName(m->second));
    return s;
  }
  const auto target_events = EventsAt(d.outcome.trace, f, memory);
  const auto spec_events = EventsAt(spec_trace, f, memory);
  std::set<uint32_t> instructions;
  if (AtomicAt(c.shader, f.instruction) != nullptr) {
    instructions.insert(static_cast<uint32_t>(f.instruction));
  } else {
    for (const auto* e : target_events) instructions.insert(e->instruction);
    for (const auto* e : spec_events) instructions.insert(e->instruction);
  }
  s.opcode = JoinedMnemonics(c.shader, instructions);
  s.address = AddressName(target_events, spec_events, spec_classes);
  return s;
}

Signature WorkerFailureSignature(const isa::Case& c, WorkerFailure failure,
                                 absl::string_view target_label) {
  Signature s;
  s.divergence = failure == WorkerFailure::kCrash ? "crash" : "timeout";
  s.target = Token(target_label);
  return s;
}

}  // namespace atomfuzz::fuzz
