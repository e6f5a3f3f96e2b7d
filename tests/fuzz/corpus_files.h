// The corpus cases the fuzz tests run: corpus/seed/*.case and
// corpus/spec/*.case, found from the project root, read, parsed and
// validated as `atomfuzz judge` does.
#ifndef ATOMFUZZ_TESTS_FUZZ_CORPUS_FILES_H_
#define ATOMFUZZ_TESTS_FUZZ_CORPUS_FILES_H_

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz::testutil {

// The working directory (where ctest runs the tests) or else the tree this
// file was compiled from; empty if neither holds the project.
std::filesystem::path ProjectRoot();

// "corpus/seed/x.case", ... relative to the root, sorted; empty without a
// root.
std::vector<std::string> CorpusCaseFiles();

// Reads, parses and validates a file named relative to the root.
absl::StatusOr<isa::Case> LoadCorpusCase(const std::string& relative);

// A GoogleTest name from a corpus path: "corpus/spec/e01-x.case" ->
// "spec_e01_x".
std::string TestNameOf(const std::string& relative);

}  // namespace atomfuzz::fuzz::testutil

#endif  // ATOMFUZZ_TESTS_FUZZ_CORPUS_FILES_H_
