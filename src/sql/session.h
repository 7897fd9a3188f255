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
