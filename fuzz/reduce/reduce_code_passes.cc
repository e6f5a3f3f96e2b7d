// Passes that shrink the shader: whole blocks, chunks, control pairs around
// a body kept, single instructions, then declarations nothing uses.
#include <algorithm>
#include <optional>
#include <set>
#include <utility>

#include "fuzz/reduce/reduce_passes.h"
#include "isa/blocks.h"

namespace atomfuzz::fuzz {
namespace {

using isa::Op;

struct Block {
  size_t open = 0;
  std::optional<size_t> middle;  // else
  size_t close = 0;
  bool loop = false, breakable = false;  // loop; loop or switch
  std::vector<size_t> labels;            // switch: its case/default
  std::vector<size_t> exits;             // break/continue that belong to it
};

// The blocks in order of their opening instruction (isa's pairing); none
// for an unbalanced program.
std::vector<Block> Blocks(const isa::Program& p) {
  isa::BlockPairs pairs;
  if (!isa::PairBlocks(p, pairs).ok()) return {};
  const auto& code = p.instructions;
  std::vector<Block> blocks;
  std::vector<size_t> block_of(code.size(), SIZE_MAX);  // opener -> its Block
  for (const uint32_t i : pairs.members) {
    const isa::OpcodeInfo& row = code[i].info();
    if (row.block == isa::BlockShape::kOpen) {
      Block b;
      b.open = i;
      b.close = pairs.close[i];
      b.loop = row.block_kind == isa::BlockKind::kLoop;
      b.breakable = b.loop || row.block_kind == isa::BlockKind::kSwitch;
      for (uint32_t j = pairs.next[i]; j != pairs.close[i]; j = pairs.next[j]) {
        if (code[j].info().block == isa::BlockShape::kMiddle) {
          b.middle = j;
        } else {
          b.labels.push_back(j);
        }
      }
      block_of[i] = blocks.size();
      blocks.push_back(std::move(b));
    } else if (row.block == isa::BlockShape::kBreak ||
               row.block == isa::BlockShape::kContinue) {
      blocks[block_of[pairs.opener[i]]].exits.push_back(i);
    }
  }
  return blocks;
}

// The body range [first, end): after the declarations, before the final ret
// (which stays, spec 3.1: the program ends with ret).
std::pair<size_t, size_t> BodyRange(const isa::Program& p) {
  const size_t first = FirstBodyInstruction(p);
  size_t end = p.instructions.size();
  if (end > first && p.instructions.back().op == Op::kRet) --end;
  return {first, end};
}

ReduceEdit RemoveIndices(std::set<size_t> indices) {
  return [indices = std::move(indices)](isa::Case& c) {
    auto& list = c.shader.instructions;
    if (indices.empty() || *indices.rbegin() >= list.size()) return false;
    for (auto it = indices.rbegin(); it != indices.rend(); ++it) {
      list.erase(list.begin() + static_cast<std::ptrdiff_t>(*it));
    }
    return true;
  };
}

std::set<size_t> Range(size_t first, size_t last_inclusive) {
  std::set<size_t> s;
  for (size_t i = first; i <= last_inclusive; ++i) s.insert(i);
  return s;
}

bool UsesFile(const isa::Program& p, isa::RegFile file,
              std::optional<uint32_t> index) {
  for (size_t i = FirstBodyInstruction(p); i < p.instructions.size(); ++i) {
    for (const isa::Operand& o : p.instructions[i].operands) {
      if (o.file == file && (!index || o.index == *index)) return true;
    }
  }
  return false;
}

// One more than the highest r# any instruction reads or writes.
uint32_t TempsUsed(const isa::Program& p) {
  uint32_t n = 0;
  for (size_t i = FirstBodyInstruction(p); i < p.instructions.size(); ++i) {
    for (const isa::Operand& o : p.instructions[i].operands) {
      if (o.file == isa::RegFile::kTemp) n = std::max(n, o.index + 1);
      if (o.relative) n = std::max(n, o.relative->temp + 1);
    }
  }
  return n;
}

}  // namespace

bool UsesMemory(const isa::Program& p, bool tgsm, uint32_t slot) {
  return UsesFile(p, tgsm ? isa::RegFile::kTgsm : isa::RegFile::kUav, slot);
}

std::vector<ReduceEdit> DropBlockEdits(const isa::Case& c) {
  std::vector<ReduceEdit> edits;
  for (const Block& b : Blocks(c.shader))
    edits.push_back(RemoveIndices(Range(b.open, b.close)));
  return edits;
}

std::vector<ReduceEdit> DropChunkEdits(const isa::Case& c) {
  const auto [first, end] = BodyRange(c.shader);
  std::vector<ReduceEdit> edits;
  for (size_t k = (end - first) / 2; k >= 2; k /= 2) {
    for (size_t start = first; start < end; start += k) {
      edits.push_back(
          RemoveIndices(Range(start, std::min(start + k, end) - 1)));
    }
  }
  return edits;
}

std::vector<ReduceEdit> UnwrapBlockEdits(const isa::Case& c) {
  std::vector<ReduceEdit> edits;
  for (const Block& b : Blocks(c.shader)) {
    if (b.middle) {  // keep the then-branch, or the else-branch
      std::set<size_t> keep_then = Range(*b.middle, b.close);
      keep_then.insert(b.open);
      std::set<size_t> keep_else = Range(b.open, *b.middle);
      keep_else.insert(b.close);
      edits.push_back(RemoveIndices(std::move(keep_then)));
      edits.push_back(RemoveIndices(std::move(keep_else)));
      continue;
    }
    // if/endif; loop/endloop and its breaks (the body runs once);
    // switch/endswitch with its labels and breaks (the cases fall through).
    std::set<size_t> pair = {b.open, b.close};
    pair.insert(b.labels.begin(), b.labels.end());
    pair.insert(b.exits.begin(), b.exits.end());
    edits.push_back(RemoveIndices(std::move(pair)));
  }
  return edits;
}

std::vector<ReduceEdit> DropInstructionEdits(const isa::Case& c) {
  const auto [first, end] = BodyRange(c.shader);
  std::vector<ReduceEdit> edits;
  for (size_t i = first; i < end; ++i) edits.push_back(RemoveIndices({i}));
  return edits;
}

std::vector<ReduceEdit> TidyDeclarationEdits(const isa::Case& c) {
  std::vector<ReduceEdit> edits;
  const isa::Program& p = c.shader;
  for (size_t i = 0; i < FirstBodyInstruction(p); ++i) {
    const isa::Instruction& d = p.instructions[i];
    if (d.op == Op::kDclTemps && !d.operands.empty()) {
      const uint32_t used = TempsUsed(p);
      if (used == 0) {
        edits.push_back(RemoveIndices({i}));
      } else if (used < d.operands[0].index) {
        edits.push_back([i, used](isa::Case& k) {
          k.shader.instructions[i].operands[0].index = used;
          return true;
        });
      }
    } else if ((d.op == Op::kDclInput || d.op == Op::kDclIndexableTemp) &&
               !d.operands.empty()) {
      const isa::Operand& o = d.operands[0];
      const bool indexed = o.file == isa::RegFile::kIndexableTemp;
      if (!UsesFile(
              p, o.file,
              indexed ? std::optional<uint32_t>(o.index) : std::nullopt)) {
        edits.push_back(RemoveIndices({i}));
      }
    } else if (d.op == Op::kDclGlobalFlags) {
      edits.push_back(RemoveIndices({i}));
    }
  }
  return edits;
}

}  // namespace atomfuzz::fuzz
