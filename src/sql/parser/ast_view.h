// Statements on views: CREATE [OR REPLACE] VIEW [IF NOT EXISTS] v [(columns)] AS query and
// DROP VIEW [IF EXISTS] v (split from ast.h, which includes this file; conventions there).
//
// Thread-safety: AST nodes are plain data (see ast.h).
#pragma once

#include <string>
#include <vector>

#include "sql/parser/ast.h"

namespace shoal::sql {

struct CreateViewStatement : Statement {
  explicit CreateViewStatement(size_t pos) : Statement(StatementKind::kCreateView, pos) {}
  bool or_replace = false;
  bool if_not_exists = false;
  bool temporary = false;  // CREATE TEMPORARY VIEW: the session's own, never stored
  TableName name;
  std::vector<std::string> columns;  // empty when not written
  QueryPtr query;
  // The query's source text as written (what the catalog stores and re-binds).
  std::string query_text;
};

struct DropViewStatement : Statement {
  explicit DropViewStatement(size_t pos) : Statement(StatementKind::kDropView, pos) {}
  bool if_exists = false;
  TableName name;
};

// SQL text of a kCreateView or kDropView statement (Statement::ToString's part for them).
std::string ViewStatementToString(const Statement& s);

}  // namespace shoal::sql
