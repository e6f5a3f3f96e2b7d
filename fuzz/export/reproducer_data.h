// What a reproducer carries of a case (templates/README.md): its UAVs, its
// dispatch, and for each word the values the spec allows of a target that
// gives no trace (oracle::AllowedOutcome), and that data as the C block
// every C reproducer starts with.
#ifndef ATOMFUZZ_FUZZ_EXPORT_REPRODUCER_DATA_H_
#define ATOMFUZZ_FUZZ_EXPORT_REPRODUCER_DATA_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "isa/case_file.h"

namespace atomfuzz::fuzz {

struct ReproUav {
  const isa::Resource* resource = nullptr;  // into the case
  bool declared = false;                    // the shader declares it: bound
  bool has_counter = false;  // a counter is bound (alloc/consume or [uav])
};

// One expectation: words first..last of u`slot` (or its counter) are each
// one of `values` (one value: exactly it).
struct ReproCheck {
  uint32_t slot = 0;
  bool counter = false;
  uint32_t first = 0, last = 0;
  std::vector<uint32_t> values;
};

struct ReproData {
  std::string name;  // what the messages name: the case's file
  std::array<uint32_t, 3> groups = {1, 1, 1};
  std::vector<ReproUav> uavs;  // every [uav] of the case, by slot
  std::vector<ReproCheck> checks;
  // Where the spec does not finish the run (an endless loop), the checks
  // are empty and this says so.
  std::string unchecked;
};

// The data of `c` (whose resources it points into: keep `c` alive), with
// the checks of what the spec allows (computed here). `bound` lists the
// slots the shader declares and whether each binds a counter, as the
// vulkan target binds them.
struct BoundSlot {
  uint32_t slot = 0;
  bool counter = false;
};
absl::StatusOr<ReproData> ReproDataOf(const isa::Case& c,
                                      absl::Span<const BoundSlot> bound);

// The C data block of templates/README.md, without the shader's words.
std::string CDataBlock(const ReproData& d);
// `static const uint32_t NAME[] = {...};` eight words a line, then
// `#define COUNT_MACRO n` (the array never empty: C forbids it).
std::string CWordArray(absl::string_view name, absl::string_view count_macro,
                       absl::Span<const uint32_t> words);
// `s` as a C string literal (escapes for quotes, backslashes, and any byte
// that is not printable ASCII).
std::string CStringLiteral(absl::string_view s);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_EXPORT_REPRODUCER_DATA_H_
