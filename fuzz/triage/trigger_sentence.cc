#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzz/triage/generalise.h"
#include "isa/opcode_table.h"

// The trigger: an essential signature (generalise.h) as a sentence.
namespace atomfuzz::fuzz {
namespace {

// The mnemonics an opcode token stands for.
std::string Mnemonics(const std::string& token) {
  // An ALU instruction the divergence needs (generalise.cc folds them).
  if (absl::StartsWith(token, "alu:"))
    return absl::StrCat("an atomic after a ", token.substr(4),
                        " on constants computed wrong");
  std::string ops = token;
  bool imm = true, plain = true;
  if (ops.rfind("imm:", 0) == 0) {
    plain = false;
    ops = ops.substr(4);
  } else if (ops.rfind("atomic:", 0) == 0) {
    imm = false;
    ops = ops.substr(7);
  }
  if (ops == "*") {
    if (imm && plain) return "any atomic";
    return imm ? "any returning atomic (imm_atomic_*)"
               : "any atomic without a return (atomic_*)";
  }
  std::set<std::string> wanted = absl::StrSplit(ops, '+');
  std::vector<std::string> names;
  for (const isa::OpcodeInfo& row : isa::AllOpcodes()) {
    if (!row.is_atomic() || wanted.count(OperationName(row.rmw)) == 0) continue;
    const bool returns = row.returns_old();
    if ((returns && imm) || (!returns && plain))
      names.emplace_back(row.mnemonic);
  }
  if (names.empty()) return token;
  if (names.size() == 1) return names[0];
  return absl::StrCat(absl::StrJoin(names.begin(), names.end() - 1, ", "),
                      " or ", names.back());
}

std::string DivergencePhrase(const std::string& kind) {
  if (kind == "wrong-value") return "A wrong value";
  if (kind == "wrong-return") return "A wrong returned value";
  if (kind == "wrong-memory") return "A wrong memory word";
  if (kind == "wrong-counter") return "A wrong hidden counter";
  if (kind == "missing-atomic") return "An atomic that left no effect";
  if (kind == "extra-atomic") return "An atomic effect the spec does not allow";
  return absl::StrCat("A ", kind, " divergence");
}

std::string AddressPhrase(const std::string& a) {
  if (a == "in-bounds") return "in bounds";
  if (a == "oob-skip") return "out of bounds (the spec skips it)";
  if (a == "uav-poison") return "at a misaligned or overflowing u# address";
  if (a == "tgsm-poison") return "out of bounds of g#";
  if (a == "undefined-address") return "at an undefined address";
  if (a == "*") return "at any address";
  if (a == "out-of-bounds") return "out of bounds";
  return absl::StrCat("address ", a);
}

std::string ConditionPhrase(absl::string_view c) {
  if (c == "threads>1") return "only with more than one thread";
  if (c == "groups>1") return "only with more than one thread group";
  if (c == "barrier") return "only with a barrier (sync) between them";
  if (c == "form=imm") return "(shown only by the returning forms)";
  if (absl::StartsWith(c, "via=")) {
    return absl::StrCat("through a ", c.substr(4), " out of bounds");
  }
  if (absl::StartsWith(c, "kind=")) {
    return absl::StrCat("(this case's memory: ", c.substr(5), ")");
  }
  if (c == "form=atomic") return "(shown only by the forms without a return)";
  if (absl::StartsWith(c, "at=")) {
    return absl::StrCat("(this case's atomic is ",
                        AddressPhrase(std::string(c.substr(3))), ")");
  }
  if (c == "memory-untested")
    return "(other memory kinds untried: this case's memory could not be "
           "converted)";
  if (c == "returns=new")
    return "returning the value after the operation instead of before";
  if (c == "returns=flag")
    return "returning a success flag (0 or 1) instead of the old value";
  if (c == "returns=before-decrement")
    return "returning the counter before the decrement instead of after";
  if (absl::StartsWith(c, "dst!=")) {
    return absl::StrCat("only when dst0 is a component other than ",
                        c.substr(5));
  }
  if (absl::StartsWith(c, "dst=")) {
    return absl::StrCat("only when dst0 is component ",
                        absl::StrJoin(absl::StrSplit(c.substr(4), ""), " or "));
  }
  return std::string(c);
}

}  // namespace

std::string TriggerSentence(const Signature& s, absl::string_view notes) {
  if (!s.cause.empty()) {
    const std::string what = s.divergence == "rejected" ? "rejects the case"
                             : s.divergence == "crash"  ? "crashes"
                                                        : s.divergence;
    return absl::StrFormat("The target %s: %s", what, s.cause);
  }
  if (s.divergence == "crash" || s.divergence == "timeout" ||
      s.divergence == "budget") {
    return absl::StrCat("The target's run ends in a ", s.divergence);
  }
  std::string out = DivergencePhrase(s.divergence);
  if (s.opcode == "none") {
    absl::StrAppend(&out, " with no atomic involved (loads, stores, barriers)");
  } else {
    absl::StrAppend(&out, " from ",
                    s.opcode == "?" ? "an atomic" : Mnemonics(s.opcode));
    absl::StrAppend(
        &out, s.resource == "*"         ? ", on any memory kind"
              : s.resource == "g"       ? ", on g# (thread-group shared memory)"
              : s.resource == "u-typed" ? ", on typed UAVs (u-typed)"
                                        : absl::StrCat(", on ", s.resource));
  }
  if (s.address != "?" && s.address != "*")
    absl::StrAppend(&out, ", ", AddressPhrase(s.address));
  for (absl::string_view c :
       absl::StrSplit(s.conditions, ',', absl::SkipEmpty()))
    absl::StrAppend(&out, ", ", ConditionPhrase(c));
  for (absl::string_view c : absl::StrSplit(notes, ',', absl::SkipEmpty()))
    absl::StrAppend(&out, ", ", ConditionPhrase(c));
  return out + ".";
}

}  // namespace atomfuzz::fuzz
