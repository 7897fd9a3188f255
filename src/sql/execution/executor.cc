#include "sql/execution/executor.h"

#include <algorithm>
#include <chrono>
#include <deque>
#include <iterator>
#include <limits>

#include "sql/execution/physical_basic.h"
#include "sql/execution/statement_progress.h"
#include "sql/execution/thread_pool.h"

namespace shoal::sql {

namespace {
int64_t NowNanos() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// Adds the time since construction to an operator's counter.
class Timer {
 public:
  explicit Timer(OperatorStats& s) : s_(s), start_(NowNanos()) {}
  ~Timer() { s_.nanos.fetch_add(NowNanos() - start_, std::memory_order_relaxed); }

 private:
  OperatorStats& s_;
  int64_t start_;
};

// After a failed statement's workers have all returned: every operator of the plan hands what
// it collected to a pool worker to free (PhysicalOperator::ReleaseCollected).
void ReleaseCollected(const ExecContext& ctx, PhysicalOperator* op) {
  op->ReleaseCollected(ctx);
  for (auto& c : op->children) ReleaseCollected(ctx, c.get());
}
}  // namespace

struct Executor::Pipeline {
  PhysicalOperator* source = nullptr;
  std::vector<PhysicalOperator*> ops;  // in data-flow order
  PhysicalOperator* sink = nullptr;
  int sink_input = 0;
  std::vector<std::unique_ptr<Pipeline>> deps;  // run before this one
  std::vector<PhysicalOperator*> finalize;      // finalized after deps, before this one
  int phase = -1;                               // StatementProgress phase, -1 when none
};

void Executor::AddProgressPhases(Pipeline* p) {
  if (!ctx_->progress) return;
  for (auto& d : p->deps) AddProgressPhases(d.get());
  // A dependency is named by its sink (the join build, aggregate or sort it feeds).
  std::string what = p->source->Name();
  if (p->sink && p->sink->Name() != "QueryResult" && p->sink->Name() != "StreamResult") what = p->sink->Name();
  p->phase = ctx_->progress->AddPhase(p->source->WorkEstimate(), std::move(what));
}

void Executor::CompletePhase(const Pipeline& p) {
  if (ctx_->progress) ctx_->progress->CompletePhase(p.phase);
}

namespace {
// Unregisters a pipeline's source from the progress tracker before the source goes away.
class ProgressSourceScope {
 public:
  ProgressSourceScope(StatementProgress* progress, int phase, const SourceState* source)
      : progress_(progress), phase_(phase) {
    if (progress_) progress_->SetSource(phase_, source);
  }
  ~ProgressSourceScope() {
    if (progress_) progress_->SetSource(phase_, nullptr);
  }
  ProgressSourceScope(const ProgressSourceScope&) = delete;
  ProgressSourceScope& operator=(const ProgressSourceScope&) = delete;

 private:
  StatementProgress* progress_;
  int phase_;
};
}  // namespace

Status Executor::Build(PhysicalOperator* op, Pipeline* p) {
  auto add_inputs = [&](PhysicalOperator* sink) -> Status {
    for (int in : sink->SinkInputs()) {
      if (in < 0 || in >= static_cast<int>(sink->children.size())) {
        return Status::Internal(sink->Name() + ": bad sink input");
      }
      auto d = std::make_unique<Pipeline>();
      d->sink = sink;
      d->sink_input = in;
      RETURN_NOT_OK(Build(sink->children[in].get(), d.get()));
      p->deps.push_back(std::move(d));
    }
    p->finalize.push_back(sink);
    return Status::OK();
  };
  if (op->IsStreaming()) {
    p->ops.insert(p->ops.begin(), op);
    if (op->IsSink()) RETURN_NOT_OK(add_inputs(op));
    if (op->children.empty()) return Status::Internal(op->Name() + " has no input");
    return Build(op->children[0].get(), p);
  }
  if (op->IsSink()) {
    p->source = op;
    return add_inputs(op);
  }
  if (!op->IsSource()) return Status::Internal(op->Name() + " has no execution role");
  p->source = op;
  return Status::OK();
}

namespace {

// Decodes the chunk's dictionary-coded columns unless `op` takes them in that role.
void DecodeFor(const PhysicalOperator& op, bool sink, Chunk* chunk) {
  if (op.TakesCodedStrings(sink) || !columnar::HasCodedColumns(*chunk->batch)) return;
  auto b = std::make_shared<columnar::RecordBatch>(*chunk->batch);
  columnar::DecodeColumns(b.get());
  chunk->batch = std::move(b);
}

}  // namespace

Status Executor::Push(Pipeline* p, size_t i, std::vector<std::unique_ptr<OperatorState>>& states,
                      LocalSinkState* sink, Chunk chunk) {
  if (i == p->ops.size()) {
    DecodeFor(*p->sink, true, &chunk);
  } else {
    DecodeFor(*p->ops[i], false, &chunk);
  }
  if (i == p->ops.size()) {
    Timer t(p->sink->stats);
    return p->sink->Sink(*ctx_, sink, std::move(chunk), p->sink_input);
  }
  PhysicalOperator* op = p->ops[i];
  std::vector<Chunk> out;
  {
    Timer t(op->stats);
    RETURN_NOT_OK(op->Execute(*ctx_, states[i].get(), std::move(chunk), &out));
  }
  for (auto& c : out) {
    if (c.batch->num_rows == 0) continue;
    op->stats.rows_out.fetch_add(c.batch->num_rows, std::memory_order_relaxed);
    RETURN_NOT_OK(Push(p, i + 1, states, sink, std::move(c)));
  }
  return Status::OK();
}

Status Executor::RunWorker(Pipeline* p, SourceState* source, const std::atomic<bool>* failed, size_t first) {
  std::unique_ptr<SourceLocalState> local = source->MakeLocal();
  std::vector<std::unique_ptr<OperatorState>> states;
  for (auto* op : p->ops) {
    ASSIGN_OR_RETURN(auto s, op->MakeOperatorState(*ctx_));
    states.push_back(std::move(s));
  }
  ASSIGN_OR_RETURN(std::unique_ptr<LocalSinkState> sink, p->sink->MakeLocalSink(*ctx_, p->sink_input));
  Status st = [&]() -> Status {
    while (!failed->load(std::memory_order_relaxed) && !p->sink->SinkFinished()) {
      RETURN_NOT_OK(ctx_->CheckInterrupt());
      Chunk c;
      bool has = false;
      {
        Timer t(first == 0 ? p->source->stats : p->ops[first]->stats);
        ASSIGN_OR_RETURN(has, source->Next(local.get(), &c));
      }
      if (!has) break;
      if (c.batch->num_rows == 0) continue;
      if (first == 0) p->source->stats.rows_out.fetch_add(c.batch->num_rows, std::memory_order_relaxed);
      RETURN_NOT_OK(Push(p, first, states, sink.get(), std::move(c)));
    }
    return Status::OK();
  }();
  if (!st.ok() || failed->load(std::memory_order_relaxed)) {
    sink->ReleaseCollected(*ctx_);  // the statement returns without freeing the rows first
    return st;
  }
  Timer t(p->sink->stats);
  return p->sink->Combine(*ctx_, sink.get(), p->sink_input);
}

Status Executor::RunPipeline(Pipeline* p) {
  // Each sink is finalized as soon as its own inputs are in, before the next sink's inputs run:
  // a join's build is complete before the pipelines below its probe side start, so their scans
  // can use its runtime filters (runtime_filter.h).
  std::vector<PhysicalOperator*> done;
  for (size_t i = 0; i < p->deps.size(); ++i) {
    RETURN_NOT_OK(RunPipeline(p->deps[i].get()));
    PhysicalOperator* sink = p->deps[i]->sink;
    const bool last_input = i + 1 == p->deps.size() || p->deps[i + 1]->sink != sink;
    if (last_input && std::find(p->finalize.begin(), p->finalize.end(), sink) != p->finalize.end()) {
      Timer t(sink->stats);
      RETURN_NOT_OK(sink->Finalize(*ctx_));
      done.push_back(sink);
      for (auto& d : p->deps) {
        if (d->sink == sink) CompletePhase(*d);
      }
    }
  }
  for (auto* op : p->finalize) {
    if (std::find(done.begin(), done.end(), op) != done.end()) continue;
    Timer t(op->stats);
    RETURN_NOT_OK(op->Finalize(*ctx_));
  }
  for (auto& d : p->deps) CompletePhase(*d);
  RETURN_NOT_OK(ctx_->CheckInterrupt());
  ASSIGN_OR_RETURN(std::unique_ptr<SourceState> source, p->source->OpenSource(*ctx_));
  ProgressSourceScope progress_scope(ctx_->progress.get(), p->phase, source.get());
  RETURN_NOT_OK(RunWorkers(p, source.get()));
  RETURN_NOT_OK(FinishOperators(p));
  ScanMetrics m = source->metrics();
  std::lock_guard<std::mutex> lock(ctx_->metrics_mu);
  ctx_->scan_metrics.Add(m);
  return Status::OK();
}

Status Executor::RunWorkers(Pipeline* p, SourceState* source, size_t first) {
  std::atomic<bool> failed{false};
  std::mutex mu;
  Status error;
  auto work = [&](int) {
    Status st = RunWorker(p, source, &failed, first);
    if (!st.ok()) {
      std::lock_guard<std::mutex> lock(mu);
      if (error.ok()) error = st;
      failed = true;
    }
  };
  int n = ctx_->pool ? std::max(1, ctx_->threads) : 1;
  if (n > 1) {
    ctx_->pool->Run(n, work);
  } else {
    work(0);
  }
  return error;
}

Status Executor::FinishOperators(Pipeline* p) {
  // Operators with output at the end (outer joins) feed the rest of the pipeline, once or (a
  // spilled join) after each round.
  for (size_t i = 0; i < p->ops.size(); ++i) {
    for (;;) {
      std::vector<Chunk> out;
      RETURN_NOT_OK(p->ops[i]->FinishOperator(*ctx_, &out));
      if (!out.empty()) {
        std::vector<std::unique_ptr<OperatorState>> states;
        for (auto* op : p->ops) {
          ASSIGN_OR_RETURN(auto s, op->MakeOperatorState(*ctx_));
          states.push_back(std::move(s));
        }
        ASSIGN_OR_RETURN(auto sink, p->sink->MakeLocalSink(*ctx_, p->sink_input));
        for (auto& c : out) {
          if (c.batch->num_rows == 0) continue;
          p->ops[i]->stats.rows_out.fetch_add(c.batch->num_rows, std::memory_order_relaxed);
          RETURN_NOT_OK(Push(p, i + 1, states, sink.get(), std::move(c)));
        }
        RETURN_NOT_OK(p->sink->Combine(*ctx_, sink.get(), p->sink_input));
      }
      RETURN_NOT_OK(ctx_->CheckInterrupt());
      if (p->sink->SinkFinished()) break;  // a satisfied LIMIT needs no more rounds
      std::unique_ptr<SourceState> round;
      {
        Timer t(p->ops[i]->stats);
        ASSIGN_OR_RETURN(round, p->ops[i]->NextRound(*ctx_));
      }
      if (!round) break;
      RETURN_NOT_OK(RunWorkers(p, round.get(), i));
    }
  }
  return Status::OK();
}

Result<std::vector<columnar::BatchPtr>> Executor::Run(PhysicalOperator* root,
                                                      MemoryReservation* result_memory) {
  PhysicalCollect collect(root->schema(), 1, "QueryResult");
  Pipeline p;
  p.sink = &collect;
  RETURN_NOT_OK(Build(root, &p));
  AddProgressPhases(&p);
  Status st = RunPipeline(&p);
  if (st.ok()) st = collect.Finalize(*ctx_);
  if (!st.ok()) {
    ReleaseCollected(*ctx_, root);
    collect.ReleaseCollected(*ctx_);
    return st;
  }
  CompletePhase(p);
  if (result_memory) {
    *result_memory = collect.TakeMemory();
    result_memory->Trim();
  }
  return collect.batches();
}

}  // namespace shoal::sql

namespace shoal::sql {

namespace {

struct RoundLocal : LocalSinkState {
  std::vector<Chunk> chunks;
};

// The final pipeline's sink in a PlanStream: gathers one round's chunks.
class RoundSink final : public PhysicalOperator {
 public:
  explicit RoundSink(columnar::SchemaPtr schema) : PhysicalOperator(std::move(schema)) {}
  std::string Name() const override { return "StreamResult"; }
  bool IsSink() const override { return true; }
  Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext&, int) override {
    return std::unique_ptr<LocalSinkState>(new RoundLocal());
  }
  Status Sink(ExecContext&, LocalSinkState* local, Chunk chunk, int) override {
    static_cast<RoundLocal*>(local)->chunks.push_back(std::move(chunk));
    return Status::OK();
  }
  Status Combine(ExecContext&, LocalSinkState* local, int) override {
    auto& c = static_cast<RoundLocal*>(local)->chunks;
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& x : c) chunks_.push_back(std::move(x));
    c.clear();
    return Status::OK();
  }
  Status Finalize(ExecContext&) override { return Status::OK(); }
  // The round's chunks in order-key order (stable: a chunk's outputs keep their order).
  std::vector<Chunk> Take() {
    std::vector<Chunk> out;
    {
      std::lock_guard<std::mutex> lock(mu_);
      out.swap(chunks_);
    }
    std::stable_sort(out.begin(), out.end(), [](const Chunk& a, const Chunk& b) { return a.order < b.order; });
    return out;
  }

 private:
  std::mutex mu_;
  std::vector<Chunk> chunks_;
};

}  // namespace

struct PlanStream::State {
  explicit State(ExecContext* c) : ctx(c), exec(c) {}
  ExecContext* ctx;
  PhysicalOperator* root = nullptr;
  Executor exec;
  std::unique_ptr<RoundSink> sink;
  Executor::Pipeline pipeline;
  std::unique_ptr<SourceState> source;
  // Per worker slot: its source-local and operator states (kept across rounds: a scan's local
  // state may hold a partly read row group), and whether its source reads are done.
  std::vector<std::unique_ptr<SourceLocalState>> locals;
  std::vector<std::vector<std::unique_ptr<OperatorState>>> states;
  std::vector<uint8_t> started;
  std::vector<uint8_t> done;
  std::deque<columnar::BatchPtr> ready;
  bool finished = false;
  Status error;
};

PlanStream::PlanStream(std::unique_ptr<State> state) : state_(std::move(state)) {}
PlanStream::~PlanStream() {
  // The progress reporter may outlive the stream (it belongs to the context): let go of the source.
  if (state_ && state_->ctx->progress) state_->ctx->progress->SetSource(state_->pipeline.phase, nullptr);
}

Result<std::unique_ptr<PlanStream>> PlanStream::Open(ExecContext* ctx, PhysicalOperator* root) {
  auto st = std::make_unique<State>(ctx);
  st->sink = std::make_unique<RoundSink>(root->schema());
  Executor::Pipeline& p = st->pipeline;
  p.sink = st->sink.get();
  st->root = root;
  RETURN_NOT_OK(st->exec.Build(root, &p));
  st->exec.AddProgressPhases(&p);
  Status ran = [&]() -> Status {
    for (auto& d : p.deps) RETURN_NOT_OK(st->exec.RunPipeline(d.get()));
    for (auto* op : p.finalize) RETURN_NOT_OK(op->Finalize(*ctx));
    return Status::OK();
  }();
  if (!ran.ok()) {
    ReleaseCollected(*ctx, root);
    return ran;
  }
  for (auto& d : p.deps) st->exec.CompletePhase(*d);
  RETURN_NOT_OK(ctx->CheckInterrupt());
  ASSIGN_OR_RETURN(st->source, p.source->OpenSource(*ctx));
  if (ctx->progress) ctx->progress->SetSource(p.phase, st->source.get());
  int n = ctx->pool ? std::max(1, ctx->threads) : 1;
  st->locals.resize(n);
  st->states.resize(n);
  st->started.assign(n, 0);
  st->done.assign(n, 0);
  return std::unique_ptr<PlanStream>(new PlanStream(std::move(st)));
}

Status PlanStream::RunRound(int64_t round_quota) {
  State& s = *state_;
  Executor::Pipeline* p = &s.pipeline;
  const int n = static_cast<int>(s.done.size());
  std::atomic<int64_t> quota{round_quota};
  std::atomic<bool> failed{false};
  std::mutex mu;
  Status first;
  auto work = [&](int i) {
    if (s.done[i]) return;
    Status st = [&]() -> Status {
      if (!s.started[i]) {
        s.locals[i] = s.source->MakeLocal();
        for (auto* op : p->ops) {
          ASSIGN_OR_RETURN(auto os, op->MakeOperatorState(*s.ctx));
          s.states[i].push_back(std::move(os));
        }
        s.started[i] = 1;
      }
      ASSIGN_OR_RETURN(std::unique_ptr<LocalSinkState> local, s.sink->MakeLocalSink(*s.ctx, 0));
      while (!failed.load(std::memory_order_relaxed) && quota.fetch_sub(1) > 0) {
        RETURN_NOT_OK(s.ctx->CheckInterrupt());
        Chunk c;
        ASSIGN_OR_RETURN(bool has, s.source->Next(s.locals[i].get(), &c));
        if (!has) {
          s.done[i] = 1;
          break;
        }
        if (c.batch->num_rows == 0) continue;
        p->source->stats.rows_out.fetch_add(c.batch->num_rows, std::memory_order_relaxed);
        RETURN_NOT_OK(s.exec.Push(p, 0, s.states[i], local.get(), std::move(c)));
      }
      return s.sink->Combine(*s.ctx, local.get(), 0);
    }();
    if (!st.ok()) {
      std::lock_guard<std::mutex> lock(mu);
      if (first.ok()) first = st;
      failed = true;
    }
  };
  if (n > 1) {
    s.ctx->pool->Run(n, work);
  } else {
    work(0);
  }
  RETURN_NOT_OK(first);
  for (auto& c : s.sink->Take()) {
    if (c.batch && c.batch->num_rows > 0) s.ready.push_back(std::move(c.batch));
  }
  return Status::OK();
}

Status PlanStream::Finish() {
  State& s = *state_;
  Executor::Pipeline* p = &s.pipeline;
  // The operators' end output and rounds (a spilled join's partitions) go to the round sink
  // as a whole.
  RETURN_NOT_OK(s.exec.FinishOperators(p));
  for (auto& c : s.sink->Take()) {
    if (c.batch && c.batch->num_rows > 0) s.ready.push_back(std::move(c.batch));
  }
  ScanMetrics m = s.source->metrics();
  {
    std::lock_guard<std::mutex> lock(s.ctx->metrics_mu);
    s.ctx->scan_metrics.Add(m);
  }
  s.exec.CompletePhase(*p);
  if (s.ctx->progress) s.ctx->progress->ReportIfComplete();
  return Status::OK();
}

Status PlanStream::Fail(const Status& error) {
  State& s = *state_;
  s.error = error;
  s.ready.clear();
  ReleaseCollected(*s.ctx, s.root);  // the statement returns without freeing the rows first
  return error;
}

Result<columnar::BatchPtr> PlanStream::Next() {
  State& s = *state_;
  RETURN_NOT_OK(s.error);
  while (s.ready.empty() && !s.finished) {
    Status st;
    bool all_done = std::all_of(s.done.begin(), s.done.end(), [](uint8_t d) { return d != 0; });
    if (all_done) {
      st = Finish();
      s.finished = true;
    } else {
      st = RunRound(static_cast<int64_t>(s.done.size()) * kRoundChunks);
    }
    if (!st.ok()) return Fail(st);
    max_buffered_ = std::max(max_buffered_, s.ready.size());
  }
  if (s.ready.empty()) return columnar::BatchPtr();
  columnar::BatchPtr b = std::move(s.ready.front());
  s.ready.pop_front();
  return b;
}

Result<std::vector<columnar::BatchPtr>> PlanStream::Drain() {
  State& s = *state_;
  RETURN_NOT_OK(s.error);
  if (!s.finished) {
    Status st = RunRound(std::numeric_limits<int64_t>::max());
    if (st.ok()) st = Finish();
    s.finished = true;
    if (!st.ok()) return Fail(st);
  }
  max_buffered_ = std::max(max_buffered_, s.ready.size());
  std::vector<columnar::BatchPtr> out(std::make_move_iterator(s.ready.begin()), std::make_move_iterator(s.ready.end()));
  s.ready.clear();
  return out;
}

}  // namespace shoal::sql
