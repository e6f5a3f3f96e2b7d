// Triage of a finding store: one row per bucket, most hit first, for people
// (a text table) and tools (JSON).
#ifndef ATOMFUZZ_FUZZ_TRIAGE_TRIAGE_H_
#define ATOMFUZZ_FUZZ_TRIAGE_TRIAGE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "fuzz/triage/finding_store.h"

namespace atomfuzz::fuzz {

// The buckets of DIR's store (DIR/findings), in triage order.
// NotFound if DIR has no findings directory.
absl::StatusOr<std::vector<BucketInfo>> LoadTriage(const std::string& dir);

// Stable order: hits descending, then first seen, then id.
void SortForTriage(std::vector<BucketInfo>& buckets);

// A row per bucket (id, hits, divergence, opcode, resource, address), then
// indented: its target and first sight (UTC, and campaign seconds), its
// smallest reproducer (path, instructions, threads), the hits of each
// campaign when other campaigns' were imported (fuzz --sync), any cause,
// and the findings.md section of a known one; 100 columns but for long
// paths.
// Ends with a "N buckets (X new, Y known), M hits" line.
std::string TriageTable(const std::vector<BucketInfo>& buckets);
// {"buckets": [{"id": ..., "key": ..., "opcode": ..., ..., "hits": N,
// "hits_by_campaign": {"": N}, ...}], "hits": M}; "" is the store's own.
std::string TriageJson(const std::vector<BucketInfo>& buckets);

}  // namespace atomfuzz::fuzz

#endif  // ATOMFUZZ_FUZZ_TRIAGE_TRIAGE_H_
