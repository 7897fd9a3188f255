// PhysicalWindow's evaluation of one partition bigger than memory (physical_window.h): its rows
// sorted into runs (spill files) and merged (sorted_run_merge.h), then evaluated a block of rows at
// a time. A block holds, before the rows it outputs, the rows its frames and lag offsets reach back
// to, and after them the rows its frames and lead offsets reach ahead to; it ends where the
// ORDER BY value changes, so a peer group is never cut. From block to block it carries how many
// rows and peer groups of the current partition came before (row_number, rank, dense_rank) and,
// for each aggregate whose frame starts at UNBOUNDED PRECEDING, one aggregate state of those rows.
#include <algorithm>
#include <cmath>

#include "sql/execution/physical_sort.h"
#include "sql/execution/physical_window.h"
#include "sql/execution/sorted_run_merge.h"
#include "sql/execution/window_evaluator.h"

namespace shoal::sql {

using columnar::Vector;
using columnar::VectorPtr;

namespace {

constexpr int64_t kMaxStreamOffset = 1 << 16;  // rows a frame or offset may reach (else not streamed)
constexpr size_t kMaxFanIn = 64;

int64_t Limit(const ExecContext& ctx) { return ctx.memory ? ctx.memory->limit() : (int64_t{1} << 30); }

}  // namespace

std::string PhysicalWindow::NotStreamable(int64_t* before, int64_t* after) const {
  *before = 0;
  *after = 0;
  auto reach = [&](FrameBoundType t, double off) {
    if (t == FrameBoundType::kPreceding) *before = std::max(*before, static_cast<int64_t>(off));
    if (t == FrameBoundType::kFollowing) *after = std::max(*after, static_cast<int64_t>(off));
  };
  // A frame that ends at the current row's peers or a few rows around it; it may start at the
  // partition's start only when `running` (an aggregate's state is carried).
  auto bounded = [&](const BoundFrame& f, bool running) {
    if (f.start == FrameBoundType::kUnboundedFollowing || f.end == FrameBoundType::kUnboundedFollowing) return false;
    if (f.start == FrameBoundType::kUnboundedPreceding && !running) return false;
    if (!f.rows) {  // RANGE: peers only (no offsets), and peers need an ORDER BY
      auto peers = [](FrameBoundType t) {
        return t == FrameBoundType::kUnboundedPreceding || t == FrameBoundType::kCurrentRow;
      };
      return !order_.empty() && peers(f.start) && peers(f.end);
    }
    if (f.start_offset > kMaxStreamOffset || f.end_offset > kMaxStreamOffset) return false;
    reach(f.start, f.start_offset);
    reach(f.end, f.end_offset);
    return true;
  };
  for (const auto& c : calls_) {
    switch (c.function) {
      case WindowFunction::kRowNumber: break;
      case WindowFunction::kRank:
      case WindowFunction::kDenseRank:
        if (order_.empty()) return c.display;  // every row a peer of every other
        break;
      case WindowFunction::kLag:
      case WindowFunction::kLead: {
        const expr::Expr& off = *c.args[1];
        if (off.kind != expr::ExprKind::kLiteral || off.value.is_null()) return c.display;
        int64_t k = off.value.GetInt();
        if (k > kMaxStreamOffset || k < -kMaxStreamOffset) return c.display;
        if (c.function == WindowFunction::kLead) k = -k;
        reach(k > 0 ? FrameBoundType::kPreceding : FrameBoundType::kFollowing, static_cast<double>(std::abs(k)));
        break;
      }
      case WindowFunction::kFirstValue:
      case WindowFunction::kLastValue:
      case WindowFunction::kNthValue:
        if (!bounded(c.frame, false)) return c.display;
        break;
      case WindowFunction::kAggregate:
        if (c.binding.distinct || !bounded(c.frame, true)) return c.display;
        break;
      default: return c.display;  // percent_rank, cume_dist, ntile: the partition's size
    }
  }
  return "";
}

Result<std::vector<std::unique_ptr<SpillFile>>> PhysicalWindow::SortRuns(ExecContext& ctx, const BatchPuller& next) {
  const size_t width = spill_schema_->size();
  const size_t np = partition_by_.size(), no = order_.size();
  std::vector<SortSpec> specs;
  for (size_t i = 0; i < np; ++i) specs.push_back({false, true});
  for (size_t i = 0; i < no; ++i) specs.push_back({order_[i].descending, order_[i].nulls_first});
  specs.push_back({false, true});  // the tie-break: input chunk order, row position
  specs.push_back({false, true});
  const int64_t run_budget = std::max<int64_t>(Limit(ctx) / 4, 1 << 20);
  const int64_t block = SpillBlockBytes(ctx);
  MemoryReservation memory = ctx.Reserve(Name());
  std::vector<std::unique_ptr<SpillFile>> runs;
  std::vector<columnar::BatchPtr> held;
  int64_t bytes = 0, rows = 0;
  // A run holds its rows, their concatenation and the sorted copy, and a sort index per row.
  auto run_bytes = [](int64_t b, int64_t n) { return 3 * b + n * 16; };
  auto write_run = [&]() -> Status {
    if (held.empty()) return Status::OK();
    std::vector<VectorPtr> cols = ConcatColumns(held, width);
    held.clear();
    std::vector<const Vector*> keys;
    for (size_t k = 0; k < np + no; ++k) keys.push_back(cols[input_width_ + k].get());
    keys.push_back(cols[width - 2].get());
    keys.push_back(cols[width - 1].get());
    std::vector<uint32_t> idx = SortIndices(keys, specs, rows);
    ASSIGN_OR_RETURN(auto run, ctx.spill->Create(spill_schema_, block, &stats.spilled_bytes));
    const int64_t bs = std::max(1, ctx.batch_size);
    for (int64_t at = 0; at < rows; at += bs) {
      RETURN_NOT_OK(ctx.CheckInterrupt());
      const int64_t len = std::min(bs, rows - at);
      std::vector<VectorPtr> slice;
      for (const auto& c : cols) slice.push_back(columnar::Gather(*c, idx.data() + at, len));
      RETURN_NOT_OK(run->Append(columnar::RecordBatch(spill_schema_, std::move(slice), len)));
    }
    RETURN_NOT_OK(run->FinishWriting());
    runs.push_back(std::move(run));
    bytes = rows = 0;
    return memory.Resize(0);
  };
  for (;;) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    ASSIGN_OR_RETURN(columnar::BatchPtr b, next());
    if (!b) break;
    const int64_t more = columnar::BatchMemoryBytes(*b);
    Status grown = bytes + more > run_budget && !held.empty() ? Status::OutOfMemory("run full")
                                             : memory.Resize(run_bytes(bytes + more, rows + b->num_rows));
    if (!grown.ok()) {
      if (!grown.IsOutOfMemory() || held.empty()) return grown;
      RETURN_NOT_OK(write_run());
      RETURN_NOT_OK(memory.Resize(run_bytes(more, b->num_rows)));
    }
    bytes += more;
    rows += b->num_rows;
    held.push_back(std::move(b));
  }
  RETURN_NOT_OK(write_run());
  const std::vector<SortSpec> merge_specs(specs.begin(), specs.end() - 2);  // it breaks ties itself
  // More runs than a merge reads at once (a read buffer each in a quarter of the limit): merged
  // into longer runs first.
  const size_t fan_in = static_cast<size_t>(std::clamp<int64_t>(Limit(ctx) / 4 / (2 * block), 2, kMaxFanIn));
  while (runs.size() > fan_in) {
    std::vector<std::unique_ptr<SpillFile>> group;
    for (size_t i = 0; i < fan_in; ++i) group.push_back(std::move(runs[i]));
    runs.erase(runs.begin(), runs.begin() + static_cast<std::ptrdiff_t>(fan_in));
    ASSIGN_OR_RETURN(auto merger, SortedRunMerger::Open(std::move(group), input_width_, merge_specs));
    ASSIGN_OR_RETURN(auto merged, ctx.spill->Create(spill_schema_, block, &stats.spilled_bytes));
    for (;;) {
      RETURN_NOT_OK(ctx.CheckInterrupt());
      ASSIGN_OR_RETURN(columnar::BatchPtr b, merger->Next(std::max(1, ctx.batch_size)));
      if (!b) break;
      RETURN_NOT_OK(merged->Append(*b));
    }
    RETURN_NOT_OK(merged->FinishWriting());
    runs.push_back(std::move(merged));
  }
  return runs;
}

Status PhysicalWindow::EvaluateStreaming(ExecContext& ctx, const BatchPuller& next, SpillFile* out) {
  ASSIGN_OR_RETURN(auto runs, SortRuns(ctx, next));
  const size_t np = partition_by_.size(), no = order_.size();
  const size_t width = spill_schema_->size();
  std::vector<SortSpec> specs;  // the merge's keys (it breaks ties by the last two columns itself)
  for (size_t i = 0; i < np; ++i) specs.push_back({false, true});
  for (size_t i = 0; i < no; ++i) specs.push_back({order_[i].descending, order_[i].nulls_first});
  const int64_t block = SpillBlockBytes(ctx);
  for (auto& r : runs) r->set_buffer_bytes(block);
  MemoryReservation memory = ctx.Reserve(Name());
  RETURN_NOT_OK(memory.Grow(block * static_cast<int64_t>(runs.size())));  // the read buffers
  const int64_t buffers = memory.bytes();
  ASSIGN_OR_RETURN(auto merger, SortedRunMerger::Open(std::move(runs), input_width_, specs));
  // Block cuts must fall between peer groups when a call looks at peers.
  bool peers = false;
  for (const auto& c : calls_) {
    peers = peers || c.function == WindowFunction::kRank || c.function == WindowFunction::kDenseRank ||
            ((c.function == WindowFunction::kAggregate || c.function == WindowFunction::kFirstValue ||
              c.function == WindowFunction::kLastValue || c.function == WindowFunction::kNthValue) &&
             !c.frame.rows);
  }
  // What is carried from block to block: the current partition's rows and peer groups before
  // the block, and for running aggregates their state over those rows.
  bool continued = false;
  int64_t rows_before = 0, dense_before = 0;
  std::vector<std::unique_ptr<expr::GroupedAggregate>> prefix(calls_.size());
  std::vector<VectorPtr> w;  // the block's columns (spill_schema_)
  int64_t wn = 0, context = 0;
  const int64_t bs = std::max(1, ctx.batch_size);
  int64_t base_step = bs, step = bs;  // rows a block outputs: a batch, then what 1/8 of the limit holds
  bool sized = false, done = false;
  for (;;) {
    RETURN_NOT_OK(ctx.CheckInterrupt());
    // Fill: the rows to output and the rows after them that frames reach.
    std::vector<columnar::BatchPtr> more;
    int64_t have = wn;
    while (!done && have < context + step + stream_after_ + 1) {
      ASSIGN_OR_RETURN(columnar::BatchPtr b, merger->Next(step));
      if (!b) {
        done = true;
        break;
      }
      have += b->num_rows;
      more.push_back(std::move(b));
    }
    if (!more.empty()) {
      if (wn > 0) more.insert(more.begin(), std::make_shared<columnar::RecordBatch>(spill_schema_, w, wn));
      w = ConcatColumns(more, width);
      wn = have;
      more.clear();
    }
    if (wn <= context) break;
    int64_t w_bytes = 0;
    for (const auto& c : w) w_bytes += c->MemoryBytes();
    RETURN_NOT_OK(memory.Resize(buffers + EvaluationBytes(w_bytes, wn)));
    if (!sized && wn > 0) {
      sized = true;
      const int64_t per_row = std::max<int64_t>(1, EvaluationBytes(w_bytes, wn) / wn);
      base_step = step = std::clamp<int64_t>(Limit(ctx) / 8 / per_row, bs, int64_t{1} << 20);
    }
    // Cut: after the last peer group that ends before the rows frames reach ahead to.
    int64_t end = wn;
    if (!done) {
      end = wn - std::max<int64_t>(stream_after_, 1);  // a row after it: its partition decides the carry
      if (peers) {
        std::vector<const Vector*> keys;
        std::vector<SortSpec> key_specs;
        for (size_t k = 0; k < np + no; ++k) keys.push_back(w[input_width_ + k].get());
        RowComparator cmp(keys, specs);
        while (end > context && cmp.Compare(end - 1, end) == 0) --end;
      }
      if (end <= context) {  // one peer group longer than the block: read more
        step *= 2;
        continue;
      }
    }
    step = base_step;
    // Evaluate the block; output its rows [context, end).
    std::vector<const Vector*> part, order;
    std::vector<SortSpec> order_specs;
    for (size_t i = 0; i < np; ++i) part.push_back(w[input_width_ + i].get());
    for (size_t i = 0; i < no; ++i) {
      order.push_back(w[input_width_ + np + i].get());
      order_specs.push_back(specs[np + i]);
    }
    WindowEvaluator eval(part, order, order_specs, nullptr, wn);
    std::vector<VectorPtr> outs;
    for (size_t i = 0; i < input_width_; ++i) outs.push_back(w[i]->Slice(context, end - context));
    size_t arg = input_width_ + np + no;
    for (size_t ci = 0; ci < calls_.size(); ++ci) {
      const WindowCall& c = calls_[ci];
      std::vector<const Vector*> args;
      for (size_t a = 0; a < c.args.size(); ++a) args.push_back(w[arg++].get());
      eval.SetPrefix(continued && prefix[ci] ? prefix[ci].get() : nullptr);
      ASSIGN_OR_RETURN(VectorPtr v, eval.Evaluate(c, args));
      eval.SetPrefix(nullptr);
      const bool ranking = c.function == WindowFunction::kRowNumber || c.function == WindowFunction::kRank ||
                           c.function == WindowFunction::kDenseRank;
      if (ranking && continued) {
        // The block's first partition started before it.
        const int64_t add = c.function == WindowFunction::kDenseRank ? dense_before : rows_before;
        int64_t* d = v->data<int64_t>();
        for (int64_t i = 0; i < wn && eval.part_start(i) == 0; ++i) d[i] += add;
      }
      outs.push_back(v->Slice(context, end - context));
    }
    const auto result = std::make_shared<columnar::RecordBatch>(schema(), std::move(outs), end - context);
    for (int64_t at = 0; at < result->num_rows; at += bs) {
      RETURN_NOT_OK(out->Append(*columnar::SliceBatch(*result, at, std::min(bs, result->num_rows - at))));
    }
    if (done && end == wn) break;
    // The next block starts with the rows before `end` that its frames reach back to.
    const int64_t s = std::max<int64_t>(0, end - stream_before_);
    const int64_t ps = eval.part_start(s);
    const bool same = continued && ps == 0;  // s is in the partition the carry is about
    const int64_t true_dense = (same ? dense_before : 0) + eval.dense(s);
    rows_before = (same ? rows_before : 0) + (s - ps);
    dense_before = true_dense - 1;
    arg = input_width_ + np + no;
    for (size_t ci = 0; ci < calls_.size(); ++ci) {
      const WindowCall& c = calls_[ci];
      std::vector<const Vector*> args;
      std::vector<VectorPtr> sliced;
      const bool running = c.function == WindowFunction::kAggregate &&
                           c.frame.start == FrameBoundType::kUnboundedPreceding;
      for (size_t a = 0; a < c.args.size(); ++a, ++arg) {
        if (running) sliced.push_back(w[arg]->Slice(ps, s - ps));
      }
      if (!running) continue;
      if (!same || !prefix[ci]) {
        prefix[ci] = c.binding.Create();
        prefix[ci]->Resize(1);
      }
      for (const auto& v : sliced) args.push_back(v.get());
      if (s > ps) RETURN_NOT_OK(prefix[ci]->UpdateOneGroup(0, args, s - ps));
    }
    continued = rows_before > 0;
    for (auto& c : w) c = c->Slice(s, wn - s);
    wn -= s;
    context = end - s;
  }
  return Status::OK();
}

}  // namespace shoal::sql
