// Session: one connection's state (SET variables) and the statement dispatch — a table from
// statement kind to the function that runs it, so later layers plug in DML and DDL by adding
// entries. SELECT-like statements are bound, optimized, planned and executed here.
//
// Thread-safety: used by one thread at a time (its Connection's).
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "shoal/database.h"
#include "sql/parser/ast.h"
#include "sql/parser/lexer.h"
#include "sql/binder/catalog.h"
#include "sql/binder/logical_plan.h"
#include "sql/execution/executor.h"
#include "sql/execution/physical_operator.h"
#include "sql/write/table_write.h"
#include "sql/write/write_transaction.h"

namespace shoal::sql {

class Session {
 public:
  Session(Database::Impl* db, const std::atomic<bool>* interrupted) : db_(db), interrupted_(interrupted) {}

  // Runs one parsed statement.
  Result<QueryResult> Run(const Statement& statement);

  // A SELECT bound, optimized, planned and opened for streaming (RunSelect runs the same plan to
  // completion). Members are destroyed stream first, context last.
  struct OpenedQuery {
    std::unique_ptr<ExecContext> ctx;
    PhysicalPtr plan;
    columnar::SchemaPtr schema;
    std::unique_ptr<PlanStream> stream;
  };
  Result<OpenedQuery> OpenSelect(const Statement& statement);
  // Fails the explicit transaction with `error` (only ROLLBACK is accepted until it ends), as Run
  // does when a statement fails: for a SELECT opened by OpenSelect whose stream failed later.
  // Nothing outside a transaction or when it failed already.
  void FailTransaction(const Status& error);

  // Makes `source` readable as the one-part relation `name` (case-insensitive) until a statement
  // that names it ends (Connection::RegisterArrowStream); replaces an earlier one. It is found
  // before relations registered by RegisterRelation.
  void RegisterStatementRelation(const std::string& name, std::shared_ptr<const TableSource> source);

  // The value of a connection setting as SET stored it (validated and normalized; keys lower
  // case), or nullopt when it is not set. memory_limit is the database's, not stored here.
  std::optional<std::string> Setting(const std::string& key) const;
  // The session time zone: spark.sql.session.timeZone (SET TIME ZONE) or the database's default.
  const columnar::TimeZone* time_zone() const;
  // How this connection's SQL text is read (shoal.sql.doubleQuotedIdentifiers).
  LexOptions lex_options() const;

  // --- statement handlers (session.cc, session_statements.cc)
  Result<QueryResult> RunSelect(const Statement& s);
  Result<QueryResult> RunExplain(const Statement& s);
  Result<QueryResult> RunShowTables(const Statement& s);
  // SET, RESET and SHOW of settings (session_settings.cc)
  Result<QueryResult> RunSet(const Statement& s);
  Result<QueryResult> RunReset(const Statement& s);
  Result<QueryResult> RunShowSetting(const Statement& s);
  // DDL and INSERT (session_ddl.cc, session_insert.cc)
  Result<QueryResult> RunCreateTable(const Statement& s);
  Result<QueryResult> RunDropTable(const Statement& s);
  // CREATE VIEW, DROP VIEW (session_view.cc)
  Result<QueryResult> RunCreateView(const Statement& s);
  Result<QueryResult> RunDropView(const Statement& s);
  Result<QueryResult> RunDescribe(const Statement& s);
  Result<QueryResult> RunInsert(const Statement& s);
  // BEGIN / COMMIT / ROLLBACK / PREPARE TRANSACTION / COMMIT PREPARED / ROLLBACK PREPARED
  // (session_transaction.cc)
  Result<QueryResult> RunTransaction(const Statement& s);
  // ALTER TABLE, VACUUM, RESTORE, COPY (session_maintenance.cc)
  Result<QueryResult> RunAlterTable(const Statement& s);
  Result<QueryResult> RunVacuum(const Statement& s);
  Result<QueryResult> RunRestore(const Statement& s);
  Result<QueryResult> RunCopy(const Statement& s);
  // DESCRIBE HISTORY / DETAIL (session_maintenance.cc) and LAYOUT (session_layout.cc); RunDescribe
  // dispatches to them.
  Result<QueryResult> RunDescribeHistory(const Statement& s);
  Result<QueryResult> RunDescribeDetail(const Statement& s);
  Result<QueryResult> RunDescribeLayout(const Statement& s);
  // DELETE, UPDATE, MERGE (session_dml.cc, dml_*.cc); OPTIMIZE, REORG (session_optimize.cc)
  Result<QueryResult> RunDelete(const Statement& s);
  Result<QueryResult> RunUpdate(const Statement& s);
  Result<QueryResult> RunMerge(const Statement& s);
  Result<QueryResult> RunOptimize(const Statement& s);
  Result<QueryResult> RunReorg(const Statement& s);
  // CHECKPOINT t (session_checkpoint.cc)
  Result<QueryResult> RunCheckpoint(const Statement& s);

  // --- writes (sql/write/table_write.h; implemented in session_transaction.cc)
  // Begins the current statement's write to table `name`: joins the explicit transaction on it
  // or opens an auto-commit one. `operation` / `parameters` go to commitInfo (as Spark names
  // them: "WRITE", "DELETE", "UPDATE", "MERGE", "OPTIMIZE", ...).
  Result<TableWrite*> BeginTableWrite(const TableName& name, const std::string& operation,
                                      delta::Json parameters);
  // Ends the statement's write: commits an auto-commit transaction (conflict errors come from
  // here) or keeps an explicit one staged.
  Result<txn::CommitResult> EndTableWrite(TableWrite* write);
  // Abandons the statement's write after `error`: deletes its staged files; an explicit
  // transaction is marked failed (only ROLLBACK is accepted until it ends).
  void AbortTableWrite(TableWrite* write, const Status& error);

  // A catalog whose names resolve, for tables this session is writing (the current
  // statement's writes, the open explicit transaction's tables), to the transaction's view of
  // the table with reads recorded in its read set.
  Catalog MakeCatalog();
  // Registers in-memory data under `name` for this session's later statements (the Python
  // module's con.register); a null source unregisters. Names are case-insensitive.
  void RegisterRelation(const std::string& name, std::shared_ptr<const TableSource> source);
  // Ends the explicit transaction without committing and hands over what each written table
  // staged: its data files stay on storage, owned by the caller from now on (StageInsert,
  // shoal/distributed.h); tables it only read come too (writes false). A failed transaction
  // is rolled back and its error returned.
  struct DetachedWrite {
    std::string root;
    int64_t read_version = -1;
    txn::WriteSet write;
    txn::ReadSet read;                  // what its statements read (predicates, files, rows)
    bool writes = false;                // false: a table the transaction only read
    std::string operation;              // commitInfo operation and parameters
    delta::Json parameters = delta::Json::object();
  };
  Result<std::vector<DetachedWrite>> DetachTransaction();
  // Makes the explicit transaction begun next on table `root` start on `table` (a pinned
  // version, possibly Restrict-ed to some files: one worker's share of a distributed
  // statement, shoal/distributed.h) instead of the latest version; null unpins.
  void PinTable(const std::string& root, std::shared_ptr<const scan::DeltaTable> table);
  // True between BEGIN and COMMIT / ROLLBACK / PREPARE TRANSACTION.
  bool in_transaction() const { return in_transaction_; }
  // The running statement's progress tracker when DatabaseOptions::progress is set and
  // enable_progress_bar is not false (made by the statement's first call, shared by all its
  // contexts: one monotone fraction per statement); null otherwise.
  std::shared_ptr<StatementProgress> NewProgress() const;
  // Reports the load of a table's log (DeltaTable::Open's load_progress) as an opening phase of
  // the statement's progress; empty without a tracker.
  std::function<void(int64_t done, int64_t planned)> LoadProgress() const;

 private:
  // Binds, optimizes and plans a query, running its subqueries on `ctx`.
  Result<PhysicalPtr> PlanQuery(const QueryNode& query, ExecContext& ctx, columnar::SchemaPtr* schema);
  void InitContext(ExecContext* ctx) const;

  // --- write path (session_transaction.cc)
  // One statement's write: its TableWrite and, in auto-commit mode, its own transaction.
  struct StatementWrite {
    std::unique_ptr<TableWrite> write;
    std::unique_ptr<txn::Transaction> own_txn;  // auto-commit only
    TableTransaction* table_txn = nullptr;      // explicit transaction only
    // Explicit transaction: its write set before the statement (change data of statements
    // that write none themselves, table/change_data_writer.h StageWriteSetChanges).
    std::optional<txn::WriteSet> before;
  };
  // The explicit transaction's part for `root`, opened on the latest snapshot on first touch.
  Result<TableTransaction*> TableTransactionFor(const std::string& display_name, const std::string& root);
  Result<std::shared_ptr<const scan::DeltaTable>> TransactionView(TableTransaction* tt);
  Result<std::shared_ptr<const TableSource>> ResolveLatest(const TableName& name, const std::string& root);
  // The (appId, version) of SET shoal.txn.appId / shoal.txn.version, if both are set.
  Result<std::optional<delta::Txn>> AppTransactionSetting() const;
  // Ends the explicit transaction: deletes every staged file (rollback) and clears the state.
  void DiscardTransaction();
  Result<QueryResult> CommitTransaction();
  Result<QueryResult> PrepareTransaction(const std::string& id);
  Result<QueryResult> FinishPrepared(const std::string& id, bool commit);
  // Runs a whole CREATE TABLE … AS SELECT / INSERT body into `write` (session_insert.cc).
  Result<int64_t> WriteQueryInto(TableWrite* write, const delta::Metadata& metadata, const QueryNode& query,
                                 const std::vector<std::string>& columns, const ParsedExpression* replace_where,
                                 bool overwrite);

  // Forgets the registered relations the statement that just ended named.
  void DropUsedRelations();

  Database::Impl* db_;
  const std::atomic<bool>* interrupted_;
  struct Relation {
    std::shared_ptr<const TableSource> source;
    bool used = false;
  };
  std::map<std::string, Relation> relations_;  // by lower-case name
  std::map<std::string, std::string> settings_;
  bool in_transaction_ = false;
  std::optional<Status> failed_;  // the error that failed the explicit transaction
  // The running statement's tracker (NewProgress); dropped when the statement ends, so the
  // tracker reports 1.0 as the statement's last context lets go of it.
  mutable std::shared_ptr<StatementProgress> progress_;
  std::map<std::string, std::unique_ptr<TableTransaction>> txns_;  // explicit, by table root
  std::map<std::string, std::shared_ptr<const scan::DeltaTable>> pinned_;  // PinTable's, by root
  std::vector<StatementWrite> writes_;                             // the current statement's
  std::map<std::string, std::shared_ptr<const TableSource>> registered_;  // RegisterRelation's, by lower-case name
  std::map<std::string, ViewDefinition> temp_views_;  // CREATE TEMPORARY VIEW's, by lower-case name
};

// The value of SET shoal.prewhere: 'auto', 'on' (or true), 'off' (or false), any case.
Result<PrewhereMode> ParsePrewhereMode(const std::string& value);

// The settings SET, RESET and SHOW accept, as documented (shoal.txn.appId), in order.
std::vector<std::string> KnownSettings();

// The result of INSERT and CTAS as Databricks returns it: num_affected_rows, num_inserted_rows.
QueryResult InsertedRowsResult(int64_t rows);

// The statement kind's name for QueryResult::statement_type ("SELECT", "CREATE TABLE", ...).
std::string StatementTypeName(const Statement& s);

}  // namespace shoal::sql
