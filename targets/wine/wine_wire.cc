#include "targets/wine/wine_wire.h"

#include <algorithm>

#include "absl/base/casts.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "targets/vulkan/vk_draw.h"
#include "targets/wine/runner_wire.h"
#include "targets/wine/vertex_shader_dxbc.h"

namespace atomfuzz::targets::wine {
namespace {

void Put(std::string& out, uint32_t v) {
  const char bytes[4] = {static_cast<char>(v), static_cast<char>(v >> 8),
                         static_cast<char>(v >> 16),
                         static_cast<char>(v >> 24)};
  out.append(bytes, 4);
}

// n, then n bytes zero-padded to 4.
void PutBlob(std::string& out, absl::Span<const uint8_t> bytes) {
  Put(out, static_cast<uint32_t>(bytes.size()));
  out.append(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  out.append((4 - bytes.size() % 4) % 4, '\0');
}

uint32_t DimCode(isa::Dim d) {
  switch (d) {
    case isa::Dim::kTexture1D: return ATOMFUZZ_WINE_DIM_TEXTURE1D;
    case isa::Dim::kTexture1DArray: return ATOMFUZZ_WINE_DIM_TEXTURE1DARRAY;
    case isa::Dim::kTexture2D: return ATOMFUZZ_WINE_DIM_TEXTURE2D;
    case isa::Dim::kTexture2DArray: return ATOMFUZZ_WINE_DIM_TEXTURE2DARRAY;
    case isa::Dim::kTexture3D: return ATOMFUZZ_WINE_DIM_TEXTURE3D;
    default: return ATOMFUZZ_WINE_DIM_BUFFER;
  }
}

uint32_t DxgiFormat(isa::Format f) {
  switch (f) {
    case isa::Format::kR32Uint: return 42;  // DXGI_FORMAT_R32_UINT
    case isa::Format::kR32Sint: return 43;
    case isa::Format::kR32Float: return 41;
  }
  return 0;
}

class Reader {
 public:
  explicit Reader(absl::string_view bytes) : bytes_(bytes) {}
  bool U32(uint32_t& v) {
    if (bytes_.size() < 4) return false;
    const auto* p = reinterpret_cast<const unsigned char*>(bytes_.data());
    v = p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24;
    bytes_.remove_prefix(4);
    return true;
  }
  bool Text(std::string& out) {
    uint32_t n = 0;
    if (!U32(n) || n > bytes_.size()) return false;
    out.assign(bytes_.data(), n);
    bytes_.remove_prefix(n);
    return true;
  }
  size_t left() const { return bytes_.size(); }

 private:
  absl::string_view bytes_;
};

// The case's UAVs in slot order, as the frames list them.
std::vector<const isa::Resource*> BySlot(const isa::Case& run) {
  std::vector<const isa::Resource*> out;
  for (const isa::Resource& r : run.resources) out.push_back(&r);
  std::sort(out.begin(), out.end(),
            [](const isa::Resource* a, const isa::Resource* b) {
              return a->slot < b->slot;
            });
  return out;
}

absl::Status Bad(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("Wine runner reply: ", what));
}

}  // namespace

std::array<float, 2> D3dClipPosition(const std::array<int32_t, 2>& vertex) {
  // The runner's viewport is the vulkan draw's (runner_wire.h, vk_draw.h;
  // tests/targets/wine_wire_test.cc checks them against each other), seen
  // D3D's way up.
  const std::array<float, 4> p = vulkan::ClipPosition(vertex);
  return {p[0], -p[1]};
}

std::string EncodeRequest(const isa::Case& run,
                          absl::Span<const uint8_t> dxbc) {
  std::string out;
  if (run.shader.pixel()) {
    Put(out, ATOMFUZZ_WINE_DRAW);
    Put(out, run.draw.width);
    Put(out, run.draw.height);
    Put(out, run.draw.samples);
    Put(out, static_cast<uint32_t>(run.draw.triangles.size()));
    for (const isa::Triangle& t : run.draw.triangles) {
      for (const std::array<int32_t, 2>& v : t.v) {
        for (float f : D3dClipPosition(v))
          Put(out, absl::bit_cast<uint32_t>(f));
      }
    }
  } else {
    Put(out, ATOMFUZZ_WINE_REQUEST);
    for (uint32_t g : run.groups) Put(out, g);
  }
  Put(out, static_cast<uint32_t>(run.resources.size()));
  for (const isa::Resource* resource : BySlot(run)) {
    const isa::Resource& r = *resource;
    Put(out, r.slot);
    const bool typed = r.kind == isa::ResourceKind::kTyped;
    Put(out, r.kind == isa::ResourceKind::kRaw ? ATOMFUZZ_WINE_KIND_RAW
             : r.kind == isa::ResourceKind::kStructured
                 ? ATOMFUZZ_WINE_KIND_STRUCTURED
                 : ATOMFUZZ_WINE_KIND_TYPED);
    Put(out, typed ? DimCode(r.dim) : ATOMFUZZ_WINE_DIM_BUFFER);
    Put(out, typed ? DxgiFormat(r.format) : 0);
    Put(out, r.kind == isa::ResourceKind::kStructured ? r.stride : 0);
    const bool texture = typed && r.dim != isa::Dim::kBuffer;
    const uint32_t words = static_cast<uint32_t>(r.init.size());
    // Buffers: their element count (structures for structured ones).
    Put(out, texture                                    ? r.size[0]
             : r.kind == isa::ResourceKind::kStructured ? r.elements
                                                        : words);
    Put(out, texture ? r.size[1] : 1);
    Put(out, texture ? r.size[2] : 1);
    Put(out, r.counter ? ATOMFUZZ_WINE_COUNTER : 0);
    Put(out, r.counter.value_or(0));
    Put(out, words);
    for (uint32_t w : r.init) Put(out, w);
  }
  if (run.shader.pixel()) PutBlob(out, PassThroughVertexShaderDxbc());
  PutBlob(out, dxbc);
  return out;
}

absl::StatusOr<Hello> DecodeHello(absl::string_view frame) {
  Reader r(frame);
  uint32_t magic = 0;
  Hello h;
  if (!r.U32(magic) || magic != ATOMFUZZ_WINE_HELLO ||
      !r.U32(h.feature_level) || !r.Text(h.adapter)) {
    return absl::InvalidArgumentError(
        "Wine runner: expected a hello frame at start");
  }
  return h;
}

absl::StatusOr<isa::Outcome> DecodeReply(absl::string_view frame,
                                         const isa::Case& run) {
  Reader r(frame);
  uint32_t magic = 0, status = 0, uavs = 0;
  isa::Outcome o;
  if (!r.U32(magic) || magic != ATOMFUZZ_WINE_REPLY) return Bad("bad magic");
  if (!r.U32(status) || status > ATOMFUZZ_WINE_FAILED) return Bad("bad status");
  if (!r.Text(o.message)) return Bad("bad message");
  // wined3d refusing the shader (umad: "Unrecognized opcode") is the
  // translator's answer about this case, not a failure of the set-up.
  if (status == ATOMFUZZ_WINE_FAILED &&
      (absl::StartsWith(o.message, "CreateComputeShader") ||
       absl::StartsWith(o.message, "CreatePixelShader"))) {
    o.status = isa::RunStatus::kRejected;
    o.message = absl::StrCat("wined3d refused the shader: ", o.message);
    return o;
  }
  if (status == ATOMFUZZ_WINE_FAILED) {
    return absl::InternalError(absl::StrCat("D3D11 on Wine: ", o.message));
  }
  if (status == ATOMFUZZ_WINE_REJECTED) {
    o.status = isa::RunStatus::kRejected;
    return o;
  }
  if (!r.U32(uavs) || uavs != run.resources.size())
    return Bad("a UAV count other than the case's");
  for (const isa::Resource* resource : BySlot(run)) {
    const isa::Resource& res = *resource;
    isa::UavState u;
    uint32_t slot = 0, words = 0, counter = 0;
    if (!r.U32(slot) || slot != res.slot || !r.U32(words) ||
        words != res.init.size() || uint64_t{words} * 4 > r.left()) {
      return Bad(absl::StrFormat("UAV u%d does not match the case", res.slot));
    }
    u.slot = slot;
    u.words.resize(words);
    for (uint32_t& w : u.words) r.U32(w);
    u.defined.assign(words, true);
    if (!r.U32(counter)) return Bad("no counter");
    if (res.counter) u.counter = counter;
    o.uavs.push_back(std::move(u));
  }
  if (r.left() != 0) return Bad("bytes after the last UAV");
  return o;
}

}  // namespace atomfuzz::targets::wine
