// ParseCase: the reading half of case_file.h.
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "isa/assembler.h"
#include "isa/case_file.h"
#include "isa/diagnostics.h"
#include "isa/raster.h"
#include "isa/spelling.h"
#include "isa/text_cursor.h"

namespace atomfuzz::isa {
namespace {

constexpr absl::string_view kSectionList =
    "a section: [metadata], [dispatch], [draw], [uav u#], [shader], "
    "[expect u#] or [expect returns]";

// One item of a `data` line, expanded once the resource's size is known.
struct DataItem {
  uint32_t start = 0, step = 0;
  uint64_t count = 1;
  int line = 0, col = 0;
};

struct PendingResource {
  Resource res;
  // Each key seen, with its line and column for messages about it.
  std::map<std::string, std::pair<int, int>, std::less<>> keys;
  std::vector<DataItem> data;
  bool failed = false;  // a value was malformed: the shape is unknown
  int size_line = 0, size_col = 0;
  int size_count = 0;
};

class CaseReader {
 public:
  CaseReader(absl::string_view text, absl::string_view file)
      : text_(text), sink_(std::string(file)) {}

  absl::StatusOr<Case> Read();

 private:
  // kSkip: the body of a section whose header was rejected (already
  // reported; its lines would only repeat the error).
  enum class Section {
    kNone,
    kSkip,
    kMetadata,
    kDispatch,
    kDraw,
    kUav,
    kShader,
    kExpectUav,
    kExpectReturns
  };

  void Error(TextCursor& cur, std::string expected) {
    sink_.Error(line_, cur.col(), std::move(expected), cur.Found());
  }
  bool StartSection(TextCursor& cur);
  void ReadLine(TextCursor& cur);
  void ReadMetadata(TextCursor& cur);
  void ReadDispatch(TextCursor& cur);
  void ReadDraw(TextCursor& cur);
  std::optional<std::array<int32_t, 2>> Vertex(TextCursor& cur);
  void ReadUavKey(TextCursor& cur);
  void ReadUavValue(TextCursor& cur, absl::string_view key);
  void ReadExpectUav(TextCursor& cur);
  void ReadExpectReturn(TextCursor& cur);
  bool CheckShape(const PendingResource& p);
  void FinishResource();
  void FinishShader();
  bool ExpectEnd(TextCursor& cur);

  std::optional<uint32_t> Unsigned(TextCursor& cur, absl::string_view what);
  std::optional<uint32_t> Literal(TextCursor& cur);
  bool UnsignedList(TextCursor& cur, int min, int max,
                    std::vector<uint32_t>& out, absl::string_view what);
  std::optional<ValueSet> Value(TextCursor& cur);
  std::optional<DataItem> Item(TextCursor& cur);

  absl::string_view text_;
  DiagnosticSink sink_;
  Case case_;
  int line_ = 0;
  Section section_ = Section::kNone;
  bool seen_dispatch_ = false, seen_shader_ = false;
  std::set<std::string, std::less<>> seen_sections_;
  std::optional<PendingResource> pending_;
  uint32_t expect_slot_ = 0;
  bool expect_counter_seen_ = false;
  std::vector<absl::string_view> shader_lines_;
  int shader_first_line_ = 0;
};

absl::StatusOr<Case> CaseReader::Read() {
  case_.file = sink_.file();
  for (absl::string_view raw : absl::StrSplit(text_, '\n')) {
    ++line_;
    TextCursor cur(raw);
    const bool header = !raw.empty() && raw[0] == '[';
    if (section_ == Section::kShader && !header) {
      shader_lines_.push_back(raw);
      continue;
    }
    if (cur.AtEnd()) continue;
    if (cur.Peek() == '#') {
      if (section_ == Section::kNone) {
        absl::string_view rest = raw.substr(raw.find('#') + 1);
        while (!rest.empty() && rest.back() == '\r') rest.remove_suffix(1);
        case_.description.emplace_back(rest);
      }
      continue;
    }
    if (cur.Peek() == '[') {
      if (!StartSection(cur)) section_ = Section::kSkip;
      continue;
    }
    ReadLine(cur);
  }
  if (section_ == Section::kUav) FinishResource();
  if (section_ == Section::kShader) FinishShader();
  if (!seen_shader_) {
    sink_.Error(line_, 1, "a [shader] section", "end of file");
  }
  std::sort(
      case_.resources.begin(), case_.resources.end(),
      [](const Resource& a, const Resource& b) { return a.slot < b.slot; });
  std::stable_sort(case_.expect_words.begin(), case_.expect_words.end(),
                   [](const WordExpectation& a, const WordExpectation& b) {
                     return a.slot < b.slot;
                   });
  std::stable_sort(case_.expect_counters.begin(), case_.expect_counters.end(),
                   [](const CounterExpectation& a,
                      const CounterExpectation& b) { return a.slot < b.slot; });
  if (!sink_.empty()) return sink_.ToStatus();
  return std::move(case_);
}

bool CaseReader::StartSection(TextCursor& cur) {
  if (section_ == Section::kUav) FinishResource();
  if (section_ == Section::kShader) FinishShader();
  cur.Consume('[');
  const int name_col = cur.col();
  const absl::string_view name = cur.ReadIdentifier();
  std::string key(name);  // canonical, for duplicates: "uav u1"
  Section next = Section::kNone;
  uint32_t slot = 0;
  if (name == "metadata") {
    next = Section::kMetadata;
  } else if (name == "dispatch") {
    next = Section::kDispatch;
  } else if (name == "draw") {
    next = Section::kDraw;
  } else if (name == "shader") {
    next = Section::kShader;
  } else if (name == "uav" || name == "expect") {
    const int arg_col = cur.col();
    const absl::string_view arg = cur.ReadIdentifier();
    if (name == "expect" && arg == "returns") {
      next = Section::kExpectReturns;
    } else {
      // u and a decimal number, as for registers (u00 is u0; u0x1 is no slot).
      const bool digits =
          arg.size() > 1 && arg[0] == 'u' &&
          arg.find_first_not_of("0123456789", 1) == absl::string_view::npos;
      auto n = digits ? ParseUnsigned(arg.substr(1)) : std::nullopt;
      if (!n || *n > kMaxUavSlot) {
        sink_.Error(line_, arg_col,
                    name == "uav" ? "a UAV slot u0..u63"
                                  : "a UAV slot u0..u63 or 'returns'",
                    arg.empty() ? cur.Found() : Quote(arg));
        return false;
      }
      slot = *n;
      next = name == "uav" ? Section::kUav : Section::kExpectUav;
    }
    absl::StrAppend(
        &key, " ",
        next == Section::kExpectReturns ? "returns" : absl::StrCat("u", slot));
  } else {
    sink_.Error(line_, name_col, std::string(kSectionList),
                name.empty() ? cur.Found() : Quote(name));
    return false;
  }
  // A header with a missing ']' or junk after it is still recognisable:
  // report it and read the section.
  if (!cur.Consume(']')) {
    Error(cur, "']'");
  } else {
    ExpectEnd(cur);
  }
  if (!seen_sections_.insert(key).second) {
    sink_.Error(line_, 1, absl::StrCat("one [", key, "] section"),
                "a second one");
    return false;
  }
  section_ = next;
  switch (next) {
    case Section::kUav:
      pending_.emplace();
      pending_->res.slot = slot;
      pending_->res.line = line_;
      break;
    case Section::kExpectUav:
      expect_slot_ = slot;
      expect_counter_seen_ = false;
      break;
    case Section::kShader:
      seen_shader_ = true;
      shader_first_line_ = line_ + 1;
      break;
    case Section::kDispatch:
      seen_dispatch_ = true;
      case_.dispatch_line = line_;
      break;
    case Section::kDraw: case_.draw_line = line_; break;
    default: break;
  }
  return true;
}

void CaseReader::ReadLine(TextCursor& cur) {
  switch (section_) {
    case Section::kNone: Error(cur, std::string(kSectionList)); return;
    case Section::kSkip: return;
    case Section::kMetadata: return ReadMetadata(cur);
    case Section::kDispatch: return ReadDispatch(cur);
    case Section::kDraw: return ReadDraw(cur);
    case Section::kUav: return ReadUavKey(cur);
    case Section::kExpectUav: return ReadExpectUav(cur);
    case Section::kExpectReturns: return ReadExpectReturn(cur);
    case Section::kShader: return;  // collected in Read()
  }
}

bool CaseReader::ExpectEnd(TextCursor& cur) {
  if (cur.AtEnd() || cur.Peek() == '#') return true;
  Error(cur, "end of line");
  return false;
}

void CaseReader::ReadMetadata(TextCursor& cur) {
  const absl::string_view key = cur.ReadIdentifier();
  if (key.empty()) return Error(cur, "a metadata key (letters, digits, _)");
  if (!cur.Consume('=')) return Error(cur, "'=' after the key");
  const absl::string_view value = cur.Rest();
  for (const auto& [k, v] : case_.metadata) {
    if (k == key) {
      sink_.Error(line_, 1, absl::StrCat("one '", key, "' key"),
                  "a second one");
      return;
    }
  }
  case_.metadata.emplace_back(std::string(key), std::string(value));
}

void CaseReader::ReadDispatch(TextCursor& cur) {
  if (!cur.ConsumeWord("groups")) return Error(cur, "'groups X, Y, Z'");
  std::vector<uint32_t> v;
  if (!UnsignedList(cur, 3, 3, v, "a group count")) return;
  if (!ExpectEnd(cur)) return;
  case_.groups = {v[0], v[1], v[2]};
}

// framebuffer W, H | samples N | triangle X Y, X Y, X Y
void CaseReader::ReadDraw(TextCursor& cur) {
  Draw& d = case_.draw;
  const int col = cur.col();
  const absl::string_view key = cur.ReadIdentifier();
  if (key == "framebuffer") {
    std::vector<uint32_t> v;
    if (!UnsignedList(cur, 2, 2, v, "a framebuffer side in pixels")) return;
    if (!ExpectEnd(cur)) return;
    d.width = v[0];
    d.height = v[1];
    return;
  }
  if (key == "samples") {
    auto n = Unsigned(cur, "a sample count");
    if (!n || !ExpectEnd(cur)) return;
    d.samples = *n;
    return;
  }
  if (key == "triangle") {
    Triangle t;
    t.line = line_;
    for (size_t i = 0; i < 3; ++i) {
      if (i > 0 && !cur.Consume(',')) return Error(cur, "',' and a vertex X Y");
      auto v = Vertex(cur);
      if (!v) return;
      t.v[i] = *v;
    }
    if (!ExpectEnd(cur)) return;
    d.triangles.push_back(t);
    return;
  }
  sink_.Error(line_, col,
              "'framebuffer W, H', 'samples N' or 'triangle X Y, X Y, X Y'",
              key.empty() ? cur.Found() : Quote(key));
}

// "X Y": two pixel coordinates, whole numbers of 1/256.
std::optional<std::array<int32_t, 2>> CaseReader::Vertex(TextCursor& cur) {
  std::array<int32_t, 2> v;
  for (size_t k = 0; k < 2; ++k) {
    cur.SkipSpace();
    const int col = cur.col();
    const absl::string_view text = cur.ReadNumberText();
    auto units = ParseCoordinate(text);
    if (!units) {
      sink_.Error(line_, col,
                  "a pixel coordinate (a decimal that is a whole number of "
                  "1/256, such as 3, -0.5 or 2.125)",
                  text.empty() ? cur.Found() : Quote(text));
      return std::nullopt;
    }
    v[k] = *units;
  }
  return v;
}

void CaseReader::ReadUavKey(TextCursor& cur) {
  PendingResource& p = *pending_;
  const int key_col = cur.col();
  const absl::string_view key = cur.ReadIdentifier();
  static constexpr absl::string_view kKeys[] = {"kind",     "words",   "stride",
                                                "elements", "dim",     "format",
                                                "size",     "counter", "data"};
  if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
    sink_.Error(line_, key_col,
                "a resource key: kind, words, stride, elements, dim, format, "
                "size, counter or data",
                key.empty() ? cur.Found() : Quote(key));
    return;
  }
  if (key != "data" &&
      !p.keys.emplace(std::string(key), std::pair(line_, key_col)).second) {
    sink_.Error(line_, key_col, absl::StrCat("one '", key, "' line"),
                "a second one");
    return;
  }
  const size_t errors = sink_.error_count();
  ReadUavValue(cur, key);
  if (sink_.error_count() != errors) {
    p.failed = true;  // checking the shape would only add confusing errors
    return;
  }
  ExpectEnd(cur);
}

void CaseReader::ReadUavValue(TextCursor& cur, absl::string_view key) {
  PendingResource& p = *pending_;
  Resource& r = p.res;
  if (key == "kind") {
    const int col = cur.col();
    const absl::string_view v = cur.ReadIdentifier();
    if (v == "raw")
      r.kind = ResourceKind::kRaw;
    else if (v == "structured")
      r.kind = ResourceKind::kStructured;
    else if (v == "typed")
      r.kind = ResourceKind::kTyped;
    else {
      sink_.Error(line_, col, "raw, structured or typed",
                  v.empty() ? cur.Found() : Quote(v));
      return;
    }
  } else if (key == "dim") {
    const int col = cur.col();
    const absl::string_view v = cur.ReadIdentifier();
    auto d = DimFromName(v);
    if (!d || TypedAddressWidth(*d) == 0) {
      sink_.Error(line_, col,
                  "a dimension: buffer, texture1d, texture1darray, texture2d, "
                  "texture2darray or texture3d",
                  v.empty() ? cur.Found() : Quote(v));
      return;
    }
    r.dim = *d;
  } else if (key == "format") {
    const int col = cur.col();
    const absl::string_view v = cur.ReadIdentifier();
    auto f = FormatFromName(v);
    if (!f) {
      sink_.Error(line_, col, "r32_uint, r32_sint or r32_float",
                  v.empty() ? cur.Found() : Quote(v));
      return;
    }
    r.format = *f;
  } else if (key == "size") {
    p.size_line = line_;
    p.size_col = cur.col();
    std::vector<uint32_t> v;
    if (!UnsignedList(cur, 1, 3, v, "an extent")) return;
    p.size_count = static_cast<int>(v.size());
    for (size_t i = 0; i < 3; ++i) r.size[i] = i < v.size() ? v[i] : 1;
  } else if (key == "data") {
    do {
      auto item = Item(cur);
      if (!item) return;
      p.data.push_back(*item);
    } while (cur.Consume(','));
  } else {
    auto v = Unsigned(cur, "an unsigned number");
    if (!v) return;
    if (key == "words")
      r.words = *v;
    else if (key == "stride")
      r.stride = *v;
    else if (key == "elements")
      r.elements = *v;
    else
      r.counter = *v;
  }
}

// Where `key` was written, or the [uav] header when it was not.
std::pair<int, int> KeyPosition(const PendingResource& p,
                                absl::string_view key) {
  auto it = p.keys.find(key);
  return it == p.keys.end() ? std::pair(p.res.line, 1) : it->second;
}

// The key whose value sets how many words a resource of this kind has.
absl::string_view SizeKey(ResourceKind kind) {
  switch (kind) {
    case ResourceKind::kRaw: return "words";
    case ResourceKind::kStructured: return "elements";
    case ResourceKind::kTyped: return "size";
  }
  return "kind";
}

bool CaseReader::CheckShape(const PendingResource& p) {
  const Resource& r = p.res;
  const int line = r.line;
  if (!p.keys.contains("kind")) {
    sink_.Error(line, 1, "a 'kind' line (raw, structured or typed)", "none");
    return false;
  }
  auto need = [&](absl::string_view key) {
    if (!p.keys.contains(key)) {
      sink_.Error(
          line, 1,
          absl::StrCat(key == "elements" ? "an '" : "a '", key, "' line for a ",
                       ResourceKindName(r.kind), " resource"),
          "none");
      return false;
    }
    return true;
  };
  auto forbid = [&](absl::string_view key) {
    if (auto it = p.keys.find(key); it != p.keys.end()) {
      sink_.Error(it->second.first, it->second.second,
                  absl::StrCat("no '", key, "' line for a ",
                               ResourceKindName(r.kind), " resource"),
                  absl::StrCat("'", key, "'"));
      return false;
    }
    return true;
  };
  switch (r.kind) {
    case ResourceKind::kRaw:
      return need("words") && forbid("stride") && forbid("elements") &&
             forbid("dim") && forbid("format") && forbid("size");
    case ResourceKind::kStructured:
      if (!(need("stride") && need("elements") && forbid("words") &&
            forbid("dim") && forbid("format") && forbid("size"))) {
        return false;
      }
      if (r.stride == 0 || r.stride % 4 != 0) {
        const auto [l, c] = KeyPosition(p, "stride");
        sink_.Error(l, c, "a stride that is a positive multiple of 4",
                    absl::StrCat(r.stride));
        return false;
      }
      return true;
    case ResourceKind::kTyped:
      if (!(need("dim") && need("format") && need("size") && forbid("words") &&
            forbid("stride") && forbid("elements"))) {
        return false;
      }
      if (p.size_count != TypedAddressWidth(r.dim)) {
        sink_.Error(p.size_line, p.size_col,
                    absl::StrCat(TypedAddressWidth(r.dim), " extents for ",
                                 DimName(r.dim)),
                    absl::StrCat(p.size_count));
        return false;
      }
      return true;
  }
  return false;
}

void CaseReader::FinishResource() {
  PendingResource p = std::move(*pending_);
  pending_.reset();
  if (p.failed || !CheckShape(p)) return;
  Resource& r = p.res;
  const uint64_t words = r.WordCount();
  if (words == 0) {
    // Direct3D creates no empty buffer or texture: no program binds one.
    const auto [l, c] = KeyPosition(p, SizeKey(r.kind));
    sink_.Error(l, c, "at least 1 word in a resource", "0");
    return;
  }
  if (words > kMaxResourceWords) {
    const auto [l, c] = KeyPosition(p, SizeKey(r.kind));
    sink_.Error(
        l, c,
        absl::StrCat("at most ", kMaxResourceWords, " words in one resource"),
        absl::StrCat(words));
    return;
  }
  r.init.assign(words, 0);
  uint64_t at = 0;
  for (const DataItem& item : p.data) {
    if (item.count > words - at) {
      sink_.Error(item.line, item.col,
                  absl::StrCat("data for at most ", words, " words"),
                  absl::StrCat("data for ", at + item.count, " or more"));
      return;
    }
    for (uint64_t i = 0; i < item.count; ++i) {
      r.init[at++] = item.start + static_cast<uint32_t>(i) * item.step;
    }
  }
  if (case_.FindResource(r.slot) == nullptr) {
    case_.resources.push_back(std::move(r));
  }
}

void CaseReader::FinishShader() {
  std::string text = absl::StrJoin(shader_lines_, "\n");
  shader_lines_.clear();
  if (auto program = AssembleInto(text, shader_first_line_, sink_)) {
    case_.shader = std::move(*program);
  }
}

void CaseReader::ReadExpectUav(TextCursor& cur) {
  const int line = line_;
  if (cur.ConsumeWord("counter")) {
    if (!cur.Consume('=')) return Error(cur, "'='");
    auto v = Value(cur);
    if (!v || !ExpectEnd(cur)) return;
    if (expect_counter_seen_) {
      sink_.Error(line_, 1, "one counter line", "a second one");
      return;
    }
    expect_counter_seen_ = true;
    case_.expect_counters.push_back({expect_slot_, *v, line});
    return;
  }
  if (!cur.ConsumeWord("word")) {
    return Error(cur,
                 "'word N = value', 'word A..B = value' or "
                 "'counter = value'");
  }
  // "N" or "A..B" (one token: '.' does not end a number).
  const int col = cur.col();
  const absl::string_view text = cur.ReadNumberText();
  const size_t dots = text.find("..");
  auto first = ParseUnsigned(text.substr(0, dots));
  auto last = dots == absl::string_view::npos
                  ? first
                  : ParseUnsigned(text.substr(dots + 2));
  if (!first || !last || *last < *first) {
    sink_.Error(line_, col, "a word index N or a range A..B with A <= B",
                text.empty() ? cur.Found() : Quote(text));
    return;
  }
  if (!cur.Consume('=')) return Error(cur, "'='");
  auto v = Value(cur);
  if (!v || !ExpectEnd(cur)) return;
  case_.expect_words.push_back({expect_slot_, *first, *last, *v, line});
}

void CaseReader::ReadExpectReturn(TextCursor& cur) {
  ReturnExpectation e;
  e.line = line_;
  if (!cur.ConsumeWord("atomic")) {
    return Error(cur,
                 "'atomic N group X, Y, Z thread X, Y, Z = value' or "
                 "'atomic N primitive P pixel X, Y sample S = value'");
  }
  auto n = Unsigned(cur, "an atomic number");
  if (!n) return;
  e.atomic = *n;
  // A compute thread by group and thread; a pixel invocation by primitive,
  // pixel and sample, kept as group (P, 0, 0) and thread (X, Y, S).
  bool group = false, thread = false, occurrence = false;
  bool primitive = false, pixel = false, sample = false;
  while (!cur.AtEnd() && cur.Peek() != '=') {
    const int col = cur.col();
    const absl::string_view word = cur.ReadIdentifier();
    std::vector<uint32_t> v;
    bool* seen = word == "group"        ? &group
                 : word == "thread"     ? &thread
                 : word == "occurrence" ? &occurrence
                 : word == "primitive"  ? &primitive
                 : word == "pixel"      ? &pixel
                 : word == "sample"     ? &sample
                                        : nullptr;
    const bool mixed =
        (seen == &group || seen == &thread)
            ? primitive || pixel || sample
            : (seen == &primitive || seen == &pixel || seen == &sample) &&
                  (group || thread);
    if (seen == nullptr || *seen || mixed) {
      sink_.Error(line_, col,
                  seen ? "each of group, thread (or primitive, pixel, sample) "
                         "and occurrence once"
                       : "group, thread, primitive, pixel, sample, "
                         "occurrence or '='",
                  word.empty() ? cur.Found() : Quote(word));
      return;
    }
    *seen = true;
    if (word == "occurrence" || word == "primitive" || word == "sample") {
      auto k = Unsigned(cur, word == "occurrence" ? "an occurrence count"
                             : word == "sample"   ? "a sample index"
                                                  : "a primitive index");
      if (!k) return;
      if (word == "occurrence") e.occurrence = *k;
      if (word == "primitive") e.group[0] = *k;
      if (word == "sample") e.thread[2] = *k;
      continue;
    }
    if (word == "pixel") {
      if (!UnsignedList(cur, 2, 2, v, "a pixel coordinate")) return;
      e.thread[0] = v[0];
      e.thread[1] = v[1];
      e.form = InvocationForm::kPixel;
      continue;
    }
    if (!UnsignedList(cur, 3, 3, v, "a coordinate")) return;
    (word == "group" ? e.group : e.thread) = {v[0], v[1], v[2]};
  }
  if (!thread && !pixel) {
    return Error(cur,
                 primitive || sample ? "'pixel X, Y'" : "'thread X, Y, Z'");
  }
  if (!cur.Consume('=')) return Error(cur, "'='");
  auto v = Value(cur);
  if (!v || !ExpectEnd(cur)) return;
  e.value = *v;
  case_.expect_returns.push_back(e);
}

std::optional<uint32_t> CaseReader::Unsigned(TextCursor& cur,
                                             absl::string_view what) {
  const int col = cur.col();
  const absl::string_view text = cur.ReadNumberText();
  auto v = ParseUnsigned(text);
  if (!v) {
    sink_.Error(line_, col, std::string(what),
                text.empty() ? cur.Found() : Quote(text));
  }
  return v;
}

std::optional<uint32_t> CaseReader::Literal(TextCursor& cur) {
  const int col = cur.col();
  const absl::string_view text = cur.ReadNumberText();
  auto v = ParseLiteral(text);
  if (!v) {
    sink_.Error(line_, col, "a 32-bit value (decimal, negative, 0x hex, float)",
                text.empty() ? cur.Found() : Quote(text));
  }
  return v;
}

bool CaseReader::UnsignedList(TextCursor& cur, int min, int max,
                              std::vector<uint32_t>& out,
                              absl::string_view what) {
  do {
    if (static_cast<int>(out.size()) == max) {
      Error(cur, absl::StrCat("at most ", max, " values"));
      return false;
    }
    auto v = Unsigned(cur, what);
    if (!v) return false;
    out.push_back(*v);
  } while (cur.Consume(','));
  if (static_cast<int>(out.size()) < min) {
    Error(cur, absl::StrCat("',' and ", min, " values in all"));
    return false;
  }
  return true;
}

std::optional<ValueSet> CaseReader::Value(TextCursor& cur) {
  ValueSet v;
  if (cur.ConsumeWord("any")) {
    v.kind = ValueSet::Kind::kAny;
    return v;
  }
  if (cur.Consume('{')) {
    v.kind = ValueSet::Kind::kOneOf;
    do {
      auto x = Literal(cur);
      if (!x) return std::nullopt;
      v.values.push_back(*x);
    } while (cur.Consume(','));
    if (!cur.Consume('}')) {
      Error(cur, "',' or '}'");
      return std::nullopt;
    }
    std::sort(v.values.begin(), v.values.end());
    v.values.erase(std::unique(v.values.begin(), v.values.end()),
                   v.values.end());
    return v;
  }
  auto x = Literal(cur);
  if (!x) return std::nullopt;
  v.kind = ValueSet::Kind::kExact;
  v.values = {*x};
  return v;
}

// N | fill(V, N) | ramp(START, STEP, N)
std::optional<DataItem> CaseReader::Item(TextCursor& cur) {
  DataItem item;
  item.line = line_;
  item.col = cur.col();
  const bool fill = cur.ConsumeWord("fill");
  const bool ramp = !fill && cur.ConsumeWord("ramp");
  if (!fill && !ramp) {
    auto v = Literal(cur);
    if (!v) return std::nullopt;
    item.start = *v;
    return item;
  }
  if (!cur.Consume('(')) {
    Error(cur, "'('");
    return std::nullopt;
  }
  auto start = Literal(cur);
  if (!start) return std::nullopt;
  item.start = *start;
  if (ramp) {
    if (!cur.Consume(',')) {
      Error(cur, "',' and the step");
      return std::nullopt;
    }
    auto step = Literal(cur);
    if (!step) return std::nullopt;
    item.step = *step;
  }
  if (!cur.Consume(',')) {
    Error(cur, "',' and a count");
    return std::nullopt;
  }
  auto count = Unsigned(cur, "a count");
  if (!count) return std::nullopt;
  item.count = *count;
  if (!cur.Consume(')')) {
    Error(cur, "')'");
    return std::nullopt;
  }
  return item;
}

}  // namespace

absl::StatusOr<Case> ParseCase(absl::string_view text, absl::string_view file) {
  return CaseReader(text, file).Read();
}

}  // namespace atomfuzz::isa
