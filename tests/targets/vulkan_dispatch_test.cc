// The Vulkan plumbing on the hand-encoded container of spec 4.9/5.5 (test
// vector 1): vkd3d compiles it, spirv-tools accepts it, lavapipe (or the
// first device) runs it. Skips where no Vulkan device exists.
#include <cstring>
#include <vector>

#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "targets/vulkan/spirv_validation.h"
#include "targets/vulkan/vk_context.h"
#include "targets/vulkan/vk_dispatch.h"
#include "targets/vulkan/vkd3d_compiler.h"

namespace atomfuzz::targets::vulkan {
namespace {

// Spec 5.5, test vector 1: 64 threads, thread i does imm_atomic_iadd on
// u0 byte 4*i and stores the returned (old) value back there.
constexpr uint32_t kSpec49Container[] = {
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

std::vector<uint8_t> Spec49Bytes() {
  std::vector<uint8_t> bytes(sizeof(kSpec49Container));
  std::memcpy(bytes.data(), kSpec49Container, bytes.size());
  return bytes;
}

TEST(Vkd3dCompiler, CompilesTheSpecContainerToValidSpirv) {
  const UavBinding u0{0, true, false};
  for (BufferUavMode mode : {BufferUavMode::kTexel, BufferUavMode::kSsbo}) {
    const SpirvModule m = CompileDxbcToSpirv(Spec49Bytes(), {&u0, 1}, mode);
    ASSERT_TRUE(m.ok) << m.messages;
    EXPECT_EQ(m.words[0], 0x07230203u);  // SPIR-V magic
    const std::optional<std::string> invalid = ValidateSpirv(m.words);
    EXPECT_FALSE(invalid.has_value()) << *invalid;
  }
}

TEST(Vkd3dCompiler, RejectsABadChecksum) {
  std::vector<uint8_t> bytes = Spec49Bytes();
  bytes[4] ^= 1;  // spec 5.3: vkd3d checks the checksum
  const UavBinding u0{0, true, false};
  const SpirvModule m =
      CompileDxbcToSpirv(bytes, {&u0, 1}, BufferUavMode::kTexel);
  EXPECT_FALSE(m.ok);
  EXPECT_NE(m.messages, "");
}

TEST(SpirvValidation, RejectsGarbage) {
  const std::vector<uint32_t> words = {0x07230203, 0x00010000, 0,
                                       5,          0,          0xdeadbeef};
  EXPECT_TRUE(ValidateSpirv(words).has_value());
}

TEST(VkDispatch, RunsTheSpecProgram) {
  absl::StatusOr<VkContext*> vk = GetVkContext("");
  if (!vk.ok()) GTEST_SKIP() << vk.status();
  for (BufferUavMode mode : {BufferUavMode::kTexel, BufferUavMode::kSsbo}) {
    const UavBinding u0{0, true, false};
    const SpirvModule m = CompileDxbcToSpirv(Spec49Bytes(), {&u0, 1}, mode);
    ASSERT_TRUE(m.ok) << m.messages;
    isa::Case c;
    c.groups = {2, 1, 1};  // threads 64..127 address past the end: dropped
    isa::Resource r;
    r.slot = 0;
    r.kind = isa::ResourceKind::kRaw;
    r.words = 64;
    for (uint32_t i = 0; i < 64; ++i) r.init.push_back(1000 + 3 * i);
    c.resources.push_back(r);
    ASSERT_EQ(DeviceRefusal(**vk, c, {&u0, 1}, mode), "");
    absl::StatusOr<std::vector<isa::UavState>> out =
        Dispatch(**vk, c, m.words, {&u0, 1}, mode);
    ASSERT_TRUE(out.ok()) << out.status();
    ASSERT_EQ(out->size(), 1u);
    // The atomic adds 1 and returns the old word, which the store puts
    // back: a return of the new value would leave init + 1.
    EXPECT_EQ((*out)[0].words, r.init);
    EXPECT_EQ((*out)[0].defined, std::vector<bool>(64, true));
  }
}

TEST(VkDispatch, RefusesAnEmptyUav) {
  absl::StatusOr<VkContext*> vk = GetVkContext("");
  if (!vk.ok()) GTEST_SKIP() << vk.status();
  isa::Case c;
  isa::Resource r;
  r.kind = isa::ResourceKind::kRaw;
  c.resources.push_back(r);
  const UavBinding u0{0, true, false};
  EXPECT_NE(DeviceRefusal(**vk, c, {&u0, 1}, BufferUavMode::kTexel), "");
}

}  // namespace
}  // namespace atomfuzz::targets::vulkan
