#include "sql/execution/physical_basic.h"

#include <algorithm>

#include "sql/execution/task_runner.h"

namespace shoal::sql {

namespace {

struct ScanLocal : SourceLocalState {
  std::unique_ptr<ScanLocalState> scan;
};

class ScanSourceState : public SourceState {
 public:
  explicit ScanSourceState(std::unique_ptr<Scan> scan) : scan_(std::move(scan)) {}
  std::unique_ptr<SourceLocalState> MakeLocal() override {
    auto l = std::make_unique<ScanLocal>();
    l->scan = scan_->MakeLocal();
    return l;
  }
  Result<bool> Next(SourceLocalState* local, Chunk* out) override {
    return scan_->Next(static_cast<ScanLocal*>(local)->scan.get(), &out->batch, &out->order);
  }
  ScanMetrics metrics() const override { return scan_->metrics(); }
  WorkProgress progress() const override { return scan_->progress(); }

 private:
  std::unique_ptr<Scan> scan_;
};

struct EvalState : OperatorState {
  explicit EvalState(int64_t ts) : eval(ts) {}
  expr::EvalContext eval;
  std::vector<uint32_t> sel;
};

struct ChunkList : LocalSinkState {
  explicit ChunkList(MemoryReservation m) : memory(std::move(m)) {}
  std::vector<Chunk> chunks;
  MemoryReservation memory;
  void ReleaseCollected(const ExecContext& ctx) override { ReleaseLater(ctx, std::move(chunks)); }
};

void SortChunks(std::vector<Chunk>* chunks) {
  std::stable_sort(chunks->begin(), chunks->end(),
                   [](const Chunk& a, const Chunk& b) { return a.order < b.order; });
}

std::string ExprList(const std::vector<expr::ExprPtr>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i]->ToString();
  return s;
}

}  // namespace

std::string PhysicalTableScan::Details() const {
  std::string s = source_->ToString();
  if (!request_.filters.empty()) s += " filters=[" + ExprList(request_.filters) + "]";
  if (request_.columns.size() != source_->schema().size()) {
    s += " columns=[";
    for (size_t i = 0; i < request_.columns.size(); ++i) {
      s += (i ? ", " : "") + source_->schema().fields[request_.columns[i]].name;
    }
    s += "]";
  }
  if (request_.limit_hint >= 0) s += " limit=" + std::to_string(request_.limit_hint);
  if (!runtime_text_.empty()) s += " runtime filters=[" + runtime_text_ + "]";
  return s;
}

double PhysicalTableScan::WorkEstimate() const {
  std::optional<int64_t> rows = source_->EstimatedRows();
  return rows ? static_cast<double>(*rows) : estimated_rows;
}

Result<std::unique_ptr<SourceState>> PhysicalTableScan::OpenSource(ExecContext& ctx) {
  ScanRequest r = request_;
  r.batch_size = ctx.batch_size;
  r.prewhere = ctx.prewhere;
  r.coded_strings = ctx.coded_strings;
  if (ctx.memory) r.max_page_bytes = ctx.memory->limit();
  r.interrupted = ctx.interrupted;
  runtime_text_.clear();
  if (ctx.runtime_filters) {
    for (const auto& [filter, column] : runtime_filters_) {
      std::optional<ColumnStats> stats;
      if (column < static_cast<int>(request_.columns.size())) stats = source_->ColumnStatistics(request_.columns[column]);
      for (auto& p : filter->Predicates(column, schema()->fields[column], stats ? &*stats : nullptr)) {
        std::string text = p->ToString();
        if (text.size() > 120) text = text.substr(0, 117) + "...";
        runtime_text_ += (runtime_text_.empty() ? "" : ", ") + text;
        r.filters.push_back(std::move(p));
      }
    }
  }
  ASSIGN_OR_RETURN(std::unique_ptr<Scan> scan, source_->Open(r));
  return std::unique_ptr<SourceState>(new ScanSourceState(std::move(scan)));
}

Result<std::unique_ptr<SourceState>> PhysicalValues::OpenSource(ExecContext& ctx) {
  // VALUES rows keep their schema: the plan's names may differ only in aliases.
  auto b = std::make_shared<columnar::RecordBatch>(schema(), rows_->columns, rows_->num_rows);
  return std::unique_ptr<SourceState>(new BatchListSource(SplitBatch(b, ctx.batch_size)));
}

Result<std::unique_ptr<OperatorState>> PhysicalFilter::MakeOperatorState(ExecContext& ctx) {
  return std::unique_ptr<OperatorState>(new EvalState(ctx.statement_timestamp));
}

Status PhysicalFilter::Execute(ExecContext&, OperatorState* state, Chunk in, std::vector<Chunk>* out) {
  auto* st = static_cast<EvalState*>(state);
  ASSIGN_OR_RETURN(int64_t n, expr::EvaluateFilter(*predicate_, *in.batch, st->eval, &st->sel));
  if (n == 0) return Status::OK();
  if (n == in.batch->num_rows) {
    out->push_back(std::move(in));
    return Status::OK();
  }
  auto b = columnar::GatherBatch(*in.batch, st->sel.data(), n);
  b->schema = schema();
  out->push_back({std::move(b), in.order});
  return Status::OK();
}

std::string PhysicalProject::Details() const { return ExprList(exprs_); }

Result<std::unique_ptr<OperatorState>> PhysicalProject::MakeOperatorState(ExecContext& ctx) {
  return std::unique_ptr<OperatorState>(new EvalState(ctx.statement_timestamp));
}

Status PhysicalProject::Execute(ExecContext&, OperatorState* state, Chunk in, std::vector<Chunk>* out) {
  auto* st = static_cast<EvalState*>(state);
  std::vector<columnar::VectorPtr> cols;
  cols.reserve(exprs_.size());
  for (const auto& e : exprs_) {
    if (e->kind == expr::ExprKind::kColumnRef) {
      cols.push_back(in.batch->columns[e->column]);
      continue;
    }
    ASSIGN_OR_RETURN(columnar::VectorPtr v, expr::EvaluateMaybeCoded(*e, *in.batch, st->eval));
    cols.push_back(std::move(v));
  }
  out->push_back({std::make_shared<columnar::RecordBatch>(schema(), std::move(cols), in.batch->num_rows),
                  in.order});
  return Status::OK();
}

std::vector<int> PhysicalCollect::SinkInputs() const {
  std::vector<int> v;
  for (int i = 0; i < inputs_; ++i) v.push_back(i);
  return v;
}

Result<std::unique_ptr<LocalSinkState>> PhysicalCollect::MakeLocalSink(ExecContext& ctx, int) {
  return std::unique_ptr<LocalSinkState>(new ChunkList(ctx.Reserve(name_)));
}

Status PhysicalCollect::Sink(ExecContext&, LocalSinkState* local, Chunk chunk, int input) {
  auto* l = static_cast<ChunkList*>(local);
  chunk.order |= static_cast<uint64_t>(input) << 48;
  RETURN_NOT_OK(l->memory.Grow(columnar::BatchMemoryBytes(*chunk.batch)));
  l->chunks.push_back(std::move(chunk));
  return Status::OK();
}

Status PhysicalCollect::Combine(ExecContext&, LocalSinkState* local, int) {
  auto* l = static_cast<ChunkList*>(local);
  std::lock_guard<std::mutex> lock(mu_);
  memory_.Merge(std::move(l->memory));
  for (auto& x : l->chunks) chunks_.push_back(std::move(x));
  return Status::OK();
}

void PhysicalCollect::ReleaseCollected(const ExecContext& ctx) {
  ReleaseLater(ctx, std::move(chunks_), std::move(batches_));
}

Status PhysicalCollect::Finalize(ExecContext&) {
  SortChunks(&chunks_);
  batches_.clear();
  for (auto& c : chunks_) {
    if (c.batch->num_rows == 0) continue;
    batches_.push_back(std::move(c.batch));
  }
  chunks_.clear();
  return Status::OK();
}

Result<std::unique_ptr<SourceState>> PhysicalCollect::OpenSource(ExecContext&) {
  return std::unique_ptr<SourceState>(new BatchListSource(std::move(batches_), std::move(memory_)));
}

std::string PhysicalLimit::Details() const {
  return std::to_string(limit_) + (offset_ ? " offset " + std::to_string(offset_) : "");
}

Result<std::unique_ptr<LocalSinkState>> PhysicalLimit::MakeLocalSink(ExecContext& ctx, int) {
  return std::unique_ptr<LocalSinkState>(new ChunkList(ctx.Reserve(Name())));
}

Status PhysicalLimit::Sink(ExecContext&, LocalSinkState* local, Chunk chunk, int) {
  auto* l = static_cast<ChunkList*>(local);
  rows_.fetch_add(chunk.batch->num_rows, std::memory_order_relaxed);
  RETURN_NOT_OK(l->memory.Grow(columnar::BatchMemoryBytes(*chunk.batch)));
  l->chunks.push_back(std::move(chunk));
  return Status::OK();
}

Status PhysicalLimit::Combine(ExecContext&, LocalSinkState* local, int) {
  auto* l = static_cast<ChunkList*>(local);
  std::lock_guard<std::mutex> lock(mu_);
  memory_.Merge(std::move(l->memory));
  for (auto& x : l->chunks) chunks_.push_back(std::move(x));
  return Status::OK();
}

Status PhysicalLimit::Finalize(ExecContext&) {
  SortChunks(&chunks_);
  int64_t skip = offset_;
  int64_t take = limit_ < 0 ? INT64_MAX : limit_;
  for (auto& c : chunks_) {
    if (take == 0) break;
    int64_t n = c.batch->num_rows;
    if (skip >= n) {
      skip -= n;
      continue;
    }
    int64_t len = std::min(n - skip, take);
    auto b = (skip == 0 && len == n) ? c.batch : columnar::SliceBatch(*c.batch, skip, len);
    batches_.push_back(std::move(b));
    take -= len;
    skip = 0;
  }
  chunks_.clear();
  return memory_.Resize(BatchesMemoryBytes(batches_));
}

Result<std::unique_ptr<SourceState>> PhysicalLimit::OpenSource(ExecContext&) {
  return std::unique_ptr<SourceState>(new BatchListSource(std::move(batches_), std::move(memory_)));
}

}  // namespace shoal::sql
