// Malformed assembly and case files: each gives exactly the expected
// messages, `file:line:col: expected X, found Y`, one line per error, with
// control and non-ASCII bytes quoted as \xNN.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "isa/assembler.h"
#include "isa/case_file.h"
#include "isa/diagnostics.h"
#include "isa/printer.h"
#include "tests/testing/round_trip.h"

namespace atomfuzz::isa {
namespace {

// A string literal with its embedded NULs.
template <size_t N>
std::string Bytes(const char (&text)[N]) {
  return std::string(text, N - 1);
}

enum Input { kAsm, kCase };

struct Malformed {
  const char* name;
  Input input;
  std::string text;
  std::string message;  // every diagnostic, one a line
};

// Parses `text` as `input`; the status says how that went.
absl::Status ParseAs(Input input, absl::string_view text) {
  if (input == kAsm) return Assemble(text, "t.asm").status();
  return ParseCase(text, "t.case").status();
}

class MalformedInputTest : public ::testing::TestWithParam<Malformed> {};

TEST_P(MalformedInputTest, GivesTheExactMessage) {
  const absl::Status status = ParseAs(GetParam().input, GetParam().text);
  ASSERT_FALSE(status.ok()) << "parsed without an error";
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), GetParam().message);
}

const Malformed kMalformed[] = {
    {"UnknownMnemonic", kAsm,
     Bytes("cs_5_0\n"
           "foo r0.x\n"),
     "t.asm:2:1: expected an instruction, found 'foo'"},
    {"MissingComma", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x l(1)\n"),
     "t.asm:2:10: expected ',' before operand 2 of mov, found 'l'"},
    {"ExtraOperand", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l(1), l(2)\n"),
     "t.asm:2:15: expected end of line (mov takes 2 operands), found ','"},
    {"TrailingComma", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l(1),\n"),
     "t.asm:2:15: expected end of line (mov takes 2 operands), found ','"},
    {"MissingOperand", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x,\n"),
     "t.asm:2:10: expected a source operand (r#, x#[], l(...), vThreadID..., "
     "v#), "
     "found end of line"},
    {"TooFewOperands", kAsm,
     Bytes("cs_5_0\n"
           "dcl_thread_group 1, 2\n"),
     "t.asm:2:22: expected ',' before operand 3 of dcl_thread_group, found end "
     "of line"},
    {"BadRegisterLetter", kAsm,
     Bytes("cs_5_0\n"
           "mov q0.x, l(1)\n"),
     "t.asm:2:5: expected a destination register (r#, x#[], null), found 'q0'"},
    {"RegisterWithoutNumber", kAsm,
     Bytes("cs_5_0\n"
           "mov r.x, l(1)\n"),
     "t.asm:2:5: expected a destination register (r#, x#[], null), found 'r'"},
    {"RegisterWithHexNumber", kAsm,
     Bytes("cs_5_0\n"
           "mov r0x1.x, l(1)\n"),
     "t.asm:2:5: expected a destination register (r#, x#[], null), found "
     "'r0x1'"},
    {"RegisterNumberTooLarge", kAsm,
     Bytes("cs_5_0\n"
           "mov r4294967296.x, l(1)\n"),
     "t.asm:2:5: expected a destination register (r#, x#[], null), found "
     "'r4294967296'"},
    {"MaskOutOfOrder", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.yx, l(1)\n"),
     "t.asm:2:8: expected a write mask (letters of xyzw in order), found 'yx'"},
    {"MaskRepeated", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.xx, l(1)\n"),
     "t.asm:2:8: expected a write mask (letters of xyzw in order), found 'xx'"},
    {"MissingMask", kAsm,
     Bytes("cs_5_0\n"
           "mov r0, l(1)\n"),
     "t.asm:2:7: expected '.' and a write mask, found ','"},
    {"TwoLetterSwizzle", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, r1.xy\n"),
     "t.asm:2:14: expected a swizzle of 4 letters or 1 selected component "
     "(xyzw), found 'xy'"},
    {"FiveLetterSwizzle", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, r1.xyzwx\n"),
     "t.asm:2:14: expected a swizzle of 4 letters or 1 selected component "
     "(xyzw), found 'xyzwx'"},
    {"SwizzleBadLetter", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, r1.xyzq\n"),
     "t.asm:2:14: expected a swizzle of 4 letters or 1 selected component "
     "(xyzw), found 'xyzq'"},
    {"SystemValueWithoutSwizzle", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, vThreadID\n"),
     "t.asm:2:20: expected '.' and a swizzle, found end of line"},
    {"LiteralWithTwoValues", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l(1, 2)\n"),
     "t.asm:2:11: expected 1 or 4 values in l(...), found 2 values"},
    {"LiteralWithFiveValues", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l(1, 2, 3, 4, 5)\n"),
     "t.asm:2:24: expected ')' after 4 values, found '5'"},
    {"EmptyLiteral", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l()\n"),
     "t.asm:2:13: expected a literal (decimal, 0x hex or float), found ')'"},
    {"UnterminatedLiteral", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l(1\n"),
     "t.asm:2:14: expected ',' or ')', found end of line"},
    {"HexOverflow", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l(0x100000000)\n"),
     "t.asm:2:13: expected a literal (decimal, 0x hex or float), found "
     "'0x100000000'"},
    {"DecimalBelowMinusTwoToThe31", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l(-2147483649)\n"),
     "t.asm:2:13: expected a literal (decimal, 0x hex or float), found "
     "'-2147483649'"},
    {"DecimalOverflow", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l(4294967296)\n"),
     "t.asm:2:13: expected a literal (decimal, 0x hex or float), found "
     "'4294967296'"},
    {"NotALiteral", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l(abc)\n"),
     "t.asm:2:13: expected a literal (decimal, 0x hex or float), found 'abc'"},
    {"BadSpecialFloat", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l(1.#INFXYZ)\n"),
     "t.asm:2:13: expected a literal (decimal, 0x hex or float), found "
     "'1.#INFXYZ'"},
    {"LiteralAsDestination", kAsm,
     Bytes("cs_5_0\n"
           "mov l(1), r0.x\n"),
     "t.asm:2:5: expected a destination register (r#, x#[], null), found 'l('"},
    {"MissingVersion", kAsm, Bytes("mov r0.x, l(1)\n"),
     "t.asm:1:1: expected 'cs_5_0' or 'ps_5_0' as the first line, found 'mov "
     "r0.x, l(1)'"},
    {"Cs40", kAsm,
     Bytes("cs_4_0\n"
           "ret\n"),
     "t.asm:1:1: expected 'cs_5_0' or 'ps_5_0' as the first line, found "
     "'cs_4_0'"},
    {"Cs51", kAsm,
     Bytes("// header\n"
           "cs_5_1\n"
           "ret\n"),
     "t.asm:2:1: expected 'cs_5_0' or 'ps_5_0' as the first line, found "
     "'cs_5_1'"},
    {"VersionWithJunk", kAsm, Bytes("cs_5_0 extra\n"),
     "t.asm:1:1: expected 'cs_5_0' or 'ps_5_0' as the first line, found "
     "'cs_5_0 extra'"},
    {"VersionTwice", kAsm,
     Bytes("cs_5_0\n"
           "cs_5_0\n"),
     "t.asm:2:1: expected an instruction, found 'cs_5_0'"},
    {"EmptyFile", kAsm, Bytes(""),
     "t.asm:1:1: expected 'cs_5_0' or 'ps_5_0' as the first line, found end of "
     "file"},
    {"OnlyComments", kAsm,
     Bytes("// Generated by fxc\n"
           "\n"),
     "t.asm:3:1: expected 'cs_5_0' or 'ps_5_0' as the first line, found end of "
     "file"},
    {"NulByte", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l(1)\x00\n"),
     "t.asm:2:15: expected end of line, found '\\x00'"},
    {"NulLine", kAsm,
     Bytes("cs_5_0\n"
           "\x00\n"),
     "t.asm:2:1: expected an instruction, found '\\x00'"},
    {"NonAsciiLine", kAsm,
     Bytes("cs_5_0\n"
           "\xc3\xa9t\xc3\xa9\n"),
     "t.asm:2:1: expected an instruction, found '\\xc3'"},
    {"NonAsciiLiteral", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, l(\xc3\xa9)\n"),
     "t.asm:2:13: expected a literal (decimal, 0x hex or float), found "
     "'\\xc3\\xa9'"},
    {"NonAsciiVersion", kAsm,
     Bytes("\xef\xbb\xbf"
           "cs_5_0\n"),
     "t.asm:1:1: expected 'cs_5_0' or 'ps_5_0' as the first line, found "
     "'\\xef'"},
    {"BadDimSuffix", kAsm,
     Bytes("cs_5_0\n"
           "dcl_uav_typed_texture4d (uint,uint,uint,uint) u0\n"),
     "t.asm:2:1: expected dcl_uav_typed_<dim>[_glc] with <dim> buffer, "
     "texture1d, texture1darray, texture2d, texture2darray or texture3d, found "
     "'dcl_uav_typed_texture4d'"},
    {"MissingDimSuffix", kAsm,
     Bytes("cs_5_0\n"
           "dcl_uav_typed (uint,uint,uint,uint) u0\n"),
     "t.asm:2:1: expected dcl_uav_typed_<dim>[_glc] with <dim> buffer, "
     "texture1d, texture1darray, texture2d, texture2darray or texture3d, found "
     "'dcl_uav_typed'"},
    {"RawBufferIsNoTypedDim", kAsm,
     Bytes("cs_5_0\n"
           "dcl_uav_typed_raw_buffer (uint,uint,uint,uint) u0\n"),
     "t.asm:2:1: expected dcl_uav_typed_<dim>[_glc] with <dim> buffer, "
     "texture1d, texture1darray, texture2d, texture2darray or texture3d, found "
     "'dcl_uav_typed_raw_buffer'"},
    {"ThreeTypes", kAsm,
     Bytes("cs_5_0\n"
           "dcl_uav_typed_buffer (uint,uint,uint) u0\n"),
     "t.asm:2:37: expected ',' and four component types, found ')'"},
    {"BadType", kAsm,
     Bytes("cs_5_0\n"
           "dcl_uav_typed_buffer (uint,bool,uint,uint) u0\n"),
     "t.asm:2:28: expected a component type (uint, sint, float, unorm, snorm, "
     "mixed), found 'bool'"},
    {"MissingTypeList", kAsm,
     Bytes("cs_5_0\n"
           "dcl_uav_typed_buffer u0\n"),
     "t.asm:2:22: expected '(' and four component types, found 'u0'"},
    {"BadGlobalFlag", kAsm,
     Bytes("cs_5_0\n"
           "dcl_globalFlags refactoringForbidden\n"),
     "t.asm:2:17: expected a global flag such as refactoringAllowed, found "
     "'refactoringForbidden'"},
    {"GlobalFlagsLeadingBar", kAsm,
     Bytes("cs_5_0\n"
           "dcl_globalFlags | refactoringAllowed\n"),
     "t.asm:2:17: expected a global flag such as refactoringAllowed, found "
     "'|'"},
    {"GlobalFlagsTrailingBar", kAsm,
     Bytes("cs_5_0\n"
           "dcl_globalFlags refactoringAllowed |\n"),
     "t.asm:2:37: expected a global flag such as refactoringAllowed, found end "
     "of line"},
    {"BadSyncSuffix", kAsm,
     Bytes("cs_5_0\n"
           "sync_g_t_t\n"),
     "t.asm:2:1: expected sync[_uglobal|_ugroup][_g][_t], found 'sync_g_t_t'"},
    {"SyncSuffixOutOfOrder", kAsm,
     Bytes("cs_5_0\n"
           "sync_t_g\n"),
     "t.asm:2:1: expected sync[_uglobal|_ugroup][_g][_t], found 'sync_t_g'"},
    {"BothUavScopes", kAsm,
     Bytes("cs_5_0\n"
           "sync_uglobal_ugroup\n"),
     "t.asm:2:1: expected sync[_uglobal|_ugroup][_g][_t], found "
     "'sync_uglobal_ugroup'"},
    {"OpcTwice", kAsm,
     Bytes("cs_5_0\n"
           "dcl_uav_structured_opc_opc u0, 4\n"),
     "t.asm:2:1: expected dcl_uav_structured[_glc][_opc], found "
     "'dcl_uav_structured_opc_opc'"},
    {"OpcOnRaw", kAsm,
     Bytes("cs_5_0\n"
           "dcl_uav_raw_opc u0\n"),
     "t.asm:2:1: expected dcl_uav_raw[_glc], found 'dcl_uav_raw_opc'"},
    {"SuffixOnAtomic", kAsm,
     Bytes("cs_5_0\n"
           "atomic_iadd_glc u0, r0.x, l(1)\n"),
     "t.asm:2:1: expected an instruction, found 'atomic_iadd_glc'"},
    {"AtomicTargetWithMask", kAsm,
     Bytes("cs_5_0\n"
           "atomic_iadd u0.x, r0.x, l(1)\n"),
     "t.asm:2:15: expected no component suffix on this operand, found '.'"},
    {"AtomicTargetIsTemp", kAsm,
     Bytes("cs_5_0\n"
           "atomic_iadd r0, r0.x, l(1)\n"),
     "t.asm:2:13: expected a u# or g# register, found 'r0'"},
    {"AllocOnTgsm", kAsm,
     Bytes("cs_5_0\n"
           "imm_atomic_alloc r0.x, g0\n"),
     "t.asm:2:24: expected a u# register, found 'g0'"},
    {"SourceIsUav", kAsm,
     Bytes("cs_5_0\n"
           "mov r0.x, u0.x\n"),
     "t.asm:2:11: expected a source operand (r#, x#[], l(...), vThreadID..., "
     "v#), "
     "found 'u0'"},
    {"NegativeNumber", kAsm,
     Bytes("cs_5_0\n"
           "dcl_temps -1\n"),
     "t.asm:2:10: expected an unsigned number, found '-1'"},
    {"IndexableWithoutBracket", kAsm,
     Bytes("cs_5_0\n"
           "mov x0.x, r1.x\n"),
     "t.asm:2:7: expected '[' after an x# register, found '.'"},
    {"RelativeIndexWithoutComponent", kAsm,
     Bytes("cs_5_0\n"
           "mov x0[r1 + 2].x, r1.x\n"),
     "t.asm:2:11: expected '.' and one component, found '+'"},
    {"RelativeIndexTwoComponents", kAsm,
     Bytes("cs_5_0\n"
           "mov x0[r1.xy + 2].x, r1.x\n"),
     "t.asm:2:11: expected one component letter (x, y, z, w), found 'xy'"},
    {"RelativeIndexMinus", kAsm,
     Bytes("cs_5_0\n"
           "mov x0[r1.x - 2].x, r1.x\n"),
     "t.asm:2:13: expected '+' or ']', found '-'"},
    {"UnclosedIndex", kAsm,
     Bytes("cs_5_0\n"
           "mov x0[3.x, r1.x\n"),
     "t.asm:2:8: expected an unsigned number, found '3.x'"},
    {"RelativeIndexInDeclaration", kAsm,
     Bytes("cs_5_0\n"
           "dcl_indexableTemp x0[r1.x + 2], 4\n"),
     "t.asm:2:22: expected a size, found 'r1'"},
    {"IndexableWithoutParens", kAsm,
     Bytes("cs_5_0\n"
           "ld_raw_indexable r0.x, l(0), u0.xxxx\n"),
     "t.asm:2:18: expected '(' after _indexable, found 'r0.x'"},
    {"StructuredWithoutStride", kAsm,
     Bytes("cs_5_0\n"
           "ld_structured_indexable(structured_buffer)(mixed,mixed,mixed,mixed)"
           " r0.x, l(0), l(0), u0.xxxx\n"),
     "t.asm:2:42: expected ', stride=N', found ')'"},
    {"BadResourceDim", kAsm,
     Bytes("cs_5_0\n"
           "ld_raw_indexable(raw_buf)(mixed,mixed,mixed,mixed) r0.x, l(0), "
           "u0.xxxx\n"),
     "t.asm:2:25: expected a resource dimension, found 'raw_buf'"},
    {"BadIndexableSuffix", kAsm,
     Bytes("cs_5_0\n"
           "ld_raw_foo r0.x, l(0), g0.xxxx\n"),
     "t.asm:2:1: expected ld_raw or ld_raw_indexable(...)(...), found "
     "'ld_raw_foo'"},
    {"DclInputNotASystemValue", kAsm,
     Bytes("cs_5_0\n"
           "dcl_input r0.x\n"),
     "t.asm:2:11: expected a system value (vThreadID, vThreadGroupID, "
     "vThreadIDInGroup, vThreadIDInGroupFlattened, vCoverage), found 'r0'"},
    {"DclInputMaskOutOfOrder", kAsm,
     Bytes("cs_5_0\n"
           "dcl_input vThreadID.yx\n"),
     "t.asm:2:21: expected a write mask (letters of xyzw in order), found "
     "'yx'"},
    {"NullWithMask", kAsm,
     Bytes("cs_5_0\n"
           "imul null.x, r0.x, r1.x, l(3)\n"),
     "t.asm:2:10: expected ',' before operand 2 of imul, found '.'"},
    {"EveryBadLineIsReported", kAsm,
     Bytes("cs_5_0\n"
           "foo\n"
           "mov r0.x, l(1)\n"
           "mov r0.yx, l(1)\n"
           "\n"
           "bar r0\n"
           "ret extra\n"),
     "t.asm:2:1: expected an instruction, found 'foo'\n"
     "t.asm:4:8: expected a write mask (letters of xyzw in order), found 'yx'\n"
     "t.asm:6:1: expected an instruction, found 'bar'\n"
     "t.asm:7:5: expected end of line, found 'extra'"},
    {"EmptyCase", kCase, Bytes(""),
     "t.case:1:1: expected a [shader] section, found end of file"},
    {"BadSection", kCase,
     Bytes("[bogus]\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:1:2: expected a section: [metadata], [dispatch], [draw], [uav "
     "u#], "
     "[shader], [expect u#] or [expect returns], found 'bogus'"},
    {"SectionWithoutName", kCase,
     Bytes("[]\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:1:2: expected a section: [metadata], [dispatch], [draw], [uav "
     "u#], "
     "[shader], [expect u#] or [expect returns], found ']'"},
    {"LineBeforeAnySection", kCase,
     Bytes("groups 1, 1, 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:1:1: expected a section: [metadata], [dispatch], [draw], [uav "
     "u#], "
     "[shader], [expect u#] or [expect returns], found 'groups'"},
    {"DuplicateSection", kCase,
     Bytes("[dispatch]\n"
           "groups 1, 1, 1\n"
           "[dispatch]\n"
           "groups 2, 1, 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:3:1: expected one [dispatch] section, found a second one"},
    {"DuplicateUavSpelledDifferently", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "words 1\n"
           "[uav u00]\n"
           "kind raw\n"
           "words 2\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:4:1: expected one [uav u0] section, found a second one"},
    {"DuplicateShader", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:4:1: expected one [shader] section, found a second one"},
    {"SlotAboveSixtyThree", kCase,
     Bytes("[uav u64]\n"
           "kind raw\n"
           "words 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:1:5: expected a UAV slot u0..u63, found 'u64'"},
    {"HexSlot", kCase,
     Bytes("[uav u0x1]\n"
           "kind raw\n"
           "words 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:1:5: expected a UAV slot u0..u63, found 'u0x1'"},
    {"BadExpectTarget", kCase,
     Bytes("[expect all]\n"
           "word 0 = 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:1:8: expected a UAV slot u0..u63 or 'returns', found 'all'"},
    {"HeaderWithJunk", kCase,
     Bytes("[dispatch] x\n"
           "groups 1, 2, 3\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:1:12: expected end of line, found 'x'"},
    {"HeaderWithoutBracket", kCase,
     Bytes("[dispatch\n"
           "groups 1, 2, 3\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:1:10: expected ']', found end of line"},
    {"MissingShader", kCase,
     Bytes("[dispatch]\n"
           "groups 1, 1, 1\n"),
     "t.case:3:1: expected a [shader] section, found end of file"},
    {"EmptyShader", kCase,
     Bytes("[dispatch]\n"
           "groups 1, 1, 1\n"
           "[shader]\n"),
     "t.case:4:1: expected 'cs_5_0' or 'ps_5_0' as the first line, found end "
     "of file"},
    {"ShaderErrorHasFileLine", kCase,
     Bytes("[dispatch]\n"
           "groups 1, 1, 1\n"
           "\n"
           "[shader]\n"
           "cs_5_0\n"
           "mov r0.yx, l(1)\n"
           "ret\n"),
     "t.case:6:8: expected a write mask (letters of xyzw in order), found "
     "'yx'"},
    {"GroupsWithTwoValues", kCase,
     Bytes("[dispatch]\n"
           "groups 1, 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:2:12: expected ',' and 3 values in all, found end of line"},
    {"GroupsWithFourValues", kCase,
     Bytes("[dispatch]\n"
           "groups 1, 1, 1, 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:2:16: expected at most 3 values, found '1'"},
    {"GroupsNegative", kCase,
     Bytes("[dispatch]\n"
           "groups -1, 1, 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:2:7: expected a group count, found '-1'"},
    {"DispatchWithoutGroups", kCase,
     Bytes("[dispatch]\n"
           "threads 1, 1, 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:2:1: expected 'groups X, Y, Z', found 'threads'"},
    {"UnknownResourceKey", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "words 1\n"
           "colour red\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:4:1: expected a resource key: kind, words, stride, elements, dim, "
     "format, size, counter or data, found 'colour'"},
    {"DuplicateResourceKey", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "kind raw\n"
           "words 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:3:1: expected one 'kind' line, found a second one"},
    {"BadKind", kCase,
     Bytes("[uav u0]\n"
           "kind weird\n"
           "words 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:2:5: expected raw, structured or typed, found 'weird'"},
    {"MissingKind", kCase,
     Bytes("[uav u0]\n"
           "words 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:1:1: expected a 'kind' line (raw, structured or typed), found "
     "none"},
    {"MissingWordsForRaw", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "data 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:1:1: expected a 'words' line for a raw resource, found none"},
    {"SizeOnRaw", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "words 4\n"
           "size 3\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:4:1: expected no 'size' line for a raw resource, found 'size'"},
    {"WordsOnStructured", kCase,
     Bytes("[uav u0]\n"
           "kind structured\n"
           "stride 4\n"
           "elements 2\n"
           "words 2\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:5:1: expected no 'words' line for a structured resource, found "
     "'words'"},
    {"MissingElements", kCase,
     Bytes("[uav u0]\n"
           "kind structured\n"
           "stride 4\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:1:1: expected an 'elements' line for a structured resource, found "
     "none"},
    {"StrideNotAMultipleOfFour", kCase,
     Bytes("[uav u0]\n"
           "kind structured\n"
           "stride 6\n"
           "elements 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:3:1: expected a stride that is a positive multiple of 4, found 6"},
    {"StrideZero", kCase,
     Bytes("[uav u0]\n"
           "kind structured\n"
           "stride 0\n"
           "elements 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:3:1: expected a stride that is a positive multiple of 4, found 0"},
    {"MissingFormat", kCase,
     Bytes("[uav u0]\n"
           "kind typed\n"
           "dim buffer\n"
           "size 4\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:1:1: expected a 'format' line for a typed resource, found none"},
    {"BadDim", kCase,
     Bytes("[uav u0]\n"
           "kind typed\n"
           "dim raw_buffer\n"
           "format r32_uint\n"
           "size 4\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:3:4: expected a dimension: buffer, texture1d, texture1darray, "
     "texture2d, texture2darray or texture3d, found 'raw_buffer'"},
    {"BadFormat", kCase,
     Bytes("[uav u0]\n"
           "kind typed\n"
           "dim buffer\n"
           "format r16_uint\n"
           "size 4\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:4:7: expected r32_uint, r32_sint or r32_float, found 'r16_uint'"},
    {"SizeCountMismatchingDim", kCase,
     Bytes("[uav u0]\n"
           "kind typed\n"
           "dim texture2d\n"
           "format r32_uint\n"
           "size 4\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:5:5: expected 2 extents for texture2d, found 1"},
    {"SizeWithFourExtents", kCase,
     Bytes("[uav u0]\n"
           "kind typed\n"
           "dim texture3d\n"
           "format r32_uint\n"
           "size 1, 2, 3, 4\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:5:14: expected at most 3 values, found '4'"},
    {"RawAboveWordCap", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "words 4194305\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:3:1: expected at most 4194304 words in one resource, found "
     "4194305"},
    {"TypedAboveWordCap", kCase,
     Bytes("[uav u0]\n"
           "kind typed\n"
           "dim texture3d\n"
           "format r32_uint\n"
           "size 4096, 4096, 4096\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:5:1: expected at most 4194304 words in one resource, found "
     "68719476736"},
    {"DataLongerThanResource", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "words 2\n"
           "data 1, 2, 3\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:4:11: expected data for at most 2 words, found data for 3 or "
     "more"},
    {"FillLongerThanResource", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "words 2\n"
           "data 1\n"
           "data fill(1, 5)\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:5:5: expected data for at most 2 words, found data for 6 or more"},
    {"BadDataItem", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "words 2\n"
           "data 1, x\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:4:9: expected a 32-bit value (decimal, negative, 0x hex, float), "
     "found 'x'"},
    {"FillWithoutCount", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "words 2\n"
           "data fill(1)\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:4:12: expected ',' and a count, found ')'"},
    {"RampWithoutStep", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "words 2\n"
           "data ramp(1)\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:4:12: expected ',' and the step, found ')'"},
    {"UnterminatedFill", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "words 2\n"
           "data fill(1, 2\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:4:15: expected ')', found end of line"},
    {"DataHexOverflow", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "words 2\n"
           "data 0x100000000\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:4:6: expected a 32-bit value (decimal, negative, 0x hex, float), "
     "found '0x100000000'"},
    {"UnterminatedValueSet", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[expect u0]\n"
           "word 0 = {1, 2\n"),
     "t.case:5:15: expected ',' or '}', found end of line"},
    {"EmptyValueSet", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[expect u0]\n"
           "word 0 = {}\n"),
     "t.case:5:11: expected a 32-bit value (decimal, negative, 0x hex, float), "
     "found '}'"},
    {"BadValueWord", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[expect u0]\n"
           "word 0 = anything\n"),
     "t.case:5:10: expected a 32-bit value (decimal, negative, 0x hex, float), "
     "found 'anything'"},
    {"ValueSetWithJunk", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[expect u0]\n"
           "word 0 = {1} 2\n"),
     "t.case:5:14: expected end of line, found '2'"},
    {"WordRangeBackwards", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[expect u0]\n"
           "word 3..1 = 1\n"),
     "t.case:5:5: expected a word index N or a range A..B with A <= B, found "
     "'3..1'"},
    {"WordWithoutEquals", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[expect u0]\n"
           "word 1 2\n"),
     "t.case:5:8: expected '=', found '2'"},
    {"TwoCounterLines", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[expect u0]\n"
           "counter = 1\n"
           "counter = 2\n"),
     "t.case:6:1: expected one counter line, found a second one"},
    {"UnknownExpectLine", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[expect u0]\n"
           "byte 0 = 1\n"),
     "t.case:5:1: expected 'word N = value', 'word A..B = value' or 'counter = "
     "value', found 'byte'"},
    {"ReturnWithoutThread", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[expect returns]\n"
           "atomic 0 group 0, 0, 0 = 1\n"),
     "t.case:5:24: expected 'thread X, Y, Z', found '='"},
    {"ReturnRepeatedKey", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[expect returns]\n"
           "atomic 0 thread 0, 0, 0 thread 1, 1, 1 = 1\n"),
     "t.case:5:25: expected each of group, thread (or primitive, pixel, "
     "sample) and occurrence once, found 'thread'"},
    {"ReturnUnknownKey", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[expect returns]\n"
           "atomic 0 thread 0, 0, 0 lane 3 = 1\n"),
     "t.case:5:25: expected group, thread, primitive, pixel, sample, "
     "occurrence or '=', found 'lane'"},
    {"ReturnWithoutAtomic", kCase,
     Bytes("[shader]\n"
           "cs_5_0\n"
           "ret\n"
           "[expect returns]\n"
           "thread 0, 0, 0 = 1\n"),
     "t.case:5:1: expected 'atomic N group X, Y, Z thread X, Y, Z = value' "
     "or 'atomic N primitive P pixel X, Y sample S = value', found 'thread'"},
    {"DuplicateMetadataKey", kCase,
     Bytes("[metadata]\n"
           "seed = 1\n"
           "seed = 2\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:3:1: expected one 'seed' key, found a second one"},
    {"MetadataWithoutKey", kCase,
     Bytes("[metadata]\n"
           "= 2\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:2:1: expected a metadata key (letters, digits, _), found '='"},
    {"MetadataWithoutEquals", kCase,
     Bytes("[metadata]\n"
           "seed 2\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:2:6: expected '=' after the key, found '2'"},
    {"NonAsciiMetadataKey", kCase,
     Bytes("[metadata]\n"
           "\xc3\xa9 = 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:2:1: expected a metadata key (letters, digits, _), found '\\xc3'"},
    {"NulInDispatch", kCase,
     Bytes("[dispatch]\n"
           "groups 1, 1, 1\x00\n"
           "[shader]\n"
           "cs_5_0\n"
           "ret\n"),
     "t.case:2:13: expected a group count, found '1\\x00'"},
    {"EveryErrorIsReported", kCase,
     Bytes("[uav u0]\n"
           "kind raw\n"
           "[dispatch]\n"
           "groups 1\n"
           "[shader]\n"
           "cs_5_0\n"
           "bad\n"
           "[expect u0]\n"
           "word x = 1\n"),
     "t.case:1:1: expected a 'words' line for a raw resource, found none\n"
     "t.case:4:9: expected ',' and 3 values in all, found end of line\n"
     "t.case:7:1: expected an instruction, found 'bad'\n"
     "t.case:9:5: expected a word index N or a range A..B with A <= B, found "
     "'x'"},

};

INSTANTIATE_TEST_SUITE_P(AssemblyAndCaseFiles, MalformedInputTest,
                         ::testing::ValuesIn(kMalformed),
                         [](const ::testing::TestParamInfo<Malformed>& info) {
                           return absl::StrCat(
                               info.param.input == kAsm ? "Asm" : "Case",
                               info.param.name);
                         });

TEST(MalformedInputTableTest, CoversBothFormats) {
  int asm_count = 0, case_count = 0;
  for (const Malformed& m : kMalformed)
    (m.input == kAsm ? asm_count : case_count)++;
  EXPECT_GE(asm_count, 30);
  EXPECT_GE(case_count, 30);
}

// ---- Rendering
// ---------------------------------------------------------------

TEST(DiagnosticsTest, RenderWithAndWithoutRule) {
  Diagnostic d{"f.asm", 3, 7, "X", "'Y'", ""};
  EXPECT_EQ(d.Render(), "f.asm:3:7: expected X, found 'Y'");
  d.rule = "E-24, spec 1.1";
  EXPECT_EQ(d.Render(), "f.asm:3:7: expected X, found 'Y' [E-24, spec 1.1]");
}

TEST(DiagnosticsTest, QuoteEscapesAndShortens) {
  EXPECT_EQ(Quote("abc"), "'abc'");
  EXPECT_EQ(Quote(""), "''");
  EXPECT_EQ(Quote(Bytes("a\x00\t'\x7f\xff")), "'a\\x00\\x09\\x27\\x7f\\xff'");
  EXPECT_EQ(Quote(std::string(41, 'z')),
            absl::StrCat("'", std::string(40, 'z'), "...'"));
  EXPECT_EQ(Quote(std::string(40, 'z')),
            absl::StrCat("'", std::string(40, 'z'), "'"));
}

TEST(DiagnosticsTest, LongTokensAreCutInMessages) {
  const std::string name(60, 'q');
  const absl::Status status = ParseAs(kAsm, absl::StrCat("cs_5_0\n", name));
  EXPECT_EQ(status.message(),
            absl::StrCat("t.asm:2:1: expected an instruction, found '",
                         std::string(40, 'q'), "...'"));
}

TEST(DiagnosticsTest, AtMostAHundredMessages) {
  std::string text = "cs_5_0\n";
  for (int i = 0; i < 150; ++i) text += "bad\n";
  const absl::Status status = ParseAs(kAsm, text);
  const std::vector<absl::string_view> lines =
      absl::StrSplit(status.message(), '\n');
  ASSERT_EQ(lines.size(), DiagnosticSink::kMaxDiagnostics);
  EXPECT_EQ(lines.back(), "t.asm:101:1: expected an instruction, found 'bad'");

  DiagnosticSink sink("f");
  for (int i = 0; i < 150; ++i) sink.Error(i, 1, "x", "y");
  EXPECT_EQ(sink.error_count(), 150u);
  EXPECT_EQ(sink.diagnostics().size(), DiagnosticSink::kMaxDiagnostics);
  EXPECT_FALSE(sink.empty());
  EXPECT_TRUE(DiagnosticSink("g").ToStatus().ok());
}

// ---- Any bytes
// -----------------------------------------------------------------

// A small deterministic mutator (no std:: distributions: their output is
// implementation-defined).
class Mutator {
 public:
  explicit Mutator(uint64_t seed) : state_(seed) {}
  uint32_t Next(uint32_t bound) {
    state_ = state_ * 6364136223846793005u + 1442695040888963407u;
    return static_cast<uint32_t>((state_ >> 33) % bound);
  }
  std::string Mutate(std::string text) {
    static constexpr char kBytes[] =
        " ,.()[]{}=#-_/\n\r\t0x19lurgvxyzw\0\xff\xc3";
    const uint32_t edits = 1 + Next(4);
    for (uint32_t e = 0; e < edits && !text.empty(); ++e) {
      const size_t at = Next(static_cast<uint32_t>(text.size()));
      const char c = kBytes[Next(sizeof(kBytes) - 1)];
      switch (Next(3)) {
        case 0: text[at] = c; break;
        case 1: text.insert(at, 1, c); break;
        default: text.erase(at, 1 + Next(8)); break;
      }
    }
    return text;
  }

 private:
  uint64_t state_;
};

// Every line of an error is "file:line:col: expected X, found Y".
::testing::AssertionResult WellFormedMessage(absl::string_view file,
                                             const absl::Status& status) {
  if (status.code() != absl::StatusCode::kInvalidArgument) {
    return ::testing::AssertionFailure() << "code " << status.code();
  }
  for (absl::string_view line : absl::StrSplit(status.message(), '\n')) {
    const std::vector<absl::string_view> parts =
        absl::StrSplit(line, absl::MaxSplits(':', 3));
    int n = 0;
    const bool ok = parts.size() == 4 && parts[0] == file &&
                    absl::SimpleAtoi(parts[1], &n) && n >= 1 &&
                    absl::SimpleAtoi(parts[2], &n) && n >= 1 &&
                    absl::StartsWith(parts[3], " expected ") &&
                    absl::StrContains(parts[3], ", found ");
    if (!ok) return ::testing::AssertionFailure() << "bad line: " << line;
  }
  return ::testing::AssertionSuccess();
}

constexpr absl::string_view kSeedCase =
    "# seed\n\n[metadata]\nseed = 1\n\n[dispatch]\ngroups 2, 1, 1\n\n"
    "[uav u0]\nkind structured\nstride 8\nelements 8\ncounter 0\n"
    "data 1, fill(2, 4), ramp(0, 4, 5)\n\n[uav u1]\nkind typed\n"
    "dim texture2d\nformat r32_uint\nsize 2, 2\n\n[shader]\ncs_5_0\n"
    "dcl_uav_structured_opc u0, 8\n"
    "dcl_uav_typed_texture2d (uint,uint,uint,uint) u1\n"
    "dcl_input vThreadID.xy\ndcl_temps 2\ndcl_indexableTemp x0[4], 4\n"
    "dcl_thread_group 2, 1, 1\n"
    "imm_atomic_alloc r0.x, u0\n"
    "imm_atomic_cmp_exch r1.y, u0, r0.xxxx, l(0x80000000), l(-1.#QNAN0)\n"
    "mov x0[r1.y + 1].x, l(0.5)\n"
    "atomic_umax u1, vThreadID.xyxx, x0[r0.x + 0].x\n"
    "sync_sat_uglobal_t\nret\n\n"
    "[expect u0]\nword 0..3 = {1, 2}\ncounter = any\n\n[expect returns]\n"
    "atomic 0 group 1, 0, 0 thread 1, 0, 0 occurrence 1 = 0\n";

// Mutated inputs give either a model that survives print -> parse, or clean
// messages: the parser_fuzzer's property, on a fixed sample.
TEST(AnyBytesTest, MutationsGiveAModelOrCleanMessages) {
  ASSERT_TRUE(ParseCase(kSeedCase, "seed.case").ok());  // fxc spellings
  Mutator m(20240627);
  int parsed_cases = 0, parsed_programs = 0;
  const size_t shader_at = kSeedCase.find("cs_5_0");
  const size_t shader_end = kSeedCase.find("\n\n[expect");
  const std::string seed_asm(
      kSeedCase.substr(shader_at, shader_end - shader_at + 1));
  for (int i = 0; i < 3000; ++i) {
    const std::string text = m.Mutate(std::string(kSeedCase));
    const absl::StatusOr<Case> c = ParseCase(text, "m.case");
    if (c.ok()) {
      ++parsed_cases;
      ASSERT_TRUE(testutil::CaseRoundTrips(*c)) << text;
    } else {
      ASSERT_TRUE(WellFormedMessage("m.case", c.status())) << text;
    }
    const std::string shader = m.Mutate(seed_asm);
    const absl::StatusOr<Program> p = Assemble(shader, "m.asm");
    if (p.ok()) {
      ++parsed_programs;
      ASSERT_TRUE(testutil::ProgramRoundTrips(*p)) << shader;
      ASSERT_TRUE(testutil::AssemblyIsStable(shader)) << shader;
    } else {
      ASSERT_TRUE(WellFormedMessage("m.asm", p.status())) << shader;
    }
  }
  // Both outcomes occur, so both branches were exercised.
  EXPECT_GT(parsed_cases, 0);
  EXPECT_LT(parsed_cases, 3000);
  EXPECT_GT(parsed_programs, 0);
  EXPECT_LT(parsed_programs, 3000);
}

TEST(AnyBytesTest, EveryByteValueAlone) {
  for (int b = 0; b < 256; ++b) {
    const std::string one(1, static_cast<char>(b));
    for (const std::string& text :
         {one, absl::StrCat("cs_5_0\n", one),
          absl::StrCat("cs_5_0\nmov r0.x, ", one),
          absl::StrCat("[shader]\ncs_5_0\n[expect u0]\nword 0 = ", one)}) {
      const absl::Status a = ParseAs(kAsm, text);
      if (!a.ok()) {
        EXPECT_TRUE(WellFormedMessage("t.asm", a)) << b;
      }
      const absl::Status c = ParseAs(kCase, text);
      if (!c.ok()) {
        EXPECT_TRUE(WellFormedMessage("t.case", c)) << b;
      }
    }
  }
}

}  // namespace
}  // namespace atomfuzz::isa
