// Every corpus/**/*.case is canonical: ParseCase accepts it, PrintCase gives
// the file back byte for byte, and ParseCase(PrintCase(c)) == c. One test per
// file, so a failure names the file. An empty corpus passes.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "tests/testing/round_trip.h"

namespace atomfuzz::isa {
namespace {

namespace fs = std::filesystem;

// The project root: the working directory (where ctest runs the test), or
// else the tree this file was compiled from.
fs::path ProjectRoot() {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  const fs::path here =
      fs::path(__FILE__).parent_path().parent_path().parent_path();
  for (const fs::path& candidate : {cwd, here}) {
    if (!candidate.empty() &&
        fs::exists(candidate / "isa" / "case_file.h", ec)) {
      return candidate;
    }
  }
  return {};
}

// Every regular *.case file under `dir`, at any depth, sorted.
std::vector<fs::path> CaseFilesUnder(const fs::path& dir) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return files;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".case") {
      files.push_back(it->path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// corpus files relative to the root, e.g. "corpus/seed/iadd_raw.case".
std::vector<std::string> CorpusFiles() {
  const fs::path root = ProjectRoot();
  std::vector<std::string> files;
  if (root.empty()) return files;
  for (const fs::path& f : CaseFilesUnder(root / "corpus")) {
    files.push_back(f.lexically_relative(root).generic_string());
  }
  return files;
}

class CorpusFileTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CorpusFileTest, IsCanonicalAndRoundTrips) {
  const fs::path root = ProjectRoot();
  ASSERT_FALSE(root.empty());
  const std::string text = ReadFile(root / GetParam());
  EXPECT_TRUE(testutil::CaseTextIsCanonical(text, GetParam()));
}

// A test name from a path: letters and digits kept, the rest '_', and the
// index appended so that names stay unique.
std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name;
  for (char c : info.param.substr(0, info.param.rfind(".case"))) {
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  }
  return name + "_" + std::to_string(info.index);
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

// The walk the corpus test relies on, on a tree made here.
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
  const std::vector<fs::path> files = CaseFilesUnder(dir_);
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0], dir_ / "b.case");
  EXPECT_EQ(files[1], dir_ / "sub" / "a.case");
  EXPECT_EQ(files[2], dir_ / "sub" / "deeper" / "c.case");
}

TEST_F(CaseFilesUnderTest, MissingDirectoryHasNoFiles) {
  EXPECT_TRUE(CaseFilesUnder(dir_ / "absent").empty());
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
  for (const fs::path& f : CaseFilesUnder(dir_)) {
    if (!testutil::CaseTextIsCanonical(ReadFile(f), f.string())) {
      failing.push_back(f.lexically_relative(dir_).generic_string());
    }
  }
  EXPECT_EQ(failing,
            (std::vector<std::string>{"sub/crlf.case", "sub/deeper/broken.case",
                                      "sub/uncompressed.case"}));
}

}  // namespace
}  // namespace atomfuzz::isa
