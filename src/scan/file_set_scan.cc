#include "scan/file_set_scan.h"

#include <algorithm>
#include <chrono>

#include "delta/deletion_vector.h"
#include "expr/can_match.h"
#include "io/range_cache_file.h"
#include "parquet/dictionary_probe.h"
#include "parquet/page_buffer_cache.h"
#include "parquet/statistics.h"
#include "scan/column_adapter.h"
#include "scan/file_stats.h"

namespace shoal::scan {

using columnar::BatchPtr;
using columnar::VectorPtr;

namespace {

// Latency-bound storage: the other columns' pages for the rows that survived the page index are
// fetched together with the filter columns' when they come to at most this much — about what a
// 100 MB/s connection brings in the 20 ms round trip that asking for them later would cost.
constexpr int64_t kEagerRestBytes = int64_t{2} << 20;

// A file's share of a scan's progress: its size, or 1 MiB when unknown.
int64_t FileProgressWeight(const FileTask& f) { return f.size > 0 ? f.size : int64_t{1} << 20; }
}  // namespace

struct FileSetScan::FileState {
  int index = 0;
  std::unique_ptr<parquet::ParquetReader> reader;
  std::optional<delta::DeletionVector> dv;
  // Per output column: file field read (index into read_fields) or -1.
  std::vector<int> slot;
  std::vector<int> read_fields;           // file top-level fields to read, in slot order
  std::vector<int64_t> row_group_start;   // file-global index of each row group's first row
  bool column_wise_ok = true;             // no two output columns of different table columns share a slot
  std::unique_ptr<RowGroupPruner> pruner;
};

FileSetScan::FileSetScan(FileSetScanSpec spec, std::vector<FileTask> files)
    : spec_(std::move(spec)), files_(std::move(files)) {
  // A table's data files are read only from inside the table (symbolic links leading out are
  // refused, io::FileSystem::OpenForReadBeneath).
  if (spec_.reader_options.beneath.empty()) spec_.reader_options.beneath = spec_.table_root;
  auto schema = std::make_shared<columnar::Schema>();
  for (int c : spec_.columns) schema->fields.push_back(spec_.table->schema.fields[c]);
  if (spec_.with_row_address) {
    schema->fields.push_back({kFileIdColumn, columnar::Int64(), false});
    schema->fields.push_back({kRowIndexColumn, columnar::Int64(), false});
  }
  output_schema_ = std::move(schema);
  if (spec_.filters.size() == 1) {
    filter_ = spec_.filters[0];
  } else if (spec_.filters.size() > 1) {
    auto a = expr::And(spec_.filters);
    if (a.ok()) filter_ = *a;
  }
  for (const expr::ExprPtr& f : spec_.filters) {
    conjunct_columns_.push_back(expr::CollectColumns(*f));
    conjunct_cost_.push_back(StaticConjunctCost(*f));
    const bool null_test = f->kind == expr::ExprKind::kIsNull && !f->negated && f->args.size() == 1 &&
                           f->args[0]->kind == expr::ExprKind::kColumnRef;
    null_test_column_.push_back(null_test ? f->args[0]->column : -1);
  }
  for (size_t i = 0; i < files_.size(); ++i) queue_.push_back({static_cast<int>(i), -1, nullptr, {}, false});
  remote_ = spec_.fs && !files_.empty() && spec_.fs->IsRemote(files_.front().path);
  for (size_t i = 0; i < files_.size(); ++i) progress_planned_ += FileProgressWeight(files_[i]);
  metrics_.files_total = spec_.files_total;
  metrics_.files_pruned_partition = spec_.files_pruned_partition;
  metrics_.files_pruned_stats = spec_.files_pruned_stats;
}

FileSetScan::~FileSetScan() = default;

std::unique_ptr<FileSetScan::Local> FileSetScan::MakeLocal() const { return std::make_unique<Local>(); }

void FileSetScan::AddMetrics(const ScanMetrics& m) {
  // ScanMetrics::Add lives in the sql layer; sum the counters this scan produces here.
  std::lock_guard<std::mutex> lock(mu_);
  ScanMetrics& t = metrics_;
  t.files_read += m.files_read;
  t.row_groups_total += m.row_groups_total;
  t.row_groups_read += m.row_groups_read;
  t.pages_total += m.pages_total;
  t.pages_read += m.pages_read;
  t.bytes_read += m.bytes_read;
  t.rows_scanned += m.rows_scanned;
  t.rows_returned += m.rows_returned;
  t.row_groups_pruned_stats += m.row_groups_pruned_stats;
  t.row_groups_pruned_dictionary += m.row_groups_pruned_dictionary;
  t.row_groups_pruned_bloom += m.row_groups_pruned_bloom;
  t.pages_pruned_index += m.pages_pruned_index;
  t.rows_pruned_index += m.rows_pruned_index;
  t.rows_deleted_dv += m.rows_deleted_dv;
  t.rows_prewhere_filtered += m.rows_prewhere_filtered;
  t.pages_skipped_prewhere += m.pages_skipped_prewhere;
}

ScanMetrics FileSetScan::metrics() const {
  std::lock_guard<std::mutex> lock(mu_);
  return metrics_;
}

Result<std::shared_ptr<FileSetScan::FileState>> FileSetScan::OpenFile(int file_index,
                                                                       parquet::ReadStats* stats) {
  const FileTask& task = files_[file_index];
  auto st = std::make_shared<FileState>();
  st->index = file_index;
  ASSIGN_OR_RETURN(st->reader,
                   parquet::ParquetReader::Open(spec_.fs, task.path, spec_.reader_options, stats, task.size));
  const parquet::ParquetReader& r = *st->reader;
  const columnar::Schema& file_schema = *r.schema();
  auto ids = TopLevelFieldIds(r.metadata());
  const TableSchema& table = *spec_.table;
  const auto& ps = r.parquet_schema();
  std::vector<PrunerColumn> pruner_columns;
  std::vector<int> table_column_of_slot;
  for (int c : spec_.columns) {
    const TableColumn& col = table.columns[c];
    int slot = -1;
    PrunerColumn pc;
    pc.type = col.type;
    bool is_constant = c < static_cast<int>(task.partition_values.size()) && task.partition_values[c].has_value();
    if (is_constant) {
      pc.constant = *task.partition_values[c];
    } else {
      int f = FindFileField(file_schema, ids, col, table.mapping);
      if (f >= 0) {
        auto it = std::find(st->read_fields.begin(), st->read_fields.end(), f);
        slot = static_cast<int>(it - st->read_fields.begin());
        if (it == st->read_fields.end()) {
          st->read_fields.push_back(f);
          table_column_of_slot.push_back(c);
        } else if (table_column_of_slot[slot] != c) {
          st->column_wise_ok = false;
        }
        const parquet::FieldNode& node = ps.fields()[f];
        if (node.kind == parquet::FieldNode::Kind::kLeaf) pc.leaf = node.leaf;
      } else {
        pc.absent = true;
      }
    }
    st->slot.push_back(slot);
    pruner_columns.push_back(std::move(pc));
  }
  int64_t start = 0;
  for (int g = 0; g < r.num_row_groups(); ++g) {
    st->row_group_start.push_back(start);
    start += r.row_group_num_rows(g);
  }
  if (task.deletion_vector) {
    auto dv = delta::DeletionVector::Load(*spec_.fs, spec_.table_root, *task.deletion_vector);
    if (!dv.ok()) return dv.status().WithContext("deletion vector of " + task.path);
    st->dv = std::move(*dv);
    if (st->dv->IsEmpty()) st->dv.reset();
  }
  if (!spec_.filters.empty()) {
    st->pruner = std::make_unique<RowGroupPruner>(spec_.filters, std::move(pruner_columns), spec_.prune);
  }
  return st;
}

void FileSetScan::OpenAheadLocked(int file_index) {
  auto start = [&](int f) {
    ahead_.emplace(f, std::async(std::launch::async, [this, f] {
                        Opened o;
                        auto st = OpenFile(f, &o.stats);
                        o.status = st.status();
                        if (st.ok()) o.state = std::move(*st);
                        return o;
                      }).share());
  };
  if (!ahead_.count(file_index)) start(file_index);
  for (const Morsel& q : queue_) {
    if (ahead_.size() >= kOpenAheadFiles) break;
    if (q.row_group == -1 && !ahead_.count(q.file)) start(q.file);
  }
}

Result<std::shared_ptr<FileSetScan::FileState>> FileSetScan::OpenQueuedFile(int file_index, parquet::ReadStats* stats) {
  if (!remote_) return OpenFile(file_index, stats);
  std::shared_future<Opened> opened;
  {
    std::lock_guard<std::mutex> lock(mu_);
    OpenAheadLocked(file_index);
    auto it = ahead_.find(file_index);
    opened = it->second;
    ahead_.erase(it);
  }
  const Opened& o = opened.get();
  *stats = o.stats;
  RETURN_NOT_OK(o.status);
  return o.state;
}

bool FileSetScan::NextBatchRows(Local* local, int64_t* begin, int64_t* n) const {
  while (local->range_index < local->ranges.size()) {
    const parquet::RowRange& r = local->ranges[local->range_index];
    if (local->position < r.begin) local->position = r.begin;
    if (local->position >= r.end) {
      ++local->range_index;
      continue;
    }
    *begin = local->position;
    *n = std::min(spec_.batch_rows > 0 ? spec_.batch_rows : 2048, r.end - local->position);
    local->position += *n;
    return true;
  }
  return false;
}

bool FileSetScan::ApplyDeletionVector(const FileState& fst, int64_t first_row, int64_t n, Local* local) const {
  if (!fst.dv) return false;
  local->sel.clear();
  for (int64_t i = 0; i < n; ++i) {
    if (!fst.dv->Contains(static_cast<uint64_t>(first_row + i))) local->sel.push_back(static_cast<uint32_t>(i));
  }
  return static_cast<int64_t>(local->sel.size()) != n;
}

BatchPtr FileSetScan::MakeOutput(const FileState& fst, std::vector<VectorPtr> cols, int64_t first_row,
                                 const uint32_t* sel, int64_t m) const {
  if (spec_.with_row_address) {
    const FileTask& task = files_[fst.index];
    auto ids = columnar::Vector::Make(columnar::Int64(), m);
    auto rows = columnar::Vector::Make(columnar::Int64(), m);
    ids->Resize(m);
    rows->Resize(m);
    int64_t* id_data = ids->data<int64_t>();
    int64_t* row_data = rows->data<int64_t>();
    for (int64_t i = 0; i < m; ++i) {
      id_data[i] = task.id;
      row_data[i] = first_row + (sel ? sel[i] : i);
    }
    cols.push_back(std::move(ids));
    cols.push_back(std::move(rows));
  }
  return std::make_shared<columnar::RecordBatch>(output_schema_, std::move(cols), m);
}

Result<BatchPtr> FileSetScan::ToOutput(const FileState& fst, const columnar::RecordBatch& in,
                                       int64_t first_row, Local* local) {
  const FileTask& task = files_[fst.index];
  int64_t n = in.num_rows;
  std::vector<VectorPtr> cols;
  cols.reserve(output_schema_->fields.size());
  for (size_t j = 0; j < spec_.columns.size(); ++j) {
    int c = spec_.columns[j];
    const TableColumn& col = spec_.table->columns[c];
    if (c < static_cast<int>(task.partition_values.size()) && task.partition_values[c]) {
      cols.push_back(task.partition_values[c]->Broadcast(n));
    } else if (fst.slot[j] < 0) {
      cols.push_back(columnar::Vector::MakeNull(col.type, n));
    } else {
      auto adapted = AdaptColumn(in.columns[fst.slot[j]], col);
      if (!adapted.ok()) return adapted.status().WithContext(task.path);
      cols.push_back(std::move(*adapted));
    }
  }
  BatchPtr batch = MakeOutput(fst, std::move(cols), first_row, nullptr, n);
  bool selected = ApplyDeletionVector(fst, first_row, n, local);
  int64_t alive = selected ? static_cast<int64_t>(local->sel.size()) : n;
  local->rg_metrics.rows_deleted_dv += n - alive;
  if (filter_ && alive > 0) {
    if (selected) {
      ASSIGN_OR_RETURN(int64_t k, expr::EvaluateFilterOn(*filter_, *batch, local->sel, local->ctx, &local->sel2));
      (void)k;
    } else {
      ASSIGN_OR_RETURN(int64_t k, expr::EvaluateFilter(*filter_, *batch, local->ctx, &local->sel2));
      (void)k;
    }
    local->sel.swap(local->sel2);
    local->policy.Record(alive, static_cast<int64_t>(local->sel.size()));
    selected = static_cast<int64_t>(local->sel.size()) != n;
  }
  if (!selected) return batch;
  return columnar::GatherBatch(*batch, local->sel.data(), static_cast<int64_t>(local->sel.size()));
}

Result<BatchPtr> FileSetScan::PlainBatch(Local* local, int64_t begin, int64_t n) {
  parquet::RowGroupReader& rg = *local->rg_reader;
  int64_t at = rg.num_rows() - rg.rows_remaining();
  if (at < begin) RETURN_NOT_OK(rg.SkipRows(begin - at));
  ASSIGN_OR_RETURN(BatchPtr b, rg.ReadBatch(n));
  if (!b || b->num_rows != n) {
    return Status::Corruption(files_[local->state->index].path + ": row group " + std::to_string(local->row_group) +
                              " ends early");
  }
  int64_t first_row = local->state->row_group_start[local->row_group] + begin;
  return ToOutput(*local->state, *b, first_row, local);
}

Result<VectorPtr> FileSetScan::ReadOutputColumn(Local* local, size_t j, int64_t begin, int64_t n, const uint32_t* sel,
                                                int64_t m) {
  const FileState& fst = *local->state;
  const FileTask& task = files_[fst.index];
  int c = spec_.columns[j];
  const TableColumn& col = spec_.table->columns[c];
  if (c < static_cast<int>(task.partition_values.size()) && task.partition_values[c]) {
    return task.partition_values[c]->Broadcast(m);
  }
  int s = fst.slot[j];
  if (s < 0) return columnar::Vector::MakeNull(col.type, m);
  // Another output column of the same table column already holds it (never decode twice).
  for (size_t k = 0; k < spec_.columns.size(); ++k) {
    if (k != j && local->held[k] && fst.slot[k] == s) return local->held[k];
  }
  parquet::RowGroupReader& rg = *local->rg_reader;
  int64_t at = rg.field_position(s);
  if (at < begin) RETURN_NOT_OK(rg.SkipField(s, begin - at));
  const bool coded = spec_.coded_strings && rg.FieldIsDictionaryCoded(s);
  auto raw = coded ? rg.ReadFieldCoded(s, n, sel, m) : sel ? rg.ReadFieldSelected(s, n, sel, m) : rg.ReadField(s, n);
  if (!raw.ok()) return raw.status();
  if (coded) {
    if ((*raw)->type()->Equals(*col.type)) return std::move(*raw);
    *raw = columnar::Decode(*raw);  // the table's type differs: adapt the values
  }
  auto adapted = AdaptColumn(std::move(*raw), col);
  if (!adapted.ok()) return adapted.status().WithContext(task.path);
  return std::move(*adapted);
}

void FileSetScan::PrepareDictFilter(Local* local, int k) {
  Local::DictFilter& df = local->dict_filters[k];
  df.tried = true;
  if (conjunct_columns_[k].size() != 1) return;
  const int j = conjunct_columns_[k][0];
  const FileState& fst = *local->state;
  const FileTask& task = files_[fst.index];
  const size_t ncols = spec_.columns.size();
  if (j < 0 || j >= static_cast<int>(ncols)) return;
  const int c = spec_.columns[j];
  if (c < static_cast<int>(task.partition_values.size()) && task.partition_values[c]) return;
  const int s = fst.slot[j];
  if (s < 0) return;
  for (size_t o = 0; o < ncols; ++o) {
    if (static_cast<int>(o) != j && fst.slot[o] == s) return;  // shared slot: read as values
  }
  const parquet::ParquetSchema& ps = fst.reader->parquet_schema();
  const parquet::FieldNode& node = ps.fields()[fst.read_fields[s]];
  if (node.kind != parquet::FieldNode::Kind::kLeaf || ps.leaves()[node.leaf].max_rep != 0) return;
  if (null_test_column_[k] == j && spec_.table->columns[c].type->id() != columnar::TypeId::kNull) {
    df.levels_only = true;
    df.column = j;
    return;
  }
  const int64_t rows = fst.reader->row_group_num_rows(local->row_group);
  // A dictionary costs about one evaluation per entry: worth it only when smaller than the rows.
  const int64_t max_bytes = std::min<int64_t>(parquet::kMaxProbeDictionaryBytes, std::max<int64_t>(rows * 16, 4096));
  auto dict = parquet::ReadChunkDictionary(*fst.reader, local->row_group, node.leaf, &local->stats, max_bytes);
  if (!dict.ok() || !dict->has_value()) return;
  const VectorPtr& d = (*dict)->values;
  const int64_t size = d->size();
  if (size > rows || size >= (int64_t{1} << 31)) return;
  const TableColumn& col = spec_.table->columns[c];
  auto adapted = AdaptColumn(d, col);
  if (!adapted.ok()) return;
  auto with_null = columnar::Vector::Make(col.type, size + 1);
  with_null->AppendFrom(**adapted, 0, size);
  with_null->AppendNull();
  std::vector<VectorPtr> cols(output_schema_->fields.size());
  cols[j] = with_null;
  columnar::RecordBatch batch(output_schema_, std::move(cols), size + 1);
  std::vector<uint32_t> hits;
  auto r = expr::EvaluateFilter(*spec_.filters[k], batch, local->ctx, &hits);
  if (!r.ok()) return;  // e.g. an entry no selected row holds fails a cast: evaluate on values
  df.pass.assign(static_cast<size_t>(size + 1), 0);
  for (uint32_t h : hits) df.pass[h] = 1;
  df.values = std::move(with_null);
  df.column = j;
  df.usable = true;
}

Status FileSetScan::PrefetchSlots(Local* local, const std::vector<int>& slots,
                                  const std::vector<parquet::RowRange>* rows) const {
  const FileState& fst = *local->state;
  if (!fst.reader->latency_bound() || slots.empty()) return Status::OK();
  std::vector<io::ByteRange> ranges;
  for (int s : slots) fst.reader->ChunkRanges(local->row_group, fst.read_fields[s], rows, &ranges);
  return fst.reader->Prefetch(std::move(ranges));
}

Status FileSetScan::PrefetchRowGroup(Local* local) const {
  const FileState& fst = *local->state;
  if (!fst.reader->latency_bound()) return Status::OK();
  std::vector<int> slots;
  auto add = [&](int j) {
    if (j < 0 || j >= static_cast<int>(fst.slot.size())) return;
    const int s = fst.slot[j];
    if (s >= 0 && std::find(slots.begin(), slots.end(), s) == slots.end()) slots.push_back(s);
  };
  if (local->column_wise && filter_) {
    for (const std::vector<int>& cols : conjunct_columns_) {
      for (int j : cols) add(j);
    }
    // The other columns' pages for the rows that survived the page index come along when they
    // are few (kEagerRestBytes): fetching them costs less than the round trip Prewhere would
    // spend asking for the survivors' pages later (a point query on a sorted table: a page or
    // two per column).
    std::vector<io::ByteRange> ranges;
    for (int s : slots) fst.reader->ChunkRanges(local->row_group, fst.read_fields[s], &local->ranges, &ranges);
    std::vector<io::ByteRange> rest;
    const size_t filter_slots = slots.size();
    for (size_t j = 0; j < fst.slot.size(); ++j) add(static_cast<int>(j));
    for (size_t i = filter_slots; i < slots.size(); ++i) {
      fst.reader->ChunkRanges(local->row_group, fst.read_fields[slots[i]], &local->ranges, &rest);
    }
    int64_t rest_bytes = 0;
    for (const io::ByteRange& r : rest) rest_bytes += r.length;
    if (rest_bytes <= kEagerRestBytes) ranges.insert(ranges.end(), rest.begin(), rest.end());
    return fst.reader->Prefetch(std::move(ranges));
  }
  for (size_t j = 0; j < fst.slot.size(); ++j) add(static_cast<int>(j));
  // A plain scan whose rows start at the row group's first reads whole chunks.
  const bool whole = !local->column_wise && !local->ranges.empty() && local->ranges.front().begin == 0;
  return PrefetchSlots(local, slots, whole ? nullptr : &local->ranges);
}

Status FileSetScan::PrefetchRest(Local* local, int64_t begin, int64_t n, const uint32_t* sel, int64_t m) const {
  const FileState& fst = *local->state;
  if (!fst.reader->latency_bound() || m == 0) return Status::OK();
  std::vector<int> slots;
  for (size_t j = 0; j < fst.slot.size(); ++j) {
    const int s = fst.slot[j];
    if (s >= 0 && !local->held[j] && std::find(slots.begin(), slots.end(), s) == slots.end()) slots.push_back(s);
  }
  // Sparse survivors: only their pages. Dense ones: the rest of the row group at once, as the
  // following batches will want it too (one round trip instead of one per page).
  std::vector<parquet::RowRange> rows;
  if (sel && m * 4 < n) {
    rows.push_back({begin + sel[0], begin + sel[m - 1] + 1});
  } else {
    rows.push_back({begin, local->ranges.empty() ? begin + n : std::max(begin + n, local->ranges.back().end)});
  }
  return PrefetchSlots(local, slots, &rows);
}

Result<BatchPtr> FileSetScan::PrewhereBatch(Local* local, int64_t begin, int64_t n) {
  const FileState& fst = *local->state;
  int64_t first_row = fst.row_group_start[local->row_group] + begin;
  const size_t ncols = spec_.columns.size();
  bool all = !ApplyDeletionVector(fst, first_row, n, local);
  int64_t m = all ? n : static_cast<int64_t>(local->sel.size());
  local->rg_metrics.rows_deleted_dv += n - m;
  local->held.assign(ncols, nullptr);
  if (m == 0) return MakeOutput(fst, {}, first_row, nullptr, 0);
  const int64_t alive = m;
  // Without a filter (column-wise for coded strings only) there is nothing to evaluate first.
  const FileSetScanSpec::Prewhere mode = spec_.prewhere;
  bool lazy = !filter_ || mode == FileSetScanSpec::Prewhere::kOn ||
              (mode == FileSetScanSpec::Prewhere::kAuto && local->policy.Lazy());
  if (!lazy) {
    // Eager: every column whole, then the filter once (the plain scan's work).
    RETURN_NOT_OK(PrefetchRest(local, begin, n, nullptr, n));
    for (size_t j = 0; j < ncols; ++j) {
      ASSIGN_OR_RETURN(local->held[j], ReadOutputColumn(local, j, begin, n, nullptr, n));
    }
    columnar::RecordBatch batch(output_schema_, local->held, n);
    batch.columns.resize(output_schema_->fields.size());
    if (all) {
      ASSIGN_OR_RETURN(m, expr::EvaluateFilter(*filter_, batch, local->ctx, &local->sel2));
    } else {
      ASSIGN_OR_RETURN(m, expr::EvaluateFilterOn(*filter_, batch, local->sel, local->ctx, &local->sel2));
    }
    local->sel.swap(local->sel2);
    local->policy.Record(alive, m);
    std::vector<VectorPtr> cols(ncols);
    for (size_t j = 0; j < ncols; ++j) {
      cols[j] = m == n ? local->held[j] : columnar::Gather(*local->held[j], local->sel.data(), m);
    }
    local->held.assign(ncols, nullptr);
    return MakeOutput(fst, std::move(cols), first_row, m == n ? nullptr : local->sel.data(), m);
  }
  if (!local->order) local->order = std::make_unique<ConjunctOrder>(conjunct_cost_);
  const std::vector<int> order = local->order->order();
  for (int k : order) {
    if (m == 0) break;
    auto t0 = std::chrono::steady_clock::now();
    const uint32_t* sel = all ? nullptr : local->sel.data();
    Local::DictFilter& df = local->dict_filters[k];
    if (!df.tried) PrepareDictFilter(local, k);
    int64_t kept = 0;
    columnar::VectorPtr dict_column;  // with the dictionary or levels only: the column's kept values
    if (df.levels_only && !local->held[df.column]) {
      // IS NULL from the definition levels: the kept rows are the NULL ones, so their values
      // are known without reading any.
      const int s = fst.slot[df.column];
      parquet::RowGroupReader& rg = *local->rg_reader;
      int64_t at = rg.field_position(s);
      if (at < begin) RETURN_NOT_OK(rg.SkipField(s, begin - at));
      local->defined.resize(static_cast<size_t>(m));
      Status st = rg.ReadFieldDefined(s, n, sel, m, local->defined.data());
      if (!st.ok()) return st.WithContext(files_[fst.index].path);
      local->pos.resize(static_cast<size_t>(m));
      const uint8_t* defined = local->defined.data();
      uint32_t* pos = local->pos.data();
      for (int64_t i = 0; i < m; ++i) {
        pos[kept] = static_cast<uint32_t>(i);
        kept += defined[i] ^ 1;
      }
      local->pos.resize(static_cast<size_t>(kept));
      dict_column = columnar::Vector::MakeNull(spec_.table->columns[spec_.columns[df.column]].type, kept);
    } else if (df.usable && !local->held[df.column]) {
      // On indices: one lookup per row in the pass table evaluated on the dictionary.
      const int s = fst.slot[df.column];
      parquet::RowGroupReader& rg = *local->rg_reader;
      int64_t at = rg.field_position(s);
      if (at < begin) RETURN_NOT_OK(rg.SkipField(s, begin - at));
      local->idx.resize(static_cast<size_t>(m));
      const uint32_t null_index = static_cast<uint32_t>(df.pass.size() - 1);
      Status st = rg.ReadFieldIndices(s, n, sel, m, null_index, local->idx.data());
      if (!st.ok()) return st.WithContext(files_[fst.index].path);
      local->pos.resize(static_cast<size_t>(m));
      const uint8_t* pass = df.pass.data();
      const uint32_t* idx = local->idx.data();
      uint32_t* pos = local->pos.data();
      for (int64_t i = 0; i < m; ++i) {
        pos[kept] = static_cast<uint32_t>(i);
        kept += pass[idx[i]];
      }
      local->pos.resize(static_cast<size_t>(kept));
      local->kept_idx.resize(static_cast<size_t>(kept));
      for (int64_t i = 0; i < kept; ++i) local->kept_idx[i] = idx[pos[i]];
      if (spec_.coded_strings && df.values->type()->IsStringLike()) {
        // Coded over the dictionary (whose last entry is the NULL one): no string is copied.
        dict_column = columnar::Vector::MakeCoded(df.values, kept);
        int32_t* codes = dict_column->mutable_codes();
        bool nulls = false;
        for (int64_t i = 0; i < kept; ++i) {
          const uint32_t code = local->kept_idx[i];
          nulls |= code == null_index;
          codes[i] = code == null_index ? 0 : static_cast<int32_t>(code);
        }
        if (nulls) {
          uint8_t* valid = dict_column->MutableValidity();
          for (int64_t i = 0; i < kept; ++i) valid[i] = local->kept_idx[i] == null_index ? 0 : 1;
        }
      } else {
        dict_column = columnar::Gather(*df.values, local->kept_idx.data(), kept);
      }
    } else {
      for (int j : conjunct_columns_[k]) {
        if (j < 0 || j >= static_cast<int>(ncols) || local->held[j]) continue;
        ASSIGN_OR_RETURN(local->held[j], ReadOutputColumn(local, j, begin, n, sel, m));
      }
      columnar::RecordBatch batch(output_schema_, local->held, m);
      batch.columns.resize(output_schema_->fields.size());
      ASSIGN_OR_RETURN(kept, expr::EvaluateFilter(*spec_.filters[k], batch, local->ctx, &local->pos));
    }
    if (kept < m) {
      if (all) {
        local->sel.assign(local->pos.begin(), local->pos.end());
        all = false;
      } else {
        local->sel2.resize(static_cast<size_t>(kept));
        for (int64_t i = 0; i < kept; ++i) local->sel2[i] = local->sel[local->pos[i]];
        local->sel.swap(local->sel2);
      }
      for (VectorPtr& h : local->held) {
        if (h) h = columnar::Gather(*h, local->pos.data(), kept);
      }
    }
    if (dict_column) local->held[df.column] = std::move(dict_column);
    auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count();
    local->order->Record(k, m, kept, nanos);
    m = kept;
  }
  local->policy.Record(alive, m);
  local->rg_metrics.rows_prewhere_filtered += alive - m;
  if (m == 0) {
    local->held.assign(ncols, nullptr);
    return MakeOutput(fst, {}, first_row, nullptr, 0);
  }
  const uint32_t* sel = all ? nullptr : local->sel.data();
  RETURN_NOT_OK(PrefetchRest(local, begin, n, sel, m));
  for (size_t j = 0; j < ncols; ++j) {
    if (local->held[j]) continue;
    ASSIGN_OR_RETURN(local->held[j], ReadOutputColumn(local, j, begin, n, sel, m));
  }
  std::vector<VectorPtr> cols = std::move(local->held);
  local->held.clear();
  return MakeOutput(fst, std::move(cols), first_row, sel, m);
}

void FileSetScan::CreditRowGroup(int file, int group, int groups) {
  const int64_t w = FileProgressWeight(files_[file]);
  const int64_t share = groups <= 0 ? w : w * (group + 1) / groups - w * group / groups;
  progress_done_.fetch_add(share, std::memory_order_relaxed);
}

Status FileSetScan::ExpandFile(Morsel* m) {
  parquet::ReadStats footer;
  ASSIGN_OR_RETURN(m->state, OpenQueuedFile(m->file, &footer));
  const int groups = m->state->reader->num_row_groups();
  ScanMetrics fm;
  fm.files_read = 1;
  fm.row_groups_total = groups;
  fm.bytes_read = footer.bytes_read;
  AddMetrics(fm);
  std::vector<Morsel> keep;
  for (int g = 0; g < groups; ++g) {
    Morsel rm{m->file, g, m->state, {}, false};
    if (!m->state->pruner) {
      int64_t rows = m->state->reader->row_group_num_rows(g);
      if (rows <= 0) {
        CreditRowGroup(m->file, g, groups);
        continue;
      }
      rm.rows.push_back({0, rows});
      rm.judged = true;
    }
    keep.push_back(std::move(rm));
  }
  if (groups == 0) CreditRowGroup(m->file, 0, 0);
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = keep.size(); i-- > 0;) queue_.push_front(std::move(keep[i]));
  return Status::OK();
}

Result<bool> FileSetScan::JudgeRowGroup(Morsel* m) {
  ASSIGN_OR_RETURN(RowGroupVerdict v, m->state->pruner->Evaluate(*m->state->reader, m->row_group));
  const PruneCounters& pc = v.counters;
  ScanMetrics fm;
  fm.row_groups_pruned_stats = pc.row_groups_pruned_stats;
  fm.row_groups_pruned_dictionary = pc.row_groups_pruned_dictionary;
  // A row group whose every page the index excluded counts with the page index.
  fm.pages_pruned_index = pc.pages_pruned_index;
  fm.row_groups_pruned_bloom = pc.row_groups_pruned_bloom;
  fm.bytes_read = pc.bytes_read;
  if (!v.skip) {
    fm.rows_pruned_index = pc.rows_pruned_index;
    m->rows = v.rows.ranges();
  }
  AddMetrics(fm);
  m->judged = true;
  const bool keep = !v.skip && !m->rows.empty();
  if (!keep) CreditRowGroup(m->file, m->row_group, m->state->reader->num_row_groups());
  return keep;
}

Result<bool> FileSetScan::Next(Local* local, BatchPtr* out, uint64_t* order) {
  while (true) {
    if (spec_.limit_hint >= 0 && !filter_ && rows_out_.load() >= spec_.limit_hint) return false;
    if (local->rg_reader) {
      int64_t begin = 0, n = 0;
      if (!NextBatchRows(local, &begin, &n)) {
        ScanMetrics& m = local->rg_metrics;
        m.row_groups_read = 1;
        m.pages_read = local->stats.pages_read;
        const int64_t unread = local->rg_reader->pages_unread();
        m.pages_total = local->stats.pages_read + local->stats.pages_skipped + unread;
        if (local->column_wise) m.pages_skipped_prewhere = local->stats.pages_skipped + unread;
        m.bytes_read = local->stats.bytes_read;
        AddMetrics(m);
        CreditRowGroup(local->state->index, local->row_group, local->state->reader->num_row_groups());
        local->stats = {};
        local->rg_metrics = {};
        local->rg_reader.reset();
        local->state.reset();
        continue;
      }
      local->rg_metrics.rows_scanned += n;
      BatchPtr o;
      if (local->column_wise) {
        ASSIGN_OR_RETURN(o, PrewhereBatch(local, begin, n));
      } else {
        ASSIGN_OR_RETURN(o, PlainBatch(local, begin, n));
      }
      uint64_t key = (static_cast<uint64_t>(local->state->index) << 40) |
                     (static_cast<uint64_t>(std::min(local->row_group, (1 << 20) - 1)) << 20) |
                     std::min<uint64_t>(local->batch_no, (1u << 20) - 1);
      ++local->batch_no;
      if (o->num_rows == 0) {
        if (interrupted_ && interrupted_->load(std::memory_order_relaxed)) return Status::Interrupted("Interrupted!");
        continue;
      }
      rows_out_ += o->num_rows;
      {
        std::lock_guard<std::mutex> lock(mu_);
        metrics_.rows_returned += o->num_rows;
      }
      *out = std::move(o);
      *order = key;
      return true;
    }
    Morsel m;
    bool done = false;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return !queue_.empty() || opening_ == 0; });
      done = queue_.empty();
      if (!done) {
        m = std::move(queue_.front());
        queue_.pop_front();
        if (m.row_group < 0) ++opening_;
      }
    }
    if (done) {
      parquet::PageBufferCache::Clear();  // idle threads keep no page buffers
      return false;
    }
    if (m.row_group < 0) {
      Status st = ExpandFile(&m);
      {
        std::lock_guard<std::mutex> lock(mu_);
        --opening_;
      }
      cv_.notify_all();
      RETURN_NOT_OK(st);
      continue;
    }
    if (!m.judged) {
      ASSIGN_OR_RETURN(bool keep, JudgeRowGroup(&m));
      if (!keep) continue;
    }
    local->state = m.state;
    local->row_group = m.row_group;
    local->ranges = std::move(m.rows);
    local->range_index = 0;
    local->position = 0;
    local->batch_no = 0;
    // Column-wise reading serves Prewhere and coded strings (ReadFieldCoded reads one field).
    local->column_wise = ((filter_ && spec_.prewhere != FileSetScanSpec::Prewhere::kOff) || spec_.coded_strings) &&
                         m.state->column_wise_ok;
    local->dict_filters.assign(spec_.filters.size(), {});
    ASSIGN_OR_RETURN(local->rg_reader,
                     m.state->reader->OpenRowGroup(m.row_group, m.state->read_fields, &local->stats));
    RETURN_NOT_OK(PrefetchRowGroup(local));
  }
}

}  // namespace shoal::scan
