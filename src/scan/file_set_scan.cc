#include "scan/file_set_scan.h"

#include <algorithm>

#include "delta/deletion_vector.h"
#include "expr/can_match.h"
#include "parquet/statistics.h"
#include "scan/column_adapter.h"
#include "scan/file_stats.h"

namespace shoal::scan {

using columnar::BatchPtr;
using columnar::VectorPtr;

struct FileSetScan::FileState {
  int index = 0;
  std::unique_ptr<parquet::ParquetReader> reader;
  std::optional<delta::DeletionVector> dv;
  // Per output column: file field read (index into read_fields) or -1.
  std::vector<int> slot;
  std::vector<int> read_fields;           // file top-level fields to read, in slot order
  std::vector<int64_t> row_group_start;   // file-global index of each row group's first row
};


FileSetScan::FileSetScan(FileSetScanSpec spec, std::vector<FileTask> files)
    : spec_(std::move(spec)), files_(std::move(files)) {
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
  for (size_t i = 0; i < files_.size(); ++i) queue_.push_back({static_cast<int>(i), -1, nullptr});
  metrics_.files_total = spec_.files_total;
}

FileSetScan::~FileSetScan() = default;

std::unique_ptr<FileSetScan::Local> FileSetScan::MakeLocal() const { return std::make_unique<Local>(); }

void FileSetScan::AddMetrics(const ScanMetrics& m) {
  std::lock_guard<std::mutex> lock(mu_);
  metrics_.files_read += m.files_read;
  metrics_.row_groups_total += m.row_groups_total;
  metrics_.row_groups_read += m.row_groups_read;
  metrics_.pages_total += m.pages_total;
  metrics_.pages_read += m.pages_read;
  metrics_.bytes_read += m.bytes_read;
  metrics_.rows_scanned += m.rows_scanned;
  metrics_.rows_returned += m.rows_returned;
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
  ASSIGN_OR_RETURN(st->reader, parquet::ParquetReader::Open(spec_.fs, task.path, spec_.reader_options, stats));
  const parquet::ParquetReader& r = *st->reader;
  const columnar::Schema& file_schema = *r.schema();
  auto ids = TopLevelFieldIds(r.metadata());
  const TableSchema& table = *spec_.table;
  for (int c : spec_.columns) {
    const TableColumn& col = table.columns[c];
    int slot = -1;
    bool is_constant = c < static_cast<int>(task.partition_values.size()) && task.partition_values[c].has_value();
    if (!is_constant) {
      int f = FindFileField(file_schema, ids, col, table.mapping);
      if (f >= 0) {
        auto it = std::find(st->read_fields.begin(), st->read_fields.end(), f);
        slot = static_cast<int>(it - st->read_fields.begin());
        if (it == st->read_fields.end()) st->read_fields.push_back(f);
      }
    }
    st->slot.push_back(slot);
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
  }
  return st;
}

Result<bool> FileSetScan::PruneRowGroup(const FileState& fst, int rg) const {
  if (!filter_) return false;
  const parquet::ParquetReader& r = *fst.reader;
  const FileTask& task = files_[fst.index];
  const auto& ps = r.parquet_schema();
  std::vector<std::optional<expr::ColumnStats>> stats(spec_.columns.size());
  int64_t rows = r.row_group_num_rows(rg);
  for (size_t j = 0; j < spec_.columns.size(); ++j) {
    int c = spec_.columns[j];
    const TableColumn& col = spec_.table->columns[c];
    expr::ColumnStats cs;
    cs.row_count = rows;
    if (c < static_cast<int>(task.partition_values.size()) && task.partition_values[c]) {
      const columnar::Value& v = *task.partition_values[c];
      cs.null_count = v.is_null() ? rows : 0;
      if (!v.is_null()) cs.min = cs.max = v;
      cs.may_have_nan = false;
      stats[j] = std::move(cs);
      continue;
    }
    if (fst.slot[j] < 0) {  // absent from the file: all NULL
      cs.null_count = rows;
      stats[j] = std::move(cs);
      continue;
    }
    const parquet::FieldNode& node = ps.fields()[fst.read_fields[fst.slot[j]]];
    if (node.kind != parquet::FieldNode::Kind::kLeaf) continue;
    const parquet::LeafColumn& leaf = ps.leaves()[node.leaf];
    const parquet::Statistics* raw = r.column_statistics(rg, node.leaf);
    if (!raw) continue;
    std::optional<parquet::ColumnOrder> order;
    if (leaf.index < static_cast<int>(r.metadata().column_orders.size())) {
      order = r.metadata().column_orders[leaf.index];
    }
    auto decoded = parquet::DecodeStatistics(*raw, leaf, r.metadata().schema[leaf.element_index], order);
    if (!decoded.ok()) continue;  // unusable statistics never prune
    cs.null_count = decoded->null_count;
    if (decoded->min && decoded->max) {
      cs.min = AdaptBound(*decoded->min, col.type);
      cs.max = AdaptBound(*decoded->max, col.type);
      if (!cs.min || !cs.max) cs.min.reset(), cs.max.reset();
    }
    stats[j] = std::move(cs);
  }
  VectorStatsProvider provider(std::move(stats));
  return expr::CanMatch(*filter_, provider) == expr::TriState::kFalse;
}

Result<BatchPtr> FileSetScan::ToOutput(const FileState& fst, const columnar::RecordBatch& in,
                                       int64_t first_row, Local* local) {
  const FileTask& task = files_[fst.index];
  int64_t n = in.num_rows;
  std::vector<VectorPtr> cols;
  cols.reserve(spec_.columns.size());
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
  if (spec_.with_row_address) {
    auto ids = columnar::Vector::Make(columnar::Int64(), n);
    auto rows = columnar::Vector::Make(columnar::Int64(), n);
    ids->Resize(n);
    rows->Resize(n);
    int64_t* id_data = ids->data<int64_t>();
    int64_t* row_data = rows->data<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      id_data[i] = task.id;
      row_data[i] = first_row + i;
    }
    cols.push_back(std::move(ids));
    cols.push_back(std::move(rows));
  }
  auto batch = std::make_shared<columnar::RecordBatch>(output_schema_, std::move(cols), n);
  bool selected = false;
  if (fst.dv && !fst.dv->IsEmpty()) {
    local->sel.clear();
    for (int64_t i = 0; i < n; ++i) {
      if (!fst.dv->Contains(static_cast<uint64_t>(first_row + i))) local->sel.push_back(static_cast<uint32_t>(i));
    }
    if (static_cast<int64_t>(local->sel.size()) != n) selected = true;
  }
  if (filter_) {
    if (selected) {
      ASSIGN_OR_RETURN(int64_t k, expr::EvaluateFilterOn(*filter_, *batch, local->sel, local->ctx, &local->sel2));
      (void)k;
    } else {
      ASSIGN_OR_RETURN(int64_t k, expr::EvaluateFilter(*filter_, *batch, local->ctx, &local->sel2));
      (void)k;
    }
    local->sel.swap(local->sel2);
    selected = static_cast<int64_t>(local->sel.size()) != n;
  }
  if (!selected) return batch;
  return columnar::GatherBatch(*batch, local->sel.data(), static_cast<int64_t>(local->sel.size()));
}

Result<bool> FileSetScan::Next(Local* local, BatchPtr* out, uint64_t* order) {
  while (true) {
    if (spec_.limit_hint >= 0 && !filter_ && rows_out_.load() >= spec_.limit_hint) return false;
    if (local->rg_reader) {
      int64_t first = local->state->row_group_start[local->row_group] + local->position;
      auto b = local->rg_reader->ReadBatch(spec_.batch_rows);
      if (!b.ok()) return b.status();
      if (*b == nullptr) {
        ScanMetrics m;
        m.row_groups_read = 1;
        m.pages_read = local->stats.pages_read;
        m.pages_total = local->stats.pages_read + local->stats.pages_skipped;
        m.bytes_read = local->stats.bytes_read;
        m.rows_scanned = local->position;
        AddMetrics(m);
        local->stats = {};
        local->rg_reader.reset();
        local->state.reset();
        continue;
      }
      local->position += (*b)->num_rows;
      ASSIGN_OR_RETURN(BatchPtr o, ToOutput(*local->state, **b, first, local));
      uint64_t key = (static_cast<uint64_t>(local->state->index) << 40) |
                     (static_cast<uint64_t>(std::min(local->row_group, (1 << 20) - 1)) << 20) |
                     std::min<uint64_t>(local->batch_no, (1u << 20) - 1);
      ++local->batch_no;
      if (o->num_rows == 0) continue;
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
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (queue_.empty()) return false;
      m = std::move(queue_.front());
      queue_.pop_front();
    }
    if (m.row_group < 0) {
      parquet::ReadStats footer;
      ASSIGN_OR_RETURN(m.state, OpenFile(m.file, &footer));
      std::vector<int> keep;
      int groups = m.state->reader->num_row_groups();
      for (int g = 0; g < groups; ++g) {
        ASSIGN_OR_RETURN(bool pruned, PruneRowGroup(*m.state, g));
        if (!pruned) keep.push_back(g);
      }
      ScanMetrics fm;
      fm.files_read = 1;
      fm.row_groups_total = groups;
      fm.bytes_read = footer.bytes_read;
      AddMetrics(fm);
      if (keep.empty()) continue;
      {
        std::lock_guard<std::mutex> lock(mu_);
        for (size_t i = keep.size(); i-- > 1;) queue_.push_front({m.file, keep[i], m.state});
      }
      m.row_group = keep[0];
    }
    local->state = m.state;
    local->row_group = m.row_group;
    local->position = 0;
    local->batch_no = 0;
    ASSIGN_OR_RETURN(local->rg_reader,
                     m.state->reader->OpenRowGroup(m.row_group, m.state->read_fields, &local->stats));
  }
}

}  // namespace shoal::scan
