#include "sql/execution/physical_sort.h"

#include <algorithm>

#include "sql/binder/sort_order.h"
#include "sql/execution/parallel_concat.h"
#include "sql/execution/parallel_sort.h"
#include "sql/execution/task_runner.h"

namespace shoal::sql {

namespace {
struct SortLocal : LocalSinkState {
  SortLocal(int64_t ts, MemoryReservation m) : eval(ts), memory(std::move(m)) {}
  expr::EvalContext eval;
  std::vector<Chunk> chunks;
  int64_t rows = 0;
  MemoryReservation memory;
  int64_t share = INT64_MAX;  // spilling: the bytes past which the chunks become a run
  std::vector<std::unique_ptr<SpillFile>> runs;
  void ReleaseCollected(const ExecContext& ctx) override { ReleaseLater(ctx, std::move(chunks)); }
};

// Bytes of columns [from, to) of `chunks` concatenated: a vector that two positions share is
// copied once for each.
int64_t ConcatBytes(const std::vector<Chunk>& chunks, size_t from, size_t to) {
  int64_t n = 0;
  for (const auto& c : chunks) {
    for (size_t i = from; i < to && i < c.batch->columns.size(); ++i)
      n += c.batch->columns[i]->MemoryBytes();
  }
  return n;
}
}  // namespace

int64_t PhysicalSort::ScratchBytes(int64_t n) const {
  // The permutation and the merge's output permutation, then the comparator's normalized copy
  // of each key: int64 or double, 16 bytes for wide decimals and string views, a Value else.
  int64_t per_row = 2 * sizeof(uint32_t);
  for (const auto& k : keys_) {
    const auto& t = *k.expr->type;
    if (t.IsNested()) {
      per_row += sizeof(columnar::Value);
    } else if (t.IsStringLike() || t.IsWideDecimal()) {
      per_row += 16;
    } else {
      per_row += 8;
    }
  }
  return n * per_row;
}

std::vector<columnar::VectorPtr> ConcatColumns(const std::vector<columnar::BatchPtr>& batches, size_t ncols) {
  std::vector<columnar::VectorPtr> out;
  for (size_t c = 0; c < ncols; ++c) {
    if (batches.size() == 1) {
      out.push_back(batches[0]->columns[c]);
      continue;
    }
    std::vector<columnar::VectorPtr> parts;
    for (const auto& b : batches) parts.push_back(b->columns[c]);
    out.push_back(columnar::Concat(parts));
  }
  return out;
}

std::string PhysicalSort::Details() const {
  std::string s;
  for (size_t i = 0; i < keys_.size(); ++i) {
    s += (i ? ", " : "") + keys_[i].expr->ToString() + (keys_[i].descending ? " DESC" : " ASC") +
         (keys_[i].nulls_first ? " NULLS FIRST" : " NULLS LAST");
  }
  if (limit_ >= 0) s += " limit=" + std::to_string(limit_);
  return s;
}

PhysicalSort::~PhysicalSort() = default;

Result<std::unique_ptr<LocalSinkState>> PhysicalSort::MakeLocalSink(ExecContext& ctx, int) {
  auto l = std::make_unique<SortLocal>(ctx.statement_timestamp, ctx.Reserve(Name()));
  if (MaySpill(ctx)) l->share = ctx.memory->limit() / (4 * std::max(1, ctx.threads));
  return std::unique_ptr<LocalSinkState>(std::move(l));
}

Chunk PhysicalSort::SortChunks(std::vector<Chunk>* chunks, int64_t limit, bool keep_keys) const {
  std::stable_sort(chunks->begin(), chunks->end(), [](const Chunk& a, const Chunk& b) { return a.order < b.order; });
  std::vector<columnar::BatchPtr> batches;
  for (auto& c : *chunks) batches.push_back(c.batch);
  uint64_t order = chunks->front().order;
  chunks->clear();
  const size_t ndata = schema()->size();
  const size_t ntotal = ndata + keys_.size();
  auto cols = ConcatColumns(batches, ntotal);
  int64_t n = cols.empty() ? 0 : cols[0]->size();
  if (cols.empty()) {
    for (const auto& b : batches) n += b->num_rows;
  }
  std::vector<const columnar::Vector*> key_cols;
  std::vector<SortSpec> specs;
  for (size_t k = 0; k < keys_.size(); ++k) {
    key_cols.push_back(cols[ndata + k].get());
    specs.push_back({keys_[k].descending, keys_[k].nulls_first});
  }
  std::vector<uint32_t> idx = SortIndices(key_cols, specs, n, limit);
  std::vector<columnar::VectorPtr> out;
  size_t keep = keep_keys ? ntotal : ndata;
  for (size_t c = 0; c < keep; ++c) out.push_back(columnar::Gather(*cols[c], idx.data(), idx.size()));
  return {std::make_shared<columnar::RecordBatch>(schema(), std::move(out), static_cast<int64_t>(idx.size())), order};
}

Status PhysicalSort::Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int) {
  auto* l = static_cast<SortLocal*>(local);
  const auto& b = *chunk.batch;
  std::vector<columnar::VectorPtr> cols = b.columns;
  cols.resize(schema()->size());
  for (const auto& k : keys_) {
    if (k.expr->kind == expr::ExprKind::kColumnRef) {
      cols.push_back(b.columns[k.expr->column]);
    } else {
      ASSIGN_OR_RETURN(auto v, expr::Evaluate(*k.expr, b, l->eval));
      cols.push_back(std::move(v));
    }
  }
  l->rows += b.num_rows;
  auto stored = std::make_shared<columnar::RecordBatch>(schema(), std::move(cols), b.num_rows);
  Status grown = l->memory.Grow(columnar::BatchMemoryBytes(*stored));
  if (MaySpill(ctx) && (grown.IsOutOfMemory() || l->memory.bytes() > l->share)) {
    l->chunks.push_back({std::move(stored), chunk.order});  // one batch over, written at once
    return SpillRun(ctx, &l->chunks, &l->memory, &l->runs);
  }
  RETURN_NOT_OK(grown);
  l->chunks.push_back({std::move(stored), chunk.order});
  if (limit_ >= 0 && l->rows > std::max<int64_t>(4 * limit_, 8192)) {
    // Top-N compaction: a concatenated copy, the sort and the kept rows, then only those.
    RETURN_NOT_OK(l->memory.Grow(ConcatBytes(l->chunks, 0, SIZE_MAX) + ScratchBytes(l->rows)));
    Chunk c = SortChunks(&l->chunks, limit_, true);
    l->rows = c.batch->num_rows;
    l->chunks.push_back(std::move(c));
    RETURN_NOT_OK(l->memory.Resize(ChunksMemoryBytes(l->chunks)));
  }
  return Status::OK();
}

Status PhysicalSort::Combine(ExecContext& ctx, LocalSinkState* local, int) {
  auto* l = static_cast<SortLocal*>(local);
  if (!l->runs.empty()) {
    // A worker that spilled writes the rest as a run too.
    RETURN_NOT_OK(SpillRun(ctx, &l->chunks, &l->memory, &l->runs));
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& r : l->runs) runs_.push_back(std::move(r));
    return Status::OK();
  }
  if (limit_ >= 0 && l->chunks.size() > 1) {
    RETURN_NOT_OK(l->memory.Grow(ConcatBytes(l->chunks, 0, SIZE_MAX) + ScratchBytes(l->rows)));
    Chunk c = SortChunks(&l->chunks, limit_, true);
    l->chunks.push_back(std::move(c));
    RETURN_NOT_OK(l->memory.Resize(ChunksMemoryBytes(l->chunks)));
  }
  std::lock_guard<std::mutex> lock(mu_);
  memory_.Merge(std::move(l->memory));
  for (auto& c : l->chunks) chunks_.push_back(std::move(c));
  return Status::OK();
}

void PhysicalSort::ReleaseCollected(const ExecContext& ctx) {
  ReleaseLater(ctx, std::move(chunks_), std::move(result_));
}

Status PhysicalSort::Finalize(ExecContext& ctx) {
  if (!memory_.tracker()) memory_.Merge(ctx.Reserve(Name()));
  if (!runs_.empty()) return FinalizeSpilled(ctx);
  if (chunks_.empty()) return memory_.Resize(0);
  if (limit_ >= 0) {
    // The chunks, their concatenated copy (none for one chunk), the sort and the gathered
    // output (the kept rows' data columns), then the output and its slices.
    int64_t rows = 0;
    for (const auto& c : chunks_) rows += c.batch->num_rows;
    const size_t ndata = schema()->size();
    const int64_t concat = chunks_.size() > 1 ? ConcatBytes(chunks_, 0, SIZE_MAX) : 0;
    int64_t out = ConcatBytes(chunks_, 0, ndata);
    if (limit_ >= 0 && limit_ < rows) out = out / std::max<int64_t>(rows, 1) * limit_;
    RETURN_NOT_OK(memory_.Resize(ChunksMemoryBytes(chunks_) + concat + ScratchBytes(rows) + out));
    Chunk c = SortChunks(&chunks_, limit_, false);
    const int64_t sorted = columnar::BatchMemoryBytes(*c.batch);
    RETURN_NOT_OK(memory_.Resize(2 * sorted));
    result_ = SplitBatch(c.batch, ctx.batch_size);
    c.batch.reset();
    return memory_.Resize(BatchesMemoryBytes(result_));
  }
  // All threads (or the one): concatenate, sort (parallel_sort.h), gather one output batch per
  // task.
  std::stable_sort(chunks_.begin(), chunks_.end(), [](const Chunk& a, const Chunk& b) { return a.order < b.order; });
  // The chunks and their concatenated copy; then (the chunks freed) the sort's scratch; then
  // the permutation and the gathered output.
  RETURN_NOT_OK(memory_.Resize(ChunksMemoryBytes(chunks_) + ConcatBytes(chunks_, 0, SIZE_MAX)));
  std::vector<columnar::BatchPtr> batches;
  int64_t n = 0;
  for (auto& c : chunks_) {
    n += c.batch->num_rows;
    batches.push_back(std::move(c.batch));
  }
  chunks_.clear();
  const size_t ndata = schema()->size();
  ASSIGN_OR_RETURN(auto cols, ConcatColumnsParallel(ctx, batches, ndata + keys_.size()));
  batches.clear();
  int64_t col_bytes = 0, data_bytes = 0;
  for (size_t c = 0; c < cols.size(); ++c) {
    const int64_t b = cols[c]->MemoryBytes();
    col_bytes += b;
    if (c < ndata) data_bytes += b;
  }
  RETURN_NOT_OK(memory_.Resize(col_bytes + ScratchBytes(n)));
  std::vector<const columnar::Vector*> key_cols;
  std::vector<SortSpec> specs;
  for (size_t k = 0; k < keys_.size(); ++k) {
    key_cols.push_back(cols[ndata + k].get());
    specs.push_back({keys_[k].descending, keys_[k].nulls_first});
  }
  Result<std::vector<uint32_t>> sorted = ParallelSortIndices(ctx, key_cols, specs, n);
  if (!sorted.ok()) {
    ReleaseLater(ctx, std::move(cols));  // a cancelled sort returns before its columns are unmapped
    return sorted.status();
  }
  std::vector<uint32_t> idx = std::move(*sorted);
  RETURN_NOT_OK(memory_.Resize(col_bytes + static_cast<int64_t>(idx.capacity() * sizeof(uint32_t)) +
                               data_bytes));
  const int64_t bs = std::max(1, ctx.batch_size);
  result_.assign((n + bs - 1) / bs, nullptr);
  Status gathered = RunTasks(ctx, static_cast<int64_t>(result_.size()), [&](int64_t t, int) {
    const int64_t at = t * bs, k = std::min(bs, n - at);
    std::vector<columnar::VectorPtr> out;
    for (size_t c = 0; c < ndata; ++c)
      out.push_back(columnar::Gather(*cols[c], idx.data() + at, k));
    result_[t] = std::make_shared<columnar::RecordBatch>(schema(), std::move(out), k);
    return Status::OK();
  });
  if (!gathered.ok()) {
    ReleaseLater(ctx, std::move(cols), std::move(idx), std::move(result_));
    result_.clear();
    return gathered;
  }
  return memory_.Resize(BatchesMemoryBytes(result_));
}

Result<std::unique_ptr<SourceState>> PhysicalSort::OpenSource(ExecContext& ctx) {
  if (merger_) return OpenMergeSource(ctx);
  return std::unique_ptr<SourceState>(new BatchListSource(std::move(result_), std::move(memory_)));
}

}  // namespace shoal::sql
