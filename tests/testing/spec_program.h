// The hand-encoded program of spec 4.9 (test vector 1 of 5.5), which
// vkd3d-shader 1.2 compiled: one source for every test that encodes it.
#ifndef ATOMFUZZ_TESTS_TESTING_SPEC_PROGRAM_H_
#define ATOMFUZZ_TESTS_TESTING_SPEC_PROGRAM_H_

namespace atomfuzz::testdata {

inline constexpr char kSpec49Asm[] = R"(cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 64, 1, 1
ishl r0.x, vThreadID.x, l(2)
imm_atomic_iadd r0.y, u0, r0.x, l(1)
store_raw u0.x, r0.x, r0.y
ret
)";

}  // namespace atomfuzz::testdata

#endif  // ATOMFUZZ_TESTS_TESTING_SPEC_PROGRAM_H_
