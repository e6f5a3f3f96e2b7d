#include "fuzz/oracle_target.h"

#include "oracle/interpreter.h"

namespace atomfuzz::fuzz {
namespace {

class OracleTarget : public targets::Target {
 public:
  OracleTarget(const oracle::Schedule& schedule, const targets::TargetOptions& options) {
    options_.schedule = schedule;
    options_.max_steps_per_thread = options.max_steps_per_wave;
  }
  absl::string_view name() const override { return "oracle"; }
  absl::StatusOr<isa::Outcome> Run(const isa::Case& c) override {
    return oracle::Interpret(c, options_);
  }

 private:
  oracle::InterpretOptions options_;
};

}  // namespace

std::unique_ptr<targets::Target> CreateOracleTarget(const oracle::Schedule& schedule,
                                                    const targets::TargetOptions& options) {
  return std::make_unique<OracleTarget>(schedule, options);
}

}  // namespace atomfuzz::fuzz
