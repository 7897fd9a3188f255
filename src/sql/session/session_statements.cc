// Session handlers for EXPLAIN and SHOW TABLES (tables and views).
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>

#include "sql/binder/view_catalog.h"
#include "sql/session/database_impl.h"
#include "sql/execution/executor.h"
#include "sql/execution/explain_analyze.h"
#include "sql/session/query_result_impl.h"
#include "sql/session/session.h"

namespace shoal::sql {

namespace {

// A result of one STRING column with one row per line.
QueryResult LinesResult(const std::string& column, const std::vector<std::string>& lines) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields.push_back({column, columnar::String(), false});
  auto v = columnar::Vector::Make(columnar::String(), static_cast<int64_t>(lines.size()));
  for (const auto& l : lines) v->AppendString(l);
  std::vector<std::shared_ptr<columnar::RecordBatch>> batches;
  batches.push_back(std::make_shared<columnar::RecordBatch>(schema, std::vector<columnar::VectorPtr>{v},
                                                            static_cast<int64_t>(lines.size())));
  return MakeQueryResult(schema, std::move(batches), "");
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string::npos) nl = text.size();
    out.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return out;
}

}  // namespace

Result<QueryResult> Session::RunExplain(const Statement& s) {
  const auto& e = s.As<ExplainStatement>();
  if (e.statement->kind != StatementKind::kSelect) {
    return Status::NotSupported("EXPLAIN " + StatementTypeName(*e.statement) + " is not supported yet");
  }
  ExecContext ctx;
  InitContext(&ctx);
  columnar::SchemaPtr schema;
  auto start = std::chrono::steady_clock::now();
  ASSIGN_OR_RETURN(PhysicalPtr plan, PlanQuery(*e.statement->As<SelectStatement>().query, ctx, &schema));
  if (!e.analyze) return LinesResult("explain", SplitLines(PlanToString(*plan, false)));
  ASSIGN_OR_RETURN(auto batches, Executor(&ctx).Run(plan.get()));
  int64_t rows = 0;
  for (const auto& b : batches) rows += b->num_rows;
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::vector<std::string> lines = SplitLines(PlanToString(*plan, true));
  char buf[128];
  std::snprintf(buf, sizeof(buf), "Total: rows=%lld time=%.3fms threads=%d", static_cast<long long>(rows), ms,
                ctx.threads);
  lines.push_back(buf);
  ScanMetrics m = ctx.scan_metrics;
  m.rows_returned = rows;
  m.elapsed_ms = static_cast<int64_t>(ms);
  for (std::string& l : PruningReport(m)) lines.push_back(std::move(l));
  lines.push_back("ScanMetrics: " + m.ToJson());
  return LinesResult("explain", lines);
}

Result<QueryResult> Session::RunShowTables(const Statement&) {
  ASSIGN_OR_RETURN(auto entries, db_->fs->List(db_->dir));
  std::vector<std::string> names;
  for (const auto& e : entries) {
    if (!e.is_dir) continue;
    ASSIGN_OR_RETURN(bool is_table, db_->fs->Exists(io::JoinPath(io::JoinPath(db_->dir, e.name), "_delta_log")));
    if (is_table) names.push_back(e.name);
  }
  ASSIGN_OR_RETURN(std::vector<std::string> views, ListViews(*db_->fs, db_->dir));
  names.insert(names.end(), views.begin(), views.end());
  // This connection's temporary views too; one shadows a table or view of the same name.
  for (const auto& [key, view] : temp_views_) {
    const std::string& lower = key;  // clang cannot capture a structured binding
    auto same = [&lower](const std::string& n) { return Lower(n) == lower; };
    names.erase(std::remove_if(names.begin(), names.end(), same), names.end());
    names.push_back(view.name);
  }
  std::sort(names.begin(), names.end());
  return LinesResult("name", names);
}

}  // namespace shoal::sql
