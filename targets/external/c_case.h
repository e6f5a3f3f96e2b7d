// An isa::Case as the C structs of include/atomfuzz/target.h, with the
// storage they point into.
#ifndef ATOMFUZZ_TARGETS_EXTERNAL_C_CASE_H_
#define ATOMFUZZ_TARGETS_EXTERNAL_C_CASE_H_

#include <cstdint>
#include <vector>

#include "atomfuzz/target.h"
#include "isa/case_file.h"

namespace atomfuzz::targets::external {

class CCase {
 public:
  // Keeps pointers into `c` (initial words): `c` must outlive this.
  CCase(const isa::Case& c, bool want_trace);
  CCase(const CCase&) = delete;
  CCase& operator=(const CCase&) = delete;

  const atomfuzz_case& get() const { return case_; }

 private:
  std::vector<atomfuzz_resource> resources_;
  std::vector<std::vector<atomfuzz_operand>> operands_;
  std::vector<atomfuzz_instruction> instructions_;
  std::vector<uint8_t> dxbc_;
  atomfuzz_case case_{};
};

}  // namespace atomfuzz::targets::external

#endif  // ATOMFUZZ_TARGETS_EXTERNAL_C_CASE_H_
