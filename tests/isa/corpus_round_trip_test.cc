// Every corpus/**/*.case is canonical: ParseCase accepts it, PrintCase gives
// the file back byte for byte, and ParseCase(PrintCase(c)) == c. One test per
// file, so a failure names the file. An empty corpus passes.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "tests/testing/corpus_walk.h"
#include "tests/testing/round_trip.h"

namespace atomfuzz::isa {
namespace {

namespace fs = std::filesystem;

fs::path ProjectRoot() { return testutil::ProjectRootFrom(__FILE__); }

std::vector<std::string> CorpusFiles() {
  return testutil::CorpusCasePaths(ProjectRoot());
}

class CorpusFileTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusFileTest, IsCanonicalAndRoundTrips) {
  const fs::path root = ProjectRoot();
  ASSERT_FALSE(root.empty());
  const std::string text = testutil::ReadWholeFile(root / GetParam());
  EXPECT_TRUE(testutil::CaseTextIsCanonical(text, GetParam()));
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  return testutil::CorpusTestName(info.param, info.index);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusFileTest,
                         ::testing::ValuesIn(CorpusFiles()), TestName);
// The corpus may be empty while it is being written.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(CorpusFileTest);

TEST(CorpusRoundTripTest, FindsTheProjectRoot) {
  EXPECT_FALSE(ProjectRoot().empty())
      << "neither the working directory nor " << __FILE__
      << " lies in the project tree";
}

// The walk the corpus tests rely on (tests/testing/corpus_walk.h), on a
// tree made here.
class CaseFilesUnderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() /
        ("atomfuzz_corpus_test_" +
         std::string(
             ::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "sub" / "deeper");
  }
  void TearDown() override { fs::remove_all(dir_); }
  void Write(const fs::path& rel, const std::string& text) {
    std::ofstream(dir_ / rel, std::ios::binary) << text;
  }
  fs::path dir_;
};

TEST_F(CaseFilesUnderTest, FindsCaseFilesAtAnyDepthSorted) {
  Write("b.case", "");
  Write("sub/a.case", "");
  Write("sub/deeper/c.case", "");
  Write("notes.txt", "");
  Write("d.case.bak", "");
  Write("sub/case", "");
  fs::create_directories(dir_ / "dir.case");  // a directory, not a file
  const std::vector<fs::path> files = testutil::CaseFilesUnder(dir_);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0], dir_ / "b.case");
  EXPECT_EQ(files[1], dir_ / "sub" / "a.case");
  EXPECT_EQ(files[2], dir_ / "sub" / "deeper" / "c.case");
}

TEST_F(CaseFilesUnderTest, MissingDirectoryHasNoFiles) {
  EXPECT_TRUE(testutil::CaseFilesUnder(dir_ / "absent").empty());
}

// A corpus file that is not canonical must fail the corpus test.
TEST_F(CaseFilesUnderTest, NonCanonicalFilesAreCaught) {
  const std::string canonical =
      "[dispatch]\ngroups 1, 1, 1\n\n[shader]\ncs_5_0\nret\n";
  Write("good.case", canonical);
  Write("sub/crlf.case",
        "[dispatch]\r\ngroups 1, 1, 1\r\n\r\n[shader]\r\ncs_5_0\r\nret\r\n");
  Write("sub/uncompressed.case",
        "[dispatch]\ngroups 1, 1, 1\n\n[uav u0]\nkind raw\nwords 4\n"
        "data 7, 7, 7, 7\n\n[shader]\ncs_5_0\nret\n");
  Write("sub/deeper/broken.case", "[shader]\ncs_4_0\n");
  std::vector<std::string> failing;
  for (const fs::path& f : testutil::CaseFilesUnder(dir_)) {
    if (!testutil::CaseTextIsCanonical(testutil::ReadWholeFile(f),
                                       f.string())) {
      failing.push_back(f.lexically_relative(dir_).generic_string());
    }
  }
  EXPECT_EQ(failing,
            (std::vector<std::string>{"sub/crlf.case", "sub/deeper/broken.case",
                                      "sub/uncompressed.case"}));
}

}  // namespace
}  // namespace atomfuzz::isa
