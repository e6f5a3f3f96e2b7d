#include "oracle/rmw.h"

namespace atomfuzz::oracle {
namespace {

int32_t Signed(uint32_t v) { return static_cast<int32_t>(v); }

}  // namespace

uint32_t ApplyRmw(isa::Rmw rmw, uint32_t old, uint32_t src0, uint32_t src1) {
  using isa::Rmw;
  switch (rmw) {
    // Spec 1.4: "insensitive to sign", modulo 2^32 (E-1).
    case Rmw::kIAdd: return old + src0;
    case Rmw::kAnd: return old & src0;
    case Rmw::kOr: return old | src0;
    case Rmw::kXor: return old ^ src0;
    case Rmw::kExch: return src0;
    // Spec 1.4/1.5, E-4, E-5: src0 is the comparand, compared bitwise; src1
    // is stored on equality.
    case Rmw::kCmpExch: return old == src0 ? src1 : old;
    // Spec 1.10 item 1: the opcode decides signedness, whatever the
    // declaration (E-3).
    case Rmw::kIMax: return Signed(src0) > Signed(old) ? src0 : old;
    case Rmw::kIMin: return Signed(src0) < Signed(old) ? src0 : old;
    case Rmw::kUMax: return src0 > old ? src0 : old;
    case Rmw::kUMin: return src0 < old ? src0 : old;
    case Rmw::kNone:
    case Rmw::kAlloc:
    case Rmw::kConsume: break;
  }
  return old;
}

bool Commutes(isa::Rmw r) {
  using isa::Rmw;
  return r == Rmw::kIAdd || r == Rmw::kAnd || r == Rmw::kOr || r == Rmw::kXor ||
         r == Rmw::kIMax || r == Rmw::kIMin || r == Rmw::kUMax ||
         r == Rmw::kUMin || r == Rmw::kAlloc || r == Rmw::kConsume;
}

// Spec 1.6: neither clamps; both wrap (E-36).
CounterStep Alloc(uint32_t counter) { return {counter, counter + 1}; }
CounterStep Consume(uint32_t counter) { return {counter - 1, counter - 1}; }

}  // namespace atomfuzz::oracle
