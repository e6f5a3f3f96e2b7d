#include "isa/text_cursor.h"

#include <cstdint>
#include <optional>
#include <string>

#include "gtest/gtest.h"

namespace atomfuzz::isa {
namespace {

using ::testing::TestWithParam;

// ---- ParseUnsigned -------------------------------------------------------

struct UnsignedCase {
  const char* text;
  std::optional<uint32_t> value;
};

class ParseUnsignedTest : public TestWithParam<UnsignedCase> {};

TEST_P(ParseUnsignedTest, Parses) {
  EXPECT_EQ(ParseUnsigned(GetParam().text), GetParam().value)
      << "'" << GetParam().text << "'";
}

INSTANTIATE_TEST_SUITE_P(
    EdgeCases, ParseUnsignedTest,
    ::testing::Values(
        UnsignedCase{"0", 0u}, UnsignedCase{"7", 7u},
        UnsignedCase{"4294967295", 0xFFFFFFFFu},
        UnsignedCase{"4294967296", std::nullopt},
        UnsignedCase{"9999999999", std::nullopt},
        UnsignedCase{"18446744073709551617", std::nullopt},
        UnsignedCase{"0000000001", 1u},
        // Leading zeros do not count against the width, as for hex.
        UnsignedCase{"00000000000000000042", 42u},
        UnsignedCase{"000004294967295", 0xFFFFFFFFu},
        UnsignedCase{"000004294967296", std::nullopt}, UnsignedCase{"0x0", 0u},
        UnsignedCase{"0x1f", 0x1Fu}, UnsignedCase{"0XaB", 0xABu},
        UnsignedCase{"0xFFFFFFFF", 0xFFFFFFFFu},
        UnsignedCase{"0x100000000", std::nullopt},
        UnsignedCase{"0x000000000000ffffffff", 0xFFFFFFFFu},
        UnsignedCase{"0x0000000100000000", std::nullopt},
        UnsignedCase{"", std::nullopt}, UnsignedCase{"0x", std::nullopt},
        UnsignedCase{"x1", std::nullopt}, UnsignedCase{"0x-1", std::nullopt},
        UnsignedCase{"0xg", std::nullopt}, UnsignedCase{"-1", std::nullopt},
        UnsignedCase{"+1", std::nullopt}, UnsignedCase{" 1", std::nullopt},
        UnsignedCase{"1 ", std::nullopt}, UnsignedCase{"1.0", std::nullopt},
        UnsignedCase{"1e3", std::nullopt}, UnsignedCase{"12a", std::nullopt},
        UnsignedCase{"0b1", std::nullopt}));

// ---- ParseLiteral --------------------------------------------------------

class ParseLiteralTest : public TestWithParam<UnsignedCase> {};

TEST_P(ParseLiteralTest, Parses) {
  EXPECT_EQ(ParseLiteral(GetParam().text), GetParam().value)
      << "'" << GetParam().text << "'";
}

INSTANTIATE_TEST_SUITE_P(
    Integers, ParseLiteralTest,
    ::testing::Values(UnsignedCase{"0", 0u}, UnsignedCase{"1", 1u},
                      UnsignedCase{"-1", 0xFFFFFFFFu}, UnsignedCase{"-0", 0u},
                      UnsignedCase{"4294967295", 0xFFFFFFFFu},
                      UnsignedCase{"2147483648", 0x80000000u},
                      UnsignedCase{"-2147483648", 0x80000000u},
                      UnsignedCase{"-2147483647", 0x80000001u},
                      UnsignedCase{"-2147483649", std::nullopt},
                      UnsignedCase{"-4294967295", std::nullopt},
                      UnsignedCase{"4294967296", std::nullopt},
                      UnsignedCase{"0x80000000", 0x80000000u},
                      UnsignedCase{"0xffffffff", 0xFFFFFFFFu},
                      UnsignedCase{"-0x1", 0xFFFFFFFFu},
                      UnsignedCase{"-0x80000000", 0x80000000u},
                      UnsignedCase{"-0x80000001", std::nullopt},
                      UnsignedCase{"0x100000000", std::nullopt},
                      UnsignedCase{"", std::nullopt},
                      UnsignedCase{"-", std::nullopt},
                      UnsignedCase{"--1", std::nullopt},
                      UnsignedCase{"+1", std::nullopt},
                      UnsignedCase{"1-", std::nullopt}));

INSTANTIATE_TEST_SUITE_P(
    Floats, ParseLiteralTest,
    ::testing::Values(
        UnsignedCase{"0.500000", 0x3F000000u}, UnsignedCase{"1.0", 0x3F800000u},
        UnsignedCase{"-1.000000", 0xBF800000u}, UnsignedCase{".5", 0x3F000000u},
        UnsignedCase{"5.", 0x40A00000u}, UnsignedCase{"0.0", 0u},
        UnsignedCase{"-0.0", 0x80000000u}, UnsignedCase{"1e3", 0x447A0000u},
        UnsignedCase{"1.5E-1", 0x3E19999Au},
        UnsignedCase{"2.5e+1", 0x41C80000u}, UnsignedCase{"1e", std::nullopt},
        UnsignedCase{"1e+", std::nullopt}, UnsignedCase{"e5", std::nullopt},
        UnsignedCase{".", std::nullopt}, UnsignedCase{"1.2.3", std::nullopt},
        UnsignedCase{"1e5.0", std::nullopt}, UnsignedCase{"1.0f", std::nullopt},
        UnsignedCase{"0x1p3", std::nullopt},
        // strtof would take these; fxc never prints them.
        UnsignedCase{"nan", std::nullopt}, UnsignedCase{"inf", std::nullopt},
        UnsignedCase{"-inf", std::nullopt},
        UnsignedCase{"infinity", std::nullopt}));

// fxc's MSVC spellings of the special values (spec 3.1, 3DM strToDWORD).
INSTANTIATE_TEST_SUITE_P(
    FxcSpecials, ParseLiteralTest,
    ::testing::Values(UnsignedCase{"1.#INF00", 0x7F800000u},
                      UnsignedCase{"-1.#INF00", 0xFF800000u},
                      UnsignedCase{"1.#INF", 0x7F800000u},
                      UnsignedCase{"1.#INF000000", 0x7F800000u},
                      UnsignedCase{"1.#QNAN0", 0x7FC00000u},
                      UnsignedCase{"-1.#QNAN0", 0xFFC00000u},
                      UnsignedCase{"1.#QNAN", 0x7FC00000u},
                      UnsignedCase{"-1.#IND00", 0xFFC00000u},
                      UnsignedCase{"1.#IND", 0x7FC00000u},
                      UnsignedCase{"1.#SNAN0", 0x7F800001u},
                      UnsignedCase{"1.#INFXYZ", std::nullopt},
                      UnsignedCase{"1.#INF00 ", std::nullopt},
                      UnsignedCase{"1.#QNAN0x", std::nullopt},
                      UnsignedCase{"1.#IN", std::nullopt},
                      UnsignedCase{"1.#", std::nullopt},
                      UnsignedCase{"2.#INF00", std::nullopt},
                      UnsignedCase{"1.#inf00", std::nullopt},
                      UnsignedCase{"#INF", std::nullopt},
                      UnsignedCase{"--1.#INF00", std::nullopt}));

// ---- FormatLiteral -------------------------------------------------------

struct FormatCase {
  uint32_t value;
  const char* text;
};

class FormatLiteralTest : public TestWithParam<FormatCase> {};

TEST_P(FormatLiteralTest, FormatsAndParsesBack) {
  EXPECT_EQ(FormatLiteral(GetParam().value), GetParam().text);
  EXPECT_EQ(ParseLiteral(GetParam().text), GetParam().value);
}

// Decimal while |s32| < 2^16, lower-case 8-digit hex beyond.
INSTANTIATE_TEST_SUITE_P(
    Boundaries, FormatLiteralTest,
    ::testing::Values(FormatCase{0, "0"}, FormatCase{1, "1"},
                      FormatCase{65535, "65535"},
                      FormatCase{65536, "0x00010000"},
                      FormatCase{0xFFFFFFFFu, "-1"},
                      FormatCase{0xFFFF0001u, "-65535"},
                      FormatCase{0xFFFF0000u, "0xffff0000"},
                      FormatCase{0x7FFFFFFFu, "0x7fffffff"},
                      FormatCase{0x80000000u, "0x80000000"},
                      FormatCase{0x3F000000u, "0x3f000000"},
                      FormatCase{0xDEADBEEFu, "0xdeadbeef"}));

TEST(FormatLiteralTest, EveryFormattedValueParsesBack) {
  // A spread of patterns: around the thresholds, powers of two, and a
  // multiplicative walk over the whole range.
  uint32_t v = 1;
  for (int i = 0; i < 20000; ++i) {
    for (uint32_t x :
         {v, static_cast<uint32_t>(i), static_cast<uint32_t>(65536 - i),
          static_cast<uint32_t>(-65536 + i),
          static_cast<uint32_t>(0x80000000u + i)}) {
      ASSERT_EQ(ParseLiteral(FormatLiteral(x)), x) << FormatLiteral(x);
    }
    v = v * 2654435761u + 1;
  }
}

// ---- TextCursor ----------------------------------------------------------

TEST(TextCursorTest, ColumnsAreOneBasedAndSkipSpaceTabAndCr) {
  TextCursor cur(" \t\rabc");
  EXPECT_EQ(cur.col(), 1);
  EXPECT_EQ(cur.Peek(), 'a');
  EXPECT_EQ(cur.col(), 4);
  EXPECT_EQ(cur.pos(), 3u);
  EXPECT_FALSE(cur.AtEnd());
}

TEST(TextCursorTest, AtEndIgnoresTrailingSpace) {
  TextCursor cur("  \t \r");
  EXPECT_TRUE(cur.AtEnd());
  EXPECT_EQ(cur.Peek(), '\0');
  TextCursor empty("");
  EXPECT_TRUE(empty.AtEnd());
  EXPECT_EQ(empty.col(), 1);
}

TEST(TextCursorTest, ConsumeTakesOnlyTheGivenChar) {
  TextCursor cur("  , )");
  EXPECT_FALSE(cur.Consume(')'));
  EXPECT_TRUE(cur.Consume(','));
  EXPECT_TRUE(cur.Consume(')'));
  EXPECT_FALSE(cur.Consume(')'));
  EXPECT_TRUE(cur.AtEnd());
}

TEST(TextCursorTest, ConsumeWordNeedsAWordBoundary) {
  TextCursor cur("anything any(");
  EXPECT_FALSE(cur.ConsumeWord("any"));  // "anything" is not "any"
  EXPECT_EQ(cur.col(), 1);
  EXPECT_TRUE(cur.ConsumeWord("anything"));
  EXPECT_TRUE(cur.ConsumeWord("any"));  // '(' ends the word
  EXPECT_TRUE(cur.Consume('('));
  TextCursor tail("any");
  EXPECT_TRUE(tail.ConsumeWord("any"));
  EXPECT_TRUE(tail.AtEnd());
}

TEST(TextCursorTest, ReadIdentifier) {
  TextCursor cur("  _a1_b2.x 9z");
  EXPECT_EQ(cur.ReadIdentifier(), "_a1_b2");
  EXPECT_TRUE(cur.Consume('.'));
  EXPECT_EQ(cur.ReadIdentifier(), "x");
  EXPECT_EQ(cur.ReadIdentifier(), "");  // a digit cannot start one
  EXPECT_EQ(cur.col(), 12);
}

TEST(TextCursorTest, ReadNumberTextStopsAtDelimiters) {
  TextCursor cur("-1.#QNAN0, 0x10) 1..3]4[5}6{7(8\t9");
  EXPECT_EQ(cur.ReadNumberText(), "-1.#QNAN0");
  EXPECT_TRUE(cur.Consume(','));
  EXPECT_EQ(cur.ReadNumberText(), "0x10");
  EXPECT_TRUE(cur.Consume(')'));
  EXPECT_EQ(cur.ReadNumberText(), "1..3");
  EXPECT_TRUE(cur.Consume(']'));
  EXPECT_EQ(cur.ReadNumberText(), "4");
  EXPECT_TRUE(cur.Consume('['));
  EXPECT_EQ(cur.ReadNumberText(), "5");
  EXPECT_TRUE(cur.Consume('}'));
  EXPECT_EQ(cur.ReadNumberText(), "6");
  EXPECT_TRUE(cur.Consume('{'));
  EXPECT_EQ(cur.ReadNumberText(), "7");
  EXPECT_TRUE(cur.Consume('('));
  EXPECT_EQ(cur.ReadNumberText(), "8");
  EXPECT_EQ(cur.ReadNumberText(), "9");
  EXPECT_EQ(cur.ReadNumberText(), "");
}

TEST(TextCursorTest, RestIsTrimmedAndEndsTheLine) {
  TextCursor cur("key =  a # b \t\r");
  EXPECT_EQ(cur.ReadIdentifier(), "key");
  EXPECT_TRUE(cur.Consume('='));
  EXPECT_EQ(cur.Rest(), "a # b");
  EXPECT_TRUE(cur.AtEnd());
  EXPECT_EQ(cur.Rest(), "");
}

TEST(TextCursorTest, FoundDescribesTheNextToken) {
  EXPECT_EQ(TextCursor("").Found(), "end of line");
  EXPECT_EQ(TextCursor("   ").Found(), "end of line");
  EXPECT_EQ(TextCursor(" r0.xyzw, r1").Found(), "'r0.xyzw'");
  EXPECT_EQ(TextCursor("-1.#QNAN0)").Found(), "'-1.#QNAN0'");
  EXPECT_EQ(TextCursor(", r1").Found(), "','");
  EXPECT_EQ(TextCursor("'x").Found(), "'\\x27'");
  EXPECT_EQ(TextCursor(std::string("\0a", 2)).Found(), "'\\x00'");
  EXPECT_EQ(TextCursor("\xc3\xa9t\xc3\xa9").Found(), "'\\xc3'");
}

TEST(TextCursorTest, FoundDoesNotMoveTheCursor) {
  TextCursor cur("  abc");
  EXPECT_EQ(cur.Found(), "'abc'");
  EXPECT_EQ(cur.ReadIdentifier(), "abc");
}

TEST(TextCursorTest, IdentifierCharacters) {
  EXPECT_TRUE(IsIdentStart('a'));
  EXPECT_TRUE(IsIdentStart('Z'));
  EXPECT_TRUE(IsIdentStart('_'));
  EXPECT_FALSE(IsIdentStart('0'));
  EXPECT_FALSE(IsIdentStart('#'));
  EXPECT_FALSE(IsIdentStart('\xc3'));
  EXPECT_TRUE(IsIdentChar('0'));
  EXPECT_TRUE(IsIdentChar('_'));
  EXPECT_FALSE(IsIdentChar('.'));
  EXPECT_FALSE(IsIdentChar('-'));
  EXPECT_FALSE(IsIdentChar('\0'));
}

}  // namespace
}  // namespace atomfuzz::isa
