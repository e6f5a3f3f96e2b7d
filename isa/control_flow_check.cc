// Control-flow rules: blocks balance, and sync_*_t appears only where the
// whole group gets there together (E-30). Uniformity is over-approximated:
// a value is "varying" if it may differ between threads of one group, and any
// doubt makes it varying. Calling uniform flow divergent only rejects a case;
// the reverse would let an invalid one through.
#include <vector>

#include "absl/strings/str_cat.h"
#include "isa/printer.h"
#include "isa/validation_rules.h"

namespace atomfuzz::isa {
namespace {

enum class Block : uint8_t { kIf, kElse, kLoop, kSwitch };

struct Frame {
  Block block;
  bool divergent;  // threads may disagree about being inside
  size_t loop_id;  // kLoop: index into UniformityPass::divergent_loops_
};

void CheckBalance(const Program& p, DiagnosticSink& sink) {
  std::vector<std::pair<Block, int>> stack;  // block, line it opened
  auto inside = [&](Block b) {
    for (const auto& [blk, line] : stack) {
      if (blk == b) return true;
    }
    return false;
  };
  auto error = [&](const Instruction& i, std::string expected) {
    Violation(sink, RuleId::kControlFlow, i.line, std::move(expected),
              Quote(PrintInstruction(i)));
  };
  for (const Instruction& i : p.instructions) {
    const Block top = stack.empty() ? Block::kIf : stack.back().first;
    switch (i.op) {
      case Op::kIfZ: case Op::kIfNz: stack.push_back({Block::kIf, i.line}); break;
      case Op::kLoop: stack.push_back({Block::kLoop, i.line}); break;
      case Op::kSwitch: stack.push_back({Block::kSwitch, i.line}); break;
      case Op::kElse:
        if (stack.empty() || top != Block::kIf) {
          error(i, "else inside an if without else");
        } else {
          stack.back().first = Block::kElse;
        }
        break;
      case Op::kEndIf:
        if (stack.empty() || (top != Block::kIf && top != Block::kElse)) {
          error(i, "endif closing an if");
        } else {
          stack.pop_back();
        }
        break;
      case Op::kEndLoop:
        if (stack.empty() || top != Block::kLoop) {
          error(i, "endloop closing a loop");
        } else {
          stack.pop_back();
        }
        break;
      case Op::kEndSwitch:
        if (stack.empty() || top != Block::kSwitch) {
          error(i, "endswitch closing a switch");
        } else {
          stack.pop_back();
        }
        break;
      case Op::kCase: case Op::kDefault:
        if (stack.empty() || top != Block::kSwitch) {
          error(i, "case or default directly inside a switch");
        }
        break;
      case Op::kBreak: case Op::kBreakcZ: case Op::kBreakcNz:
        if (!inside(Block::kLoop) && !inside(Block::kSwitch)) {
          error(i, "break inside a loop or switch");
        }
        break;
      case Op::kContinue: case Op::kContinuecZ: case Op::kContinuecNz:
        if (!inside(Block::kLoop)) error(i, "continue inside a loop");
        break;
      default:
        break;
    }
  }
  for (const auto& [block, line] : stack) {
    Violation(sink, RuleId::kControlFlow, line,
              block == Block::kLoop     ? "endloop for this loop"
              : block == Block::kSwitch ? "endswitch for this switch"
                                        : "endif for this if",
              "end of program");
  }
}

// One forward walk; repeated until the varying set stops growing, so values
// carried around loops are accounted for.
class UniformityPass {
 public:
  explicit UniformityPass(const Program& p) : p_(p) {}

  void Run(DiagnosticSink& sink) {
    constexpr int kMaxRounds = 16;
    bool converged = false;
    for (int round = 0; round < kMaxRounds && !converged; ++round) {
      converged = !Walk(nullptr);
    }
    if (!converged) everything_varying_ = true;
    Walk(&sink);
  }

 private:
  bool Varying(const Operand& o) const {
    if (everything_varying_) return true;
    switch (o.file) {
      case RegFile::kImmediate:
      case RegFile::kThreadGroupID:
        return false;
      case RegFile::kTemp:
        for (int lane = 0; lane < o.SourceWidth(); ++lane) {
          if (IsVaryingTemp(o.index, o.Component(lane))) return true;
        }
        return false;
      default:
        return true;  // thread ids, x# (may be indexed per thread)
    }
  }
  bool IsVaryingTemp(uint32_t r, int c) const {
    const size_t k = size_t{r} * 4 + static_cast<size_t>(c);
    return k < varying_.size() && varying_[k];
  }
  // Returns whether anything changed.
  bool MarkVarying(const Operand& dst) {
    if (dst.file != RegFile::kTemp) return false;
    bool changed = false;
    for (int c = 0; c < 4; ++c) {
      if (!(dst.mask & (1u << c))) continue;
      const size_t k = size_t{dst.index} * 4 + static_cast<size_t>(c);
      if (k >= (1u << 16) * 4) continue;  // absurd index; validator reports it
      if (k >= varying_.size()) varying_.resize(k + 1, false);
      if (!varying_[k]) changed = varying_[k] = true;
    }
    return changed;
  }

  bool Walk(DiagnosticSink* sink) {
    bool changed = false;
    std::vector<Frame> stack;
    bool returned_divergently = false;
    size_t next_loop = 0;
    auto divergent_here = [&] {
      return returned_divergently || (!stack.empty() && stack.back().divergent);
    };
    // Makes the innermost enclosing loop divergent (a break/continue that
    // only some threads take).
    auto loop_escape = [&](bool cond_varying) {
      if (!cond_varying && !divergent_here()) return;
      for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
        if (it->block == Block::kLoop) {
          if (!divergent_loops_[it->loop_id]) {
            divergent_loops_[it->loop_id] = true;
            changed = true;
          }
          return;
        }
      }
    };
    for (const Instruction& i : p_.instructions) {
      const OpcodeInfo& row = i.info();
      const bool cond_varying =
          row.operand_with_role(Role::kCondition) >= 0 &&
          Varying(i.operands[static_cast<size_t>(row.operand_with_role(Role::kCondition))]);
      switch (i.op) {
        case Op::kIfZ: case Op::kIfNz:
          stack.push_back({Block::kIf, divergent_here() || cond_varying, 0});
          continue;
        case Op::kSwitch:
          stack.push_back({Block::kSwitch, divergent_here() || cond_varying, 0});
          continue;
        case Op::kLoop: {
          if (next_loop >= divergent_loops_.size()) divergent_loops_.push_back(false);
          const size_t id = next_loop++;
          stack.push_back({Block::kLoop, divergent_here() || divergent_loops_[id], id});
          continue;
        }
        case Op::kEndIf: case Op::kEndLoop: case Op::kEndSwitch:
          if (!stack.empty()) stack.pop_back();
          continue;
        case Op::kBreak: case Op::kContinue: case Op::kBreakcZ:
        case Op::kBreakcNz: case Op::kContinuecZ: case Op::kContinuecNz:
          loop_escape(cond_varying);
          continue;
        case Op::kRet: case Op::kRetcZ: case Op::kRetcNz:
          if (cond_varying || divergent_here()) returned_divergently = true;
          continue;
        case Op::kSync:
          if (sink && (i.sync_flags & kSyncThreads) && divergent_here()) {
            Violation(*sink, RuleId::kSyncInDivergentFlow, i.line,
                      "sync with _t in control flow uniform across the group",
                      absl::StrCat(Quote(PrintInstruction(i)),
                                   " in divergent control flow"));
          }
          continue;
        default:
          break;
      }
      // Writes: results of memory reads are varying, as is anything written
      // where only some threads run; ALU results follow their sources.
      bool result_varying = divergent_here() || row.family != Family::kAlu;
      for (int k = 0; !result_varying && k < row.operand_count(); ++k) {
        if (row.operands[static_cast<size_t>(k)].kind == OperandKind::kSrc) {
          result_varying = Varying(i.operands[static_cast<size_t>(k)]);
        }
      }
      if (!result_varying) continue;
      for (int k = 0; k < row.operand_count(); ++k) {
        if (row.operands[static_cast<size_t>(k)].kind == OperandKind::kDst) {
          changed |= MarkVarying(i.operands[static_cast<size_t>(k)]);
        }
      }
    }
    return changed;
  }

  const Program& p_;
  std::vector<bool> varying_;  // temp component -> varying
  std::vector<bool> divergent_loops_;
  bool everything_varying_ = false;
};

}  // namespace

void CheckControlFlow(const Program& program, DiagnosticSink& sink) {
  CheckBalance(program, sink);
  UniformityPass(program).Run(sink);
}

}  // namespace atomfuzz::isa
