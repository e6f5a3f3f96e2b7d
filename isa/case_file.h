// A test case: everything needed to run one dispatch anywhere, in one text
// file readable like vkd3d's .shader_test (docs/case-format.md).
#ifndef ATOMFUZZ_ISA_CASE_FILE_H_
#define ATOMFUZZ_ISA_CASE_FILE_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "isa/program.h"

namespace atomfuzz::isa {

enum class ResourceKind : uint8_t { kRaw, kStructured, kTyped };
// View formats (spec 1.1). Only the R32 integer formats allow atomics (E-24);
// r32_float is representable so that the validator can say so.
enum class Format : uint8_t { kR32Uint, kR32Sint, kR32Float };

// Caps that keep any input cheap to hold; far above what a GPU test needs.
inline constexpr uint32_t kMaxResourceWords = 1u << 22;  // 16 MiB
inline constexpr uint32_t kMaxUavSlot = 63;              // D3D11.1 (spec 1.1)

// A UAV bound to u#: the view is the resource (no offset into a larger one).
struct Resource {
  uint32_t slot = 0;
  ResourceKind kind = ResourceKind::kRaw;
  uint32_t words = 0;      // raw: size in 32-bit words
  uint32_t stride = 0;     // structured: bytes per structure
  uint32_t elements = 0;   // structured: structures in the view
  Dim dim = Dim::kBuffer;  // typed
  Format format = Format::kR32Uint;
  // typed extents: width, then height or array size, then depth or slices;
  // unused ones are 1.
  std::array<uint32_t, 3> size = {1, 1, 1};
  std::optional<uint32_t> counter;  // hidden counter (COUNTER/APPEND view)
  std::vector<uint32_t> init;       // exactly WordCount() words
  int line = 0;                     // of the [uav] header; not compared

  // Total 32-bit words of the view; 0 if the shape is invalid.
  uint64_t WordCount() const;
  bool operator==(const Resource& o) const {
    return slot == o.slot && kind == o.kind && words == o.words &&
           stride == o.stride && elements == o.elements && dim == o.dim &&
           format == o.format && size == o.size && counter == o.counter &&
           init == o.init;
  }
};

// An allowed value: exact, any (undefined allowed), or one of a set.
struct ValueSet {
  enum class Kind : uint8_t { kExact, kAny, kOneOf };
  Kind kind = Kind::kAny;
  std::vector<uint32_t> values;  // one for kExact, sorted for kOneOf
  bool Allows(uint32_t v) const;
  bool operator==(const ValueSet&) const = default;
};

struct WordExpectation {
  uint32_t slot = 0;
  uint32_t first = 0, last = 0;  // inclusive word range
  ValueSet value;
  int line = 0;
  bool operator==(const WordExpectation& o) const {
    return slot == o.slot && first == o.first && last == o.last &&
           value == o.value;
  }
};

struct CounterExpectation {
  uint32_t slot = 0;
  ValueSet value;
  int line = 0;
  bool operator==(const CounterExpectation& o) const {
    return slot == o.slot && value == o.value;
  }
};

// The value the `atomic`-th returning atomic of the shader (imm_atomic_*,
// alloc, consume; 0-based in program order) returns in one thread.
struct ReturnExpectation {
  uint32_t atomic = 0;
  std::array<uint32_t, 3> group = {0, 0, 0};
  std::array<uint32_t, 3> thread = {0, 0, 0};  // vThreadIDInGroup
  uint32_t occurrence = 0;  // dynamic execution count in that thread (loops)
  ValueSet value;
  int line = 0;
  bool operator==(const ReturnExpectation& o) const {
    return atomic == o.atomic && group == o.group && thread == o.thread &&
           occurrence == o.occurrence && value == o.value;
  }
};

struct Case {
  std::vector<std::string> description;  // header comment lines, without '#'
  std::vector<std::pair<std::string, std::string>> metadata;  // in file order
  std::array<uint32_t, 3> groups = {1, 1, 1};
  std::vector<Resource> resources;  // sorted by slot
  Program shader;
  std::vector<WordExpectation> expect_words;
  std::vector<CounterExpectation> expect_counters;
  std::vector<ReturnExpectation> expect_returns;
  std::string file;       // where it was read from; not compared
  int dispatch_line = 0;  // of the [dispatch] header; not compared

  const Resource* FindResource(uint32_t slot) const;
  bool operator==(const Case& o) const {
    return description == o.description && metadata == o.metadata &&
           groups == o.groups && resources == o.resources &&
           shader == o.shader && expect_words == o.expect_words &&
           expect_counters == o.expect_counters &&
           expect_returns == o.expect_returns;
  }
};

// Reads a case. Errors: InvalidArgument, every message
// "file:line:col: expected X, found Y".
absl::StatusOr<Case> ParseCase(absl::string_view text,
                               absl::string_view file = "<case>");
// Canonical text; ParseCase(PrintCase(c)) == c.
std::string PrintCase(const Case& c);
// `c` with each instruction's line (and the file name) as PrintCase(c)
// places it: generated and mutated cases have none (line 0), and verdicts
// and reports should point into the file that gets saved.
Case NumberedAsPrinted(const Case& c);

// Total threads of the dispatch (group size x group count), saturating.
uint64_t ThreadCount(const Case& c);

absl::string_view ResourceKindName(ResourceKind k);
absl::string_view FormatName(Format f);
std::optional<Format> FormatFromName(absl::string_view name);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_CASE_FILE_H_
