#include "oracle/internal/flat_alu.h"

#include "oracle/alu.h"

namespace atomfuzz::oracle {

int FlatSources(isa::Op op) {
  using isa::Op;
  switch (op) {
    case Op::kMov:
    case Op::kINeg:
    case Op::kNot:
    case Op::kCountBits: return 1;
    case Op::kIAdd:
    case Op::kIShl:
    case Op::kIShr:
    case Op::kUShr:
    case Op::kAnd:
    case Op::kOr:
    case Op::kXor:
    case Op::kIEq:
    case Op::kINe:
    case Op::kILt:
    case Op::kIGe:
    case Op::kULt:
    case Op::kUGe:
    case Op::kIMax:
    case Op::kIMin:
    case Op::kUMax:
    case Op::kUMin: return 2;
    case Op::kMovc:
    case Op::kIMad:
    case Op::kUMad:
    case Op::kUbfe: return 3;
    case Op::kBfi: return 4;
    default: return -1;
  }
}

// The same reads and writes as Execution::Read and Write (and ReadOther,
// WriteOther) for these files.
bool FlatAlu::Of(const isa::Instruction& inst, int lane, size_t sources,
                 int counted, size_t temp_values, FlatAlu& f) {
  f.op = inst.op;
  f.direct = FlatSources(inst.op) == counted;
  constexpr size_t kTemps = kSystemValueCount;  // where r0.x is
  // Indexed once: each index into the inlined vector tests where it lives.
  const isa::Operand* const operands = inst.operands.data();
  const isa::Operand& dst = operands[0];
  if (dst.file == isa::RegFile::kIndexableTemp) return false;
  const size_t d = size_t{dst.index} * 4 + static_cast<size_t>(lane & 3);
  // Out of range, or another file: the write goes nowhere.
  if (dst.file == isa::RegFile::kTemp && d < temp_values) {
    f.dst = static_cast<uint32_t>(kTemps + d);
  }
  auto read = [&f](size_t slot, size_t at) {
    f.reg_slot[f.reg_count] = static_cast<uint8_t>(slot);
    f.reg[f.reg_count] = static_cast<uint32_t>(at);
    ++f.reg_count;
    f.index[slot] = static_cast<uint32_t>(at);
    f.keep[slot] = ~uint64_t{0};
  };
  for (size_t k = 0; k < 4; ++k) {
    Value& constant = f.constant[k];  // undefined unless set
    if (k >= sources || static_cast<int>(k) >= counted) {
      constant = AbsentSource(k, counted);
      continue;
    }
    const isa::Operand& op = operands[1 + k];
    if (op.file == isa::RegFile::kTemp) {
      const size_t r = size_t{op.index} * 4 + op.Component(lane);
      if (r < temp_values) read(k, kTemps + r);  // else undefined
    } else if (op.file == isa::RegFile::kImmediate) {
      constant = Value::Of(
          op.values[op.value_count == 1 ? 0 : static_cast<size_t>(lane & 3)]);
    } else if (op.file == isa::RegFile::kIndexableTemp ||
               op.file == isa::RegFile::kInput) {
      return false;  // x#'s element and v#'s input are known only per pass
    } else if (const int slot = SystemValueSlot(op.file, op.Component(lane));
               slot >= 0) {
      read(k, static_cast<size_t>(slot));
    }
    // Any other file, or a component past z, reads as undefined.
  }
  for (size_t k = 0; k < 4; ++k) {
    if (f.keep[k] == 0) {
      f.word[k] = f.constant[k].bits | (uint64_t{f.constant[k].defined} << 32);
    }
  }
  return true;
}

}  // namespace atomfuzz::oracle
