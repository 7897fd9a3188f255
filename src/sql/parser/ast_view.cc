// Printing of the view statements.
#include "sql/parser/ast_view.h"

namespace shoal::sql {

std::string ViewStatementToString(const Statement& s) {
  if (s.kind == StatementKind::kDropView) {
    const auto& d = s.As<DropViewStatement>();
    return std::string("DROP VIEW ") + (d.if_exists ? "IF EXISTS " : "") + d.name.ToString();
  }
  const auto& c = s.As<CreateViewStatement>();
  std::string out = c.or_replace ? "CREATE OR REPLACE " : "CREATE ";
  out += c.temporary ? "TEMPORARY VIEW " : "VIEW ";
  if (c.if_not_exists) out += "IF NOT EXISTS ";
  out += c.name.ToString();
  if (!c.columns.empty()) {
    out += " (";
    for (size_t i = 0; i < c.columns.size(); ++i) out += (i ? ", " : "") + QuoteIdentifier(c.columns[i]);
    out += ")";
  }
  return out + " AS " + c.query->ToString();
}

}  // namespace shoal::sql
