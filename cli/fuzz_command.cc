// atomfuzz fuzz: a differential fuzzing campaign (fuzz/campaign/campaign.h).
// Exit 0 when it found nothing new, 1 when it found new buckets, 2 on bad
// input.
#include <cstdio>

#include "absl/flags/flag.h"
#include "atomfuzz_version.h"
#include "cli/command.h"
#include "cli/flags.h"
#include "cli/load_case.h"
#include "fuzz/campaign/campaign.h"
#include "targets/target_versions.h"

namespace atomfuzz::cli {

int RunFuzz(const std::vector<std::string>& seeds) {
  fuzz::CampaignOptions o;
  o.target = absl::GetFlag(FLAGS_target);
  o.target_flags = TargetFlagsGiven();
  if (PrintInjectionsIfAsked(o.inject())) return kExitOk;
  o.policy = absl::GetFlag(FLAGS_policy);
  o.seed = absl::GetFlag(FLAGS_seed);
  o.seconds = absl::GetFlag(FLAGS_seconds);
  o.runs = absl::GetFlag(FLAGS_runs);
  o.jobs = absl::GetFlag(FLAGS_jobs);
  o.out = absl::GetFlag(FLAGS_out);
  if (o.out.empty()) o.out = "atomfuzz-out";
  o.resume = absl::GetFlag(FLAGS_resume);
  o.timeout_seconds = absl::GetFlag(FLAGS_timeout);
  o.reduce_seconds = absl::GetFlag(FLAGS_reduce_seconds);
  o.stats_every_seconds = absl::GetFlag(FLAGS_save_every);
  o.tool_commit = ATOMFUZZ_COMMIT;
  o.versions = targets::TargetVersions(o.target);
  o.quiet = absl::GetFlag(FLAGS_quiet);
  o.seeds = seeds;
  o.known = absl::GetFlag(FLAGS_known);
  o.sync_dir = absl::GetFlag(FLAGS_sync);
  o.sync_name = absl::GetFlag(FLAGS_sync_name);
  o.sync_every_seconds = absl::GetFlag(FLAGS_sync_every);
  if (o.seconds == 0 && o.runs == 0) {
    std::fprintf(stderr,
                 "atomfuzz fuzz: running until interrupted (Ctrl-C "
                 "stops it cleanly; --resume continues)\n");
  }
  absl::StatusOr<fuzz::CampaignResult> r = fuzz::RunCampaign(o, stderr);
  if (!r.ok()) {
    std::fprintf(stderr, "atomfuzz fuzz: %s\n",
                 std::string(r.status().message()).c_str());
    return FailureExit(r.status());
  }
  std::fprintf(stderr, "%s\n\n%s\n", fuzz::StatusLine(r->totals).c_str(),
               fuzz::RenderCoverage(r->totals.coverage).c_str());
  std::fprintf(
      stderr,
      "stats: %s/stats.json; findings: %s/findings (atomfuzz triage %s)\n",
      o.out.c_str(), o.out.c_str(), o.out.c_str());
  if (r->totals.generalised > 0) {
    // What keying buckets by essential signatures cost this session.
    std::fprintf(stderr, "generalised %llu signature%s: %llu runs, %.2f s\n",
                 static_cast<unsigned long long>(r->totals.generalised),
                 r->totals.generalised == 1 ? "" : "s",
                 static_cast<unsigned long long>(r->totals.generalise_runs),
                 r->totals.generalise_seconds);
  }
  if (!r->sync_summary.empty())
    std::fprintf(stderr, "%s\n", r->sync_summary.c_str());
  if (r->new_buckets > 0) {
    std::fprintf(stderr, "%llu new bucket%s\n",
                 static_cast<unsigned long long>(r->new_buckets),
                 r->new_buckets == 1 ? "" : "s");
  }
  if (r->known_buckets > 0) {
    std::fprintf(stderr, "%llu bucket%s of known findings (--known)\n",
                 static_cast<unsigned long long>(r->known_buckets),
                 r->known_buckets == 1 ? "" : "s");
  }
  if (r->write_failed) {
    std::fprintf(stderr,
                 "atomfuzz fuzz: stopped: a write failed (see above)\n");
    return kExitToolFailed;
  }
  if (r->new_buckets > 0) return kExitCheckFailed;
  return kExitOk;
}

}  // namespace atomfuzz::cli
