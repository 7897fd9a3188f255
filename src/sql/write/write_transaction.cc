#include "sql/write/write_transaction.h"

#include <limits>
#include <map>
#include <set>

#include "delta/deletion_vector.h"
#include "delta/parquet_checkpoint_reader.h"
#include "delta/table_path.h"
#include "sql/write/added_rows_scan_matcher.h"
#include "table/checkpoint_writer.h"

namespace shoal::sql {

namespace {

// Hands the snapshot loader a fixed list of actions as if they were a checkpoint file, so a
// Snapshot can be built from the base snapshot plus staged actions through the public loader.
class ActionListReader final : public delta::CheckpointReader {
 public:
  explicit ActionListReader(std::vector<delta::Action> actions) : actions_(std::move(actions)) {}
  Status Read(io::FileSystem&, const std::string&, const delta::ActionSink& sink) override {
    for (auto& a : actions_) RETURN_NOT_OK(sink(delta::Action(a)));
    return Status::OK();
  }

 private:
  std::vector<delta::Action> actions_;
};

// An inline descriptor of `dv` (nothing is written: inline DVs live in the descriptor).
Result<delta::DeletionVectorDescriptor> InlineDescriptor(io::FileSystem& fs, const std::string& root,
                                                         const delta::DeletionVector& dv) {
  delta::DeletionVectorWriteOptions o;
  o.max_inline_bytes = std::numeric_limits<int32_t>::max();
  return delta::WriteDeletionVector(fs, root, dv, o);
}

// dv(file) ∪ rows.
Result<delta::DeletionVector> MergedRows(io::FileSystem& fs, const std::string& root, const delta::AddFile& file,
                                         const delta::DeletionVector& rows) {
  delta::DeletionVector all;
  if (file.deletion_vector) {
    ASSIGN_OR_RETURN(all, delta::DeletionVector::Load(fs, root, *file.deletion_vector));
  }
  all.UnionWith(rows);
  return all;
}

}  // namespace

Result<std::shared_ptr<const scan::DeltaTable>> TableWithStagedWrites(const std::shared_ptr<io::FileSystem>& fs,
                                                                      const delta::Snapshot& base,
                                                                      const txn::Transaction& t) {
  const txn::WriteSet& w = t.write_set();
  const std::string& root = base.table_root();
  std::vector<delta::Action> actions;
  actions.reserve(base.files().size() + w.adds.size() + 4);
  actions.emplace_back(w.protocol ? *w.protocol : base.protocol());
  actions.emplace_back(t.metadata());
  for (const auto& [app, txn] : base.app_transactions()) actions.emplace_back(txn);
  for (const auto& [name, d] : base.domain_metadata()) {
    if (!w.domains.count(name)) actions.emplace_back(d);
  }
  for (const auto& [name, d] : w.domains) actions.emplace_back(d);
  for (const delta::AddFile& f : base.files()) {
    if (w.removes.count(f.path)) continue;
    auto del = w.row_deletes.find(f.path);
    if (del == w.row_deletes.end()) {
      actions.emplace_back(f);
      continue;
    }
    delta::AddFile shown = f;
    ASSIGN_OR_RETURN(delta::DeletionVector rows, MergedRows(*fs, root, del->second.base, del->second.rows));
    ASSIGN_OR_RETURN(shown.deletion_vector, InlineDescriptor(*fs, root, rows));
    actions.emplace_back(std::move(shown));
  }
  for (const delta::AddFile& f : w.adds) actions.emplace_back(f);

  delta::LogSegment seg;
  seg.table_root = root;
  seg.log_dir = base.segment().log_dir;
  seg.version = base.version();
  seg.checkpoint_version = base.version();
  delta::LogFile file;
  file.name = "staged.json";
  file.path = io::JoinPath(seg.log_dir, file.name);
  file.kind = delta::LogFileKind::kV2Checkpoint;
  file.version = base.version();
  file.mtime_ms = base.timestamp_ms();
  seg.checkpoint_files.push_back(file);
  delta::SnapshotOptions opts;
  opts.readers.json = std::make_shared<ActionListReader>(std::move(actions));
  ASSIGN_OR_RETURN(auto snap, delta::Snapshot::LoadSegment(fs, std::move(seg), opts));
  return scan::DeltaTable::FromSnapshot(fs, std::move(snap));
}

Status FoldOwnFileChanges(txn::Transaction* t, std::vector<std::string>* staged_files) {
  const txn::WriteSet& cur = t->write_set();
  if (cur.adds.empty() || (cur.removes.empty() && cur.row_deletes.empty())) return Status::OK();
  // Own files are the adds whose data file this transaction wrote: an add of an existing file
  // (RESTORE re-adding an old version, a DV update) is not the transaction's to delete.
  std::set<std::string> written(staged_files->begin(), staged_files->end());
  std::map<std::string, size_t> own;
  for (size_t i = 0; i < cur.adds.size(); ++i) {
    auto local = delta::ResolveTablePath(t->table_root(), cur.adds[i].path);
    if (local.ok() && written.count(*local)) own[cur.adds[i].path] = i;
  }
  bool touched = false;
  for (const auto& [path, rm] : cur.removes) touched |= own.count(path) > 0;
  for (const auto& [path, del] : cur.row_deletes) touched |= own.count(path) > 0;
  if (!touched) return Status::OK();

  txn::ReadSet read = t->read_set();
  txn::WriteSet write = cur;
  const std::string& root = t->table_root();
  std::set<size_t> dropped;
  for (auto it = write.removes.begin(); it != write.removes.end();) {
    auto o = own.find(it->first);
    if (o == own.end()) {
      ++it;
      continue;
    }
    dropped.insert(o->second);
    auto local = delta::ResolveTablePath(root, it->first);
    if (local.ok()) {
      (void)t->fs()->Delete(*local);
      std::erase(*staged_files, *local);
    }
    read.files.erase(it->first);
    it = write.removes.erase(it);
  }
  for (auto it = write.row_deletes.begin(); it != write.row_deletes.end();) {
    auto o = own.find(it->first);
    if (o == own.end()) {
      ++it;
      continue;
    }
    delta::AddFile& add = write.adds[o->second];
    ASSIGN_OR_RETURN(delta::DeletionVector rows, MergedRows(*t->fs(), root, add, it->second.rows));
    ASSIGN_OR_RETURN(add.deletion_vector, delta::WriteDeletionVector(*t->fs(), root, rows, t->options().dv_options));
    read.files.erase(it->first);
    it = write.row_deletes.erase(it);
  }
  if (!dropped.empty()) {
    std::vector<delta::AddFile> kept;
    for (size_t i = 0; i < write.adds.size(); ++i) {
      if (!dropped.count(i)) kept.push_back(std::move(write.adds[i]));
    }
    write.adds = std::move(kept);
  }
  t->RestoreState(std::move(read), std::move(write));
  return Status::OK();
}

txn::TransactionOptions SqlTransactionOptions(const std::shared_ptr<io::FileSystem>& fs, const std::string& root,
                                              const std::string& operation, delta::Json parameters,
                                              std::optional<delta::Txn> app_txn) {
  txn::TransactionOptions o;
  o.operation = operation;
  o.operation_parameters = std::move(parameters);
  o.app_txn = std::move(app_txn);
  o.matcher = std::make_shared<ScanAddedRowsMatcher>(fs);
  o.checkpoint_hook = [fs, root](int64_t version) -> Status {
    delta::SnapshotOptions so;
    so.version = version;
    so.readers = delta::DefaultCheckpointReaders();
    ASSIGN_OR_RETURN(auto snap, delta::Snapshot::Load(fs, root, so));
    return table::WriteCheckpoint(fs, *snap).status();
  };
  return o;
}

void DeleteStagedFiles(io::FileSystem& fs, const std::vector<std::string>& files) {
  for (const std::string& f : files) (void)fs.Delete(f);
}

}  // namespace shoal::sql
