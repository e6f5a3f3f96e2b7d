#include "targets/wine/vertex_shader_dxbc.h"

#include <string>
#include <vector>

#include "isa/dxbc_bytes.h"
#include "isa/dxbc_container.h"

namespace atomfuzz::targets::wine {
namespace {

// The program, in tokens (spec 4), as fxc writes
//   vs_5_0
//   dcl_input v0.xyzw
//   dcl_output_siv o0.xyzw, position
//   mov o0.xyzw, v0.xyzw
//   ret
// A fixed shader of five instructions: written out rather than taught to
// the case assembler, which knows cs_5_0 and ps_5_0 only.
constexpr uint32_t kShex[] = {
    0x00010050,                    // vs_5_0
    15,                            // length in tokens
    0x0300005f, 0x001010f2, 0,     // dcl_input v0.xyzw
    0x04000067, 0x001020f2, 0, 1,  // dcl_output_siv o0.xyzw, position
    0x05000036, 0x001020f2, 0,     // mov o0.xyzw,
    0x00101e46, 0,                 //     v0.xyzw
    0x0100003e,                    // ret
};

// D3D_REGISTER_COMPONENT_TYPE float32; D3D_NAME_POSITION.
constexpr uint32_t kFloat32 = 3;
constexpr uint32_t kNamePosition = 1;

// A signature chunk of one float4 element at register 0 (spec 5.2);
// `used` is the input's read mask or the output's never-written mask.
std::vector<uint8_t> OneElement(const std::string& semantic,
                                uint32_t system_value, uint32_t used) {
  std::vector<uint8_t> data;
  isa::AppendLe32(data, 1);       // elements
  isa::AppendLe32(data, 8);       // where they start
  isa::AppendLe32(data, 8 + 24);  // the name, after the one element
  isa::AppendLe32(data, 0);       // semantic index
  isa::AppendLe32(data, system_value);
  isa::AppendLe32(data, kFloat32);
  isa::AppendLe32(data, 0);  // register
  isa::AppendLe32(data, 0xf | used << 8);
  std::string name = semantic;
  name.push_back('\0');
  while (name.size() % 4 != 0) name.push_back('\0');
  data.insert(data.end(), name.begin(), name.end());
  return data;
}

std::vector<uint8_t> Build() {
  const std::vector<uint8_t> isgn = OneElement("POSITION", 0, 0xf);
  const std::vector<uint8_t> osgn = OneElement("SV_Position", kNamePosition, 0);
  std::vector<uint8_t> shex;
  for (uint32_t token : kShex) isa::AppendLe32(shex, token);
  const isa::DxbcChunk chunks[] = {{isa::kFourCcIsgn, isgn},
                                   {isa::kFourCcOsgn, osgn},
                                   {isa::kFourCcShex, shex}};
  return isa::WriteDxbcContainer(chunks);
}

}  // namespace

absl::Span<const uint8_t> PassThroughVertexShaderDxbc() {
  static const std::vector<uint8_t>* const container =
      new std::vector<uint8_t>(Build());
  return *container;
}

}  // namespace atomfuzz::targets::wine
