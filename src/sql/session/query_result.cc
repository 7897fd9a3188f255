#include <algorithm>

#include "columnar/value_text.h"
#include "sql/session/query_result_impl.h"

namespace shoal {

QueryResult::QueryResult() : impl_(std::make_unique<Impl>()) {}
QueryResult::~QueryResult() = default;
QueryResult::QueryResult(QueryResult&&) noexcept = default;
QueryResult& QueryResult::operator=(QueryResult&&) noexcept = default;
QueryResult::QueryResult(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

int QueryResult::num_columns() const { return static_cast<int>(impl_->schema->size()); }

int64_t QueryResult::num_rows() const {
  int64_t n = 0;
  for (const auto& b : impl_->batches) n += b->num_rows;
  return n;
}

const std::string& QueryResult::column_name(int i) const { return impl_->schema->fields[i].name; }
std::string QueryResult::column_type(int i) const { return impl_->schema->fields[i].type->ToString(); }

int64_t QueryResult::RowBatch(int64_t* row) const {
  auto& starts = impl_->batch_starts;
  if (starts.size() != impl_->batches.size()) {
    starts.clear();
    int64_t s = 0;
    for (const auto& b : impl_->batches) {
      starts.push_back(s);
      s += b->num_rows;
    }
  }
  auto it = std::upper_bound(starts.begin(), starts.end(), *row);
  int64_t b = (it - starts.begin()) - 1;
  *row -= starts[b];
  return b;
}

bool QueryResult::IsNull(int64_t row, int col) const {
  int64_t b = RowBatch(&row);
  return impl_->batches[b]->columns[col]->IsNull(row);
}

std::string QueryResult::GetText(int64_t row, int col) const {
  int64_t b = RowBatch(&row);
  return columnar::TextOf(*impl_->batches[b]->columns[col], row, impl_->zone);
}

std::string QueryResult::GetJson(int64_t row, int col) const {
  int64_t b = RowBatch(&row);
  std::string s;
  columnar::AppendJson(*impl_->batches[b]->columns[col], row, &s, impl_->zone);
  return s;
}

const columnar::TimeZone* QueryResult::time_zone() const { return impl_->zone; }

const std::string& QueryResult::statement_type() const { return impl_->statement_type; }
const ScanMetrics& QueryResult::metrics() const { return impl_->metrics; }
const std::shared_ptr<const columnar::Schema>& QueryResult::schema() const { return impl_->schema; }
const std::vector<std::shared_ptr<columnar::RecordBatch>>& QueryResult::batches() const {
  return impl_->batches;
}

QueryResult MakeQueryResult(std::shared_ptr<const columnar::Schema> schema,
                            std::vector<std::shared_ptr<columnar::RecordBatch>> batches,
                            std::string statement_type, ScanMetrics metrics) {
  auto impl = std::make_unique<QueryResult::Impl>();
  impl->schema = std::move(schema);
  for (auto& b : batches) {
    if (b && b->num_rows > 0) impl->batches.push_back(std::move(b));
  }
  impl->statement_type = std::move(statement_type);
  impl->metrics = metrics;
  return QueryResult(std::move(impl));
}

const char* Version() { return "shoal 0.1.0"; }

}  // namespace shoal
