#include "table/vacuum.h"

#include <algorithm>
#include <chrono>
#include <unordered_set>

#include "delta/deletion_vector.h"
#include "delta/table_path.h"
#include "table/table_properties.h"
#include "txn/prepared.h"

namespace shoal::table {

namespace {

int64_t SystemNowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class Vacuumer {
 public:
  Vacuumer(io::FileSystem& fs, std::string root, int64_t cutoff_ms, bool dry_run,
           std::vector<std::string> partition_columns, std::function<void(int64_t, int64_t)> progress)
      : fs_(fs), root_(std::move(root)), cutoff_(cutoff_ms), dry_run_(dry_run),
        partition_columns_(std::move(partition_columns)), progress_(std::move(progress)) {}

  // Marks a file path from the log as referenced; paths that do not resolve inside the table
  // are ignored (they cannot be listed under the root either).
  void KeepLogPath(const std::string& path) {
    auto local = delta::ResolveTablePath(root_, path);
    if (local.ok()) Keep(*local);
  }
  void KeepDv(const std::optional<delta::DeletionVectorDescriptor>& dv) {
    if (!dv || dv->storage_type == 'i') return;
    auto local = delta::DeletionVectorFilePath(root_, *dv);
    if (local.ok()) Keep(*local);
  }
  void Keep(const std::string& local) {
    auto norm = delta::NormalizePathNoDotDot(local);
    if (norm.ok()) keep_.insert(*norm);
  }

  // Walks `dir`; returns true in *empty when nothing is left in it afterwards.
  Status Walk(const std::string& dir, bool at_root, bool* empty, VacuumResult* result) {
    ASSIGN_OR_RETURN(auto entries, fs_.List(dir));
    size_t remaining = entries.size();
    const int64_t planned = static_cast<int64_t>(entries.size());
    int64_t done = 0;
    for (const auto& e : entries) {
      // At the root: one step of the progress per entry (a partition directory walked whole).
      if (at_root && progress_) progress_(done++, planned);
      std::string path = io::JoinPath(dir, e.name);
      if (at_root && e.name == "_delta_log") {
        RETURN_NOT_OK(CleanLogTemps(path, result));
        continue;
      }
      if (at_root && e.name == "_shoal") continue;
      // A link is never followed (its target may lie outside the table) nor deleted.
      if (e.is_symlink) continue;
      // `.name.<pid>.<n>.tmp`: a write (a deletion vector's, say) whose process died before its
      // rename; hidden, but garbage once older than the retention.
      if (!e.is_dir && e.name.starts_with('.') && e.name.ends_with(".tmp")) {
        if (e.mtime_ms < cutoff_) {
          RETURN_NOT_OK(DeleteFile(path, e.size, result));
          --remaining;
        }
        continue;
      }
      if (IsHidden(e.name)) continue;
      if (e.is_dir) {
        bool sub_empty = false;
        RETURN_NOT_OK(Walk(path, false, &sub_empty, result));
        if (sub_empty && !dry_run_) {
          RETURN_NOT_OK(fs_.Delete(path));
          ++result->dirs_deleted;
          --remaining;
        }
        continue;
      }
      auto norm = delta::NormalizePathNoDotDot(path);
      if (norm.ok() && keep_.count(*norm)) continue;
      if (e.mtime_ms >= cutoff_) continue;
      RETURN_NOT_OK(DeleteFile(path, e.size, result));
      --remaining;
    }
    *empty = remaining == 0;
    if (at_root && progress_) progress_(planned, planned);
    return Status::OK();
  }

 private:
  // Delta's rule: `_`/`.` names are hidden, except CDC and index folders and partition
  // directories of columns whose names start with `_`.
  bool IsHidden(const std::string& name) const {
    if (name.empty() || (name[0] != '_' && name[0] != '.')) return false;
    if (name.starts_with("_change_data") || name.starts_with("_delta_index")) return false;
    for (const auto& pc : partition_columns_) {
      if (name.starts_with(pc + "=")) return false;
    }
    return true;
  }

  Status CleanLogTemps(const std::string& log_dir, VacuumResult* result) {
    ASSIGN_OR_RETURN(auto entries, fs_.List(log_dir));
    for (const auto& e : entries) {
      if (e.is_dir || !e.name.ends_with(".tmp") || e.mtime_ms >= cutoff_) continue;
      RETURN_NOT_OK(DeleteFile(io::JoinPath(log_dir, e.name), e.size, result));
    }
    return Status::OK();
  }

  Status DeleteFile(const std::string& path, int64_t size, VacuumResult* result) {
    if (!dry_run_) {
      Status st = fs_.Delete(path);
      if (!st.ok()) {
        // Gone already (a concurrent VACUUM): nothing to do.
        auto exists = fs_.Exists(path);
        if (!exists.ok() || *exists) return st;
      }
    }
    result->files.push_back(path);
    result->bytes += size;
    return Status::OK();
  }

  io::FileSystem& fs_;
  std::string root_;
  int64_t cutoff_;
  bool dry_run_;
  std::vector<std::string> partition_columns_;
  std::function<void(int64_t, int64_t)> progress_;
  std::unordered_set<std::string> keep_;
};

}  // namespace

std::string RetentionHours(int64_t ms) {
  int64_t hours = ms / (3600 * 1000);
  return std::to_string(hours) + " hours";
}

Result<VacuumResult> Vacuum(std::shared_ptr<io::FileSystem> fs, const delta::Snapshot& snapshot,
                            const VacuumOptions& options) {
  ASSIGN_OR_RETURN(TableProperties props, ParseTableProperties(snapshot.metadata().configuration));
  int64_t configured = props.deleted_file_retention_ms;
  int64_t retention = options.retention_ms.value_or(configured);
  if (retention < 0) return Status::InvalidArgument("Retention for Vacuum can't be less than 0.");
  if (options.retention_check && retention < configured) {
    return Status::InvalidArgument(
        "Are you sure you would like to vacuum files with such a low retention period? If you have writers that "
        "are currently writing to this table, there is a risk that you may corrupt the state of your Delta "
        "table.\n\nIf you are certain that there are no operations being performed on this table, such as "
        "insert/upsert/delete/optimize, then you may turn off this check by setting:\n"
        "SET shoal.vacuum.retentionCheck = false\n\nIf you are not sure, please use a value not less than \"" +
        RetentionHours(configured) + "\".");
  }
  int64_t now = options.clock_ms ? options.clock_ms() : SystemNowMs();
  // A URI root (s3://bucket/t) is already normal; collapsing its "//" would make it a local path.
  std::string root = snapshot.table_root();
  if (root.find("://") == std::string::npos) {
    ASSIGN_OR_RETURN(root, delta::NormalizePathNoDotDot(root));
  }

  Vacuumer v(*fs, root, now - retention, options.dry_run, snapshot.metadata().partition_columns, options.progress);
  for (const auto& add : snapshot.files()) {
    v.KeepLogPath(add.path);
    v.KeepDv(add.deletion_vector);
  }
  for (const auto& rm : snapshot.tombstones()) {
    if (rm.deletion_timestamp.value_or(0) < now - retention) continue;
    v.KeepLogPath(rm.path);
    v.KeepDv(rm.deletion_vector);
  }
  ASSIGN_OR_RETURN(auto prepared, txn::ListPrepared(*fs, root));
  for (const auto& p : prepared) {
    for (const auto& f : p.staged_files) v.Keep(f);
  }

  VacuumResult result;
  result.retention_ms = retention;
  bool empty = false;
  RETURN_NOT_OK(v.Walk(root, true, &empty, &result));
  std::sort(result.files.begin(), result.files.end());
  return result;
}

}  // namespace shoal::table
