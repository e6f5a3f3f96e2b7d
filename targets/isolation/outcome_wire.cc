#include "targets/isolation/outcome_wire.h"

#include <cstring>

#include "absl/strings/str_cat.h"
#include "isa/case_file.h"

namespace atomfuzz::targets {
namespace {

// Layout (all integers little-endian):
//   u32 magic, u8 status, u32 n + n message bytes,
//   u32 uav count, per UAV: u32 slot, u32 words, words x u32,
//     ceil(words/8) defined-bit bytes, u8 flags (1 has counter,
//     2 counter defined), u32 counter,
//   u8 trace flags (1 has a trace, 2 its events lack addresses), u32 event
//   count, per event 16 x u32 (see PutEvent).
class Writer {
 public:
  void U8(uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void U32(uint32_t v) {
    for (int i = 0; i < 4; ++i) U8(static_cast<uint8_t>(v >> (8 * i)));
  }
  void Bytes(absl::string_view s) { out_.append(s.data(), s.size()); }
  std::string Take() { return std::move(out_); }

 private:
  std::string out_;
};

class Reader {
 public:
  explicit Reader(absl::string_view in) : in_(in) {}
  bool U8(uint8_t& v) {
    if (in_.size() < 1) return false;
    v = static_cast<uint8_t>(in_[0]);
    in_.remove_prefix(1);
    return true;
  }
  bool U32(uint32_t& v) {
    if (in_.size() < 4) return false;
    v = 0;
    for (int i = 0; i < 4; ++i) {
      v |= uint32_t{static_cast<uint8_t>(in_[static_cast<size_t>(i)])}
           << (8 * i);
    }
    in_.remove_prefix(4);
    return true;
  }
  bool Bytes(size_t n, absl::string_view& v) {
    if (in_.size() < n) return false;
    v = in_.substr(0, n);
    in_.remove_prefix(n);
    return true;
  }
  size_t left() const { return in_.size(); }

 private:
  absl::string_view in_;
};

constexpr uint32_t kEventWords = 16;

void PutEvent(Writer& w, const isa::AtomicEvent& e) {
  for (uint32_t v : e.group) w.U32(v);
  for (uint32_t v : e.thread) w.U32(v);
  w.U32(e.instruction);
  w.U32(e.occurrence);
  w.U32(static_cast<uint32_t>(e.file));
  w.U32(e.slot);
  w.U32(e.word);
  w.U32(static_cast<uint32_t>(e.address));
  w.U32(e.src0);
  w.U32(e.src1);
  w.U32(e.returned.has_value() ? 1 : 0);
  w.U32(e.returned.value_or(0));
}

absl::Status Bad(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("outcome wire: ", what));
}

bool GetEvent(Reader& r, isa::AtomicEvent& e) {
  uint32_t v[kEventWords];
  for (uint32_t& x : v) {
    if (!r.U32(x)) return false;
  }
  e.group = {v[0], v[1], v[2]};
  e.thread = {v[3], v[4], v[5]};
  e.instruction = v[6];
  e.occurrence = v[7];
  if (v[8] != static_cast<uint32_t>(isa::RegFile::kUav) &&
      v[8] != static_cast<uint32_t>(isa::RegFile::kTgsm)) {
    return false;
  }
  e.file = static_cast<isa::RegFile>(v[8]);
  e.slot = v[9];
  e.word = v[10];
  if (v[11] >= static_cast<uint32_t>(isa::kAddressClassCount)) return false;
  e.address = static_cast<isa::AddressClass>(v[11]);
  e.src0 = v[12];
  e.src1 = v[13];
  if (v[14] > 1) return false;
  if (v[14] == 1) e.returned = v[15];
  return true;
}

absl::Status GetUav(Reader& r, isa::UavState& u) {
  uint32_t words = 0;
  if (!r.U32(u.slot) || !r.U32(words)) return Bad("truncated UAV header");
  if (words > isa::kMaxResourceWords || uint64_t{words} * 4 > r.left()) {
    return Bad(absl::StrCat("UAV u", u.slot, " claims ", words, " words"));
  }
  u.words.resize(words);
  for (uint32_t& w : u.words) r.U32(w);
  absl::string_view bits;
  if (!r.Bytes((words + 7) / 8, bits)) return Bad("truncated defined bits");
  u.defined.resize(words);
  for (uint32_t i = 0; i < words; ++i) {
    u.defined[i] = (static_cast<uint8_t>(bits[i / 8]) >> (i % 8)) & 1;
  }
  uint8_t flags = 0;
  uint32_t counter = 0;
  if (!r.U8(flags) || !r.U32(counter)) return Bad("truncated counter");
  if (flags > 3) return Bad("bad counter flags");
  if (flags & 1) u.counter = counter;
  u.counter_defined = (flags & 2) != 0;
  return absl::OkStatus();
}

}  // namespace

std::string EncodeOutcome(const isa::Outcome& o) {
  Writer w;
  w.U32(kOutcomeWireMagic);
  w.U8(static_cast<uint8_t>(o.status));
  const absl::string_view message =
      absl::string_view(o.message).substr(0, kMaxWireMessage);
  w.U32(static_cast<uint32_t>(message.size()));
  w.Bytes(message);
  w.U32(static_cast<uint32_t>(o.uavs.size()));
  for (const isa::UavState& u : o.uavs) {
    w.U32(u.slot);
    w.U32(static_cast<uint32_t>(u.words.size()));
    for (uint32_t v : u.words) w.U32(v);
    for (size_t i = 0; i < u.words.size(); i += 8) {
      uint8_t byte = 0;
      for (size_t b = 0; b < 8 && i + b < u.words.size(); ++b) {
        if (i + b < u.defined.size() && u.defined[i + b]) byte |= 1u << b;
      }
      w.U8(byte);
    }
    w.U8(static_cast<uint8_t>((u.counter ? 1 : 0) |
                              (u.counter_defined ? 2 : 0)));
    w.U32(u.counter.value_or(0));
  }
  w.U8(static_cast<uint8_t>((o.has_trace ? 1 : 0) |
                            (o.trace_has_addresses ? 0 : 2)));
  w.U32(static_cast<uint32_t>(o.trace.size()));
  for (const isa::AtomicEvent& e : o.trace) PutEvent(w, e);
  return w.Take();
}

absl::StatusOr<isa::Outcome> DecodeOutcome(absl::string_view bytes) {
  Reader r(bytes);
  isa::Outcome o;
  uint32_t magic = 0, length = 0, uavs = 0, events = 0;
  uint8_t status = 0, has_trace = 0;
  if (!r.U32(magic) || magic != kOutcomeWireMagic) return Bad("bad magic");
  if (!r.U8(status) || status > static_cast<uint8_t>(isa::kLastRunStatus)) {
    return Bad("bad run status");
  }
  o.status = static_cast<isa::RunStatus>(status);
  absl::string_view message;
  if (!r.U32(length) || length > kMaxWireMessage || !r.Bytes(length, message)) {
    return Bad("bad message length");
  }
  o.message = std::string(message);
  if (!r.U32(uavs) || uavs > kMaxWireUavs) return Bad("bad UAV count");
  o.uavs.resize(uavs);
  for (isa::UavState& u : o.uavs) {
    if (absl::Status s = GetUav(r, u); !s.ok()) return s;
  }
  if (!r.U8(has_trace) || has_trace > 3) return Bad("bad trace flags");
  o.has_trace = (has_trace & 1) != 0;
  o.trace_has_addresses = (has_trace & 2) == 0;
  if (!r.U32(events) || events > kMaxWireEvents ||
      uint64_t{events} * kEventWords * 4 > r.left()) {
    return Bad("bad event count");
  }
  o.trace.resize(events);
  for (isa::AtomicEvent& e : o.trace) {
    if (!GetEvent(r, e)) return Bad("bad atomic event");
  }
  if (r.left() != 0) return Bad(absl::StrCat(r.left(), " trailing bytes"));
  return o;
}

}  // namespace atomfuzz::targets
