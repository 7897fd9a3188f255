#include "txn/transaction.h"

#include <chrono>
#include <cstdio>
#include <random>

#include "delta/table_features.h"
#include "txn/compaction_map.h"
#include "txn/row_tracking.h"

namespace shoal::txn {

std::string NewUuidV4() {
  static thread_local std::mt19937_64 rng([] {
    std::random_device rd;
    return (static_cast<uint64_t>(rd()) << 32) ^ rd() ^
           static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  }());
  uint64_t hi = rng();
  uint64_t lo = rng();
  hi = (hi & ~0xF000ULL) | 0x4000ULL;                 // version 4
  lo = (lo & ~(0xC0ULL << 56)) | (0x80ULL << 56);     // variant 10xx
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%08x-%04x-%04x-%04x-%012llx", static_cast<unsigned>(hi >> 32),
                static_cast<unsigned>((hi >> 16) & 0xFFFF), static_cast<unsigned>(hi & 0xFFFF),
                static_cast<unsigned>(lo >> 48),
                static_cast<unsigned long long>(lo & 0xFFFFFFFFFFFFULL));
  return buf;
}

Result<std::unique_ptr<Transaction>> Transaction::Begin(
    std::shared_ptr<io::FileSystem> fs, std::string table_root,
    std::shared_ptr<const delta::Snapshot> snapshot, TransactionOptions options) {
  if (!fs) return Status::InvalidArgument("Transaction::Begin: no file system");
  std::unique_ptr<Transaction> t(new Transaction());
  t->fs_ = std::move(fs);
  t->table_root_ = std::move(table_root);
  if (options.txn_id.empty()) options.txn_id = NewUuidV4();
  if (!options.matcher) options.matcher = std::make_shared<StatsOnlyMatcher>();
  if (snapshot) {
    t->read_version_ = snapshot->version();
    t->metadata_ = snapshot->metadata();
    t->protocol_ = snapshot->protocol();
    t->last_commit_timestamp_ = snapshot->timestamp_ms();
    RETURN_NOT_OK(delta::CheckCanWrite(t->protocol_).WithContext(t->table_root_));
    if (!options.isolation_level) {
      ASSIGN_OR_RETURN(IsolationLevel level, TableIsolationLevel(t->metadata_));
      options.isolation_level = level;
    }
    auto schema = scan::BuildTableSchema(t->metadata_);
    if (schema.ok()) t->schema_ = std::move(schema).value();
    std::vector<delta::DomainMetadata> domains;
    for (const auto& [name, d] : snapshot->domain_metadata()) domains.push_back(d);
    ASSIGN_OR_RETURN(t->row_id_high_water_mark_, HighWaterMarkOf(domains, -1));
  }
  t->snapshot_ = std::move(snapshot);
  if (options.app_txn) t->write_.app_txn = options.app_txn;
  t->options_ = std::move(options);
  return t;
}

IsolationLevel Transaction::isolation_level() const {
  if (!write_.data_change) return IsolationLevel::kSnapshotIsolation;
  return options_.isolation_level.value_or(IsolationLevel::kWriteSerializable);
}

bool Transaction::row_level_concurrency() const {
  const auto& conf = metadata_.configuration;
  auto dv = conf.find("delta.enableDeletionVectors");
  if (dv == conf.end() || dv->second != "true") return false;
  auto rl = conf.find("shoal.rowLevelConcurrency");
  return rl == conf.end() || rl->second != "false";
}

bool Transaction::IsBlindAppend() const {
  return write_.data_change && write_.OnlyAdds() && !write_.adds.empty() &&
         read_.predicates.empty() && !read_.whole_table && read_.files.empty();
}

void Transaction::ReadPredicate(expr::ExprPtr predicate, std::string sql) {
  read_.predicates.push_back({std::move(predicate), std::move(sql)});
}

void Transaction::ReadFile(const delta::AddFile& file) {
  auto [it, inserted] = read_.files.try_emplace(file.path);
  it->second.file = file;
  it->second.matched_rows.reset();
}

void Transaction::ReadRows(const delta::AddFile& file, const delta::DeletionVector& matched) {
  auto [it, inserted] = read_.files.try_emplace(file.path);
  if (inserted) {
    it->second.file = file;
    it->second.matched_rows = matched;
  } else if (it->second.matched_rows) {
    it->second.matched_rows->UnionWith(matched);
  }
}

void Transaction::AddFile(delta::AddFile file) { write_.adds.push_back(std::move(file)); }

Status Transaction::RemoveFile(const delta::AddFile& file) {
  if (write_.row_deletes.count(file.path)) {
    return Status::InvalidArgument("RemoveFile: " + file.path + " already has staged row deletions");
  }
  write_.removes[file.path] = RemoveFor(file, 0);
  if (!read_.files.count(file.path)) ReadFile(file);
  return Status::OK();
}

Status Transaction::DeleteRows(const delta::AddFile& file, const delta::DeletionVector& positions) {
  if (write_.removes.count(file.path)) {
    return Status::InvalidArgument("DeleteRows: " + file.path + " is already removed");
  }
  auto [it, inserted] = write_.row_deletes.try_emplace(file.path);
  if (inserted) it->second.base = file;
  it->second.rows.UnionWith(positions);
  ReadRows(file, positions);
  return Status::OK();
}

void Transaction::UpdateMetadata(delta::Metadata metadata) {
  metadata_ = metadata;
  auto schema = scan::BuildTableSchema(metadata_);
  if (schema.ok()) {
    schema_ = std::move(schema).value();
  } else {
    schema_.reset();
  }
  write_.metadata = std::move(metadata);
}

void Transaction::UpdateProtocol(delta::Protocol protocol) {
  protocol_ = protocol;
  write_.protocol = std::move(protocol);
}

void Transaction::SetDomainMetadata(delta::DomainMetadata domain) {
  std::string name = domain.domain;
  write_.domains[name] = std::move(domain);
}

Status Transaction::AddCompactedFile(delta::AddFile output, const std::vector<delta::AddFile>& sources,
                                     const std::vector<int64_t>& live_rows) {
  if (sources.size() != live_rows.size()) {
    return Status::InvalidArgument("AddCompactedFile: " + std::to_string(sources.size()) +
                                   " sources but " + std::to_string(live_rows.size()) +
                                   " live row counts");
  }
  std::vector<CompactionSource> entries;
  for (size_t i = 0; i < sources.size(); ++i) {
    entries.push_back({sources[i].path, sources[i].DvUniqueId(), live_rows[i]});
    delta::RemoveFile rm = RemoveFor(sources[i], 0);
    rm.data_change = false;
    write_.removes[sources[i].path] = std::move(rm);
    ReadFile(sources[i]);
  }
  if (!output.tags) output.tags.emplace();
  (*output.tags)[kCompactedFromTag] = SerializeCompactedFrom(entries);
  output.data_change = false;
  write_.adds.push_back(std::move(output));
  write_.data_change = false;
  return Status::OK();
}

void Transaction::RestoreState(ReadSet read, WriteSet write) {
  read_ = std::move(read);
  write_ = std::move(write);
  if (write_.metadata) UpdateMetadata(*write_.metadata);
  if (write_.protocol) protocol_ = *write_.protocol;
}

int64_t Transaction::Now() const {
  if (options_.clock_ms) return options_.clock_ms();
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

delta::RemoveFile Transaction::RemoveFor(const delta::AddFile& file, int64_t now_ms) const {
  delta::RemoveFile rm;
  rm.path = file.path;
  rm.deletion_timestamp = now_ms;
  rm.data_change = true;
  rm.extended_file_metadata = true;
  rm.partition_values = file.partition_values;
  rm.size = file.size;
  rm.tags = file.tags;
  rm.deletion_vector = file.deletion_vector;
  rm.base_row_id = file.base_row_id;
  rm.default_row_commit_version = file.default_row_commit_version;
  rm.stats = file.stats;
  return rm;
}

}  // namespace shoal::txn
