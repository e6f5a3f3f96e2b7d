// The seed corpus covers every legal atomic x memory-kind cell (issue 2:
// all 21 atomics on raw, structured, typed buffer, texture and g# kinds).
#include <filesystem>
#include <fstream>
#include <sstream>

#include "gtest/gtest.h"
#include "isa/case_file.h"
#include "isa/coverage.h"

namespace atomfuzz::isa {
namespace {

CoverageMatrix SeedCoverage(int* files) {
  CoverageMatrix m;
  *files = 0;
  for (const auto& e : std::filesystem::directory_iterator("corpus/seed")) {
    if (e.path().extension() != ".case") continue;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    auto c = ParseCase(ss.str(), e.path().string());
    EXPECT_TRUE(c.ok()) << c.status();
    if (!c.ok()) continue;
    m.Add(*c);
    ++*files;
  }
  return m;
}

TEST(CorpusCoverage, EveryLegalAtomicAndMemoryKindIsSeeded) {
  int files = 0;
  const CoverageMatrix m = SeedCoverage(&files);
  ASSERT_GT(files, 0) << "no corpus/seed/*.case (run from the project root)";
  int atomics = 0;
  for (const OpcodeInfo& row : AllOpcodes()) {
    if (!row.is_atomic()) continue;
    ++atomics;
    for (int k = 0; k < kTargetKindCount; ++k) {
      const auto kind = static_cast<TargetKind>(k);
      if (!IsLegal(row.op, kind)) continue;
      EXPECT_GT(m.Count(row.op, kind), 0)
          << row.mnemonic << " on " << TargetKindName(kind) << " not seeded";
    }
  }
  EXPECT_EQ(atomics, 21);
  std::cout << m.Render();
}

}  // namespace
}  // namespace atomfuzz::isa
