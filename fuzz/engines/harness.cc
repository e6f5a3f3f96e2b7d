#include "fuzz/engines/harness.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <system_error>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "fuzz/differential.h"
#include "fuzz/runner.h"
#include "fuzz/triage/signature.h"
#include "isa/spelling.h"
#include "oracle/interpreter.h"
#include "targets/fast/fast_target.h"
#include "targets/registry.h"
#include "targets/vulkan/vulkan_target.h"

namespace atomfuzz::fuzz {
namespace {

constexpr absl::string_view kHelp =
    "target=NAME             executor under test: fast (default), oracle,\n"
    "                        vulkan, ext:PATH.so ($ORIGIN = this binary's "
    "dir)\n"
    "inject=NAME             an injected bug of the fast target\n"
    "vkd3d=PATH              the vulkan targets' libvkd3d-shader (linked one)\n"
    "isolate=0|1             ext:/vulkan in a child process (default 0)\n"
    "known=PATH              skip divergences of the buckets it lists\n"
    "generalise_seconds=S    time to find a divergence's essential signature\n"
    "                        in `known` (10; 0 = found signatures only)\n"
    "policy=NAME             generator policy for non-text inputs (default)\n"
    "schedule=canonical|random:SEED   the oracle target's interleaving\n"
    "deterministic=1|0       one worker, fixed order (default 1)\n"
    "threads=N               worker threads when not deterministic (1)\n"
    "max_steps=N             instructions per wave/thread (4096)\n"
    "search_budget=N         judge serialization steps per word (65536)\n"
    "max_atomics_per_word=N  outcomes with more are not judged (256)\n"
    "max_bytes=N             larger inputs are rejected (65536)\n"
    "max_work=N              threads x instructions (16384)\n"
    "max_words=N             UAV words in all (65536)\n"
    "max_instructions=N      shader instructions (1024)\n";

absl::Status Bad(absl::string_view key, absl::string_view value,
                 absl::string_view want) {
  return absl::InvalidArgumentError(
      absl::StrCat("ATOMFUZZ_OPTIONS: expected ", want, " for '", key,
                   "', found '", value, "'; keys:\n", kHelp));
}

template <typename Int>
absl::Status SetNumber(absl::string_view key, absl::string_view value,
                       Int& out) {
  if (!absl::SimpleAtoi(value, &out)) return Bad(key, value, "a number");
  return absl::OkStatus();
}

using O = HarnessOptions;
using Setter = absl::Status (*)(absl::string_view key, absl::string_view value,
                                O& o);

// One row per key of kHelp.
constexpr std::pair<absl::string_view, Setter> kKeys[] = {
    {"target",
     [](absl::string_view, absl::string_view v, O& o) {
       o.target = std::string(v);
       return absl::OkStatus();
     }},
    {"inject",
     [](absl::string_view, absl::string_view v, O& o) {
       o.inject = std::string(v);
       return absl::OkStatus();
     }},
    {"vkd3d",
     [](absl::string_view, absl::string_view v, O& o) {
       o.vkd3d = std::string(v);
       return absl::OkStatus();
     }},
    {"isolate",
     [](absl::string_view k, absl::string_view v, O& o) {
       if (!absl::SimpleAtob(v, &o.isolate)) return Bad(k, v, "1 or 0");
       return absl::OkStatus();
     }},
    {"known",
     [](absl::string_view, absl::string_view v, O& o) {
       o.known = std::string(v);
       return absl::OkStatus();
     }},
    {"generalise_seconds",
     [](absl::string_view k, absl::string_view v, O& o) {
       if (!absl::SimpleAtod(v, &o.generalise_seconds) ||
           !(o.generalise_seconds >= 0 && o.generalise_seconds <= 3600)) {
         return Bad(k, v, "seconds from 0 to 3600");
       }
       return absl::OkStatus();
     }},
    {"policy",
     [](absl::string_view, absl::string_view v, O& o) {
       o.policy = std::string(v);
       return absl::OkStatus();
     }},
    {"schedule",
     [](absl::string_view k, absl::string_view v, O& o) {
       absl::StatusOr<oracle::Schedule> s = oracle::Schedule::Parse(v);
       if (!s.ok()) return Bad(k, v, "canonical or random:SEED");
       o.schedule = *s;
       return absl::OkStatus();
     }},
    {"deterministic",
     [](absl::string_view k, absl::string_view v, O& o) {
       if (!absl::SimpleAtob(v, &o.deterministic)) return Bad(k, v, "1 or 0");
       return absl::OkStatus();
     }},
    {"threads",
     [](absl::string_view k, absl::string_view v, O& o) {
       if (!absl::SimpleAtoi(v, &o.threads) || o.threads < 0) {
         return Bad(k, v, "a thread count");
       }
       return absl::OkStatus();
     }},
    {"max_steps", [](absl::string_view k, absl::string_view v,
                     O& o) { return SetNumber(k, v, o.max_steps); }},
    {"search_budget", [](absl::string_view k, absl::string_view v,
                         O& o) { return SetNumber(k, v, o.search_budget); }},
    {"max_atomics_per_word",
     [](absl::string_view k, absl::string_view v, O& o) {
       return SetNumber(k, v, o.max_atomics_per_word);
     }},
    {"max_bytes", [](absl::string_view k, absl::string_view v,
                     O& o) { return SetNumber(k, v, o.decode.max_bytes); }},
    {"max_work",
     [](absl::string_view k, absl::string_view v, O& o) {
       return SetNumber(k, v, o.decode.limits.max_work);
     }},
    {"max_words",
     [](absl::string_view k, absl::string_view v, O& o) {
       return SetNumber(k, v, o.decode.limits.max_words);
     }},
    {"max_instructions",
     [](absl::string_view k, absl::string_view v, O& o) {
       return SetNumber(k, v, o.decode.limits.max_instructions);
     }},
};

absl::Status SetOne(absl::string_view key, absl::string_view value, O& o) {
  for (const auto& [name, set] : kKeys) {
    if (name == key) return set(key, value, o);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "ATOMFUZZ_OPTIONS: unknown key '", key, "'; keys:\n", kHelp));
}

}  // namespace

absl::string_view HarnessOptionsHelp() { return kHelp; }

std::string ExpandOrigin(absl::string_view text) {
  if (!absl::StrContains(text, "$ORIGIN")) return std::string(text);
  std::error_code error;
  const std::filesystem::path self =
      std::filesystem::read_symlink("/proc/self/exe", error);
  // Without /proc the text stays as it is, and names no file.
  if (error) return std::string(text);
  return absl::StrReplaceAll(text, {{"$ORIGIN", self.parent_path().string()}});
}

absl::StatusOr<HarnessOptions> ParseHarnessOptions(absl::string_view text,
                                                   HarnessOptions defaults) {
  HarnessOptions o = std::move(defaults);
  for (absl::string_view item :
       absl::StrSplit(text, ',', absl::SkipWhitespace())) {
    const std::pair<absl::string_view, absl::string_view> kv =
        absl::StrSplit(item, absl::MaxSplits('=', 1));
    const absl::string_view key = absl::StripAsciiWhitespace(kv.first);
    if (item.find('=') == absl::string_view::npos) {
      return Bad(key, "", "key=value");
    }
    if (absl::Status s = SetOne(key, absl::StripAsciiWhitespace(kv.second), o);
        !s.ok()) {
      return s;
    }
  }
  return o;
}

Harness::Harness(HarnessOptions options, std::optional<KnownFindings> known,
                 targets::TargetInfo row, Policy policy,
                 std::unique_ptr<targets::Target> target,
                 RunOptions reproducible)
    : options_(std::move(options)),
      known_(std::move(known)),
      row_(std::move(row)),
      policy_(std::move(policy)),
      target_(std::move(target)),
      reproducible_(std::move(reproducible)) {
  judge_.interpret.max_steps_per_thread = options_.max_steps;
  // Dynamic work: loops may repeat the static work this many times.
  judge_.interpret.max_total_steps =
      std::max<uint64_t>(options_.decode.limits.max_work, 1) * 64;
  judge_.search_budget = options_.search_budget;
}

absl::StatusOr<std::unique_ptr<Harness>> Harness::Create(
    const HarnessOptions& options) {
  absl::StatusOr<Policy> policy = PolicyByName(options.policy);
  if (!policy.ok()) return policy.status();
  const std::string target_name = ExpandOrigin(options.target);
  // What the target is known to refuse (vkd3d 1.2's umad, findings.md #8) is
  // neither generated nor run, as in a campaign (campaign_setup.cc).
  targets::TargetInfo row;
  if (std::optional<targets::TargetInfo> found =
          targets::FindTarget(target_name)) {
    row = *std::move(found);
    WithoutOps(*policy, row.unsupported);
    WithoutSyncs(*policy, row.unsupported_syncs);
  }
  std::optional<KnownFindings> known;
  if (!options.known.empty()) {
    absl::StatusOr<KnownFindings> loaded =
        KnownFindings::Load(ExpandOrigin(options.known));
    if (!loaded.ok()) return loaded.status();
    known = *std::move(loaded);
  }
  RunOptions run;
  run.target = target_name;
  if (!options.vkd3d.empty()) {
    run.target_options.flags[targets::vulkan::kVkd3dFlag] =
        ExpandOrigin(options.vkd3d);
  }
  run.target_options.in_process = !options.isolate;
  run.schedule = options.schedule;
  run.target_options.deterministic = options.deterministic;
  run.target_options.threads = options.threads;
  if (!options.inject.empty())
    run.target_options.flags[targets::fast::kInjectFlag] = options.inject;
  run.target_options.max_steps_per_wave = options.max_steps;
  absl::StatusOr<std::unique_ptr<targets::Target>> target = MakeTarget(run);
  if (!target.ok()) return target.status();
  return std::unique_ptr<Harness>(
      new Harness(options, std::move(known), std::move(row), *std::move(policy),
                  *std::move(target), ReproducibleOptions(run)));
}

Generalised Harness::GeneraliseFound(const isa::Case& c,
                                     const Signature& found) const {
  if (generalise_target_ == nullptr) {
    absl::StatusOr<std::unique_ptr<targets::Target>> made =
        MakeTarget(reproducible_);
    if (!made.ok()) {
      Generalised unchanged;
      unchanged.signature = found;
      unchanged.complete = false;
      return unchanged;
    }
    generalise_target_ = *std::move(made);
  }
  GeneraliseOptions go;
  go.deadline = absl::Now() + absl::Seconds(options_.generalise_seconds);
  go.judge = judge_;
  return Generalise(c, found, *generalise_target_, go);
}

std::string Harness::Report(const isa::Case& c, absl::string_view headline,
                            absl::string_view detail) const {
  isa::Case shown = c;
  auto set = [&](const std::string& key, std::string value) {
    for (auto& [k, v] : shown.metadata) {
      if (k == key) {
        v = std::move(value);
        return;
      }
    }
    shown.metadata.emplace_back(key, std::move(value));
  };
  set("target", options_.target);
  if (!options_.inject.empty()) set("inject", options_.inject);
  // One line: the reader takes the rest of the line as the value.
  std::string one_line(detail);
  std::replace(one_line.begin(), one_line.end(), '\n', ' ');
  set(std::string(headline), one_line);
  return absl::StrCat(
      "atomfuzz: ", headline, " on target ", options_.target,
      options_.inject.empty() ? "" : " inject=", options_.inject, "\n", detail,
      "\n--- case ---\n", isa::PrintCase(shown));
}

namespace {

InputResult Result(InputResult::Kind kind, std::string report) {
  InputResult r;
  r.kind = kind;
  r.report = std::move(report);
  return r;
}

}  // namespace

InputResult Harness::RunOne(absl::Span<const uint8_t> bytes) const {
  using Kind = InputResult::Kind;
  absl::StatusOr<DecodedCase> d = DecodeCase(bytes, policy_, options_.decode);
  if (!d.ok())
    return Result(Kind::kRejected, std::string(d.status().message()));
  for (const isa::Instruction& in : d->c.shader.instructions) {
    if (absl::c_linear_search(row_.unsupported, in.op)) {
      return Result(Kind::kRejected,
                    absl::StrCat(isa::Info(in.op).mnemonic,
                                 ": known to be refused by ", options_.target));
    }
    if (in.op == isa::Op::kSync &&
        absl::c_linear_search(row_.unsupported_syncs, in.sync_flags)) {
      return Result(
          Kind::kRejected,
          absl::StrCat(isa::SyncMnemonic(in.sync_flags),
                       ": known to run wrongly on ", options_.target));
    }
  }
  if (row_.unguarded_tgsm) {
    // The oracle's run says where the g# accesses go; a case it cannot run
    // goes on, to be declined by RunOne as on any target.
    oracle::InterpretFacts facts;
    if (oracle::Interpret(d->c, judge_.interpret, facts).ok() &&
        facts.may_leave_tgsm) {
      return Result(Kind::kRejected,
                    absl::StrCat("a g# access out of bounds: known to reach "
                                 "outside its memory on ",
                                 options_.target, " (docs/findings.md #5)"));
    }
  }
  RunOneOptions run;
  run.judge_options = judge_;
  run.scratch = &judging_;
  run.max_atomics_per_word = options_.max_atomics_per_word;
  RunResult r = fuzz::RunOne(d->c, *target_, run);
  switch (r.kind) {
    case RunKind::kTargetFailed:
    case RunKind::kJudgeFailed:
      // Not the input's fault: the engine must stop and show it.
      return Result(Kind::kError,
                    Report(d->c, "error",
                           absl::StrCat(RunKindName(r.kind), ": ", r.message)));
    case RunKind::kNotJudged:
    case RunKind::kRan: return Result(Kind::kRejected, r.message);
    case RunKind::kJudged: break;
  }
  const std::string summary = r.verdict.Summary();
  if (r.verdict.kind == oracle::Verdict::Kind::kDivergence) {
    InputResult found =
        Result(Kind::kDivergence, Report(d->c, "divergence", summary));
    if (!r.verdict.findings.empty())
      found.divergence = r.verdict.findings.front().kind;
    const Differential differential{*r.outcome, r.verdict};
    if (absl::StatusOr<Signature> sig = SignatureOf(
            d->c, differential, TargetLabel(options_.target, options_.inject));
        sig.ok()) {
      found.signature_key = sig->Key();
      found.signature_opcode = sig->opcode;
      found.signature_resource = sig->resource;
      if (const std::string* what =
              known_ ? known_->Find(found.signature_key) : nullptr) {
        return Result(Kind::kRejected, absl::StrCat("known: ", *what));
      }
      // As a campaign matches the list (docs/triage.md), unreduced: the
      // engine's input must end within its timeout.
      if (known_ && options_.generalise_seconds > 0) {
        const Generalised g = GeneraliseFound(d->c, *sig);
        const std::string essential = g.signature.Key();
        if (const std::string* what = known_->Find(essential)) {
          return Result(
              Kind::kRejected,
              absl::StrCat("known: ", *what, " (essential ", essential, ")"));
        }
        absl::StrAppend(&found.report,
                        "\natomfuzz essential signature: ", essential, "\n",
                        g.trigger, " (", g.Cost(), ")\n");
      }
    }
    return found;
  }
  return Result(Kind::kPassed, summary);
}

}  // namespace atomfuzz::fuzz
