// Mutations of the instruction list: insert, delete, change opcode,
// duplicate, swap.
#include <algorithm>
#include <iterator>

#include "fuzz/generate/case_facts.h"
#include "fuzz/generate/operand_builder.h"
#include "fuzz/mutate/mutations.h"

namespace atomfuzz::fuzz {
namespace {

using isa::Family;
using isa::Instruction;
using isa::Op;

bool SameOperandShape(const isa::OpcodeInfo& a, const isa::OpcodeInfo& b) {
  for (int k = 0; k < isa::kMaxOperands; ++k) {
    const isa::OperandSpec& x = a.operands[static_cast<size_t>(k)];
    const isa::OperandSpec& y = b.operands[static_cast<size_t>(k)];
    if (x.kind != y.kind || x.role != y.role) return false;
  }
  return a.suffix == b.suffix;
}

// Removes `i`'s opener and end (and the else of an if), keeping the body:
// the body then runs unconditionally, once.
bool Unwrap(isa::Program& p, const CaseFacts& f, size_t i) {
  const Op op = p.instructions[i].op;
  if (op != Op::kIfZ && op != Op::kIfNz && op != Op::kLoop) return false;
  const size_t end = f.partner[i];
  if (end == SIZE_MAX) return false;
  std::vector<size_t> drop = {i, end};
  for (size_t j = i + 1; j < end; ++j) {
    if (p.instructions[j].op == Op::kElse && f.partner[j] == end) {
      drop.push_back(j);
    }
  }
  std::sort(drop.rbegin(), drop.rend());
  for (size_t j : drop) {
    p.instructions.erase(p.instructions.begin() + static_cast<ptrdiff_t>(j));
  }
  return true;
}

bool ChangeAtomicOpcode(Instruction& inst, const CaseFacts& f,
                        Choices& choices) {
  if (inst.info().family == Family::kCounter) {
    inst.op = inst.op == Op::kImmAtomicAlloc ? Op::kImmAtomicConsume
                                             : Op::kImmAtomicAlloc;
    return true;
  }
  const MemoryFacts* m = f.Find(inst.operands[static_cast<size_t>(
      inst.info().operand_with_role(isa::Role::kTarget))]);
  std::vector<Op> to;
  for (Op op : AtomicOps()) {
    if (op != inst.op && isa::Info(op).family != Family::kCounter &&
        (m == nullptr || CanTarget(op, *m))) {
      to.push_back(op);
    }
  }
  if (to.empty()) return false;
  const Op next = to[choices.Below(to.size())];
  inst.operands = ConvertAtomicOperands(choices, f, inst, next);
  inst.op = next;
  return true;
}

}  // namespace

bool InsertAtomic(isa::Case& c, Choices& choices, const Policy& policy) {
  const CaseFacts f = GatherFacts(c);
  const std::vector<Op>& ops = AtomicOps();
  std::vector<uint32_t> weights;
  for (Op op : ops)
    weights.push_back(policy.op_weights[static_cast<size_t>(op)]);
  const Op op = ops[choices.Weighted(weights)];
  std::vector<const MemoryFacts*> targets;
  for (const MemoryFacts& m : f.memories) {
    if (CanTarget(op, m)) targets.push_back(&m);
  }
  if (targets.empty()) return false;
  const MemoryFacts& m = *targets[choices.Below(targets.size())];
  const std::optional<size_t> pos = PickInsertionPoint(choices, c.shader, f);
  if (!pos) return false;
  Instruction inst;
  inst.op = op;
  inst.operands = AtomicOperands(choices, f, op, m);
  auto& code = c.shader.instructions;
  code.insert(code.begin() + static_cast<ptrdiff_t>(*pos), std::move(inst));
  return true;
}

bool DeleteInstruction(isa::Case& c, Choices& choices, const Policy& policy) {
  const CaseFacts f = GatherFacts(c);
  const std::optional<size_t> i = PickCode(choices, f);
  if (!i) return false;
  if (choices.Below(4) == 3 && Unwrap(c.shader, f, *i)) return true;
  const auto range = DeletionRange(c.shader, f, *i);
  if (!range) return false;
  auto& code = c.shader.instructions;
  code.erase(code.begin() + static_cast<ptrdiff_t>(range->first),
             code.begin() + static_cast<ptrdiff_t>(range->second + 1));
  return true;
}

bool ChangeOpcode(isa::Case& c, Choices& choices, const Policy& policy) {
  const CaseFacts f = GatherFacts(c);
  const std::optional<size_t> i = PickCode(choices, f);
  if (!i) return false;
  Instruction& inst = c.shader.instructions[*i];
  const isa::OpcodeInfo& row = inst.info();
  switch (row.family) {
    case Family::kAtomic:
    case Family::kImmAtomic:
    case Family::kCounter: return ChangeAtomicOpcode(inst, f, choices);
    case Family::kSync:
      inst.sync_flags = kSyncVariants[choices.Weighted(policy.sync_weights)];
      return true;
    case Family::kDeriv: {  // another axis, or another form (P.5)
      std::vector<Op> to;
      for (const isa::OpcodeInfo& other : isa::AllOpcodes()) {
        if (other.family == Family::kDeriv && other.op != inst.op) {
          to.push_back(other.op);
        }
      }
      inst.op = to[choices.Below(to.size())];
      return true;
    }
    case Family::kAlu:
    case Family::kControl: {
      // ALU: any row of the same shape; control: only the _z/_nz twin, so
      // blocks keep their shape.
      std::vector<Op> to;
      for (const isa::OpcodeInfo& other : isa::AllOpcodes()) {
        // A zero weight: the policy keeps it out (an op the target refuses).
        if (other.op == inst.op || other.family != row.family ||
            !SameOperandShape(row, other) ||
            policy.op_weights[static_cast<size_t>(other.op)] == 0) {
          continue;
        }
        if (row.family == Family::kControl &&
            other.token_opcode != row.token_opcode) {
          continue;
        }
        to.push_back(other.op);
      }
      if (to.empty()) return false;
      inst.op = to[choices.Below(to.size())];
      return true;
    }
    default: return false;
  }
}

bool DuplicateInstruction(isa::Case& c, Choices& choices,
                          const Policy& policy) {
  const CaseFacts f = GatherFacts(c);
  const std::optional<size_t> i = PickCode(choices, f);
  if (!i) return false;
  const auto& code = c.shader.instructions;
  size_t last = *i;
  switch (code[*i].op) {
    case Op::kIfZ:
    case Op::kIfNz:
    case Op::kLoop:
    case Op::kSwitch:
      last = f.partner[*i];  // the whole block
      if (last == SIZE_MAX) return false;
      break;
    default:
      if (code[*i].info().family == Family::kControl &&
          code[*i].info().operand_count() == 0) {
        return false;  // else, endif, break, ...: not on their own
      }
      break;
  }
  const std::optional<size_t> pos = PickInsertionPoint(choices, c.shader, f);
  if (!pos) return false;
  std::vector<Instruction> copy(
      code.begin() + static_cast<ptrdiff_t>(*i),
      code.begin() + static_cast<ptrdiff_t>(last + 1));
  auto& out = c.shader.instructions;
  out.insert(out.begin() + static_cast<ptrdiff_t>(*pos), copy.begin(),
             copy.end());
  return true;
}

bool SwapInstructions(isa::Case& c, Choices& choices, const Policy& policy) {
  const CaseFacts f = GatherFacts(c);
  const std::optional<size_t> a = PickCode(choices, f);
  const std::optional<size_t> b = PickCode(choices, f);
  if (!a || !b) return false;
  auto& code = c.shader.instructions;
  if (code[*a] == code[*b] || code[*a].info().family == Family::kControl ||
      code[*b].info().family == Family::kControl) {
    return false;
  }
  std::swap(code[*a], code[*b]);
  return true;
}

}  // namespace atomfuzz::fuzz
