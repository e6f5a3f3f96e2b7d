#include "fuzz/oracle_target.h"

#include <algorithm>

#include "oracle/interpreter.h"

namespace atomfuzz::fuzz {
namespace {

class OracleTarget : public targets::Target {
 public:
  OracleTarget(const oracle::Schedule& schedule,
               const targets::TargetOptions& options) {
    options_.schedule = schedule;
    // A thread never runs more steps than its wave, nor than its own budget.
    options_.max_steps_per_thread =
        std::min(options.max_steps_per_wave, options.max_steps_per_thread);
  }
  absl::string_view name() const override { return "oracle"; }
  bool RunsStage(isa::Stage) const override { return true; }
  absl::StatusOr<isa::Outcome> Run(const isa::Case& c) override {
    return oracle::Interpret(c, options_);
  }

 private:
  oracle::InterpretOptions options_;
};

}  // namespace

std::unique_ptr<targets::Target> CreateOracleTarget(
    const oracle::Schedule& schedule, const targets::TargetOptions& options) {
  return std::make_unique<OracleTarget>(schedule, options);
}

}  // namespace atomfuzz::fuzz
