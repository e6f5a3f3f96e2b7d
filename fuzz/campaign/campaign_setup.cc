#include "fuzz/campaign/campaign_setup.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "fuzz/atomic_file.h"
#include "fuzz/campaign/campaign_corpus.h"
#include "fuzz/campaign/corpus_epochs.h"
#include "fuzz/confined_paths.h"
#include "fuzz/runner.h"
#include "fuzz/triage/finding_store.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

absl::Status CheckOptions(const CampaignOptions& o) {
  if (o.jobs < 1 || o.jobs > 256) {
    return absl::InvalidArgumentError(
        absl::StrCat("--jobs: expected 1..256, found ", o.jobs));
  }
  if (o.seconds < 0 || o.timeout_seconds <= 0 || o.reduce_seconds < 0) {
    return absl::InvalidArgumentError(
        "--seconds, --timeout and --reduce-seconds: expected non-negative "
        "seconds (timeout positive)");
  }
  if (o.out.empty())
    return absl::InvalidArgumentError("--out: expected a directory");
  if (!o.sync_name.empty() && o.sync_dir.empty())
    return absl::InvalidArgumentError("--sync-name: expected --sync=DIR too");
  if (!o.sync_dir.empty() && !(o.sync_every_seconds > 0)) {
    return absl::InvalidArgumentError(
        "--sync-every: expected a positive number of seconds");
  }
  return absl::OkStatus();
}

absl::Status MakeDirs(const std::string& out) {
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) {
    return absl::InvalidArgumentError(absl::StrCat(
        out, ": cannot create the output directory: ", ec.message()));
  }
  // Inside it, nothing is reached through a link (fuzz/confined_paths.h).
  if (absl::Status s = ConfineFilesUnder(out); !s.ok()) return s;
  for (const char* sub : {"/corpus", "/pending"}) {
    if (absl::Status s = MakeDirectories(out + sub); !s.ok()) {
      return absl::InvalidArgumentError(s.message());
    }
  }
  return absl::OkStatus();
}

// A new campaign must not silently mix with an old one, nor a resumed one
// start from nothing.
absl::Status LoadState(const CampaignOptions& o, const std::string& path,
                       CampaignState& state) {
  std::error_code ec;
  const bool exists = fs::exists(path, ec);
  if (exists && !o.resume) {
    return absl::InvalidArgumentError(
        absl::StrCat(o.out, ": holds a campaign (", path,
                     "); expected --resume to continue it, or another --out"));
  }
  if (!exists && o.resume) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": expected the state of a campaign to resume, found none"));
  }
  if (!exists) return absl::OkStatus();
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<CampaignState> parsed = ParseCampaignState(*text, path);
  if (!parsed.ok()) return parsed.status();
  if (parsed->target != o.target || parsed->inject != o.inject()) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": expected the campaign's own target '",
        TargetLabel(parsed->target, parsed->inject), "', found '",
        TargetLabel(o.target, o.inject()), "' on the command line"));
  }
  state = *parsed;
  return absl::OkStatus();
}

// The policy named `name`, less what `target` is known to refuse: a
// campaign on vulkan spent a third of its cases on `umad` rejected by
// vkd3d 1.2.
absl::StatusOr<Policy> PolicyFor(const std::string& name,
                                 const std::string& target) {
  absl::StatusOr<Policy> policy = PolicyByName(name);
  if (!policy.ok()) return policy.status();
  if (const std::optional<targets::TargetInfo> row =
          targets::FindTarget(target)) {
    WithoutOps(*policy, row->unsupported);
    WithoutSyncs(*policy, row->unsupported_syncs);
  }
  return policy;
}

}  // namespace

void RemoveLeftoverTempFiles(const std::string& dir) {
  std::error_code ec;
  for (fs::recursive_directory_iterator
           it(dir, fs::directory_options::none, ec),
       end;
       !ec && it != end; it.increment(ec)) {
    if (it->is_symlink(ec)) continue;
    const std::string name = it->path().filename().string();
    if (it->is_regular_file(ec) && name.find(".tmp.") != std::string::npos)
      fs::remove(it->path(), ec);
  }
}

absl::StatusOr<DirectoryLock> DirectoryLock::Take(const std::string& dir) {
  const std::string path = dir + "/campaign.lock";
  DirectoryLock lock;
  lock.fd_ =
      ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (lock.fd_ < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": cannot open the campaign's lock: ", std::strerror(errno)));
  }
  if (::flock(lock.fd_, LOCK_EX | LOCK_NB) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        dir, ": another campaign is running on this directory (it holds ", path,
        "); wait for it, or give another --out"));
  }
  return lock;
}

DirectoryLock& DirectoryLock::operator=(DirectoryLock&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    o.fd_ = -1;
  }
  return *this;
}

DirectoryLock::~DirectoryLock() {
  if (fd_ >= 0) ::close(fd_);
}

absl::StatusOr<PreparedCampaign> PrepareCampaign(
    const CampaignOptions& options) {
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  PreparedCampaign p;
  p.setup.options = options;
  absl::StatusOr<Policy> policy = PolicyFor(options.policy, options.target);
  if (!policy.ok()) return policy.status();
  p.setup.policy = *std::move(policy);
  if (!options.make_target) {
    // Bad target or injection names fail here, before any process starts.
    absl::StatusOr<std::unique_ptr<targets::Target>> t =
        MakeTarget(p.setup.Run());
    if (!t.ok()) return t.status();
  }
  // Bad seeds are bad input (exit 2), found before any worker starts.
  p.setup.corpus = CampaignCorpus(options.out + "/corpus");
  if (absl::Status s = p.setup.corpus.AddSeeds(options.seeds); !s.ok())
    return s;
  if (!options.known.empty()) {
    absl::StatusOr<KnownFindings> known = KnownFindings::Load(options.known);
    if (!known.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--known: ", known.status().message()));
    }
    p.setup.known = *std::move(known);
  }
  if (absl::Status s = MakeDirs(options.out); !s.ok()) return s;
  absl::StatusOr<DirectoryLock> lock = DirectoryLock::Take(options.out);
  if (!lock.ok()) return lock.status();
  p.lock = *std::move(lock);
  if (absl::Status s = RefuseSymlinksUnder(options.out); !s.ok()) return s;
  RemoveLeftoverTempFiles(options.out);
  absl::StatusOr<FindingStore> store = FindingStore::Open(options.out);
  if (!store.ok()) return store.status();
  p.state_path = options.out + "/campaign.state";
  p.stats_path = options.out + "/stats.json";
  if (absl::Status s = LoadState(options, p.state_path, p.state); !s.ok())
    return s;
  p.features_path = options.out + "/features";
  if (options.resume && !p.state.policy.empty() &&
      p.state.policy != options.policy) {
    // The recorded policy is the campaign's: a different one given again
    // would make its seed and case numbers mean other cases. "default" is
    // what the flag says when nobody gave it.
    if (options.policy != "default") {
      return absl::InvalidArgumentError(
          absl::StrCat(p.state_path, ": the campaign runs policy '",
                       p.state.policy, "', found --policy=", options.policy,
                       " on the command line (leave it out to resume)"));
    }
    absl::StatusOr<Policy> recorded = PolicyFor(p.state.policy, options.target);
    if (!recorded.ok()) return recorded.status();
    p.setup.policy = *std::move(recorded);
    p.setup.options.policy = p.state.policy;
  }
  if (options.resume) {
    // The kept epochs and their features. A campaign from before epochs
    // has a features file at most; one from before that starts blind.
    const std::string record_path = EpochRecordPath(options.out);
    if (absl::StatusOr<std::string> text = ReadWholeFile(record_path);
        text.ok()) {
      absl::StatusOr<EpochRecord> record = ParseEpochRecord(*text, record_path);
      if (!record.ok()) return record.status();
      p.finalized_epochs = record->finalized;
      p.epoch_cases = record->epoch_cases;
      p.seen_features = record->features_hex;
      p.features_path = record_path;
    } else if (absl::StatusOr<std::string> seen =
                   ReadWholeFile(p.features_path);
               seen.ok()) {
      p.seen_features = *std::move(seen);
    }
    p.setup.seed = p.state.seed;
    p.setup.elapsed_before = p.state.elapsed_seconds;
  } else {
    p.setup.seed = options.seed;
    absl::BitGen fresh;  // only picks a seed; everything after is ours
    while (p.setup.seed == 0) p.setup.seed = absl::Uniform<uint64_t>(fresh);
    p.state.seed = p.setup.seed;
    p.state.target = options.target;
    p.state.inject = options.inject();
    p.state.policy = options.policy;
  }
  // A new campaign (or one from before epochs) takes its target's size.
  if (p.epoch_cases == 0) p.epoch_cases = EpochCasesFor(p.setup.options.target);
  p.setup.started = absl::Now();
  return p;
}

}  // namespace atomfuzz::fuzz
