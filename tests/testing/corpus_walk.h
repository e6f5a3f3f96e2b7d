// Finding the corpus from a test: the project root (ctest's working
// directory, or the tree the test was compiled from) and every *.case under
// a directory, sorted. Header-only so any test binary can use it.
#ifndef ATOMFUZZ_TESTS_TESTING_CORPUS_WALK_H_
#define ATOMFUZZ_TESTS_TESTING_CORPUS_WALK_H_

#include <algorithm>
#include <cctype>
#include <cstddef>
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

// Every regular *.case file under `dir`, at any depth, sorted; none when
// `dir` is missing.
inline std::vector<std::filesystem::path> CaseFilesUnder(
    const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
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

// Paths of every regular *.case under root/corpus, relative to root.
inline std::vector<std::string> CorpusCasePaths(
    const std::filesystem::path& root) {
  std::vector<std::string> files;
  if (root.empty()) return files;
  for (const std::filesystem::path& f : CaseFilesUnder(root / "corpus")) {
    files.push_back(f.lexically_relative(root).generic_string());
  }
  return files;
}

// A GoogleTest name from a corpus path: letters and digits kept, the rest
// '_', and the index appended so that names stay unique.
inline std::string CorpusTestName(const std::string& path, size_t index) {
  std::string name;
  for (char c : path.substr(0, path.rfind(".case"))) {
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  }
  return name + "_" + std::to_string(index);
}

inline std::string ReadWholeFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace atomfuzz::testutil

#endif  // ATOMFUZZ_TESTS_TESTING_CORPUS_WALK_H_
