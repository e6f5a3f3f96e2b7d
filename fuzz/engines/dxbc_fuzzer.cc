// libFuzzer target for the DXBC decoder: any bytes give an error or a
// program, and every program must encode, decode back to itself, and print
// as text the assembler reads back unchanged; anything else aborts.
//
// The harness writes the input's length into the size field and the correct
// checksum before decoding (both when there is a header to hold them):
// libFuzzer cannot make MD5 match, and without this nearly every mutation
// would stop at the checksum. Those two checks have unit tests of their own
// (tests/isa/dxbc_malformed_test.cc).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "isa/assembler.h"
#include "isa/dxbc.h"
#include "isa/dxbc_bytes.h"
#include "isa/dxbc_checksum.h"
#include "isa/printer.h"

namespace {

[[noreturn]] void Fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "dxbc_fuzzer: %s\n%s\n", what, detail.c_str());
  std::abort();
}

void Reseal(std::vector<uint8_t>& bytes) {
  if (bytes.size() < 32) return;
  atomfuzz::isa::StoreLe32(bytes.data() + 24,
                           static_cast<uint32_t>(bytes.size()));
  const std::array<uint32_t, 4> sum = atomfuzz::isa::DxbcChecksum(bytes);
  for (size_t i = 0; i < 4; ++i) {
    atomfuzz::isa::StoreLe32(bytes.data() + 4 + 4 * i, sum[i]);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace atomfuzz::isa;  // NOLINT: one harness function
  std::vector<uint8_t> bytes(data, data + size);
  Reseal(bytes);
  absl::StatusOr<Program> program = DecodeDxbc(bytes);
  if (!program.ok()) {
    if (program.status().code() != absl::StatusCode::kInvalidArgument) {
      Fail("decoder error is not InvalidArgument", program.status().ToString());
    }
    return 0;
  }
  const std::string text = Print(*program);
  absl::StatusOr<std::vector<uint8_t>> again = EncodeDxbc(*program);
  if (!again.ok())
    Fail("decoded program does not encode", text + again.status().ToString());
  absl::StatusOr<Program> back = DecodeDxbc(*again);
  if (!back.ok())
    Fail("re-encoded program does not decode", text + back.status().ToString());
  if (!(*back == *program)) Fail("program changed by encode/decode", text);
  absl::StatusOr<Program> assembled = Assemble(text, "decoded.asm");
  if (!assembled.ok())
    Fail("printed program does not assemble",
         text + assembled.status().ToString());
  if (!(*assembled == *program))
    Fail("program changed by print/assemble", text);
  return 0;
}
