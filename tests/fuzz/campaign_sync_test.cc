// Campaigns that share a sync directory (campaign_sync.h): run at once,
// each lists the same buckets with the same hits; a corrupt sync directory
// stops nobody; a peer's case joins the corpus once; the sync name
// survives --resume.
#include "fuzz/campaign/campaign_sync.h"

#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "fuzz/atomic_file.h"
#include "fuzz/campaign/campaign.h"
#include "fuzz/campaign/sync_corpus.h"
#include "fuzz/campaign/sync_identity.h"
#include "fuzz/triage/signature.h"
#include "gtest/gtest.h"
#include "tests/fuzz/corpus_files.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

std::string FreshRoot(const std::string& name) {
  // Normal, as the paths in warnings are.
  const std::string dir = fs::path(::testing::TempDir() + "/campaign-sync-" +
                                   name + "-" + UniqueSuffix())
                              .lexically_normal()
                              .string();
  fs::create_directories(dir);
  return dir;
}

CampaignOptions Synced(const std::string& out, const std::string& sync) {
  CampaignOptions o;
  o.target = "fast";
  o.out = out;
  o.seed = 7;
  o.quiet = true;
  o.status_every_seconds = 0.2;
  o.stats_every_seconds = 0.2;
  o.sync_dir = sync;
  o.sync_every_seconds = 0.3;
  o.reduce_seconds = 2;
  return o;
}

// Runs the campaign with its log in `log_path`; its result's sync summary,
// or the error.
absl::StatusOr<CampaignResult> RunLogged(const CampaignOptions& o,
                                         const std::string& log_path) {
  std::FILE* log = std::fopen(log_path.c_str(), "w");
  absl::StatusOr<CampaignResult> r = RunCampaign(o, log);
  std::fclose(log);
  return r;
}

std::string Slurp(const std::string& path) {
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  return text.ok() ? *text : "";
}

// id -> "hits_by" as text, of triage's list for `out`.
std::map<std::string, std::string> TriageOf(const std::string& out) {
  absl::StatusOr<std::vector<BucketInfo>> rows = LoadSyncedTriage(out, stderr);
  EXPECT_TRUE(rows.ok()) << rows.status();
  std::map<std::string, std::string> by_id;
  if (!rows.ok()) return by_id;
  for (const BucketInfo& b : *rows) {
    EXPECT_EQ(b.signature.Id(), b.id);
    std::string hits = absl::StrCat(b.hits, " =");
    for (const auto& [campaign, n] : b.hits_by)
      absl::StrAppend(&hits, " ", campaign, ":", n);
    EXPECT_TRUE(by_id.emplace(b.id, hits).second) << "twice: " << b.id;
  }
  return by_id;
}

// Three campaigns at once, two on one injected bug and one on another, so
// that each has buckets only a peer finds. Once all have ended, triage on
// each lists the union of what they found, each bucket once, its hits the
// sum of each campaign's own.
TEST(CampaignSync, ThreeCampaignsAtOnceListTheSameBuckets) {
  const std::string root = FreshRoot("three");
  const std::string sync = root + "/sync";
  const char* injects[] = {"xor-as-or", "xor-as-or", "return-new"};
  std::vector<pid_t> children;
  for (int k = 0; k < 3; ++k) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      CampaignOptions o = Synced(absl::StrCat(root, "/", k), sync);
      o.seed = 1 + k;
      o.seconds = 4;
      o.target_flags["inject"] = injects[k];
      absl::StatusOr<CampaignResult> r =
          RunLogged(o, absl::StrCat(root, "/log", k));
      _exit(r.ok() ? 0 : 1);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  }
  // What each found itself, by campaign name.
  std::map<std::string, int64_t> own_sum;  // id -> hits summed
  std::set<std::string> targets;
  for (int k = 0; k < 3; ++k) {
    const std::string out = absl::StrCat(root, "/", k);
    absl::StatusOr<FindingStore> store = FindingStore::OpenReadOnly(out);
    ASSERT_TRUE(store.ok()) << store.status();
    absl::StatusOr<std::vector<BucketInfo>> buckets = store->ReadAll();
    ASSERT_TRUE(buckets.ok()) << buckets.status();
    bool adopted = false;
    for (const BucketInfo& b : *buckets) {
      if (auto it = b.hits_by.find(""); it != b.hits_by.end())
        own_sum[b.id] += it->second;
      adopted |= !b.hits_by.contains("");
      targets.insert(b.signature.target);
    }
    // Each ran long enough to bring in a bucket only the others find.
    EXPECT_TRUE(adopted) << k << "\n" << Slurp(absl::StrCat(root, "/log", k));
  }
  EXPECT_EQ(targets, (std::set<std::string>{"fast+inject=return-new",
                                            "fast+inject=xor-as-or"}));
  const std::map<std::string, std::string> first = TriageOf(root + "/0");
  ASSERT_EQ(first.size(), own_sum.size());
  for (const auto& [id, hits] : own_sum) {
    ASSERT_TRUE(first.contains(id)) << id;
    EXPECT_TRUE(absl::StartsWith(first.at(id), absl::StrCat(hits, " =")))
        << id << ": " << first.at(id) << ", own hits sum to " << hits;
  }
  EXPECT_EQ(TriageOf(root + "/1"), first);
  EXPECT_EQ(TriageOf(root + "/2"), first);
}

void Write(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path) << text;
}

// A sync directory written by a hostile or broken peer: each bad file is
// skipped with a warning that names it, and the campaign runs its course.
TEST(CampaignSync, ACorruptSyncDirectoryIsSkippedWithWarnings) {
  const std::string root = FreshRoot("corrupt");
  const std::string sync = root + "/sync";
  const std::string evil = sync + "/evil/corpus/";
  Write(evil + "000000000000-00000000000000aa.case", "[shader]\nfrob\n");
  Write(evil + "notes.txt", "not a case\n");
  fs::create_symlink("/etc/passwd",
                     evil + "000000000001-00000000000000bb.case");
  Write(sync + "/evil/findings/0123456789abcdef/bucket.txt", "key = frob\n");
  Write(sync + "/evil/findings/0123456789abcdef/hits/sync.evil", "3\n");
  Write(sync + "/stray-file", "");
  fs::create_directories(sync + "/.hidden");
  CampaignOptions o = Synced(root + "/out", sync);
  o.runs = 300;
  absl::StatusOr<CampaignResult> r = RunLogged(o, root + "/log");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->totals.cases, 300u);
  const std::string log = Slurp(root + "/log");
  for (const std::string& path :
       {evil + "000000000000-00000000000000aa.case", evil + "notes.txt",
        evil + "000000000001-00000000000000bb.case",
        sync + "/evil/findings/0123456789abcdef", sync + "/stray-file",
        sync + "/.hidden"}) {
    EXPECT_TRUE(absl::StrContains(log, "atomfuzz sync: skipped " + path))
        << path << "\n"
        << log;
  }
  EXPECT_TRUE(fs::is_empty(root + "/out/corpus"));
  EXPECT_TRUE(fs::is_empty(root + "/out/findings") ||
              FindingStore::OpenReadOnly(root + "/out")->BucketIds().empty());
  // It published all the same.
  absl::StatusOr<SyncIdentity> id = LoadSyncIdentity(root + "/out");
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_TRUE(fs::exists(sync + "/" + id->name + "/campaign"));
}

// A peer's cases run through the campaign's own admission: those that
// reach a feature join its corpus (and are not published back); a resumed
// campaign runs none of them again.
TEST(CampaignSync, APeersCasesJoinTheCorpusOnce) {
  const std::string root = FreshRoot("corpus");
  const std::string sync = root + "/sync";
  std::set<uint64_t> peer_hashes;
  for (const std::string& file : testutil::CorpusCaseFiles()) {
    if (!absl::StartsWith(file, "corpus/seed/")) continue;
    const std::string text = Slurp((testutil::ProjectRoot() / file).string());
    const uint64_t hash = Fnv1a64(text);
    peer_hashes.insert(hash);
    Write(absl::StrFormat("%s/seeder/corpus/%012d-%016x.case", sync,
                          peer_hashes.size(), hash),
          text);
  }
  ASSERT_GT(peer_hashes.size(), 4u);
  CampaignOptions o = Synced(root + "/out", sync);
  o.runs = 50;  // within the first epoch: it keeps nothing of its own
  absl::StatusOr<CampaignResult> r = RunLogged(o, root + "/log");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(absl::StrContains(
      r->sync_summary, absl::StrCat(peer_hashes.size(), " of their cases run")))
      << r->sync_summary;
  size_t kept = 0;
  for (const auto& e : fs::directory_iterator(root + "/out/corpus")) {
    uint64_t hash = 0;
    ASSERT_TRUE(HashOfCaseName(e.path().filename().string(), hash));
    EXPECT_TRUE(peer_hashes.contains(hash)) << e.path();
    ++kept;
  }
  EXPECT_GT(kept, 0u);
  EXPECT_LE(kept, peer_hashes.size());
  absl::StatusOr<SyncIdentity> id = LoadSyncIdentity(root + "/out");
  ASSERT_TRUE(id.ok());
  EXPECT_TRUE(fs::is_empty(sync + "/" + id->name + "/corpus"));

  o.resume = true;
  r = RunLogged(o, root + "/log2");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(absl::StrContains(r->sync_summary, ": 0 of their cases run"))
      << r->sync_summary;
  size_t after = 0;
  for (const auto& e : fs::directory_iterator(root + "/out/corpus")) {
    (void)e;
    ++after;
  }
  EXPECT_EQ(after, kept);
}

// The name is recorded with the campaign: --resume publishes under it, a
// new name is refused (its old hits would count twice), and so is a name
// another campaign holds.
TEST(CampaignSync, ResumeKeepsTheSyncName) {
  const std::string root = FreshRoot("resume");
  const std::string sync = root + "/sync";
  CampaignOptions o = Synced(root + "/a", sync);
  o.runs = 100;
  ASSERT_TRUE(RunLogged(o, root + "/log").ok());
  absl::StatusOr<SyncIdentity> first = LoadSyncIdentity(root + "/a");
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(first->name, DefaultSyncName(root + "/a"));

  o.resume = true;
  ASSERT_TRUE(RunLogged(o, root + "/log").ok());
  absl::StatusOr<SyncIdentity> again = LoadSyncIdentity(root + "/a");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->name, first->name);
  EXPECT_EQ(again->id, first->id);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(sync))
    names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{first->name});

  o.sync_name = "renamed";
  absl::StatusOr<CampaignResult> renamed = RunLogged(o, root + "/log");
  EXPECT_TRUE(absl::IsInvalidArgument(renamed.status())) << renamed.status();

  CampaignOptions other = Synced(root + "/b", sync);
  other.runs = 10;
  other.sync_name = first->name;
  absl::StatusOr<CampaignResult> taken = RunLogged(other, root + "/log");
  EXPECT_TRUE(absl::IsInvalidArgument(taken.status())) << taken.status();
  // Refused, the name it asked for is not recorded: another one works.
  other.sync_name = "b";
  ASSERT_TRUE(RunLogged(other, root + "/log").ok());
  other.sync_name = "";
  other.resume = true;
  ASSERT_TRUE(RunLogged(other, root + "/log").ok());
  EXPECT_EQ(LoadSyncIdentity(root + "/b")->name, "b");

  CampaignOptions inside = Synced(root + "/c", root + "/c/sync");
  inside.runs = 10;
  EXPECT_TRUE(
      absl::IsInvalidArgument(RunLogged(inside, root + "/log").status()));
}

}  // namespace
}  // namespace atomfuzz::fuzz
