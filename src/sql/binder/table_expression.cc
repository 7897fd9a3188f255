#include "sql/binder/table_expression.h"

#include "sql/binder/binder.h"
#include "sql/binder/catalog.h"
#include "sql/parser/parser.h"

namespace shoal::sql {

namespace {

// A source with a schema and no rows: the binder only needs the columns.
class SchemaOnlySource final : public TableSource {
 public:
  explicit SchemaOnlySource(const columnar::Schema& schema) : schema_(schema) {}
  const columnar::Schema& schema() const override { return schema_; }
  std::string ToString() const override { return "table columns"; }
  Result<std::unique_ptr<Scan>> Open(const ScanRequest&) const override {
    return Status::Internal("a table expression's column source cannot be scanned");
  }

 private:
  columnar::Schema schema_;
};

}  // namespace

Result<expr::ExprPtr> BindTableExpression(const std::string& sql, const columnar::Schema& schema) {
  // Validate that the text is exactly one expression before embedding it in a query.
  RETURN_NOT_OK(WithoutErrorOffset(ParseExpression(sql).status()));
  ASSIGN_OR_RETURN(StatementPtr stmt,
                   WithoutErrorOffset(ParseStatement("SELECT (" + sql + ") FROM __shoal_table_columns")));
  if (stmt->kind != StatementKind::kSelect) return Status::InvalidArgument("not an expression: " + sql);
  auto source = std::make_shared<const SchemaOnlySource>(schema);
  Catalog catalog(nullptr, "");
  catalog.set_latest_hook([source](const TableName&, const std::string&) -> Result<std::shared_ptr<const TableSource>> {
    return std::shared_ptr<const TableSource>(source);
  });
  Binder binder([](LogicalPtr) -> Result<std::vector<columnar::BatchPtr>> {
    return Status::NotSupported("subqueries are not supported in table expressions");
  });
  binder.set_catalog(&catalog);
  ASSIGN_OR_RETURN(LogicalPtr plan, WithoutErrorOffset(binder.BindQuery(*stmt->As<SelectStatement>().query)));
  if (plan->kind != LogicalKind::kProject || plan->exprs.size() != 1 || plan->children.size() != 1 ||
      plan->children[0]->kind != LogicalKind::kGet) {
    return Status::InvalidArgument("not a scalar expression over the table's columns: " + sql);
  }
  return plan->exprs[0];
}

}  // namespace shoal::sql
