#include "sql/execution/physical_aggregate.h"

#include <algorithm>

#include "sql/execution/coded_key_grouper.h"
#include "sql/execution/small_key_grouper.h"
#include "sql/execution/task_runner.h"

namespace shoal::sql {

using columnar::Vector;

// Below this many groups over all local tables, Finalize merges them serially.
constexpr int64_t kPartitionedMergeGroups = 1 << 15;

namespace {
struct AggLocal : LocalSinkState {
  AggLocal(int64_t ts, MemoryReservation m) : eval(ts), memory(std::move(m)) {}
  // The bytes the worker's table and small-key cache hold.
  int64_t MemoryBytes() const {
    return (table ? table->MemoryBytes() : 0) + (small_keys ? small_keys->MemoryBytes() : 0);
  }
  expr::EvalContext eval;
  MemoryReservation memory;
  std::unique_ptr<PhysicalHashAggregate::Table> table;
  std::unique_ptr<SmallKeyGrouper> small_keys;  // null when the key types have no fast path
  CodedKeyGrouper coded_keys;                    // keys that are all dictionary-coded
  std::vector<uint32_t> ids;
  std::vector<columnar::VectorPtr> keys, args;
  std::vector<const Vector*> key_ptrs, arg_ptrs;
  // Spilling: the bytes past which the worker hands its table over; once it has, its rows go to
  // `files` instead.
  int64_t share = INT64_MAX;
  bool spilling = false;
  PhysicalHashAggregate::SpillFiles files;
};
}  // namespace

PhysicalHashAggregate::PhysicalHashAggregate(columnar::SchemaPtr schema, std::vector<expr::ExprPtr> groups,
                                             std::vector<AggregateCall> aggregates)
    : PhysicalOperator(std::move(schema)), groups_(std::move(groups)), aggregates_(std::move(aggregates)) {
  auto spill = std::make_shared<columnar::Schema>();
  // Field names do not matter in spill files: every column is "c".
  for (const auto& g : groups_) spill->fields.push_back({"c", g->type});
  for (const auto& a : aggregates_) {
    arg_column_.push_back(spill->fields.size());
    for (const auto& e : a.args) spill->fields.push_back({"c", e->type});
  }
  spill_schema_ = std::move(spill);
}

PhysicalHashAggregate::~PhysicalHashAggregate() = default;

std::string PhysicalHashAggregate::Details() const {
  std::string s;
  if (!groups_.empty()) {
    s += "groups=[";
    for (size_t i = 0; i < groups_.size(); ++i) s += (i ? ", " : "") + groups_[i]->ToString();
    s += "]";
  }
  if (!aggregates_.empty()) {
    s += std::string(s.empty() ? "" : " ") + "aggregates=[";
    for (size_t i = 0; i < aggregates_.size(); ++i) s += (i ? ", " : "") + aggregates_[i].display;
    s += "]";
  }
  return s;
}

std::unique_ptr<PhysicalHashAggregate::Table> PhysicalHashAggregate::NewTable() const {
  auto t = std::make_unique<Table>();
  if (!groups_.empty()) {
    std::vector<columnar::TypePtr> types;
    for (const auto& g : groups_) types.push_back(g->type);
    t->hash = std::make_unique<GroupHashTable>(types);
  }
  for (const auto& a : aggregates_) {
    t->states.push_back(a.binding.Create());
    if (!t->hash) t->states.back()->Resize(1);
  }
  return t;
}

Result<std::unique_ptr<LocalSinkState>> PhysicalHashAggregate::MakeLocalSink(ExecContext& ctx, int) {
  auto l = std::make_unique<AggLocal>(ctx.statement_timestamp, ctx.Reserve(Name()));
  l->table = NewTable();
  if (!groups_.empty()) {
    std::vector<columnar::TypePtr> types;
    for (const auto& g : groups_) types.push_back(g->type);
    if (SmallKeyGrouper::Supports(types)) l->small_keys = std::make_unique<SmallKeyGrouper>(types.size());
    if (MaySpill(ctx)) l->share = ctx.memory->limit() / (2 * std::max(1, ctx.threads));
  }
  return std::unique_ptr<LocalSinkState>(std::move(l));
}

Status PhysicalHashAggregate::Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int) {
  auto* l = static_cast<AggLocal*>(local);
  const auto& batch = *chunk.batch;
  const int64_t n = batch.num_rows;
  if (n == 0) return Status::OK();
  // Each expression once per batch (a column reference is the column itself); the values may
  // stay dictionary-coded only where `keep_coded` says so.
  auto eval_all = [&](const std::vector<expr::ExprPtr>& exprs, std::vector<columnar::VectorPtr>* owned,
                      std::vector<const Vector*>* ptrs, bool keep_coded) -> Status {
    owned->clear();
    ptrs->clear();
    for (const auto& e : exprs) {
      columnar::VectorPtr v;
      if (e->kind == expr::ExprKind::kColumnRef) {
        v = batch.columns[e->column];
        if (!keep_coded) v = columnar::Decode(v);
      } else if (keep_coded) {
        ASSIGN_OR_RETURN(v, expr::EvaluateMaybeCoded(*e, batch, l->eval));
      } else {
        ASSIGN_OR_RETURN(v, expr::Evaluate(*e, batch, l->eval));
      }
      owned->push_back(std::move(v));
      ptrs->push_back(owned->back().get());
    }
    return Status::OK();
  };
  // Spilling: the keys and arguments, decoded, to the partitions' files.
  auto spill = [&]() -> Status {
    std::vector<columnar::VectorPtr> cols;
    RETURN_NOT_OK(eval_all(groups_, &cols, &l->key_ptrs, false));
    for (const auto& a : aggregates_) {
      RETURN_NOT_OK(eval_all(a.args, &l->args, &l->arg_ptrs, false));
      cols.insert(cols.end(), l->args.begin(), l->args.end());
    }
    return RouteRows(ctx, columnar::RecordBatch(spill_schema_, std::move(cols), n), 0, &l->files);
  };
  auto start_spilling = [&]() {
    HandOver(std::move(l->table), &l->memory);
    l->memory = ctx.Reserve(Name());
    l->small_keys.reset();
    l->spilling = true;
  };
  if (l->spilling) return spill();
  const bool grouped = l->table->hash != nullptr;
  if (grouped) {
    RETURN_NOT_OK(eval_all(groups_, &l->keys, &l->key_ptrs, true));
    l->ids.resize(n);
    // The table's arrays may double while inserting: reserve that before it happens.
    Status grown = l->memory.Resize(l->MemoryBytes() + l->table->hash->GrowthBound(n));
    if (grown.IsOutOfMemory() && MaySpill(ctx)) {
      start_spilling();
      return spill();
    }
    RETURN_NOT_OK(grown);
    if (!l->coded_keys.Map(l->key_ptrs, n, l->table->hash.get(), l->ids.data())) {
      for (size_t k = 0; k < l->keys.size(); ++k) {
        if (!l->keys[k]->IsDictionary()) continue;
        l->keys[k] = columnar::Decode(l->keys[k]);
        l->key_ptrs[k] = l->keys[k].get();
      }
      if (!l->small_keys || !l->small_keys->Map(l->key_ptrs, n, l->table->hash.get(), l->ids.data())) {
        l->table->hash->FindOrInsert(l->key_ptrs, n, l->ids.data());
      }
    }
  }
  const int64_t ngroups = l->table->groups();
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    auto& state = *l->table->states[a];
    if (state.num_groups() < ngroups) state.Resize(ngroups);
    RETURN_NOT_OK(eval_all(aggregates_[a].args, &l->args, &l->arg_ptrs, false));
    if (grouped) {
      RETURN_NOT_OK(state.Update(l->ids.data(), l->arg_ptrs, n));
    } else {
      RETURN_NOT_OK(state.UpdateOneGroup(0, l->arg_ptrs, n));
    }
  }
  Status held = l->memory.Resize(l->MemoryBytes());
  if ((held.IsOutOfMemory() || l->memory.bytes() > l->share) && MaySpill(ctx)) {
    start_spilling();  // this batch is in the table
    return Status::OK();
  }
  return held;
}

Status PhysicalHashAggregate::Combine(ExecContext&, LocalSinkState* local, int) {
  auto* l = static_cast<AggLocal*>(local);
  if (l->spilling) {
    for (auto& f : l->files) {
      if (f) RETURN_NOT_OK(f->FinishWriting());
    }
    std::lock_guard<std::mutex> lock(mu_);
    if (spilled_.size() < l->files.size()) spilled_.resize(l->files.size());
    for (size_t p = 0; p < l->files.size(); ++p) {
      if (l->files[p]) spilled_[p].push_back(std::move(l->files[p]));
    }
    return Status::OK();
  }
  std::unique_ptr<Table> t = std::move(l->table);
  for (auto& s : t->states) {
    if (s->num_groups() < t->groups()) s->Resize(t->groups());
  }
  // The small-key cache is freed with the local state; the table moves on.
  RETURN_NOT_OK(l->memory.Resize(t->MemoryBytes()));
  std::lock_guard<std::mutex> lock(mu_);
  memory_.Merge(std::move(l->memory));
  locals_.push_back(std::move(t));
  return Status::OK();
}

Status PhysicalHashAggregate::Merge(Table* into, Table& t, MemoryReservation* memory,
                                    int64_t others) const {
  std::vector<uint32_t> map;
  if (t.hash) {
    RETURN_NOT_OK(
        memory->Resize(others + into->MemoryBytes() + into->hash->GrowthBound(t.hash->size())));
    std::vector<const Vector*> ptrs;
    for (const auto& c : t.hash->key_columns()) ptrs.push_back(c.get());
    map.resize(t.hash->size());
    if (!map.empty()) into->hash->FindOrInsert(ptrs, t.hash->size(), map.data());
  } else {
    map.assign(1, 0);
  }
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    auto& g = *into->states[a];
    if (g.num_groups() < into->groups()) g.Resize(into->groups());
    RETURN_NOT_OK(g.Combine(*t.states[a], map.data()));
  }
  return memory->Resize(others + into->MemoryBytes());
}

Result<columnar::BatchPtr> PhysicalHashAggregate::Output(Table& t) const {
  const int64_t n = t.groups();
  std::vector<columnar::VectorPtr> cols;
  if (t.hash) cols = t.hash->key_columns();
  for (auto& s : t.states) {
    if (s->num_groups() < n) s->Resize(n);
    ASSIGN_OR_RETURN(auto v, s->Finalize());
    cols.push_back(std::move(v));
  }
  return std::make_shared<columnar::RecordBatch>(schema(), std::move(cols), n);
}

Status PhysicalHashAggregate::FinalizeSerial(ExecContext& ctx) {
  std::unique_ptr<Table> global = locals_.empty() ? NewTable() : std::move(locals_[0]);
  // Tables merged in one by one: the reservation follows the global table plus the rest.
  int64_t rest = 0;
  for (size_t i = 1; i < locals_.size(); ++i) rest += locals_[i]->MemoryBytes();
  for (size_t i = 1; i < locals_.size(); ++i) {
    rest -= locals_[i]->MemoryBytes();
    RETURN_NOT_OK(Merge(global.get(), *locals_[i], &memory_, rest + locals_[i]->MemoryBytes()));
    locals_[i].reset();
  }
  locals_.clear();
  if (global->groups() == 0) return memory_.Resize(0);
  ASSIGN_OR_RETURN(auto b, Output(*global));
  // The output shares the key columns with the table; its slices copy all of it.
  int64_t key_bytes = 0;
  if (global->hash) {
    for (const auto& c : global->hash->key_columns()) key_bytes += c->MemoryBytes();
  }
  const int64_t out_bytes = columnar::BatchMemoryBytes(*b);
  RETURN_NOT_OK(memory_.Resize(global->MemoryBytes() + (out_bytes - key_bytes) + out_bytes));
  result_ = SplitBatch(b, ctx.batch_size);
  return memory_.Resize(BatchesMemoryBytes(result_));
}

Status PhysicalHashAggregate::MergeGroups(Table* part, Table& src, const std::vector<uint32_t>& sel,
                                          MemoryReservation* memory, int64_t done) const {
  if (sel.empty()) return Status::OK();
  const int64_t k = static_cast<int64_t>(sel.size());
  std::vector<columnar::VectorPtr> keys;
  std::vector<const Vector*> ptrs;
  for (const auto& c : src.hash->key_columns()) {
    keys.push_back(columnar::Gather(*c, sel.data(), k));
    ptrs.push_back(keys.back().get());
  }
  std::vector<uint32_t> ids(k);
  RETURN_NOT_OK(memory->Resize(done + part->MemoryBytes() + part->hash->GrowthBound(k)));
  part->hash->FindOrInsert(ptrs, k, ids.data());
  std::vector<uint32_t> map(src.groups(), expr::GroupedAggregate::kSkipGroup);
  for (int64_t i = 0; i < k; ++i) map[sel[i]] = ids[i];
  for (size_t a = 0; a < aggregates_.size(); ++a) {
    auto& g = *part->states[a];
    if (g.num_groups() < part->groups()) g.Resize(part->groups());
    RETURN_NOT_OK(g.Combine(*src.states[a], map.data()));
  }
  return memory->Resize(done + part->MemoryBytes());
}

Status PhysicalHashAggregate::FinalizePartitioned(ExecContext& ctx) {
  const size_t nt = locals_.size();
  // Each local table's groups by partition (top hash bits), ascending within a partition.
  std::vector<std::vector<std::vector<uint32_t>>> groups_of(nt);
  int64_t local_bytes = 0, groups = 0;
  for (const auto& t : locals_) {
    local_bytes += t->MemoryBytes();
    groups += t->groups();
  }
  // Two partitions per thread at least, and no more than kGroupsPerPartition groups in one: a
  // partition is one task, and Ctrl-C is heard between tasks.
  constexpr int64_t kGroupsPerPartition = int64_t{1} << 18;
  int bits = 1;
  while (bits < 6 && (1 << bits) < 2 * ctx.threads) ++bits;
  while (bits < 10 && (int64_t{1} << bits) * kGroupsPerPartition < groups) ++bits;
  const int parts = 1 << bits;
  // The group lists: one id per group, and up to twice that while a list grows.
  RETURN_NOT_OK(memory_.Resize(local_bytes + groups * static_cast<int64_t>(2 * sizeof(uint32_t))));
  RETURN_NOT_OK(RunTasks(ctx, static_cast<int64_t>(nt), [&](int64_t t, int) -> Status {
    Table& table = *locals_[t];
    for (auto& s : table.states) RETURN_NOT_OK(s->PrepareCombine());
    auto& lists = groups_of[t];
    lists.resize(parts);
    for (int64_t g = 0; g < table.groups(); ++g) {
      lists[table.hash->hash(g) >> (64 - bits)].push_back(static_cast<uint32_t>(g));
    }
    return Status::OK();
  }));
  std::vector<columnar::BatchPtr> outputs(parts);
  // Per worker: the outputs of its finished partitions and the table of the one it merges;
  // merged into memory_ when all are done.
  std::vector<MemoryReservation> worker_memory;
  for (int w = 0; w < TaskWorkers(ctx, parts); ++w) worker_memory.push_back(ctx.Reserve(Name()));
  RETURN_NOT_OK(RunTasks(ctx, parts, [&](int64_t p, int w) -> Status {
    MemoryReservation& memory = worker_memory[w];
    const int64_t done = memory.bytes();  // earlier partitions' outputs
    std::unique_ptr<Table> part = NewTable();
    for (size_t t = 0; t < nt; ++t) {
      RETURN_NOT_OK(MergeGroups(part.get(), *locals_[t], groups_of[t][p], &memory, done));
    }
    if (part->groups() == 0) return memory.Resize(done);
    ASSIGN_OR_RETURN(outputs[p], Output(*part));
    RETURN_NOT_OK(
        memory.Resize(done + part->MemoryBytes() + columnar::BatchMemoryBytes(*outputs[p])));
    part.reset();
    return memory.Resize(done + columnar::BatchMemoryBytes(*outputs[p]));
  }));
  locals_.clear();
  groups_of.clear();
  RETURN_NOT_OK(memory_.Resize(0));
  for (auto& m : worker_memory) memory_.Merge(std::move(m));
  // The slices copy the outputs.
  RETURN_NOT_OK(memory_.Grow(memory_.bytes()));
  for (auto& b : outputs) {
    if (!b) continue;
    for (auto& s : SplitBatch(b, ctx.batch_size)) result_.push_back(std::move(s));
    b.reset();
  }
  return memory_.Resize(BatchesMemoryBytes(result_));
}

Status PhysicalHashAggregate::Finalize(ExecContext& ctx) {
  if (!memory_.tracker()) memory_.Merge(ctx.Reserve(Name()));
  if (!spilled_.empty()) return FinalizeSpilled(ctx);
  int64_t groups = 0;
  for (const auto& t : locals_) groups += t->groups();
  if (groups_.empty() || locals_.size() < 2 || groups < kPartitionedMergeGroups) return FinalizeSerial(ctx);
  return FinalizePartitioned(ctx);
}

Result<std::unique_ptr<SourceState>> PhysicalHashAggregate::OpenSource(ExecContext& ctx) {
  if (spilled_result_) {
    MemoryReservation memory = ctx.Reserve(Name());
    RETURN_NOT_OK(memory.Grow(SpillBlockBytes(ctx)));
    return std::unique_ptr<SourceState>(new SpillFileSource(std::move(spilled_result_), std::move(memory)));
  }
  return std::unique_ptr<SourceState>(new BatchListSource(std::move(result_), std::move(memory_)));
}

// ---- set operations

namespace {
struct SetLocal : LocalSinkState {
  explicit SetLocal(MemoryReservation m) : memory(std::move(m)) {}
  std::vector<Chunk> chunks;
  MemoryReservation memory;
};
}  // namespace

std::string PhysicalSetOp::Name() const {
  return std::string(op_ == SetOpType::kExcept ? "Except" : "Intersect") + (all_ ? "All" : "");
}

Result<std::unique_ptr<LocalSinkState>> PhysicalSetOp::MakeLocalSink(ExecContext& ctx, int) {
  return std::unique_ptr<LocalSinkState>(new SetLocal(ctx.Reserve(Name())));
}

Status PhysicalSetOp::Sink(ExecContext&, LocalSinkState* local, Chunk chunk, int) {
  auto* l = static_cast<SetLocal*>(local);
  RETURN_NOT_OK(l->memory.Grow(columnar::BatchMemoryBytes(*chunk.batch)));
  l->chunks.push_back(std::move(chunk));
  return Status::OK();
}

Status PhysicalSetOp::Combine(ExecContext&, LocalSinkState* local, int input) {
  auto* l = static_cast<SetLocal*>(local);
  std::lock_guard<std::mutex> lock(mu_);
  memory_.Merge(std::move(l->memory));
  for (auto& c : l->chunks) inputs_[input].push_back(std::move(c));
  return Status::OK();
}

Status PhysicalSetOp::Finalize(ExecContext& ctx) {
  if (!memory_.tracker()) memory_.Merge(ctx.Reserve(Name()));
  std::vector<columnar::TypePtr> types;
  for (const auto& f : schema()->fields) types.push_back(f.type);
  GroupHashTable table(types);
  std::vector<int64_t> counts[2];
  for (int side = 0; side < 2; ++side) {
    auto& chunks = inputs_[side];
    std::stable_sort(chunks.begin(), chunks.end(), [](const Chunk& a, const Chunk& b) { return a.order < b.order; });
    std::vector<uint32_t> ids;
    // The reservation: the input chunks not yet hashed, the table and the counts.
    int64_t input_bytes = ChunksMemoryBytes(inputs_[0]) + ChunksMemoryBytes(inputs_[1]);
    auto held = [&] {
      return input_bytes + table.MemoryBytes() +
             static_cast<int64_t>((counts[0].capacity() + counts[1].capacity()) * sizeof(int64_t));
    };
    for (auto& c : chunks) {
      const int64_t n = c.batch->num_rows;
      std::vector<const Vector*> cols;
      for (const auto& v : c.batch->columns) cols.push_back(v.get());
      ids.resize(n);
      RETURN_NOT_OK(memory_.Resize(held() + table.GrowthBound(n) +
                                   4 * n * static_cast<int64_t>(sizeof(int64_t))));
      table.FindOrInsert(cols, n, ids.data());
      counts[0].resize(table.size(), 0);
      counts[1].resize(table.size(), 0);
      for (uint32_t g : ids) counts[side][g]++;
      input_bytes -= columnar::BatchMemoryBytes(*c.batch);
      c.batch.reset();
      RETURN_NOT_OK(memory_.Resize(held()));
    }
    chunks.clear();
  }
  counts[0].resize(table.size(), 0);
  counts[1].resize(table.size(), 0);
  std::vector<uint32_t> sel;
  for (int64_t g = 0; g < table.size(); ++g) {
    int64_t l = counts[0][g], r = counts[1][g];
    int64_t copies = 0;
    if (op_ == SetOpType::kIntersect) {
      copies = all_ ? std::min(l, r) : (l > 0 && r > 0 ? 1 : 0);
    } else {
      copies = all_ ? std::max<int64_t>(l - r, 0) : (l > 0 && r == 0 ? 1 : 0);
    }
    for (int64_t k = 0; k < copies; ++k) sel.push_back(static_cast<uint32_t>(g));
  }
  if (sel.empty()) return memory_.Resize(0);
  // The gathered rows, then their slices: at most twice the table's key columns per copy.
  int64_t key_bytes = 0;
  for (const auto& k : table.key_columns()) key_bytes += k->MemoryBytes();
  const int64_t copy_bytes =
      key_bytes * static_cast<int64_t>(sel.size()) / std::max<int64_t>(1, table.size());
  RETURN_NOT_OK(memory_.Resize(table.MemoryBytes() +
                               static_cast<int64_t>(sel.capacity() * sizeof(uint32_t)) +
                               2 * copy_bytes));
  std::vector<columnar::VectorPtr> cols;
  for (const auto& k : table.key_columns()) cols.push_back(columnar::Gather(*k, sel.data(), sel.size()));
  auto b = std::make_shared<columnar::RecordBatch>(schema(), std::move(cols), static_cast<int64_t>(sel.size()));
  result_ = SplitBatch(b, ctx.batch_size);
  return memory_.Resize(BatchesMemoryBytes(result_));
}

Result<std::unique_ptr<SourceState>> PhysicalSetOp::OpenSource(ExecContext&) {
  return std::unique_ptr<SourceState>(new BatchListSource(std::move(result_), std::move(memory_)));
}

}  // namespace shoal::sql
