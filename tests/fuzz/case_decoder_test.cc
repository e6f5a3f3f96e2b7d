// The decoder (fuzz/mutate/case_decoder.h): corpus text decodes to itself, any
// bytes decode to a valid case within the limits, and oversized inputs or
// cases are refused.
#include "fuzz/mutate/case_decoder.h"

#include <string>
#include <vector>

#include "fuzz/generate/choices.h"
#include "fuzz/generate/policy.h"
#include "gtest/gtest.h"
#include "isa/validator.h"
#include "tests/fuzz/corpus_files.h"
#include "tests/fuzz/fast_testing.h"

namespace atomfuzz::fuzz {
namespace {

absl::Span<const uint8_t> Bytes(const std::string& s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

TEST(CaseDecoderTest, CorpusTextDecodesToItsCase) {
  const Policy policy;
  const DecodeOptions options;
  int decoded = 0;
  for (const std::string& file : testutil::CorpusCaseFiles()) {
    absl::StatusOr<isa::Case> c = testutil::LoadCorpusCase(file);
    ASSERT_TRUE(c.ok()) << file;
    const std::string text = isa::PrintCase(*c);
    absl::StatusOr<DecodedCase> d = DecodeCase(Bytes(text), policy, options);
    if (!d.ok()) {  // only the limits may refuse a corpus case
      EXPECT_EQ(d.status().code(), absl::StatusCode::kOutOfRange) << file;
      continue;
    }
    ++decoded;
    EXPECT_TRUE(d->from_text) << file;
    EXPECT_EQ(d->c, *c) << file;
  }
  EXPECT_GT(decoded, 100);
}

TEST(CaseDecoderTest, RandomBytesGiveValidCasesWithinTheLimits) {
  const Policy policy;
  const DecodeOptions options;
  SeededChoices source(2024);
  int generated = 0;
  for (int k = 0; k < 2000; ++k) {
    std::string bytes(source.Below(k % 4 == 0 ? 4096 : 256), '\0');
    for (char& b : bytes) b = static_cast<char>(source.Below(256));
    if (k % 10 == 0 && !bytes.empty()) bytes[0] = '[';  // text-like junk
    absl::StatusOr<DecodedCase> d = DecodeCase(Bytes(bytes), policy, options);
    if (!d.ok()) {
      ASSERT_EQ(d.status().code(), absl::StatusCode::kOutOfRange) << d.status();
      continue;
    }
    ++generated;
    ASSERT_FALSE(d->from_text);
    ASSERT_TRUE(isa::Validate(d->c).ok()) << isa::PrintCase(d->c);
    ASSERT_TRUE(WithinLimits(d->c, options.limits));
  }
  EXPECT_GT(generated, 1000);
}

TEST(CaseDecoderTest, EmptyInputIsTheSimplestCase) {
  const Policy policy;
  absl::StatusOr<DecodedCase> d = DecodeCase({}, policy, DecodeOptions{});
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_TRUE(isa::Validate(d->c).ok());
}

TEST(CaseDecoderTest, RefusesOversizedInputs) {
  const Policy policy;
  DecodeOptions options;
  options.max_bytes = 16;
  const std::string big(17, 'x');
  EXPECT_EQ(DecodeCase(Bytes(big), policy, options).status().code(),
            absl::StatusCode::kOutOfRange);
}

TEST(CaseDecoderTest, RefusesCasesAboveTheWorkLimit) {
  const Policy policy;
  const std::string text =
      testutil::CaseText(1000, 1024, testutil::RawUav(0, 4), "dcl_uav_raw u0\n",
                         "atomic_iadd u0, l(0), l(1)\n");
  ASSERT_TRUE(ParseValidCase(Bytes(text)).has_value());
  absl::StatusOr<DecodedCase> d =
      DecodeCase(Bytes(text), policy, DecodeOptions{});
  EXPECT_EQ(d.status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_NE(d.status().message().find("work"), absl::string_view::npos);
}

}  // namespace
}  // namespace atomfuzz::fuzz
