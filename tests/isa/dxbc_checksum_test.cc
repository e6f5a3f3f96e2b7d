// The DXBC checksum (spec 5.4) against an independent computation: a second
// MD5 written here from RFC 1321 (constants from sin, one flat padded buffer
// instead of the library's two branches), itself checked on RFC 1321's
// test suite. Lengths cover |R| <= 55, |R| >= 56 and the 64-byte boundary.
#include "isa/dxbc_checksum.h"

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "gtest/gtest.h"

namespace atomfuzz::isa {
namespace {

using State = std::array<uint32_t, 4>;

uint32_t Word(const std::vector<uint8_t>& b, size_t at) {
  return uint32_t{b[at]} | uint32_t{b[at + 1]} << 8 | uint32_t{b[at + 2]} << 16 |
         uint32_t{b[at + 3]} << 24;
}

void PutWord(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

// MD5 over a buffer whose length is a multiple of 64, written apart from
// isa/dxbc_checksum.cc on purpose.
State ReferenceMd5Blocks(const std::vector<uint8_t>& padded) {
  static const int kS[64] = {7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                             5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20, 5, 9,  14, 20,
                             4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                             6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21};
  State h = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  for (size_t off = 0; off < padded.size(); off += 64) {
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3];
    for (int i = 0; i < 64; ++i) {
      const uint32_t k = static_cast<uint32_t>(
          std::floor(std::fabs(std::sin(i + 1.0)) * 4294967296.0));
      uint32_t f;
      int g;
      switch (i / 16) {
        case 0: f = (b & c) | (~b & d); g = i; break;
        case 1: f = (d & b) | (~d & c); g = (5 * i + 1) % 16; break;
        case 2: f = b ^ c ^ d; g = (3 * i + 5) % 16; break;
        default: f = c ^ (b | ~d); g = (7 * i) % 16; break;
      }
      const uint32_t sum = a + f + k + Word(padded, off + 4 * g);
      const uint32_t rotated = (sum << kS[i]) | (sum >> (32 - kS[i]));
      a = d;
      d = c;
      c = b;
      b += rotated;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d;
  }
  return h;
}

std::string Hex(const State& s) {
  std::string out;
  for (uint32_t w : s) {
    for (int i = 0; i < 4; ++i) out += absl::StrFormat("%02x", (w >> (8 * i)) & 0xff);
  }
  return out;
}

State StandardMd5(const std::string& text) {
  std::vector<uint8_t> b(text.begin(), text.end());
  const uint64_t bits = uint64_t{text.size()} * 8;
  b.push_back(0x80);
  while (b.size() % 64 != 56) b.push_back(0);
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(bits >> (8 * i)));
  return ReferenceMd5Blocks(b);
}

// Spec 5.4 as one flat buffer: the data, 0x80, zeros, and a last block that
// begins with the 32-bit bit count and ends with (bits >> 2) | 1. For
// |R| <= 55 the count goes in front of R inside the same block.
State ReferenceDxbc(const std::vector<uint8_t>& container) {
  std::vector<uint8_t> data(container.begin() + 20, container.end());
  const uint32_t bits = static_cast<uint32_t>(data.size() * 8);
  const size_t full = data.size() / 64 * 64, rest = data.size() - full;
  std::vector<uint8_t> padded(data.begin(), data.begin() + full);
  std::vector<uint8_t> last(64, 0);
  if (rest >= 56) {
    std::vector<uint8_t> block(64, 0);
    std::copy(data.begin() + full, data.end(), block.begin());
    block[rest] = 0x80;
    padded.insert(padded.end(), block.begin(), block.end());
  } else {
    std::copy(data.begin() + full, data.end(), last.begin() + 4);
    last[4 + rest] = 0x80;
  }
  PutWord(last, 0, bits);
  PutWord(last, 60, (bits >> 2) | 1);
  padded.insert(padded.end(), last.begin(), last.end());
  return ReferenceMd5Blocks(padded);
}

TEST(DxbcChecksumTest, ReferenceMd5MatchesRfc1321) {
  EXPECT_EQ(Hex(StandardMd5("")), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Hex(StandardMd5("abc")), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Hex(StandardMd5("message digest")),
            "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Hex(StandardMd5("1234567890123456789012345678901234567890"
                            "1234567890123456789012345678901234567890")),
            "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(DxbcChecksumTest, LibraryCompressionIsMd5) {
  std::vector<uint8_t> block(64, 0);
  block[0] = 'a'; block[1] = 'b'; block[2] = 'c'; block[3] = 0x80;
  block[56] = 24;  // bit count
  State s = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  Md5Compress(s, block.data());
  EXPECT_EQ(Hex(s), "900150983cd24fb0d6963f7d28e17f72");
}

// Containers of every length from 20 to 20 + 200 bytes: |R| runs through
// 0..63 three times, crossing 55/56 and the exact 64-byte boundary.
TEST(DxbcChecksumTest, MatchesTheReferenceOnBothPaddingBranches) {
  int long_branch = 0, boundary = 0;
  for (size_t n = 20; n <= 220; ++n) {
    std::vector<uint8_t> c(n);
    for (size_t i = 0; i < n; ++i) c[i] = static_cast<uint8_t>(i * 37 + n);
    const size_t rest = (n - 20) % 64;
    long_branch += rest >= 56;
    boundary += rest == 0;
    EXPECT_EQ(DxbcChecksum(c), ReferenceDxbc(c)) << "length " << n;
  }
  EXPECT_GT(long_branch, 20);
  EXPECT_EQ(boundary, 4);
}

TEST(DxbcChecksumTest, IgnoresTheFirst20Bytes) {
  std::vector<uint8_t> a(300, 7), b(300, 7);
  for (size_t i = 0; i < 20; ++i) b[i] = static_cast<uint8_t>(i);
  EXPECT_EQ(DxbcChecksum(a), DxbcChecksum(b));
  b[20] ^= 1;
  EXPECT_NE(DxbcChecksum(a), DxbcChecksum(b));
}

}  // namespace
}  // namespace atomfuzz::isa
