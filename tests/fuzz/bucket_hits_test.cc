// A bucket's hits by campaign: this store's writers count each case index
// once; a peer's imported count is one number, taken as it is, or ignored
// when it is none.
#include "fuzz/triage/bucket_hits.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/atomic_file.h"
#include "gtest/gtest.h"

namespace atomfuzz::fuzz {
namespace {

namespace fs = std::filesystem;

void Write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

TEST(BucketHits, OwnWritersAndPeersApart) {
  const std::string dir = ::testing::TempDir() + "/hits-" + UniqueSuffix();
  fs::create_directories(dir);
  Write(dir + "/100-1-0", "@1\n@2\n");
  Write(dir + "/101-1-0", "@2\n@3\n+\n");  // @2 again: a resumed run
  Write(dir + "/" + PeerHitsFileName("vm-a"), "12\n");
  Write(dir + "/" + PeerHitsFileName("vm-b"), "lots\n");  // no number
  Write(dir + "/" + PeerHitsFileName("vm-c"), "-4\n");    // no count
  Write(dir + "/" + PeerHitsFileName(".x"), "9\n");       // no sync name
  Write(dir + "/sync.vm-d.tmp.1-2-3", "7\n");             // a write in flight
  const HitsByCampaign hits = ReadHits(dir);
  EXPECT_EQ(hits, (HitsByCampaign{{"", 4}, {"vm-a", 12}}));
  EXPECT_EQ(TotalHits(hits), 16);
  EXPECT_TRUE(ReadHits(dir + "/none").empty());
}

TEST(BucketHits, SyncNames) {
  EXPECT_TRUE(IsSyncName("vm-8f1b371efd33f9b8"));
  EXPECT_TRUE(IsSyncName("a.b_c-1"));
  EXPECT_FALSE(IsSyncName(""));
  EXPECT_FALSE(IsSyncName(".hidden"));
  EXPECT_FALSE(IsSyncName("a/b"));
  EXPECT_FALSE(IsSyncName("a b"));
  EXPECT_FALSE(IsSyncName(std::string(65, 'a')));
}

}  // namespace
}  // namespace atomfuzz::fuzz
