// BatchTableSource: a table source over record batches already in memory — what a connection
// registers under a name (Session::RegisterRelation), e.g. a pandas DataFrame converted by the
// Python module. Scans hand out the batches' columns without copying, cut into pieces of at
// most the scan's batch size.
//
// Thread-safety: immutable after construction; its scans may be pulled by many workers.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sql/functions/table_function.h"

namespace shoal::sql {

class BatchTableSource : public TableSource {
 public:
  // Every batch must have `schema`'s columns, of its types. InvalidArgument otherwise.
  static Result<std::shared_ptr<const BatchTableSource>> Make(
      std::string name, columnar::Schema schema, std::vector<columnar::BatchPtr> batches);

  const columnar::Schema& schema() const override { return schema_; }
  std::string ToString() const override { return "registered " + name_; }
  std::optional<int64_t> EstimatedRows() const override { return rows_; }
  Result<std::unique_ptr<Scan>> Open(const ScanRequest& request) const override;

 private:
  BatchTableSource(std::string name, columnar::Schema schema,
                   std::vector<columnar::BatchPtr> batches, int64_t rows)
      : name_(std::move(name)),
        schema_(std::move(schema)),
        batches_(std::move(batches)),
        rows_(rows) {}

  std::string name_;
  columnar::Schema schema_;
  std::vector<columnar::BatchPtr> batches_;
  int64_t rows_;
};

}  // namespace shoal::sql
