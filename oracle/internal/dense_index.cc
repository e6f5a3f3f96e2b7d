#include "oracle/internal/dense_index.h"

namespace atomfuzz::oracle {

void DenseIndex::Rehash(size_t slots) {
  size_t size = 16;
  int bits = 4;
  while (size < slots) {
    size *= 2;
    ++bits;
  }
  slots_.assign(size, Slot{});
  mask_ = size - 1;
  shift_ = 64 - bits;
  for (uint32_t n = 0; n < keys_.size(); ++n) {
    size_t s = Home(keys_[n]);
    while (slots_[s].number != kAbsent) s = (s + 1) & mask_;
    slots_[s] = {keys_[n], n};
  }
}

}  // namespace atomfuzz::oracle
