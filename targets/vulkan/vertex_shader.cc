#include "targets/vulkan/vertex_shader.h"

namespace atomfuzz::targets::vulkan {
namespace {

// Assembled once with `spirv-as --target-env vulkan1.0` from:
//                OpCapability Shader
//                OpMemoryModel Logical GLSL450
//                OpEntryPoint Vertex %main "main" %in %out
//                OpDecorate %in Location 0
//                OpDecorate %out BuiltIn Position
//        %void = OpTypeVoid
//          %fn = OpTypeFunction %void
//       %float = OpTypeFloat 32
//          %v4 = OpTypeVector %float 4
//        %in_t = OpTypePointer Input %v4
//       %out_t = OpTypePointer Output %v4
//          %in = OpVariable %in_t Input
//         %out = OpVariable %out_t Output
//        %main = OpFunction %void None %fn
//       %entry = OpLabel
//           %p = OpLoad %v4 %in
//                OpStore %out %p
//                OpReturn
//                OpFunctionEnd
// A hand-written module: no build step, and nothing in it can drift.
constexpr uint32_t kWords[] = {
    0x07230203, 0x00010000, 0x00070000, 0x0000000c, 0x00000000, 0x00020011,
    0x00000001, 0x0003000e, 0x00000000, 0x00000001, 0x0007000f, 0x00000000,
    0x00000001, 0x6e69616d, 0x00000000, 0x00000002, 0x00000003, 0x00040047,
    0x00000002, 0x0000001e, 0x00000000, 0x00040047, 0x00000003, 0x0000000b,
    0x00000000, 0x00020013, 0x00000004, 0x00030021, 0x00000005, 0x00000004,
    0x00030016, 0x00000006, 0x00000020, 0x00040017, 0x00000007, 0x00000006,
    0x00000004, 0x00040020, 0x00000008, 0x00000001, 0x00000007, 0x00040020,
    0x00000009, 0x00000003, 0x00000007, 0x0004003b, 0x00000008, 0x00000002,
    0x00000001, 0x0004003b, 0x00000009, 0x00000003, 0x00000003, 0x00050036,
    0x00000004, 0x00000001, 0x00000000, 0x00000005, 0x000200f8, 0x0000000a,
    0x0004003d, 0x00000007, 0x0000000b, 0x00000002, 0x0003003e, 0x00000003,
    0x0000000b, 0x000100fd, 0x00010038,
};

}  // namespace

absl::Span<const uint32_t> PassThroughVertexShader() { return kWords; }

}  // namespace atomfuzz::targets::vulkan
