// Integer ALU semantics for one component lane, with undefined values
// propagated (spec 6.0: anything computed from an undefined value is
// undefined).
#ifndef ATOMFUZZ_ORACLE_ALU_H_
#define ATOMFUZZ_ORACLE_ALU_H_

#include <array>

#include "isa/opcode_table.h"
#include "oracle/value.h"

namespace atomfuzz::oracle {

// One lane of an ALU op. `src` holds the lane's source values in operand
// order (up to 4). imul/umul return the high half in `hi` and the low half as
// the result; other ops leave `hi` alone.
Value EvalAlu(isa::Op op, const std::array<Value, 4>& src, Value* hi);

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_ALU_H_
