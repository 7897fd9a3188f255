// Session: one connection's state (SET variables) and the statement dispatch — a table from
// statement kind to the function that runs it, so later layers plug in DML and DDL by adding
// entries. SELECT-like statements are bound, optimized, planned and executed here.
//
// Thread-safety: used by one thread at a time (its Connection's).
#pragma once

#include <atomic>
#include <map>
#include <optional>
#include <string>

#include "shoal/database.h"
#include "sql/ast.h"
#include "sql/logical_plan.h"
#include "sql/physical_operator.h"
#include "sql/table_write.h"

namespace shoal::sql {

class Session {
 public:
  Session(Database::Impl* db, const std::atomic<bool>* interrupted) : db_(db), interrupted_(interrupted) {}

  // Runs one parsed statement.
  Result<QueryResult> Run(const Statement& statement);

  // SET variables (keys lower case).
  std::optional<std::string> Setting(const std::string& key) const;

  // --- statement handlers (session.cc, session_statements.cc)
  Result<QueryResult> RunSelect(const Statement& s);
  Result<QueryResult> RunExplain(const Statement& s);
  Result<QueryResult> RunSet(const Statement& s);
  Result<QueryResult> RunReset(const Statement& s);
  Result<QueryResult> RunShowTables(const Statement& s);
  // DDL and INSERT (session_ddl.cc, session_insert.cc)
  Result<QueryResult> RunCreateTable(const Statement& s);
  Result<QueryResult> RunDropTable(const Statement& s);
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

  // --- writes (sql/table_write.h; implemented in session_transaction.cc)
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

 private:
  // Binds, optimizes and plans a query, running its subqueries on `ctx`.
  Result<PhysicalPtr> PlanQuery(const QueryNode& query, ExecContext& ctx, columnar::SchemaPtr* schema);
  void InitContext(ExecContext* ctx) const;

  Database::Impl* db_;
  const std::atomic<bool>* interrupted_;
  std::map<std::string, std::string> settings_;
};

// The statement kind's name for QueryResult::statement_type ("SELECT", "CREATE TABLE", ...).
std::string StatementTypeName(const Statement& s);

}  // namespace shoal::sql
