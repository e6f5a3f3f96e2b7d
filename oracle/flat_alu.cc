#include "oracle/flat_alu.h"

namespace atomfuzz::oracle {

// The same reads and writes as Execution::Read and Write for these files.
std::optional<FlatAlu> FlatAlu::Of(const isa::Instruction& inst, int lane,
                                   size_t sources, int counted, size_t temp_values) {
  FlatAlu f;
  f.op = inst.op;
  const isa::Operand& dst = inst.operands[0];
  if (dst.file != isa::RegFile::kTemp) return std::nullopt;
  const size_t d = size_t{dst.index} * 4 + static_cast<size_t>(lane & 3);
  if (d < temp_values) f.dst = static_cast<uint32_t>(d);  // else dropped
  for (size_t k = 0; k < 4; ++k) {
    Source& s = f.src[k];
    if (k >= sources || static_cast<int>(k) >= counted) {
      s.constant = {0, static_cast<int>(k) >= counted};
      continue;
    }
    const isa::Operand& op = inst.operands[1 + k];
    if (op.file == isa::RegFile::kTemp) {
      const size_t r = size_t{op.index} * 4 + op.Component(lane);
      if (r < temp_values) s.reg = static_cast<uint32_t>(r);  // else undefined
    } else if (op.file == isa::RegFile::kImmediate) {
      s.constant = Value::Of(op.values[op.value_count == 1 ? 0 : static_cast<size_t>(lane & 3)]);
    } else {
      return std::nullopt;
    }
  }
  return f;
}

}  // namespace atomfuzz::oracle
