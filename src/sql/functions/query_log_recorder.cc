#include "sql/functions/query_log_recorder.h"

#include <atomic>
#include <cctype>
#include <chrono>

namespace shoal::sql {

namespace {

bool EqualsLower(std::string_view a, std::string_view lower) {
  if (a.size() != lower.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != lower[i]) return false;
  }
  return true;
}

// The table column a (possibly cast) column reference reads, or -1.
int ColumnOf(const expr::ExprPtr& e, const std::vector<int>& columns) {
  const expr::Expr* x = e.get();
  while (x && x->kind == expr::ExprKind::kCast && !x->args.empty()) x = x->args[0].get();
  if (!x || x->kind != expr::ExprKind::kColumnRef) return -1;
  if (x->column < 0 || static_cast<size_t>(x->column) >= columns.size()) return -1;
  return columns[static_cast<size_t>(x->column)];
}

bool IsConstant(const expr::ExprPtr& e) {
  const expr::Expr* x = e.get();
  while (x && x->kind == expr::ExprKind::kCast && !x->args.empty()) x = x->args[0].get();
  return x && x->kind == expr::ExprKind::kLiteral;
}

void AddTerms(const expr::ExprPtr& e, const std::vector<int>& columns, const scan::TableSchema& schema,
              table::QueryShape* out) {
  if (!e) return;
  auto add = [&](int c, table::PredicateClass op) {
    if (c < 0 || static_cast<size_t>(c) >= schema.columns.size()) return;
    out->terms.push_back(table::ShapeTerm{schema.columns[static_cast<size_t>(c)].name, op});
  };
  switch (e->kind) {
    case expr::ExprKind::kAnd:
      for (const auto& a : e->args) AddTerms(a, columns, schema, out);
      return;
    case expr::ExprKind::kIsNull:
      if (!e->negated && !e->args.empty()) add(ColumnOf(e->args[0], columns), table::PredicateClass::kIsNull);
      return;
    case expr::ExprKind::kIn: {
      if (e->negated || e->args.empty()) return;
      for (size_t i = 1; i < e->args.size(); ++i) {
        if (!IsConstant(e->args[i])) return;
      }
      add(ColumnOf(e->args[0], columns), table::PredicateClass::kEq);
      return;
    }
    case expr::ExprKind::kLike: {
      if (e->negated || e->case_insensitive || e->args.size() < 2 || !e->args[1]->IsLiteral()) return;
      const columnar::Value& p = e->args[1]->value;
      if (p.is_null() || !p.type()->IsStringLike()) return;
      const std::string& text = p.GetString();
      if (text.empty() || text[0] == '%' || text[0] == '_') return;
      add(ColumnOf(e->args[0], columns), text.find_first_of("%_") == std::string::npos ? table::PredicateClass::kEq
                                                                                      : table::PredicateClass::kPrefix);
      return;
    }
    case expr::ExprKind::kFunction: {
      if (e->args.size() != 2) return;
      const std::string& f = e->name;
      bool eq = f == "=";
      bool range = f == "<" || f == "<=" || f == ">" || f == ">=";
      bool prefix = f == "starts_with";
      if (!eq && !range && !prefix) return;
      int c = -1;
      if (IsConstant(e->args[1])) c = ColumnOf(e->args[0], columns);
      else if (IsConstant(e->args[0]) && !prefix) c = ColumnOf(e->args[1], columns);
      add(c, eq ? table::PredicateClass::kEq : range ? table::PredicateClass::kRange : table::PredicateClass::kPrefix);
      return;
    }
    default:
      return;
  }
}

class RecordingScan final : public Scan {
 public:
  RecordingScan(std::unique_ptr<Scan> inner, std::shared_ptr<io::FileSystem> fs,
                std::shared_ptr<const scan::DeltaTable> table, table::QueryShape shape)
      : inner_(std::move(inner)), fs_(std::move(fs)), table_(std::move(table)), shape_(std::move(shape)) {}

  ~RecordingScan() override {
    if (!finished_.load()) return;  // stopped early (LIMIT, error): selectivity unknown
    ScanMetrics m = inner_->metrics();
    table::QueryLogEntry e;
    e.shape = shape_;
    e.rows_out = rows_out_.load();
    e.rows_total = table_->EstimatedRows().value_or(std::max(m.rows_scanned, e.rows_out));
    e.bytes_read = m.bytes_read;
    e.time_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
    (void)table::AppendQueryLogEntry(*fs_, table_->snapshot()->table_root(), e);  // never fails the query
  }

  std::unique_ptr<ScanLocalState> MakeLocal() override { return inner_->MakeLocal(); }
  WorkProgress progress() const override { return inner_->progress(); }
  Result<bool> Next(ScanLocalState* local, columnar::BatchPtr* out, uint64_t* order) override {
    ASSIGN_OR_RETURN(bool more, inner_->Next(local, out, order));
    if (more) {
      if (*out) rows_out_.fetch_add((*out)->num_rows, std::memory_order_relaxed);
    } else {
      finished_.store(true);
    }
    return more;
  }
  ScanMetrics metrics() const override { return inner_->metrics(); }

 private:
  std::unique_ptr<Scan> inner_;
  std::shared_ptr<io::FileSystem> fs_;
  std::shared_ptr<const scan::DeltaTable> table_;
  table::QueryShape shape_;
  std::atomic<int64_t> rows_out_{0};
  std::atomic<bool> finished_{false};
};

}  // namespace

bool QueryLogEnabled(const scan::DeltaTable& table) {
  for (const auto& [k, v] : table.snapshot()->metadata().configuration) {
    if (EqualsLower(k, "shoal.localsort.auto")) return EqualsLower(v, "true");
  }
  return false;
}

table::QueryShape ShapeOfFilters(const std::vector<expr::ExprPtr>& filters, const std::vector<int>& columns,
                                 const scan::TableSchema& schema) {
  table::QueryShape shape;
  for (const auto& f : filters) AddTerms(f, columns, schema, &shape);
  shape.Normalize();
  return shape;
}

std::unique_ptr<Scan> RecordQueryShape(std::unique_ptr<Scan> scan, std::shared_ptr<io::FileSystem> fs,
                                       std::shared_ptr<const scan::DeltaTable> table, const ScanRequest& request) {
  if (!fs || !table || request.filters.empty() || request.limit_hint >= 0 || !QueryLogEnabled(*table)) return scan;
  table::QueryShape shape = ShapeOfFilters(request.filters, request.columns, *table->schema());
  if (shape.terms.empty()) return scan;
  return std::make_unique<RecordingScan>(std::move(scan), std::move(fs), std::move(table), std::move(shape));
}

}  // namespace shoal::sql
