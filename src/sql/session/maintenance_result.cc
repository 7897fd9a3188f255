#include "sql/session/maintenance_result.h"

#include "sql/session/query_result_impl.h"

namespace shoal::sql {

void ResultRows::AddColumn(std::string name, columnar::TypePtr type) {
  schema_->fields.push_back({std::move(name), type, true});
  columns_.push_back(columnar::Vector::Make(std::move(type)));
}

void ResultRows::AddRow(const std::vector<columnar::Value>& row) {
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (i >= row.size() || row[i].is_null()) {
      columns_[i]->AppendNull();
    } else {
      row[i].AppendTo(columns_[i].get());
    }
  }
  ++rows_;
}

QueryResult ResultRows::Build() const {
  std::vector<std::shared_ptr<columnar::RecordBatch>> batches;
  if (rows_ > 0) batches.push_back(std::make_shared<columnar::RecordBatch>(schema_, columns_, rows_));
  return MakeQueryResult(schema_, std::move(batches), "");
}

}  // namespace shoal::sql
