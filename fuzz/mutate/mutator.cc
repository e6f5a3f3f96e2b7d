#include "fuzz/mutate/mutator.h"

#include <iterator>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "fuzz/mutate/crossover.h"
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
    {ResizeTgsm, "resize_tgsm", kForCompute},
    {ChangeGroups, "change_groups", kForCompute},
    {ChangeThreadGroup, "change_thread_group", kForCompute},
    {MoveVertex, "move_vertex", kForPixel},
    {ToggleDiscard, "toggle_discard", kForPixel},
    {ChangeSamples, "change_samples", kForPixel},
    {AddTriangle, "add_triangle", kForPixel},
    {RemoveTriangle, "remove_triangle", kForPixel},
};

std::vector<NamedMutation> Serving(uint8_t stage_bit) {
  std::vector<NamedMutation> out;
  for (const NamedMutation& m : kMutations) {
    if ((m.stages & stage_bit) != 0) out.push_back(m);
  }
  return out;
}

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

// Compute's are the table's first rows in order, so a compute case draws
// the mutations it drew before pixel ones existed: seeds keep their mutants.
absl::Span<const NamedMutation> MutationsFor(isa::Stage stage) {
  static const auto* const kCompute =
      new std::vector<NamedMutation>(Serving(kForCompute));
  static const auto* const kPixel =
      new std::vector<NamedMutation>(Serving(kForPixel));
  return stage == isa::Stage::kPixel ? *kPixel : *kCompute;
}

Mutator::Mutator(const Policy& policy, MutatorOptions options)
    : policy_(&policy), options_(options) {}

// A run depends on the dispatch (or draw), the resources and the shader (not on
// the expectations, description or metadata): a candidate equal in all three is
// no mutant. One whose shader is that of an original which passed Validate
// needs only the case's own rules checked (isa::ValidateWithCheckedProgram).
bool Mutator::Keep(isa::Case& candidate, const isa::Case& original,
                   bool original_valid) const {
  const bool same_case = candidate.groups == original.groups &&
                         candidate.draw == original.draw &&
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

// A stack of mutations under way. The case so far is the parent until a
// mutation is kept, then `c`: the parent is copied only into the first
// attempt's scratch, not once more to mutate a copy in place.
struct Mutator::Stack {
  explicit Stack(const isa::Case& parent) : current(&parent) {}
  const isa::Case* current;
  isa::Case c;
  // Copy-assigning onto `scratch`, a case of about the same shape left by
  // the previous attempt, reuses its vectors' memory, where a fresh copy
  // allocated every instruction's operands again. A kept child is swapped
  // into `c`, and the old case becomes the next scratch.
  isa::Case scratch;
  bool valid = false;  // *current passed Validate (not known for the parent)
};

bool Mutator::Apply(const NamedMutation& m, Stack& s, Choices& choices) const {
  CopyAsChild(*s.current, s.scratch);
  if (!m.fn(s.scratch, choices, *policy_) ||
      !Keep(s.scratch, *s.current, s.valid)) {
    return false;
  }
  std::swap(s.c, s.scratch);
  s.current = &s.c;
  s.valid = true;  // Keep validated it
  return true;
}

bool Mutator::Apply(const NamedMutation& m, isa::Case& c,
                    Choices& choices) const {
  Stack s(c);
  if (!Apply(m, s, choices)) return false;
  c = std::move(s.c);
  return true;
}

std::string Mutator::MutateOnce(Stack& s, Choices& choices) const {
  const absl::Span<const NamedMutation> table =
      MutationsFor(s.current->shader.stage);
  for (int attempt = 0; attempt < options_.max_attempts; ++attempt) {
    const NamedMutation& m = table[choices.Below(table.size())];
    if (Apply(m, s, choices)) return std::string(m.name);
  }
  return "";
}

std::string Mutator::MutateOnce(isa::Case& c, Choices& choices) const {
  Stack s(c);
  std::string name = MutateOnce(s, choices);
  if (!name.empty()) c = std::move(s.c);
  return name;
}

isa::Case Mutator::Mutated(const isa::Case& parent, Choices& choices,
                           std::vector<std::string>& names) const {
  const uint64_t n = 1 + choices.Below(std::max(1, options_.max_stack));
  Stack s(parent);
  for (uint64_t k = 0; k < n; ++k) {
    std::string name = MutateOnce(s, choices);
    if (!name.empty()) names.push_back(std::move(name));
  }
  if (s.current == &parent) s.c = parent;  // nothing kept: the parent as it is
  RecordMutations(s.c, names);
  return std::move(s.c);
}

std::vector<std::string> Mutator::Mutate(isa::Case& c, Choices& choices) const {
  std::vector<std::string> names;
  isa::Case mutated = Mutated(c, choices, names);
  c = std::move(mutated);
  return names;
}

isa::Case Mutator::CrossOver(const isa::Case& a, const isa::Case& b,
                             Choices& choices) const {
  // Code of another stage reads inputs `a` cannot declare (vThreadID in a
  // draw, v# in a dispatch): no splice would validate.
  const int attempts =
      a.shader.stage == b.shader.stage ? kCrossOverAttempts : 0;
  for (int attempt = 0; attempt < attempts; ++attempt) {
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

isa::Case MutatedCase(const isa::Case& parent, Choices& choices,
                      const Policy& policy, std::vector<std::string>& names) {
  return Mutator(policy).Mutated(parent, choices, names);
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
