// Atomics with known returns as edges of a graph on values: an op that saw
// `before` and left `after` is the edge before -> after. Any legal order of
// the ops on one word walks every edge once, from the start value: an
// Eulerian trail. So the trail's existence is necessary for any outcome,
// and sufficient when nothing else constrains the order (one op per thread,
// one barrier interval per group). Checked in O(n) by degree balance and
// connectivity.
#ifndef ATOMFUZZ_ORACLE_VALUE_GRAPH_H_
#define ATOMFUZZ_ORACLE_VALUE_GRAPH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "oracle/serialization.h"

namespace atomfuzz::oracle {

struct TrailCheck {
  bool ok = false;
  uint32_t end = 0;                 // where every such trail ends (when ok)
  std::string why;                  // when not ok
  std::optional<uint32_t> culprit;  // id of an op that cannot fit
};

// `ops` must all have known returns. `final_value`, when given, must be the
// trail's end.
TrailCheck CheckTrail(uint32_t start, absl::Span<const SerialOp* const> ops,
                      std::optional<uint32_t> final_value);

}  // namespace atomfuzz::oracle

#endif  // ATOMFUZZ_ORACLE_VALUE_GRAPH_H_
