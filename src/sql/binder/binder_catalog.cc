// Binding of base tables through the catalog: FROM t / FROM delta.`/path` [VERSION | TIMESTAMP
// AS OF x] [alias (columns)].
#include "sql/binder/binder.h"
#include "sql/binder/catalog.h"

namespace shoal::sql {

Result<LogicalPtr> Binder::BindCatalogTable(const BaseTableRef& table, const TableRef& ref, Scope* scope) {
  scan::TimeTravel at;
  if (table.time_travel) {
    ASSIGN_OR_RETURN(columnar::Value v, BindConstantValue(*table.time_travel->value));
    ASSIGN_OR_RETURN(at, EvaluateTimeTravel(table.time_travel->kind, v));
  }
  ASSIGN_OR_RETURN(std::shared_ptr<const TableSource> source, catalog_->ResolveTable(table.name, at));
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kGet);
  op->source = source;
  const auto& schema = source->schema();
  for (size_t i = 0; i < schema.size(); ++i) {
    op->projected.push_back(static_cast<int>(i));
    op->columns.push_back(schema.fields[i]);
  }
  std::string alias = ref.alias;
  if (alias.empty()) {
    if (!table.name.parts.empty()) {
      alias = table.name.parts.back();
    } else {
      std::string p = table.name.path;
      while (p.size() > 1 && p.back() == '/') p.pop_back();
      size_t slash = p.rfind('/');
      alias = slash == std::string::npos ? p : p.substr(slash + 1);
    }
  }
  if (ref.column_aliases.size() > op->columns.size()) {
    return Status::Binder("table \"" + alias + "\" has " + std::to_string(op->columns.size()) +
                          " columns available but " + std::to_string(ref.column_aliases.size()) +
                          " columns specified");
  }
  for (size_t i = 0; i < ref.column_aliases.size(); ++i) op->columns[i].name = ref.column_aliases[i];
  for (size_t i = 0; i < op->columns.size(); ++i) {
    const auto& f = op->columns[i];
    scope->columns.push_back({alias, f.name, static_cast<int>(i), f.type, f.nullable, false});
  }
  return LogicalPtr(std::move(op));
}

}  // namespace shoal::sql
