#include "fuzz/export/reproducer_data.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/allowed_expectations.h"

namespace atomfuzz::fuzz {
namespace {

absl::string_view KindName(isa::ResourceKind k) {
  switch (k) {
    case isa::ResourceKind::kRaw: return "KIND_RAW";
    case isa::ResourceKind::kStructured: return "KIND_STRUCTURED";
    case isa::ResourceKind::kTyped: return "KIND_TYPED";
  }
  return "KIND_RAW";
}

absl::string_view DimName(const isa::Resource& r) {
  if (r.kind != isa::ResourceKind::kTyped) return "DIM_BUFFER";
  switch (r.dim) {
    case isa::Dim::kTexture1D: return "DIM_TEXTURE1D";
    case isa::Dim::kTexture2D: return "DIM_TEXTURE2D";
    case isa::Dim::kTexture3D: return "DIM_TEXTURE3D";
    case isa::Dim::kTexture1DArray: return "DIM_TEXTURE1DARRAY";
    case isa::Dim::kTexture2DArray: return "DIM_TEXTURE2DARRAY";
    default: return "DIM_BUFFER";
  }
}

absl::string_view FormatName(const isa::Resource& r) {
  if (r.kind != isa::ResourceKind::kTyped) return "FORMAT_R32_UINT";
  switch (r.format) {
    case isa::Format::kR32Uint: return "FORMAT_R32_UINT";
    case isa::Format::kR32Sint: return "FORMAT_R32_SINT";
    case isa::Format::kR32Float: return "FORMAT_R32_FLOAT";
  }
  return "FORMAT_R32_UINT";
}

std::vector<uint32_t> ValuesOf(const isa::ValueSet& v) { return v.values; }

}  // namespace

absl::StatusOr<ReproData> ReproDataOf(const isa::Case& c,
                                      absl::Span<const BoundSlot> bound) {
  ReproData d;
  d.name = c.file;
  d.groups = c.groups;
  for (const isa::Resource& r : c.resources) {
    ReproUav u;
    u.resource = &r;
    for (const BoundSlot& b : bound) {
      if (b.slot != r.slot) continue;
      u.declared = true;
      u.has_counter = b.counter;
    }
    d.uavs.push_back(u);
  }
  isa::Case expected = c;
  if (absl::Status s = ExpectWhatTheSpecAllows(expected); !s.ok()) return s;
  for (const isa::WordExpectation& w : expected.expect_words) {
    if (w.value.kind == isa::ValueSet::Kind::kAny) continue;
    d.checks.push_back({w.slot, false, w.first, w.last, ValuesOf(w.value)});
  }
  for (const isa::CounterExpectation& k : expected.expect_counters) {
    if (k.value.kind == isa::ValueSet::Kind::kAny) continue;
    d.checks.push_back({k.slot, true, 0, 0, ValuesOf(k.value)});
  }
  if (d.checks.empty() && expected.expect_words.empty() &&
      expected.expect_counters.empty()) {
    d.unchecked =
        "the spec defines no final word of this case (every word it "
        "touches may end as any value, or its run does not end)";
  }
  return d;
}

std::string CWordArray(absl::string_view name, absl::string_view count_macro,
                       absl::Span<const uint32_t> words) {
  std::string out = absl::StrCat("static const uint32_t ", name, "[] = {");
  for (size_t i = 0; i < words.size(); ++i) {
    absl::StrAppend(&out, i % 8 == 0 ? "\n   " : "",
                    absl::StrFormat(" 0x%08x,", words[i]));
  }
  if (words.empty()) out += "0 /* unused: C has no empty array */";
  absl::StrAppend(&out, "\n};\n");
  if (!count_macro.empty())
    absl::StrAppend(&out, "#define ", count_macro, " ", words.size(), "\n");
  return out;
}

std::string CStringLiteral(absl::string_view s) {
  std::string out = "\"";
  for (unsigned char ch : s) {
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += static_cast<char>(ch);
    } else if (ch >= 0x20 && ch < 0x7f && ch != '?') {  // '?': no trigraphs
      out += static_cast<char>(ch);
    } else {
      absl::StrAppendFormat(&out, "\\%03o", ch);
    }
  }
  return out + "\"";
}

std::string CDataBlock(const ReproData& d) {
  std::string out =
      absl::StrCat("#define REPRO_NAME ", CStringLiteral(d.name),
                   "\nstatic const unsigned repro_groups[3] = {", d.groups[0],
                   ", ", d.groups[1], ", ", d.groups[2], "};\n");
  for (size_t i = 0; i < d.uavs.size(); ++i) {
    absl::StrAppend(&out, CWordArray(absl::StrCat("repro_init_", i), "",
                                     d.uavs[i].resource->init));
  }
  out +=
      "static const struct repro_uav repro_uavs[] = {\n"
      "  /* slot, kind, dim, format, stride, elements, words, size, "
      "has_counter, counter, declared, init */\n";
  for (size_t i = 0; i < d.uavs.size(); ++i) {
    const ReproUav& u = d.uavs[i];
    const isa::Resource& r = *u.resource;
    absl::StrAppend(&out, "  {", r.slot, ", ", KindName(r.kind), ", ",
                    DimName(r), ", ", FormatName(r), ", ", r.stride, ", ",
                    r.elements, ", ", r.WordCount(), ", {", r.size[0], ", ",
                    r.size[1], ", ", r.size[2], "}, ", u.has_counter ? 1 : 0,
                    ", ", absl::StrFormat("0x%08x", r.counter.value_or(0)),
                    ", ", u.declared ? 1 : 0, ", repro_init_", i, "},\n");
  }
  if (d.uavs.empty()) out += "  {0} /* unused: C has no empty array */\n";
  absl::StrAppend(&out, "};\n#define REPRO_UAV_COUNT ", d.uavs.size(), "\n");
  for (size_t i = 0; i < d.checks.size(); ++i) {
    absl::StrAppend(&out, CWordArray(absl::StrCat("repro_allowed_", i), "",
                                     d.checks[i].values));
  }
  out +=
      "static const struct repro_check repro_checks[] = {\n"
      "  /* slot, is_counter, first word, last word, count, allowed values "
      "*/\n";
  for (size_t i = 0; i < d.checks.size(); ++i) {
    const ReproCheck& k = d.checks[i];
    absl::StrAppend(&out, "  {", k.slot, ", ", k.counter ? 1 : 0, ", ", k.first,
                    ", ", k.last, ", ", k.values.size(), ", repro_allowed_", i,
                    "},\n");
  }
  if (d.checks.empty()) out += "  {0} /* unused: C has no empty array */\n";
  absl::StrAppend(&out, "};\n#define REPRO_CHECK_COUNT ", d.checks.size(),
                  "\n");
  return out;
}

}  // namespace atomfuzz::fuzz
