#include "cli/flags.h"

#include <string>

#include "absl/flags/flag.h"

ABSL_FLAG(bool, check, false,
          "Print nothing; exit 1 if a file is not in canonical form.");
ABSL_FLAG(bool, in_place, false,
          "Rewrite files in canonical form (atomically) instead of printing.");
ABSL_FLAG(bool, validate, true,
          "Also apply the validator's rules (--novalidate formats invalid "
          "cases, e.g. for invalid-input tests).");
ABSL_FLAG(bool, quiet, false,
          "Print only problems: no summary line, no per-case 'allowed'.");
ABSL_FLAG(std::string, target, "oracle", "Executor to run cases on, one of:");
ABSL_FLAG(std::string, schedule, "canonical",
          "Oracle thread schedule: canonical, or random:SEED for a seeded "
          "random interleaving.");
ABSL_FLAG(bool, json, false, "Print the outcome as JSON (undefined = null).");
ABSL_FLAG(
    bool, trace, false,
    "Also print every atomic: thread, address, operands, returned value.");
ABSL_FLAG(int, threads, 0,
          "Worker threads of the fast target (0 = all cores).");
ABSL_FLAG(
    bool, deterministic, false,
    "Fast target: one worker, fixed group and lane order, for reproduction.");
ABSL_FLAG(std::string, inject, "",
          "Fast target: run with a deliberately injected bug (--inject=list "
          "prints their names).");
ABSL_FLAG(std::string, vk_device, "",
          "Vulkan targets: use the first device whose name contains this "
          "(default: lavapipe, else the first device).");
ABSL_FLAG(double, seconds, 0,
          "fuzz, reduce: stop after this many seconds (0 = no time limit).");
ABSL_FLAG(uint64_t, runs, 0,
          "fuzz: stop after this many cases (0 = no limit).");
ABSL_FLAG(int, jobs, 1, "fuzz: worker processes.");
ABSL_FLAG(uint64_t, seed, 0,
          "Random seed (0 = pick one and print it). A seed rebuilds the same "
          "cases on any machine.");
ABSL_FLAG(std::string, out, "",
          "Output: the campaign directory (fuzz, triage), or the file a "
          "command writes (reduce, gen, dxbc, disasm); '-o' is the same flag.");
ABSL_FLAG(
    std::string, policy, "default",
    "Generation policy (fuzz, gen): 'atomfuzz gen --policy=list' names them.");
ABSL_FLAG(bool, resume, false,
          "fuzz: continue the campaign in --out where it stopped.");
ABSL_FLAG(double, timeout, 10,
          "fuzz: seconds one case may run before the worker counts as hung "
          "(an ext: target times out at half of it); run, judge, check, "
          "reduce: seconds an ext: target may take per case.");
ABSL_FLAG(double, reduce_seconds, 20,
          "fuzz: seconds spent reducing each new bucket's first finding "
          "(0 = keep findings unreduced).");
ABSL_FLAG(int64_t, max_attempts, 20000,
          "reduce: candidates to run at most (each is run and judged once).");
