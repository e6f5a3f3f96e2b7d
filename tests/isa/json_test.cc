#include "isa/json.h"

#include <string>

#include "gtest/gtest.h"

namespace atomfuzz::isa {
namespace {

TEST(JsonString, KeepsWellFormedUtf8AndEscapesTheRest) {
  EXPECT_EQ(JsonString("plain"), "\"plain\"");
  EXPECT_EQ(JsonString("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(JsonString("line\nbreak\t"), "\"line\\u000abreak\\u0009\"");
  EXPECT_EQ(JsonString("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"),
            "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
}

TEST(JsonString, ReplacesEachByteOfMalformedUtf8) {
  EXPECT_EQ(JsonString("a\xff"
                       "b"),
            "\"a\\ufffdb\"");
  // Overlong '/', a UTF-16 surrogate, past U+10FFFF, a cut sequence.
  EXPECT_EQ(JsonString("\xc0\xaf"), "\"\\ufffd\\ufffd\"");
  EXPECT_EQ(JsonString("\xed\xa0\x80"), "\"\\ufffd\\ufffd\\ufffd\"");
  EXPECT_EQ(JsonString("\xf4\x90\x80\x80"), "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");
  EXPECT_EQ(JsonString("\xe2\x82"), "\"\\ufffd\\ufffd\"");
  EXPECT_EQ(JsonString(std::string("\0", 1)), "\"\\u0000\"");
}

TEST(JsonNumber, NullWhenAbsent) {
  EXPECT_EQ(JsonNumber(std::nullopt), "null");
  EXPECT_EQ(JsonNumber(-3), "-3");
}

}  // namespace
}  // namespace atomfuzz::isa
