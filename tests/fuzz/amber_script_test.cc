// Amber is not packaged for Debian, so the scripts `atomfuzz export
// --format=amber` writes are checked here against Amber's documented
// grammar (github.com/google/amber docs/amber_script.md: SHADER, BUFFER,
// PIPELINE with ATTACH and BIND BUFFER ... AS ... DESCRIPTOR_SET ... BINDING,
// RUN, EXPECT ... IDX ... EQ|GE|LE), and their SPIR-V assembly against
// spirv-tools' assembler.
#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "fuzz/export/exporter.h"
#include "gtest/gtest.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

std::vector<std::string> Words(absl::string_view line) {
  return absl::StrSplit(line, ' ', absl::SkipWhitespace());
}

bool Number(absl::string_view s) {
  int64_t v;
  uint64_t u;
  return absl::SimpleAtoi(s, &v) || absl::SimpleHexAtoi(s, &u);
}

// The SPIR-V assembly assembles (Vulkan 1.0) to a valid module.
void ExpectAssembles(const std::string& text) {
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_0);
  spv_binary binary = nullptr;
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t rc =
      spvTextToBinary(context, text.data(), text.size(), &binary, &diagnostic);
  EXPECT_EQ(rc, SPV_SUCCESS)
      << (diagnostic != nullptr ? diagnostic->error : "") << "\n"
      << text;
  if (rc == SPV_SUCCESS) {
    spv_const_binary_t b{binary->code, binary->wordCount};
    spv_diagnostic invalid = nullptr;
    EXPECT_EQ(spvValidate(context, &b, &invalid), SPV_SUCCESS)
        << (invalid != nullptr ? invalid->error : "");
    spvDiagnosticDestroy(invalid);
  }
  spvBinaryDestroy(binary);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
}

// Checks `script` statement by statement, counting its EXPECTs.
void CheckGrammar(const std::string& script, int& expects) {
  const std::vector<std::string> lines = absl::StrSplit(script, '\n');
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "#!amber");
  std::set<std::string> shaders, pipelines;
  std::map<std::string, size_t> buffers;  // name -> values
  bool ran = false;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::vector<std::string> w = Words(lines[i]);
    if (w.empty() || w[0][0] == '#') continue;
    SCOPED_TRACE(lines[i]);
    if (w[0] == "SHADER") {
      ASSERT_EQ(w.size(), 4u);
      EXPECT_EQ(w[1], "compute");
      EXPECT_EQ(w[3], "SPIRV-ASM");
      std::string text;
      for (++i; i < lines.size() && lines[i] != "END"; ++i)
        text += lines[i] + "\n";
      EXPECT_LT(i, lines.size()) << "SHADER without END";
      ExpectAssembles(text);
      shaders.insert(w[2]);
    } else if (w[0] == "BUFFER") {
      ASSERT_EQ(w.size(), 5u);
      EXPECT_TRUE(w[3] == "uint32" || w[3] == "int32");
      EXPECT_EQ(w[2], "DATA_TYPE");
      EXPECT_EQ(w[4], "DATA");
      size_t values = 0;
      for (++i; i < lines.size() && lines[i] != "END"; ++i) {
        for (const std::string& v : Words(lines[i])) {
          EXPECT_TRUE(Number(v)) << v;
          ++values;
        }
      }
      EXPECT_LT(i, lines.size()) << "BUFFER without END";
      EXPECT_GT(values, 0u);
      EXPECT_TRUE(buffers.emplace(w[1], values).second) << "twice: " << w[1];
    } else if (w[0] == "PIPELINE") {
      ASSERT_EQ(w.size(), 3u);
      EXPECT_EQ(w[1], "compute");
      std::set<std::string> bindings;
      for (++i; i < lines.size() && lines[i] != "END"; ++i) {
        const std::vector<std::string> p = Words(lines[i]);
        ASSERT_FALSE(p.empty());
        if (p[0] == "ATTACH") {
          ASSERT_EQ(p.size(), 2u);
          EXPECT_TRUE(shaders.count(p[1])) << p[1];
        } else {
          ASSERT_EQ(p.size(), 9u) << lines[i];
          EXPECT_EQ(p[0], "BIND");
          EXPECT_EQ(p[1], "BUFFER");
          EXPECT_TRUE(buffers.count(p[2])) << p[2];
          EXPECT_EQ(p[3], "AS");
          EXPECT_TRUE(p[4] == "storage" || p[4] == "storage_texel_buffer");
          EXPECT_EQ(p[5], "DESCRIPTOR_SET");
          EXPECT_TRUE(Number(p[6]));
          EXPECT_EQ(p[7], "BINDING");
          EXPECT_TRUE(Number(p[8]));
          EXPECT_TRUE(bindings.insert(p[8]).second) << "binding twice";
        }
      }
      pipelines.insert(w[2]);
    } else if (w[0] == "RUN") {
      ASSERT_EQ(w.size(), 5u);
      EXPECT_TRUE(pipelines.count(w[1]));
      for (int k = 2; k < 5; ++k) EXPECT_TRUE(Number(w[k]));
      ran = true;
    } else if (w[0] == "EXPECT") {
      ASSERT_GE(w.size(), 6u);
      EXPECT_TRUE(ran) << "EXPECT before RUN";
      ASSERT_TRUE(buffers.count(w[1])) << w[1];
      EXPECT_EQ(w[2], "IDX");
      uint64_t byte = 0;
      ASSERT_TRUE(absl::SimpleAtoi(w[3], &byte));
      EXPECT_EQ(byte % 4, 0u);
      EXPECT_TRUE(w[4] == "EQ" || w[4] == "GE" || w[4] == "LE");
      const size_t values = w.size() - 5;
      if (w[4] != "EQ") EXPECT_EQ(values, 1u);
      EXPECT_LE(byte / 4 + values, buffers[w[1]]) << "past the buffer";
      for (size_t k = 5; k < w.size(); ++k) EXPECT_TRUE(Number(w[k]));
      ++expects;
    } else {
      ADD_FAILURE() << "not an Amber statement";
    }
  }
  EXPECT_TRUE(ran);
}

TEST(AmberScript, FollowsAmbersGrammarForBufferCases) {
  int scripts = 0, expects = 0;
  for (const std::string& file : testutil::CorpusCaseFiles()) {
    if (file.find("tex") != std::string::npos) continue;  // not exported
    SCOPED_TRACE(file);
    absl::StatusOr<isa::Case> c = testutil::LoadCorpusCase(file);
    ASSERT_TRUE(c.ok());
    for (const char* on : {"vulkan", "vulkan-ssbo"}) {
      ExportOptions o;
      o.format = ExportFormat::kAmber;
      o.targets = {on};
      absl::StatusOr<Exported> e = ExportCase(*c, o);
      if (!e.ok()) continue;  // a typed texture, or vkd3d refuses it
      CheckGrammar(e->text, expects);
      ++scripts;
    }
  }
  EXPECT_GT(scripts, 50);
  EXPECT_GT(expects, 200);
}

TEST(AmberScript, ASetOfValuesIsCheckedAsItsBounds) {
  absl::StatusOr<isa::Case> c =
      testutil::LoadCorpusCase("corpus/seed/counter-alloc-uav-structured.case");
  ASSERT_TRUE(c.ok());
  ExportOptions o;
  o.format = ExportFormat::kAmber;
  o.targets = {"vulkan"};
  absl::StatusOr<Exported> e = ExportCase(*c, o);
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_NE(e->text.find("is one of {"), std::string::npos);
  EXPECT_NE(e->text.find(" GE "), std::string::npos);
  EXPECT_NE(e->text.find("BINDING 64"), std::string::npos);  // the counter
}

}  // namespace
}  // namespace atomfuzz::fuzz
