// SplitMergeStatement of shoal/distributed.h: a MERGE cut into the parts a distributed run
// executes apart.
#include "shoal/distributed.h"
#include "sql/session/distributed_table.h"

namespace shoal {

Result<MergeParts> SplitMergeStatement(Connection& connection, std::string_view table, std::string_view sql,
                                       const std::string& split_name, const std::string& row_column) {
  ASSIGN_OR_RETURN(std::string root, ExistingTableRoot(connection, table));
  ASSIGN_OR_RETURN(auto matched, ParseTableStatement(connection, sql, root));
  if (matched->kind != sql::StatementKind::kMerge) {
    return Status::InvalidArgument("SplitMergeStatement takes a MERGE statement, got: " +
                                   std::string(sql.substr(0, 200)));
  }
  ASSIGN_OR_RETURN(auto inserts, ParseTableStatement(connection, sql, root));
  auto& m = matched->As<sql::MergeStatement>();
  auto& i = inserts->As<sql::MergeStatement>();
  if (!m.source || m.source->kind != sql::TableRefKind::kBaseTable) {
    return Status::InvalidArgument("a distributed MERGE's source is a name (USING source), not " +
                                   (m.source ? m.source->ToString() : std::string("nothing")));
  }
  const auto& source = m.source->As<sql::BaseTableRef>();
  if (source.name.IsPath() || source.name.parts.size() != 1 || source.time_travel) {
    return Status::InvalidArgument("a distributed MERGE's source is one plain name (USING source), not " +
                                   source.ToString());
  }
  std::string target_alias = m.target_alias;
  if (target_alias.empty() && !m.target.parts.empty()) target_alias = m.target.parts.back();
  if (target_alias.empty()) {
    return Status::InvalidArgument("give the target of a distributed MERGE an alias (MERGE INTO " +
                                   m.target.ToString() + " AS t ...)");
  }
  const std::string source_alias = source.alias.empty() ? source.name.parts[0] : source.alias;
  MergeParts out;
  out.source_name = source.name.parts[0];
  auto by_match = [](sql::MergeStatement& s, bool inserts_only) {
    std::vector<sql::MergeClause> kept;
    for (sql::MergeClause& c : s.clauses) {
      if ((c.match == sql::MergeMatch::kNotMatchedByTarget) == inserts_only) kept.push_back(std::move(c));
    }
    s.clauses = std::move(kept);
    return !s.clauses.empty();
  };
  if (by_match(m, false)) out.matched_sql = m.ToString();
  if (by_match(i, true)) out.insert_sql = i.ToString();
  out.matched_rows_sql = "SELECT DISTINCT " + sql::QuoteIdentifier(source_alias) + "." +
                         sql::QuoteIdentifier(row_column) + " FROM " + source.ToString() + " JOIN " +
                         sql::QuoteIdentifier(split_name) + " AS " + sql::QuoteIdentifier(target_alias) + " ON " +
                         m.on->ToString();
  return out;
}

}  // namespace shoal
