// Operands for the stress case maker (random_program.h), built from an
// opcode row's operand kinds and roles: sources, destinations, divergent
// conditions, and addresses that are in range, wild, register-derived or
// computed per thread. Some need an instruction or two first (rT.x = thread
// & mask); those go straight into the program being built.
#ifndef ATOMFUZZ_TESTS_TARGETS_RANDOM_OPERANDS_H_
#define ATOMFUZZ_TESTS_TARGETS_RANDOM_OPERANDS_H_

#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "isa/case_file.h"
#include "isa/opcode_table.h"
#include "isa/operand.h"
#include "isa/prng.h"
#include "isa/program.h"
#include "tests/targets/random_program.h"

namespace atomfuzz::testutil {

// The draws the case maker needs, on a frozen isa::Prng.
class Dice {
 public:
  explicit Dice(uint64_t seed) : prng_(seed) {}

  uint32_t Below(uint64_t n) { return static_cast<uint32_t>(prng_.Below(n)); }
  uint32_t Range(uint32_t lo, uint32_t hi) { return lo + Below(hi - lo + 1); }
  bool Chance(uint64_t num, uint64_t den) { return prng_.Chance(num, den); }
  bool PerMille(uint32_t n) { return prng_.Chance(n, 1000); }
  bool Coin() { return prng_.Chance(1, 2); }
  uint32_t Next32() { return prng_.Next32(); }
  template <class T, size_t N>
  T Pick(const T (&a)[N]) {
    return a[Below(N)];
  }
  uint32_t OneOf(std::initializer_list<uint32_t> values) {
    return values.begin()[Below(values.size())];
  }
  uint8_t Mask() { return static_cast<uint8_t>(Range(1, 15)); }

 private:
  isa::Prng prng_;
};

// Values worth trying anywhere, and addresses that should miss.
inline constexpr uint32_t kInteresting[] = {
    0,           1,           2,           3,          4,
    5,           7,           8,           16,         31,
    32,          33,          0xFF,        0xFFFF,     0x7FFFFFFFu,
    0x80000000u, 0xFFFFFFFFu, 0xFFFFFFFEu, 0x3F800000u};
inline constexpr uint32_t kWild[] = {0xFFFFFFFCu, 0xFFFFFFFFu, 0x80000000u,
                                     0x7FFFFFFCu, 0xFFFFFFF0u, 0x40000000u,
                                     0x3FFFFFFFu, 1,           2,
                                     3,           6,           0x10002u};

// A memory the program declares: a u# bound to a resource, or a g#.
struct DeclaredMemory {
  isa::RegFile file = isa::RegFile::kUav;
  uint32_t slot = 0;
  uint8_t bit = isa::kUavRaw;  // isa::MemoryBit
  uint32_t words = 0;          // raw: the view's words
  uint32_t stride = 0, elements = 0;
  isa::Dim dim = isa::Dim::kBuffer;
  std::array<uint32_t, 3> size = {1, 1, 1};
};

class OperandMaker {
 public:
  // Prepared operands append their instructions to `code`.
  OperandMaker(Dice& dice, const RandomCasePolicy& policy,
               std::vector<isa::Instruction>& code)
      : dice_(dice), policy_(policy), code_(code) {}

  // r0..r<temps-2> are for statements; r<temps-1> holds loop counters.
  // xsize: elements of x0, 0 when there is no x0.
  void SetRegisters(uint32_t temps, uint32_t xsize) {
    temps_ = temps;
    xsize_ = xsize;
  }

  // An operand of the row's kind and role; `mem` is the memory the
  // instruction accesses (addresses are shaped for it), or nullptr.
  isa::Operand For(isa::OperandSpec spec, const DeclaredMemory* mem);

  isa::Operand Dest(isa::Role role);
  isa::Operand Source();
  isa::Operand Immediate();
  // Often divergent between the threads of a group.
  isa::Operand Condition();
  // vThreadIDInGroupFlattened.x
  static isa::Operand FlatThread();
  // A temp a statement may overwrite (now and then one beyond dcl_temps).
  uint32_t WorkTemp();

 private:
  struct Part {  // one address component: exclusive bound, counted in bytes?
    uint32_t bound = 0;
    bool bytes = false;
  };
  static std::vector<Part> Parts(const DeclaredMemory& m, isa::Role role);
  isa::Operand Address(const std::vector<Part>& parts);
  isa::Operand ThreadAddress(const std::vector<Part>& parts);
  uint32_t InRange(Part p);
  uint32_t Wild(Part p);
  isa::Operand MemoryOperand(const DeclaredMemory& m, isa::OperandKind kind);
  isa::Operand XRegister();
  void Swizzle(isa::Operand& o);
  void Emit(isa::Op op, isa::OperandList operands);

  Dice& dice_;
  const RandomCasePolicy& policy_;
  std::vector<isa::Instruction>& code_;
  uint32_t temps_ = 2;
  uint32_t xsize_ = 0;
};

}  // namespace atomfuzz::testutil

#endif  // ATOMFUZZ_TESTS_TARGETS_RANDOM_OPERANDS_H_
