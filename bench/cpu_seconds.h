// CPU seconds this process has run, all its threads together: the benches'
// rates are per core second, so that other work on the machine (and, for
// Vulkan, lavapipe's own threads) skews them less than wall time would.
#ifndef ATOMFUZZ_BENCH_CPU_SECONDS_H_
#define ATOMFUZZ_BENCH_CPU_SECONDS_H_

#include <time.h>

namespace atomfuzz::bench {

inline double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) +
         static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace atomfuzz::bench

#endif  // ATOMFUZZ_BENCH_CPU_SECONDS_H_
