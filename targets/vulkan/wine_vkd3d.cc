#include "targets/vulkan/wine_vkd3d.h"

#include <unistd.h>

#include <cstring>
#include <mutex>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "targets/wine/compile_wire.h"
#include "targets/wine/wine_process.h"
#include "targets/wine/wine_session.h"

namespace atomfuzz::targets::vulkan {
namespace {

constexpr char kHelper[] = "the Wine vkd3d helper";

// A backstop for a helper that hangs; in the vulkan targets' child the
// run's own --timeout ends it first.
constexpr double kCompileSeconds = 30;

void PutU32(std::string& out, uint32_t v) {
  const char bytes[4] = {static_cast<char>(v), static_cast<char>(v >> 8),
                         static_cast<char>(v >> 16),
                         static_cast<char>(v >> 24)};
  out.append(bytes, 4);
}

// Reads compile_wire.h's fields: u32s and padded byte strings.
struct Reader {
  absl::string_view rest;
  bool U32(uint32_t& v) {
    if (rest.size() < 4) return false;
    std::memcpy(&v, rest.data(), 4);  // x86: little-endian
    rest.remove_prefix(4);
    return true;
  }
  bool Bytes(absl::string_view& bytes) {
    uint32_t n = 0;
    if (!U32(n) || rest.size() < n) return false;
    bytes = rest.substr(0, n);
    rest.remove_prefix(std::min<size_t>(rest.size(), (n + 3) / 4 * 4));
    return true;
  }
};

std::string EncodeRequest(absl::Span<const uint8_t> dxbc,
                          absl::Span<const UavBinding> uavs, BufferUavMode mode,
                          DiscardMode discard) {
  std::string out;
  PutU32(out, ATOMFUZZ_VKD3D_REQUEST);
  PutU32(out,
         (mode == BufferUavMode::kSsbo ? ATOMFUZZ_VKD3D_SSBO
                                       : ATOMFUZZ_VKD3D_TEXEL) |
             (discard == DiscardMode::kDemote ? ATOMFUZZ_VKD3D_DEMOTE : 0));
  PutU32(out, static_cast<uint32_t>(uavs.size()));
  for (const UavBinding& u : uavs) {
    PutU32(out, u.slot);
    PutU32(out, (u.buffer ? ATOMFUZZ_VKD3D_BUFFER : 0) |
                    (u.counter ? ATOMFUZZ_VKD3D_COUNTER : 0));
    PutU32(out, u.slot);
    PutU32(out, kCounterBindingBase + u.slot);
  }
  PutU32(out, static_cast<uint32_t>(dxbc.size()));
  out.append(reinterpret_cast<const char*>(dxbc.data()), dxbc.size());
  out.resize((out.size() + 3) / 4 * 4, '\0');
  return out;
}

// The version the hello names, or why the helper has no vkd3d-shader.
absl::StatusOr<std::string> DecodeHello(absl::string_view frame) {
  Reader r{frame};
  uint32_t magic = 0, status = 0;
  absl::string_view text;
  if (!r.U32(magic) || magic != ATOMFUZZ_VKD3D_HELLO || !r.U32(status) ||
      !r.Bytes(text)) {
    return absl::InternalError(absl::StrCat(kHelper, ": a malformed hello"));
  }
  if (status != 0) return absl::FailedPreconditionError(std::string(text));
  return std::string(text);
}

SpirvModule DecodeReply(absl::string_view frame) {
  Reader r{frame};
  uint32_t magic = 0, rc = 0;
  absl::string_view code, messages;
  SpirvModule m;
  if (!r.U32(magic) || magic != ATOMFUZZ_VKD3D_REPLY || !r.U32(rc) ||
      !r.Bytes(code) || !r.Bytes(messages)) {
    m.compiler =
        absl::InternalError(absl::StrCat(kHelper, ": a malformed reply"));
    return m;
  }
  m.messages = std::string(messages);
  if (static_cast<int32_t>(rc) < 0) {
    if (m.messages.empty()) {
      m.messages = absl::StrCat("vkd3d_shader_compile failed (",
                                static_cast<int32_t>(rc), ")");
    }
    return m;
  }
  m.words.resize(code.size() / 4);
  if (!m.words.empty())
    std::memcpy(m.words.data(), code.data(), m.words.size() * 4);
  m.ok = code.size() % 4 == 0 && !m.words.empty();
  if (!m.ok)
    m.messages =
        absl::StrCat("vkd3d returned ", code.size(), " bytes of SPIR-V");
  return m;
}

wine::SessionConfig HelperConfig() {
  wine::SessionConfig config;
  config.name = kHelper;
  // vkd3d's own FIXME lines follow VKD3D_SHADER_DEBUG; nothing captures
  // the helper's stderr, so they stay off unless the user asks.
  config.set_env.push_back(
      absl::StrCat("VKD3D_SHADER_DEBUG=",
                   wine::EnvOr("ATOMFUZZ_VKD3D_SHADER_DEBUG", "none")));
  config.set_env.push_back(
      absl::StrCat("WINEDEBUG=", wine::EnvOr("ATOMFUZZ_WINEDEBUG", "-all")));
  config.check_hello = [](absl::string_view frame) {
    return DecodeHello(frame).status();
  };
  return config;
}

class WineVkd3d : public SpirvCompiler {
 public:
  explicit WineVkd3d(wine::WineSetup setup)
      : session_(std::move(setup), HelperConfig(), kCompileSeconds),
        owner_(getpid()) {}

  absl::StatusOr<std::string> Version() {
    std::lock_guard<std::mutex> lock(mu_);
    if (absl::Status s = session_.Start(); !s.ok()) return s;
    return DecodeHello(session_.hello());
  }

  SpirvModule Compile(absl::Span<const uint8_t> dxbc,
                      absl::Span<const UavBinding> uavs, BufferUavMode mode,
                      DiscardMode discard) override {
    std::lock_guard<std::mutex> lock(mu_);
    // A fork child holds copies of its parent's descriptors: writing to
    // them would interleave with the parent's frames.
    if (getpid() != owner_) {
      session_.Abandon();
      owner_ = getpid();
    }
    absl::StatusOr<std::string> reply =
        session_.Exchange(EncodeRequest(dxbc, uavs, mode, discard));
    session_.TakeErrors();  // kept in the message of a crash only
    if (reply.ok()) return DecodeReply(*reply);
    SpirvModule m;
    m.compiler = reply.status();
    return m;
  }

 private:
  std::mutex mu_;
  wine::WineSession session_;
  pid_t owner_;
};

}  // namespace

absl::StatusOr<std::unique_ptr<Vkd3dLibrary>> StartWineVkd3d() {
  absl::StatusOr<wine::WineSetup> setup =
      wine::FindWineSetup(wine::WineProgram::kVkd3dCompiler);
  if (!setup.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("--vkd3d=wine: ", setup.status().message()));
  }
  auto* helper = new WineVkd3d(*std::move(setup));  // kept for the process
  absl::StatusOr<std::string> version = helper->Version();
  if (!version.ok()) {
    delete helper;
    return absl::FailedPreconditionError(
        absl::StrCat("--vkd3d=wine: ", version.status().message()));
  }
  auto lib = std::make_unique<Vkd3dLibrary>();
  lib->path = kWineVkd3d;
  lib->version = *std::move(version);
  lib->compiler = helper;
  return lib;
}

}  // namespace atomfuzz::targets::vulkan
