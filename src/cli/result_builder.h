// Builds QueryResults column by column from literal values, for the shell's unit tests (the SQL
// engine is not needed to test formatting and result comparison).
//
// Thread-safety: not thread-safe; build on one thread.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "sql/session/query_result_impl.h"

namespace shoal::cli {

class ResultBuilder {
 public:
  // Adds a column of `type`; `fill` appends its rows to the vector.
  template <typename Fill>
  ResultBuilder& Column(std::string name, columnar::TypePtr type, Fill fill) {
    auto v = columnar::Vector::Make(type);
    fill(*v);
    fields_.push_back({std::move(name), std::move(type), true});
    columns_.push_back(std::move(v));
    return *this;
  }
  ResultBuilder& Int64s(std::string name, const std::vector<std::optional<int64_t>>& values) {
    return Column(std::move(name), columnar::Int64(), [&](columnar::Vector& v) {
      for (const auto& x : values) x ? v.Append<int64_t>(*x) : v.AppendNull();
    });
  }
  ResultBuilder& Strings(std::string name, const std::vector<std::optional<std::string>>& values) {
    return Column(std::move(name), columnar::String(), [&](columnar::Vector& v) {
      for (const auto& x : values) x ? v.AppendString(*x) : v.AppendNull();
    });
  }
  ResultBuilder& Doubles(std::string name, const std::vector<std::optional<double>>& values) {
    return Column(std::move(name), columnar::Float64(), [&](columnar::Vector& v) {
      for (const auto& x : values) x ? v.Append<double>(*x) : v.AppendNull();
    });
  }

  // The result in one batch, or in batches of `batch_rows` rows when > 0.
  QueryResult Build(int64_t batch_rows = 0) const {
    auto schema = std::make_shared<columnar::Schema>();
    schema->fields = fields_;
    int64_t rows = columns_.empty() ? 0 : columns_[0]->size();
    std::vector<std::shared_ptr<columnar::RecordBatch>> batches;
    if (batch_rows <= 0) batch_rows = std::max<int64_t>(rows, 1);
    for (int64_t off = 0; off < rows; off += batch_rows) {
      int64_t n = std::min(batch_rows, rows - off);
      std::vector<columnar::VectorPtr> cols;
      for (const auto& c : columns_) cols.push_back(c->Slice(off, n));
      batches.push_back(std::make_shared<columnar::RecordBatch>(schema, std::move(cols), n));
    }
    return MakeQueryResult(schema, std::move(batches), "SELECT");
  }

 private:
  std::vector<columnar::Field> fields_;
  std::vector<columnar::VectorPtr> columns_;
};

}  // namespace shoal::cli
