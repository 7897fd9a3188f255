// range(stop) / range(start, stop[, step]) (exclusive stop) and generate_series (inclusive),
// producing one BIGINT column named after the function.
#include <atomic>
#include <limits>

#include "sql/functions/table_function.h"

namespace shoal::sql {

namespace {

using columnar::Value;

class RangeScan : public Scan {
 public:
  RangeScan(int64_t start, int64_t step, int64_t count, int batch_size, int64_t limit,
            columnar::SchemaPtr schema, bool project_none)
      : start_(start), step_(step), count_(limit >= 0 ? std::min(count, limit) : count),
        batch_size_(batch_size), schema_(std::move(schema)), project_none_(project_none) {}

  Result<bool> Next(ScanLocalState*, columnar::BatchPtr* out, uint64_t* order) override {
    int64_t b = next_.fetch_add(1, std::memory_order_relaxed);
    int64_t first = b * batch_size_;
    if (first >= count_) return false;
    int64_t n = std::min<int64_t>(batch_size_, count_ - first);
    std::vector<columnar::VectorPtr> cols;
    if (!project_none_) {
      auto v = columnar::Vector::Make(columnar::Int64(), n);
      v->Resize(n);
      int64_t* d = v->data<int64_t>();
      // Wrapping arithmetic: the values themselves are in range by construction.
      uint64_t x = static_cast<uint64_t>(start_) + static_cast<uint64_t>(first) * static_cast<uint64_t>(step_);
      for (int64_t i = 0; i < n; ++i) {
        d[i] = static_cast<int64_t>(x);
        x += static_cast<uint64_t>(step_);
      }
      cols.push_back(std::move(v));
    }
    *out = std::make_shared<columnar::RecordBatch>(schema_, std::move(cols), n);
    *order = static_cast<uint64_t>(b);
    produced_.fetch_add(n, std::memory_order_relaxed);
    return true;
  }

  ScanMetrics metrics() const override {
    ScanMetrics m;
    m.rows_scanned = produced_.load();
    return m;
  }
  WorkProgress progress() const override { return {produced_.load(std::memory_order_relaxed), count_}; }

 private:
  int64_t start_, step_, count_;
  int batch_size_;
  columnar::SchemaPtr schema_;
  bool project_none_;
  std::atomic<int64_t> next_{0};
  std::atomic<int64_t> produced_{0};
};

class RangeSource : public TableSource {
 public:
  RangeSource(std::string name, int64_t start, int64_t stop, int64_t step, bool inclusive)
      : name_(std::move(name)), start_(start), stop_(stop), step_(step) {
    // Spark names range's column `id`; generate_series (DuckDB's) names it after itself.
    schema_.fields.push_back({name_ == "range" ? "id" : name_, columnar::Int64(), false});
    // Row count without overflow: work in unsigned 128-bit.
    __int128 span = static_cast<__int128>(stop) - start;
    __int128 st = step;
    __int128 n = 0;
    if ((st > 0 && span > 0) || (st < 0 && span < 0)) {
      n = (span + st + (st > 0 ? -1 : 1)) / st;  // ceil(span / step)
      if (inclusive && span % st == 0) n += 1;
    } else if (inclusive && span == 0) {
      n = 1;
    }
    count_ = static_cast<int64_t>(std::min<__int128>(n, std::numeric_limits<int64_t>::max()));
  }

  const columnar::Schema& schema() const override { return schema_; }
  std::string ToString() const override {
    return name_ + "(" + std::to_string(start_) + ", " + std::to_string(stop_) + ", " +
           std::to_string(step_) + ")";
  }
  std::optional<int64_t> EstimatedRows() const override { return count_; }
  std::optional<ColumnStats> ColumnStatistics(int column) const override {
    if (column != 0 || count_ == 0) return std::nullopt;
    // The values are distinct; the last is start + (count - 1) * step (wrapping as the scan does).
    int64_t last = static_cast<int64_t>(static_cast<uint64_t>(start_) +
                                        static_cast<uint64_t>(count_ - 1) * static_cast<uint64_t>(step_));
    ColumnStats s;
    s.min = columnar::Value::Int64(std::min(start_, last));
    s.max = columnar::Value::Int64(std::max(start_, last));
    s.null_count = 0;
    s.distinct_count = static_cast<double>(count_);
    return s;
  }

  Result<std::unique_ptr<Scan>> Open(const ScanRequest& request) const override {
    auto out = std::make_shared<columnar::Schema>();
    for (int c : request.columns) out->fields.push_back(schema_.fields.at(c));
    return std::unique_ptr<Scan>(new RangeScan(start_, step_, count_, request.batch_size,
                                               request.limit_hint, out, request.columns.empty()));
  }

 private:
  std::string name_;
  int64_t start_, stop_, step_;
  int64_t count_ = 0;
  columnar::Schema schema_;
};

Result<int64_t> IntArg(const std::string& fn, const Value& v) {
  if (v.is_null()) return Status::InvalidArgument(fn + ": arguments must not be NULL");
  if (!v.type()->IsInteger()) {
    return Status::Binder(fn + ": arguments must be integers, got " + v.type()->ToString());
  }
  if (v.type()->id() == columnar::TypeId::kUInt64) {
    if (v.GetUInt() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return Status::OutOfRange(fn + ": argument out of BIGINT range");
    }
    return static_cast<int64_t>(v.GetUInt());
  }
  return v.GetInt();
}

Result<std::shared_ptr<const TableSource>> BindRangeLike(const std::string& name, bool inclusive,
                                                         const TableFunctionArgs& args) {
  const auto& a = args.positional;
  if (!args.named.empty()) return Status::Binder(name + " takes no named arguments");
  if (a.empty() || a.size() > 3) {
    return Status::Binder("No function matches " + name + " with " + std::to_string(a.size()) +
                          " arguments. Candidates: " + name + "(BIGINT), " + name +
                          "(BIGINT, BIGINT), " + name + "(BIGINT, BIGINT, BIGINT)");
  }
  std::vector<int64_t> v;
  for (const auto& x : a) {
    ASSIGN_OR_RETURN(int64_t i, IntArg(name, x));
    v.push_back(i);
  }
  int64_t start = 0, stop = 0, step = 1;
  if (v.size() == 1) {
    stop = v[0];
  } else {
    start = v[0];
    stop = v[1];
    if (v.size() == 3) step = v[2];
  }
  if (step == 0) return Status::InvalidArgument(name + ": step must not be zero");
  return std::shared_ptr<const TableSource>(new RangeSource(name, start, stop, step, inclusive));
}

Result<std::shared_ptr<const TableSource>> BindRange(const TableFunctionArgs& args) {
  return BindRangeLike("range", false, args);
}
Result<std::shared_ptr<const TableSource>> BindGenerateSeries(const TableFunctionArgs& args) {
  return BindRangeLike("generate_series", true, args);
}

}  // namespace

void RegisterRangeFunctions(TableFunctionRegistry* r) {
  r->Add({"range", "range(BIGINT[, BIGINT[, BIGINT]])", &BindRange});
  r->Add({"generate_series", "generate_series(BIGINT[, BIGINT[, BIGINT]])", &BindGenerateSeries});
}

}  // namespace shoal::sql
