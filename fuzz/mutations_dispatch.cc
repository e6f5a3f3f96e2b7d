// Mutations of the dispatch: group counts and the thread-group size. The
// dispatcher's work limit keeps the product cheap to run.
#include <algorithm>

#include "fuzz/case_facts.h"
#include "fuzz/mutations.h"

namespace atomfuzz::fuzz {

bool ChangeGroups(isa::Case& c, Choices& choices, const Policy& policy) {
  uint32_t& g = c.groups[choices.Below(3)];
  switch (choices.Below(7)) {
    case 0:
      g = 1;
      break;
    case 1:
      g = g + 1;
      break;
    case 2:
      g = g > 1 ? g - 1 : 2;
      break;
    case 3:
      g = 2;
      break;
    case 4:
      g = 4;
      break;
    case 5:
      g = 1 + static_cast<uint32_t>(choices.Below(16));
      break;
    default:
      // Rare edges: no group at all (spec 1.8), or the most there may be.
      g = choices.Below(2) == 0 ? 0 : 65535;
      break;
  }
  return true;
}

bool ChangeThreadGroup(isa::Case& c, Choices& choices, const Policy& policy) {
  const CaseFacts f = GatherFacts(c);
  if (!f.thread_group_decl) return false;
  isa::Instruction& dcl = c.shader.instructions[*f.thread_group_decl];
  uint32_t& t = dcl.operands[choices.Below(3)].index;
  switch (choices.Below(7)) {
    case 0:
      t = 1;
      break;
    case 1:
      t = t + 1;
      break;
    case 2:
      t = t > 1 ? t - 1 : 2;
      break;
    case 3:
      t = std::min(1024u, 2 * t);
      break;
    case 4:
      t = std::max(1u, t / 2);
      break;
    case 5:
      t = choices.Below(2) == 0 ? 32 : 64;
      break;  // wave sizes
    default:
      t = 1 + static_cast<uint32_t>(choices.Below(64));
      break;
  }
  return true;
}

}  // namespace atomfuzz::fuzz
