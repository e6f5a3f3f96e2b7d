// Finding the corpus from a test: the project root (ctest's working
// directory, or the tree the test was compiled from) and every *.case under
// a directory, sorted. Header-only so any test binary can use it.
#ifndef ATOMFUZZ_TESTS_TESTING_CORPUS_WALK_H_
#define ATOMFUZZ_TESTS_TESTING_CORPUS_WALK_H_

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <vector>

namespace atomfuzz::testutil {

inline std::filesystem::path ProjectRootFrom(const char* this_file) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  const fs::path here =
      fs::path(this_file).parent_path().parent_path().parent_path();
  for (const fs::path& candidate : {cwd, here}) {
    if (!candidate.empty() &&
        fs::exists(candidate / "isa" / "case_file.h", ec)) {
      return candidate;
    }
  }
  return {};
}

// Paths of every regular *.case under root/corpus, relative to root.
inline std::vector<std::string> CorpusCasePaths(
    const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  std::error_code ec;
  if (root.empty() || !fs::is_directory(root / "corpus", ec)) return files;
  for (fs::recursive_directory_iterator it(root / "corpus", ec), end;
       !ec && it != end; it.increment(ec)) {
    if (it->is_regular_file(ec) && it->path().extension() == ".case") {
      files.push_back(it->path().lexically_relative(root).generic_string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

inline std::string ReadWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace atomfuzz::testutil

#endif  // ATOMFUZZ_TESTS_TESTING_CORPUS_WALK_H_
