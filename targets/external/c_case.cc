#include "targets/external/c_case.h"

#include <cstdint>
#include <utility>

#include "absl/status/statusor.h"
#include "isa/dxbc.h"

namespace atomfuzz::targets::external {
namespace {

atomfuzz_operand ToC(const isa::Operand& o) {
  atomfuzz_operand c{};
  c.file = static_cast<uint32_t>(o.file);
  c.index = o.index;
  if (o.relative) {
    c.has_relative = 1;
    c.relative_temp = o.relative->temp;
    c.relative_component = o.relative->component;
  }
  c.offset = o.offset;
  c.selection = static_cast<uint32_t>(o.selection);
  c.mask = o.mask;
  for (int i = 0; i < 4; ++i) {
    c.swizzle[i] = o.swizzle[static_cast<size_t>(i)];
    c.values[i] = o.values[static_cast<size_t>(i)];
  }
  c.value_count = o.value_count;
  return c;
}

atomfuzz_instruction ToC(const isa::Instruction& in) {
  atomfuzz_instruction c{};
  c.opcode = in.info().token_opcode;
  c.test_nonzero = in.info().test_nonzero ? 1 : 0;
  c.sync_flags = in.sync_flags;
  c.global_flags = in.global_flags;
  c.glc = in.glc ? 1 : 0;
  c.opc = in.opc ? 1 : 0;
  c.dim = static_cast<uint32_t>(in.dim);
  for (size_t i = 0; i < 4; ++i)
    c.types[i] = static_cast<uint32_t>(in.types[i]);
  if (in.indexable) {
    c.has_indexable = 1;
    c.indexable_dim = static_cast<uint32_t>(in.indexable->dim);
    c.indexable_stride = in.indexable->stride;
    for (size_t i = 0; i < 4; ++i) {
      c.indexable_types[i] = static_cast<uint32_t>(in.indexable->types[i]);
    }
  }
  return c;
}

atomfuzz_resource ToC(const isa::Resource& r) {
  atomfuzz_resource c{};
  c.slot = r.slot;
  c.kind = static_cast<uint32_t>(r.kind);
  c.stride = r.stride;
  c.elements = r.elements;
  c.dim = static_cast<uint32_t>(r.dim);
  c.format = static_cast<uint32_t>(r.format);
  for (size_t i = 0; i < 3; ++i) c.size[i] = r.size[i];
  c.has_counter = r.counter.has_value() ? 1 : 0;
  c.counter = r.counter.value_or(0);
  // The words actually held; a valid case has exactly WordCount() of them.
  c.word_count = static_cast<uint32_t>(r.init.size());
  c.initial = r.init.data();
  return c;
}

}  // namespace

CCase::CCase(const isa::Case& c, bool want_trace) {
  for (const isa::Resource& r : c.resources) resources_.push_back(ToC(r));
  for (const isa::Instruction& in : c.shader.instructions) {
    std::vector<atomfuzz_operand>& ops = operands_.emplace_back();
    for (const isa::Operand& o : in.operands) ops.push_back(ToC(o));
    instructions_.push_back(ToC(in));
  }
  // Pointers only once the vectors stop growing.
  for (size_t i = 0; i < instructions_.size(); ++i) {
    instructions_[i].operand_count = static_cast<uint32_t>(operands_[i].size());
    instructions_[i].operands = operands_[i].data();
  }
  for (size_t i = 0; i < 3; ++i) case_.groups[i] = c.groups[i];
  case_.resource_count = static_cast<uint32_t>(resources_.size());
  case_.resources = resources_.data();
  case_.instruction_count = static_cast<uint32_t>(instructions_.size());
  case_.instructions = instructions_.data();
  // The shader as a translator consumes it (cs_5_0 container, exact
  // checksum). A program the encoder cannot write (none that validates)
  // leaves NULL/0, as include/atomfuzz/target.h allows.
  if (absl::StatusOr<std::vector<uint8_t>> dxbc = isa::EncodeDxbc(c.shader);
      dxbc.ok()) {
    dxbc_ = *std::move(dxbc);
  }
  case_.dxbc = dxbc_.empty() ? nullptr : dxbc_.data();
  case_.dxbc_size = dxbc_.size();
  case_.want_trace = want_trace ? 1 : 0;
}

}  // namespace atomfuzz::targets::external
