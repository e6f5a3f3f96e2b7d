#include "fuzz/triage/case_size.h"

#include <tuple>

#include "absl/strings/str_format.h"

namespace atomfuzz::fuzz {

size_t FirstBodyInstruction(const isa::Program& p) {
  size_t i = 0;
  while (i < p.instructions.size() &&
         p.instructions[i].info().family == isa::Family::kDecl) {
    ++i;
  }
  return i;
}

CaseSize SizeOf(const isa::Case& c) {
  CaseSize s;
  const isa::Program& p = c.shader;
  const size_t body = FirstBodyInstruction(p);
  s.instructions = static_cast<int64_t>(p.instructions.size() - body);
  int64_t group = 1;
  for (size_t i = 0; i < body; ++i) {
    const isa::Instruction& d = p.instructions[i];
    if (d.op == isa::Op::kDclThreadGroup && d.operands.size() == 3) {
      group = int64_t{d.operands[0].index} * d.operands[1].index *
              d.operands[2].index;
    }
    if (d.info().family == isa::Family::kDecl && !d.operands.empty() &&
        d.operands[0].file == isa::RegFile::kTgsm && d.operands.size() >= 2) {
      ++s.resources;  // raw: bytes; structured: stride, count
      s.words += d.operands.size() == 2
                     ? d.operands[1].index / 4
                     : int64_t{d.operands[1].index / 4} * d.operands[2].index;
    }
  }
  // A draw's invocations: the quads its framebuffer holds, per sample and
  // triangle (isa::ThreadCount's bound), which shrinks with the draw.
  s.threads = c.shader.pixel()
                  ? static_cast<int64_t>(isa::ThreadCount(c))
                  : group * c.groups[0] * c.groups[1] * c.groups[2];
  for (const isa::Resource& r : c.resources) {
    ++s.resources;
    s.words += static_cast<int64_t>(r.WordCount());
  }
  return s;
}

bool CaseSize::operator<(const CaseSize& o) const {
  return std::tie(instructions, threads, resources, words) <
         std::tie(o.instructions, o.threads, o.resources, o.words);
}

std::string CaseSize::ToString() const {
  return absl::StrFormat("%d instructions, %d threads, %d resources, %d words",
                         instructions, threads, resources, words);
}

}  // namespace atomfuzz::fuzz
