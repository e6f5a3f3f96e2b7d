// atomfuzz gen: print the case a seed and policy generate, the way a
// campaign builds it (`seed` in a finding's metadata rebuilds it here).
#include <cstdio>

#include "absl/flags/flag.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "fuzz/generate/choices.h"
#include "fuzz/generate/generator.h"
#include "fuzz/generate/policy.h"

namespace atomfuzz::cli {

int RunGen(const std::vector<std::string>& args) {
  const std::string policy_name = absl::GetFlag(FLAGS_policy);
  if (policy_name == "list") {
    for (const std::string& n : fuzz::PolicyNames())
      std::printf("%s\n", n.c_str());
    return kExitOk;
  }
  if (!args.empty()) {
    std::fprintf(stderr, "atomfuzz gen: expected no arguments, found '%s'\n",
                 args[0].c_str());
    return kExitBadInput;
  }
  absl::StatusOr<fuzz::Policy> policy = fuzz::PolicyByName(policy_name);
  if (!policy.ok()) {
    std::fprintf(stderr, "atomfuzz gen: --policy: %s\n",
                 std::string(policy.status().message()).c_str());
    return kExitBadInput;
  }
  const uint64_t seed = absl::GetFlag(FLAGS_seed);
  fuzz::SeededChoices choices(seed);
  isa::Case c = fuzz::GenerateCase(choices, *policy);
  c.metadata.emplace_back("seed", absl::StrFormat("0x%016x", seed));
  c.metadata.emplace_back("policy", policy_name);
  return WriteOutput(isa::PrintCase(c));
}

}  // namespace atomfuzz::cli
