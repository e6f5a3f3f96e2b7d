#include "fuzz/campaign/campaign_sync.h"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/atomic_file.h"
#include "fuzz/campaign/campaign_setup.h"
#include "fuzz/campaign/case_features.h"
#include "fuzz/campaign/corpus_epochs.h"
#include "fuzz/confined_paths.h"
#include "fuzz/runner.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

// Cases of one peer read in one round: enough to catch up with a fast
// target's corpus within a few rounds.
constexpr size_t kCasesPerPeer = 256;

std::string Absolute(const std::string& path) {
  std::error_code ec;
  std::string p = fs::absolute(path, ec).lexically_normal().string();
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  return p;
}

bool Within(const std::string& inner, const std::string& outer) {
  return inner == outer || absl::StartsWith(inner, outer + "/");
}

}  // namespace

absl::StatusOr<std::unique_ptr<CampaignSync>> CampaignSync::Open(
    const CampaignSetup& setup, std::FILE* log) {
  const CampaignOptions& o = setup.options;
  const std::string sync = Absolute(o.sync_dir), out = Absolute(o.out);
  // A sync directory inside --out (or around it) would list the campaign's
  // own files as a peer's.
  if (Within(sync, out) || Within(out, sync)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--sync=", o.sync_dir, ": expected a directory apart from --out=",
        o.out, " (neither inside the other)"));
  }
  if (absl::Status s = MakeDirectories(sync); !s.ok())
    return absl::InvalidArgumentError(absl::StrCat("--sync: ", s.message()));
  // Peers may be hostile: nothing under DIR is reached through a link.
  if (absl::Status s = ConfineFilesUnder(sync); !s.ok()) return s;
  absl::StatusOr<SyncIdentity> id = SetUpSyncIdentity(
      o.out, sync, o.sync_name,
      absl::StrFormat("target %s\npolicy %s\nseed %d\n",
                      TargetLabel(o.target, o.inject()), o.policy, setup.seed));
  if (!id.ok()) return id.status();
  // What a kill left half written under its name; the name is its own.
  RemoveLeftoverTempFiles(absl::StrCat(id->dir, "/", id->name));
  return std::unique_ptr<CampaignSync>(
      new CampaignSync(setup, *std::move(id), log));
}

CampaignSync::CampaignSync(const CampaignSetup& setup, SyncIdentity identity,
                           std::FILE* log)
    : setup_(setup),
      identity_(std::move(identity)),
      log_(log),
      warnings_(log),
      corpora_(setup.options.out, identity_.dir) {}

void CampaignSync::Publish(const FindingStore& store) {
  absl::Status s =
      PublishFindings(store, Mine(), identity_.name, published_texts_);
  if (s.ok())
    s = PublishCorpus(setup_.options.out, Mine(), corpora_.imported(),
                      published_cases_);
  // Its own directory is safe; the peers will have it next round.
  if (!s.ok())
    warnings_.Skip(Mine(), absl::StrCat("publishing: ", s.message()));
}

absl::StatusOr<std::vector<AdoptedBucket>> CampaignSync::Round(
    FindingStore& store, SharedState& shared, EpochKeeper& keeper, bool final) {
  Publish(store);
  const std::vector<std::string> peers =
      ListPeers(identity_.dir, identity_.name, warnings_);
  peers_ = std::max(peers_, peers.size());
  absl::StatusOr<std::vector<AdoptedBucket>> adopted =
      ImportFindings(store, identity_.dir, peers, stamps_, warnings_);
  if (!adopted.ok()) return adopted.status();
  buckets_adopted_ += adopted->size();
  if (!final) {
    if (absl::Status s = ImportCases(peers, shared, keeper); !s.ok()) return s;
  }
  return adopted;
}

// Runs the peers' new cases on the target and keeps those that reach a
// feature not reached yet, as the keeper keeps a candidate. A kept case is
// named after the first case number of the epoch not kept yet: no worker
// has loaded past it, so it joins every worker's corpus in index order,
// two epochs on, as the campaign's own cases do (corpus_epochs.h).
absl::Status CampaignSync::ImportCases(const std::vector<std::string>& peers,
                                       SharedState& shared,
                                       EpochKeeper& keeper) {
  std::vector<PeerCase> fresh = corpora_.Fresh(peers, kCasesPerPeer, warnings_);
  if (fresh.empty()) return corpora_.Save();
  std::vector<isa::Case> cases;
  for (const PeerCase& p : fresh) cases.push_back(p.c);
  const auto& make = setup_.options.make_target;
  const RunOptions run = setup_.Run();
  const double budget =
      std::clamp(setup_.options.sync_every_seconds / 4, 0.5, 5.0);
  absl::StatusOr<std::vector<CaseFeatures>> features = FeaturesInChild(
      cases, [&]() { return make ? make() : MakeTarget(run); }, budget,
      setup_.options.timeout_seconds);
  if (!features.ok()) {
    warnings_.Skip(identity_.dir, absl::StrCat("running peers' cases: ",
                                               features.status().message()));
    return absl::OkStatus();
  }
  const Epochs epochs(shared.progress.epoch_cases.load());
  const uint64_t index = epochs.First(shared.progress.finalized_epochs.load());
  bool kept_any = false;
  for (size_t i = 0; i < fresh.size(); ++i) {
    const CaseFeatures& f = (*features)[i];
    const PeerCase& p = fresh[i];
    if (!f.ran) continue;  // next round
    ++cases_run_;
    corpora_.Seen(p.peer, p.name, p.hash);
    if (f.killed) {
      warnings_.Skip(
          absl::StrCat(identity_.dir, "/", p.peer, "/corpus/", p.name),
          "it crashed or hung the target");
      continue;
    }
    bool new_feature = false;
    for (int feature : f.features)
      new_feature |= shared.seen[feature].load() == 0;
    if (!new_feature) continue;
    if (absl::Status s =
            WriteFileAtomically(absl::StrCat(setup_.options.out, "/corpus/",
                                             KeptCaseName(index, p.text)),
                                p.text, false);
        !s.ok())
      return s;
    for (int feature : f.features) shared.seen[feature].store(1);
    shared.corpus_kept.fetch_add(1);
    corpora_.Holds(p.hash);
    ++cases_kept_;
    kept_any = true;
  }
  // The features first: a kill between the two runs the cases again
  // (their text is held now, so none is kept twice).
  if (kept_any) {
    if (absl::Status s = keeper.SaveRecord(); !s.ok()) return s;
  }
  return corpora_.Save();
}

std::string CampaignSync::Summary() const {
  return absl::StrFormat(
      "sync: %s as %s, %d peer%s: %d of their cases run, %d kept; %d "
      "bucket%s adopted",
      identity_.dir, identity_.name, peers_, peers_ == 1 ? "" : "s", cases_run_,
      cases_kept_, buckets_adopted_, buckets_adopted_ == 1 ? "" : "s");
}

}  // namespace atomfuzz::fuzz
