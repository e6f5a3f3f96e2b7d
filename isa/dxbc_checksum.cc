#include "isa/dxbc_checksum.h"

#include <cstring>

#include "isa/dxbc_bytes.h"

namespace atomfuzz::isa {
namespace {

// K[i] = floor(|sin(i + 1)| * 2^32) (spec 5.4 table).
constexpr uint32_t kSine[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a,
    0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
    0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
    0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8,
    0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
    0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa,
    0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
    0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
    0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

// Rotation amounts, four per round.
constexpr int kShift[4][4] = {
    {7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

constexpr uint32_t Rotl(uint32_t v, int s) {
  return (v << s) | (v >> (32 - s));
}

}  // namespace

void Md5Compress(std::array<uint32_t, 4>& state, const uint8_t* block) {
  uint32_t x[16];
  for (int i = 0; i < 16; ++i) {
    x[i] = LoadLe32(absl::MakeConstSpan(block, 64), static_cast<size_t>(4 * i));
  }
  uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  for (int i = 0; i < 64; ++i) {
    uint32_t f;
    int g;
    if (i < 16) {
      f = (b & c) | (~b & d);
      g = i;
    } else if (i < 32) {
      f = (d & b) | (~d & c);
      g = (5 * i + 1) % 16;
    } else if (i < 48) {
      f = b ^ c ^ d;
      g = (3 * i + 5) % 16;
    } else {
      f = c ^ (b | ~d);
      g = (7 * i) % 16;
    }
    const uint32_t tmp = d;
    d = c;
    c = b;
    b = b + Rotl(a + f + kSine[i] + x[g], kShift[i / 16][i % 4]);
    a = tmp;
  }
  state[0] += a;
  state[1] += b;
  state[2] += c;
  state[3] += d;
}

std::array<uint32_t, 4> DxbcChecksum(absl::Span<const uint8_t> container) {
  const absl::Span<const uint8_t> data =
      container.size() > kDxbcHashedFrom ? container.subspan(kDxbcHashedFrom)
                                         : absl::Span<const uint8_t>();
  std::array<uint32_t, 4> state = {0x67452301, 0xefcdab89, 0x98badcfe,
                                   0x10325476};
  const size_t full = data.size() / 64 * 64;
  for (size_t at = 0; at < full; at += 64) Md5Compress(state, data.data() + at);
  const size_t rest = data.size() - full;
  // Spec 5.4: a 32-bit bit count as the FIRST word of the last block and
  // (bits >> 2) | 1 as its last word, unlike MD5's trailing 64-bit count.
  const uint32_t bits = static_cast<uint32_t>(data.size() * 8);
  uint8_t block[64] = {};
  if (rest >= 56) {
    std::memcpy(block, data.data() + full, rest);
    block[rest] = 0x80;
    Md5Compress(state, block);
    std::memset(block, 0, sizeof block);
    StoreLe32(block, bits);
  } else {
    StoreLe32(block, bits);
    if (rest > 0) std::memcpy(block + 4, data.data() + full, rest);
    block[4 + rest] = 0x80;
  }
  StoreLe32(block + 60, (bits >> 2) | 1);
  Md5Compress(state, block);
  return state;
}

}  // namespace atomfuzz::isa
