#include "delta/commit_reader.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace shoal::delta {
namespace {

void ReadOne(io::FileSystem& fs, const LogFile& commit, const CommitReadOptions& options,
             ParsedCommit* out) {
  out->version = commit.version;
  auto text = fs.ReadAll(commit.path);
  if (!text.ok()) {
    out->status = text.status();
    return;
  }
  bool keep_info = options.keep_commit_info_of == commit.version;
  // ~1 action per 300 bytes is typical of add-heavy commits.
  out->actions.reserve(text->size() / 300 + 1);
  out->status = ForEachActionInText(
      *text, commit.path,
      [&](Action&& a) {
        if (auto* ci = std::get_if<CommitInfo>(&a)) {
          if (!out->in_commit_timestamp) out->in_commit_timestamp = ci->InCommitTimestamp();
          if (keep_info) out->commit_info = std::move(*ci);  // the last one wins
          return Status::OK();
        }
        if (std::holds_alternative<Sidecar>(a) || std::holds_alternative<CheckpointMetadata>(a)) {
          return Status::Corruption(commit.path + ": commit contains a checkpoint-only action");
        }
        out->actions.push_back(std::move(a));
        return Status::OK();
      },
      options.dom_only);
}

}  // namespace

std::vector<ParsedCommit> ReadCommits(io::FileSystem& fs, const std::vector<LogFile>& commits,
                                      const CommitReadOptions& options) {
  std::vector<ParsedCommit> out(commits.size());
  int threads = options.threads;
  if (threads <= 0) threads = static_cast<int>(std::min(8u, std::max(1u, std::thread::hardware_concurrency())));
  // Short segments stay on the calling thread: threads would not pay off, and the file system
  // then sees its operations in a deterministic order (fault-injection sweeps number them).
  constexpr size_t kMinParallelCommits = 64;
  // On object storage each GET is a round trip: the commits are fetched all at once (up to
  // kRemoteInFlight GETs in flight), one commit per claim.
  constexpr int kRemoteInFlight = 16;
  const bool remote = commits.size() > 1 && fs.IsRemote(commits[0].path);
  if (remote && options.threads <= 0) threads = static_cast<int>(std::min<size_t>(commits.size(), kRemoteInFlight));
  if (commits.size() < kMinParallelCommits && !remote) threads = 1;
  std::atomic<int64_t> bytes_read{0};
  auto read_one = [&](size_t i) {
    ReadOne(fs, commits[i], options, &out[i]);
    if (options.on_read) options.on_read(bytes_read.fetch_add(commits[i].size) + commits[i].size);
  };
  if (threads <= 1) {
    for (size_t i = 0; i < commits.size(); ++i) {
      read_one(i);
      if (!out[i].status.ok()) break;  // later commits are never looked at
    }
    return out;
  }
  // Small chunks of consecutive commits, claimed through one counter.
  const size_t kChunk = remote ? 1 : 16;
  std::atomic<size_t> next{0};
  auto work = [&] {
    while (true) {
      size_t begin = next.fetch_add(kChunk);
      if (begin >= commits.size()) return;
      size_t end = std::min(commits.size(), begin + kChunk);
      for (size_t i = begin; i < end; ++i) read_one(i);
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(threads - 1));
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  return out;
}

}  // namespace shoal::delta
