// Atomic files: written whole, replaced whole, nothing left behind.
#include "fuzz/atomic_file.h"

#include <filesystem>
#include <string>

#include "gtest/gtest.h"

namespace atomfuzz::fuzz {
namespace {

TEST(AtomicFile, WritesReplacesAndReads) {
  const std::string dir = ::testing::TempDir() + "/atomic-" + UniqueSuffix();
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/f.txt";
  ASSERT_TRUE(WriteFileAtomically(path, "first\n").ok());
  EXPECT_EQ(*ReadWholeFile(path), "first\n");
  ASSERT_TRUE(WriteFileAtomically(path, "second\n", /*sync=*/false).ok());
  EXPECT_EQ(*ReadWholeFile(path), "second\n");
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    ++files;
    EXPECT_EQ(e.path().filename(), "f.txt");
  }
  EXPECT_EQ(files, 1);
}

TEST(AtomicFile, ErrorsNameThePath) {
  const std::string path =
      ::testing::TempDir() + "/no-such-dir-" + UniqueSuffix() + "/f";
  absl::Status s = WriteFileAtomically(path, "x");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find(path), absl::string_view::npos) << s;
  EXPECT_TRUE(absl::IsNotFound(ReadWholeFile(path).status()));
}

TEST(AtomicFile, UniqueSuffixesDiffer) {
  EXPECT_NE(UniqueSuffix(), UniqueSuffix());
}

}  // namespace
}  // namespace atomfuzz::fuzz
