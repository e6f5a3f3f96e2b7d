#include "targets/wine/wine_target.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "isa/dxbc.h"
#include "isa/raster.h"
#include "isa/stages.h"
#include "isa/validator.h"
#include "targets/trace_instrumentation.h"
#include "targets/vulkan/vulkan_target.h"
#include "targets/wine/wine_process.h"
#include "targets/wine/wine_wire.h"

namespace atomfuzz::targets::wine {
namespace {

// What wined3d's err lines say went wrong with the shader, shortest first
// cause first: the quoted driver message without its GLSL location and
// without the GL errors that follow from it ("program not linked"), so that
// one translation bug is one bucket.
std::string ErrorLines(const std::string& text) {
  std::vector<std::string> found;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    if (!absl::StrContains(line, ":err:d3d")) continue;
    absl::string_view what = line.substr(line.find(":err:d3d"));
    if (const size_t q = what.find('"'); q != absl::string_view::npos) {
      what = what.substr(q + 1);
      what = what.substr(0, what.rfind('"'));
    }
    if (absl::StartsWith(what, "GL_INVALID_OPERATION")) continue;
    // "0:79(33): error: ..." -> "error: ..."
    if (const size_t e = what.find("error:"); e != absl::string_view::npos)
      what = what.substr(e);
    std::string item(what.substr(0, 200));
    if (std::find(found.begin(), found.end(), item) == found.end())
      found.push_back(std::move(item));
    if (found.size() == 3) break;
  }
  return absl::StrJoin(found, " | ");
}

// UAV slots wined3d binds (the runner reports a case that needs more).
constexpr uint32_t kWineUavSlots = 8;

// Whether no thread's record in the trace log was written (each starts as
// 0xffffffff). The rest of the log is not looked at: after a shader it
// failed to translate, wined3d's GL renderer was seen to zero part of it.
// A dispatch of no thread (a group count of 0) has no record to write, nor
// has a draw that covers no sample: helpers write none.
bool NoRecordWritten(const isa::Case& c, const isa::Outcome& run,
                     const TraceLayout& layout) {
  const isa::UavState* log = run.FindUav(layout.log_slot);
  if (log == nullptr || layout.threads == 0) return false;
  for (uint64_t t = 0; t < layout.threads; ++t) {
    const uint64_t at = t * layout.record_words;
    if (at < log->words.size() && log->words[at] != 0xffffffffu) return false;
  }
  return !c.shader.pixel() || !isa::Rasterize(c.draw).empty();
}

// Whether Wine's err channels of wined3d said that the shader did not
// compile or link (GLSL: "error: array index must be < 4", then "no active
// compute shader"). After such a failure the GL renderer also reads back
// UAVs it never initialized (zeros), log included, so the canary above
// cannot be trusted alone.
bool ShaderFailed(const std::string& errors) {
  return absl::StrContains(errors, ":err:d3d");
}

bool HasLoop(const isa::Case& c) {
  return std::any_of(
      c.shader.instructions.begin(), c.shader.instructions.end(),
      [](const isa::Instruction& in) { return in.op == isa::Op::kLoop; });
}

// The D3D11 runner on the renderer asked for, with an X display, and
// wined3d's errors on stderr (a shader it failed to translate shows there;
// ATOMFUZZ_WINEDEBUG=+d3d_shader also prints the GLSL it generates).
SessionConfig D3d11Session(Renderer renderer) {
  SessionConfig config;
  config.name = "the Wine runner";
  config.display = true;
  config.set_env.push_back(
      absl::StrCat("WINEDEBUG=",
                   EnvOr("ATOMFUZZ_WINEDEBUG", "-all,err+d3d,err+d3d_shader")));
  if (renderer == Renderer::kVulkan) {
    config.set_env.push_back("WINE_D3D_CONFIG=renderer=vulkan");
  } else {
    config.unset_env.push_back("WINE_D3D_CONFIG");
  }
  config.check_hello = [](absl::string_view frame) -> absl::Status {
    absl::StatusOr<Hello> hello = DecodeHello(frame);
    if (!hello.ok()) return hello.status();
    if (hello->feature_level == 0) {
      return absl::FailedPreconditionError(
          absl::StrCat("D3D11 on Wine has no device: ", hello->adapter));
    }
    return absl::OkStatus();
  };
  return config;
}

// Why D3D11 cannot draw `c` as the case says, or "". The runner draws with
// no render target, so that the UAVs keep their slots from u0: 4 samples
// then need the rasterizer's ForcedSampleCount, under which D3D11.1 does
// not let the pixel shader run per sample (wined3d was seen to run sample
// 0 alone, and to leak the state into the next draw).
// And wined3d (Wine 8.0) ignores ForcedSampleCount: it rasterizes such a
// draw at 1 sample (docs/findings.md #25), so every 4-sample case whose
// coverage differs would diverge for that one known reason, drowning what
// else the case might find. Refused, with the finding's number.
std::string DrawRefusal(const isa::Case& c) {
  if (c.draw.samples > 1 && isa::RunsPerSample(c.shader)) {
    return "D3D11 cannot draw it: 4 samples without a render target need "
           "ForcedSampleCount, which forbids a shader running per sample "
           "(SV_SampleIndex)";
  }
  // ATOMFUZZ_WINE_FORCED_SAMPLES=1 draws them anyway: to see #25, or
  // whether a newer Wine mended it.
  if (c.draw.samples > 1 &&
      EnvOr("ATOMFUZZ_WINE_FORCED_SAMPLES", "0") != std::string("1")) {
    return "wined3d ignores ForcedSampleCount (findings.md #25): a draw of "
           "4 samples with no render target would run at 1";
  }
  return "";
}

class WineTarget : public Target {
 public:
  WineTarget(const TargetOptions& options, Renderer renderer)
      : options_(options), renderer_(renderer) {}

  // Compute cases as a dispatch, pixel cases as a draw (runner_wire.h).
  bool RunsStage(isa::Stage) const override { return true; }

  absl::string_view name() const override {
    return renderer_ == Renderer::kGl ? "wine-d3d11-gl" : "wine-d3d11-vk";
  }

  std::string Describe() const override {
    if (hello_.feature_level == 0) return std::string(name());
    return absl::StrFormat("%s: D3D11 feature level %x on '%s'", name(),
                           hello_.feature_level, hello_.adapter);
  }

  absl::StatusOr<isa::Outcome> Run(const isa::Case& c) override {
    if (absl::Status valid = isa::Validate(c); !valid.ok())
      return isa::Outcome::Ended(isa::RunStatus::kRejected,
                                 std::string(valid.message()));
    if (c.shader.pixel()) {
      if (std::string refusal = DrawRefusal(c); !refusal.empty())
        return isa::Outcome::Ended(isa::RunStatus::kRejected, refusal);
    }
    absl::StatusOr<InstrumentedCase> ic = InstrumentForTrace(c);
    // wined3d binds 8 UAV slots at most, even at feature level 11_1 (the
    // runner refuses more): a case using all 8 runs as it is, judged on its
    // memory alone.
    const bool traced = ic.ok() && ic->layout.log_slot < kWineUavSlots;
    const isa::Case& run = traced ? ic->instrumented : c;
    absl::StatusOr<isa::Outcome> outcome = Exchange(run);
    if (!outcome.ok() || outcome->status != isa::RunStatus::kOk) return outcome;
    if (!traced) {
      outcome->message =
          "no UAV slot below u8 left for the trace log: judged "
          "on memory alone";
      return outcome;
    }
    const bool failed = ShaderFailed(last_errors_);
    const bool no_record = NoRecordWritten(c, *outcome, ic->layout);
    if (!failed && no_record && HasLoop(c)) {
      // No thread reached its ret, and no error said why: a loop llvmpipe
      // stopped (an endless one, which the spec never finishes either) is
      // as likely as a dispatch that did nothing. Not compared.
      return isa::Outcome::Ended(
          isa::RunStatus::kBudgetExceeded,
          "no thread reached its ret (a loop the driver stopped, or a "
          "dispatch that did nothing)");
    }
    if (failed || no_record) {
      // Every thread that reaches a ret writes its record: none at all means
      // the dispatch did nothing; so does an error wined3d printed about
      // the shader.
      return isa::Outcome::Ended(
          isa::RunStatus::kInvalidCode,
          absl::StrCat("wined3d did not run the shader: ",
                       last_errors_.empty()
                           ? (c.shader.pixel() ? "the draw did nothing"
                                               : "the dispatch did nothing")
                           : ErrorLines(last_errors_),
                       " (D3D11 hears nothing of it)"));
    }
    // llvmpipe caps loop iterations for GLSL and SPIR-V alike. The GL
    // renderer names a made-up adapter ("NVIDIA GeForce GTX 470") whatever
    // the driver, so the cap is assumed there too: a case that could reach
    // it is not compared, never a false alarm.
    TraceDecodeOptions decode;
    if (renderer_ == Renderer::kGl ||
        absl::StrContains(hello_.adapter, "llvmpipe")) {
      decode.loop_cap = vulkan::kLavapipeLoopCap;
      decode.loop_cap_name = "llvmpipe loop cap";
    }
    isa::Outcome traced_outcome =
        DecodeTrace(c, ic->layout, *std::move(outcome), decode);
    if (!options_.trace) {
      traced_outcome.has_trace = false;
      traced_outcome.trace.clear();
    }
    return traced_outcome;
  }

 private:
  // `run` through D3D11: its outcome (kOk, or refused by the encoder,
  // wined3d or the runner; a hang or crash as such), or a set-up error.
  absl::StatusOr<isa::Outcome> Exchange(const isa::Case& run) {
    absl::StatusOr<std::vector<uint8_t>> dxbc = isa::EncodeDxbc(run.shader);
    if (!dxbc.ok()) {
      return isa::Outcome::Ended(
          isa::RunStatus::kRejected,
          absl::StrCat("DXBC encoder: ", dxbc.status().message()));
    }
    if (!session_) {
      absl::StatusOr<WineSetup> setup = FindWineSetup();
      if (!setup.ok()) return setup.status();
      session_.emplace(*std::move(setup), D3d11Session(renderer_),
                       options_.timeout_seconds);
    }
    absl::StatusOr<std::string> reply =
        session_->Exchange(EncodeRequest(run, *dxbc));
    if (absl::StatusOr<Hello> hello = DecodeHello(session_->hello());
        hello.ok())
      hello_ = *std::move(hello);
    last_errors_ = session_->TakeErrors();
    // Asked for (ATOMFUZZ_WINEDEBUG=+d3d_shader: wined3d's GLSL), shown.
    if (std::getenv("ATOMFUZZ_WINEDEBUG") != nullptr)
      std::fputs(last_errors_.c_str(), stderr);
    if (!reply.ok()) {
      if (absl::IsDeadlineExceeded(reply.status()))
        return isa::Outcome::Ended(isa::RunStatus::kTimedOut,
                                   std::string(reply.status().message()));
      if (absl::IsUnavailable(reply.status()))
        return isa::Outcome::Ended(isa::RunStatus::kCrashed,
                                   std::string(reply.status().message()));
      return reply.status();
    }
    return DecodeReply(*reply, run);
  }

  TargetOptions options_;
  Renderer renderer_;
  std::optional<WineSession> session_;
  Hello hello_;              // the runner's device
  std::string last_errors_;  // Wine's stderr during the last exchange
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> CreateWineTarget(
    const TargetOptions& options, Renderer renderer) {
  // Flags its rows do not take were refused by CheckOptions (registry.h),
  // its only caller.
  return std::make_unique<WineTarget>(options, renderer);
}

}  // namespace atomfuzz::targets::wine
