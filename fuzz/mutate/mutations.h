// The structure-aware mutations, one function each, all of one shape
// (libFuzzer's MutationDispatcher): edit the case in place and return true,
// or return false when the mutation does not apply to this case. They may
// leave a case that breaks a rule; the dispatcher (fuzz/mutate/mutator.h) works
// on a copy, validates the result and keeps only valid ones, so each mutation
// stays short and does not repeat the validator.
#ifndef ATOMFUZZ_FUZZ_MUTATE_MUTATIONS_H_
#define ATOMFUZZ_FUZZ_MUTATE_MUTATIONS_H_

#include "fuzz/generate/choices.h"
#include "fuzz/generate/policy.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

using MutationFn = bool (*)(isa::Case&, Choices&, const Policy&);

// Code (mutations_code.cc).
// An atomic of any of the 21 kinds on a declared memory it supports, with
// operands from existing registers and edge immediates and addresses.
bool InsertAtomic(isa::Case& c, Choices& choices, const Policy& policy);
// Removes an instruction, a whole block, an else branch or a case, or
// unwraps an if or a loop, so that blocks stay balanced.
bool DeleteInstruction(isa::Case& c, Choices& choices, const Policy& policy);
// Another opcode of the same family: imm_atomic_or -> imm_atomic_xor,
// atomic <-> imm_atomic, alloc <-> consume, iadd -> xor, if_z <-> if_nz,
// deriv_rtx -> deriv_rty_fine, or other sync flags.
bool ChangeOpcode(isa::Case& c, Choices& choices, const Policy& policy);
// A copy of an instruction or block elsewhere in the code.
bool DuplicateInstruction(isa::Case& c, Choices& choices, const Policy& policy);
// Two instructions (not control flow) trade places.
bool SwapInstructions(isa::Case& c, Choices& choices, const Policy& policy);

// Operands (mutations_operands.cc).
// An immediate lane becomes an edge value, a neighbour or a bit flip.
bool ChangeImmediate(isa::Case& c, Choices& choices, const Policy& policy);
// A memory access's address becomes an edge address of its target: last
// valid word, first out-of-bounds byte, misaligned by 1..3, ...
bool ChangeAddress(isa::Case& c, Choices& choices, const Policy& policy);
// A register operand: another r#, swizzle, component or mask, or a source
// turned immediate (and back).
bool ChangeRegister(isa::Case& c, Choices& choices, const Policy& policy);
// A memory access moves to another declared u# or g# it supports.
bool RetargetMemory(isa::Case& c, Choices& choices, const Policy& policy);

// Resources and dispatch (mutations_memory.cc, mutations_dispatch.cc).
// A UAV's size: words, elements or a typed extent (contents follow).
bool ResizeUav(isa::Case& c, Choices& choices, const Policy& policy);
// A structured UAV's stride, in its declaration and its view.
bool ChangeStride(isa::Case& c, Choices& choices, const Policy& policy);
// A UAV becomes raw, structured or typed (another dimension or format); its
// declaration and the addresses of its atomics follow.
bool ChangeUavKind(isa::Case& c, Choices& choices, const Policy& policy);
// A structured UAV's hidden counter appears, goes, or takes an edge value.
bool ChangeCounter(isa::Case& c, Choices& choices, const Policy& policy);
// A UAV's initial contents: a word, a fill or a ramp of edge values.
bool ChangeUavData(isa::Case& c, Choices& choices, const Policy& policy);
// A g#'s size, stride or structure count.
bool ResizeTgsm(isa::Case& c, Choices& choices, const Policy& policy);
// The [dispatch] group counts.
bool ChangeGroups(isa::Case& c, Choices& choices, const Policy& policy);
// dcl_thread_group.
bool ChangeThreadGroup(isa::Case& c, Choices& choices, const Policy& policy);

// Pixel cases only (mutations_pixel.cc): the draw and its discards. Each
// keeps every sample point clear of the triangles' edges, or does not
// apply.
// A triangle's vertex moves a little (a quad gains or loses lanes) or
// anywhere around the framebuffer.
bool MoveVertex(isa::Case& c, Choices& choices, const Policy& policy);
// A discard_z becomes discard_nz or back, goes, or a new one appears.
bool ToggleDiscard(isa::Case& c, Choices& choices, const Policy& policy);
// 1 sample <-> 4 samples.
bool ChangeSamples(isa::Case& c, Choices& choices, const Policy& policy);
// A triangle more (often over another) or one less; later primitives'
// SV_PrimitiveID follow.
bool AddTriangle(isa::Case& c, Choices& choices, const Policy& policy);
bool RemoveTriangle(isa::Case& c, Choices& choices, const Policy& policy);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_MUTATE_MUTATIONS_H_
