// A campaign directory's files are reached without links (issue 21): a link
// made inside it after it was checked leads nowhere, for reads, writes,
// appends, directories and renames; paths outside it are not confined.
#include "fuzz/confined_paths.h"

#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "fuzz/atomic_file.h"
#include "gtest/gtest.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

class ConfinedPaths : public ::testing::Test {
 protected:
  void SetUp() override {
    base_ = fs::temp_directory_path() /
            ("atomfuzz-confined-" + std::to_string(::getpid()));
    fs::remove_all(base_);
    fs::create_directories(base_ / "out" / "real");
    fs::create_directories(base_ / "elsewhere");
    ASSERT_TRUE(WriteFileAtomically(Path("elsewhere/secret"), "s3cret").ok());
    ASSERT_TRUE(ConfineFilesUnder(Path("out")).ok());
    // Links made after the campaign checked its directory.
    fs::create_directory_symlink(base_ / "elsewhere", base_ / "out" / "link");
    fs::create_symlink(base_ / "elsewhere" / "secret",
                       base_ / "out" / "real" / "file-link");
  }
  void TearDown() override {
    LiftConfinement();
    fs::remove_all(base_);
  }
  std::string Path(const std::string& rel) const {
    return (base_ / rel).string();
  }
  bool ElsewhereHolds(const std::string& name) const {
    return fs::exists(base_ / "elsewhere" / name);
  }
  fs::path base_;
};

TEST_F(ConfinedPaths, WritesInsideWorkAndThroughALinkFail) {
  EXPECT_TRUE(WriteFileAtomically(Path("out/real/a.case"), "x").ok());
  EXPECT_FALSE(WriteFileAtomically(Path("out/link/b.case"), "x").ok());
  EXPECT_FALSE(ElsewhereHolds("b.case"));
  // A link as the file itself is replaced, never written through.
  EXPECT_TRUE(WriteFileAtomically(Path("out/real/file-link"), "new").ok());
  absl::StatusOr<std::string> secret = ReadWholeFile(Path("elsewhere/secret"));
  ASSERT_TRUE(secret.ok());
  EXPECT_EQ(*secret, "s3cret");
}

TEST_F(ConfinedPaths, ReadsAndAppendsThroughALinkFail) {
  EXPECT_FALSE(ReadWholeFile(Path("out/link/secret")).ok());
  EXPECT_FALSE(ReadWholeFile(Path("out/real/file-link")).ok());
  const int fd = OpenFile(Path("out/real/file-link"), O_WRONLY | O_APPEND);
  EXPECT_LT(fd, 0);
  if (fd >= 0) ::close(fd);
  // Outside the confined directory, links are followed as usual.
  fs::create_directory_symlink(base_ / "elsewhere", base_ / "free-link");
  EXPECT_TRUE(ReadWholeFile(Path("free-link/secret")).ok());
}

TEST_F(ConfinedPaths, DirectoriesRenamesAndRemovalsStayInside) {
  EXPECT_TRUE(MakeDirectories(Path("out/real/x/y")).ok());
  EXPECT_TRUE(fs::is_directory(base_ / "out" / "real" / "x" / "y"));
  EXPECT_FALSE(MakeDirectories(Path("out/link/sub")).ok());
  EXPECT_FALSE(ElsewhereHolds("sub"));
  EXPECT_FALSE(MakeDirectories(Path("out/link")).ok());
  ASSERT_TRUE(WriteFileAtomically(Path("out/real/staged"), "x").ok());
  EXPECT_NE(RenamePath(Path("out/real/staged"), Path("out/link/staged")), 0);
  EXPECT_FALSE(ElsewhereHolds("staged"));
  EXPECT_NE(RemoveFile(Path("out/link/secret")), 0);
  EXPECT_TRUE(ElsewhereHolds("secret"));
}

// A confined directory removed and made again (a benchmark's temp dir of
// the same name) is confined anew, not through the old one's descriptor.
TEST_F(ConfinedPaths, ADirectoryMadeAgainIsConfinedAgain) {
  fs::remove_all(base_ / "out");
  fs::create_directories(base_ / "out");
  ASSERT_TRUE(ConfineFilesUnder(Path("out")).ok());
  EXPECT_TRUE(MakeDirectories(Path("out/findings")).ok());
  EXPECT_TRUE(WriteFileAtomically(Path("out/findings/x"), "x").ok());
}

}  // namespace
}  // namespace atomfuzz::fuzz
