// A memory as another kind holding the same words at the same places, for
// generalisation (generalise.h): does a divergence need its memory kind?
// Inserted code computes each access's new address so that it keeps its
// spec class (in bounds at the same word, skipped, poisoned): on a correct
// target the converted case computes what the case did.
#ifndef ATOMFUZZ_FUZZ_TRIAGE_MEMORY_CONVERSION_H_
#define ATOMFUZZ_FUZZ_TRIAGE_MEMORY_CONVERSION_H_

#include <cstddef>
#include <string>
#include <vector>

#include "isa/case_file.h"

namespace atomfuzz::fuzz {

struct MemoryVariant {
  isa::Case c;
  std::string kind;  // the kind made (isa::TargetKindName)
};

// The memory the atomic at `at` targets, converted: u# structured or typed
// as raw, u# raw as structured with a 4-byte stride (one-word accesses
// only), g# as a u# of the same layout, each thread group's part after the
// last. A typed load reads the word and fills in the format's defaults
// (spec 1.7). None for a view whose counter alloc or consume use, or typed
// formats other than 32-bit integers.
std::vector<MemoryVariant> WithOtherMemory(const isa::Case& c, size_t at);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_TRIAGE_MEMORY_CONVERSION_H_
