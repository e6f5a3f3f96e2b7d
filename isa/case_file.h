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

// A pixel case's draw (docs/case-format.md, [draw]): triangles in pixel
// coordinates over a framebuffer with no attachments. Vertices are kept
// in 1/256 pixel, the subpixel grid of the rasterizers we drive, so that a
// vertex means the same everywhere.
inline constexpr int32_t kSubpixelsPerPixel = 256;
inline constexpr uint32_t kMaxFramebufferSide = 64;
inline constexpr uint32_t kMaxTriangles = 16;
// Vertices lie within [-kVertexReach, kMaxFramebufferSide + kVertexReach]
// pixels: enough to hang off every edge, small for exact arithmetic.
inline constexpr int32_t kVertexReach = 64;

struct Triangle {
  // (x, y) per vertex, in 1/256 pixel; y grows downwards (D3D).
  std::array<std::array<int32_t, 2>, 3> v = {};
  int line = 0;  // not compared
  bool operator==(const Triangle& o) const { return v == o.v; }
};

struct Draw {
  uint32_t width = 0, height = 0;   // the framebuffer, in pixels
  uint32_t samples = 1;             // 1 or 4 (the standard patterns)
  std::vector<Triangle> triangles;  // primitive i is triangles[i]
  bool operator==(const Draw& o) const {
    return width == o.width && height == o.height && samples == o.samples &&
           triangles == o.triangles;
  }
};

// How an [expect returns] line named its invocation: a compute thread by
// group and thread, or a pixel invocation by primitive, pixel and sample
// (kept in group.x and thread, docs/case-format.md).
enum class InvocationForm : uint8_t { kThread, kPixel };

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
  InvocationForm form = InvocationForm::kThread;  // not compared
  int line = 0;
  bool operator==(const ReturnExpectation& o) const {
    return atomic == o.atomic && group == o.group && thread == o.thread &&
           occurrence == o.occurrence && value == o.value;
  }
};

struct Case {
  std::vector<std::string> description;  // header comment lines, without '#'
  std::vector<std::pair<std::string, std::string>> metadata;  // in file order
  std::array<uint32_t, 3> groups = {1, 1, 1};  // compute: [dispatch]
  Draw draw;                                   // pixel: [draw]
  std::vector<Resource> resources;             // sorted by slot
  Program shader;
  std::vector<WordExpectation> expect_words;
  std::vector<CounterExpectation> expect_counters;
  std::vector<ReturnExpectation> expect_returns;
  std::string file;       // where it was read from; not compared
  int dispatch_line = 0;  // of the [dispatch] header; not compared
  int draw_line = 0;      // of the [draw] header (0: none); not compared

  const Resource* FindResource(uint32_t slot) const;
  bool operator==(const Case& o) const {
    return description == o.description && metadata == o.metadata &&
           groups == o.groups && draw == o.draw && resources == o.resources &&
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

// Total threads of the dispatch (group size x group count), saturating; for
// a pixel case, a bound on its invocations (every pixel of the quads the
// framebuffer holds, per sample and triangle).
uint64_t ThreadCount(const Case& c);

absl::string_view ResourceKindName(ResourceKind k);
absl::string_view FormatName(Format f);
std::optional<Format> FormatFromName(absl::string_view name);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_CASE_FILE_H_
