// Per instruction, what a step needs at every execution, worked out once
// per Interpret or Judge call and shared by its passes: the opcode table is
// a dependent load from a large table, the operand count a division, and an
// ALU instruction's operands resolve to flat indices (FlatAlu).
#ifndef ATOMFUZZ_ORACLE_INTERNAL_DECODED_PROGRAM_H_
#define ATOMFUZZ_ORACLE_INTERNAL_DECODED_PROGRAM_H_

#include <cstdint>
#include <vector>

#include "isa/program.h"
#include "oracle/internal/flat_alu.h"

namespace atomfuzz::oracle {

struct DecodedInstruction {
  isa::Family family = isa::Family::kDecl;
  // ALU: the source operands, after the destinations (at most 4).
  uint8_t alu_sources = 0;
  // ALU: the one component it writes, or -1 (several, or two destinations).
  int8_t alu_lane = -1;
  // ALU: the sources the op reads (alu_internal::Sources); those past
  // alu_sources read as undefined.
  uint8_t alu_counted = 0;
  // ALU: whether `flat` holds the instruction (one lane, no x#).
  bool alu_flat = false;
  uint32_t atomic_ordinal = UINT32_MAX;  // index into Thread::occurrences
  FlatAlu flat;  // meaningful only where alu_flat (Decode leaves others as it
                 // found them)
};

struct DecodedProgram {
  std::vector<DecodedInstruction> code;  // by instruction index
  uint32_t leading_decls =
      0;  // declarations before the first other instruction
  uint32_t atomic_count = 0;
  // The memories some instruction loads from (u# slots; g# slots): only
  // their words can be read while others write them, and only their writes
  // are kept for the next pass (AccessLog::RecordWrite).
  std::vector<bool> loaded_uavs, loaded_tgsm;
  bool Loaded(bool tgsm, uint32_t slot) const {
    const std::vector<bool>& l = tgsm ? loaded_tgsm : loaded_uavs;
    return slot < l.size() && l[slot];
  }
  uint32_t temps = 0;  // the last dcl_temps' count (what every pass allots)
  // The indices of the declarations (family kDecl), in order: what a pass's
  // setup reads, without walking the whole program.
  std::vector<uint32_t> declarations;
};

DecodedProgram Decode(const isa::Program& program);
// The same into `p`, in the room its vector already has (the judge keeps
// one for all its cases).
void Decode(const isa::Program& program, DecodedProgram& p);

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_INTERNAL_DECODED_PROGRAM_H_
