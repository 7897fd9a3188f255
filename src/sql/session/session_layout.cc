// Session handler for DESCRIBE LAYOUT t (doc/local_sort.md "Automatic choice"): one row per
// fact, columns (property, value): the explicit and effective LocalSort keys, the persisted
// automatic key, the recommendation with its score and expected skipped fraction, and per
// frequent query shape its count, selectivity and the rows/bytes the recommended key is
// expected to skip per query; whether those figures were measured on a sample of the table's
// rows or modelled, and whether the recommendation is to keep the current order.
#include <cstdio>

#include "sql/session/database_impl.h"
#include "sql/session/maintenance_result.h"
#include "sql/session/maintenance_statement.h"
#include "sql/session/session.h"
#include "table/layout_choice.h"

namespace shoal::sql {

namespace {

constexpr size_t kShapesShown = 10;

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

Result<QueryResult> Session::RunDescribeLayout(const Statement& s) {
  const auto& d = s.As<DescribeStatement>();
  ASSIGN_OR_RETURN(auto table, OpenMaintenanceTable(*db_, d.name, LoadProgress()));
  ASSIGN_OR_RETURN(table::LayoutReport r, table::EvaluateLayout(db_->fs, *table->snapshot(), *table->schema()));
  ResultRows rows;
  rows.AddColumn("property", columnar::String());
  rows.AddColumn("value", columnar::String());
  auto add = [&](const std::string& k, const std::string& v) {
    rows.AddRow({columnar::Value::String(k), columnar::Value::String(v)});
  };
  add("auto", r.props.local_sort_auto ? "true" : "false");
  add("explicit_key", r.explicit_key.ToString());
  add("persisted_auto_key", r.persisted ? r.persisted->key.ToString() : "none");
  add("current_key", r.effective.ToString());
  add("table_rows", std::to_string(r.stats.rows));
  add("table_bytes", std::to_string(r.stats.bytes));
  add("history_queries", Num(r.history.total_count));
  add("history_shapes", std::to_string(r.history.shapes.size()));
  add("advice_source", r.sample_rows > 0 ? "sample-measured (" + std::to_string(r.sample_rows) + " rows, " +
                                              std::to_string(r.sample_granule_rows) + " per granule)"
                                        : "modelled");
  add("current_score", Num(r.advice.current.score));
  add("current_skipped_fraction", Num(r.advice.current.skipped_fraction));
  if (!r.recommendation) {
    add("recommended_key", "none");
    add("recommended_reason", r.history.total_count < table::AdvisorOptions{}.min_history
                                  ? "too few recorded queries"
                                  : "no sort key skips data for this workload");
  } else {
    const table::KeyScore& k = *r.recommendation;
    add("recommended_key", k.key.ToString());
    if (k.current_order) add("recommended_reason", "keep the current order: no key is measured to beat it");
    add("recommended_score", Num(k.score));
    add("recommended_skipped_fraction", Num(k.skipped_fraction));
    add("recommended_storage_ratio", Num(k.storage_ratio));
    for (size_t i = 0; i < k.shapes.size() && i < kShapesShown; ++i) {
      const table::ShapeBenefit& b = k.shapes[i];
      add("shape " + b.shape,
          "count=" + Num(b.count) + " selectivity=" + Num(b.selectivity) + " read_fraction=" + Num(b.read_fraction) +
              (b.measured ? " (measured)" : " (modelled)") +
              " skipped_rows=" + Num(b.skipped_rows) + " skipped_bytes=" + Num(b.skipped_bytes));
    }
  }
  for (size_t i = 1; i < r.advice.ranked.size() && i < 4; ++i) {
    add("alternative_" + std::to_string(i), r.advice.ranked[i].key.ToString() + " score=" + Num(r.advice.ranked[i].score));
  }
  return rows.Build();
}

}  // namespace shoal::sql
