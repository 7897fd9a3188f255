#include "sql/execution/physical_operator.h"

#include <cstdio>

namespace shoal::sql {

Result<bool> BatchListSource::Next(SourceLocalState*, Chunk* out) {
  size_t i = next_.fetch_add(1, std::memory_order_relaxed);
  if (i >= batches_.size()) return false;
  out->order = i;
  if (!hand_over_) {
    out->batch = batches_[i];
    return true;
  }
  out->batch = std::move(batches_[i]);
  const int64_t bytes = out->batch ? columnar::BatchMemoryBytes(*out->batch) : 0;
  std::lock_guard<std::mutex> lock(mu_);
  memory_.Shrink(bytes);
  return true;
}

Result<bool> SpillFileSource::Next(SourceLocalState*, Chunk* out) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!file_) return false;
  ASSIGN_OR_RETURN(out->batch, file_->Next());
  if (!out->batch) {
    file_.reset();
    memory_.Release();
    return false;
  }
  out->order = next_++;
  return true;
}

std::vector<columnar::BatchPtr> SplitBatch(const columnar::BatchPtr& b, int batch_size) {
  std::vector<columnar::BatchPtr> out;
  if (!b || b->num_rows == 0) return out;
  if (b->num_rows <= batch_size) {
    out.push_back(b);
    return out;
  }
  for (int64_t off = 0; off < b->num_rows; off += batch_size) {
    out.push_back(columnar::SliceBatch(*b, off, std::min<int64_t>(batch_size, b->num_rows - off)));
  }
  return out;
}

int64_t BatchesMemoryBytes(const std::vector<columnar::BatchPtr>& batches) {
  int64_t n = 0;
  for (const auto& b : batches) {
    if (b) n += columnar::BatchMemoryBytes(*b);
  }
  return n;
}

int64_t ChunksMemoryBytes(const std::vector<Chunk>& chunks) {
  int64_t n = 0;
  for (const auto& c : chunks) {
    if (c.batch) n += columnar::BatchMemoryBytes(*c.batch);
  }
  return n;
}

namespace {
Status NotA(const PhysicalOperator& op, const char* role) {
  return Status::Internal(op.Name() + " is not a " + role);
}
}  // namespace

Result<std::unique_ptr<SourceState>> PhysicalOperator::OpenSource(ExecContext&) { return NotA(*this, "source"); }
Result<std::unique_ptr<OperatorState>> PhysicalOperator::MakeOperatorState(ExecContext&) {
  return std::unique_ptr<OperatorState>();
}
Status PhysicalOperator::Execute(ExecContext&, OperatorState*, Chunk, std::vector<Chunk>*) {
  return NotA(*this, "streaming operator");
}
Result<std::unique_ptr<LocalSinkState>> PhysicalOperator::MakeLocalSink(ExecContext&, int) {
  return NotA(*this, "sink");
}
Status PhysicalOperator::Sink(ExecContext&, LocalSinkState*, Chunk, int) { return NotA(*this, "sink"); }
Status PhysicalOperator::Combine(ExecContext&, LocalSinkState*, int) { return Status::OK(); }
Status PhysicalOperator::Finalize(ExecContext&) { return Status::OK(); }

namespace {
void Render(const PhysicalOperator& op, int depth, bool analyze, std::string* out) {
  std::string line(depth * 2, ' ');
  line += op.Name();
  std::string d = op.Details();
  if (!d.empty()) line += " " + d;
  char est[48] = "";
  if (op.estimated_rows >= 0) std::snprintf(est, sizeof(est), "est=%.0f", op.estimated_rows);
  if (analyze) {
    char buf[160];
    std::snprintf(buf, sizeof(buf), " [%s%srows=%lld time=%.3fms]", est, est[0] ? " " : "",
                  static_cast<long long>(op.stats.rows_out.load()), op.stats.nanos.load() / 1e6);
    line += buf;
    if (const int64_t spilled = op.stats.spilled_bytes.load(); spilled > 0) {
      line.pop_back();
      line += " spilled=" + std::to_string(spilled) + "B]";
    }
  } else if (est[0]) {
    line += std::string(" [") + est + "]";
  }
  *out += line + "\n";
  for (const auto& c : op.children) Render(*c, depth + 1, analyze, out);
}
}  // namespace

std::string PlanToString(const PhysicalOperator& root, bool analyze) {
  std::string out;
  Render(root, 0, analyze, &out);
  return out;
}

}  // namespace shoal::sql
