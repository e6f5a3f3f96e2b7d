#include "targets/isolation/batch_wire.h"

#include "absl/strings/str_cat.h"
#include "targets/isolation/outcome_wire.h"

namespace atomfuzz::targets {
namespace {

constexpr char kOutcome = 'O';
constexpr char kError = 'E';

void PutU32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>(v >> (8 * i)));
}

void PutBlob(std::string& out, absl::string_view bytes) {
  PutU32(out, static_cast<uint32_t>(bytes.size()));
  out.append(bytes.data(), bytes.size());
}

bool GetU32(absl::string_view& in, uint32_t& v) {
  if (in.size() < 4) return false;
  v = 0;
  for (size_t i = 0; i < 4; ++i)
    v |= uint32_t{static_cast<uint8_t>(in[i])} << (8 * i);
  in.remove_prefix(4);
  return true;
}

bool GetBlob(absl::string_view& in, absl::string_view& blob) {
  uint32_t n = 0;
  if (!GetU32(in, n) || n > in.size()) return false;
  blob = in.substr(0, n);
  in.remove_prefix(n);
  return true;
}

absl::Status Bad(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("batch wire: ", what));
}

// A status code sent as one byte; anything odd is kInternal.
absl::StatusCode CodeFrom(uint8_t byte) {
  if (byte == 0 ||
      byte > static_cast<uint8_t>(absl::StatusCode::kUnauthenticated)) {
    return absl::StatusCode::kInternal;
  }
  return static_cast<absl::StatusCode>(byte);
}

}  // namespace

std::string EncodeBatchRequest(absl::Span<const isa::Case> cases) {
  std::string out;
  PutU32(out, static_cast<uint32_t>(cases.size()));
  for (const isa::Case& c : cases) PutBlob(out, isa::PrintCase(c));
  return out;
}

absl::StatusOr<std::vector<std::string>> DecodeBatchRequest(
    absl::string_view bytes) {
  uint32_t n = 0;
  if (!GetU32(bytes, n) || n > kMaxWireBatch) return Bad("bad case count");
  std::vector<std::string> texts;
  for (uint32_t i = 0; i < n; ++i) {
    absl::string_view text;
    if (!GetBlob(bytes, text))
      return Bad(absl::StrCat("case ", i, " is truncated"));
    texts.emplace_back(text);
  }
  if (!bytes.empty()) return Bad(absl::StrCat(bytes.size(), " trailing bytes"));
  return texts;
}

std::string EncodeBatchResults(
    absl::Span<const absl::StatusOr<isa::Outcome>> results) {
  std::string out;
  PutU32(out, static_cast<uint32_t>(results.size()));
  for (const absl::StatusOr<isa::Outcome>& r : results) {
    if (r.ok()) {
      out.push_back(kOutcome);
      PutBlob(out, EncodeOutcome(*r));
    } else {
      out.push_back(kError);
      const absl::string_view message =
          r.status().message().substr(0, kMaxWireMessage);
      PutBlob(out,
              absl::StrCat(std::string(1, static_cast<char>(r.status().code())),
                           message));
    }
  }
  return out;
}

absl::StatusOr<std::vector<absl::StatusOr<isa::Outcome>>> DecodeBatchResults(
    absl::string_view bytes, size_t expected) {
  uint32_t n = 0;
  if (!GetU32(bytes, n) || n != expected || n > kMaxWireBatch)
    return Bad("bad result count");
  std::vector<absl::StatusOr<isa::Outcome>> results;
  for (uint32_t i = 0; i < n; ++i) {
    absl::string_view blob;
    const char kind = bytes.empty() ? '\0' : bytes[0];
    bytes.remove_prefix(bytes.empty() ? 0 : 1);
    if (!GetBlob(bytes, blob))
      return Bad(absl::StrCat("result ", i, " is truncated"));
    if (kind == kOutcome) {
      absl::StatusOr<isa::Outcome> o = DecodeOutcome(blob);
      if (!o.ok())
        return Bad(absl::StrCat("result ", i, ": ", o.status().message()));
      results.push_back(*std::move(o));
    } else if (kind == kError && !blob.empty() &&
               blob.size() <= kMaxWireMessage + 1) {
      const absl::StatusCode code = CodeFrom(static_cast<uint8_t>(blob[0]));
      results.push_back(absl::Status(code, blob.substr(1)));
    } else {
      return Bad(absl::StrCat("result ", i, " has a bad kind or size"));
    }
  }
  if (!bytes.empty()) return Bad(absl::StrCat(bytes.size(), " trailing bytes"));
  return results;
}

}  // namespace atomfuzz::targets
