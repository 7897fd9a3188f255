// PhysicalSort's spilling (physical_sort.h): sorted runs written to spill files and the source
// that streams their k-way merge.
#include <algorithm>

#include "sql/execution/parallel_sort.h"
#include "sql/execution/physical_sort.h"

namespace shoal::sql {

namespace {

constexpr size_t kMaxFanIn = 64;          // runs merged at once, at most
constexpr int64_t kMinReadBuffer = 16 << 10;
constexpr int64_t kRunBlockBytes = 32 << 10;  // rows per block written: about this many bytes

int64_t Limit(const ExecContext& ctx) { return ctx.memory ? ctx.memory->limit() : (int64_t{1} << 30); }

// The size of a run file's write buffer: 1/64 of the limit, 64 KiB to 1 MiB.
int64_t RunWriteBytes(const ExecContext& ctx) { return std::clamp<int64_t>(Limit(ctx) / 64, 64 << 10, 1 << 20); }

// A merge reads each run through a buffer and holds its current block (less than the buffer):
// a quarter of the limit goes to them.
int64_t MergeBudget(const ExecContext& ctx) { return Limit(ctx) / 4; }
size_t FanIn(const ExecContext& ctx) {
  return static_cast<size_t>(std::clamp<int64_t>(MergeBudget(ctx) / (2 * kMinReadBuffer), 2, kMaxFanIn));
}
int64_t ReadBuffer(const ExecContext& ctx, size_t runs) {
  return std::clamp<int64_t>(MergeBudget(ctx) / (2 * static_cast<int64_t>(runs)), kMinReadBuffer, 1 << 20);
}

// Streams the merged runs' data columns; Next is serialized (the merge is one sequence).
class MergeSource : public SourceState {
 public:
  MergeSource(std::unique_ptr<SortedRunMerger> merger, size_t ndata, columnar::SchemaPtr schema, int batch_size,
              MemoryReservation memory)
      : merger_(std::move(merger)), ndata_(ndata), schema_(std::move(schema)), batch_size_(batch_size),
        memory_(std::move(memory)) {}
  Result<bool> Next(SourceLocalState*, Chunk* out) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!merger_) return false;
    ASSIGN_OR_RETURN(columnar::BatchPtr b, merger_->Next(batch_size_));
    if (!b) {
      merger_.reset();
      memory_.Release();
      return false;
    }
    b->columns.resize(ndata_);
    out->batch = std::make_shared<columnar::RecordBatch>(schema_, std::move(b->columns), b->num_rows);
    out->order = next_++;
    return true;
  }

 private:
  std::mutex mu_;
  std::unique_ptr<SortedRunMerger> merger_;  // GUARDED_BY(mu_)
  const size_t ndata_;
  const columnar::SchemaPtr schema_;
  const int batch_size_;
  uint64_t next_ = 0;  // GUARDED_BY(mu_)
  MemoryReservation memory_;
};

}  // namespace

columnar::SchemaPtr PhysicalSort::RunSchema() const {
  auto s = std::make_shared<columnar::Schema>(*schema());
  for (const auto& k : keys_) s->fields.push_back({"key", k.expr->type});
  s->fields.push_back({"order", columnar::Int64()});
  s->fields.push_back({"row", columnar::Int64()});
  return s;
}

Status PhysicalSort::SpillRun(ExecContext& ctx, std::vector<Chunk>* chunks, MemoryReservation* memory,
                              std::vector<std::unique_ptr<SpillFile>>* runs) {
  if (chunks->empty()) return memory->Resize(0);
  std::stable_sort(chunks->begin(), chunks->end(), [](const Chunk& a, const Chunk& b) { return a.order < b.order; });
  const size_t ndata = schema()->size(), nkeys = keys_.size();
  // The chunks and their concatenation; then (the chunks freed) the sort's scratch. A row's
  // tie-break is its chunk's order key and its position among the rows of that order key
  // (`first`: where they start), made for each written block.
  std::vector<columnar::BatchPtr> batches;
  std::vector<int64_t> starts, first;
  std::vector<uint64_t> orders;
  int64_t n = 0;
  for (auto& c : *chunks) {
    first.push_back(!orders.empty() && orders.back() == c.order ? first.back() : n);
    starts.push_back(n);
    orders.push_back(c.order);
    n += c.batch->num_rows;
    batches.push_back(std::move(c.batch));
  }
  chunks->clear();
  const int64_t bytes = BatchesMemoryBytes(batches);
  RETURN_NOT_OK(memory->Resize(2 * bytes));
  std::vector<columnar::VectorPtr> cols = ConcatColumns(batches, ndata + nkeys);
  batches.clear();
  RETURN_NOT_OK(memory->Resize(bytes + ScratchBytes(n)));
  std::vector<const columnar::Vector*> key_cols;
  std::vector<SortSpec> specs;
  for (size_t k = 0; k < nkeys; ++k) {
    key_cols.push_back(cols[ndata + k].get());
    specs.push_back({keys_[k].descending, keys_[k].nulls_first});
  }
  ASSIGN_OR_RETURN(const std::vector<uint32_t> idx, SerialSortIndices(ctx, key_cols, specs, n));
  const columnar::SchemaPtr run_schema = RunSchema();
  ASSIGN_OR_RETURN(auto file, ctx.spill->Create(run_schema, RunWriteBytes(ctx), &stats.spilled_bytes));
  const int64_t row_bytes = bytes / std::max<int64_t>(n, 1) + 16;
  const int64_t block = std::clamp<int64_t>(kRunBlockBytes / row_bytes, 16, std::max(16, ctx.batch_size));
  for (int64_t at = 0; at < n; at += block) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    const int64_t k = std::min(block, n - at);
    std::vector<columnar::VectorPtr> out;
    for (const auto& c : cols) out.push_back(columnar::Gather(*c, idx.data() + at, k));
    auto order = columnar::Vector::Make(columnar::Int64(), k);
    auto row = columnar::Vector::Make(columnar::Int64(), k);
    order->Resize(k);
    row->Resize(k);
    for (int64_t i = 0; i < k; ++i) {
      const int64_t p = idx[at + i];
      const size_t c = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), p) - starts.begin()) - 1;
      order->data<int64_t>()[i] = static_cast<int64_t>(orders[c]);
      row->data<int64_t>()[i] = p - first[c];
    }
    out.push_back(std::move(order));
    out.push_back(std::move(row));
    RETURN_NOT_OK(file->Append(columnar::RecordBatch(run_schema, std::move(out), k)));
  }
  RETURN_NOT_OK(file->FinishWriting());
  runs->push_back(std::move(file));
  return memory->Resize(0);
}

Status PhysicalSort::FinalizeSpilled(ExecContext& ctx) {
  RETURN_NOT_OK(SpillRun(ctx, &chunks_, &memory_, &runs_));
  std::vector<SortSpec> specs;
  for (const auto& k : keys_) specs.push_back({k.descending, k.nulls_first});
  const size_t key_from = schema()->size();
  // Too many runs: the first ones merged into one longer run until few enough are left.
  const size_t fan_in = FanIn(ctx);
  while (runs_.size() > fan_in) {
    std::vector<std::unique_ptr<SpillFile>> group;
    for (size_t i = 0; i < fan_in; ++i) group.push_back(std::move(runs_[i]));
    runs_.erase(runs_.begin(), runs_.begin() + static_cast<std::ptrdiff_t>(fan_in));
    const int64_t buffer = ReadBuffer(ctx, fan_in);
    RETURN_NOT_OK(memory_.Resize(static_cast<int64_t>(fan_in) * 2 * buffer + RunWriteBytes(ctx)));
    for (auto& r : group) r->set_buffer_bytes(buffer);
    const int64_t row_bytes = group[0]->bytes() / std::max<int64_t>(group[0]->rows(), 1) + 1;
    const int64_t block = std::clamp<int64_t>(kRunBlockBytes / row_bytes, 16, std::max(16, ctx.batch_size));
    ASSIGN_OR_RETURN(auto merger, SortedRunMerger::Open(std::move(group), key_from, specs));
    ASSIGN_OR_RETURN(auto longer, ctx.spill->Create(RunSchema(), RunWriteBytes(ctx), &stats.spilled_bytes));
    for (;;) {
      RETURN_NOT_OK(ctx.CheckInterrupt());
      ASSIGN_OR_RETURN(columnar::BatchPtr b, merger->Next(block));
      if (!b) break;
      RETURN_NOT_OK(longer->Append(*b));
    }
    RETURN_NOT_OK(longer->FinishWriting());
    runs_.push_back(std::move(longer));
  }
  // Each run's read buffer and current block.
  const int64_t buffer = ReadBuffer(ctx, runs_.size());
  for (auto& r : runs_) r->set_buffer_bytes(buffer);
  RETURN_NOT_OK(memory_.Resize(static_cast<int64_t>(runs_.size()) * 2 * buffer));
  ASSIGN_OR_RETURN(merger_, SortedRunMerger::Open(std::move(runs_), key_from, std::move(specs)));
  runs_.clear();
  return Status::OK();
}

Result<std::unique_ptr<SourceState>> PhysicalSort::OpenMergeSource(ExecContext& ctx) {
  return std::unique_ptr<SourceState>(new MergeSource(std::move(merger_), schema()->size(), schema(),
                                                      std::max(1, ctx.batch_size), std::move(memory_)));
}

}  // namespace shoal::sql
