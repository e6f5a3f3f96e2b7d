// Members 0..m-1, each in at most one of buckets 0..b-1, where a bucket
// lists its members in the order they joined. Joining, leaving and walking
// cost O(1) per member and allocate nothing after construction: the
// serialization search files each thread's next atomic under the value it
// needs, and moves it at every step (a hash map of vectors allocated and
// freed at nearly every one).
#ifndef ATOMFUZZ_ORACLE_INTERNAL_BUCKET_LISTS_H_
#define ATOMFUZZ_ORACLE_INTERNAL_BUCKET_LISTS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace atomfuzz::oracle {

class BucketLists {
 public:
  static constexpr uint32_t kEnd = UINT32_MAX;

  BucketLists() = default;
  BucketLists(size_t buckets, size_t members) { Reset(buckets, members); }
  // Empty buckets again, as constructed, keeping the room.
  void Reset(size_t buckets, size_t members) {
    first_.assign(buckets, kEnd);
    last_.assign(buckets, kEnd);
    next_.assign(members, kEnd);
    prev_.assign(members, kEnd);
    bucket_of_.assign(members, kEnd);
  }

  // `member` must be in no bucket; it goes last in `bucket`.
  void Join(uint32_t bucket, uint32_t member) {
    bucket_of_[member] = bucket;
    prev_[member] = last_[bucket];
    next_[member] = kEnd;
    (last_[bucket] == kEnd ? first_[bucket] : next_[last_[bucket]]) = member;
    last_[bucket] = member;
  }
  // `member` must be in a bucket; the others keep their order.
  void Leave(uint32_t member) {
    const uint32_t b = bucket_of_[member];
    (prev_[member] == kEnd ? first_[b] : next_[prev_[member]]) = next_[member];
    (next_[member] == kEnd ? last_[b] : prev_[next_[member]]) = prev_[member];
    bucket_of_[member] = kEnd;
  }

  // Walk: for (m = First(b); m != kEnd; m = Next(m)).
  uint32_t First(uint32_t bucket) const { return first_[bucket]; }
  uint32_t Next(uint32_t member) const { return next_[member]; }

 private:
  std::vector<uint32_t> first_, last_;             // per bucket
  std::vector<uint32_t> next_, prev_, bucket_of_;  // per member
};

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_INTERNAL_BUCKET_LISTS_H_
