#include "arrow_result.h"

#include <algorithm>

namespace shoal::python {

namespace {

// One batch of `parts` (rows in order, all of one schema).
columnar::BatchPtr Join(const columnar::SchemaPtr& schema, const std::vector<columnar::BatchPtr>& parts, int64_t rows) {
  if (parts.size() == 1) return parts[0];
  std::vector<columnar::VectorPtr> columns;
  for (size_t c = 0; c < schema->size(); ++c) {
    std::vector<columnar::VectorPtr> pieces;
    for (const auto& p : parts) pieces.push_back(p->columns[c]);
    columns.push_back(columnar::Concat(pieces));
  }
  return std::make_shared<columnar::RecordBatch>(schema, std::move(columns), rows);
}

}  // namespace

std::vector<columnar::BatchPtr> TakeRemaining(ResultCursor* cursor, int64_t batch_size) {
  std::vector<columnar::BatchPtr> rest;
  for (size_t b = cursor->batch; b < cursor->batches.size(); ++b) {
    const columnar::BatchPtr& batch = cursor->batches[b];
    const int64_t skip = b == cursor->batch ? cursor->row : 0;
    if (batch->num_rows <= skip) continue;
    rest.push_back(skip == 0 ? batch : columnar::SliceBatch(*batch, skip, batch->num_rows - skip));
  }
  cursor->batch = cursor->batches.size();
  cursor->row = 0;
  if (batch_size <= 0) return rest;
  std::vector<columnar::BatchPtr> out;
  std::vector<columnar::BatchPtr> pending;
  int64_t pending_rows = 0;
  for (const auto& batch : rest) {
    for (int64_t off = 0; off < batch->num_rows;) {
      const int64_t take = std::min(batch_size - pending_rows, batch->num_rows - off);
      pending.push_back(off == 0 && take == batch->num_rows ? batch : columnar::SliceBatch(*batch, off, take));
      pending_rows += take;
      off += take;
      if (pending_rows == batch_size) {
        out.push_back(Join(cursor->schema, pending, pending_rows));
        pending.clear();
        pending_rows = 0;
      }
    }
  }
  if (pending_rows > 0) out.push_back(Join(cursor->schema, pending, pending_rows));
  return out;
}

}  // namespace shoal::python
