// atomfuzz decode: the case a libFuzzer or AFL++ input ran (a crash-<sha1>,
// an AFL++ crashes/id:... file): a case file's text is that case, any other
// bytes are the generator's choices under --policy (the harness's
// ATOMFUZZ_OPTIONS policy), so judge, reduce and triage take engine
// findings. Prints the case (or writes --out).
#include <cstdio>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "fuzz/generate/policy.h"
#include "fuzz/mutate/case_decoder.h"

namespace atomfuzz::cli {

int RunDecode(const std::vector<std::string>& files) {
  if (files.size() != 1) {
    std::fprintf(stderr,
                 "atomfuzz decode: expected one FILE (an engine's "
                 "input)\n");
    return kExitBadInput;
  }
  const std::string& path = files[0];
  absl::StatusOr<fuzz::Policy> policy =
      fuzz::PolicyByName(absl::GetFlag(FLAGS_policy));
  if (!policy.ok()) {
    std::fprintf(stderr, "atomfuzz decode: --policy: %s\n",
                 std::string(policy.status().message()).c_str());
    return kExitBadInput;
  }
  std::string bytes;
  if (!ReadFile(path, bytes)) return kExitBadInput;
  absl::StatusOr<fuzz::DecodedCase> d = fuzz::DecodeCase(
      absl::Span<const uint8_t>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                bytes.size()),
      *policy, fuzz::DecodeOptions{});
  if (!d.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(),
                 std::string(d.status().message()).c_str());
    return kExitBadInput;
  }
  isa::Case& c = d->c;
  c.metadata.emplace_back("decoded_from", path);
  c.metadata.emplace_back(
      "decoded_as", d->from_text ? "case text"
                                 : absl::StrCat("generator choices, policy ",
                                                absl::GetFlag(FLAGS_policy)));
  return WriteOutput(isa::PrintCase(c));
}

}  // namespace atomfuzz::cli
