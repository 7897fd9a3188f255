// PhysicalHashJoin's spilling (physical_join.h): the build rows hash-partitioned into resident
// partitions and partition files, probe rows of spilled partitions deferred to files, and the
// rounds that join each spilled partition (split again when it does not fit).
#include <algorithm>
#include <array>

#include "sql/execution/physical_join.h"
#include "sql/execution/task_runner.h"

namespace shoal::sql {

namespace {

constexpr int kSpillBits = 4;  // 16 partitions per level
constexpr int kSpillParts = 1 << kSpillBits;
// A partition split this many times over is given up on (each split has a new hash seed, so
// only keys whose 64-bit hashes are equal stay together; those are caught before).
constexpr int kMaxLevels = 12;
// What the index takes per build row besides the rows: per-chunk hashes and keys while it is
// built, the entries and the directory (join_hash_table.h).
constexpr int64_t kIndexBytesPerRow = 64;

// The partition of a key hash at `level`: the hash mixed with a seed of the level (murmur3's
// finalizer), so each level splits a partition independently of the levels before.
int PartitionOf(uint64_t hash, int level) {
  uint64_t k = hash ^ (0x9e3779b97f4a7c15ULL * static_cast<uint64_t>(level + 1));
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdULL;
  k ^= k >> 33;
  k *= 0xc4ceb9fe1a85ec53ULL;
  k ^= k >> 33;
  return static_cast<int>(k >> (64 - kSpillBits));
}

// The memory build rows take once indexed: the rows, their concatenation and the index.
int64_t BuildCost(int64_t bytes, int64_t rows) { return 2 * bytes + rows * kIndexBytesPerRow; }

bool TracksBuildRows(LogicalJoinType t) { return t == LogicalJoinType::kRight || t == LogicalJoinType::kFull; }
bool TracksProbeRows(LogicalJoinType t) {
  return t == LogicalJoinType::kLeft || t == LogicalJoinType::kFull || t == LogicalJoinType::kSemi ||
         t == LogicalJoinType::kAnti || t == LogicalJoinType::kMark || t == LogicalJoinType::kSingle;
}

}  // namespace

// One spilled partition: its build rows and its probe rows, joined in a round.
struct SpilledPartition {
  std::unique_ptr<SpillFile> build, probe;  // null where no row went
  int level = 0;                            // the hash level that made it
};

struct PhysicalHashJoin::Spill {
  std::atomic<bool> active{false};
  // Partitions [0, resident) stay in memory; it only decreases.
  std::atomic<int> resident{kSpillParts};
  // BuildCost of the build rows all workers hold (before partitioning: all their rows).
  std::atomic<int64_t> cost{0};
  // Level-0 partitions, appended to by all workers, each under its lock.
  std::array<std::mutex, kSpillParts> mu;
  std::array<SpilledPartition, kSpillParts> parts;  // GUARDED_BY(mu[p])
  // Under the operator's mu_ (Combine), then Finalize's thread: the workers' resident rows.
  std::vector<std::vector<Chunk>> resident_chunks = std::vector<std::vector<Chunk>>(kSpillParts);
  std::vector<int64_t> resident_bytes = std::vector<int64_t>(kSpillParts);
  MemoryReservation buffers;  // the spill files' write and read buffers
  // Rounds (NextRound's thread; read by workers only between rounds).
  bool probed = false;                  // the first probe pass is over
  bool in_round = false;                // Execute probes everything (no deferring)
  std::vector<SpilledPartition> work;   // partitions still to join, the next one last
};

PhysicalHashJoin::PhysicalHashJoin(columnar::SchemaPtr schema, LogicalJoinType type,
                                   std::vector<expr::ExprPtr> left_keys, std::vector<expr::ExprPtr> right_keys,
                                   expr::ExprPtr residual, size_t left_width, columnar::SchemaPtr right_schema)
    : PhysicalJoinBase(std::move(schema), type, std::move(residual), left_width, std::move(right_schema)),
      left_keys_(std::move(left_keys)), right_keys_(std::move(right_keys)) {
  std::vector<columnar::TypePtr> build_types, probe_types;
  for (const auto& k : right_keys_) build_types.push_back(k->type);
  for (const auto& k : left_keys_) probe_types.push_back(k->type);
  hasher_ = std::make_unique<JoinHashTable>(build_types, probe_types);
  spill_ = std::make_unique<Spill>();
}

PhysicalHashJoin::~PhysicalHashJoin() = default;

bool PhysicalHashJoin::Spilling() const { return spill_->active.load(std::memory_order_relaxed); }

bool PhysicalHashJoin::DefersProbeRows() const {
  return Spilling() && !spill_->in_round && spill_->resident.load(std::memory_order_relaxed) < kSpillParts;
}

int64_t PhysicalHashJoin::SpillBlockBytes(const ExecContext& ctx) const {
  // All partitions' buffers take at most 1/8 of the limit.
  const int64_t limit = ctx.memory ? ctx.memory->limit() : (int64_t{1} << 30);
  return std::clamp<int64_t>(limit / (8 * (kSpillParts + 2)), 8 << 10, 1 << 20);
}

void PhysicalHashJoin::ReleaseBuild() {
  PhysicalJoinBase::ReleaseBuild();
  table_.reset();
}

void PhysicalHashJoin::ReleaseCollected(const ExecContext& ctx) {
  PhysicalJoinBase::ReleaseCollected(ctx);
  ReleaseLater(ctx, std::move(table_), std::move(spill_->resident_chunks));
}

void PhysicalHashJoin::LowerResident(int seen) {
  if (seen > 0) spill_->resident.compare_exchange_strong(seen, seen - 1);
}

namespace {

// Appends `b` to `*file`, creating it first.
Status AppendTo(ExecContext& ctx, const columnar::SchemaPtr& schema, int64_t block, std::atomic<int64_t>* spilled,
                const columnar::RecordBatch& b, std::unique_ptr<SpillFile>* file) {
  if (!*file) {
    ASSIGN_OR_RETURN(*file, ctx.spill->Create(schema, block, spilled));
    (*file)->set_min_block_rows(std::max(1, ctx.batch_size));  // a batch's rows go 16 ways
  }
  return (*file)->Append(b);
}

// Rows of a batch by partition at `level` of their key hashes (`keys`); rows without a key
// (NULL) go to partition 0.
std::vector<std::vector<uint32_t>> ByPartition(const JoinHashTable& hasher, const JoinHashTable::ProbeKeys& keys,
                                               int64_t n, int level) {
  std::vector<std::vector<uint32_t>> sel(kSpillParts);
  for (int64_t i = 0; i < n; ++i) {
    const int p = hasher.HasKey(keys, i) ? PartitionOf(keys.hashes[i], level) : 0;
    sel[p].push_back(static_cast<uint32_t>(i));
  }
  return sel;
}

columnar::BatchPtr Select(const columnar::BatchPtr& b, const std::vector<uint32_t>& sel) {
  if (static_cast<int64_t>(sel.size()) == b->num_rows) return b;
  return columnar::GatherBatch(*b, sel.data(), static_cast<int64_t>(sel.size()));
}

// Hands out a spilled partition's probe rows, read one batch at a time under a lock, with the
// order key of output at the end (after the first pass's rows, as FinishOperator's).
class SpilledProbeSource : public SourceState {
 public:
  explicit SpilledProbeSource(std::unique_ptr<SpillFile> file) : file_(std::move(file)) {}
  Result<bool> Next(SourceLocalState*, Chunk* out) override {
    std::lock_guard<std::mutex> lock(mu_);
    if (!file_) return false;
    ASSIGN_OR_RETURN(out->batch, file_->Next());
    if (!out->batch) {
      file_.reset();
      return false;
    }
    out->order = UINT64_MAX;
    return true;
  }

 private:
  std::mutex mu_;
  std::unique_ptr<SpillFile> file_;  // GUARDED_BY(mu_)
};

}  // namespace

Status PhysicalHashJoin::Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) {
  if (!MaySpill(ctx)) return PhysicalJoinBase::Sink(ctx, local, std::move(chunk), input);
  auto* l = static_cast<BuildLocal*>(local);
  if (!l->partitioned && Spilling()) RETURN_NOT_OK(StartPartitioning(ctx, l));
  if (l->partitioned) return SinkPartitioned(ctx, l, std::move(chunk));
  const int64_t bytes = columnar::BatchMemoryBytes(*chunk.batch);
  Status grown = l->memory.Grow(bytes);
  if (grown.ok()) {
    const int64_t cost = BuildCost(bytes, chunk.batch->num_rows);
    l->chunks.push_back(std::move(chunk));
    const int64_t budget = ctx.memory ? ctx.memory->limit() / 2 : INT64_MAX;
    if (spill_->cost.fetch_add(cost, std::memory_order_relaxed) + cost <= budget) return Status::OK();
  } else if (!grown.IsOutOfMemory()) {
    return grown;
  }
  // Refused, or the build side's rows would take more than its share once indexed.
  spill_->active.store(true, std::memory_order_relaxed);
  RETURN_NOT_OK(StartPartitioning(ctx, l));
  return grown.ok() ? Status::OK() : SinkPartitioned(ctx, l, std::move(chunk));
}

Status PhysicalHashJoin::StartPartitioning(ExecContext& ctx, BuildLocal* l) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!spill_->buffers.tracker()) {
      spill_->buffers = ctx.Reserve(Name() + " build side");
      RETURN_NOT_OK(spill_->buffers.Grow((kSpillParts + 2) * SpillBlockBytes(ctx)));
    }
  }
  l->partitioned = true;
  l->parts.assign(kSpillParts, {});
  l->part_bytes.assign(kSpillParts, 0);
  l->part_rows.assign(kSpillParts, 0);
  l->resident = kSpillParts;
  std::vector<Chunk> chunks = std::move(l->chunks);
  l->chunks.clear();
  for (auto& c : chunks) {
    // Gigabytes may be collected when the spill begins: Ctrl-C is heard between chunks.
    RETURN_NOT_OK(ctx.CheckInterrupt());
    const int64_t bytes = columnar::BatchMemoryBytes(*c.batch);
    spill_->cost.fetch_sub(BuildCost(bytes, c.batch->num_rows), std::memory_order_relaxed);
    l->memory.Shrink(bytes);
    RETURN_NOT_OK(SinkPartitioned(ctx, l, std::move(c)));
  }
  return Status::OK();
}

Status PhysicalHashJoin::SinkPartitioned(ExecContext& ctx, BuildLocal* l, Chunk chunk) {
  const columnar::BatchPtr& b = chunk.batch;
  if (b->num_rows == 0) return Status::OK();
  expr::EvalContext eval(ctx.statement_timestamp);
  JoinHashTable::ProbeKeys keys;
  RETURN_NOT_OK(HashKeys(right_keys_, *b, eval, &keys));
  const auto sel = ByPartition(*hasher_, keys, b->num_rows, 0);
  std::vector<columnar::BatchPtr> rows(kSpillParts);
  for (int p = 0; p < kSpillParts; ++p) {
    if (!sel[p].empty()) rows[p] = Select(b, sel[p]);
  }
  const int64_t budget = ctx.memory ? ctx.memory->limit() / 2 : INT64_MAX;
  int resident;
  for (;;) {
    resident = spill_->resident.load(std::memory_order_relaxed);
    if (l->resident > resident) RETURN_NOT_OK(FlushSpilled(ctx, l));
    int64_t need = 0;
    for (int p = 0; p < resident; ++p) need += rows[p] ? columnar::BatchMemoryBytes(*rows[p]) : 0;
    Status grown = l->memory.Grow(need);
    if (grown.IsOutOfMemory() && resident > 0) {
      LowerResident(resident);
      continue;
    }
    RETURN_NOT_OK(grown);
    break;
  }
  for (int p = 0; p < kSpillParts; ++p) {
    if (!rows[p]) continue;
    if (p < resident) {
      const int64_t bytes = columnar::BatchMemoryBytes(*rows[p]);
      l->part_bytes[p] += bytes;
      l->part_rows[p] += rows[p]->num_rows;
      spill_->cost.fetch_add(BuildCost(bytes, rows[p]->num_rows), std::memory_order_relaxed);
      l->parts[p].push_back({std::move(rows[p]), chunk.order});
    } else {
      std::lock_guard<std::mutex> lock(spill_->mu[p]);
      RETURN_NOT_OK(AppendTo(ctx, right_schema_, SpillBlockBytes(ctx), &stats.spilled_bytes, *rows[p],
                             &spill_->parts[p].build));
    }
  }
  if (spill_->cost.load(std::memory_order_relaxed) > budget) {
    LowerResident(resident);
    RETURN_NOT_OK(FlushSpilled(ctx, l));
  }
  return Status::OK();
}

Status PhysicalHashJoin::FlushSpilled(ExecContext& ctx, BuildLocal* l) {
  const int resident = spill_->resident.load(std::memory_order_relaxed);
  for (int p = resident; p < l->resident; ++p) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    {
      std::lock_guard<std::mutex> lock(spill_->mu[p]);
      for (const auto& c : l->parts[p]) {
        RETURN_NOT_OK(AppendTo(ctx, right_schema_, SpillBlockBytes(ctx), &stats.spilled_bytes, *c.batch,
                               &spill_->parts[p].build));
      }
    }
    l->parts[p].clear();
    l->memory.Shrink(l->part_bytes[p]);
    spill_->cost.fetch_sub(BuildCost(l->part_bytes[p], l->part_rows[p]), std::memory_order_relaxed);
    l->part_bytes[p] = l->part_rows[p] = 0;
  }
  l->resident = std::min(l->resident, resident);
  return Status::OK();
}

Status PhysicalHashJoin::Combine(ExecContext& ctx, LocalSinkState* local, int input) {
  auto* l = static_cast<BuildLocal*>(local);
  if (!l->partitioned) return PhysicalJoinBase::Combine(ctx, local, input);
  RETURN_NOT_OK(FlushSpilled(ctx, l));
  std::lock_guard<std::mutex> lock(mu_);
  memory_.Merge(std::move(l->memory));
  for (int p = 0; p < kSpillParts; ++p) {
    for (auto& c : l->parts[p]) spill_->resident_chunks[p].push_back(std::move(c));
    spill_->resident_bytes[p] += l->part_bytes[p];
  }
  return Status::OK();
}

Status PhysicalHashJoin::Finalize(ExecContext& ctx) {
  if (!Spilling()) {
    Status st = PhysicalJoinBase::Finalize(ctx);
    if (st.ok() || !st.IsOutOfMemory() || !MaySpill(ctx)) return st;
    // The whole build side did not fit after all: partition it.
    spill_->active.store(true, std::memory_order_relaxed);
  }
  return FinalizeSpilled(ctx);
}

Status PhysicalHashJoin::FinalizeSpilled(ExecContext& ctx) {
  Spill& s = *spill_;
  if (!memory_.tracker()) memory_.Merge(ctx.Reserve(Name() + " build side"));
  if (!build_chunks_.empty()) {
    // Rows of workers that finished before the spill began: routed as a worker would.
    BuildLocal l(std::move(memory_));
    memory_ = ctx.Reserve(Name() + " build side");
    l.chunks = std::move(build_chunks_);
    build_chunks_.clear();
    RETURN_NOT_OK(StartPartitioning(ctx, &l));
    RETURN_NOT_OK(Combine(ctx, &l, 1));
  }
  // Index the resident partitions; while that is refused, spill one more.
  for (;;) {
    const int resident = s.resident.load(std::memory_order_relaxed);
    for (int p = resident; p < kSpillParts; ++p) {
      for (const auto& c : s.resident_chunks[p]) {
        RETURN_NOT_OK(AppendTo(ctx, right_schema_, SpillBlockBytes(ctx), &stats.spilled_bytes, *c.batch,
                               &s.parts[p].build));
      }
      s.resident_chunks[p].clear();
      memory_.Shrink(s.resident_bytes[p]);
      s.resident_bytes[p] = 0;
    }
    std::vector<Chunk> chunks;
    for (int p = 0; p < resident; ++p) chunks.insert(chunks.end(), s.resident_chunks[p].begin(), s.resident_chunks[p].end());
    std::stable_sort(chunks.begin(), chunks.end(), [](const Chunk& a, const Chunk& b) { return a.order < b.order; });
    std::vector<columnar::BatchPtr> batches;
    for (auto& c : chunks) batches.push_back(std::move(c.batch));
    Status st = BuildSide(ctx, batches, std::max<int64_t>(0, memory_.bytes() - BatchesMemoryBytes(batches)));
    if (st.ok()) break;
    if (!st.IsOutOfMemory() || resident == 0) return st;
    LowerResident(resident);
  }
  for (int p = 0; p < kSpillParts; ++p) {
    std::vector<Chunk>().swap(s.resident_chunks[p]);
    s.resident_bytes[p] = 0;
    if (s.parts[p].build) RETURN_NOT_OK(s.parts[p].build->FinishWriting());
  }
  // What BuildSide reserved for the index and rows is all memory_ holds now.
  return Status::OK();
}

Status PhysicalHashJoin::DeferProbeRows(ExecContext& ctx, const columnar::RecordBatch& b,
                                        const JoinHashTable::ProbeKeys& keys, std::vector<uint8_t>* deferred) {
  const int resident = spill_->resident.load(std::memory_order_relaxed);
  const int64_t n = b.num_rows;
  std::vector<std::vector<uint32_t>> sel(kSpillParts);
  deferred->assign(n, 0);
  bool any = false;
  for (int64_t i = 0; i < n; ++i) {
    if (!hasher_->HasKey(keys, i)) continue;  // matches nothing: answered now
    const int p = PartitionOf(keys.hashes[i], 0);
    if (p < resident) continue;
    sel[p].push_back(static_cast<uint32_t>(i));
    (*deferred)[i] = 1;
    any = true;
  }
  if (!any) {
    deferred->clear();
    return Status::OK();
  }
  const auto batch = std::make_shared<columnar::RecordBatch>(b);
  for (int p = resident; p < kSpillParts; ++p) {
    if (sel[p].empty()) continue;
    columnar::BatchPtr rows = Select(batch, sel[p]);
    std::lock_guard<std::mutex> lock(spill_->mu[p]);
    RETURN_NOT_OK(AppendTo(ctx, children[0]->schema(), SpillBlockBytes(ctx), &stats.spilled_bytes, *rows,
                           &spill_->parts[p].probe));
  }
  return Status::OK();
}

Result<std::unique_ptr<SourceState>> PhysicalHashJoin::NextRound(ExecContext& ctx) {
  Spill& s = *spill_;
  if (!Spilling()) return std::unique_ptr<SourceState>();
  if (!s.probed) {
    s.probed = true;
    for (int p = kSpillParts - 1; p >= s.resident.load(std::memory_order_relaxed); --p) {
      SpilledPartition part = std::move(s.parts[p]);
      if (part.probe) RETURN_NOT_OK(part.probe->FinishWriting());
      s.work.push_back(std::move(part));
    }
  }
  // The first pass's or the last round's build side is done with.
  ReleaseBuild();
  (void)memory_.Resize(0);
  s.in_round = true;
  const int64_t block = SpillBlockBytes(ctx);
  // Which output a partition can have: rows of probe rows (matched or not), unmatched build rows.
  const bool probe_alone = TracksProbeRows(type_) && !build_output_;
  const bool build_alone = TracksBuildRows(type_) || (build_output_ && type_ == LogicalJoinType::kAnti);
  while (!s.work.empty()) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    SpilledPartition part = std::move(s.work.back());
    s.work.pop_back();
    const bool has_build = part.build && part.build->rows() > 0;
    const bool has_probe = part.probe && part.probe->rows() > 0;
    if (!(has_build && has_probe) && !(has_build && build_alone) && !(has_probe && probe_alone)) continue;
    std::vector<columnar::BatchPtr> batches;
    Status st;
    if (part.build) {
      part.build->set_buffer_bytes(block);
      for (;;) {
        auto next = part.build->Next();
        if (!next.ok()) return next.status();
        if (!*next) {
          part.build.reset();  // all read: a split takes the loaded rows only
          break;
        }
        batches.push_back(std::move(*next));
        st = memory_.Grow(columnar::BatchMemoryBytes(*batches.back()));
        if (!st.ok()) break;
      }
    }
    if (st.ok()) st = BuildSide(ctx, batches, 0);
    if (st.ok()) {
      if (!has_probe) return std::unique_ptr<SourceState>(new BatchListSource(std::vector<columnar::BatchPtr>()));
      part.probe->set_buffer_bytes(block);
      return std::unique_ptr<SourceState>(new SpilledProbeSource(std::move(part.probe)));
    }
    if (!st.IsOutOfMemory()) return st;
    RETURN_NOT_OK(SplitPartition(ctx, std::move(part), std::move(batches), st));
  }
  // Every partition is joined.
  ReleaseBuild();
  (void)memory_.Resize(0);
  s.buffers.Release();
  return std::unique_ptr<SourceState>();
}

Status PhysicalHashJoin::SplitPartition(ExecContext& ctx, SpilledPartition part,
                                        std::vector<columnar::BatchPtr> loaded, const Status& refused) {
  Spill& s = *spill_;
  const int level = part.level + 1;
  if (level >= kMaxLevels) {
    return Status::OutOfMemory(refused.message() + " (a spilled partition still does not fit after " +
                               std::to_string(kMaxLevels) + " splits)");
  }
  const int64_t block = SpillBlockBytes(ctx);
  std::array<SpilledPartition, kSpillParts> sub;
  expr::EvalContext eval(ctx.statement_timestamp);
  JoinHashTable::ProbeKeys keys;
  // Build rows first: whether any two keys differ decides whether splitting can help.
  bool one_key = true, seen = false;
  uint64_t first = 0;
  int64_t rows = 0;
  auto route = [&](const columnar::BatchPtr& b, bool build) -> Status {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    RETURN_NOT_OK(HashKeys(build ? right_keys_ : left_keys_, *b, eval, &keys));
    if (build) {
      rows += b->num_rows;
      for (int64_t i = 0; i < b->num_rows && one_key; ++i) {
        if (!hasher_->HasKey(keys, i)) continue;
        if (!seen) first = keys.hashes[i];
        seen = true;
        one_key = keys.hashes[i] == first;
      }
    }
    const auto sel = ByPartition(*hasher_, keys, b->num_rows, level);
    for (int p = 0; p < kSpillParts; ++p) {
      if (sel[p].empty()) continue;
      RETURN_NOT_OK(AppendTo(ctx, build ? right_schema_ : children[0]->schema(), block, &stats.spilled_bytes,
                             *Select(b, sel[p]), build ? &sub[p].build : &sub[p].probe));
    }
    return Status::OK();
  };
  for (auto& b : loaded) {
    RETURN_NOT_OK(route(b, true));
    b.reset();
  }
  (void)memory_.Resize(0);
  if (part.build) {
    for (;;) {
      ASSIGN_OR_RETURN(columnar::BatchPtr b, part.build->Next());
      if (!b) break;
      RETURN_NOT_OK(route(b, true));
    }
    part.build.reset();  // deletes the file
  }
  if (one_key) {
    return Status::OutOfMemory(refused.message() + " (its " + std::to_string(rows) +
                               " spilled build rows have one join key, which spilling cannot split)");
  }
  if (part.probe) {
    part.probe->set_buffer_bytes(block);
    for (;;) {
      ASSIGN_OR_RETURN(columnar::BatchPtr b, part.probe->Next());
      if (!b) break;
      RETURN_NOT_OK(route(b, false));
    }
    part.probe.reset();
  }
  for (int p = kSpillParts - 1; p >= 0; --p) {
    if (sub[p].build) RETURN_NOT_OK(sub[p].build->FinishWriting());
    if (sub[p].probe) RETURN_NOT_OK(sub[p].probe->FinishWriting());
    sub[p].level = level;
    if (sub[p].build || sub[p].probe) s.work.push_back(std::move(sub[p]));
  }
  return Status::OK();
}

}  // namespace shoal::sql
