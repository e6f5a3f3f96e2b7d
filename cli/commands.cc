// The table of subcommands.
#include "cli/command.h"

namespace atomfuzz::cli {

int RunFmt(const std::vector<std::string>& args);
int RunValidate(const std::vector<std::string>& args);
int RunCoverage(const std::vector<std::string>& args);
int RunRun(const std::vector<std::string>& args);
int RunCheck(const std::vector<std::string>& args);
int RunJudge(const std::vector<std::string>& args);

namespace {

const Command kCommands[] = {
    {"fmt", "atomfuzz fmt [--check | --in_place] [--novalidate] FILE...",
     "parse, validate and print cases in canonical form",
     {"check", "in_place", "validate"}, RunFmt},
    {"validate", "atomfuzz validate [--quiet] FILE...",
     "check cases against the spec's rules (exit 1 if any is invalid)",
     {"quiet"}, RunValidate},
    {"run", "atomfuzz run FILE [--target=oracle|fast] [--schedule=canonical|random:SEED] [--json] [--trace]\n       [--threads=N] [--deterministic] [--inject=NAME|list]",
     "run one case and print its outcome (undefined words print as 8 question marks)",
     {"target", "schedule", "json", "trace", "threads", "deterministic", "inject"}, RunRun},
    {"check", "atomfuzz check FILE... [--target=oracle|fast] [--schedule=...] [--quiet] [--threads=N] [--deterministic] [--inject=NAME]",
     "run cases and compare them with their [expect] sections (exit 1 on any mismatch)",
     {"target", "schedule", "quiet", "threads", "deterministic", "inject"}, RunCheck},
    {"judge", "atomfuzz judge FILE... [--target=oracle|fast] [--schedule=...] [--quiet] [--threads=N] [--deterministic] [--inject=NAME]",
     "run cases on a target and judge each outcome: allowed, unknown or divergence (exit 1 on any divergence)",
     {"target", "schedule", "quiet", "threads", "deterministic", "inject"}, RunJudge},
    {"coverage", "atomfuzz coverage FILE...",
     "print the atomic x memory-kind matrix a set of cases covers", {},
     RunCoverage},
};

}  // namespace

std::span<const Command> AllCommands() { return kCommands; }

}  // namespace atomfuzz::cli
