#include "tests/fuzz/corpus_files.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <system_error>

#include "absl/strings/str_cat.h"
#include "isa/validator.h"

namespace atomfuzz::fuzz::testutil {

namespace fs = std::filesystem;

fs::path ProjectRoot() {
  std::error_code ec;
  const fs::path cwd = fs::current_path(ec);
  const fs::path here =
      fs::path(__FILE__).parent_path().parent_path().parent_path();
  for (const fs::path& candidate : {cwd, here}) {
    if (!candidate.empty() && fs::exists(candidate / "corpus" / "spec", ec) &&
        fs::exists(candidate / "isa" / "case_file.h", ec)) {
      return candidate;
    }
  }
  return {};
}

std::vector<std::string> CorpusCaseFiles() {
  const fs::path root = ProjectRoot();
  std::vector<std::string> files;
  if (root.empty()) return files;
  for (const char* dir : {"corpus/seed", "corpus/spec", "corpus/regress"}) {
    std::error_code ec;
    for (fs::directory_iterator it(root / dir, ec), end; !ec && it != end;
         it.increment(ec)) {
      if (it->is_regular_file(ec) && it->path().extension() == ".case") {
        files.push_back(it->path().lexically_relative(root).generic_string());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

absl::StatusOr<isa::Case> LoadCorpusCase(const std::string& relative) {
  std::ifstream in(ProjectRoot() / relative, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", relative));
  std::ostringstream text;
  text << in.rdbuf();
  absl::StatusOr<isa::Case> c = isa::ParseCase(text.str(), relative);
  if (!c.ok()) return c.status();
  if (absl::Status s = isa::Validate(*c); !s.ok()) return s;
  return c;
}

std::string TestNameOf(const std::string& relative) {
  std::string path = relative;
  if (path.rfind("corpus/", 0) == 0) path = path.substr(7);
  if (path.size() > 5 && path.substr(path.size() - 5) == ".case")
    path.resize(path.size() - 5);
  std::string name;
  for (char c : path)
    name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return name;
}

}  // namespace atomfuzz::fuzz::testutil
