// The frames atomfuzz exchanges with its Windows program under Wine
// (targets/wine/runner_wire.h): requests carry every UAV in slot order with
// its shape and words, and replies that do not fit the request are errors,
// not outcomes.
#include "targets/wine/wine_wire.h"

#include <string>
#include <vector>

#include "absl/base/casts.h"
#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "isa/dxbc_bytes.h"
#include "isa/dxbc_container.h"
#include "targets/wine/runner_wire.h"
#include "targets/wine/vertex_shader_dxbc.h"

namespace atomfuzz::targets::wine {
namespace {

constexpr char kCase[] = R"([dispatch]
groups 2, 1, 1

[uav u3]
kind typed
dim texture2darray
format r32_sint
size 2, 1, 2
data 1, 2, 3, 4

[uav u1]
kind structured
stride 8
elements 2
counter 5
data 9, 8, 7, 6

[shader]
cs_5_0
dcl_uav_structured u1, 8
dcl_uav_typed_texture2darray (sint,sint,sint,sint) u3
dcl_thread_group 1, 1, 1
ret
)";

isa::Case Case() {
  absl::StatusOr<isa::Case> c = isa::ParseCase(kCase, "wire.case");
  EXPECT_TRUE(c.ok()) << c.status();
  return *c;
}

std::vector<uint32_t> Words(const std::string& bytes) {
  std::vector<uint32_t> out(bytes.size() / 4);
  for (size_t i = 0; i < out.size(); ++i) {
    const auto* p =
        reinterpret_cast<const unsigned char*>(bytes.data() + 4 * i);
    out[i] = p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24;
  }
  return out;
}

std::string Bytes(const std::vector<uint32_t>& words) {
  std::string out;
  for (uint32_t w : words) {
    for (int k = 0; k < 4; ++k) out.push_back(static_cast<char>(w >> (8 * k)));
  }
  return out;
}

TEST(WineWire, ARequestListsTheUavsInSlotOrderWithTheirShapes) {
  const std::vector<uint8_t> dxbc = {1, 2, 3, 4, 5};
  const std::vector<uint32_t> w = Words(EncodeRequest(Case(), dxbc));
  const std::vector<uint32_t> want = {
      ATOMFUZZ_WINE_REQUEST, 2, 1, 1, 2,
      // u1: structured, stride 8, 2 elements, counter 5, 4 words
      1, ATOMFUZZ_WINE_KIND_STRUCTURED, ATOMFUZZ_WINE_DIM_BUFFER, 0, 8, 2, 1, 1,
      ATOMFUZZ_WINE_COUNTER, 5, 4, 9, 8, 7, 6,
      // u3: texture2darray, R32_SINT, 2 x 1 x 2 layers
      3, ATOMFUZZ_WINE_KIND_TYPED, ATOMFUZZ_WINE_DIM_TEXTURE2DARRAY, 43, 0, 2,
      1, 2, 0, 0, 4, 1, 2, 3, 4,
      // the DXBC, padded to 4
      5, 0x04030201, 0x00000005};
  EXPECT_EQ(w, want);
}

TEST(WineWire, AReplyBecomesTheOutcomeOfTheCase) {
  const isa::Case c = Case();
  const std::string reply =
      Bytes({ATOMFUZZ_WINE_REPLY, ATOMFUZZ_WINE_OK, 0, 2, 1, 4, 10, 11, 12, 13,
             6, 3, 4, 20, 21, 22, 23, 0});
  absl::StatusOr<isa::Outcome> o = DecodeReply(reply, c);
  ASSERT_TRUE(o.ok()) << o.status();
  ASSERT_EQ(o->uavs.size(), 2u);
  EXPECT_EQ(o->uavs[0].slot, 1u);
  EXPECT_EQ(o->uavs[0].words, (std::vector<uint32_t>{10, 11, 12, 13}));
  EXPECT_EQ(o->uavs[0].counter, 6u);
  EXPECT_EQ(o->uavs[1].slot, 3u);
  EXPECT_FALSE(o->uavs[1].counter.has_value());
  EXPECT_EQ(o->uavs[1].words, (std::vector<uint32_t>{20, 21, 22, 23}));
}

TEST(WineWire, RejectedFailedAndMisfitRepliesAreToldApart) {
  const isa::Case c = Case();
  std::string why = "slot u9 needs feature level 11_1";
  std::string rejected = Bytes({ATOMFUZZ_WINE_REPLY, ATOMFUZZ_WINE_REJECTED,
                                static_cast<uint32_t>(why.size())}) +
                         why;
  absl::StatusOr<isa::Outcome> o = DecodeReply(rejected, c);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->status, isa::RunStatus::kRejected);
  EXPECT_EQ(o->message, why);

  // A shader wined3d refuses is the case's answer; another failed call is
  // an error.
  std::string refused = "CreateComputeShader: 0x80070057";
  o = DecodeReply(Bytes({ATOMFUZZ_WINE_REPLY, ATOMFUZZ_WINE_FAILED,
                         static_cast<uint32_t>(refused.size())}) +
                      refused,
                  c);
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->status, isa::RunStatus::kRejected);
  EXPECT_TRUE(absl::StrContains(o->message, refused));
  std::string call = "CreateBuffer: 0x8007000e";
  o = DecodeReply(Bytes({ATOMFUZZ_WINE_REPLY, ATOMFUZZ_WINE_FAILED,
                         static_cast<uint32_t>(call.size())}) +
                      call,
                  c);
  ASSERT_FALSE(o.ok());
  EXPECT_TRUE(absl::StrContains(o.status().message(), call));

  // Wrong slot, short words, trailing bytes, bad magic.
  for (const std::vector<uint32_t>& bad :
       {std::vector<uint32_t>{ATOMFUZZ_WINE_REPLY, 0, 0, 2, 2, 4, 1, 2, 3, 4, 0,
                              3, 4, 1, 2, 3, 4, 0},
        std::vector<uint32_t>{ATOMFUZZ_WINE_REPLY, 0, 0, 2, 1, 4, 1, 2},
        std::vector<uint32_t>{ATOMFUZZ_WINE_REPLY, 0, 0, 2, 1, 4, 1, 2, 3, 4, 0,
                              3, 4, 1, 2, 3, 4, 0, 99},
        std::vector<uint32_t>{0x12345678, 0, 0, 0}}) {
    o = DecodeReply(Bytes(bad), c);
    EXPECT_FALSE(o.ok());
    EXPECT_EQ(o.status().code(), absl::StatusCode::kInvalidArgument);
  }
}

constexpr char kDrawCase[] = R"([draw]
framebuffer 4, 2
samples 4
triangle 0 0, 4 0, 0 1.5

[uav u0]
kind raw
words 2

[shader]
ps_5_0
dcl_uav_raw u0
atomic_iadd u0, l(0), l(1)
ret
)";

TEST(WineWire, ADrawCarriesItsTrianglesUavsAndBothShaders) {
  absl::StatusOr<isa::Case> c = isa::ParseCase(kDrawCase, "draw.case");
  ASSERT_TRUE(c.ok()) << c.status();
  const std::vector<uint8_t> ps = {7, 7, 7, 7};
  const std::vector<uint32_t> w = Words(EncodeRequest(*c, ps));
  // Pixel (x, y) at clip ((x + 128) / 256 - 1, 1 - (y + 128) / 256).
  const auto bits = [](float f) { return absl::bit_cast<uint32_t>(f); };
  std::vector<uint32_t> want = {
      ATOMFUZZ_WINE_DRAW, 4, 2, 4, 1, bits(-0.5f), bits(0.5f), bits(-0.484375f),
      bits(0.5f), bits(-0.5f), bits(0.494140625f),
      // u0: raw, 2 words of 0
      1, 0, ATOMFUZZ_WINE_KIND_RAW, ATOMFUZZ_WINE_DIM_BUFFER, 0, 0, 2, 1, 1, 0,
      0, 2, 0, 0};
  const absl::Span<const uint8_t> vs = PassThroughVertexShaderDxbc();
  want.push_back(static_cast<uint32_t>(vs.size()));
  ASSERT_EQ(vs.size() % 4, 0u);
  for (size_t at = 0; at < vs.size(); at += 4)
    want.push_back(isa::LoadLe32(vs, at));
  want.push_back(4);
  want.push_back(0x07070707);
  EXPECT_EQ(w, want);
}

TEST(WineWire, ClipPositionsLandOnTheirPixelsExactly) {
  for (int32_t v :
       {-64 * 256, -1, 0, 1, 37, 255, 256, 64 * 256 + 3, 128 * 256}) {
    const std::array<float, 2> clip = D3dClipPosition({v, v});
    // The device's viewport transform, D3D's way (y flipped).
    const double x = ATOMFUZZ_WINE_VIEWPORT_ORIGIN +
                     (clip[0] + 1.0) * ATOMFUZZ_WINE_VIEWPORT_SIDE / 2;
    const double y = ATOMFUZZ_WINE_VIEWPORT_ORIGIN +
                     (1.0 - clip[1]) * ATOMFUZZ_WINE_VIEWPORT_SIDE / 2;
    EXPECT_EQ(x * 256, v);
    EXPECT_EQ(y * 256, v);
    EXPECT_LT(clip[0], 1.0f);  // inside the viewport: never clipped
    EXPECT_GT(clip[0], -1.0f);
  }
}

TEST(WineWire, TheVertexShaderIsAContainerWithBothSignatures) {
  const absl::Span<const uint8_t> vs = PassThroughVertexShaderDxbc();
  absl::StatusOr<std::vector<isa::DxbcChunk>> chunks =
      isa::ParseDxbcContainer(vs);  // checksum included
  ASSERT_TRUE(chunks.ok()) << chunks.status();
  ASSERT_EQ(chunks->size(), 3u);
  EXPECT_EQ((*chunks)[0].fourcc, isa::kFourCcIsgn);
  EXPECT_EQ((*chunks)[1].fourcc, isa::kFourCcOsgn);
  EXPECT_EQ((*chunks)[2].fourcc, isa::kFourCcShex);
  const absl::Span<const uint8_t> shex = (*chunks)[2].data;
  EXPECT_EQ(isa::LoadLe32(shex, 0), 0x00010050u);  // vs_5_0
  EXPECT_EQ(isa::LoadLe32(shex, 4) * 4, shex.size());
  const std::string isgn((*chunks)[0].data.begin(), (*chunks)[0].data.end());
  const std::string osgn((*chunks)[1].data.begin(), (*chunks)[1].data.end());
  EXPECT_TRUE(absl::StrContains(isgn, "POSITION"));
  EXPECT_TRUE(absl::StrContains(osgn, "SV_Position"));
}

}  // namespace
}  // namespace atomfuzz::targets::wine
