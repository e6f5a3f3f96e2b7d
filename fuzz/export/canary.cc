#include "fuzz/export/canary.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "isa/assembler.h"
#include "isa/printer.h"
#include "isa/validator.h"

namespace atomfuzz::fuzz {

absl::StatusOr<WithCanary> AddCanary(const isa::Case& c) {
  WithCanary out{c, 0};
  while (out.slot < 8 && c.FindResource(out.slot) != nullptr) ++out.slot;
  if (out.slot == 8)
    return absl::FailedPreconditionError(
        "no free UAV slot below u8 for a canary");
  // In the text: after the shader model, its declaration; after the last
  // declaration, the store, so that every thread runs it first.
  std::vector<std::string> lines =
      absl::StrSplit(isa::Print(c.shader), '\n', absl::SkipEmpty());
  size_t body = 0;
  while (body < lines.size() &&
         (absl::StartsWith(absl::StripAsciiWhitespace(lines[body]), "dcl_") ||
          absl::StartsWith(absl::StripAsciiWhitespace(lines[body]), "cs_")))
    ++body;
  lines.insert(lines.begin() + static_cast<ptrdiff_t>(body),
               absl::StrFormat("store_raw u%u.x, l(0), l(0x%08x)", out.slot,
                               kCanaryValue));
  lines.insert(lines.begin() + 1, absl::StrCat("dcl_uav_raw u", out.slot));
  absl::StatusOr<isa::Program> program =
      isa::Assemble(absl::StrJoin(lines, "\n"), c.file);
  if (!program.ok()) return program.status();
  out.c.shader = *std::move(program);
  isa::Resource canary;
  canary.slot = out.slot;
  canary.kind = isa::ResourceKind::kRaw;
  canary.words = 1;
  canary.init = {0};
  out.c.resources.push_back(canary);
  std::sort(out.c.resources.begin(), out.c.resources.end(),
            [](const isa::Resource& a, const isa::Resource& b) {
              return a.slot < b.slot;
            });
  out.c.description.push_back(absl::StrFormat(
      "Added by atomfuzz export: u%u is a canary every thread stores "
      "0x%08x to first. The spec defines no other word of this case; a "
      "canary left 0 means the shader did not run.",
      out.slot, kCanaryValue));
  if (absl::Status valid = isa::Validate(out.c); !valid.ok()) return valid;
  return out;
}

}  // namespace atomfuzz::fuzz
