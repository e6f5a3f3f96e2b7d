#include "targets/vulkan/vkd3d_compiler.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "targets/vulkan/stderr_capture.h"
#include "targets/vulkan/vkd3d_api.h"

namespace atomfuzz::targets::vulkan {

SpirvModule CompileDxbcToSpirv(absl::Span<const uint8_t> dxbc,
                               absl::Span<const UavBinding> uavs,
                               BufferUavMode mode, const Vkd3dLibrary& lib,
                               DiscardMode discard) {
  return lib.compiler->Compile(dxbc, uavs, mode, discard);
}

namespace {

// "fixme:shader_sm4_read_instruction: Unrecognized opcode 0x52." ->
// "Unrecognized opcode 0x52.": vkd3d's words without its debug channel
// and function, which would crowd out the words in a bucket's key.
std::string WithoutDebugPrefixes(absl::string_view said) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(said, '\n', absl::SkipEmpty())) {
    for (absl::string_view channel : {"fixme:", "err:", "warn:", "trace:"}) {
      if (absl::ConsumePrefix(&line, channel)) {
        if (const size_t colon = line.find(": "); colon != line.npos)
          line.remove_prefix(colon + 2);
        break;
      }
    }
    absl::StrAppend(&out, out.empty() ? "" : "; ", line);
  }
  return out;
}

}  // namespace

// runner/vkd3d_compile_server.c fills the same chain under Wine.
SpirvModule InProcessVkd3d::Compile(absl::Span<const uint8_t> dxbc,
                                    absl::Span<const UavBinding> uavs,
                                    BufferUavMode mode, DiscardMode discard) {
  std::vector<vkd3d_shader_resource_binding> bindings;
  std::vector<vkd3d_shader_uav_counter_binding> counters;
  for (const UavBinding& u : uavs) {
    vkd3d_shader_resource_binding b{};
    b.type = VKD3D_SHADER_DESCRIPTOR_TYPE_UAV;
    b.register_space = 0;
    b.register_index = u.slot;
    b.shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
    // Without the BUFFER flag vkd3d cannot find a buffer UAV's binding.
    b.flags = u.buffer ? VKD3D_SHADER_BINDING_FLAG_BUFFER
                       : VKD3D_SHADER_BINDING_FLAG_IMAGE;
    b.binding = {0, u.slot, 1};
    bindings.push_back(b);
    if (u.counter) {
      vkd3d_shader_uav_counter_binding c{};
      c.register_space = 0;
      c.register_index = u.slot;
      c.shader_visibility = VKD3D_SHADER_VISIBILITY_ALL;
      c.binding = {0, kCounterBindingBase + u.slot, 1};
      c.offset = 0;  // vkd3d 1.2 supports no other
      counters.push_back(c);
    }
  }
  vkd3d_shader_interface_info interface {};
  interface.type = VKD3D_SHADER_STRUCTURE_TYPE_INTERFACE_INFO;
  interface.bindings = bindings.data();
  interface.binding_count = static_cast<unsigned>(bindings.size());
  interface.uav_counters = counters.data();
  interface.uav_counter_count = static_cast<unsigned>(counters.size());

  vkd3d_shader_spirv_target_info spirv{};
  spirv.type = VKD3D_SHADER_STRUCTURE_TYPE_SPIRV_TARGET_INFO;
  spirv.next = &interface;
  spirv.entry_point = "main";
  spirv.environment = VKD3D_SHADER_SPIRV_ENVIRONMENT_VULKAN_1_0;
  const vkd3d_shader_spirv_extension demote =
      VKD3D_SHADER_SPIRV_EXTENSION_EXT_DEMOTE_TO_HELPER_INVOCATION;
  if (discard == DiscardMode::kDemote) {
    spirv.extensions = &demote;
    spirv.extension_count = 1;
  }

  const vkd3d_shader_compile_option options[] = {
      {VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV,
       mode == BufferUavMode::kSsbo
           ? VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV_STORAGE_BUFFER
           : VKD3D_SHADER_COMPILE_OPTION_BUFFER_UAV_STORAGE_TEXEL_BUFFER},
      {VKD3D_SHADER_COMPILE_OPTION_STRIP_DEBUG, 1},
  };
  vkd3d_shader_compile_info info{};
  info.type = VKD3D_SHADER_STRUCTURE_TYPE_COMPILE_INFO;
  info.next = &spirv;
  info.source = {dxbc.data(), dxbc.size()};
  info.source_type = VKD3D_SHADER_SOURCE_DXBC_TPF;
  info.target_type = VKD3D_SHADER_TARGET_SPIRV_BINARY;
  info.options = options;
  info.option_count = sizeof(options) / sizeof(options[0]);
  info.log_level = VKD3D_SHADER_LOG_WARNING;
  info.source_name = "atomfuzz";

  vkd3d_shader_code out{};
  char* messages = nullptr;
  StderrCapture said;  // vkd3d's FIXME lines (SetQuietEnvironment)
  const int rc = api_.compile(&info, &out, &messages);
  SpirvModule m;
  m.said = said.Take();
  if (messages != nullptr) {
    m.messages = messages;
    api_.free_messages(messages);
  }
  if (rc < 0) {
    // 1.2 often returns no message, its reason only printed.
    if (m.messages.empty()) m.messages = WithoutDebugPrefixes(m.said);
    if (m.messages.empty())
      m.messages = absl::StrCat("vkd3d_shader_compile failed (", rc, ")");
    else
      m.messages = absl::StrCat(absl::StripTrailingAsciiWhitespace(m.messages),
                                " (vkd3d_shader_compile returned ", rc, ")");
    return m;
  }
  m.words.resize(out.size / 4);
  if (!m.words.empty())
    std::memcpy(m.words.data(), out.code, m.words.size() * 4);
  api_.free_code(&out);
  m.ok = out.size % 4 == 0 && !m.words.empty();
  if (!m.ok)
    m.messages = absl::StrCat("vkd3d returned ", out.size, " bytes of SPIR-V");
  return m;
}

}  // namespace atomfuzz::targets::vulkan
