#include "sql/session/session.h"

#include <cctype>
#include <chrono>
#include <map>
#include <mutex>

#include "sql/binder/binder.h"
#include "sql/binder/catalog.h"
#include "sql/session/database_impl.h"
#include "sql/execution/executor.h"
#include "sql/optimizer/optimizer.h"
#include "sql/execution/physical_planner.h"
#include "sql/execution/statement_progress.h"
#include "sql/session/query_result_impl.h"

namespace shoal::sql {

namespace {

using Handler = Result<QueryResult> (Session::*)(const Statement&);

// Statement kinds with an implementation; the rest report NotSupported.
const std::map<StatementKind, Handler>& Handlers() {
  static const std::map<StatementKind, Handler> handlers = {
      {StatementKind::kSelect, &Session::RunSelect},
      {StatementKind::kExplain, &Session::RunExplain},
      {StatementKind::kSet, &Session::RunSet},
      {StatementKind::kReset, &Session::RunReset},
      {StatementKind::kShowTables, &Session::RunShowTables},
      {StatementKind::kShowSetting, &Session::RunShowSetting},
      {StatementKind::kCreateTable, &Session::RunCreateTable},
      {StatementKind::kDropTable, &Session::RunDropTable},
      {StatementKind::kCreateView, &Session::RunCreateView},
      {StatementKind::kDropView, &Session::RunDropView},
      {StatementKind::kDescribe, &Session::RunDescribe},
      {StatementKind::kInsert, &Session::RunInsert},
      {StatementKind::kTransaction, &Session::RunTransaction},
      {StatementKind::kAlterTable, &Session::RunAlterTable},
      {StatementKind::kVacuum, &Session::RunVacuum},
      {StatementKind::kRestore, &Session::RunRestore},
      {StatementKind::kCopy, &Session::RunCopy},
      {StatementKind::kDelete, &Session::RunDelete},
      {StatementKind::kUpdate, &Session::RunUpdate},
      {StatementKind::kMerge, &Session::RunMerge},
      {StatementKind::kOptimize, &Session::RunOptimize},
      {StatementKind::kReorg, &Session::RunReorg},
      {StatementKind::kCheckpoint, &Session::RunCheckpoint},
  };
  return handlers;
}

int64_t NowMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::string StatementTypeName(const Statement& s) {
  switch (s.kind) {
    case StatementKind::kSelect: return "SELECT";
    case StatementKind::kExplain: return "EXPLAIN";
    case StatementKind::kCreateTable: return "CREATE TABLE";
    case StatementKind::kDropTable: return "DROP TABLE";
    case StatementKind::kShowTables: return "SHOW TABLES";
    case StatementKind::kShowSetting:
      return "SHOW";
    case StatementKind::kCreateView: return "CREATE VIEW";
    case StatementKind::kDropView: return "DROP VIEW";
    case StatementKind::kDescribe: return "DESCRIBE";
    case StatementKind::kInsert: return "INSERT";
    case StatementKind::kDelete: return "DELETE";
    case StatementKind::kUpdate: return "UPDATE";
    case StatementKind::kMerge: return "MERGE";
    case StatementKind::kOptimize: return "OPTIMIZE";
    case StatementKind::kReorg: return "REORG";
    case StatementKind::kVacuum: return "VACUUM";
    case StatementKind::kCheckpoint: return "CHECKPOINT";
    case StatementKind::kRestore: return "RESTORE";
    case StatementKind::kAlterTable: return "ALTER TABLE";
    case StatementKind::kSet: return "SET";
    case StatementKind::kReset: return "RESET";
    case StatementKind::kCopy: return "COPY";
    case StatementKind::kTransaction:
      switch (s.As<TransactionStatement>().transaction_kind) {
        case TransactionStatement::Kind::kBegin: return "BEGIN";
        case TransactionStatement::Kind::kCommit: return "COMMIT";
        case TransactionStatement::Kind::kRollback: return "ROLLBACK";
        case TransactionStatement::Kind::kPrepare: return "PREPARE TRANSACTION";
        case TransactionStatement::Kind::kCommitPrepared: return "COMMIT PREPARED";
        case TransactionStatement::Kind::kRollbackPrepared: return "ROLLBACK PREPARED";
      }
  }
  return "UNKNOWN";
}

Result<QueryResult> Session::Run(const Statement& statement) {
  auto start = std::chrono::steady_clock::now();
  // Expressions bound for this statement take the session zone (expr.h: ScopedTimeZone).
  expr::ScopedTimeZone zone_scope(time_zone());
  auto it = Handlers().find(statement.kind);
  if (it == Handlers().end()) {
    return Status::NotSupported(StatementTypeName(statement) + " is not supported yet");
  }
  bool txn_statement = statement.kind == StatementKind::kTransaction;
  if (failed_ && !txn_statement) {
    return Status::Transaction("current transaction is aborted, commands ignored until end of transaction block");
  }
  progress_.reset();
  auto r = (this->*(it->second))(statement);
  progress_.reset();
  DropUsedRelations();
  // Reads speculated for this statement's lookups and never asked for are not the next one's.
  db_->fs->DropSpeculation();
  // A handler that returned with writes still open abandons them (error) or is a bug.
  if (!writes_.empty()) {
    Status st = r.ok() ? Status::Internal(StatementTypeName(statement) + " ended without ending its table write")
                       : r.status();
    while (!writes_.empty()) AbortTableWrite(writes_.back().write.get(), st);
    if (r.ok()) r = Result<QueryResult>(st);
  }
  if (!r.ok()) {
    if (in_transaction_ && !txn_statement && !failed_) failed_ = r.status();
    return r.status();
  }
  auto& m = r->impl().metrics;
  m.elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  m.rows_returned = r->num_rows();
  r->impl().statement_type = StatementTypeName(statement);
  r->impl().zone = time_zone();
  return r;
}

std::optional<std::string> Session::Setting(const std::string& key) const {
  auto it = settings_.find(key);
  if (it == settings_.end()) return std::nullopt;
  return it->second;
}

void Session::InitContext(ExecContext* ctx) const {
  ctx->batch_size = db_->options.batch_size > 0 ? db_->options.batch_size : 2048;
  ctx->threads = db_->threads;
  ctx->pool = db_->pool.get();
  ctx->interrupted = interrupted_;
  ctx->statement_timestamp = NowMicros();
  ctx->memory = db_->memory;
  ctx->spill = db_->spill;
  if (auto prewhere = Setting("shoal.prewhere")) {
    auto mode = ParsePrewhereMode(*prewhere);  // validated by SET
    if (mode.ok()) ctx->prewhere = *mode;
  }
  if (auto rf = Setting("shoal.runtime_filters")) ctx->runtime_filters = *rf != "off";
  if (auto coded = Setting("shoal.coded_strings")) ctx->coded_strings = *coded != "off";
  ctx->progress = NewProgress();
}

std::shared_ptr<StatementProgress> Session::NewProgress() const {
  auto enabled = Setting("enable_progress_bar");
  if (!db_->options.progress || (enabled && *enabled == "false")) return nullptr;
  if (!progress_) progress_ = std::make_shared<StatementProgress>(db_->options.progress);
  return progress_;
}

std::function<void(int64_t done, int64_t planned)> Session::LoadProgress() const {
  std::shared_ptr<StatementProgress> progress = NewProgress();
  if (!progress) return {};
  // The phase is added at the first report, when the log's size (its weight) is known; reports
  // come from the commit readers too.
  struct Load {
    std::mutex mu;
    std::function<void(int64_t, int64_t)> report;  // guarded by mu until set
  };
  auto load = std::make_shared<Load>();
  return [progress, load](int64_t done, int64_t planned) {
    std::function<void(int64_t, int64_t)>* report = nullptr;
    {
      std::lock_guard<std::mutex> lock(load->mu);
      if (!load->report) {
        load->report = PhaseReporter(progress, progress->AddOpeningPhase(static_cast<double>(planned), "loading log"));
      }
      report = &load->report;
    }
    (*report)(done, planned);
  };
}

Result<PhysicalPtr> Session::PlanQuery(const QueryNode& query, ExecContext& ctx, columnar::SchemaPtr* schema) {
  OptimizerOptions options;
  if (auto join_order = Setting("shoal.join_order")) options.reorder_joins = *join_order != "off";
  if (auto optimizer = Setting("shoal.optimizer")) options.rewrite = *optimizer != "off";
  auto run_subquery = [&ctx, options](LogicalPtr plan) -> Result<std::vector<columnar::BatchPtr>> {
    ASSIGN_OR_RETURN(plan, Optimize(std::move(plan), options));
    ASSIGN_OR_RETURN(PhysicalPtr phys, CreatePhysicalPlan(*plan));
    return Executor(&ctx).Run(phys.get());
  };
  Binder binder(run_subquery);
  Catalog catalog = MakeCatalog();
  binder.set_catalog(&catalog);
  ASSIGN_OR_RETURN(LogicalPtr plan, binder.BindQuery(query));
  *schema = plan->Schema();
  ASSIGN_OR_RETURN(plan, Optimize(std::move(plan), options));
  return CreatePhysicalPlan(*plan);
}

Result<Session::OpenedQuery> Session::OpenSelect(const Statement& statement) {
  if (statement.kind != StatementKind::kSelect) return Status::Internal("OpenSelect of a statement that is not a SELECT");
  if (failed_) {
    return Status::Transaction("current transaction is aborted, commands ignored until end of transaction block");
  }
  expr::ScopedTimeZone zone_scope(time_zone());
  OpenedQuery q;
  q.ctx = std::make_unique<ExecContext>();
  progress_.reset();
  InitContext(q.ctx.get());
  auto opened = [&]() -> Status {
    ASSIGN_OR_RETURN(q.plan, PlanQuery(*statement.As<SelectStatement>().query, *q.ctx, &q.schema));
    ASSIGN_OR_RETURN(q.stream, PlanStream::Open(q.ctx.get(), q.plan.get()));
    return Status::OK();
  }();
  progress_.reset();  // the stream's context holds it until the end
  DropUsedRelations();
  if (!opened.ok()) {
    if (in_transaction_ && !failed_) failed_ = opened;
    return opened;
  }
  return q;
}

void Session::FailTransaction(const Status& error) {
  if (in_transaction_ && !failed_ && !error.ok()) failed_ = error;
}

void Session::RegisterStatementRelation(const std::string& name, std::shared_ptr<const TableSource> source) {
  relations_[Lower(name)] = Relation{std::move(source), false};
}

void Session::DropUsedRelations() {
  for (auto it = relations_.begin(); it != relations_.end();) {
    it = it->second.used ? relations_.erase(it) : std::next(it);
  }
}

Result<QueryResult> Session::RunSelect(const Statement& s) {
  ExecContext ctx;
  InitContext(&ctx);
  columnar::SchemaPtr schema;
  ASSIGN_OR_RETURN(PhysicalPtr plan, PlanQuery(*s.As<SelectStatement>().query, ctx, &schema));
  MemoryReservation result_memory;
  ASSIGN_OR_RETURN(auto batches, Executor(&ctx).Run(plan.get(), &result_memory));
  QueryResult r = MakeQueryResult(schema, std::move(batches), "SELECT", ctx.scan_metrics);
  r.impl().memory = std::move(result_memory);
  return r;
}

}  // namespace shoal::sql
