// The smallest case the finding store and sync tests save: one thread, one
// imm_atomic_xor on a one-word raw UAV.
#ifndef ATOMFUZZ_TESTS_FUZZ_TINY_CASE_H_
#define ATOMFUZZ_TESTS_FUZZ_TINY_CASE_H_

namespace atomfuzz::fuzz {

inline constexpr char kTinyCase[] = R"([dispatch]
groups 1, 1, 1

[uav u0]
kind raw
words 1

[shader]
cs_5_0
dcl_uav_raw u0
dcl_temps 1
dcl_thread_group 1, 1, 1
imm_atomic_xor r0.x, u0, l(0), l(1)
ret
)";

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_TESTS_FUZZ_TINY_CASE_H_
