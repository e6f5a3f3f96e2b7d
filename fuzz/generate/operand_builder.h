// Operands for instructions a mutator inserts or rewrites, built from what the
// case already declares (fuzz/generate/case_facts.h) and aimed at the edges the
// spec names (6.A values, 6.B addresses). Every operand is in the canonical
// form the case reader produces, so a mutated case prints and re-reads
// unchanged.
#ifndef ATOMFUZZ_FUZZ_GENERATE_OPERAND_BUILDER_H_
#define ATOMFUZZ_FUZZ_GENERATE_OPERAND_BUILDER_H_

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "fuzz/generate/case_facts.h"
#include "fuzz/generate/choices.h"
#include "isa/opcode_table.h"
#include "isa/operand.h"

namespace atomfuzz::fuzz {

// 0, 1, 0x7fffffff, 0x80000000, 0xffffffff and their neighbours, a small
// number, or any word (spec 6.A: wrap, signed extremes, -0 compares).
uint32_t EdgeValue(Choices& choices);

// One address coordinate set of `m`, aimed at spec 1.3 and 6.B: mostly in
// bounds, else the last valid word, the first out-of-bounds byte or index, an
// offset misaligned by 1..3, a structured offset at the stride, or a huge one.
std::array<uint32_t, 4> EdgeCoordinates(Choices& choices, const MemoryFacts& m);

// A one-component source: l(v), r#.c or a declared system value component.
isa::Operand ScalarSource(Choices& choices, const CaseFacts& f);
// A four-component source: l(a, b, c, d), r#.xyzw-style swizzle, or a
// declared system value with a swizzle over its declared components.
isa::Operand VectorSource(Choices& choices, const CaseFacts& f);
// dst0 of an immediate or counter atomic: r#.c (one component) or null.
isa::Operand ReturnDest(Choices& choices, const CaseFacts& f);
// An address for `m`: edge coordinates as an immediate, or a register
// (whose value the program decides).
isa::Operand AddressFor(Choices& choices, const CaseFacts& f,
                        const MemoryFacts& m);

// The operands of atomic `op` on `m`, by the roles of its table row.
isa::OperandList AtomicOperands(Choices& choices, const CaseFacts& f,
                                isa::Op op, const MemoryFacts& m);

// Rebuilds an atomic's operands for another atomic `to` (atomic <-> imm,
// cmp <-> not cmp): operands with a role in both rows are kept, a new dst0
// or comparand is built, a dropped one is removed.
isa::OperandList ConvertAtomicOperands(Choices& choices, const CaseFacts& f,
                                       const isa::Instruction& from,
                                       isa::Op to);

// Every atomic opcode (the 21 of spec 1.4-1.6), in table order.
const std::vector<isa::Op>& AtomicOps();
// Every ALU opcode, in table order (mov first).
const std::vector<isa::Op>& AluOps();

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_GENERATE_OPERAND_BUILDER_H_
