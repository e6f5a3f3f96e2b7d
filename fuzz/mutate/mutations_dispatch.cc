// Mutations of the dispatch: group counts and the thread-group size. The
// dispatcher's work limit keeps the product cheap to run, and the policy's
// dispatch bounds keep mutants as small as the cases it generates.
#include <algorithm>
#include <array>

#include "fuzz/generate/case_facts.h"
#include "fuzz/mutate/mutations.h"

namespace atomfuzz::fuzz {
namespace {

uint64_t Product(const std::array<uint32_t, 3>& v) {
  return uint64_t{v[0]} * v[1] * v[2];
}

// A mutant grows its dispatch only up to the policy's bound, the one its
// generator keeps to (Policy::max_groups, max_group_threads): the judge's
// time grows with the threads, and without the bound a third of a
// campaign's cases were mutants with up to 512 threads, which took most of
// its time. A parent already past the bound (a seed, a case of a wider
// policy) may keep its size or shrink.
bool WithinDispatchBound(uint64_t before, uint64_t after, uint32_t bound) {
  return after <= std::max<uint64_t>(before, bound);
}

}  // namespace

bool ChangeGroups(isa::Case& c, Choices& choices, const Policy& policy) {
  // A draw has no groups: printed, they would be a [dispatch] section.
  if (c.shader.pixel()) return false;
  const uint64_t before = Product(c.groups);
  uint32_t& g = c.groups[choices.Below(3)];
  switch (choices.Below(7)) {
    case 0: g = 1; break;
    case 1: g = g + 1; break;
    case 2: g = g > 1 ? g - 1 : 2; break;
    case 3: g = 2; break;
    case 4: g = 4; break;
    case 5: g = 1 + static_cast<uint32_t>(choices.Below(16)); break;
    default:
      // Rare edges: no group at all (spec 1.8), or the most there may be
      // (kept only where both the policy's bound and the work limit allow).
      g = choices.Below(2) == 0 ? 0 : 65535;
      break;
  }
  return WithinDispatchBound(before, Product(c.groups), policy.max_groups);
}

bool ChangeThreadGroup(isa::Case& c, Choices& choices, const Policy& policy) {
  const CaseFacts f = GatherFacts(c);
  if (!f.thread_group_decl) return false;
  isa::Instruction& dcl = c.shader.instructions[*f.thread_group_decl];
  auto size = [&dcl] {
    return std::array<uint32_t, 3>{dcl.operands[0].index, dcl.operands[1].index,
                                   dcl.operands[2].index};
  };
  const uint64_t before = Product(size());
  uint32_t& t = dcl.operands[choices.Below(3)].index;
  switch (choices.Below(7)) {
    case 0: t = 1; break;
    case 1: t = t + 1; break;
    case 2: t = t > 1 ? t - 1 : 2; break;
    case 3: t = std::min(1024u, 2 * t); break;
    case 4: t = std::max(1u, t / 2); break;
    case 5:
      t = choices.Below(2) == 0 ? 32 : 64;
      break;  // wave sizes (kept where the policy allows them: "wide")
    default: t = 1 + static_cast<uint32_t>(choices.Below(64)); break;
  }
  return WithinDispatchBound(before, Product(size()), policy.max_group_threads);
}

}  // namespace atomfuzz::fuzz
