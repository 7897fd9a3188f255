#include "table/log_compaction.h"

#include <cstdio>
#include <map>
#include <unordered_map>

#include "delta/commit_reader.h"
#include "delta/log_segment.h"

namespace shoal::table {

namespace {

std::string CompactionName(int64_t start, int64_t end) {
  char name[64];
  std::snprintf(name, sizeof(name), "%020lld.%020lld.compacted.json", static_cast<long long>(start),
                static_cast<long long>(end));
  return name;
}

// Reconciles the actions of consecutive commits, in version order (see the header).
class Reconciler {
 public:
  void Add(delta::Action&& a) {
    ++seq_;
    switch (a.index()) {
      case 0: protocol_ = std::move(a); break;
      case 1: metadata_ = std::move(a); break;
      case 2: File(std::get<delta::AddFile>(a).path + '\n' + std::get<delta::AddFile>(a).DvUniqueId(), std::move(a)); break;
      case 3:
        File(std::get<delta::RemoveFile>(a).path + '\n' + std::get<delta::RemoveFile>(a).DvUniqueId(), std::move(a));
        break;
      case 5: {
        std::string id = std::get<delta::Txn>(a).app_id;
        txns_[id] = std::move(a);
        break;
      }
      case 7: {
        std::string domain = std::get<delta::DomainMetadata>(a).domain;
        domains_[domain] = std::move(a);
        break;
      }
      default: break;  // commitInfo, cdc: not kept by compactions
    }
  }

  // protocol, metaData, txn, domainMetadata, then file actions in the order of their last change.
  std::vector<delta::Action> Finish() {
    std::vector<delta::Action> out;
    if (protocol_) out.push_back(std::move(*protocol_));
    if (metadata_) out.push_back(std::move(*metadata_));
    for (auto& [id, t] : txns_) out.push_back(std::move(t));
    for (auto& [d, m] : domains_) out.push_back(std::move(m));
    for (auto& [seq, a] : files_) out.push_back(std::move(a));
    return out;
  }

 private:
  void File(std::string key, delta::Action&& a) {
    auto it = latest_.find(key);
    if (it != latest_.end()) files_.erase(it->second);
    latest_[std::move(key)] = seq_;
    files_.emplace(seq_, std::move(a));
  }

  int64_t seq_ = 0;
  std::optional<delta::Action> protocol_, metadata_;
  std::map<std::string, delta::Action> txns_, domains_;
  std::unordered_map<std::string, int64_t> latest_;  // (path, DV id) -> seq in files_
  std::map<int64_t, delta::Action> files_;
};

}  // namespace

Result<LogCompactionInfo> WriteLogCompaction(std::shared_ptr<io::FileSystem> fs, const std::string& table_root,
                                             std::optional<int64_t> start, std::optional<int64_t> end,
                                             const std::function<void(int64_t done, int64_t planned)>& progress) {
  ASSIGN_OR_RETURN(delta::LogSegment seg, delta::BuildLogSegment(*fs, table_root));
  const int64_t from = start.value_or(seg.checkpoint_version ? *seg.checkpoint_version + 1 : 0);
  const int64_t to = end.value_or(seg.version);
  if (from < 0 || to <= from) {
    return Status::InvalidArgument("log compaction of table " + table_root + " needs a range of at least two commits, got " +
                                   std::to_string(from) + " to " + std::to_string(to));
  }
  if (to > seg.version) {
    return Status::InvalidArgument("log compaction to version " + std::to_string(to) + ": the latest version of " +
                                   table_root + " is " + std::to_string(seg.version));
  }
  ASSIGN_OR_RETURN(std::vector<delta::LogFile> files, delta::ListLogFiles(*fs, table_root));
  std::vector<delta::LogFile> commits;
  for (auto& f : files) {
    if (f.kind == delta::LogFileKind::kCommit && f.version >= from && f.version <= to) commits.push_back(std::move(f));
  }
  for (size_t i = 0; i < commits.size() || from + static_cast<int64_t>(i) <= to; ++i) {
    if (i >= commits.size() || commits[i].version != from + static_cast<int64_t>(i)) {
      return Status::InvalidArgument("log compaction of table " + table_root + ": commit " +
                                     std::to_string(from + static_cast<int64_t>(i)) + " is not in the log");
    }
  }
  delta::CommitReadOptions read_options;
  int64_t planned = 1;  // the write
  for (const delta::LogFile& f : commits) planned += f.size;
  if (progress) read_options.on_read = [&progress, planned](int64_t bytes) { progress(bytes, planned); };
  std::vector<delta::ParsedCommit> parsed = delta::ReadCommits(*fs, commits, read_options);
  Reconciler r;
  for (auto& c : parsed) {
    RETURN_NOT_OK(c.status);
    for (auto& a : c.actions) r.Add(std::move(a));
  }
  std::vector<delta::Action> actions = r.Finish();
  LogCompactionInfo info;
  info.start_version = from;
  info.end_version = to;
  info.path = io::JoinPath(delta::LogDirOf(table_root), CompactionName(from, to));
  info.num_actions = static_cast<int64_t>(actions.size());
  Status st = fs->PutIfAbsent(info.path, delta::SerializeCommit(actions));
  if (!st.ok() && !io::IsAlreadyExists(st)) return st;
  if (progress) progress(planned, planned);
  return info;
}

}  // namespace shoal::table
