// Prints a libFuzzer/AFL++ dictionary of the tokens the parsers know, read
// from the opcode table and the spelling tables so it never drifts, plus
// edge values; parser_fuzzer and atomics_fuzzer share it.
#include <cstdio>
#include <string>

#include "isa/opcode_table.h"
#include "isa/program.h"
#include "isa/spelling.h"

namespace {

void Token(const std::string& t) {
  std::string escaped;
  for (char c : t) {
    if (c == '"' || c == '\\') {
      escaped += '\\';
      escaped += c;
    } else if (c < 0x20 || c > 0x7e) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned char>(c));
      escaped += hex;
    } else {
      escaped += c;
    }
  }
  std::printf("\"%s\"\n", escaped.c_str());
}

}  // namespace

int main() {
  using namespace atomfuzz::isa;
  for (const OpcodeInfo& row : AllOpcodes()) Token(std::string(row.mnemonic));
  for (uint8_t f = 0; f < 16; ++f) Token(SyncMnemonic(f));
  for (GlobalFlag f : kAllGlobalFlags) Token(std::string(GlobalFlagName(f)));
  for (Dim d : {Dim::kBuffer, Dim::kTexture1D, Dim::kTexture1DArray,
                Dim::kTexture2D, Dim::kTexture2DArray, Dim::kTexture3D,
                Dim::kRawBuffer, Dim::kStructuredBuffer}) {
    Token(std::string(DimName(d)));
  }
  for (const char* t : {"cs_5_0",
                        "_glc",
                        "_opc",
                        "_indexable",
                        "(uint,uint,uint,uint)",
                        "(sint,sint,sint,sint)",
                        "(mixed,mixed,mixed,mixed)",
                        "stride=",
                        "vThreadID",
                        "vThreadGroupID",
                        "vThreadIDInGroup",
                        "vThreadIDInGroupFlattened",
                        "null",
                        "l(",
                        ".xyzw",
                        ".x",
                        ".xxxx",
                        ".yxxx",
                        "r0",
                        "x0[",
                        "u0",
                        "g0",
                        "0x80000000",
                        "0xffffffff",
                        "-1",
                        "1.#INF00",
                        "-1.#QNAN0",
                        "0.500000",
                        "[metadata]",
                        "[dispatch]",
                        "[uav u0]",
                        "[shader]",
                        "[expect u0]",
                        "[expect returns]",
                        "groups",
                        "kind",
                        "raw",
                        "structured",
                        "typed",
                        "words",
                        "stride",
                        "elements",
                        "dim",
                        "format",
                        "size",
                        "counter",
                        "data",
                        "fill(",
                        "ramp(",
                        "r32_uint",
                        "r32_sint",
                        "r32_float",
                        "word",
                        "any",
                        "atomic",
                        "group",
                        "thread",
                        "occurrence",
                        "..",
                        " = ",
                        "\n",
                        "//"}) {
    Token(t);
  }
  // Operands and edge values for atomics_fuzzer's byte mutations (spec 6.A,
  // 6.B): the values atomics turn on, registers and selections.
  for (const char* t : {"l(0)",
                        "l(1)",
                        "l(-1)",
                        "l(0x7fffffff)",
                        "l(0x80000000)",
                        "l(0xffffffff)",
                        "l(0xfffffffc)",
                        "l(0, 0, 0, 0)",
                        "l(4)",
                        "l(3)",
                        "0x7fffffff",
                        "0x80000001",
                        "r1.x",
                        "r0.y",
                        "r2.w",
                        ".xyzx",
                        ".yxxx",
                        "vThreadIDInGroupFlattened.x",
                        "vThreadID.x",
                        "vThreadGroupID.x",
                        "dcl_temps 4",
                        "groups 1, 1, 1",
                        "dcl_thread_group 64, 1, 1",
                        "counter 0",
                        "counter 0xffffffff",
                        "words 4",
                        "stride 12",
                        "elements 4",
                        "[uav u1]",
                        "mutations"}) {
    Token(t);
  }
  return 0;
}
