// u# or g# slot -> the compiled case's memory index, while one case
// compiles. Cases bind few, low slots: those sit in a small array cleared
// entry by entry (an absl::flat_hash_map, hashed per memory operand and per
// declaration, was a twentieth of the compile); any higher slot (the
// format allows any 32-bit number) goes to a map.
#ifndef ATOMFUZZ_TARGETS_FAST_MEMORY_SLOTS_H_
#define ATOMFUZZ_TARGETS_FAST_MEMORY_SLOTS_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace atomfuzz::targets::fast {

class MemorySlots {
 public:
  MemorySlots() { direct_.fill(kNone); }

  // Forgets every slot.
  void Clear() {
    for (uint32_t s : used_) direct_[s] = kNone;
    used_.clear();
    if (!far_.empty()) far_.clear();
  }

  // Slot `slot` is memory `memory` (>= 0), replacing any earlier one.
  void Set(uint32_t slot, int memory) {
    if (slot >= kDirect) {
      far_[slot] = memory;
      return;
    }
    if (direct_[slot] == kNone) used_.push_back(slot);
    direct_[slot] = memory;
  }

  // The memory of `slot`, or -1 if none was set.
  int Find(uint32_t slot) const {
    if (slot < kDirect) return direct_[slot];
    const auto it = far_.find(slot);
    return it == far_.end() ? kNone : it->second;
  }

 private:
  static constexpr uint32_t kDirect = 64;
  static constexpr int kNone = -1;
  std::array<int, kDirect> direct_;
  std::vector<uint32_t> used_;  // slots set in direct_
  absl::flat_hash_map<uint32_t, int> far_;
};

}  // namespace atomfuzz::targets::fast

#endif  // ATOMFUZZ_TARGETS_FAST_MEMORY_SLOTS_H_
