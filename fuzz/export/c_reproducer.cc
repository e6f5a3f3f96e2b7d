#include "fuzz/export/c_reproducer.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "fuzz/export/templates.h"
#include "isa/printer.h"

namespace atomfuzz::fuzz {
namespace {

// One line of the header comment: nothing in it may end the comment.
std::string CommentLine(absl::string_view text) {
  std::string line = absl::StrReplaceAll(text, {{"*/", "* /"}, {"/*", "/ *"}});
  return line.empty() ? " *\n" : absl::StrCat(" * ", line, "\n");
}

std::string CommentLines(absl::string_view text, absl::string_view indent) {
  std::string out;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (line.empty()) continue;
    out += CommentLine(absl::StrCat(indent, line));
  }
  return out;
}

absl::string_view FormatName(CApi api) {
  switch (api) {
    case CApi::kVulkan: return "vulkan-c";
    case CApi::kD3d12: return "d3d12-c";
    case CApi::kD3d11: return "d3d11-c";
  }
  return "?";
}

// The DXBC container as little-endian words (its size is a multiple of 4).
std::vector<uint32_t> Words(absl::Span<const uint8_t> bytes) {
  std::vector<uint32_t> words((bytes.size() + 3) / 4, 0);
  for (size_t i = 0; i < bytes.size(); ++i)
    words[i / 4] |= uint32_t{bytes[i]} << (8 * (i % 4));
  return words;
}

}  // namespace

std::string FileStem(absl::string_view path) {
  absl::string_view base = path.substr(path.rfind('/') + 1);
  if (const size_t dot = base.rfind('.'); dot != absl::string_view::npos)
    base = base.substr(0, dot);
  return base.empty() ? std::string("repro") : std::string(base);
}

// Commands run where the reproducer is: they name its base name.
std::string CBuildCommand(CApi api, absl::string_view path) {
  const absl::string_view file = path.substr(path.rfind('/') + 1);
  const std::string out = FileStem(file);
  switch (api) {
    case CApi::kVulkan:
      return absl::StrCat("cc -std=c99 -O1 -o ", out, " ", file, " -lvulkan");
    case CApi::kD3d12:
      return absl::StrCat("cc -std=c11 -O1 -I/usr/include/vkd3d -o ", out, " ",
                          file, " -lvkd3d-utils -lvkd3d");
    case CApi::kD3d11:
      return absl::StrCat("x86_64-w64-mingw32-gcc -std=c11 -O1 -o ", out,
                          ".exe ", file, " -ld3d11 -ldxgi -ldxguid");
  }
  return "";
}

std::string CRunCommand(CApi api, absl::string_view path,
                        absl::string_view target) {
  const std::string out = FileStem(path);
  switch (api) {
    case CApi::kVulkan:
    case CApi::kD3d12: return absl::StrCat("./", out);
    case CApi::kD3d11:
      // Wine's D3D needs an X display; a new prefix must not stop to
      // offer Mono and Gecko.
      return absl::StrCat(
          target == "wine-d3d11-vk" ? "WINE_D3D_CONFIG=renderer=vulkan " : "",
          "WINEDEBUG=-all WINEDLLOVERRIDES=\"mscoree,mshtml=\" xvfb-run -a "
          "/usr/lib/wine/wine64 ",
          out, ".exe");
  }
  return "";
}

std::string CReproducer(CApi api, const isa::Case& c, const ReproData& data,
                        const CShader& shader, absl::string_view file,
                        absl::string_view target) {
  std::string out =
      absl::StrCat("/* atomfuzz reproducer (", FormatName(api), ") of ",
                   c.file.empty() ? "a case" : c.file, "\n");
  // (The first line may not hold a comment's end either.)
  out = absl::StrReplaceAll(out, {{"*/", "* /"}});
  out += " *\n";
  for (const std::string& line : c.description) out += CommentLine(line);
  if (!c.metadata.empty()) {
    out += " *\n * Where it comes from:\n";
    for (const auto& [key, value] : c.metadata)
      out += CommentLine(absl::StrCat("  ", key, " = ", value));
  }
  absl::StrAppend(
      &out, " *\n", CommentLine("Build and run:"),
      CommentLine(absl::StrCat("  ", CBuildCommand(api, file))),
      CommentLine(absl::StrCat("  ", CRunCommand(api, file, target))),
      CommentLine("It prints PASS (exit 0), or FAIL (exit 1) with "
                  "each word the spec does not"),
      CommentLine("allow and the values it allows; ERROR (exit 2) "
                  "where it cannot run."));
  if (!data.unchecked.empty())
    out += CommentLine(absl::StrCat("Nothing is checked: ", data.unchecked));
  absl::StrAppend(
      &out, " *\n",
      CommentLine(api == CApi::kVulkan
                      ? absl::StrCat("The shader, in fxc assembly; repro_spirv "
                                     "holds the SPIR-V vkd3d-shader made of "
                                     "it",
                                     shader.ssbo
                                         ? " (buffer UAVs as storage buffers):"
                                         : " (buffer UAVs as texel buffers):")
                      : "The shader, in fxc assembly; repro_dxbc holds its "
                        "DXBC container:"),
      CommentLines(isa::Print(c.shader), "  "));
  if (!shader.notes.empty())
    absl::StrAppend(&out, " *\n", CommentLines(shader.notes, ""));
  out += " */\n";
  if (api != CApi::kD3d11) out += "#define _POSIX_C_SOURCE 200809L\n";
  absl::StrAppend(&out, export_internal::k_repro_types_h, "\n",
                  CDataBlock(data));
  if (api == CApi::kVulkan) {
    absl::StrAppend(
        &out, CWordArray("repro_spirv", "REPRO_SPIRV_WORDS", shader.spirv),
        "#define REPRO_SSBO ", shader.ssbo ? 1 : 0, "\n");
  } else {
    absl::StrAppend(&out, CWordArray("repro_dxbc", "", Words(shader.dxbc)),
                    "#define REPRO_DXBC_BYTES ", shader.dxbc.size(), "\n");
  }
  absl::StrAppend(&out, "\n", export_internal::k_repro_check_c, "\n");
  switch (api) {
    case CApi::kVulkan: out += export_internal::k_vulkan_main_c; break;
    case CApi::kD3d12: out += export_internal::k_d3d12_main_c; break;
    case CApi::kD3d11: out += export_internal::k_d3d11_main_c; break;
  }
  return out;
}

}  // namespace atomfuzz::fuzz
