// Round-trip properties of the text forms of isa/ (style guide 7.6): the
// printer undoes the assembler and PrintCase undoes ParseCase. Each helper
// returns an AssertionResult that says where the two sides part, e.g.
//   EXPECT_TRUE(testutil::ProgramRoundTrips(program));
#ifndef ATOMFUZZ_TESTS_TESTING_ROUND_TRIP_H_
#define ATOMFUZZ_TESTS_TESTING_ROUND_TRIP_H_

#include <algorithm>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "isa/assembler.h"
#include "isa/case_file.h"
#include "isa/printer.h"

namespace atomfuzz::testutil {

// "line N: 'a' vs 'b'" for the first line where two texts differ.
inline std::string FirstDifference(absl::string_view a, absl::string_view b) {
  const std::vector<absl::string_view> la = absl::StrSplit(a, '\n');
  const std::vector<absl::string_view> lb = absl::StrSplit(b, '\n');
  const size_t n = std::min(la.size(), lb.size());
  for (size_t i = 0; i < n; ++i) {
    if (la[i] != lb[i]) {
      return absl::StrCat("line ", i + 1, ": '", la[i], "' vs '", lb[i], "'");
    }
  }
  if (la.size() == lb.size()) return "no difference";
  return absl::StrCat("line ", n + 1, ": one text ends (", la.size(), " vs ",
                      lb.size(), " lines)");
}

// Assemble(Print(p)) == p.
inline ::testing::AssertionResult ProgramRoundTrips(const isa::Program& p) {
  const std::string text = isa::Print(p);
  const absl::StatusOr<isa::Program> back = isa::Assemble(text, "printed.asm");
  if (!back.ok()) {
    return ::testing::AssertionFailure()
           << "the printed program does not assemble: " << back.status()
           << "\n--- printed ---\n"
           << text;
  }
  if (!(*back == p)) {
    const std::string again = isa::Print(*back);
    return ::testing::AssertionFailure()
           << "print/assemble changed the program ("
           << FirstDifference(text, again) << ")\n--- printed ---\n"
           << text;
  }
  return ::testing::AssertionSuccess();
}

// `text` assembles, Print(Assemble(text)) is a fixed point of Print∘Assemble,
// and the program survives the round trip.
inline ::testing::AssertionResult AssemblyIsStable(absl::string_view text) {
  const absl::StatusOr<isa::Program> first = isa::Assemble(text, "t.asm");
  if (!first.ok()) {
    return ::testing::AssertionFailure()
           << "does not assemble: " << first.status();
  }
  const std::string printed = isa::Print(*first);
  const absl::StatusOr<isa::Program> second =
      isa::Assemble(printed, "printed.asm");
  if (!second.ok()) {
    return ::testing::AssertionFailure()
           << "the printed program does not assemble: " << second.status()
           << "\n--- printed ---\n"
           << printed;
  }
  const std::string again = isa::Print(*second);
  if (again != printed) {
    return ::testing::AssertionFailure()
           << "print is not a fixed point (" << FirstDifference(printed, again)
           << ")";
  }
  if (!(*second == *first)) {
    return ::testing::AssertionFailure()
           << "print/assemble changed the program\n--- printed ---\n"
           << printed;
  }
  return ::testing::AssertionSuccess();
}

// ParseCase(PrintCase(c)) == c, and PrintCase of that is the same text.
inline ::testing::AssertionResult CaseRoundTrips(const isa::Case& c) {
  const std::string text = isa::PrintCase(c);
  const absl::StatusOr<isa::Case> back = isa::ParseCase(text, "printed.case");
  if (!back.ok()) {
    return ::testing::AssertionFailure()
           << "the printed case does not parse: " << back.status()
           << "\n--- printed ---\n"
           << text;
  }
  const std::string again = isa::PrintCase(*back);
  if (!(*back == c)) {
    return ::testing::AssertionFailure()
           << "print/parse changed the case (" << FirstDifference(text, again)
           << ")\n--- printed ---\n"
           << text;
  }
  if (again != text) {
    return ::testing::AssertionFailure() << "PrintCase is not a fixed point ("
                                         << FirstDifference(text, again) << ")";
  }
  return ::testing::AssertionSuccess();
}

// `text` is a canonical case file: it parses, PrintCase gives it back byte
// for byte, and the parsed case round-trips.
inline ::testing::AssertionResult CaseTextIsCanonical(
    absl::string_view text, absl::string_view file = "t.case") {
  const absl::StatusOr<isa::Case> parsed = isa::ParseCase(text, file);
  if (!parsed.ok()) {
    return ::testing::AssertionFailure()
           << "does not parse: " << parsed.status();
  }
  const std::string printed = isa::PrintCase(*parsed);
  if (printed != text) {
    return ::testing::AssertionFailure()
           << "not canonical: PrintCase(ParseCase(text)) differs ("
           << FirstDifference(text, printed) << ")\n--- canonical form ---\n"
           << printed;
  }
  return CaseRoundTrips(*parsed);
}

}  // namespace atomfuzz::testutil

#endif  // ATOMFUZZ_TESTS_TESTING_ROUND_TRIP_H_
