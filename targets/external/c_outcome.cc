#include "targets/external/c_outcome.h"

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "targets/isolation/outcome_wire.h"

namespace atomfuzz::targets::external {
namespace {

isa::Outcome Malformed(absl::string_view why) {
  isa::Outcome out;
  out.status = isa::RunStatus::kRejected;
  out.message =
      absl::StrCat("malformed outcome from the external target: ", why);
  return out;
}

std::optional<std::string> CheckUav(const atomfuzz_uav& u,
                                    const isa::Resource& r) {
  if (u.slot != r.slot)
    return absl::StrCat("uav slot ", u.slot, ", expected u", r.slot);
  if (u.word_count != r.init.size()) {
    return absl::StrCat("u", r.slot, " has ", u.word_count, " words, expected ",
                        r.init.size());
  }
  if (u.word_count > 0 && u.words == nullptr)
    return absl::StrCat("u", r.slot, " words NULL");
  return std::nullopt;
}

std::optional<std::string> CheckEvent(const atomfuzz_event& e,
                                      const isa::Case& c) {
  if (e.file != static_cast<uint32_t>(isa::RegFile::kUav) &&
      e.file != static_cast<uint32_t>(isa::RegFile::kTgsm)) {
    return absl::StrCat("event file ", e.file);
  }
  if (e.address >= static_cast<uint32_t>(isa::kAddressClassCount)) {
    return absl::StrCat("event address class ", e.address);
  }
  if (e.has_returned > 1) return "event has_returned not 0 or 1";
  if (e.instruction >= c.shader.instructions.size()) {
    return absl::StrCat("event instruction ", e.instruction,
                        " past the program");
  }
  return std::nullopt;
}

isa::AtomicEvent ToEvent(const atomfuzz_event& e) {
  isa::AtomicEvent a;
  a.group = {e.group[0], e.group[1], e.group[2]};
  a.thread = {e.thread[0], e.thread[1], e.thread[2]};
  a.instruction = e.instruction;
  a.occurrence = e.occurrence;
  a.file = static_cast<isa::RegFile>(e.file);
  a.slot = e.slot;
  a.word = e.word;
  a.address = static_cast<isa::AddressClass>(e.address);
  a.src0 = e.src0;
  a.src1 = e.src1;
  if (e.has_returned) a.returned = e.returned;
  return a;
}

}  // namespace

isa::Outcome FromC(const atomfuzz_outcome& o, const isa::Case& c) {
  if (o.status > ATOMFUZZ_STATUS_BUDGET_EXCEEDED) {
    return Malformed(absl::StrCat("status ", o.status));
  }
  if (o.message_size > 0 && o.message == nullptr)
    return Malformed("message NULL");
  isa::Outcome out;
  out.status = static_cast<isa::RunStatus>(o.status);
  out.message.assign(o.message == nullptr ? "" : o.message,
                     std::min<uint32_t>(o.message_size, kMaxWireMessage));
  if (out.status != isa::RunStatus::kOk) return out;  // nothing else is read

  if (o.uav_count != c.resources.size()) {
    return Malformed(
        absl::StrCat(o.uav_count, " UAVs, expected ", c.resources.size()));
  }
  if (o.uav_count > 0 && o.uavs == nullptr) return Malformed("uavs NULL");
  for (size_t i = 0; i < c.resources.size(); ++i) {
    const atomfuzz_uav& u = o.uavs[i];
    const isa::Resource& r = c.resources[i];
    if (std::optional<std::string> bad = CheckUav(u, r)) return Malformed(*bad);
    isa::UavState s;
    s.slot = r.slot;
    s.words.assign(u.words, u.words + u.word_count);
    s.defined.assign(s.words.size(), true);
    if (r.counter) s.counter = u.counter;
    out.uavs.push_back(std::move(s));
  }
  if (o.has_trace > 1) return Malformed("has_trace not 0 or 1");
  out.has_trace = o.has_trace == 1;
  if (!out.has_trace) return out;
  if (o.event_count > kMaxWireEvents) {
    return Malformed(
        absl::StrCat(o.event_count, " events, at most ", kMaxWireEvents));
  }
  if (o.event_count > 0 && o.events == nullptr) return Malformed("events NULL");
  out.trace.reserve(o.event_count);
  for (uint32_t i = 0; i < o.event_count; ++i) {
    if (std::optional<std::string> bad = CheckEvent(o.events[i], c))
      return Malformed(*bad);
    out.trace.push_back(ToEvent(o.events[i]));
  }
  return out;
}

}  // namespace atomfuzz::targets::external
