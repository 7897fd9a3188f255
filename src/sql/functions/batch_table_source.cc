#include "sql/functions/batch_table_source.h"

#include <algorithm>
#include <atomic>

namespace shoal::sql {

namespace {

// One piece of a scan: rows [offset, offset + length) of batch `batch`.
struct Piece {
  size_t batch;
  int64_t offset;
  int64_t length;
};

class BatchScan : public Scan {
 public:
  BatchScan(const std::vector<columnar::BatchPtr>* batches, std::vector<Piece> pieces,
            std::vector<int> columns, columnar::SchemaPtr schema)
      : batches_(batches),
        pieces_(std::move(pieces)),
        columns_(std::move(columns)),
        schema_(std::move(schema)) {}

  Result<bool> Next(ScanLocalState*, columnar::BatchPtr* out, uint64_t* order) override {
    size_t i = next_.fetch_add(1, std::memory_order_relaxed);
    if (i >= pieces_.size()) return false;
    const Piece& p = pieces_[i];
    const columnar::RecordBatch& b = *(*batches_)[p.batch];
    std::vector<columnar::VectorPtr> cols;
    cols.reserve(columns_.size());
    const bool whole = p.offset == 0 && p.length == b.num_rows;
    for (int c : columns_)
      cols.push_back(whole ? b.column(c) : b.column(c)->Slice(p.offset, p.length));
    *out = std::make_shared<columnar::RecordBatch>(schema_, std::move(cols), p.length);
    *order = i;
    produced_.fetch_add(p.length, std::memory_order_relaxed);
    return true;
  }

  ScanMetrics metrics() const override {
    ScanMetrics m;
    m.rows_scanned = produced_.load();
    return m;
  }

 private:
  const std::vector<columnar::BatchPtr>* batches_;  // owned by the source, which outlives scans
  std::vector<Piece> pieces_;
  std::vector<int> columns_;
  columnar::SchemaPtr schema_;
  std::atomic<size_t> next_{0};
  std::atomic<int64_t> produced_{0};
};

}  // namespace

Result<std::shared_ptr<const BatchTableSource>> BatchTableSource::Make(
    std::string name, columnar::Schema schema, std::vector<columnar::BatchPtr> batches) {
  int64_t rows = 0;
  for (size_t i = 0; i < batches.size(); ++i) {
    const columnar::RecordBatch& b = *batches[i];
    if (b.num_columns() != schema.size()) {
      return Status::InvalidArgument(name + ": batch " + std::to_string(i) + " has " +
                                     std::to_string(b.num_columns()) + " columns, the schema " +
                                     std::to_string(schema.size()));
    }
    for (size_t c = 0; c < schema.size(); ++c) {
      if (!b.column(c)->type()->Equals(*schema[c].type) || b.column(c)->size() != b.num_rows) {
        return Status::InvalidArgument(name + ": column " + schema[c].name + " of batch " +
                                       std::to_string(i) + " does not match the schema's " +
                                       schema[c].type->ToString() + " and the batch's row count");
      }
    }
    rows += b.num_rows;
  }
  return std::shared_ptr<const BatchTableSource>(
      new BatchTableSource(std::move(name), std::move(schema), std::move(batches), rows));
}

Result<std::unique_ptr<Scan>> BatchTableSource::Open(const ScanRequest& request) const {
  auto out = std::make_shared<columnar::Schema>();
  for (int c : request.columns) {
    if (c < 0 || static_cast<size_t>(c) >= schema_.size()) {
      return Status::Internal("registered " + name_ + ": column index " + std::to_string(c) +
                              " out of range");
    }
    out->fields.push_back(schema_.fields[c]);
  }
  const int64_t piece = std::max(1, request.batch_size);
  std::vector<Piece> pieces;
  for (size_t b = 0; b < batches_.size(); ++b) {
    for (int64_t off = 0; off < batches_[b]->num_rows; off += piece) {
      pieces.push_back({b, off, std::min(piece, batches_[b]->num_rows - off)});
    }
  }
  return std::unique_ptr<Scan>(
      new BatchScan(&batches_, std::move(pieces), request.columns, std::move(out)));
}

}  // namespace shoal::sql
