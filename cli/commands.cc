// The table of subcommands.
#include <iterator>

#include "cli/command.h"
#include "cli/flags.h"

namespace atomfuzz::cli {

int RunFmt(const std::vector<std::string>& args);
int RunValidate(const std::vector<std::string>& args);
int RunCoverage(const std::vector<std::string>& args);
int RunRun(const std::vector<std::string>& args);
int RunCheck(const std::vector<std::string>& args);
int RunJudge(const std::vector<std::string>& args);
int RunFuzz(const std::vector<std::string>& args);
int RunGen(const std::vector<std::string>& args);
int RunReduce(const std::vector<std::string>& args);
int RunGeneralise(const std::vector<std::string>& args);
int RunTriage(const std::vector<std::string>& args);
int RunMerge(const std::vector<std::string>& args);
int RunDecode(const std::vector<std::string>& args);
int RunDxbc(const std::vector<std::string>& args);
int RunDisasm(const std::vector<std::string>& args);
int RunExport(const std::vector<std::string>& args);

namespace {

const Command kCommands[] = {
    {"fmt", "atomfuzz fmt FILE... [FLAGS]",
     "parse, validate and print cases in canonical form", RunFmt},
    {"validate", "atomfuzz validate FILE... [FLAGS]",
     "check cases against the spec's rules (exit 1 if any is invalid)",
     RunValidate},
    {"run", "atomfuzz run FILE [FLAGS]",
     "run one case and print its outcome (undefined words print as 8 question "
     "marks)",
     RunRun},
    {"check", "atomfuzz check FILE... [FLAGS]",
     "run cases and compare them with their [expect] sections (exit 1 on any "
     "mismatch)",
     RunCheck},
    {"judge", "atomfuzz judge FILE... [FLAGS]",
     "run cases on a target and judge each outcome: allowed, unknown or "
     "divergence (exit 1 on any divergence)",
     RunJudge},
    {"fuzz", "atomfuzz fuzz [SEED_FILE_OR_DIR...] [FLAGS]",
     "differential fuzzing campaign: generate and mutate cases, judge the "
     "target against the oracle, "
     "reduce and save findings in DIR (exit 1 if it found new buckets); "
     "--sync=DIR shares cases and findings with other campaigns",
     RunFuzz},
    {"gen", "atomfuzz gen [FLAGS]",
     "print the case the generator builds from a seed (as a campaign does)",
     RunGen},
    {"reduce", "atomfuzz reduce FILE --target=NAME [FLAGS]",
     "shrink a divergent case while its bucket stays the same; writes OUT "
     "(default stdout), "
     "sizes to stderr (exit 1 if it does not diverge, 2 on bad input)",
     RunReduce},
    {"generalise", "atomfuzz generalise FILE --target=NAME [FLAGS]",
     "which features of a divergent (reduced) case the divergence depends "
     "on: the essential signature that keys its bucket in a campaign, and "
     "its trigger sentence (exit 1 if it does not diverge)",
     RunGeneralise},
    {"triage", "atomfuzz triage DIR... [FLAGS]",
     "list the finding buckets saved in campaign directories, most hit first, "
     "as one table",
     RunTriage},
    {"merge", "atomfuzz merge --out=DIR FILE_OR_DIR... [FLAGS]",
     "keep in DIR the fewest cases, smallest first, that reach every feature "
     "the inputs reach on the target (libFuzzer's -merge=1)",
     RunMerge},
    {"decode", "atomfuzz decode FILE [FLAGS]",
     "print the case a libFuzzer or AFL++ input runs (case text as it is, "
     "other bytes as generator choices under --policy), for judge, reduce "
     "and triage",
     RunDecode},
    {"dxbc", "atomfuzz dxbc FILE.case [FLAGS]",
     "encode a case's shader as a cs_5_0 DXBC container (ISGN, OSGN, SHEX, "
     "exact checksum); "
     "writes OUT atomically, or stdout when it is not a terminal (binary is "
     "never written "
     "to a terminal: exit 2)",
     RunDxbc},
    {"disasm", "atomfuzz disasm FILE.dxbc [FLAGS]",
     "decode a cs_5_0 DXBC container and print its shader in fxc syntax; a "
     "malformed "
     "container is reported as FILE:+OFFSET (instr N): expected ... (exit 2)",
     RunDisasm},
    {"export", "atomfuzz export --format=F FILE.case [-o OUT] [FLAGS]",
     "write a reproducer that runs the case without atomfuzz and prints "
     "PASS or FAIL with each word the spec does not allow: vulkan-c, "
     "d3d12-c, d3d11-c, amber or json (exit 1 if the case cannot be "
     "exported in that format)",
     RunExport},
    {"coverage", "atomfuzz coverage FILE...",
     "print the atomic x memory-kind matrix a set of cases covers",
     RunCoverage},
};

}  // namespace

std::span<const Command> AllCommands() {
  // Each command's flags come from the flag table (flags.def), where each
  // flag names the commands that take it.
  static const std::vector<Command>* const commands = [] {
    auto* all =
        new std::vector<Command>(std::begin(kCommands), std::end(kCommands));
    for (Command& c : *all) {
      for (const FlagRow& f : AllFlags()) {
        if (TakenBy(f, c.name)) c.flags.push_back(f.name);
      }
    }
    return all;
  }();
  return *commands;
}

}  // namespace atomfuzz::cli
