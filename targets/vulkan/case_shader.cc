#include "targets/vulkan/case_shader.h"

#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "isa/dxbc.h"
#include "targets/isolation/run_in_child.h"
#include "targets/vulkan/spirv_validation.h"
#include "targets/vulkan/vkd3d_compiler.h"
#include "targets/vulkan/vkd3d_workarounds.h"

namespace atomfuzz::targets::vulkan {

std::vector<UavBinding> BindingsOf(const isa::Case& c) {
  std::vector<UavBinding> out;
  const auto& code = c.shader.instructions;
  for (const isa::Instruction& in : code) {
    if (in.op != isa::Op::kDclUavRaw && in.op != isa::Op::kDclUavStructured &&
        in.op != isa::Op::kDclUavTyped) {
      continue;
    }
    UavBinding b;
    b.slot = in.operands[0].index;
    b.buffer = in.op != isa::Op::kDclUavTyped || in.dim == isa::Dim::kBuffer;
    const isa::Resource* r = c.FindResource(b.slot);
    b.counter = r != nullptr && r->counter.has_value();
    for (const isa::Instruction& use : code) {
      if (use.info().family == isa::Family::kCounter &&
          use.operands[1].index == b.slot) {
        b.counter = true;
      }
    }
    out.push_back(b);
  }
  return out;
}

CaseShader CompileCase(const isa::Case& c, BufferUavMode mode,
                       const Vkd3dLibrary& vkd3d, DiscardMode discard) {
  CaseShader out;
  absl::StatusOr<std::vector<uint8_t>> dxbc = isa::EncodeDxbc(c.shader);
  if (!dxbc.ok()) {
    out.refused = isa::Outcome::Ended(
        isa::RunStatus::kRejected,
        absl::StrCat("DXBC encoder: ", dxbc.status().message()));
    return out;
  }
  out.dxbc = *std::move(dxbc);
  out.bindings = BindingsOf(c);
  SpirvModule spirv =
      CompileDxbcToSpirv(out.dxbc, out.bindings, mode, vkd3d, discard);
  if (!spirv.compiler.ok()) {
    // --vkd3d=wine's helper died or hung on this program: like a crash of
    // the linked vkd3d, which takes the fork child down, an outcome.
    const absl::Status& s = spirv.compiler;
    const std::string why = absl::StrCat("vkd3d-shader: ", s.message());
    if (absl::IsUnavailable(s)) {
      out.refused = isa::Outcome::Ended(isa::RunStatus::kCrashed, why);
    } else if (absl::IsDeadlineExceeded(s)) {
      out.refused = isa::Outcome::Ended(isa::RunStatus::kTimedOut, why);
    } else {
      out.compiler = absl::Status(s.code(), why);
    }
    return out;
  }
  out.vkd3d_messages = spirv.messages;
  // A refusal's message already holds what vkd3d printed.
  if (spirv.ok && !spirv.said.empty() && spirv.said != spirv.messages) {
    absl::StrAppend(&out.vkd3d_messages, out.vkd3d_messages.empty() ? "" : "\n",
                    spirv.said);
  }
  // Written up in docs/findings.md; repaired so that SSBO mode still runs
  // every case with two buffer UAVs.
  if (spirv.ok && mode == BufferUavMode::kSsbo)
    out.array_strides_dropped = DropRepeatedArrayStride(spirv.words);
  if (!spirv.ok) {
    out.refused =
        isa::Outcome::Ended(isa::RunStatus::kRejected,
                            absl::StrCat("vkd3d-shader: ", spirv.messages));
  } else if (std::optional<std::string> invalid = ValidateSpirv(spirv.words)) {
    out.refused = isa::Outcome::Ended(isa::RunStatus::kInvalidCode,
                                      absl::StrCat("spirv-val: ", *invalid));
  }
  out.spirv = std::move(spirv.words);
  return out;
}

namespace {

// The child's answer: a few length-prefixed fields, read back in order.
void PutBytes(std::string& out, const void* data, size_t n) {
  const uint32_t len = static_cast<uint32_t>(n);
  out.append(reinterpret_cast<const char*>(&len), 4);
  out.append(static_cast<const char*>(data), n);
}

bool GetBytes(absl::string_view& in, std::string& out) {
  uint32_t len = 0;
  if (in.size() < 4) return false;
  std::memcpy(&len, in.data(), 4);
  in.remove_prefix(4);
  if (in.size() < len) return false;
  out.assign(in.data(), len);
  in.remove_prefix(len);
  return true;
}

std::string Serialize(const CaseShader& s) {
  std::string out;
  const int32_t header[3] = {
      static_cast<int32_t>(s.compiler.code()),
      s.refused ? static_cast<int32_t>(s.refused->status) : -1,
      s.array_strides_dropped};
  out.append(reinterpret_cast<const char*>(header), sizeof(header));
  const std::string message(s.compiler.message());
  PutBytes(out, message.data(), message.size());
  const std::string refusal = s.refused ? s.refused->message : "";
  PutBytes(out, refusal.data(), refusal.size());
  PutBytes(out, s.dxbc.data(), s.dxbc.size());
  PutBytes(out, s.spirv.data(), s.spirv.size() * 4);
  PutBytes(out, s.vkd3d_messages.data(), s.vkd3d_messages.size());
  return out;
}

bool Deserialize(absl::string_view in, CaseShader& s) {
  int32_t header[3];
  if (in.size() < sizeof(header)) return false;
  std::memcpy(header, in.data(), sizeof(header));
  in.remove_prefix(sizeof(header));
  std::string message, refusal, dxbc, spirv;
  if (!GetBytes(in, message) || !GetBytes(in, refusal) || !GetBytes(in, dxbc) ||
      !GetBytes(in, spirv) || !GetBytes(in, s.vkd3d_messages) ||
      spirv.size() % 4 != 0 ||
      header[1] > static_cast<int32_t>(isa::kLastRunStatus)) {
    return false;
  }
  s.compiler = absl::Status(static_cast<absl::StatusCode>(header[0]), message);
  if (header[1] >= 0) {
    s.refused = isa::Outcome::Ended(static_cast<isa::RunStatus>(header[1]),
                                    std::move(refusal));
  }
  s.array_strides_dropped = header[2];
  s.dxbc.assign(dxbc.begin(), dxbc.end());
  s.spirv.resize(spirv.size() / 4);
  std::memcpy(s.spirv.data(), spirv.data(), spirv.size());
  return true;
}

}  // namespace

CaseShader CompileCaseInChild(const isa::Case& c, BufferUavMode mode,
                              DiscardMode discard) {
  absl::StatusOr<std::string> answer = RunInChild(
      [&] { return Serialize(CompileCase(c, mode, LinkedVkd3d(), discard)); });
  CaseShader out;
  if (absl::IsAborted(answer.status())) {
    out.refused = isa::Outcome::Ended(
        isa::RunStatus::kCrashed,
        absl::StrCat("vkd3d-shader: ", answer.status().message(),
                     " compiling it"));
  } else if (!answer.ok()) {
    out.compiler = answer.status();
  } else if (!Deserialize(*answer, out)) {
    out = CaseShader{};
    out.compiler = absl::InternalError(
        "the compiling child process gave a malformed answer");
  }
  return out;
}

}  // namespace atomfuzz::targets::vulkan
