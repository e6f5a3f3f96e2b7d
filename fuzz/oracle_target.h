// The reference interpreter behind the Target interface, so `--target=oracle`
// works wherever a target does. It lives in fuzz/: targets/ may not see the
// oracle.
#ifndef ATOMFUZZ_FUZZ_ORACLE_TARGET_H_
#define ATOMFUZZ_FUZZ_ORACLE_TARGET_H_

#include <memory>

#include "oracle/schedule.h"
#include "targets/target.h"

namespace atomfuzz::fuzz {

std::unique_ptr<targets::Target> CreateOracleTarget(
    const oracle::Schedule& schedule, const targets::TargetOptions& options);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_ORACLE_TARGET_H_
