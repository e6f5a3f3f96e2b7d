// What a plain read may see of a word that other threads write while it
// runs (spec 2.1, 2.4, E-28): every write to a word falls in one order, and
// a read sees the word at some point of it that program order and barriers
// allow. That is a set of values, not an undefined one: a thread that reads
// back a word after its own imm_atomic_umax sees at least its own operand,
// whatever the others did.
#ifndef ATOMFUZZ_ORACLE_RACING_READ_H_
#define ATOMFUZZ_ORACLE_RACING_READ_H_

#include <cstdint>

#include "absl/types/span.h"
#include "oracle/access_log.h"
#include "oracle/value.h"
#include "oracle/value_sets.h"

namespace atomfuzz::oracle {

// The value a read by `reader` (its `seq`th memory access) sees of a word
// whose writes, in one legal order, are `writes` (the whole pass's, as
// AccessLog::RecordedWrites lists them), starting from `initial`: one value
// or a set where the spec allows a few, else undefined. Sound, not exact:
//  - it is undefined past kMaxWrites writes or once the pass's work on
//    sets is spent (ValueSets::kMaxWork), where a write of another group
//    races with it (spec 2.3, E-34), and on g# where a store races with an
//    atomic (E-27);
//  - the writes ordered before the read (its own earlier ones, and those
//    before a barrier it passed) must end at one value, B: stores ordered
//    among themselves, and atomics of one order-independent kind;
//  - the writes concurrent with it may fall before or after it: with
//    atomics of one order-independent kind alone, every prefix of each
//    writer's own sequence applied to B; else every value B reaches under
//    any of them, each any number of times (more than can happen, never
//    less), as long as that stays small;
//  - where a racing write does not commute with a write ordered before the
//    read that it is concurrent with, it may also fall between those: every
//    value the racing writes make at each point of that sequence.
Value RacingRead(absl::Span<const WriteRecord> writes, const Accessor& reader,
                 uint32_t seq, bool tgsm, Value initial, ValueSets& sets);
// The same for an atomic's view of the word (the value before it), which
// another group's writes do not make undefined (atomics are coherent
// across groups, spec 2.3): what an imm_atomic_alloc or consume without a
// trace may have found of its counter (writes: the counter's ops).
Value AtomicSees(absl::Span<const WriteRecord> writes, const Accessor& reader,
                 uint32_t seq, Value initial, ValueSets& sets);
// Past this many writes to the word, a racing read is undefined.
inline constexpr size_t kMaxWrites = 64;

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_RACING_READ_H_
