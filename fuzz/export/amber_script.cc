#include "fuzz/export/amber_script.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "isa/printer.h"
#include "targets/vulkan/spirv_compiler.h"
#include "targets/vulkan/spirv_disassembly.h"

namespace atomfuzz::fuzz {
namespace {

void Comment(std::string& out, absl::string_view text) {
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!line.empty()) absl::StrAppend(&out, "# ", line, "\n");
  }
}

std::string BufferName(uint32_t slot, bool counter) {
  return absl::StrCat("u", slot, counter ? "_counter" : "");
}

// Amber reads buffer data by its type: signed views as int32.
absl::string_view DataType(const isa::Resource& r) {
  return r.kind == isa::ResourceKind::kTyped &&
                 r.format == isa::Format::kR32Sint
             ? "int32"
             : "uint32";
}

std::string Value(const isa::Resource& r, uint32_t v) {
  return DataType(r) == "int32" ? absl::StrCat(static_cast<int32_t>(v))
                                : absl::StrCat(v);
}

void Expect(std::string& out, const isa::Resource& r, const ReproCheck& k) {
  const std::string name = BufferName(k.slot, k.counter);
  const uint32_t first = k.counter ? 0 : k.first;
  const uint32_t last = k.counter ? 0 : k.last;
  if (k.values.size() == 1) {
    std::vector<std::string> values(last - first + 1, Value(r, k.values[0]));
    absl::StrAppend(&out, "EXPECT ", name, " IDX ", first * 4, " EQ ",
                    absl::StrJoin(values, " "), "\n");
    return;
  }
  const bool run = k.values.back() - k.values.front() + 1 == k.values.size();
  const bool sint = DataType(r) == "int32";
  // GE/LE compare as the buffer's type: a set that crosses the sign bit
  // of a signed view would not be a range there.
  const bool ordered = !sint || (static_cast<int32_t>(k.values.front()) <=
                                 static_cast<int32_t>(k.values.back()));
  absl::StrAppend(&out, "# ", name,
                  k.counter ? "" : absl::StrCat("[", first, "..", last, "]"),
                  " is one of {", absl::StrJoin(k.values, ", "), "}",
                  run && ordered ? "" : ": checked as its bounds only", "\n");
  if (!ordered) return;
  for (uint32_t w = first; w <= last; ++w) {
    absl::StrAppend(&out, "EXPECT ", name, " IDX ", w * 4, " GE ",
                    Value(r, k.values.front()), "\nEXPECT ", name, " IDX ",
                    w * 4, " LE ", Value(r, k.values.back()), "\n");
  }
}

}  // namespace

absl::StatusOr<std::string> AmberScript(const isa::Case& c,
                                        const ReproData& data,
                                        absl::Span<const uint32_t> spirv,
                                        bool ssbo) {
  for (const ReproUav& u : data.uavs) {
    const isa::Resource& r = *u.resource;
    if (u.declared && r.kind == isa::ResourceKind::kTyped &&
        r.dim != isa::Dim::kBuffer) {
      return absl::FailedPreconditionError(absl::StrCat(
          "u", r.slot,
          " is a typed texture, which an Amber script cannot fill with "
          "data; export --format=vulkan-c instead"));
    }
  }
  absl::StatusOr<std::string> assembly =
      targets::vulkan::DisassembleSpirv(spirv);
  if (!assembly.ok()) return assembly.status();
  std::string out = "#!amber\n";
  Comment(out, absl::StrCat("atomfuzz reproducer (amber) of ",
                            c.file.empty() ? "a case" : c.file));
  for (const std::string& line : c.description) Comment(out, line);
  for (const auto& [key, value] : c.metadata)
    Comment(out, absl::StrCat("  ", key, " = ", value));
  Comment(out, "Run: amber -d THIS_FILE (Amber checks every EXPECT)");
  if (!data.unchecked.empty())
    Comment(out, absl::StrCat("Nothing is checked: ", data.unchecked));
  Comment(out,
          "The shader in fxc assembly; below, the SPIR-V vkd3d-shader "
          "made of it:");
  Comment(out, isa::Print(c.shader));
  absl::StrAppend(&out, "\nSHADER compute atomfuzz_shader SPIRV-ASM\n",
                  *assembly, "END\n\n");
  const absl::string_view type = ssbo ? "storage" : "storage_texel_buffer";
  std::string binds;
  for (const ReproUav& u : data.uavs) {
    if (!u.declared) continue;
    const isa::Resource& r = *u.resource;
    absl::StrAppend(&out, "BUFFER ", BufferName(r.slot, false), " DATA_TYPE ",
                    DataType(r), " DATA\n");
    for (size_t i = 0; i < r.init.size(); i += 8) {
      std::vector<std::string> row;
      for (size_t k = i; k < r.init.size() && k < i + 8; ++k)
        row.push_back(Value(r, r.init[k]));
      absl::StrAppend(&out, absl::StrJoin(row, " "), "\n");
    }
    out += "END\n";
    absl::StrAppend(&binds, "  BIND BUFFER ", BufferName(r.slot, false), " AS ",
                    type, " DESCRIPTOR_SET 0 BINDING ", r.slot, "\n");
    if (u.has_counter) {
      absl::StrAppend(&out, "BUFFER ", BufferName(r.slot, true),
                      " DATA_TYPE uint32 DATA\n", r.counter.value_or(0),
                      "\nEND\n");
      absl::StrAppend(&binds, "  BIND BUFFER ", BufferName(r.slot, true),
                      " AS ", type, " DESCRIPTOR_SET 0 BINDING ",
                      targets::vulkan::kCounterBindingBase + r.slot, "\n");
    }
  }
  absl::StrAppend(&out, "\nPIPELINE compute atomfuzz_pipeline\n",
                  "  ATTACH atomfuzz_shader\n", binds, "END\n\n",
                  "RUN atomfuzz_pipeline ", c.groups[0], " ", c.groups[1], " ",
                  c.groups[2], "\n\n");
  for (const ReproCheck& k : data.checks) {
    for (const ReproUav& u : data.uavs) {
      if (u.resource->slot != k.slot) continue;
      // Words of an unbound UAV never change; nor do they exist for Amber.
      if (u.declared && (!k.counter || u.has_counter))
        Expect(out, *u.resource, k);
    }
  }
  return out;
}

}  // namespace atomfuzz::fuzz
