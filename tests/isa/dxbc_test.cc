// EncodeDxbc / DecodeDxbc on whole programs: spec 5.5 test vector 1 byte for
// byte, and the decoder reading it back.
#include "isa/dxbc.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "isa/assembler.h"
#include "isa/dxbc_bytes.h"
#include "isa/printer.h"
#include "tests/testing/spec_program.h"

namespace atomfuzz::isa {
namespace {

constexpr const char* kVector1Asm = testdata::kSpec49Asm;  // spec 4.9

// Spec 5.5 vector 1: the full 232-byte image as little-endian words.
constexpr uint32_t kVector1Words[] = {
    0x43425844, 0xc4ffe15d, 0xb4eb56ae, 0x4c941e84, 0x9040e83a, 0x00000001,
    0x000000e8, 0x00000003, 0x0000002c, 0x0000003c, 0x0000004c, 0x4e475349,
    0x00000008, 0x00000000, 0x00000008, 0x4e47534f, 0x00000008, 0x00000000,
    0x00000008, 0x58454853, 0x00000094, 0x00050050, 0x00000025, 0x0100086a,
    0x0300009d, 0x0011e000, 0x00000000, 0x0200005f, 0x00020012, 0x02000068,
    0x00000001, 0x0400009b, 0x00000040, 0x00000001, 0x00000001, 0x06000029,
    0x00100012, 0x00000000, 0x0002000a, 0x00004001, 0x00000002, 0x090000b4,
    0x00100022, 0x00000000, 0x0011e000, 0x00000000, 0x0010000a, 0x00000000,
    0x00004001, 0x00000001, 0x070000a6, 0x0011e012, 0x00000000, 0x0010000a,
    0x00000000, 0x0010001a, 0x00000000, 0x0100003e,
};

std::vector<uint8_t> Vector1Bytes() {
  std::vector<uint8_t> bytes;
  for (uint32_t w : kVector1Words) AppendLe32(bytes, w);
  return bytes;
}

Program MustAssemble(const char* text) {
  absl::StatusOr<Program> p = Assemble(text, "test.asm");
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : Program{};
}

TEST(DxbcTest, EncodesTestVector1ByteForByte) {
  absl::StatusOr<std::vector<uint8_t>> bytes =
      EncodeDxbc(MustAssemble(kVector1Asm));
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  ASSERT_EQ(bytes->size(), 232u);
  EXPECT_EQ(*bytes, Vector1Bytes());
}

TEST(DxbcTest, DecodesTestVector1) {
  absl::StatusOr<Program> p = DecodeDxbc(Vector1Bytes());
  ASSERT_TRUE(p.ok()) << p.status();
  EXPECT_EQ(*p, MustAssemble(kVector1Asm));
  EXPECT_EQ(Print(*p), kVector1Asm);
}

TEST(DxbcTest, RefusesOtherShaderModels) {
  Program p = MustAssemble(kVector1Asm);
  p.minor = 1;
  absl::StatusOr<std::vector<uint8_t>> bytes = EncodeDxbc(p);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(bytes.status().message().find("only the 5_0 models"),
            absl::string_view::npos);
}

}  // namespace
}  // namespace atomfuzz::isa
