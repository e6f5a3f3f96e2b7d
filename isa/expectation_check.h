// Compares a case's hand-written expectations with an outcome. An undefined
// value in the outcome meets only `any`: an expectation of a definite value
// is a claim that the spec defines it.
#ifndef ATOMFUZZ_ISA_EXPECTATION_CHECK_H_
#define ATOMFUZZ_ISA_EXPECTATION_CHECK_H_

#include <string>
#include <vector>

#include "isa/case_file.h"
#include "isa/outcome.h"

namespace atomfuzz::isa {

struct Mismatch {
  std::string
      where;  // "u2[17]", "u1 counter", "atomic 0 group (0,0,0) thread (3,0,0)"
  std::string expected;        // "0x00000045", "{1, 2}"
  std::string got;             // "0x00000044", "????????", "not executed"
  int line = 0;                // of the expectation
  std::string Render() const;  // "u2[17]: expected 0x..., got 0x..."
};

std::vector<Mismatch> CheckExpectations(const Case& c, const Outcome& o);

}  // namespace atomfuzz::isa

#endif  // ATOMFUZZ_ISA_EXPECTATION_CHECK_H_
