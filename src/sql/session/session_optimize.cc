// Session handlers for OPTIMIZE [WHERE partition_pred] [ZORDER BY (cols)] and
// REORG TABLE t [WHERE partition_pred] APPLY (PURGE) (doc/optimize.md). Each runs as one
// TableWrite (operation "OPTIMIZE" / "REORG") and returns one row: the table path and Delta's
// metrics object as JSON text.
#include "delta/table_path.h"
#include "sql/session/database_impl.h"
#include "sql/session/maintenance_result.h"
#include "sql/session/maintenance_statement.h"
#include "sql/session/query_result_impl.h"
#include "sql/execution/statement_progress.h"
#include "sql/session/session.h"
#include "sql/binder/table_expression.h"
#include "table/log_compaction.h"
#include "table/optimize.h"

namespace shoal::sql {

namespace {

QueryResult MetricsResult(const std::string& path, const table::OptimizeMetrics& metrics, const std::string& type) {
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"path", columnar::String(), false}, {"metrics", columnar::String(), false}};
  auto p = columnar::Vector::Make(columnar::String(), 1);
  p->AppendString(path);
  auto m = columnar::Vector::Make(columnar::String(), 1);
  m->AppendString(metrics.ToJson());
  auto batch = std::make_shared<columnar::RecordBatch>(schema, std::vector<columnar::VectorPtr>{p, m}, 1);
  return MakeQueryResult(schema, {batch}, type);
}

std::vector<std::string> PredicateTexts(const ParsedExpression* where) {
  std::vector<std::string> out;
  if (where) out.push_back(where->ToString());
  return out;
}

}  // namespace

// Shared body of OPTIMIZE and REORG: binds the partition predicate, rewrites, stages and ends
// the write (a run with nothing to rewrite commits nothing in auto-commit mode, as in Delta).
static Result<QueryResult> RunRewrite(Session* session, bool in_transaction, const TableName& name,
                                      const ParsedExpression* where, const std::vector<std::string>& zorder_by,
                                      bool purge) {
  std::vector<std::string> predicates = PredicateTexts(where);
  delta::Json params = purge ? table::ReorgOperationParameters(predicates)
                             : table::OptimizeOperationParameters(predicates, zorder_by);
  const char* operation = purge ? "REORG" : "OPTIMIZE";
  ASSIGN_OR_RETURN(TableWrite * w, session->BeginTableWrite(name, operation, std::move(params)));
  std::shared_ptr<StatementProgress> progress = session->NewProgress();
  const int phase = progress ? progress->AddPhase(1, operation) : -1;
  auto body = [&]() -> Result<table::OptimizeResult> {
    table::OptimizeOptions options;
    options.zorder_by = zorder_by;
    if (progress) {
      options.progress = [&progress, phase](int64_t done, int64_t planned) { progress->SetWork(phase, done, planned); };
    }
    if (where) {
      ASSIGN_OR_RETURN(options.partition_filter, BindTableExpression(where->ToString(), w->table->schema()->schema));
    }
    if (w->already_committed) return table::OptimizeResult{};
    ASSIGN_OR_RETURN(table::OptimizeResult r, purge ? table::PurgeDeletionVectors(*w->table, w->txn, options)
                                                    : table::OptimizeTable(*w->table, w->txn, options));
    for (const delta::AddFile& a : r.added) {
      ASSIGN_OR_RETURN(std::string full, delta::ResolveTablePath(w->root, a.path));
      w->staged_files.push_back(std::move(full));
    }
    return r;
  };
  Result<table::OptimizeResult> r = body();
  if (progress && r.ok()) {
    progress->CompletePhase(phase);
    progress->ReportIfComplete();
  }
  if (!r.ok()) {
    session->AbortTableWrite(w, r.status());
    return r.status();
  }
  std::string path = w->root;
  bool nothing = r->metrics.num_files_removed == 0 && r->metrics.num_files_added == 0;
  if (nothing && !in_transaction) {
    session->AbortTableWrite(w, Status::OK());
  } else {
    auto committed = session->EndTableWrite(w);
    if (!committed.ok()) return committed.status();
  }
  return MetricsResult(path, r->metrics, operation);
}

// OPTIMIZE t COMPACT LOG [FROM VERSION x] [TO VERSION y]: one row (path, start_version,
// end_version, actions) naming the compaction file written; no commit.
Result<QueryResult> Session::RunOptimize(const Statement& st) {
  const auto& s = st.As<OptimizeStatement>();
  if (s.compact_log) {
    if (in_transaction()) {
      return Status::NotSupported("OPTIMIZE ... COMPACT LOG inside a transaction: it writes no commit");
    }
    ASSIGN_OR_RETURN(auto latest, OpenMaintenanceTable(*db_, s.table, LoadProgress()));
    std::shared_ptr<StatementProgress> progress = NewProgress();
    std::function<void(int64_t, int64_t)> report;
    if (progress) report = PhaseReporter(progress, progress->AddPhase(1, "COMPACT LOG"));
    ASSIGN_OR_RETURN(table::LogCompactionInfo info, table::WriteLogCompaction(db_->fs, latest->snapshot()->table_root(),
                                                                               s.log_from, s.log_to, report));
    ResultRows rows;
    rows.AddColumn("path", columnar::String());
    rows.AddColumn("start_version", columnar::Int64());
    rows.AddColumn("end_version", columnar::Int64());
    rows.AddColumn("actions", columnar::Int64());
    rows.AddRow({columnar::Value::String(info.path), columnar::Value::Int64(info.start_version),
                 columnar::Value::Int64(info.end_version), columnar::Value::Int64(info.num_actions)});
    return rows.Build();
  }
  return RunRewrite(this, in_transaction(), s.table, s.where.get(), s.zorder_by, /*purge=*/false);
}

Result<QueryResult> Session::RunReorg(const Statement& st) {
  const auto& s = st.As<ReorgStatement>();
  return RunRewrite(this, in_transaction(), s.table, s.where.get(), {}, /*purge=*/true);
}

}  // namespace shoal::sql
