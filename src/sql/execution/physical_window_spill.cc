// PhysicalWindow's spilling (physical_window.h): rows routed to partition files by the PARTITION BY
// key hash, and the partition-by-partition evaluation of those files, split again when one does
// not fit (and evaluated streaming when it cannot be split: physical_window_stream.cc).
#include <algorithm>
#include <limits>

#include "sql/execution/group_hash_table.h"
#include "sql/execution/physical_sort.h"
#include "sql/execution/physical_window.h"

namespace shoal::sql {

using columnar::Vector;
using columnar::VectorPtr;

namespace {

constexpr int kSpillBits = 4;  // 16 partitions per level
constexpr int kSpillParts = 1 << kSpillBits;

// The partition of a key hash at `shift`: kSpillBits bits below the `shift` top bits.
int PartitionOf(uint64_t hash, int shift) { return static_cast<int>((hash << shift) >> (64 - kSpillBits)); }

}  // namespace

int64_t PhysicalWindow::SpillBlockBytes(const ExecContext& ctx) const {
  // All partitions' write buffers of all workers take at most 1/8 of the limit.
  const int64_t limit = ctx.memory ? ctx.memory->limit() : (int64_t{1} << 30);
  return std::clamp<int64_t>(limit / (8 * kSpillParts * std::max(1, ctx.threads)), 16 << 10, 1 << 20);
}

int64_t PhysicalWindow::EvaluationBytes(int64_t bytes, int64_t rows) const {
  // The rows read back and their concatenation (then the sorted copy, a column at a time), and the
  // output; per row the sort's indices and comparator scratch, the evaluator's bounds and frames.
  const int64_t keys = static_cast<int64_t>(partition_by_.size() + order_.size()) + 2;
  return 3 * bytes + rows * (64 + 16 * keys);
}

columnar::BatchPtr PhysicalWindow::WithTieBreak(const columnar::RecordBatch& b, uint64_t order,
                                                int64_t first_pos) const {
  const int64_t n = b.num_rows;
  std::vector<VectorPtr> cols(b.columns.begin(), b.columns.begin() + input_width_ + evaluated_.size());
  auto ord = Vector::Make(columnar::Int64(), n);
  auto pos = Vector::Make(columnar::Int64(), n);
  ord->Resize(n);
  pos->Resize(n);
  std::fill(ord->data<int64_t>(), ord->data<int64_t>() + n, static_cast<int64_t>(order));
  for (int64_t i = 0; i < n; ++i) pos->data<int64_t>()[i] = first_pos + i;
  cols.push_back(std::move(ord));
  cols.push_back(std::move(pos));
  return std::make_shared<columnar::RecordBatch>(spill_schema_, std::move(cols), n);
}

Status PhysicalWindow::RouteRows(ExecContext& ctx, const columnar::RecordBatch& rows, int shift, SpillFiles* files,
                                 uint64_t* min_hash, uint64_t* max_hash) {
  const int64_t n = rows.num_rows;
  if (n == 0) return Status::OK();
  std::vector<const Vector*> keys;
  for (size_t i = 0; i < partition_by_.size(); ++i) keys.push_back(rows.columns[input_width_ + i].get());
  RowKeys enc;
  if (!keys.empty()) enc.Encode(keys, n);  // no PARTITION BY: every row in partition 0
  std::vector<std::vector<uint32_t>> sel(kSpillParts);
  for (int64_t i = 0; i < n; ++i) {
    const uint64_t h = keys.empty() ? 0 : enc.hash(i);
    sel[PartitionOf(h, shift)].push_back(static_cast<uint32_t>(i));
    if (min_hash) *min_hash = std::min(*min_hash, h);
    if (max_hash) *max_hash = std::max(*max_hash, h);
  }
  return AppendToPartitions(rows, sel, files, [&]() -> Result<std::unique_ptr<SpillFile>> {
    ASSIGN_OR_RETURN(auto f, ctx.spill->Create(spill_schema_, SpillBlockBytes(ctx), &stats.spilled_bytes));
    f->set_min_block_rows(std::max(1, ctx.batch_size));  // a batch's rows go 16 ways
    return f;
  });
}

Status PhysicalWindow::RouteChunks(ExecContext& ctx, std::vector<Chunk>* chunks, SpillFiles* files) {
  for (auto& c : *chunks) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    RETURN_NOT_OK(RouteRows(ctx, *WithTieBreak(*c.batch, c.order, 0), 0, files));
    c.batch.reset();
  }
  chunks->clear();
  return Status::OK();
}

Status PhysicalWindow::EvaluateSpilled(ExecContext& ctx, std::vector<SpillFiles> parts, int shift, SpillFile* out) {
  if (shift + kSpillBits > 64) {
    return Status::OutOfMemory(Name() + " cannot split its spilled partitions further (" +
                               std::to_string(64 / kSpillBits) + " levels)");
  }
  const int64_t block = SpillBlockBytes(ctx);
  for (auto& files : parts) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    size_t next_file = 0;
    auto next_in = [&]() -> Result<columnar::BatchPtr> {  // the partition's rows, file after file
      while (next_file < files.size()) {
        files[next_file]->set_buffer_bytes(block);
        ASSIGN_OR_RETURN(columnar::BatchPtr b, files[next_file]->Next());
        if (b) return b;
        files[next_file++].reset();  // deletes the file
      }
      return columnar::BatchPtr();
    };
    MemoryReservation memory = ctx.Reserve(Name());
    RETURN_NOT_OK(memory.Grow(block));  // the read buffer
    std::vector<columnar::BatchPtr> held;
    int64_t bytes = 0, rows = 0, routed = 0;
    SpillFiles deeper;  // this partition's rows split again, once they did not fit
    uint64_t min_hash = std::numeric_limits<uint64_t>::max(), max_hash = 0;
    Status refused;
    bool streamed = false;
    for (;;) {
      RETURN_NOT_OK(ctx.CheckInterrupt());
      ASSIGN_OR_RETURN(columnar::BatchPtr b, next_in());
      if (!b) break;
      if (deeper.empty()) {
        const int64_t more = columnar::BatchMemoryBytes(*b);
        Status grown = memory.Resize(block + EvaluationBytes(bytes + more, rows + b->num_rows));
        if (grown.ok()) {
          bytes += more;
          rows += b->num_rows;
          held.push_back(std::move(b));
          continue;
        }
        if (!grown.IsOutOfMemory()) return grown;
        refused = grown;
        if (partition_by_.empty()) {
          // One partition: no hash to split by. The rows held, then the rest of the files.
          held.push_back(std::move(b));
          memory.Release();
          size_t next_held = 0;
          RETURN_NOT_OK(EvaluateStreaming(
              ctx,
              [&]() -> Result<columnar::BatchPtr> {
                if (next_held < held.size()) return std::move(held[next_held++]);
                return next_in();
              },
              out));
          streamed = true;
          break;
        }
        for (auto& h : held) {
          RETURN_NOT_OK(RouteRows(ctx, *h, shift + kSpillBits, &deeper, &min_hash, &max_hash));
          routed += h->num_rows;
          h.reset();
        }
        held.clear();
        RETURN_NOT_OK(memory.Resize(block));
      }
      routed += b->num_rows;
      RETURN_NOT_OK(RouteRows(ctx, *b, shift + kSpillBits, &deeper, &min_hash, &max_hash));
    }
    files.clear();
    if (streamed) continue;
    if (!deeper.empty()) {
      for (auto& d : deeper) {
        if (d) RETURN_NOT_OK(d->FinishWriting());
      }
      if (min_hash == max_hash) {
        // One PARTITION BY value: no split helps.
        if (!not_streamable_.empty()) {
          return Status::OutOfMemory(refused.message() + " (its " + std::to_string(routed) +
                                     " spilled rows have one PARTITION BY key, which spilling cannot split, and " +
                                     not_streamable_ + " needs the whole partition at once)");
        }
        SpillFiles one;
        for (auto& d : deeper) {
          if (d) one.push_back(std::move(d));
        }
        size_t at = 0;
        RETURN_NOT_OK(EvaluateStreaming(
            ctx,
            [&]() -> Result<columnar::BatchPtr> {
              while (at < one.size()) {
                ASSIGN_OR_RETURN(columnar::BatchPtr b, one[at]->Next());
                if (b) return b;
                one[at++].reset();
              }
              return columnar::BatchPtr();
            },
            out));
        continue;
      }
      std::vector<SpillFiles> sub(kSpillParts);
      for (int q = 0; q < kSpillParts; ++q) {
        if (deeper[q]) sub[q].push_back(std::move(deeper[q]));
      }
      RETURN_NOT_OK(EvaluateSpilled(ctx, std::move(sub), shift + kSpillBits, out));
      continue;
    }
    if (held.empty()) continue;
    std::vector<VectorPtr> cols = ConcatColumns(held, spill_schema_->size());
    held.clear();
    ASSIGN_OR_RETURN(columnar::BatchPtr result, EvaluateSorted(std::move(cols), rows));
    const int64_t bs = std::max(1, ctx.batch_size);
    for (int64_t at = 0; at < result->num_rows; at += bs) {
      RETURN_NOT_OK(out->Append(*columnar::SliceBatch(*result, at, std::min(bs, result->num_rows - at))));
    }
  }
  return Status::OK();
}

Status PhysicalWindow::FinalizeSpilled(ExecContext& ctx) {
  // Rows of workers that finished before the first spilled join the files.
  SpillFiles rest;
  RETURN_NOT_OK(RouteChunks(ctx, &chunks_, &rest));
  bucket_of_.clear();
  for (auto& f : rest) {
    if (f) RETURN_NOT_OK(f->FinishWriting());
  }
  spilled_.resize(kSpillParts);
  for (size_t p = 0; p < rest.size(); ++p) {
    if (rest[p]) spilled_[p].push_back(std::move(rest[p]));
  }
  RETURN_NOT_OK(memory_.Resize(0));
  ASSIGN_OR_RETURN(spilled_result_, ctx.spill->Create(schema(), SpillBlockBytes(ctx), &stats.spilled_bytes));
  std::vector<SpillFiles> parts = std::move(spilled_);
  spilled_.clear();
  RETURN_NOT_OK(EvaluateSpilled(ctx, std::move(parts), 0, spilled_result_.get()));
  return spilled_result_->FinishWriting();
}

}  // namespace shoal::sql
