// Transaction::Commit and the commit-file assembly (doc/concurrency.md "Commit protocol").
#include <algorithm>
#include <charconv>
#include <chrono>
#include <random>
#include <thread>

#include "delta/log_segment.h"
#include "delta/stats_json.h"
#include "delta/table_path.h"
#include "txn/conflict_checker.h"
#include "txn/rebase.h"
#include "txn/staged_files.h"
#include "txn/row_id_remap.h"
#include "txn/row_tracking.h"
#include "txn/transaction.h"

namespace shoal::txn {
namespace {

bool ConfigTrue(const delta::Metadata& m, const char* key) {
  auto it = m.configuration.find(key);
  return it != m.configuration.end() && it->second == "true";
}

int64_t CheckpointInterval(const delta::Metadata& m) {
  auto it = m.configuration.find("delta.checkpointInterval");
  if (it == m.configuration.end()) return 10;
  int64_t v = 0;
  const std::string& text = it->second;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v <= 0) return 10;
  return v;
}

// Stats of a file that gained a DV: bounds stay valid but are no longer tight.
std::optional<std::string> LoosenStats(const std::optional<std::string>& stats) {
  if (!stats) return stats;
  auto parsed = delta::ParseStatsJson(*stats);
  if (!parsed.ok()) return stats;
  parsed->tight_bounds = false;
  return delta::SerializeStatsJson(*parsed);
}

void SleepBackoff(int64_t attempt, int64_t initial_ms, int64_t max_ms) {
  if (max_ms <= 0) return;
  int64_t cap = std::max<int64_t>(1, initial_ms);
  for (int64_t i = 1; i < attempt && cap < max_ms; ++i) cap *= 2;
  cap = std::min(cap, max_ms);
  static thread_local std::mt19937_64 rng(std::random_device{}());
  int64_t us = std::uniform_int_distribution<int64_t>(0, cap * 1000)(rng);
  std::this_thread::sleep_for(std::chrono::microseconds(us));
}

}  // namespace

delta::CommitInfo Transaction::BuildCommitInfo(int64_t now_ms) const {
  delta::CommitInfo ci;
  auto& j = ci.json;
  if (ConfigTrue(metadata_, "delta.enableInCommitTimestamps")) {
    j["inCommitTimestamp"] = std::max(now_ms, last_commit_timestamp_ + 1);
  }
  j["timestamp"] = now_ms;
  j["operation"] = options_.operation;
  j["operationParameters"] = options_.operation_parameters;
  if (read_version_ >= 0) j["readVersion"] = read_version_;
  j["isolationLevel"] = IsolationLevelName(isolation_level());
  j["isBlindAppend"] = IsBlindAppend();
  j["engineInfo"] = options_.engine_info;
  j["txnId"] = options_.txn_id;
  return ci;
}

Result<delta::DeletionVectorDescriptor> Transaction::MergedDv(const StagedRowDelete& del) {
  std::string base_id = del.base.DvUniqueId();
  auto it = written_dvs_.find(del.base.path);
  if (it != written_dvs_.end()) {
    if (it->second.base_dv_id == base_id && it->second.rows == del.rows.Cardinality()) {
      return it->second.descriptor;
    }
    if (it->second.descriptor.storage_type != 'i') {
      auto path = delta::DeletionVectorFilePath(table_root_, it->second.descriptor);
      if (path.ok()) stale_dv_files_.push_back(*path);
    }
    written_dvs_.erase(it);
  }
  delta::DeletionVector merged;
  if (del.base.deletion_vector) {
    auto base = delta::DeletionVector::Load(*fs_, table_root_, *del.base.deletion_vector);
    if (!base.ok()) return base.status().WithContext("deletion vector of " + del.base.path);
    merged = std::move(base).value();
  }
  merged.UnionWith(del.rows);
  merged.RunOptimize();
  ASSIGN_OR_RETURN(auto desc, delta::WriteDeletionVector(*fs_, table_root_, merged, options_.dv_options));
  written_dvs_[del.base.path] = WrittenDv{base_id, del.rows.Cardinality(), desc};
  return desc;
}

Result<std::vector<delta::Action>> Transaction::BuildActions(int64_t version) {
  int64_t now = Now();
  std::vector<delta::Action> actions;
  actions.push_back(BuildCommitInfo(now));
  if (write_.protocol) actions.push_back(*write_.protocol);
  if (write_.metadata) actions.push_back(*write_.metadata);
  if (write_.app_txn) {
    delta::Txn t = *write_.app_txn;
    t.last_updated = now;
    actions.push_back(std::move(t));
  }
  for (const auto& [name, d] : write_.domains) actions.push_back(d);
  for (const auto& [path, rm] : write_.removes) {
    delta::RemoveFile r = rm;
    r.deletion_timestamp = now;
    r.data_change = rm.data_change && write_.data_change;
    actions.push_back(std::move(r));
  }
  for (const auto& [path, del] : write_.row_deletes) {
    if (del.rows.IsEmpty()) continue;
    ASSIGN_OR_RETURN(delta::DeletionVectorDescriptor desc, MergedDv(del));
    delta::RemoveFile r = RemoveFor(del.base, now);
    r.data_change = write_.data_change;
    actions.push_back(std::move(r));
    delta::AddFile a = del.base;
    a.deletion_vector = desc;
    a.data_change = write_.data_change;
    a.modification_time = now;
    a.stats = LoosenStats(a.stats);
    actions.push_back(std::move(a));
  }
  for (const auto& add : write_.adds) {
    delta::AddFile a = add;
    a.data_change = add.data_change && write_.data_change;
    auto carried = write_.added_file_deletes.find(add.path);
    if (carried != write_.added_file_deletes.end() && !carried->second.IsEmpty()) {
      ASSIGN_OR_RETURN(a.deletion_vector, MergedDv(StagedRowDelete{add, carried->second}));
      a.stats = LoosenStats(a.stats);
    }
    actions.push_back(std::move(a));
  }
  for (const auto& cdc : write_.cdc_files) actions.push_back(cdc);
  RETURN_NOT_OK(TrackRows(version, &actions));
  return actions;
}

void Transaction::DeleteDvFiles(bool keep_committed) {
  for (const auto& path : stale_dv_files_) (void)fs_->Delete(path);
  stale_dv_files_.clear();
  if (keep_committed) return;
  for (const auto& [path, w] : written_dvs_) {
    if (w.descriptor.storage_type == 'i') continue;
    auto file = delta::DeletionVectorFilePath(table_root_, w.descriptor);
    if (file.ok()) (void)fs_->Delete(*file);
  }
  written_dvs_.clear();
}

Status Transaction::Finish(int64_t version, CommitResult* result) {
  result->version = version;
  DeleteDvFiles(/*keep_committed=*/true);
  if (options_.checkpoint_hook && version > 0 && version % CheckpointInterval(metadata_) == 0) {
    result->checkpoint_status = options_.checkpoint_hook(version);
  }
  return Status::OK();
}

// Reads winning commit `version`, checks it and rebases onto it. Sets *own_commit when the
// winner is this transaction's own earlier attempt.
Status Transaction::RebaseOnto(int64_t version, const std::string& text, bool* own_commit) {
  std::string file = io::JoinPath(delta::LogDirOf(table_root_), delta::CommitFileName(version));
  ASSIGN_OR_RETURN(auto actions, delta::ParseCommitFile(text, file));
  WinningCommit winner = WinningCommit::FromActions(version, std::move(actions));
  if (winner.TxnId() == options_.txn_id) {
    *own_commit = true;
    return Status::OK();
  }
  ASSIGN_OR_RETURN(row_id_high_water_mark_, HighWaterMarkOf(winner.domains, row_id_high_water_mark_));
  if (BackfillsRowIds() && (!winner.adds.empty() || !winner.removes.empty())) {
    return Status::Conflict(ConflictKind::kConcurrentTransaction,
                            "Enabling row tracking backfills row ids of every file, but files were "
                            "changed by a concurrent update at version " + std::to_string(version) +
                                ". Please try the operation again.");
  }
  CheckerInput in;
  in.read = &read_;
  in.write = &write_;
  in.isolation = isolation_level();
  in.row_level = row_level_concurrency();
  in.deletion_vectors = ConfigTrue(metadata_, "delta.enableDeletionVectors");
  in.metadata = &metadata_;
  in.schema = schema_ ? &*schema_ : nullptr;
  in.fs = fs_.get();
  in.table_root = table_root_;
  in.matcher = options_.matcher.get();
  in.shared_fs = fs_;
  ASSIGN_OR_RETURN(in.row_id_metadata, MetadataWithRowIdColumns(protocol_, metadata_));
  ASSIGN_OR_RETURN(RebasePlan plan, CheckWinningCommit(in, winner));
  if (plan.in_commit_timestamp) last_commit_timestamp_ = *plan.in_commit_timestamp;
  for (const auto& [output, sources] : plan.dropped_outputs) {
    // The data file of an output this transaction no longer commits: deleted like stale DVs.
    auto file = delta::ResolveTablePath(table_root_, output);
    if (file.ok()) stale_dv_files_.push_back(*file);
  }
  bool metadata_changed = plan.adopt_metadata.has_value();
  ApplyRebase(std::move(plan), &read_, &write_, &metadata_, &protocol_);
  if (metadata_changed) {
    auto schema = scan::BuildTableSchema(metadata_);
    if (schema.ok()) {
      schema_ = std::move(schema).value();
    } else {
      schema_.reset();
    }
  }
  return Status::OK();
}

Result<CommitResult> Transaction::Commit() {
  if (done_) return Status::Transaction("this transaction was already committed or aborted");
  done_ = true;
  CommitResult result;
  if (!snapshot_ && (!write_.protocol || !write_.metadata)) {
    return Status::InvalidArgument("creating table " + table_root_ +
                                   " needs a protocol and a metadata action");
  }
  if (write_.app_txn && snapshot_) {
    auto seen = snapshot_->AppTransactionVersion(write_.app_txn->app_id);
    if (seen && *seen >= write_.app_txn->version) {
      result.version = read_version_;
      result.already_committed = true;
      return result;
    }
  }
  const std::string log_dir = delta::LogDirOf(table_root_);
  if (!snapshot_) RETURN_NOT_OK(fs_->CreateDirs(log_dir));
  RETURN_NOT_OK(SyncStagedFileDirectories(*fs_, table_root_, write_));
  int64_t version = read_version_ + 1;
  for (int64_t attempt = 1;; ++attempt) {
    result.attempts = attempt;
    auto actions = BuildActions(version);
    if (!actions.ok()) {
      DeleteDvFiles(false);
      return actions.status();
    }
    const std::string path = io::JoinPath(log_dir, delta::CommitFileName(version));
    Status st = fs_->PutIfAbsent(path, delta::SerializeCommit(*actions));
    if (st.ok()) {
      RETURN_NOT_OK(Finish(version, &result));
      return result;
    }
    if (!io::IsAlreadyExists(st)) {
      // The outcome is unknown: the commit may have landed before the error.
      auto text = fs_->ReadAll(path);
      bool own = false;
      if (text.ok() && RebaseOnto(version, *text, &own).ok() && own) {
        RETURN_NOT_OK(Finish(version, &result));
        return result;
      }
      DeleteDvFiles(false);
      return st.WithContext("committing version " + std::to_string(version) + " of " + table_root_);
    }
    // Lost the race: judge every winner from `version` on, in order.
    for (;;) {
      const std::string winner_path = io::JoinPath(log_dir, delta::CommitFileName(version));
      auto exists = fs_->Exists(winner_path);
      if (!exists.ok()) {
        DeleteDvFiles(false);
        return exists.status();
      }
      if (!*exists) break;
      auto text = fs_->ReadAll(winner_path);
      bool own = false;
      Status checked = text.ok() ? RebaseOnto(version, *text, &own) : text.status();
      if (!checked.ok()) {
        DeleteDvFiles(false);
        return checked;
      }
      if (own) {
        RETURN_NOT_OK(Finish(version, &result));
        return result;
      }
      ++version;
    }
    if (options_.max_attempts > 0 && attempt >= options_.max_attempts) {
      DeleteDvFiles(false);
      return Status::Transaction("gave up committing to " + table_root_ + " after " +
                                 std::to_string(attempt) + " attempts");
    }
    SleepBackoff(attempt, options_.initial_backoff_ms, options_.max_backoff_ms);
  }
}

}  // namespace shoal::txn
