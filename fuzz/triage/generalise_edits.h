// The edits generalisation tries on a reduced finding (generalise.h; the
// memory kind's are in memory_conversion.h): each
// changes one feature of the case (an atomic's opcode, the component its
// old value lands in, the kind of memory it targets, the number of threads)
// and keeps everything else, so that a run of the edited case tells whether
// the divergence depends on that feature. Each returns nullopt where the edit
// does not apply; the caller validates what comes back.
#ifndef ATOMFUZZ_FUZZ_TRIAGE_GENERALISE_EDITS_H_
#define ATOMFUZZ_FUZZ_TRIAGE_GENERALISE_EDITS_H_

#include <cstddef>
#include <optional>
#include <vector>

#include "isa/case_file.h"

namespace atomfuzz::fuzz {

// Indices of the atomic instructions of the code (counters included).
std::vector<size_t> AtomicInstructions(const isa::Program& p);

// Opcodes the atomic at `at` can become with its operands kept: the other
// opcodes of its form (imm_atomic_* or atomic_*, binary or compare), the
// same operation in the other form (atomic_xor <-> imm_atomic_xor; the
// returned value then goes to a fresh register, or nowhere), a compare's
// value with the comparand dropped, alloc <-> consume.
std::vector<isa::Op> OpcodeAlternatives(const isa::Instruction& atomic);
std::optional<isa::Case> WithOpcode(const isa::Case& c, size_t at, isa::Op op);

// The ALU instruction at `at`, whose sources are all immediates, replaced
// by a mov of the values the spec gives it (the oracle computes them): a
// target that computes it wrong no longer can. Nullopt for other
// instructions.
std::optional<isa::Case> WithFolded(const isa::Case& c, size_t at);
// Whether the load or store at `at` has a constant address whose first word
// is out of bounds of its memory.
bool ConstantlyOutOfBounds(const isa::Case& c, size_t at);
// Indices of the loads and stores of the code (u# or g#).
std::vector<size_t> PlainAccesses(const isa::Program& p);

// The returning atomic at `at` writes its old value to component
// `component` of the register it named; that component is saved before and
// restored after, and a mov copies the value to the component named: the
// program computes the same, but dst0 lands elsewhere in its own register
// (a write to the wrong component then clobbers what the program keeps
// there, as it did in the case).
std::optional<isa::Case> WithDstComponentInPlace(const isa::Case& c, size_t at,
                                                 int component);

// The atomic at `at` with its value operand (or its comparand) replaced.
std::optional<isa::Case> WithValue(const isa::Case& c, size_t at,
                                   uint32_t value);
std::optional<isa::Case> WithComparand(const isa::Case& c, size_t at,
                                       uint32_t comparand);
// The atomic, load or store at `at` at address 0 of its memory (in bounds
// of any memory holding a word).
std::optional<isa::Case> WithFirstAddress(const isa::Case& c, size_t at);

// The ALU instruction at `at`, whose sources are all immediates, replaced
// by a mov of the values the spec gives it (the oracle computes them): a
// target that computes it wrong no longer can. Nullopt for other
// instructions.
std::optional<isa::Case> WithFolded(const isa::Case& c, size_t at);
// Whether the load or store at `at` has a constant address whose first word
// is out of bounds of its memory.
bool ConstantlyOutOfBounds(const isa::Case& c, size_t at);
// Indices of the loads and stores of the code (u# or g#).
std::vector<size_t> PlainAccesses(const isa::Program& p);

// The returning atomic at `at` writes its old value to component
// `component` of a fresh register (filled first with `fill`), and a mov
// copies it to the register component it named: the program computes the
// same, but the atomic's dst0 lands in another component.
// `moved_to` receives the atomic's index in the result.
std::optional<isa::Case> WithDstComponent(const isa::Case& c, size_t at,
                                          int component, uint32_t fill,
                                          size_t* moved_to = nullptr);

// One thread group of the same size.
std::optional<isa::Case> WithOneGroup(const isa::Case& c);
// The same dispatch with every thread but the `index`-th (flattened over
// groups and threads, x fastest) returning at once: one thread does what it
// did, alone. Not for a case with a barrier (the others would not reach it).
std::optional<isa::Case> WithOnlyThread(const isa::Case& c, uint64_t index);
// Every sync gone (nullopt if there is none).
std::optional<isa::Case> WithoutBarriers(const isa::Case& c);
bool HasBarrier(const isa::Program& p);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_TRIAGE_GENERALISE_EDITS_H_
