#include "fuzz/mutator.h"

#include <iterator>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzz/crossover.h"
#include "isa/validator.h"

namespace atomfuzz::fuzz {
namespace {

constexpr NamedMutation kMutations[] = {
    {InsertAtomic, "insert_atomic"},
    {DeleteInstruction, "delete_instruction"},
    {ChangeOpcode, "change_opcode"},
    {DuplicateInstruction, "duplicate_instruction"},
    {SwapInstructions, "swap_instructions"},
    {ChangeImmediate, "change_immediate"},
    {ChangeAddress, "change_address"},
    {ChangeRegister, "change_register"},
    {RetargetMemory, "retarget_memory"},
    {ResizeUav, "resize_uav"},
    {ChangeStride, "change_stride"},
    {ChangeUavKind, "change_uav_kind"},
    {ChangeCounter, "change_counter"},
    {ChangeUavData, "change_uav_data"},
    {ResizeTgsm, "resize_tgsm"},
    {ChangeGroups, "change_groups"},
    {ChangeThreadGroup, "change_thread_group"},
};

// Attempts at a valid splice before crossover falls back to mutation.
constexpr int kCrossOverAttempts = 16;


// A copy to mutate: the parent's expectations would be wrong for it, and
// its description would describe another case.
void CopyAsChild(const isa::Case& parent, isa::Case& child) {
  // Emptied first, so that the copy copy-constructs the instructions into
  // the kept capacity (a memcpy of inline operands) rather than assigning
  // them one by one, operand by operand (absl's generic assign).
  child.shader.instructions.clear();
  child = parent;
  child.description.clear();
  child.expect_words.clear();
  child.expect_counters.clear();
  child.expect_returns.clear();
}
isa::Case Child(const isa::Case& parent) {
  isa::Case c;
  CopyAsChild(parent, c);
  return c;
}

}  // namespace

absl::Span<const NamedMutation> AllMutations() { return kMutations; }

Mutator::Mutator(const Policy& policy, MutatorOptions options)
    : policy_(&policy), options_(options) {}

// A run depends on the dispatch, the resources and the shader (not on the
// expectations, description or metadata): a candidate equal in all three is
// no mutant. One whose shader is that of an original which passed Validate
// needs only the case's own rules checked (isa::ValidateWithCheckedProgram).
bool Mutator::Keep(isa::Case& candidate, const isa::Case& original,
                   bool original_valid) const {
  const bool same_case = candidate.groups == original.groups &&
                         candidate.resources == original.resources;
  // The shaders are compared where it settles something: whether the
  // candidate is new, or (a memory mutation) whether its program is known
  // to pass. Comparing equal shaders costs a fifth of validating one.
  const bool same_shader =
      (same_case || original_valid) && candidate.shader == original.shader;
  if (same_case && same_shader) return false;
  if (!WithinLimits(candidate, options_.limits)) return false;
  return (same_shader && original_valid
              ? isa::ValidateWithCheckedProgram(candidate)
              : isa::Validate(candidate))
      .ok();
}

bool Mutator::Apply(const NamedMutation& m, isa::Case& c,
                    Choices& choices) const {
  isa::Case scratch;
  return Apply(m, c, choices, scratch, false);
}

// Copy-assigning onto `scratch`, a case of about the same shape left by the
// previous attempt, reuses its vectors' memory, where a fresh copy allocated
// every instruction's operands again. A kept child is swapped in, and the
// old case becomes the next scratch.
bool Mutator::Apply(const NamedMutation& m, isa::Case& c, Choices& choices,
                    isa::Case& scratch, bool c_valid) const {
  CopyAsChild(c, scratch);
  if (!m.fn(scratch, choices, *policy_) || !Keep(scratch, c, c_valid)) return false;
  std::swap(c, scratch);
  return true;
}

std::string Mutator::MutateOnce(isa::Case& c, Choices& choices) const {
  isa::Case scratch;
  bool c_valid = false;
  return MutateOnce(c, choices, scratch, c_valid);
}

std::string Mutator::MutateOnce(isa::Case& c, Choices& choices,
                                isa::Case& scratch, bool& c_valid) const {
  for (int attempt = 0; attempt < options_.max_attempts; ++attempt) {
    const NamedMutation& m = kMutations[choices.Below(std::size(kMutations))];
    if (Apply(m, c, choices, scratch, c_valid)) {
      c_valid = true;  // Keep validated it
      return std::string(m.name);
    }
  }
  return "";
}

std::vector<std::string> Mutator::Mutate(isa::Case& c, Choices& choices) const {
  const uint64_t n = 1 + choices.Below(std::max(1, options_.max_stack));
  std::vector<std::string> names;
  isa::Case scratch;  // shared by every attempt of the stack
  bool c_valid = false;  // whether `c` passed Validate (not known for the input)
  for (uint64_t k = 0; k < n; ++k) {
    std::string name = MutateOnce(c, choices, scratch, c_valid);
    if (!name.empty()) names.push_back(std::move(name));
  }
  RecordMutations(c, names);
  return names;
}

isa::Case Mutator::CrossOver(const isa::Case& a, const isa::Case& b,
                             Choices& choices) const {
  for (int attempt = 0; attempt < kCrossOverAttempts; ++attempt) {
    isa::Case child = Child(a);
    if (SpliceCode(child, b, choices) && Keep(child, a, false)) {
      RecordMutations(child, {"crossover"});
      return child;
    }
  }
  isa::Case child = a;
  Mutate(child, choices);
  return child;
}

std::vector<std::string> MutateCase(isa::Case& c, Choices& choices,
                                    const Policy& policy) {
  return Mutator(policy).Mutate(c, choices);
}

void RecordMutations(isa::Case& c, const std::vector<std::string>& names) {
  if (names.empty()) return;
  auto it =
      std::find_if(c.metadata.begin(), c.metadata.end(),
                   [](const auto& kv) { return kv.first == kMutationsKey; });
  if (it == c.metadata.end()) {
    c.metadata.emplace_back(std::string(kMutationsKey), "");
    it = std::prev(c.metadata.end());
  }
  std::vector<std::string> all =
      absl::StrSplit(it->second, ' ', absl::SkipEmpty());
  if (!all.empty() && all.front() == "...") all.erase(all.begin());
  all.insert(all.end(), names.begin(), names.end());
  if (all.size() > kMaxRecordedMutations) {
    all.erase(all.begin(), all.end() - kMaxRecordedMutations);
    all.insert(all.begin(), "...");
  }
  it->second = absl::StrJoin(all, " ");
}

}  // namespace atomfuzz::fuzz
