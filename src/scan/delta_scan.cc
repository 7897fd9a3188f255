#include "scan/delta_scan.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <thread>
#include <unordered_map>

#include "delta/log_segment.h"
#include "delta/parquet_checkpoint_reader.h"
#include "delta/stats_json.h"
#include "delta/stats_scan.h"
#include "delta/table_path.h"
#include "expr/can_match.h"
#include "expr/evaluate.h"
#include "scan/file_stats.h"
#include "scan/partition_values.h"

namespace shoal::scan {

Result<columnar::Value> PartitionValueOf(const delta::AddFile& file, const TableColumn& col) {
  std::optional<std::string> text;
  auto it = file.partition_values.find(col.physical_name);
  if (it == file.partition_values.end()) it = file.partition_values.find(col.name);
  if (it != file.partition_values.end()) text = it->second;
  return ParsePartitionValue(text, col.type, col.name);
}

Result<std::vector<std::optional<columnar::Value>>> PartitionValuesOf(const TableSchema& schema,
                                                                      const delta::AddFile& file) {
  std::vector<std::optional<columnar::Value>> out(schema.columns.size());
  for (size_t c = 0; c < schema.columns.size(); ++c) {
    if (!schema.columns[c].is_partition) continue;
    auto v = PartitionValueOf(file, schema.columns[c]);
    if (!v.ok()) return v.status().WithContext(file.path);
    out[c] = std::move(*v);
  }
  return out;
}

Result<FileTask> MakeFileTask(const std::string& table_root, const TableSchema& schema,
                              const delta::AddFile& file, int64_t id) {
  FileTask task;
  task.id = id;
  ASSIGN_OR_RETURN(task.path, delta::ResolveTablePath(table_root, file.path));
  ASSIGN_OR_RETURN(task.partition_values, PartitionValuesOf(schema, file));
  task.deletion_vector = file.deletion_vector;
  task.size = file.size > 0 ? file.size : -1;  // 0: a writer that did not record it
  return task;
}

Result<std::shared_ptr<const DeltaTable>> DeltaTable::Open(
    std::shared_ptr<io::FileSystem> fs, const std::string& root, const TimeTravel& at,
    std::function<void(int64_t done, int64_t planned)> load_progress) {
  delta::SnapshotOptions opts;
  opts.readers = delta::DefaultCheckpointReaders();
  if (at.version) {
    if (*at.version < 0)
      return Status::InvalidArgument("version " + std::to_string(*at.version) + " does not exist");
    opts.version = at.version;
  } else if (at.timestamp_ms) {
    ASSIGN_OR_RETURN(auto latest, delta::Snapshot::Load(fs, root, opts));
    ASSIGN_OR_RETURN(int64_t v, delta::FindVersionAtTimestamp(*fs, root, *at.timestamp_ms,
                                                              latest->InCommitTimestamps()));
    opts.version = v;
  }
  auto table = std::shared_ptr<DeltaTable>(new DeltaTable());
  table->fs_ = fs;
  opts.progress = std::move(load_progress);
  ASSIGN_OR_RETURN(table->snapshot_, delta::Snapshot::Load(fs, root, opts));
  auto schema = BuildTableSchema(table->snapshot_->metadata());
  if (!schema.ok()) return schema.status().WithContext("table " + root);
  table->schema_ = std::make_shared<const TableSchema>(std::move(*schema));
  return std::shared_ptr<const DeltaTable>(std::move(table));
}

Result<std::shared_ptr<const DeltaTable>> DeltaTable::FromSnapshot(
    std::shared_ptr<io::FileSystem> fs, std::shared_ptr<const delta::Snapshot> snapshot) {
  if (!snapshot) return Status::Internal("DeltaTable::FromSnapshot without a snapshot");
  auto table = std::shared_ptr<DeltaTable>(new DeltaTable());
  table->fs_ = std::move(fs);
  table->snapshot_ = std::move(snapshot);
  auto schema = BuildTableSchema(table->snapshot_->metadata());
  if (!schema.ok()) return schema.status().WithContext("table " + table->snapshot_->table_root());
  table->schema_ = std::make_shared<const TableSchema>(std::move(*schema));
  return std::shared_ptr<const DeltaTable>(std::move(table));
}

Result<std::shared_ptr<const DeltaTable>> DeltaTable::Restrict(const std::vector<std::string>& paths) const {
  const delta::FileList& files = snapshot_->file_list();
  std::unordered_map<std::string_view, size_t> index;
  index.reserve(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    if (!only_ || (*only_)[i]) index.emplace(files.path(i), i);
  }
  auto keep = std::make_shared<std::vector<bool>>(files.size(), false);
  for (const std::string& p : paths) {
    auto it = index.find(p);
    if (it == index.end()) {
      return Status::InvalidArgument("data file '" + p + "' is not live in version " +
                                     std::to_string(snapshot_->version()) + " of table " + snapshot_->table_root());
    }
    (*keep)[it->second] = true;
  }
  auto table = std::shared_ptr<DeltaTable>(new DeltaTable(*this));
  table->only_ = std::move(keep);
  return std::shared_ptr<const DeltaTable>(std::move(table));
}

std::optional<int64_t> DeltaTable::EstimatedRows() const {
  int64_t total = 0;
  const delta::FileList& files = snapshot_->file_list();
  for (size_t i = 0; i < files.size(); ++i) {
    if (only_ && !(*only_)[i]) continue;
    auto text = files.stats(i);
    if (!text) return std::nullopt;
    auto s = delta::ParseStatsJsonFor(*text, {});
    if (!s.ok() || !s->num_records) return std::nullopt;
    total += *s->num_records;
    if (const delta::DeletionVectorDescriptor* dv = files.deletion_vector(i)) total -= dv->cardinality;
  }
  return total;
}

namespace {

bool OnlyPartitionColumns(const expr::Expr& e, const std::vector<int>& columns,
                          const TableSchema& t) {
  for (int j : expr::CollectColumns(e)) {
    if (j < 0 || j >= static_cast<int>(columns.size()) || !t.columns[columns[j]].is_partition)
      return false;
  }
  return true;
}

// Files [begin, end) of a plan, judged by the partition and stats filters: the tasks of the files
// kept, in file order, and how many each kind of filter pruned.
struct JudgedFiles {
  std::vector<FileTask> tasks;
  int64_t pruned_partition = 0;
  int64_t pruned_stats = 0;
};

Status JudgeFiles(const delta::FileList& files, const std::vector<bool>* only, size_t begin, size_t end,
                  const std::string& table_root, const TableSchema& table, const std::vector<int>& columns,
                  const std::vector<expr::ExprPtr>& partition_filters, const std::vector<expr::ExprPtr>& stats_filters,
                  JudgedFiles* out) {
  expr::EvalContext ctx;
  // The output columns the stats filters read, and their stats paths: a file's stats JSON is
  // scanned for these alone (delta/stats_scan.h).
  std::vector<size_t> needed;
  std::vector<delta::ColumnPath> wanted;
  bool needs_partition_values = false;
  for (const expr::ExprPtr& f : stats_filters) {
    for (int j : expr::CollectColumns(*f)) {
      if (j < 0 || static_cast<size_t>(j) >= columns.size()) continue;
      if (std::find(needed.begin(), needed.end(), static_cast<size_t>(j)) != needed.end()) continue;
      needed.push_back(static_cast<size_t>(j));
      const TableColumn& col = table.columns[columns[j]];
      if (col.is_partition) needs_partition_values = true;
      else wanted.push_back({col.physical_name});
    }
  }
  // Whether the stats filters prove that no row of the file matches; `task` supplies partition
  // values when a filter reads a partition column.
  auto pruned_by_stats = [&](std::string_view text, const FileTask* task) {
    auto parsed = delta::ParseStatsJsonFor(text, wanted);
    if (!parsed.ok()) return false;
    std::vector<std::optional<expr::ColumnStats>> stats(columns.size());
    for (size_t j : needed) {
      const int c = columns[j];
      if (task && task->partition_values[c]) {
        expr::ColumnStats cs;
        const columnar::Value& v = *task->partition_values[c];
        cs.row_count = 1;
        cs.null_count = v.is_null() ? 1 : 0;
        if (!v.is_null()) cs.min = cs.max = v;
        cs.may_have_nan = false;
        stats[j] = std::move(cs);
      } else {
        stats[j] = ColumnStatsFor(*parsed, table.columns[c]);
      }
    }
    VectorStatsProvider provider(std::move(stats));
    for (const expr::ExprPtr& f : stats_filters) {
      if (expr::CanMatch(*f, provider) == expr::TriState::kFalse) return true;
    }
    return false;
  };
  // The partition filters' verdict depends only on a file's partition values, which few
  // distinct tuples share among many files: it is decided once per tuple, and a file of a
  // pruned tuple costs one lookup (no AddFile, no task).
  std::unordered_map<std::string, bool> pruned_by_partition;
  std::string tuple;
  for (size_t file_index = begin; file_index < end; ++file_index) {
    if (only && !(*only)[file_index]) continue;
    std::unordered_map<std::string, bool>::iterator verdict = pruned_by_partition.end();
    if (!partition_filters.empty()) {
      tuple.clear();
      for (const delta::FileList::PartitionEntry& e : files.partition_values(file_index)) {
        for (std::string_view part : {e.key, e.value}) {
          const uint32_t n = static_cast<uint32_t>(part.size());
          tuple.append(reinterpret_cast<const char*>(&n), sizeof n).append(part);
        }
        tuple.push_back(e.is_null ? 'N' : 'V');
      }
      verdict = pruned_by_partition.find(tuple);
      if (verdict != pruned_by_partition.end() && verdict->second) {
        ++out->pruned_partition;
        continue;
      }
    }
    // Stats before the file's AddFile and task when they need no partition value and its
    // partition verdict is known (partitions prune first): a pruned file costs neither.
    const bool stats_first = !stats_filters.empty() && !needs_partition_values &&
                             (partition_filters.empty() || verdict != pruned_by_partition.end());
    if (stats_first) {
      const std::optional<std::string_view> text = files.stats(file_index);
      if (text && pruned_by_stats(*text, nullptr)) {
        ++out->pruned_stats;
        continue;
      }
    }
    const delta::AddFile add = files.Get(file_index);
    ASSIGN_OR_RETURN(FileTask task, MakeFileTask(table_root, table, add,
                                                 static_cast<int64_t>(file_index)));
    bool pruned = false;
    if (!partition_filters.empty() && verdict == pruned_by_partition.end()) {
      // Exact: a one-row batch of the output columns with the partition values filled in.
      std::vector<columnar::VectorPtr> cols;
      auto schema = std::make_shared<columnar::Schema>();
      for (int c : columns) {
        schema->fields.push_back(table.schema.fields[c]);
        cols.push_back(task.partition_values[c]
                           ? task.partition_values[c]->Broadcast(1)
                           : columnar::Vector::MakeNull(table.columns[c].type, 1));
      }
      columnar::RecordBatch one(schema, std::move(cols), 1);
      std::vector<uint32_t> sel;
      for (const expr::ExprPtr& f : partition_filters) {
        ASSIGN_OR_RETURN(int64_t k, expr::EvaluateFilter(*f, one, ctx, &sel));
        if (k == 0) {
          pruned = true;
          ++out->pruned_partition;
          break;
        }
      }
      pruned_by_partition.emplace(tuple, pruned);
    }
    if (!pruned && !stats_first && !stats_filters.empty() && add.stats && pruned_by_stats(*add.stats, &task)) {
      pruned = true;
      ++out->pruned_stats;
    }
    if (!pruned) out->tasks.push_back(std::move(task));
  }
  return Status::OK();
}

// Lists at least this long are judged on two threads (the stats JSON parse is most of the cost).
constexpr size_t kParallelPlanFiles = 4096;

}  // namespace

Result<std::unique_ptr<FileSetScan>> DeltaTable::Plan(const DeltaScanOptions& options) const {
  const TableSchema& table = *schema_;
  for (int c : options.columns) {
    if (c < 0 || c >= static_cast<int>(table.columns.size())) {
      return Status::InvalidArgument("scan column " + std::to_string(c) + " out of range");
    }
  }
  std::vector<expr::ExprPtr> partition_filters, stats_filters;
  for (const expr::ExprPtr& f : options.filters) {
    (OnlyPartitionColumns(*f, options.columns, table) ? partition_filters : stats_filters)
        .push_back(f);
  }
  const delta::FileList& files = snapshot_->file_list();
  const size_t n = files.size();
  JudgedFiles parts[2];
  Status statuses[2];
  auto judge = [&](int k, size_t begin, size_t end) {
    statuses[k] = JudgeFiles(files, only_.get(), begin, end, snapshot_->table_root(), table, options.columns, partition_filters,
                             stats_filters, &parts[k]);
  };
  if (n >= kParallelPlanFiles && std::thread::hardware_concurrency() > 1) {
    std::thread second(judge, 1, n / 2, n);
    judge(0, 0, n / 2);
    second.join();
  } else {
    judge(0, 0, n);
  }
  std::vector<FileTask> tasks = std::move(parts[0].tasks);
  int64_t files_pruned_partition = 0, files_pruned_stats = 0;
  for (int k = 0; k < 2; ++k) {
    RETURN_NOT_OK(statuses[k]);
    files_pruned_partition += parts[k].pruned_partition;
    files_pruned_stats += parts[k].pruned_stats;
  }
  tasks.insert(tasks.end(), std::make_move_iterator(parts[1].tasks.begin()),
               std::make_move_iterator(parts[1].tasks.end()));
  FileSetScanSpec spec;
  spec.fs = fs_;
  spec.table_root = snapshot_->table_root();
  spec.table = schema_;
  spec.columns = options.columns;
  spec.filters = options.filters;
  spec.batch_rows = options.batch_rows;
  spec.limit_hint = options.limit_hint;
  spec.with_row_address = options.with_row_address;
  spec.prewhere = options.prewhere;
  spec.coded_strings = options.coded_strings;
  spec.files_total = only_ ? std::count(only_->begin(), only_->end(), true) : static_cast<int64_t>(files.size());
  spec.files_pruned_partition = files_pruned_partition;
  spec.files_pruned_stats = files_pruned_stats;
  return std::make_unique<FileSetScan>(std::move(spec), std::move(tasks));
}

}  // namespace shoal::scan
