#include "sql/execution/physical_join.h"

#include "sql/execution/parallel_concat.h"
#include "sql/execution/physical_sort.h"
#include "sql/execution/task_runner.h"

namespace shoal::sql {

using columnar::Vector;

struct PhysicalJoinBase::ProbeState : OperatorState {
  explicit ProbeState(int64_t ts) : eval(ts) {}
  expr::EvalContext eval;
  std::vector<uint8_t> left_matched;
  std::vector<uint32_t> sel;
  RowKeys keys;
  std::vector<int64_t> gids;
  // Rows of the current batch that a spilled hash join deferred to a later round (empty when
  // none): they are neither probed nor emitted now.
  std::vector<uint8_t> deferred;
};

namespace {

bool TracksLeft(LogicalJoinType t) {
  return t == LogicalJoinType::kLeft || t == LogicalJoinType::kFull || t == LogicalJoinType::kSemi ||
         t == LogicalJoinType::kAnti || t == LogicalJoinType::kMark || t == LogicalJoinType::kSingle;
}
bool TracksBuild(LogicalJoinType t) { return t == LogicalJoinType::kRight || t == LogicalJoinType::kFull; }
bool EmitsPairs(LogicalJoinType t) {
  return t != LogicalJoinType::kSemi && t != LogicalJoinType::kAnti && t != LogicalJoinType::kMark;
}
}  // namespace

PhysicalJoinBase::PhysicalJoinBase(columnar::SchemaPtr schema, LogicalJoinType type, expr::ExprPtr residual,
                                   size_t left_width, columnar::SchemaPtr right_schema)
    : PhysicalOperator(std::move(schema)), type_(type), residual_(std::move(residual)),
      left_width_(left_width), right_schema_(std::move(right_schema)) {}

std::string PhysicalJoinBase::TypeAndResidual() const {
  std::string s = JoinTypeName(type_);
  if (residual_) s.append(" ").append(residual_->ToString());
  return s;
}

Result<std::unique_ptr<LocalSinkState>> PhysicalJoinBase::MakeLocalSink(ExecContext& ctx, int) {
  return std::unique_ptr<LocalSinkState>(new BuildLocal(ctx.Reserve(Name() + " build side")));
}

Status PhysicalJoinBase::Sink(ExecContext&, LocalSinkState* local, Chunk chunk, int) {
  auto* l = static_cast<BuildLocal*>(local);
  RETURN_NOT_OK(l->memory.Grow(columnar::BatchMemoryBytes(*chunk.batch)));
  l->chunks.push_back(std::move(chunk));
  return Status::OK();
}

Status PhysicalJoinBase::Combine(ExecContext&, LocalSinkState* local, int) {
  auto* l = static_cast<BuildLocal*>(local);
  std::lock_guard<std::mutex> lock(mu_);
  memory_.Merge(std::move(l->memory));
  for (auto& c : l->chunks) build_chunks_.push_back(std::move(c));
  return Status::OK();
}

Status PhysicalJoinBase::Finalize(ExecContext& ctx) {
  if (!memory_.tracker()) memory_.Merge(ctx.Reserve(Name() + " build side"));
  std::stable_sort(build_chunks_.begin(), build_chunks_.end(),
                   [](const Chunk& a, const Chunk& b) { return a.order < b.order; });
  std::vector<columnar::BatchPtr> batches;
  for (auto& c : build_chunks_) batches.push_back(c.batch);
  const int64_t held = memory_.bytes() - BatchesMemoryBytes(batches);
  Status st = BuildSide(ctx, batches, held);
  if (st.ok()) build_chunks_.clear();  // on error the caller may still route them (spilling)
  return st;
}

void PhysicalJoinBase::BuildLocal::ReleaseCollected(const ExecContext& ctx) {
  ReleaseLater(ctx, std::move(chunks), std::move(parts));
}

void PhysicalJoinBase::ReleaseCollected(const ExecContext& ctx) {
  ReleaseLater(ctx, std::move(build_chunks_), std::move(build_batches_), std::move(build_),
               std::move(build_matched_));
}

void PhysicalJoinBase::ReleaseBuild() {
  build_.reset();
  build_matched_.reset();
  build_batches_.clear();
}

Status PhysicalJoinBase::BuildSide(ExecContext& ctx, const std::vector<columnar::BatchPtr>& batches,
                                   int64_t held) {
  int64_t n = 0;
  for (const auto& b : batches) n += b->num_rows;
  const int64_t chunk_bytes = BatchesMemoryBytes(batches);
  Status st = [&]() -> Status {
    std::vector<columnar::VectorPtr> cols;
    if (batches.empty()) {
      for (const auto& f : right_schema_->fields) cols.push_back(Vector::Make(f.type));
    } else {
      // The concatenation copies the chunks (one chunk is used as it is).
      if (batches.size() > 1) RETURN_NOT_OK(memory_.Resize(held + 2 * chunk_bytes));
      ASSIGN_OR_RETURN(cols, ConcatColumnsParallel(ctx, batches, right_schema_->size()));
    }
    build_ = std::make_shared<columnar::RecordBatch>(right_schema_, std::move(cols), n);
    const int64_t build_bytes = batches.size() > 1 ? columnar::BatchMemoryBytes(*build_) : 0;
    RETURN_NOT_OK(memory_.Resize(held + chunk_bytes + build_bytes));
    if (TracksBuild(type_) || build_output_) {
      RETURN_NOT_OK(memory_.Grow(std::max<int64_t>(n, 1)));
      build_matched_.reset(new std::atomic<uint8_t>[n > 0 ? n : 1]);
      for (int64_t i = 0; i < n; ++i) build_matched_[i].store(0, std::memory_order_relaxed);
    }
    build_batches_ = batches;
    Status built = BuildIndex(ctx);
    build_batches_.clear();
    return built;
  }();
  if (!st.ok()) {
    ReleaseBuild();
    (void)memory_.Resize(held + chunk_bytes);
    return st;
  }
  // The chunks go with the caller (unless the build is one chunk used as it is); the table stays.
  RETURN_NOT_OK(memory_.Resize(held + columnar::BatchMemoryBytes(*build_) +
                               (build_matched_ ? std::max<int64_t>(n, 1) : 0) + IndexMemoryBytes()));
  memory_.Trim();
  return Status::OK();
}

bool PhysicalJoinBase::PassesColumn(int col, int* child, int* child_col) const {
  if (build_output_) {  // the output is the build side
    *child = 1;
    *child_col = col;
    return true;
  }
  if (col < static_cast<int>(left_width_)) {
    *child = 0;
    *child_col = col;
    return true;
  }
  // Build columns of joins that emit pairs; not SINGLE (fewer build rows could hide its
  // more-than-one-row error) or MARK (its column is computed).
  const auto t = type_;
  if (t != LogicalJoinType::kInner && t != LogicalJoinType::kLeft && t != LogicalJoinType::kRight &&
      t != LogicalJoinType::kFull) {
    return false;
  }
  *child = 1;
  *child_col = col - static_cast<int>(left_width_);
  return true;
}

Result<std::unique_ptr<OperatorState>> PhysicalJoinBase::MakeOperatorState(ExecContext& ctx) {
  return std::unique_ptr<OperatorState>(new ProbeState(ctx.statement_timestamp));
}

Status PhysicalJoinBase::EmitPairs(ExecContext&, ProbeState* st, const Chunk& in, std::vector<uint32_t>& pl,
                                   std::vector<int64_t>& pr, std::vector<Chunk>* out) {
  if (pl.empty()) return Status::OK();
  const auto& left = *in.batch;
  int64_t n = static_cast<int64_t>(pl.size());
  std::vector<columnar::VectorPtr> cols;
  if (residual_ || EmitsPairs(type_)) {
    for (const auto& c : left.columns) cols.push_back(columnar::Gather(*c, pl.data(), n));
    for (const auto& c : build_->columns) cols.push_back(columnar::GatherOrNull(*c, pr.data(), n));
  }
  if (residual_) {
    // The residual sees both sides (also for semi/anti joins, whose output is the left only).
    columnar::RecordBatch joined(nullptr, cols, n);
    ASSIGN_OR_RETURN(int64_t k, expr::EvaluateFilter(*residual_, joined, st->eval, &st->sel));
    if (k < n) {
      for (int64_t j = 0; j < k; ++j) {
        pl[j] = pl[st->sel[j]];
        pr[j] = pr[st->sel[j]];
      }
      pl.resize(k);
      pr.resize(k);
      if (EmitsPairs(type_)) {
        for (auto& c : cols) c = columnar::Gather(*c, st->sel.data(), k);
      }
      n = k;
    }
  }
  if (build_output_) {
    // Only build rows are tracked (below).
  } else if (type_ == LogicalJoinType::kSingle) {
    for (uint32_t i : pl) {
      if (st->left_matched[i]) {
        return Status::InvalidArgument("More than one row returned by a subquery used as an expression");
      }
      st->left_matched[i] = 1;
    }
  } else if (TracksLeft(type_)) {
    for (uint32_t i : pl) st->left_matched[i] = 1;
  }
  if (build_matched_) {
    for (int64_t r : pr) build_matched_[r].store(1, std::memory_order_relaxed);
  }
  if (EmitsPairs(type_) && n > 0) {
    out->push_back({std::make_shared<columnar::RecordBatch>(schema(), std::move(cols), n), in.order});
  }
  pl.clear();
  pr.clear();
  return Status::OK();
}

void PhysicalJoinBase::EmitProbeRemainder(ProbeState* st, const Chunk& in, std::vector<Chunk>* out) {
  if (!TracksLeft(type_) || build_output_) return;
  const auto& left = *in.batch;
  const bool deferred = !st->deferred.empty();
  if (type_ == LogicalJoinType::kMark) {  // every left row, with its match flag
    auto mark = Vector::Make(columnar::Boolean());
    std::vector<uint32_t> keep;
    for (int64_t i = 0; i < left.num_rows; ++i) {
      if (deferred && st->deferred[i]) continue;
      mark->Append<uint8_t>(st->left_matched[i] != 0 ? 1 : 0);
      keep.push_back(static_cast<uint32_t>(i));
    }
    const auto n = static_cast<int64_t>(keep.size());
    if (n == 0) return;
    std::vector<columnar::VectorPtr> cols = left.columns;
    if (n < left.num_rows) {
      for (auto& c : cols) c = columnar::Gather(*c, keep.data(), n);
    }
    cols.push_back(std::move(mark));
    out->push_back({std::make_shared<columnar::RecordBatch>(schema(), std::move(cols), n), in.order});
    return;
  }
  bool want = type_ == LogicalJoinType::kSemi;  // semi keeps matched rows, the others unmatched
  std::vector<uint32_t> sel;
  for (int64_t i = 0; i < left.num_rows; ++i) {
    if (deferred && st->deferred[i]) continue;
    if ((st->left_matched[i] != 0) == want) sel.push_back(static_cast<uint32_t>(i));
  }
  if (sel.empty()) return;
  int64_t n = static_cast<int64_t>(sel.size());
  std::vector<columnar::VectorPtr> cols;
  for (const auto& c : left.columns) cols.push_back(columnar::Gather(*c, sel.data(), n));
  if (EmitsPairs(type_)) {
    std::vector<int64_t> none(n, -1);
    for (const auto& c : build_->columns) cols.push_back(columnar::GatherOrNull(*c, none.data(), n));
  }
  out->push_back({std::make_shared<columnar::RecordBatch>(schema(), std::move(cols), n), in.order});
}

Status PhysicalJoinBase::FinishOperator(ExecContext& ctx, std::vector<Chunk>* out) {
  if (!build_matched_) return Status::OK();
  // Unmatched build rows (RIGHT, FULL, ANTI on the build side) or matched ones (SEMI on it).
  const uint8_t want = build_output_ && type_ == LogicalJoinType::kSemi ? 1 : 0;
  std::vector<uint32_t> sel;
  for (int64_t i = 0; i < build_->num_rows; ++i) {
    if (build_matched_[i].load(std::memory_order_relaxed) == want) sel.push_back(static_cast<uint32_t>(i));
  }
  if (sel.empty()) return Status::OK();
  int64_t n = static_cast<int64_t>(sel.size());
  std::vector<columnar::VectorPtr> cols;
  if (!build_output_) {
    for (size_t c = 0; c < left_width_; ++c) cols.push_back(Vector::MakeNull(schema()->fields[c].type, n));
  }
  for (const auto& c : build_->columns) cols.push_back(columnar::Gather(*c, sel.data(), n));
  auto batch = std::make_shared<columnar::RecordBatch>(schema(), std::move(cols), n);
  for (auto& b : SplitBatch(batch, ctx.batch_size)) out->push_back({std::move(b), UINT64_MAX});
  return Status::OK();
}

// ---- hash join

std::string PhysicalHashJoin::Details() const {
  std::string s = std::string(JoinTypeName(type_)) + (build_output_ ? " (build side is the output) " : " ");
  for (size_t i = 0; i < left_keys_.size(); ++i) {
    s += (i ? " AND " : "") + left_keys_[i]->ToString() + " = " + right_keys_[i]->ToString();
  }
  if (residual_) s += " residual " + residual_->ToString();
  return s;
}

namespace {
Result<std::vector<columnar::VectorPtr>> EvalKeys(const std::vector<expr::ExprPtr>& keys,
                                                  const columnar::RecordBatch& b, expr::EvalContext& ctx) {
  std::vector<columnar::VectorPtr> out;
  for (const auto& k : keys) {
    if (k->kind == expr::ExprKind::kColumnRef) {
      out.push_back(columnar::Decode(b.columns[k->column]));  // keys are hashed as values
    } else {
      ASSIGN_OR_RETURN(auto v, expr::Evaluate(*k, b, ctx));
      out.push_back(std::move(v));
    }
  }
  return out;
}
std::vector<const Vector*> Ptrs(const std::vector<columnar::VectorPtr>& v) {
  std::vector<const Vector*> out;
  for (const auto& x : v) out.push_back(x.get());
  return out;
}
}  // namespace

Status PhysicalHashJoin::HashKeys(const std::vector<expr::ExprPtr>& keys, const columnar::RecordBatch& b,
                                  expr::EvalContext& eval, JoinHashTable::ProbeKeys* out) const {
  ASSIGN_OR_RETURN(auto cols, EvalKeys(keys, b, eval));
  hasher_->HashProbe(Ptrs(cols), b.num_rows, out);
  return Status::OK();
}

struct PhysicalHashJoin::HashProbeState : ProbeState {
  using ProbeState::ProbeState;
  JoinHashTable::ProbeKeys probe;
};

Result<std::unique_ptr<OperatorState>> PhysicalHashJoin::MakeOperatorState(ExecContext& ctx) {
  return std::unique_ptr<OperatorState>(new HashProbeState(ctx.statement_timestamp));
}

Status PhysicalHashJoin::BuildIndex(ExecContext& ctx) {
  std::vector<columnar::TypePtr> build_types, probe_types;
  for (const auto& k : right_keys_) build_types.push_back(k->type);
  for (const auto& k : left_keys_) probe_types.push_back(k->type);
  table_ = std::make_unique<JoinHashTable>(build_types, probe_types);
  const int64_t nc = static_cast<int64_t>(build_batches_.size());
  std::vector<std::vector<columnar::VectorPtr>> keys(nc);
  std::vector<expr::EvalContext> evals(TaskWorkers(ctx, nc), expr::EvalContext(ctx.statement_timestamp));
  RETURN_NOT_OK(RunTasks(ctx, nc, [&](int64_t c, int w) -> Status {
    ASSIGN_OR_RETURN(keys[c], EvalKeys(right_keys_, *build_batches_[c], evals[w]));
    return Status::OK();
  }));
  // A spilled build's indexed part is not all of it: it publishes no filter (physical_join_spill.cc).
  for (auto& [key, filter] : runtime_filters_) {
    if (Spilling()) break;
    std::vector<const Vector*> chunks;
    for (const auto& k : keys) chunks.push_back(k[key].get());
    if (auto summary = SummarizeKeys(chunks, right_keys_[key]->type)) filter->Publish(std::move(*summary));
  }
  return table_->Build(ctx, std::move(keys), &memory_);
}

bool PhysicalHashJoin::DropsUnmatchedProbeRows() const {
  return build_output_ || type_ == LogicalJoinType::kInner || type_ == LogicalJoinType::kSemi ||
         type_ == LogicalJoinType::kRight;
}

Status PhysicalHashJoin::Execute(ExecContext& ctx, OperatorState* state, Chunk in, std::vector<Chunk>* out) {
  auto* st = static_cast<HashProbeState*>(state);
  const auto& b = *in.batch;
  const int64_t n = b.num_rows;
  if (TracksLeft(type_) && !build_output_) st->left_matched.assign(n, 0);
  RETURN_NOT_OK(HashKeys(left_keys_, b, st->eval, &st->probe));
  st->deferred.clear();
  if (DefersProbeRows()) RETURN_NOT_OK(DeferProbeRows(ctx, b, st->probe, &st->deferred));
  const bool deferred = !st->deferred.empty();
  std::vector<uint32_t> pl;
  std::vector<int64_t> pr;
  Status status;
  for (int64_t i = 0; i < n && status.ok(); ++i) {
    if (deferred && st->deferred[i]) continue;
    table_->Matches(st->probe, i, [&](int64_t r) {
      if (!status.ok()) return;
      pl.push_back(static_cast<uint32_t>(i));
      pr.push_back(r);
      if (static_cast<int64_t>(pl.size()) >= ctx.batch_size) status = EmitPairs(ctx, st, in, pl, pr, out);
    });
  }
  RETURN_NOT_OK(status);
  RETURN_NOT_OK(EmitPairs(ctx, st, in, pl, pr, out));
  EmitProbeRemainder(st, in, out);
  return Status::OK();
}

// ---- nested loop join

Status PhysicalNestedLoopJoin::Execute(ExecContext& ctx, OperatorState* state, Chunk in, std::vector<Chunk>* out) {
  auto* st = static_cast<ProbeState*>(state);
  const int64_t n = in.batch->num_rows;
  const int64_t m = build_->num_rows;
  if (TracksLeft(type_)) st->left_matched.assign(n, 0);
  std::vector<uint32_t> pl;
  std::vector<int64_t> pr;
  for (int64_t i = 0; i < n; ++i) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    for (int64_t j = 0; j < m; ++j) {
      pl.push_back(static_cast<uint32_t>(i));
      pr.push_back(j);
      if (static_cast<int64_t>(pl.size()) >= ctx.batch_size) RETURN_NOT_OK(EmitPairs(ctx, st, in, pl, pr, out));
    }
  }
  RETURN_NOT_OK(EmitPairs(ctx, st, in, pl, pr, out));
  EmitProbeRemainder(st, in, out);
  return Status::OK();
}

}  // namespace shoal::sql
