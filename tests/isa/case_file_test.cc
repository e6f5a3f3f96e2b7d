// Case files: PrintCase and ParseCase are inverse, the printed form is
// canonical (fixed section and key order, data compressed into fill/ramp),
// and every section and key reads as documented. Error messages are in
// malformed_input_test.cc.
#include "isa/case_file.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "isa/assembler.h"
#include "tests/testing/round_trip.h"

namespace atomfuzz::isa {
namespace {

ValueSet Exact(uint32_t v) { return {ValueSet::Kind::kExact, {v}}; }
ValueSet Any() { return {ValueSet::Kind::kAny, {}}; }
ValueSet OneOf(std::vector<uint32_t> v) {
  return {ValueSet::Kind::kOneOf, std::move(v)};
}

Program MustAssemble(absl::string_view text) {
  absl::StatusOr<Program> p = Assemble(text, "shader.asm");
  EXPECT_TRUE(p.ok()) << p.status();
  return p.ok() ? *p : Program{};
}

Case MustParse(absl::string_view text) {
  absl::StatusOr<Case> c = ParseCase(text, "t.case");
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : Case{};
}

constexpr absl::string_view kShader =
    "cs_5_0\n"
    "dcl_uav_raw u0\n"
    "dcl_uav_structured u1, 8\n"
    "dcl_uav_typed_texture2d (sint,sint,sint,sint) u2\n"
    "dcl_temps 1\n"
    "dcl_thread_group 4, 1, 1\n"
    "imm_atomic_iadd r0.x, u0, l(0), l(1)\n"
    "imm_atomic_alloc r0.y, u1\n"
    "ret\n";

// Every section and key, in canonical form.
constexpr absl::string_view kFullCase = R"(# A case with every section.
#   indented description line
#

[metadata]
seed = 42
policy = default
empty =

[dispatch]
groups 2, 1, 1

[uav u0]
kind raw
words 16
data 1, 2, 3, fill(7, 5), ramp(0, 4, 4), 0xdeadbeef

[uav u1]
kind structured
stride 8
elements 4
counter 3
data -1, -2

[uav u2]
kind typed
dim texture2d
format r32_sint
size 4, 2
data fill(0x80000000, 8)

[shader]
cs_5_0
dcl_uav_raw u0
dcl_uav_structured u1, 8
dcl_uav_typed_texture2d (sint,sint,sint,sint) u2
dcl_temps 1
dcl_thread_group 4, 1, 1
imm_atomic_iadd r0.x, u0, l(0), l(1)
imm_atomic_alloc r0.y, u1
ret

[expect u0]
word 0 = 9
word 1..3 = any
word 4 = {1, 2, 3}
counter = 7

[expect u1]
counter = {3, 4}

[expect returns]
atomic 0 group 0, 0, 0 thread 1, 0, 0 = {1, 2}
atomic 1 group 1, 0, 0 thread 0, 0, 0 occurrence 2 = any
)";

Case FullCase() {
  Case c;
  c.description = {" A case with every section.",
                   "   indented description line", ""};
  c.metadata = {{"seed", "42"}, {"policy", "default"}, {"empty", ""}};
  c.groups = {2, 1, 1};

  Resource raw;
  raw.slot = 0;
  raw.kind = ResourceKind::kRaw;
  raw.words = 16;
  raw.init = {1, 2, 3, 7, 7, 7, 7, 7, 0, 4, 8, 12, 0xDEADBEEFu, 0, 0, 0};

  Resource structured;
  structured.slot = 1;
  structured.kind = ResourceKind::kStructured;
  structured.stride = 8;
  structured.elements = 4;
  structured.counter = 3;
  structured.init = {0xFFFFFFFFu, 0xFFFFFFFEu, 0, 0, 0, 0, 0, 0};

  Resource typed;
  typed.slot = 2;
  typed.kind = ResourceKind::kTyped;
  typed.dim = Dim::kTexture2D;
  typed.format = Format::kR32Sint;
  typed.size = {4, 2, 1};
  typed.init.assign(8, 0x80000000u);

  c.resources = {raw, structured, typed};
  c.shader = MustAssemble(kShader);
  c.expect_words = {
      {0, 0, 0, Exact(9)}, {0, 1, 3, Any()}, {0, 4, 4, OneOf({1, 2, 3})}};
  c.expect_counters = {{0, Exact(7)}, {1, OneOf({3, 4})}};
  ReturnExpectation r0;
  r0.atomic = 0;
  r0.thread = {1, 0, 0};
  r0.value = OneOf({1, 2});
  ReturnExpectation r1;
  r1.atomic = 1;
  r1.group = {1, 0, 0};
  r1.occurrence = 2;
  r1.value = Any();
  c.expect_returns = {r0, r1};
  return c;
}

// ---- The whole format ----------------------------------------------------

TEST(CaseFileTest, PrintsEverySectionCanonically) {
  EXPECT_EQ(PrintCase(FullCase()), kFullCase);
}

TEST(CaseFileTest, ParsesEverySectionAndKey) {
  const Case c = MustParse(kFullCase);
  EXPECT_EQ(c, FullCase());
  EXPECT_EQ(c.file, "t.case");
  EXPECT_EQ(c.resources[1].line, 18);  // of its [uav] header
  EXPECT_EQ(c.expect_words[2].line, 46);
  EXPECT_EQ(c.expect_returns[1].line, 54);
  EXPECT_EQ(c.shader.instructions[0].line, 34);  // lines count in the file
}

TEST(CaseFileTest, FullCaseIsCanonicalAndRoundTrips) {
  EXPECT_TRUE(testutil::CaseTextIsCanonical(kFullCase));
  EXPECT_TRUE(testutil::CaseRoundTrips(FullCase()));
}

TEST(CaseFileTest, SmallestCase) {
  constexpr absl::string_view kText =
      "[dispatch]\ngroups 1, 1, 1\n\n[shader]\ncs_5_0\nret\n";
  EXPECT_TRUE(testutil::CaseTextIsCanonical(kText));
  // [dispatch] may be left out: one group.
  const Case c = MustParse("[shader]\ncs_5_0\nret\n");
  EXPECT_EQ(c.groups, (std::array<uint32_t, 3>{1, 1, 1}));
  EXPECT_EQ(PrintCase(c), kText);
}

TEST(CaseFileTest, DescriptionWithoutMetadataAndMetadataWithoutDescription) {
  EXPECT_TRUE(testutil::CaseTextIsCanonical(
      "# only a description\n\n[dispatch]\ngroups 1, 1, 1\n\n[shader]\n"
      "cs_5_0\n"));
  EXPECT_TRUE(testutil::CaseTextIsCanonical(
      "[metadata]\ngenerator = atomfuzz 0.1\nmutations = a, b # c\n\n"
      "[dispatch]\ngroups 1, 1, 1\n\n[shader]\ncs_5_0\n"));
}

TEST(CaseFileTest, MetadataKeepsFileOrderAndTrimsValues) {
  const Case c = MustParse(
      "[metadata]\nzeta = 1\n  alpha=two words  \nmid =\t x \n[shader]\n"
      "cs_5_0\n");
  EXPECT_EQ(c.metadata,
            (std::vector<std::pair<std::string, std::string>>{
                {"zeta", "1"}, {"alpha", "two words"}, {"mid", "x"}}));
}

TEST(CaseFileTest, CommentsAfterTheHeaderAreNotDescription) {
  const Case c = MustParse(
      "#first\n# second\n[dispatch]\n# not description\ngroups 3, 2, 1 "
      "# trailing\n[shader]\ncs_5_0\n");
  EXPECT_EQ(c.description, (std::vector<std::string>{"first", " second"}));
  EXPECT_EQ(c.groups, (std::array<uint32_t, 3>{3, 2, 1}));
}

TEST(CaseFileTest, CrLfReadsLikeLf) {
  const std::string crlf = absl::StrReplaceAll(kFullCase, {{"\n", "\r\n"}});
  EXPECT_EQ(MustParse(crlf), MustParse(kFullCase));
}

// ---- Data -------------------------------------------------------------------

struct DataCase {
  const char* name;
  std::vector<uint32_t> words;
  const char* lines;  // the data lines PrintCase writes, or "" for none
};

class CaseDataTest : public ::testing::TestWithParam<DataCase> {};

std::string RawCaseText(size_t words, absl::string_view data_lines) {
  return absl::StrCat(
      "[dispatch]\ngroups 1, 1, 1\n\n[uav u0]\nkind raw\nwords ", words, "\n",
      data_lines, "\n[shader]\ncs_5_0\n");
}

TEST_P(CaseDataTest, CompressesAndExpandsBack) {
  Case c;
  Resource r;
  r.kind = ResourceKind::kRaw;
  r.words = static_cast<uint32_t>(GetParam().words.size());
  r.init = GetParam().words;
  c.resources = {r};
  const std::string text = RawCaseText(r.words, GetParam().lines);
  EXPECT_EQ(PrintCase(c), text);
  EXPECT_EQ(MustParse(text).resources.at(0).init, GetParam().words);
  EXPECT_TRUE(testutil::CaseRoundTrips(c));
}

std::vector<uint32_t> Ramp(uint32_t start, uint32_t step, uint32_t n) {
  std::vector<uint32_t> v;
  for (uint32_t i = 0; i < n; ++i) v.push_back(start + i * step);
  return v;
}

std::vector<uint32_t> Concat(std::vector<std::vector<uint32_t>> parts) {
  std::vector<uint32_t> v;
  for (const auto& p : parts) v.insert(v.end(), p.begin(), p.end());
  return v;
}

INSTANTIATE_TEST_SUITE_P(
    Compression, CaseDataTest,
    ::testing::Values(
        DataCase{"OneZero", {0}, ""}, DataCase{"AllZero", {0, 0, 0, 0, 0}, ""},
        DataCase{"TrailingZerosDropped", {5, 0, 0, 0}, "data 5\n"},
        DataCase{"InnerZerosKept", {0, 0, 9}, "data 0, 0, 9\n"},
        DataCase{"ShortRunsWrittenOut",
                 {7, 7, 7, 1, 2, 3},
                 "data 7, 7, 7, 1, 2, 3\n"},
        DataCase{"Fill", {7, 7, 7, 7}, "data fill(7, 4)\n"},
        DataCase{"ZeroFillBeforeData",
                 Concat({std::vector<uint32_t>(6, 0), {1}}),
                 "data fill(0, 6), 1\n"},
        DataCase{"Ramp", Ramp(0, 4, 4), "data ramp(0, 4, 4)\n"},
        DataCase{"DescendingRamp", Ramp(10, 0xFFFFFFFFu, 5),
                 "data ramp(10, -1, 5)\n"},
        DataCase{"WrappingRamp", Ramp(0xFFFFFFFEu, 1, 4),
                 "data ramp(-2, 1, 4)\n"},
        DataCase{"HexValues",
                 {0x80000000u, 0xDEADBEEFu, 65536, 0xFFFF0000u},
                 "data 0x80000000, 0xdeadbeef, 0x00010000, 0xffff0000\n"},
        DataCase{"Mixed",
                 {1, 2, 3, 7, 7, 7, 7, 7, 0, 4, 8, 12, 0xDEADBEEFu, 0, 0, 0},
                 "data 1, 2, 3, fill(7, 5), ramp(0, 4, 4), 0xdeadbeef\n"},
        DataCase{"RampThenFill",
                 {0, 1, 2, 3, 3, 3, 3, 3},
                 "data ramp(0, 1, 4), fill(3, 4)\n"},
        DataCase{"EightItemsALine",
                 {1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3, 1, 3},
                 "data 1, 3, 1, 3, 1, 3, 1, 3\n"
                 "data 1, 3, 1, 3, 1, 3, 1, 3\n"
                 "data 1, 3\n"},
        DataCase{"LongFill", std::vector<uint32_t>(4096, 0xFFFFFFFFu),
                 "data fill(-1, 4096)\n"}),
    [](const ::testing::TestParamInfo<DataCase>& info) {
      return std::string(info.param.name);
    });

TEST(CaseDataParseTest, ItemsExpandInOrderAndTheRestIsZero) {
  const Case c = MustParse(
      "[uav u3]\nkind raw\nwords 12\ndata 0.5, -1\ndata fill(2, 3), "
      "ramp(0x10, -0x1, 2),1.#INF00\n[shader]\ncs_5_0\n");
  ASSERT_EQ(c.resources.size(), 1u);
  EXPECT_EQ(c.resources[0].slot, 3u);
  EXPECT_EQ(c.resources[0].init,
            (std::vector<uint32_t>{0x3F000000u, 0xFFFFFFFFu, 2, 2, 2, 16, 15,
                                   0x7F800000u, 0, 0, 0, 0}));
}

TEST(CaseDataParseTest, DataMayComeBeforeTheSize) {
  const Case c =
      MustParse("[uav u0]\ndata 1, 2\nkind raw\nwords 2\n[shader]\ncs_5_0\n");
  EXPECT_EQ(c.resources.at(0).init, (std::vector<uint32_t>{1, 2}));
}

TEST(CaseDataParseTest, EmptyFillAndExactFit) {
  const Case c = MustParse(
      "[uav u0]\nkind raw\nwords 3\ndata fill(9, 0), 1, fill(2, 2), fill(5, "
      "0)\n[shader]\ncs_5_0\n");
  EXPECT_EQ(c.resources.at(0).init, (std::vector<uint32_t>{1, 2, 2}));
}

// ---- Resources --------------------------------------------------------------

struct TypedShape {
  const char* dim;
  const char* size;
  std::array<uint32_t, 3> extents;
  uint64_t words;
};

class CaseTypedResourceTest : public ::testing::TestWithParam<TypedShape> {};

TEST_P(CaseTypedResourceTest, SizeHasOneExtentPerAddressComponent) {
  const std::string text =
      absl::StrCat("[dispatch]\ngroups 1, 1, 1\n\n[uav u7]\nkind typed\ndim ",
                   GetParam().dim, "\nformat r32_uint\nsize ", GetParam().size,
                   "\ndata 1\n\n[shader]\ncs_5_0\n");
  EXPECT_TRUE(testutil::CaseTextIsCanonical(text));
  const Case c = MustParse(text);
  ASSERT_EQ(c.resources.size(), 1u);
  EXPECT_EQ(c.resources[0].size, GetParam().extents);
  EXPECT_EQ(c.resources[0].WordCount(), GetParam().words);
  EXPECT_EQ(c.resources[0].init.size(), GetParam().words);
}

INSTANTIATE_TEST_SUITE_P(
    AllSixDims, CaseTypedResourceTest,
    ::testing::Values(TypedShape{"buffer", "8", {8, 1, 1}, 8},
                      TypedShape{"texture1d", "5", {5, 1, 1}, 5},
                      TypedShape{"texture1darray", "4, 3", {4, 3, 1}, 12},
                      TypedShape{"texture2d", "4, 2", {4, 2, 1}, 8},
                      TypedShape{"texture2darray", "2, 2, 3", {2, 2, 3}, 12},
                      TypedShape{"texture3d", "2, 3, 4", {2, 3, 4}, 24}),
    [](const ::testing::TestParamInfo<TypedShape>& info) {
      return std::string(info.param.dim);
    });

TEST(CaseResourceTest, EveryFormat) {
  for (Format f : {Format::kR32Uint, Format::kR32Sint, Format::kR32Float}) {
    EXPECT_EQ(FormatFromName(FormatName(f)), f);
    Case c;
    Resource r;
    r.kind = ResourceKind::kTyped;
    r.format = f;
    r.size = {2, 1, 1};
    r.init = {0, 0};
    c.resources = {r};
    EXPECT_TRUE(testutil::CaseRoundTrips(c)) << FormatName(f);
  }
  EXPECT_EQ(FormatFromName("r32_typeless"), std::nullopt);
  EXPECT_EQ(ResourceKindName(ResourceKind::kRaw), "raw");
  EXPECT_EQ(ResourceKindName(ResourceKind::kStructured), "structured");
  EXPECT_EQ(ResourceKindName(ResourceKind::kTyped), "typed");
}

TEST(CaseResourceTest, ResourcesAreSortedBySlot) {
  const Case c = MustParse(
      "[uav u9]\nkind raw\nwords 1\n[uav u2]\nkind raw\nwords 2\n"
      "[uav u5]\nkind raw\nwords 3\n[shader]\ncs_5_0\n");
  ASSERT_EQ(c.resources.size(), 3u);
  EXPECT_EQ(c.resources[0].slot, 2u);
  EXPECT_EQ(c.resources[1].slot, 5u);
  EXPECT_EQ(c.resources[2].slot, 9u);
  EXPECT_EQ(c.FindResource(5), &c.resources[1]);
  EXPECT_EQ(c.FindResource(3), nullptr);
  EXPECT_TRUE(testutil::CaseRoundTrips(c));
}

TEST(CaseResourceTest, SlotsUpToSixtyThree) {
  const Case c = MustParse(
      "[uav u63]\nkind raw\nwords 1\n[uav u007]\nkind "
      "raw\nwords 1\n[shader]\ncs_5_0\n");
  ASSERT_EQ(c.resources.size(), 2u);
  EXPECT_EQ(c.resources[0].slot, 7u);
  EXPECT_EQ(c.resources[1].slot, 63u);
}

TEST(CaseResourceTest, CounterOnEveryKind) {
  const Case c = MustParse(
      "[uav u0]\nkind structured\nstride 4\nelements 2\ncounter 0xffffffff\n"
      "[shader]\ncs_5_0\n");
  EXPECT_EQ(c.resources.at(0).counter, 0xFFFFFFFFu);
  EXPECT_TRUE(testutil::CaseRoundTrips(c));
}

TEST(CaseResourceTest, WordCount) {
  Resource r;
  r.kind = ResourceKind::kRaw;
  r.words = 7;
  EXPECT_EQ(r.WordCount(), 7u);
  r.kind = ResourceKind::kStructured;
  r.stride = 12;
  r.elements = 5;
  EXPECT_EQ(r.WordCount(), 15u);
  r.stride = 6;  // not a multiple of 4: no valid shape
  EXPECT_EQ(r.WordCount(), 0u);
  r.stride = 0;
  EXPECT_EQ(r.WordCount(), 0u);
  r.kind = ResourceKind::kTyped;
  r.size = {65536, 65536, 64};  // no 32-bit overflow
  EXPECT_EQ(r.WordCount(), uint64_t{65536} * 65536 * 64);
}

TEST(CaseResourceTest, TheLargestResourceParses) {
  const Case c = MustParse(absl::StrCat(
      "[uav u0]\nkind raw\nwords ", kMaxResourceWords, "\n[shader]\ncs_5_0\n"));
  EXPECT_EQ(c.resources.at(0).init.size(), kMaxResourceWords);
}

// Direct3D creates no empty resource: a size of 0 is an error at its key.
TEST(CaseResourceTest, AnEmptyResourceIsAnError) {
  for (absl::string_view text : {
           "[uav u1]\nkind raw\nwords 0\n[shader]\ncs_5_0\n",
           "[uav u1]\nkind structured\nstride 4\nelements "
           "0\n[shader]\ncs_5_0\n",
           "[uav u1]\nkind typed\ndim texture2d\nformat r32_uint\nsize 4, 0\n"
           "[shader]\ncs_5_0\n",
       }) {
    const absl::StatusOr<Case> c = ParseCase(text, "e.case");
    ASSERT_FALSE(c.ok()) << text;
    EXPECT_TRUE(absl::StartsWith(c.status().message(), "e.case:"))
        << c.status();
    EXPECT_TRUE(absl::StrContains(c.status().message(),
                                  "expected at least 1 word in a resource"))
        << c.status();
  }
}

// ---- Expectations -----------------------------------------------------------

TEST(CaseExpectationTest, EveryValueForm) {
  const Case c = MustParse(
      "[shader]\ncs_5_0\n[expect u4]\nword 0 = -1\nword 1 = 0.5\n"
      "word 2 = {3, 1, 2, 1}\nword 3..7 = any\nword 8 = {0x80000000}\n"
      "word 9..9 = 1.#INF00\ncounter = any\n");
  ASSERT_EQ(c.expect_words.size(), 6u);
  EXPECT_EQ(c.expect_words[0].value, Exact(0xFFFFFFFFu));
  EXPECT_EQ(c.expect_words[1].value, Exact(0x3F000000u));
  EXPECT_EQ(c.expect_words[2].value, OneOf({1, 2, 3}));  // sorted, unique
  EXPECT_EQ(c.expect_words[3].first, 3u);
  EXPECT_EQ(c.expect_words[3].last, 7u);
  EXPECT_EQ(c.expect_words[3].value, Any());
  EXPECT_EQ(c.expect_words[4].value, OneOf({0x80000000u}));
  EXPECT_EQ(c.expect_words[5].first, 9u);
  EXPECT_EQ(c.expect_words[5].last, 9u);
  for (const WordExpectation& w : c.expect_words) EXPECT_EQ(w.slot, 4u);
  ASSERT_EQ(c.expect_counters.size(), 1u);
  EXPECT_EQ(c.expect_counters[0].value, Any());
  EXPECT_TRUE(testutil::CaseRoundTrips(c));
  EXPECT_EQ(PrintCase(c),
            "[dispatch]\ngroups 1, 1, 1\n\n[shader]\ncs_5_0\n\n[expect u4]\n"
            "word 0 = -1\nword 1 = 0x3f000000\nword 2 = {1, 2, 3}\n"
            "word 3..7 = any\nword 8 = {0x80000000}\nword 9 = 0x7f800000\n"
            "counter = any\n");
}

TEST(CaseExpectationTest, SectionsAreGroupedBySlotInFileOrderWithin) {
  const Case c = MustParse(
      "[shader]\ncs_5_0\n[expect u3]\nword 5 = 1\nword 2 = 2\n"
      "[expect u1]\ncounter = 4\nword 0 = 3\n");
  ASSERT_EQ(c.expect_words.size(), 3u);
  EXPECT_EQ(c.expect_words[0].slot, 1u);
  EXPECT_EQ(c.expect_words[1].first, 5u);  // u3 keeps its order
  EXPECT_EQ(c.expect_words[2].first, 2u);
  EXPECT_EQ(PrintCase(c),
            "[dispatch]\ngroups 1, 1, 1\n\n[shader]\ncs_5_0\n\n"
            "[expect u1]\nword 0 = 3\ncounter = 4\n\n"
            "[expect u3]\nword 5 = 1\nword 2 = 2\n");
  EXPECT_TRUE(testutil::CaseRoundTrips(c));
}

TEST(CaseExpectationTest, ReturnsInAnyKeyOrder) {
  const Case c = MustParse(
      "[shader]\ncs_5_0\n[expect returns]\n"
      "atomic 3 occurrence 7 thread 1, 2, 3 group 4, 5, 6 = 0x10\n"
      "atomic 0 thread 0, 0, 0 = {2, 1}\n");
  ASSERT_EQ(c.expect_returns.size(), 2u);
  const ReturnExpectation& e = c.expect_returns[0];
  EXPECT_EQ(e.atomic, 3u);
  EXPECT_EQ(e.occurrence, 7u);
  EXPECT_EQ(e.thread, (std::array<uint32_t, 3>{1, 2, 3}));
  EXPECT_EQ(e.group, (std::array<uint32_t, 3>{4, 5, 6}));
  EXPECT_EQ(e.value, Exact(16));
  // group defaults to 0, 0, 0 and occurrence to 0 (then not printed).
  EXPECT_EQ(c.expect_returns[1].group, (std::array<uint32_t, 3>{0, 0, 0}));
  EXPECT_EQ(PrintCase(c),
            "[dispatch]\ngroups 1, 1, 1\n\n[shader]\ncs_5_0\n\n"
            "[expect returns]\n"
            "atomic 3 group 4, 5, 6 thread 1, 2, 3 occurrence 7 = 16\n"
            "atomic 0 group 0, 0, 0 thread 0, 0, 0 = {1, 2}\n");
  EXPECT_TRUE(testutil::CaseRoundTrips(c));
}

TEST(CaseExpectationTest, ValueSetAllows) {
  EXPECT_TRUE(Any().Allows(12345));
  EXPECT_TRUE(Exact(7).Allows(7));
  EXPECT_FALSE(Exact(7).Allows(8));
  EXPECT_FALSE((ValueSet{ValueSet::Kind::kExact, {}}).Allows(0));
  EXPECT_TRUE(OneOf({1, 5, 9}).Allows(5));
  EXPECT_FALSE(OneOf({1, 5, 9}).Allows(4));
  EXPECT_FALSE(OneOf({}).Allows(0));
}

// ---- Shader
// -------------------------------------------------------------------

TEST(CaseShaderTest, ShaderEndsAtTheNextHeaderAndKeepsFileLines) {
  const Case c = MustParse(
      "[dispatch]\ngroups 1, 1, 1\n\n[shader]\n// fxc header\ncs_5_0\n"
      "  mov r0.x, l(1) // note\n\nret\n[expect u0]\nword 0 = 1\n");
  ASSERT_EQ(c.shader.instructions.size(), 2u);
  EXPECT_EQ(c.shader.instructions[0].line, 7);
  EXPECT_EQ(c.shader.instructions[1].line, 9);
  EXPECT_EQ(c.expect_words.size(), 1u);
}

TEST(CaseShaderTest, ErrorsInTheShaderCarryFileLines) {
  const absl::StatusOr<Case> c = ParseCase(
      "[dispatch]\ngroups 1, 1, 1\n[shader]\ncs_5_0\nbogus\n", "dir/x.case");
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(c.status().message(),
            "dir/x.case:5:1: expected an instruction, found 'bogus'");
}

// ---- Fixed point
// ----------------------------------------------------------------

// Non-canonical spellings: one PrintCase makes them canonical.
TEST(CaseFixedPointTest, PrintCaseOfAnyParsedCaseIsCanonical) {
  for (absl::string_view text : {
           "[shader]\ncs_5_0\n",
           "  # spaced description\n[metadata]\nk=v\n[shader]\ncs_5_0\nret",
           "[expect u0]\nword 0..0 = {1,1}\n[shader]\ncs_5_0\n"
           "[dispatch]\ngroups 0x2,1,1\n",
           "[uav u1]\ndata 0x1,fill(0,7),ramp(5,0,4)\nwords 16\nkind raw\n"
           "[shader]\ncs_5_0\nsync_sat_ugroup_t\n",
           "[uav u0]\nkind structured\nelements 2\nstride 8\ndata 1\n"
           "[shader]\n\n\ncs_5_0\n\n\n[expect returns]\n"
           "atomic 0 thread 1,1,1 occurrence 0 = any\n",
       }) {
    const absl::StatusOr<Case> c = ParseCase(text, "t.case");
    ASSERT_TRUE(c.ok()) << text << "\n" << c.status();
    EXPECT_TRUE(testutil::CaseTextIsCanonical(PrintCase(*c))) << text;
  }
}

TEST(CaseFixedPointTest, NonCanonicalTextIsReportedAsSuch) {
  // The helper the corpus test relies on must notice a difference.
  EXPECT_FALSE(testutil::CaseTextIsCanonical("[shader]\ncs_5_0\n"));
  EXPECT_FALSE(testutil::CaseTextIsCanonical(
      "[dispatch]\ngroups 1, 1, 1\n\n[shader]\ncs_5_0\n\n"));
  EXPECT_FALSE(testutil::CaseTextIsCanonical("[bogus]\n"));
}

}  // namespace
}  // namespace atomfuzz::isa
