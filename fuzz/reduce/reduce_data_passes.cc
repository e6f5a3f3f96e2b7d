// Passes that shrink what the shader runs on: expectations, resources,
// threads, words, and the values in memory and immediates.
#include <algorithm>
#include <array>
#include <set>

#include "fuzz/reduce/reduce_passes.h"

namespace atomfuzz::fuzz {
namespace {

// Smaller values to try for `v`, largest step first: to 1, halved, minus 1.
std::vector<uint32_t> Shrunk(uint32_t v, uint32_t floor = 1) {
  std::set<uint32_t> seen;
  std::vector<uint32_t> out;
  for (uint32_t t : {floor, v / 2, v - 1}) {
    if (t >= floor && t < v && seen.insert(t).second) out.push_back(t);
  }
  return out;
}

// Simpler values for `v`: 0, 1, then v with its high bits stripped.
std::vector<uint32_t> Simpler(uint32_t v) {
  std::set<uint32_t> seen;
  std::vector<uint32_t> out;
  for (uint32_t t : {0u, 1u, v & 0xffu, v & 0xffffu}) {
    if (t < v && seen.insert(t).second) out.push_back(t);
  }
  return out;
}

bool IsDeclOf(const isa::Instruction& inst, isa::RegFile file, uint32_t slot) {
  return inst.info().family == isa::Family::kDecl && !inst.operands.empty() &&
         inst.operands[0].file == file && inst.operands[0].index == slot;
}

// Removes u#slot or g#slot: its declaration, every instruction naming it,
// its resource and expectations. Return expectations count atomics by
// position, so they go too.
void RemoveMemory(isa::Case& c, isa::RegFile file, uint32_t slot) {
  auto& list = c.shader.instructions;
  list.erase(std::remove_if(list.begin(), list.end(),
                            [&](const isa::Instruction& inst) {
                              if (IsDeclOf(inst, file, slot)) return true;
                              if (inst.info().family == isa::Family::kDecl)
                                return false;
                              return std::any_of(
                                  inst.operands.begin(), inst.operands.end(),
                                  [&](const isa::Operand& o) {
                                    return o.file == file && o.index == slot;
                                  });
                            }),
             list.end());
  c.expect_returns.clear();
  if (file != isa::RegFile::kUav) return;
  std::erase_if(c.resources,
                [slot](const isa::Resource& r) { return r.slot == slot; });
  std::erase_if(c.expect_words,
                [slot](const auto& e) { return e.slot == slot; });
  std::erase_if(c.expect_counters,
                [slot](const auto& e) { return e.slot == slot; });
}

// Typed views keep each texel at its coordinates when an extent shrinks.
void Relayout(isa::Resource& r, const std::array<uint32_t, 3>& old_size) {
  std::vector<uint32_t> init(r.WordCount(), 0);
  for (uint32_t z = 0; z < r.size[2]; ++z) {
    for (uint32_t y = 0; y < r.size[1]; ++y) {
      for (uint32_t x = 0; x < r.size[0]; ++x) {
        const uint64_t from =
            x + uint64_t{old_size[0]} * (y + uint64_t{old_size[1]} * z);
        const uint64_t to =
            x + uint64_t{r.size[0]} * (y + uint64_t{r.size[1]} * z);
        if (from < r.init.size()) init[to] = r.init[from];
      }
    }
  }
  r.init = std::move(init);
}

ReduceEdit ResizeResource(size_t index, int field, uint32_t value) {
  return [=](isa::Case& c) {
    isa::Resource& r = c.resources[index];
    const std::array<uint32_t, 3> old_size = r.size;
    if (r.kind == isa::ResourceKind::kRaw) r.words = value;
    if (r.kind == isa::ResourceKind::kStructured) r.elements = value;
    if (r.kind != isa::ResourceKind::kTyped) {
      r.init.resize(r.WordCount(), 0);  // both are laid out word by word
      return true;
    }
    r.size[static_cast<size_t>(field)] = value;
    Relayout(r, old_size);
    return true;
  };
}

void AddResourceWordEdits(const isa::Case& c, std::vector<ReduceEdit>& edits) {
  for (size_t i = 0; i < c.resources.size(); ++i) {
    const isa::Resource& r = c.resources[i];
    if (r.kind == isa::ResourceKind::kRaw ||
        r.kind == isa::ResourceKind::kStructured) {
      const uint32_t n =
          r.kind == isa::ResourceKind::kRaw ? r.words : r.elements;
      for (uint32_t v : Shrunk(n)) edits.push_back(ResizeResource(i, 0, v));
      continue;
    }
    for (int f = 0; f < 3; ++f) {
      for (uint32_t v : Shrunk(r.size[static_cast<size_t>(f)])) {
        edits.push_back(ResizeResource(i, f, v));
      }
    }
  }
}

// dcl_tgsm_raw g#, BYTES (multiples of 4); dcl_tgsm_structured g#, STRIDE,
// COUNT: the last number operand is the one that sizes it.
void AddTgsmWordEdits(const isa::Case& c, std::vector<ReduceEdit>& edits) {
  const auto& list = c.shader.instructions;
  for (size_t i = 0; i < list.size(); ++i) {
    const isa::Instruction& d = list[i];
    if (d.info().family != isa::Family::kDecl || d.operands.size() < 2 ||
        d.operands[0].file != isa::RegFile::kTgsm) {
      continue;
    }
    const size_t last = d.operands.size() - 1;
    const bool bytes = last == 1;
    const uint32_t n =
        bytes ? d.operands[last].index / 4 : d.operands[last].index;
    for (uint32_t v : Shrunk(n)) {
      edits.push_back([i, last, v, bytes](isa::Case& k) {
        k.shader.instructions[i].operands[last].index = bytes ? v * 4 : v;
        return true;
      });
    }
  }
}

}  // namespace

std::vector<ReduceEdit> DropExpectationEdits(const isa::Case& c) {
  std::vector<ReduceEdit> edits;
  const size_t n = c.expect_words.size() + c.expect_counters.size() +
                   c.expect_returns.size();
  if (n == 0) return edits;
  edits.push_back([](isa::Case& k) {
    k.expect_words.clear();
    k.expect_counters.clear();
    k.expect_returns.clear();
    return true;
  });
  auto drop_each = [&edits](size_t n, auto member) {
    for (size_t i = 0; i < n; ++i) {
      edits.push_back([i, member](isa::Case& k) {
        auto& list = k.*member;
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
        return true;
      });
    }
  };
  drop_each(c.expect_words.size(), &isa::Case::expect_words);
  drop_each(c.expect_counters.size(), &isa::Case::expect_counters);
  drop_each(c.expect_returns.size(), &isa::Case::expect_returns);
  return edits;
}

std::vector<ReduceEdit> DropResourceEdits(const isa::Case& c) {
  std::vector<ReduceEdit> edits;
  for (const isa::Resource& r : c.resources) {
    edits.push_back([slot = r.slot](isa::Case& k) {
      RemoveMemory(k, isa::RegFile::kUav, slot);
      return true;
    });
  }
  for (const isa::Instruction& d : c.shader.instructions) {
    if (d.info().family != isa::Family::kDecl || d.operands.empty() ||
        d.operands[0].file != isa::RegFile::kTgsm) {
      continue;
    }
    edits.push_back([slot = d.operands[0].index](isa::Case& k) {
      RemoveMemory(k, isa::RegFile::kTgsm, slot);
      return true;
    });
  }
  return edits;
}

std::vector<ReduceEdit> DropThreadEdits(const isa::Case& c) {
  std::vector<ReduceEdit> edits;
  for (size_t d = 0; d < 3; ++d) {
    for (uint32_t v : Shrunk(c.groups[d])) {
      edits.push_back([d, v](isa::Case& k) {
        k.groups[d] = v;
        return true;
      });
    }
  }
  const auto& list = c.shader.instructions;
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].op != isa::Op::kDclThreadGroup) continue;
    for (size_t d = 0; d < 3 && d < list[i].operands.size(); ++d) {
      for (uint32_t v : Shrunk(list[i].operands[d].index)) {
        edits.push_back([i, d, v](isa::Case& k) {
          k.shader.instructions[i].operands[d].index = v;
          return true;
        });
      }
    }
  }
  return edits;
}

std::vector<ReduceEdit> DropWordEdits(const isa::Case& c) {
  std::vector<ReduceEdit> edits;
  AddResourceWordEdits(c, edits);
  AddTgsmWordEdits(c, edits);
  return edits;
}

std::vector<ReduceEdit> SimplifyValueEdits(const isa::Case& c) {
  std::vector<ReduceEdit> edits;
  for (size_t r = 0; r < c.resources.size(); ++r) {
    const isa::Resource& res = c.resources[r];
    if (std::any_of(res.init.begin(), res.init.end(),
                    [](uint32_t w) { return w != 0; })) {
      edits.push_back([r](isa::Case& k) {
        std::fill(k.resources[r].init.begin(), k.resources[r].init.end(), 0u);
        return true;
      });
    }
    for (size_t w = 0; w < res.init.size(); ++w) {
      for (uint32_t v : Simpler(res.init[w])) {
        edits.push_back([r, w, v](isa::Case& k) {
          k.resources[r].init[w] = v;
          return true;
        });
      }
    }
    for (uint32_t v :
         res.counter ? Simpler(*res.counter) : std::vector<uint32_t>{}) {
      edits.push_back([r, v](isa::Case& k) {
        k.resources[r].counter = v;
        return true;
      });
    }
  }
  const auto& list = c.shader.instructions;
  for (size_t i = FirstBodyInstruction(c.shader); i < list.size(); ++i) {
    for (size_t o = 0; o < list[i].operands.size(); ++o) {
      const isa::Operand& op = list[i].operands[o];
      if (op.file != isa::RegFile::kImmediate) continue;
      for (size_t lane = 0; lane < op.value_count && lane < 4; ++lane) {
        for (uint32_t v : Simpler(op.values[lane])) {
          edits.push_back([i, o, lane, v](isa::Case& k) {
            k.shader.instructions[i].operands[o].values[lane] = v;
            return true;
          });
        }
      }
    }
  }
  return edits;
}

}  // namespace atomfuzz::fuzz
