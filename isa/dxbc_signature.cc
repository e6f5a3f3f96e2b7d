#include "isa/dxbc_signature.h"

#include <optional>
#include <string>

#include "isa/dxbc_bytes.h"

namespace atomfuzz::isa {
namespace {

// D3D_REGISTER_COMPONENT_TYPE: what the element's components hold.
constexpr uint32_t kComponentUint32 = 1;
constexpr uint32_t kComponentFloat32 = 3;

struct Element {
  absl::string_view semantic;
  uint32_t system_value;  // D3D_NAME, the same codes as D3D10_SB_NAME
  uint32_t component_type;
  uint32_t reg;
  uint32_t mask;     // components the element occupies
  uint32_t rw_mask;  // components the shader reads
};

std::optional<Element> ElementOf(const Instruction& inst) {
  if (inst.op != Op::kDclInputPsSgv && inst.op != Op::kDclInputPsSiv) {
    return std::nullopt;
  }
  if (inst.operands.size() != 2) return std::nullopt;
  const Operand& reg = inst.operands[0];
  const uint32_t name = inst.operands[1].index;
  Element e{"", name, kComponentUint32, reg.index, 0x1, reg.mask};
  switch (static_cast<InputName>(name)) {
    case InputName::kPosition:
      e.semantic = "SV_Position";
      e.component_type = kComponentFloat32;
      e.mask = 0xf;  // fxc declares the whole float4
      break;
    case InputName::kSampleIndex: e.semantic = "SV_SampleIndex"; break;
    case InputName::kPrimitiveId: e.semantic = "SV_PrimitiveID"; break;
    default: return std::nullopt;  // the validator refuses other names
  }
  return e;
}

}  // namespace

std::vector<uint8_t> InputSignatureChunk(const Program& program) {
  std::vector<Element> elements;
  for (const Instruction& inst : program.instructions) {
    if (auto e = ElementOf(inst)) elements.push_back(*e);
  }
  // 8 bytes of header, 24 per element, then the names, each NUL-ended.
  std::vector<uint8_t> data;
  AppendLe32(data, static_cast<uint32_t>(elements.size()));
  AppendLe32(data, 8);
  uint32_t name_offset = 8 + 24 * static_cast<uint32_t>(elements.size());
  std::string names;
  for (const Element& e : elements) {
    AppendLe32(data, name_offset + static_cast<uint32_t>(names.size()));
    AppendLe32(data, 0);  // semantic index
    AppendLe32(data, e.system_value);
    AppendLe32(data, e.component_type);
    AppendLe32(data, e.reg);
    AppendLe32(data, e.mask | e.rw_mask << 8);
    names.append(e.semantic.data(), e.semantic.size());
    names.push_back('\0');
  }
  while (names.size() % 4 != 0) names.push_back('\0');
  data.insert(data.end(), names.begin(), names.end());
  return data;
}

}  // namespace atomfuzz::isa
