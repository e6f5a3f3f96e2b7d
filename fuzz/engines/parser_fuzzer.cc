// libFuzzer/AFL++ target for the case-file reader and the assembler: any
// bytes must give a clean error or a model, and every model must survive
// print -> parse unchanged (print(parse(t)) is a fixed point). Validation
// runs on every parsed case so its code is fuzzed too.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "absl/strings/string_view.h"
#include "isa/assembler.h"
#include "isa/case_file.h"
#include "isa/printer.h"
#include "isa/validator.h"

namespace {

[[noreturn]] void Fail(const char* what, const std::string& first,
                       const std::string& second) {
  std::fprintf(stderr,
               "parser_fuzzer: %s\n--- first ---\n%s\n--- second ---\n%s\n",
               what, first.c_str(), second.c_str());
  std::abort();
}

void CheckCase(absl::string_view text) {
  auto parsed = atomfuzz::isa::ParseCase(text, "fuzz.case");
  if (!parsed.ok()) return;
  (void)atomfuzz::isa::Validate(*parsed);
  const std::string printed = atomfuzz::isa::PrintCase(*parsed);
  auto reparsed = atomfuzz::isa::ParseCase(printed, "printed.case");
  if (!reparsed.ok()) {
    Fail("printed case does not parse", printed,
         std::string(reparsed.status().message()));
  }
  if (!(*reparsed == *parsed)) Fail("case changed by print/parse", printed, "");
  const std::string again = atomfuzz::isa::PrintCase(*reparsed);
  if (again != printed) Fail("case print is not a fixed point", printed, again);
}

void CheckAssembly(absl::string_view text) {
  auto program = atomfuzz::isa::Assemble(text, "fuzz.asm");
  if (!program.ok()) return;
  const std::string printed = atomfuzz::isa::Print(*program);
  auto reparsed = atomfuzz::isa::Assemble(printed, "printed.asm");
  if (!reparsed.ok()) {
    Fail("printed program does not assemble", printed,
         std::string(reparsed.status().message()));
  }
  if (!(*reparsed == *program))
    Fail("program changed by print/parse", printed, "");
  const std::string again = atomfuzz::isa::Print(*reparsed);
  if (again != printed)
    Fail("program print is not a fixed point", printed, again);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const absl::string_view text(reinterpret_cast<const char*>(data), size);
  CheckCase(text);
  CheckAssembly(text);
  return 0;
}
