#include "isa/dxbc.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "isa/dxbc_bytes.h"
#include "isa/dxbc_container.h"
#include "isa/dxbc_signature.h"
#include "isa/dxbc_tokens.h"

namespace atomfuzz::isa {
namespace {

// Version token: program type 5 (compute) in [31:16], major and minor as
// nibbles in [7:4] and [3:0] (spec 4.1, E-43).
constexpr uint32_t kComputeType = 5;
constexpr uint32_t kPixelType = 0;
constexpr uint32_t kCs50Version = kComputeType << 16 | 5 << 4 | 0;
constexpr uint32_t kPs50Version = kPixelType << 16 | 5 << 4 | 0;

absl::StatusOr<Program> DecodeShex(const DxbcChunk& chunk) {
  const size_t base = chunk.data_offset;
  if (chunk.data.size() < 8 || chunk.data.size() % 4 != 0) {
    return DxbcError(base - 4, 0,
                     "a SHEX size that is a multiple of 4, at least 8",
                     absl::StrCat(chunk.data.size()));
  }
  std::vector<uint32_t> tokens(chunk.data.size() / 4);
  for (size_t i = 0; i < tokens.size(); ++i) {
    tokens[i] = LoadLe32(chunk.data, 4 * i);
  }
  if (tokens[0] != kCs50Version && tokens[0] != kPs50Version) {
    return DxbcError(base, 0,
                     "the version token 0x00050050 (cs_5_0) or 0x00000050 "
                     "(ps_5_0)",
                     absl::StrFormat("0x%08x", tokens[0]));
  }
  if (tokens[1] != tokens.size()) {
    return DxbcError(base + 4, 0,
                     absl::StrFormat("a length token equal to the chunk's %d "
                                     "DWORDs (spec 4.1)",
                                     tokens.size()),
                     absl::StrCat(tokens[1]));
  }
  Program program;
  program.stage = tokens[0] == kPs50Version ? Stage::kPixel : Stage::kCompute;
  size_t at = 2;
  while (at < tokens.size()) {
    const TokenPosition where{
        base + 4 * at, static_cast<int>(program.instructions.size()) + 1};
    if (program.instructions.size() >= kMaxInstructions) {
      return DxbcError(
          where.byte_offset, where.instr,
          absl::StrCat("at most ", kMaxInstructions, " instructions"), "more");
    }
    absl::StatusOr<DecodedInstruction> d =
        DecodeInstruction(absl::MakeConstSpan(tokens).subspan(at), where);
    if (!d.ok()) return d.status();
    program.instructions.push_back(std::move(d->inst));
    at += d->length;
  }
  return program;
}

std::vector<uint8_t> WordsToBytes(const std::vector<uint32_t>& words) {
  std::vector<uint8_t> bytes;
  bytes.reserve(4 * words.size());
  for (uint32_t w : words) AppendLe32(bytes, w);
  return bytes;
}

}  // namespace

absl::StatusOr<std::vector<uint32_t>> EncodeShex(const Program& program) {
  if (program.major != 5 || program.minor != 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "cannot encode %s_%d_%d as DXBC: only the 5_0 models",
        StagePrefix(program.stage), program.major, program.minor));
  }
  std::vector<uint32_t> tokens = {program.pixel() ? kPs50Version : kCs50Version,
                                  0};
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    absl::Status s = EncodeInstruction(program.instructions[i], tokens);
    if (!s.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("instruction ", i + 1, ": ", s.message()));
    }
  }
  tokens[1] = static_cast<uint32_t>(tokens.size());
  return tokens;
}

absl::StatusOr<std::vector<uint8_t>> EncodeDxbc(const Program& program) {
  absl::StatusOr<std::vector<uint32_t>> shex = EncodeShex(program);
  if (!shex.ok()) return shex.status();
  const std::vector<uint8_t> inputs = InputSignatureChunk(program);
  const std::vector<uint8_t> outputs = EmptySignatureChunk();
  const std::vector<uint8_t> code = WordsToBytes(*shex);
  // Spec 5.2: the order fxc uses once reflection is stripped.
  const DxbcChunk chunks[] = {{kFourCcIsgn, inputs, 0},
                              {kFourCcOsgn, outputs, 0},
                              {kFourCcShex, code, 0}};
  return WriteDxbcContainer(chunks);
}

absl::StatusOr<Program> DecodeDxbc(absl::Span<const uint8_t> bytes) {
  absl::StatusOr<std::vector<DxbcChunk>> chunks = ParseDxbcContainer(bytes);
  if (!chunks.ok()) return chunks.status();
  for (const DxbcChunk& chunk : *chunks) {
    if (chunk.fourcc == kFourCcShex || chunk.fourcc == kFourCcShdr) {
      return DecodeShex(chunk);
    }
  }
  return absl::InternalError(
      "ParseDxbcContainer let a container without "
      "SHEX or SHDR through");
}

}  // namespace atomfuzz::isa
