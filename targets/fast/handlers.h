// The handler for each compiled instruction, chosen at compile time (the
// fast executor's one switch on opcodes lives in handlers.cc; injected bugs
// pick other handlers there).
#ifndef ATOMFUZZ_TARGETS_FAST_HANDLERS_H_
#define ATOMFUZZ_TARGETS_FAST_HANDLERS_H_

#include "isa/program.h"
#include "targets/fast/compiled.h"

namespace atomfuzz::targets::fast {

// `aliased`: a destination slot is also read by a later component, so the
// results must be buffered before any is written (E-8 for ALU ops). `d` is
// the compiled instruction with its slots and mask, which the handler may
// rearrange for itself (one component moves to component 0).
Handler AluHandler(isa::Op op, bool aliased, Decoded& d);
Handler ControlHandler(isa::Op op);
Handler SyncHandler();
Handler MemoryHandler(const isa::Instruction& inst, const Memory& m,
                      Inject inject);
// The pixel stage (pixel_handlers.cc): discard_z/nz, deriv_rt*, and the
// wrapper that runs a store or atomic (Decoded::inner) only in the lanes
// that may touch memory.
Handler DiscardHandler(Inject inject);
Handler DerivHandler(isa::Op op);
Handler GatedHandler(isa::Family family, Inject inject);
Handler GatherHandler();   // x# -> scratch slots
Handler ScatterHandler();  // scratch slots -> x#

}  // namespace atomfuzz::targets::fast

#endif  // ATOMFUZZ_TARGETS_FAST_HANDLERS_H_
