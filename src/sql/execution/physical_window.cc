#include "sql/execution/physical_window.h"

#include <algorithm>
#include <atomic>

#include "expr/cast.h"
#include "sql/binder/sort_order.h"
#include "sql/execution/group_hash_table.h"
#include "sql/execution/physical_sort.h"
#include "sql/execution/task_runner.h"
#include "sql/execution/thread_pool.h"
#include "sql/execution/window_evaluator.h"

namespace shoal::sql {

using columnar::Vector;
using columnar::VectorPtr;

namespace {

// Buckets the PARTITION BY key hashes into: enough tasks to balance two to a few dozen workers.
constexpr int kPartitionBuckets = 64;

struct WindowLocal : LocalSinkState {
  WindowLocal(int64_t ts, MemoryReservation m) : eval(ts), memory(std::move(m)) {}
  expr::EvalContext eval;
  std::vector<Chunk> chunks;
  std::vector<std::vector<uint16_t>> bucket_of;
  RowKeys keys;
  MemoryReservation memory;
  bool spilling = false;              // rows go to `files` (physical_window_spill.cc)
  PhysicalWindow::SpillFiles files;   // one per hash partition
  void ReleaseCollected(const ExecContext& ctx) override { ReleaseLater(ctx, std::move(chunks), std::move(bucket_of)); }
};

}  // namespace

PhysicalWindow::PhysicalWindow(columnar::SchemaPtr schema, size_t input_width, std::vector<expr::ExprPtr> partition_by,
                               std::vector<SortKey> order, std::vector<WindowCall> calls)
    : PhysicalOperator(std::move(schema)),
      input_width_(input_width),
      partition_by_(std::move(partition_by)),
      order_(std::move(order)),
      calls_(std::move(calls)) {
  for (const auto& p : partition_by_) evaluated_.push_back(p);
  for (const auto& k : order_) evaluated_.push_back(k.expr);
  for (const auto& c : calls_) {
    for (const auto& a : c.args) evaluated_.push_back(a);
  }
  buckets_ = partition_by_.empty() ? 1 : kPartitionBuckets;
  not_streamable_ = NotStreamable(&stream_before_, &stream_after_);
  // Field names do not matter in spill files: every column is "c".
  auto spill = std::make_shared<columnar::Schema>();
  for (size_t i = 0; i < input_width_; ++i) spill->fields.push_back({"c", this->schema()->fields[i].type});
  for (const auto& e : evaluated_) spill->fields.push_back({"c", e->type});
  spill->fields.push_back({"c", columnar::Int64()});  // the input chunk's order key
  spill->fields.push_back({"c", columnar::Int64()});  // the row's position in it
  spill_schema_ = std::move(spill);
}

std::string PhysicalWindow::Details() const {
  std::string s = "partition=[";
  for (size_t i = 0; i < partition_by_.size(); ++i) s += (i ? ", " : "") + partition_by_[i]->ToString();
  s += "] order=[";
  for (size_t i = 0; i < order_.size(); ++i) {
    s += (i ? ", " : "") + order_[i].expr->ToString() + (order_[i].descending ? " DESC" : " ASC");
  }
  s += "] windows=[";
  for (size_t i = 0; i < calls_.size(); ++i) s += (i ? ", " : "") + calls_[i].display;
  return s + "]";
}

Result<std::unique_ptr<LocalSinkState>> PhysicalWindow::MakeLocalSink(ExecContext& ctx, int) {
  return std::unique_ptr<LocalSinkState>(
      new WindowLocal(ctx.statement_timestamp, ctx.Reserve(Name())));
}

Status PhysicalWindow::Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int) {
  auto* l = static_cast<WindowLocal*>(local);
  const auto& b = *chunk.batch;
  std::vector<VectorPtr> cols(b.columns.begin(), b.columns.begin() + input_width_);
  for (const auto& e : evaluated_) {
    if (e->kind == expr::ExprKind::kColumnRef) {
      cols.push_back(b.columns[e->column]);
    } else {
      ASSIGN_OR_RETURN(auto v, expr::Evaluate(*e, b, l->eval));
      cols.push_back(std::move(v));
    }
  }
  if (l->spilling) {
    const columnar::RecordBatch stored(nullptr, std::move(cols), b.num_rows);
    return RouteRows(ctx, *WithTieBreak(stored, chunk.order, 0), 0, &l->files);
  }
  std::vector<uint16_t> bucket(b.num_rows, 0);
  if (buckets_ > 1) {
    std::vector<const Vector*> keys;
    for (size_t i = 0; i < partition_by_.size(); ++i) keys.push_back(cols[input_width_ + i].get());
    l->keys.Encode(keys, b.num_rows);
    for (int64_t i = 0; i < b.num_rows; ++i) {
      bucket[i] = static_cast<uint16_t>((l->keys.hash(i) >> 32) % static_cast<uint64_t>(buckets_));
    }
  }
  auto stored = std::make_shared<columnar::RecordBatch>(nullptr, std::move(cols), b.num_rows);
  const int64_t bytes =
      columnar::BatchMemoryBytes(*stored) + static_cast<int64_t>(bucket.capacity() * sizeof(uint16_t));
  Status grown = l->memory.Grow(bytes);
  if (MaySpill(ctx)) {
    // The share of all workers' rows: evaluating in memory takes about four times their bytes
    // (the concatenation, a bucket's copies and the output).
    const int64_t share = ctx.memory ? ctx.memory->limit() / 4 : INT64_MAX;
    const bool over = held_.fetch_add(bytes, std::memory_order_relaxed) + bytes > share;
    if (grown.IsOutOfMemory() || over || spilling_.load(std::memory_order_relaxed)) {
      spilling_.store(true, std::memory_order_relaxed);
      l->spilling = true;
      l->chunks.push_back({std::move(stored), chunk.order});
      l->bucket_of.clear();
      l->memory.Release();
      return RouteChunks(ctx, &l->chunks, &l->files);
    }
  }
  RETURN_NOT_OK(grown);
  l->chunks.push_back({std::move(stored), chunk.order});
  l->bucket_of.push_back(std::move(bucket));
  return Status::OK();
}

Status PhysicalWindow::Combine(ExecContext& ctx, LocalSinkState* local, int) {
  auto* l = static_cast<WindowLocal*>(local);
  if (!l->spilling && spilling_.load(std::memory_order_relaxed)) {
    // Another worker spilled: this one's rows join the files (here, in parallel, not in Finalize).
    l->spilling = true;
    l->bucket_of.clear();
    RETURN_NOT_OK(RouteChunks(ctx, &l->chunks, &l->files));
    l->memory.Release();
  }
  if (l->spilling) {
    for (auto& f : l->files) {
      if (f) RETURN_NOT_OK(f->FinishWriting());
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (spilled_.size() < l->files.size()) spilled_.resize(l->files.size());  // none when it had no rows
    for (size_t p = 0; p < l->files.size(); ++p) {
      if (l->files[p]) spilled_[p].push_back(std::move(l->files[p]));
    }
    return Status::OK();
  }
  std::lock_guard<std::mutex> lock(mu_);
  memory_.Merge(std::move(l->memory));
  for (size_t i = 0; i < l->chunks.size(); ++i) {
    chunks_.push_back(std::move(l->chunks[i]));
    bucket_of_.push_back(std::move(l->bucket_of[i]));
  }
  return Status::OK();
}

Result<columnar::BatchPtr> PhysicalWindow::EvaluateBucket(const std::vector<VectorPtr>& all,
                                                          const std::vector<uint32_t>& rows) const {
  const int64_t n = static_cast<int64_t>(rows.size());
  std::vector<VectorPtr> cols;
  for (const auto& c : all) cols.push_back(columnar::Gather(*c, rows.data(), n));
  return EvaluateSorted(std::move(cols), n);
}

Result<columnar::BatchPtr> PhysicalWindow::EvaluateSorted(std::vector<VectorPtr> cols, int64_t n) const {
  // Sort by partition keys, then order keys (stable: ties keep input order), then the
  // tie-break columns when there are any.
  const size_t np = partition_by_.size(), no = order_.size();
  std::vector<const Vector*> keys;
  std::vector<SortSpec> specs;
  for (size_t i = 0; i < np; ++i) {
    keys.push_back(cols[input_width_ + i].get());
    specs.push_back({false, true});
  }
  for (size_t i = 0; i < no; ++i) {
    keys.push_back(cols[input_width_ + np + i].get());
    specs.push_back({order_[i].descending, order_[i].nulls_first});
  }
  for (size_t c = input_width_ + evaluated_.size(); c < cols.size(); ++c) {
    keys.push_back(cols[c].get());
    specs.push_back({false, true});
  }
  if (!keys.empty()) {
    std::vector<uint32_t> idx = SortIndices(keys, specs, n);
    for (auto& c : cols) c = columnar::Gather(*c, idx.data(), n);
  }
  std::vector<const Vector*> part, order;
  std::vector<SortSpec> order_specs;
  for (size_t i = 0; i < np; ++i) part.push_back(cols[input_width_ + i].get());
  for (size_t i = 0; i < no; ++i) {
    order.push_back(cols[input_width_ + np + i].get());
    order_specs.push_back(specs[np + i]);
  }
  VectorPtr range_key;
  for (const auto& c : calls_) {
    const BoundFrame& f = c.frame;
    bool offsets = !f.rows && (f.start == FrameBoundType::kPreceding || f.start == FrameBoundType::kFollowing ||
                               f.end == FrameBoundType::kPreceding || f.end == FrameBoundType::kFollowing);
    if (offsets && !range_key && no == 1) {
      ASSIGN_OR_RETURN(range_key, expr::CastVector(cols[input_width_ + np], columnar::Float64()));
    }
  }
  WindowEvaluator eval(part, order, order_specs, range_key.get(), n);
  std::vector<VectorPtr> out(cols.begin(), cols.begin() + input_width_);
  size_t arg = input_width_ + np + no;
  for (const auto& c : calls_) {
    std::vector<const Vector*> args;
    for (size_t a = 0; a < c.args.size(); ++a) args.push_back(cols[arg++].get());
    ASSIGN_OR_RETURN(VectorPtr v, eval.Evaluate(c, args));
    out.push_back(std::move(v));
  }
  return std::make_shared<columnar::RecordBatch>(schema(), std::move(out), n);
}

Status PhysicalWindow::Finalize(ExecContext& ctx) {
  if (!memory_.tracker()) memory_.Merge(ctx.Reserve(Name()));
  if (spilling_.load(std::memory_order_relaxed)) return FinalizeSpilled(ctx);
  return FinalizeInMemory(ctx);
}

Status PhysicalWindow::FinalizeInMemory(ExecContext& ctx) {
  if (chunks_.empty()) return memory_.Resize(0);
  const int workers = ctx.pool ? std::max(1, std::min(ctx.threads, buckets_)) : 1;
  if (MaySpill(ctx)) {
    // What evaluating in memory will take at its peak: the concatenation (rows held twice), or
    // the rows, the outputs and the largest buckets being evaluated. Refused: spill instead.
    int64_t bytes = 0, rows = 0;
    std::vector<int64_t> sizes(buckets_, 0);
    for (size_t i = 0; i < chunks_.size(); ++i) {
      bytes += columnar::BatchMemoryBytes(*chunks_[i].batch);
      rows += chunks_[i].batch->num_rows;
      for (uint16_t b : bucket_of_[i]) ++sizes[b];
    }
    const int64_t largest = *std::max_element(sizes.begin(), sizes.end());
    const int64_t per_row = rows > 0 ? bytes / rows : 0;
    const int64_t peak = std::max(2 * bytes + rows * 10,
                                  2 * bytes + workers * EvaluationBytes(per_row * largest, largest));
    Status probe = memory_.Resize(peak);
    if (probe.IsOutOfMemory()) {
      spilling_.store(true, std::memory_order_relaxed);
      return FinalizeSpilled(ctx);
    }
    RETURN_NOT_OK(probe);
  }
  std::vector<columnar::BatchPtr> batches;
  std::vector<uint16_t> bucket;
  // Input order (the chunks' order keys) decides between rows that tie in the ORDER BY.
  std::vector<size_t> perm(chunks_.size());
  for (size_t i = 0; i < perm.size(); ++i) perm[i] = i;
  std::stable_sort(perm.begin(), perm.end(), [&](size_t a, size_t b) { return chunks_[a].order < chunks_[b].order; });
  const size_t width = input_width_ + evaluated_.size();
  for (size_t i : perm) {
    batches.push_back(chunks_[i].batch);
    bucket.insert(bucket.end(), bucket_of_[i].begin(), bucket_of_[i].end());
  }
  const int64_t n = static_cast<int64_t>(bucket.size());
  // The concatenated copy and the row lists of the buckets (a uint32 per row, up to twice while
  // a list grows), then (the chunks freed) each bucket's copies while it is evaluated.
  int64_t concat_bytes = 0;  // every column position is copied, also those that share a vector
  for (const auto& b : batches) {
    for (const auto& c : b->columns) concat_bytes += c->MemoryBytes();
  }
  RETURN_NOT_OK(memory_.Resize(BatchesMemoryBytes(batches) +
                               (batches.size() > 1 ? concat_bytes : 0) +
                               n * static_cast<int64_t>(sizeof(uint16_t) + 2 * sizeof(uint32_t))));
  auto cols = ConcatColumns(batches, width);
  batches.clear();
  chunks_.clear();
  bucket_of_.clear();
  std::vector<std::vector<uint32_t>> rows(buckets_);
  for (size_t i = 0; i < bucket.size(); ++i) rows[bucket[i]].push_back(static_cast<uint32_t>(i));
  bucket = {};
  int64_t col_bytes = 0;
  for (const auto& c : cols) col_bytes += c->MemoryBytes();
  int64_t row_bytes = 0;
  for (const auto& r : rows) row_bytes += static_cast<int64_t>(r.capacity() * sizeof(uint32_t));
  RETURN_NOT_OK(memory_.Resize(col_bytes + row_bytes));
  // A bucket of k rows holds two gathered copies of its rows' columns, the sort's scratch and
  // its output (about one more copy): reserved before it starts, then only the output. Per
  // worker: the outputs of its finished buckets and the one it evaluates.
  std::vector<MemoryReservation> worker_memory;
  for (int w = 0; w < workers; ++w) worker_memory.push_back(ctx.Reserve(Name()));
  const int64_t keys = static_cast<int64_t>(partition_by_.size() + order_.size());
  auto bucket_bytes = [&](int64_t k) {
    return (n > 0 ? 3 * col_bytes / n * k : 0) + k * (8 + 16 * keys);
  };
  std::vector<columnar::BatchPtr> results(buckets_);
  std::vector<Status> errors(buckets_);
  std::atomic<int> next{0};
  auto work = [&](int w) {
    MemoryReservation& memory = worker_memory[w];
    for (int b; (b = next.fetch_add(1)) < buckets_;) {
      if (rows[b].empty()) continue;
      Status interrupted = ctx.CheckInterrupt();
      if (!interrupted.ok()) {
        errors[b] = interrupted;
        continue;
      }
      const int64_t done = memory.bytes();
      Status reserved = memory.Grow(bucket_bytes(static_cast<int64_t>(rows[b].size())));
      if (!reserved.ok()) {
        errors[b] = reserved;
        continue;
      }
      auto r = EvaluateBucket(cols, rows[b]);
      if (r.ok()) {
        results[b] = std::move(r).value();
        errors[b] = memory.Resize(done + columnar::BatchMemoryBytes(*results[b]));
      } else {
        errors[b] = r.status();
      }
    }
  };
  if (workers > 1) {
    ctx.pool->Run(workers, work);
  } else {
    work(0);
  }
  for (const auto& st : errors) RETURN_NOT_OK(st);
  cols.clear();
  rows.clear();
  RETURN_NOT_OK(memory_.Resize(0));
  for (auto& m : worker_memory) memory_.Merge(std::move(m));
  // The slices copy the outputs.
  RETURN_NOT_OK(memory_.Grow(memory_.bytes()));
  for (auto& r : results) {
    if (!r) continue;
    for (auto& b : SplitBatch(r, ctx.batch_size)) result_.push_back(std::move(b));
    r.reset();
  }
  return memory_.Resize(BatchesMemoryBytes(result_));
}

void PhysicalWindow::ReleaseCollected(const ExecContext& ctx) {
  ReleaseLater(ctx, std::move(chunks_), std::move(bucket_of_), std::move(result_));
}

Result<std::unique_ptr<SourceState>> PhysicalWindow::OpenSource(ExecContext& ctx) {
  if (spilled_result_) {
    MemoryReservation memory = ctx.Reserve(Name());
    RETURN_NOT_OK(memory.Grow(SpillBlockBytes(ctx)));
    return std::unique_ptr<SourceState>(new SpillFileSource(std::move(spilled_result_), std::move(memory)));
  }
  return std::unique_ptr<SourceState>(new BatchListSource(std::move(result_), std::move(memory_)));
}

}  // namespace shoal::sql
