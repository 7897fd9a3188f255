// PhysicalHashAggregate's spilling (physical_aggregate.h): rows routed to partition files by the
// key hash, and the partition-by-partition merge of the handed-over tables with those rows.
#include <algorithm>

#include "sql/execution/physical_aggregate.h"

namespace shoal::sql {

using columnar::Vector;

namespace {

constexpr int kSpillBits = 4;  // 16 partitions per level
constexpr int kSpillParts = 1 << kSpillBits;

// The partition of a key hash at `shift`: kSpillBits bits below the `shift` top bits.
int PartitionOf(uint64_t hash, int shift) {
  return static_cast<int>((hash << shift) >> (64 - kSpillBits));
}

}  // namespace

int64_t PhysicalHashAggregate::SpillBlockBytes(const ExecContext& ctx) const {
  // All partitions' write buffers of all workers take at most 1/8 of the limit.
  const int64_t limit = ctx.memory ? ctx.memory->limit() : (int64_t{1} << 30);
  return std::clamp<int64_t>(limit / (8 * kSpillParts * std::max(1, ctx.threads)), 16 << 10, 1 << 20);
}

void PhysicalHashAggregate::HandOver(std::unique_ptr<Table> t, MemoryReservation* memory) {
  for (auto& s : t->states) {
    if (s->num_groups() < t->groups()) s->Resize(t->groups());
  }
  std::lock_guard<std::mutex> lock(mu_);
  memory_.Merge(std::move(*memory));
  locals_.push_back(std::move(t));
}

Status PhysicalHashAggregate::RouteRows(ExecContext& ctx, const columnar::RecordBatch& rows, int shift,
                                        SpillFiles* files) {
  const int64_t n = rows.num_rows;
  if (n == 0) return Status::OK();
  std::vector<const Vector*> keys;
  for (size_t g = 0; g < groups_.size(); ++g) keys.push_back(rows.columns[g].get());
  RowKeys enc;
  enc.Encode(keys, n);
  std::vector<std::vector<uint32_t>> sel(kSpillParts);
  for (int64_t i = 0; i < n; ++i) sel[PartitionOf(enc.hash(i), shift)].push_back(static_cast<uint32_t>(i));
  return AppendToPartitions(rows, sel, files, [&]() -> Result<std::unique_ptr<SpillFile>> {
    ASSIGN_OR_RETURN(auto f, ctx.spill->Create(spill_schema_, SpillBlockBytes(ctx), &stats.spilled_bytes));
    f->set_min_block_rows(std::max(1, ctx.batch_size));  // a batch's rows go 16 ways
    return f;
  });
}

Status PhysicalHashAggregate::ApplyRows(Table* t, const columnar::RecordBatch& rows, MemoryReservation* memory,
                                        int64_t others, bool* refused) const {
  const int64_t n = rows.num_rows;
  *refused = false;
  std::vector<const Vector*> keys;
  for (size_t g = 0; g < groups_.size(); ++g) keys.push_back(rows.columns[g].get());
  Status grown = memory->Resize(others + t->MemoryBytes() + t->hash->GrowthBound(n));
  if (grown.IsOutOfMemory()) {
    *refused = true;
    return Status::OK();
  }
  RETURN_NOT_OK(grown);
  std::vector<uint32_t> ids(n);
  t->hash->FindOrInsert(keys, n, ids.data());
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    auto& state = *t->states[a];
    if (state.num_groups() < t->groups()) state.Resize(t->groups());
    std::vector<const Vector*> args;
    for (size_t k = 0; k < aggregates_[a].args.size(); ++k) args.push_back(rows.columns[arg_column_[a] + k].get());
    RETURN_NOT_OK(state.Update(ids.data(), args, n));
  }
  // The states may have grown past the limit: the next batch's Resize finds out.
  (void)memory->Resize(others + t->MemoryBytes());
  return Status::OK();
}

Status PhysicalHashAggregate::AggregateSpilled(ExecContext& ctx, std::vector<std::unique_ptr<Table>> tables,
                                               std::vector<SpillFiles> files, int shift, SpillFile* out) {
  if (shift + kSpillBits > 64) {
    return Status::OutOfMemory(Name() + " cannot split its spilled groups further (" +
                               std::to_string(64 / kSpillBits) + " levels of partitions)");
  }
  // Each table's groups by partition.
  std::vector<std::vector<std::vector<uint32_t>>> groups_of(tables.size());
  for (size_t t = 0; t < tables.size(); ++t) {
    Table& table = *tables[t];
    for (auto& s : table.states) RETURN_NOT_OK(s->PrepareCombine());
    groups_of[t].resize(kSpillParts);
    for (int64_t g = 0; g < table.groups(); ++g) {
      groups_of[t][PartitionOf(table.hash->hash(g), shift)].push_back(static_cast<uint32_t>(g));
    }
  }
  files.resize(kSpillParts);
  const int64_t block = SpillBlockBytes(ctx);
  for (int p = 0; p < kSpillParts; ++p) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    MemoryReservation memory = ctx.Reserve(Name());
    RETURN_NOT_OK(memory.Grow(block));  // the read buffer
    std::unique_ptr<Table> part = NewTable();
    for (size_t t = 0; t < tables.size(); ++t) {
      RETURN_NOT_OK(MergeGroups(part.get(), *tables[t], groups_of[t][p], &memory, block));
      std::vector<uint32_t>().swap(groups_of[t][p]);
    }
    SpillFiles deeper;  // the rows of this partition that did not fit, split again
    for (auto& f : files[p]) {
      for (;;) {
        ASSIGN_OR_RETURN(columnar::BatchPtr b, f->Next());
        if (!b) break;
        bool refused = !deeper.empty();
        if (!refused) RETURN_NOT_OK(ApplyRows(part.get(), *b, &memory, block, &refused));
        if (refused) RETURN_NOT_OK(RouteRows(ctx, *b, shift + kSpillBits, &deeper));
      }
      f.reset();  // deletes the file
    }
    if (!deeper.empty()) {
      for (auto& d : deeper) {
        if (d) RETURN_NOT_OK(d->FinishWriting());
      }
      std::vector<SpillFiles> sub(kSpillParts);
      for (int q = 0; q < kSpillParts; ++q) {
        if (deeper[q]) sub[q].push_back(std::move(deeper[q]));
      }
      std::vector<std::unique_ptr<Table>> held;
      held.push_back(std::move(part));
      RETURN_NOT_OK(AggregateSpilled(ctx, std::move(held), std::move(sub), shift + kSpillBits, out));
      continue;
    }
    if (part->groups() == 0) continue;
    ASSIGN_OR_RETURN(columnar::BatchPtr result, Output(*part));
    const int64_t bs = std::max(1, ctx.batch_size);
    for (int64_t at = 0; at < result->num_rows; at += bs) {
      RETURN_NOT_OK(out->Append(*columnar::SliceBatch(*result, at, std::min(bs, result->num_rows - at))));
    }
  }
  return Status::OK();
}

Status PhysicalHashAggregate::FinalizeSpilled(ExecContext& ctx) {
  // The handed-over tables stay reserved by memory_ until every partition is done.
  std::vector<std::unique_ptr<Table>> tables = std::move(locals_);
  locals_.clear();
  int64_t held = 0;
  for (const auto& t : tables) held += t->MemoryBytes();
  (void)memory_.Resize(held);
  ASSIGN_OR_RETURN(spilled_result_, ctx.spill->Create(schema(), SpillBlockBytes(ctx), &stats.spilled_bytes));
  RETURN_NOT_OK(AggregateSpilled(ctx, std::move(tables), std::move(spilled_), 0, spilled_result_.get()));
  spilled_.clear();
  RETURN_NOT_OK(spilled_result_->FinishWriting());
  return memory_.Resize(0);
}

}  // namespace shoal::sql
