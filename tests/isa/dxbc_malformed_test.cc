// The decoder on malformed containers and token streams: each error names
// the byte offset (and the instruction) and what was expected; random
// corruptions give an error or a program, never a crash, and every program
// they give encodes back to itself.
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "isa/assembler.h"
#include "isa/dxbc.h"
#include "isa/dxbc_bytes.h"
#include "isa/dxbc_checksum.h"
#include "isa/dxbc_container.h"
#include "isa/prng.h"
#include "tests/testing/spec_program.h"

namespace atomfuzz::isa {
namespace {

constexpr const char* kProgram = testdata::kSpec49Asm;  // spec 4.9
// Byte offsets in the container EncodeDxbc writes (spec 5.2 layout).
constexpr size_t kShexData = 0x54;
constexpr size_t kFirstInstr = kShexData + 8;
constexpr size_t kImmAtomic = kFirstInstr + 4 * (1 + 3 + 2 + 2 + 4 + 6);

std::vector<uint32_t> Tokens() {
  absl::StatusOr<Program> p = Assemble(kProgram, "t.asm");
  EXPECT_TRUE(p.ok());
  absl::StatusOr<std::vector<uint32_t>> t = EncodeShex(*p);
  EXPECT_TRUE(t.ok());
  return *t;
}

// A container around `tokens` (fixing nothing inside them).
std::vector<uint8_t> Container(const std::vector<uint32_t>& tokens) {
  std::vector<uint8_t> code;
  for (uint32_t t : tokens) AppendLe32(code, t);
  const std::vector<uint8_t> sig = EmptySignatureChunk();
  const DxbcChunk chunks[] = {
      {kFourCcIsgn, sig, 0}, {kFourCcOsgn, sig, 0}, {kFourCcShex, code, 0}};
  return WriteDxbcContainer(chunks);
}

void Reseal(std::vector<uint8_t>& bytes) {
  const std::array<uint32_t, 4> sum = DxbcChecksum(bytes);
  for (size_t i = 0; i < 4; ++i) StoreLe32(bytes.data() + 4 + 4 * i, sum[i]);
}

void ExpectError(const std::vector<uint8_t>& bytes, const std::string& text) {
  absl::StatusOr<Program> p = DecodeDxbc(bytes);
  ASSERT_FALSE(p.ok()) << "decoded:\n" << text;
  EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(p.status().message(), text))
      << p.status().message() << "\n  does not contain: " << text;
}

TEST(DxbcMalformedTest, ContainerErrors) {
  const std::vector<uint8_t> good = Container(Tokens());
  ASSERT_TRUE(DecodeDxbc(good).ok());
  ExpectError({}, "+0x0: expected a 32-byte DXBC header, found 0 bytes");
  std::vector<uint8_t> b = good;
  b[0] = 'X';
  ExpectError(b, "+0x0: expected the magic 'DXBC', found 'XXBC'");
  b = good;
  b[100] ^= 1;
  ExpectError(b, "+0x4: expected checksum word");
  b = good;
  StoreLe32(b.data() + 20, 2);
  Reseal(b);
  ExpectError(b, "+0x14: expected container version 1, found 2");
  b = good;
  StoreLe32(b.data() + 24, 1000);
  Reseal(b);
  ExpectError(
      b, "+0x18: expected a size field of 232 (the bytes given), found 1000");
  b = good;
  StoreLe32(b.data() + 28, 0x40000000);
  Reseal(b);
  ExpectError(b, "+0x1c: expected a chunk count");
  b = good;
  StoreLe32(b.data() + 40, 0xfffffff0);  // SHEX offset
  Reseal(b);
  ExpectError(b,
              "+0x28: expected a 4-byte aligned chunk offset in [0x2c, 0xe0]");
  b = good;
  StoreLe32(b.data() + 0x50, 0x1000);  // SHEX size
  Reseal(b);
  ExpectError(b,
              "+0x50: expected a chunk size of at most 148 bytes, found 4096");
  b = good;
  StoreLe32(b.data() + 0x4c, kFourCcIsgn);  // SHEX renamed
  Reseal(b);
  ExpectError(b, "expected a SHEX or SHDR chunk");
}

TEST(DxbcMalformedTest, ProgramErrors) {
  std::vector<uint32_t> t = Tokens();
  t[0] = 0x00010050;  // vs_5_0
  ExpectError(Container(t), "+0x54: expected the version token 0x00050050");
  t = Tokens();
  t[1] += 1;
  ExpectError(Container(t),
              "+0x58: expected a length token equal to the chunk's 37");
  t = Tokens();
  t.back() = 0x010001FF;
  ExpectError(
      Container(t),
      "(instr 9): expected a known opcode (spec 4.5), found opcode 511");
  t = Tokens();
  t.back() = 0x0500003E;  // ret claims 5 DWORDs
  ExpectError(Container(t),
              "(instr 9): expected an instruction length of 1 to 1 DWORDs");
  t = Tokens();
  t.back() = 0x0200003E;  // ret with a stray DWORD
  t.push_back(0);
  t[1] += 1;
  ExpectError(Container(t),
              "(instr 9): expected the end of ret after 1 DWORDs, found a "
              "length field of 2");
  t = Tokens();
  t[(kImmAtomic - kShexData) / 4 + 1] = 0x0010002E;  // r0 in mode 3
  ExpectError(Container(t), "(instr 7): expected 0 components, or 4 with");
  t = Tokens();
  t[(kImmAtomic - kShexData) / 4 + 7] |= 0x80000000;  // l(1) with a modifier
  ExpectError(Container(t),
              "(instr 7): expected no extended operand token (no source "
              "modifiers on atomics");
  t = Tokens();
  t[(kImmAtomic - kShexData) / 4 + 3] =
      0x0011E0F2;  // u0.xyzw as the target (E-41)
  ExpectError(Container(t), "(instr 7): expected a 0-component operand");
  t = Tokens();
  t[(kImmAtomic - kShexData) / 4] |= 1u << 13;  // saturate on an atomic
  ExpectError(Container(t),
              "+0xa4 (instr 7): expected controls (bits [23:11]) within 0x0");
  t = Tokens();
  t[(kImmAtomic - kShexData) / 4 + 3] = 0x0001E000;  // u0 with no index (0-D)
  ExpectError(Container(t), "(instr 7): expected a 1-D immediate index on u");
  // null with a swizzle: the printer writes plain `null`, so accepting it
  // would change the program on a print/assemble round trip (found by
  // dxbc_fuzzer from `imul null, ...`).
  t = Tokens();
  t[(kImmAtomic - kShexData) / 4 + 1] = 0x0000D006;
  ExpectError(Container(t), "(instr 7): expected a 0-component null");
  // The same null without components (and without r0's index DWORD) is fine.
  const size_t at = (kImmAtomic - kShexData) / 4;
  t[at + 1] = 0x0000D000;
  t.erase(t.begin() + at + 2);
  t[at] -= 1u << 24;  // instruction length
  t[1] -= 1;          // chunk length
  EXPECT_TRUE(DecodeDxbc(Container(t)).ok());
}

// Random damage to two valid containers: never a crash (ASan/UBSan builds
// check the reads), and any program that comes back re-encodes to itself.
TEST(DxbcMalformedTest, RandomCorruptionsNeverCrash) {
  const std::vector<uint8_t> seeds[] = {Container(Tokens())};
  Prng rng(0xD8BC);
  int decoded = 0, rejected = 0;
  for (int round = 0; round < 4000; ++round) {
    std::vector<uint8_t> b = seeds[0];
    const int edits = 1 + static_cast<int>(rng.Below(4));
    for (int e = 0; e < edits && !b.empty(); ++e) {
      const size_t at = rng.Below(b.size());
      switch (rng.Below(4)) {
        case 0: b[at] ^= static_cast<uint8_t>(1u << rng.Below(8)); break;
        case 1: b[at] = static_cast<uint8_t>(rng.Next32()); break;
        case 2: b.resize(at); break;
        default:
          b.insert(b.begin() + at, static_cast<uint8_t>(rng.Next32()));
          break;
      }
    }
    // Most rounds reseal, or nearly all would stop at the checksum.
    if (b.size() >= 20 && rng.Chance(7, 8)) Reseal(b);
    absl::StatusOr<Program> p = DecodeDxbc(b);
    if (!p.ok()) {
      ++rejected;
      EXPECT_EQ(p.status().code(), absl::StatusCode::kInvalidArgument);
      EXPECT_TRUE(absl::StartsWith(p.status().message(), "+0x"))
          << p.status().message();
      continue;
    }
    ++decoded;
    absl::StatusOr<std::vector<uint8_t>> again = EncodeDxbc(*p);
    ASSERT_TRUE(again.ok()) << again.status();
    absl::StatusOr<Program> back = DecodeDxbc(*again);
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_EQ(*back, *p);
  }
  EXPECT_GT(rejected, 1000);
  EXPECT_GT(decoded, 10);  // e.g. changed registers, values, masks
}

}  // namespace
}  // namespace atomfuzz::isa

namespace atomfuzz::isa {
namespace {

// A ps_5_0 program of one dcl_input_ps_siv (v0.xy) with the given mode and
// name, then ret: what the decoder must refuse unless the assembly can
// say it back (the DXBC fuzzer's crash-f9461e3b: name 48897 printed as a
// number the assembler does not read).
std::vector<uint32_t> PixelInput(uint32_t mode, uint32_t name) {
  return {0x00000050, 7,         100u | mode << 11 | 4u << 24, 0x00101032, 0,
          name,       0x0100003e};
}

TEST(DxbcMalformedTest, PixelInputsTheAssemblyCannotSay) {
  EXPECT_TRUE(DecodeDxbc(Container(PixelInput(4, 1))).ok());
  ExpectError(Container(PixelInput(4, 48897)),
              "expected an input name atomfuzz models (1 position, 7 "
              "primitive_id, 10 sampleIndex; P.2), found 48897");
  ExpectError(Container(PixelInput(0, 1)),
              "expected an interpolation mode 1-7 (bits [14:11], P.2), "
              "found 0");
  ExpectError(Container(PixelInput(9, 1)),
              "expected an interpolation mode 1-7 (bits [14:11], P.2), "
              "found 9");
}

}  // namespace
}  // namespace atomfuzz::isa
