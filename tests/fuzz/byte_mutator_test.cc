// The engines' custom mutator over bytes (fuzz/mutate/byte_mutator.h): its
// output is a valid case file that fits the buffer, for case text and for
// choice bytes alike, and it declines (0) when the text cannot fit.
#include "fuzz/mutate/byte_mutator.h"

#include <string>
#include <vector>

#include "fuzz/generate/policy.h"
#include "gtest/gtest.h"
#include "isa/validator.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

std::vector<uint8_t> CorpusBytes(const std::string& file) {
  absl::StatusOr<isa::Case> c = testutil::LoadCorpusCase(file);
  EXPECT_TRUE(c.ok()) << file;
  const std::string text = c.ok() ? isa::PrintCase(*c) : "";
  return {text.begin(), text.end()};
}

TEST(ByteMutatorTest, WritesValidCaseTextInPlace) {
  const Policy policy;
  const ByteMutator mutator(policy, DecodeOptions{});
  const std::vector<std::string> files = testutil::CorpusCaseFiles();
  ASSERT_FALSE(files.empty());
  int written = 0;
  for (uint64_t seed = 0; seed < 200; ++seed) {
    std::vector<uint8_t> buf = CorpusBytes(files[seed % files.size()]);
    const size_t size = buf.size();
    buf.resize(65536);
    const size_t n =
        mutator.Mutate({buf.data(), size}, buf.data(), buf.size(), seed);
    if (n == 0) continue;
    ++written;
    ASSERT_LE(n, buf.size());
    const std::optional<isa::Case> c = ParseValidCase({buf.data(), n});
    ASSERT_TRUE(c.has_value()) << std::string(buf.begin(), buf.begin() + n);
    EXPECT_FALSE(mutator.last_mutations().empty());
  }
  EXPECT_GT(written, 180);
}

TEST(ByteMutatorTest, TurnsChoiceBytesIntoCaseText) {
  const Policy policy;
  const ByteMutator mutator(policy, DecodeOptions{});
  const std::vector<uint8_t> choices = {7, 200, 3, 99, 42, 0, 1, 250, 17};
  std::vector<uint8_t> out(65536);
  size_t n = 0;
  for (uint64_t seed = 0; seed < 10 && n == 0; ++seed) {
    n = mutator.Mutate(choices, out.data(), out.size(), seed);
  }
  ASSERT_GT(n, 0u);
  EXPECT_TRUE(ParseValidCase({out.data(), n}).has_value());
}

TEST(ByteMutatorTest, DeclinesWhenTheTextDoesNotFit) {
  const Policy policy;
  const ByteMutator mutator(policy, DecodeOptions{});
  const std::vector<uint8_t> in =
      CorpusBytes("corpus/spec/e07-returns-old.case");
  std::vector<uint8_t> out(16);
  EXPECT_EQ(mutator.Mutate(in, out.data(), out.size(), 1), 0u);
}

TEST(ByteMutatorTest, CrossOverWritesValidCaseText) {
  const Policy policy;
  const ByteMutator mutator(policy, DecodeOptions{});
  const std::vector<std::string> files = testutil::CorpusCaseFiles();
  ASSERT_GE(files.size(), 2u);
  std::vector<uint8_t> out(65536);
  int written = 0;
  for (uint64_t seed = 0; seed < 100; ++seed) {
    const std::vector<uint8_t> a = CorpusBytes(files[seed % files.size()]);
    const std::vector<uint8_t> b =
        CorpusBytes(files[(seed * 13 + 5) % files.size()]);
    const size_t n = mutator.CrossOver(a, b, out.data(), out.size(), seed);
    if (n == 0) continue;
    ++written;
    ASSERT_TRUE(ParseValidCase({out.data(), n}).has_value());
  }
  EXPECT_GT(written, 80);
}

}  // namespace
}  // namespace atomfuzz::fuzz
