// Session handlers for CREATE VIEW and DROP VIEW: views stored in the warehouse
// (sql/binder/view_catalog.h), checked against table names, bound once at creation.
#include <strings.h>

#include "sql/binder/binder.h"
#include "sql/binder/catalog.h"
#include "sql/binder/view_catalog.h"
#include "sql/execution/executor.h"
#include "sql/execution/physical_planner.h"
#include "sql/optimizer/optimizer.h"
#include "sql/session/database_impl.h"
#include "sql/session/session.h"

namespace shoal::sql {

namespace {

Result<std::string> ViewName(const TableName& name, const char* statement) {
  if (name.IsPath() || name.parts.size() != 1) {
    return Status::NotSupported(std::string(statement) + " " + name.ToString() +
                                ": a view is named by one identifier");
  }
  RETURN_NOT_OK(CheckViewName(name.parts[0]));
  return name.parts[0];
}

}  // namespace

Result<QueryResult> Session::RunCreateView(const Statement& s) {
  const auto& v = s.As<CreateViewStatement>();
  if (in_transaction_ && !v.temporary) return Status::Transaction("CREATE VIEW cannot run inside a transaction block");
  ASSIGN_OR_RETURN(std::string name, ViewName(v.name, "CREATE VIEW"));
  const std::string lower = Lower(name);
  Catalog catalog = MakeCatalog();
  if (v.temporary) {
    // A temporary view may shadow a table or stored view (Spark); only another temporary view
    // of the name is "existing".
    if (temp_views_.count(lower) && !v.or_replace) {
      if (v.if_not_exists) return QueryResult();
      return Status::Catalog("Temporary view with name " + name + " already exists!");
    }
  } else {
    ASSIGN_OR_RETURN(std::string root, catalog.TableRoot(v.name));
    ASSIGN_OR_RETURN(bool table_exists, db_->fs->Exists(io::JoinPath(root, "_delta_log")));
    if (table_exists) {
      return Status::Catalog("Table with name " + name + " already exists; a view cannot take its name");
    }
    ASSIGN_OR_RETURN(std::optional<ViewDefinition> existing, catalog.FindView(v.name));
    if (existing && !temp_views_.count(lower) && !v.or_replace) {
      if (v.if_not_exists) return QueryResult();
      return Status::Catalog("View with name " + name + " already exists!");
    }
  }
  // Bind the query now: its errors show here, and its output names become the view's columns.
  ExecContext ctx;
  InitContext(&ctx);
  Binder binder([&ctx](LogicalPtr plan) -> Result<std::vector<columnar::BatchPtr>> {
    ASSIGN_OR_RETURN(plan, Optimize(std::move(plan)));
    ASSIGN_OR_RETURN(PhysicalPtr phys, CreatePhysicalPlan(*plan));
    return Executor(&ctx).Run(phys.get());
  });
  binder.set_catalog(&catalog);
  binder.set_defining_view(name);
  ASSIGN_OR_RETURN(LogicalPtr plan, binder.BindQuery(*v.query));
  ViewDefinition view;
  view.name = name;
  // The text as written, unless it was read with ANSI double-quoted identifiers: views are
  // re-bound with the default (Spark) reading, so they then keep the printed, canonical form.
  view.sql = v.query_text.empty() || lex_options().double_quoted_identifiers ? v.query->ToString() : v.query_text;
  if (!v.columns.empty() && v.columns.size() != plan->columns.size()) {
    return Status::Binder("CREATE VIEW " + name + ": " + std::to_string(v.columns.size()) +
                          " column names for a query of " + std::to_string(plan->columns.size()) + " columns");
  }
  for (size_t i = 0; i < plan->columns.size(); ++i) {
    view.columns.push_back(v.columns.empty() ? plan->columns[i].name : v.columns[i]);
    for (size_t j = 0; j < i; ++j) {
      if (strcasecmp(view.columns[j].c_str(), view.columns[i].c_str()) == 0) {
        return Status::Binder("CREATE VIEW " + name + ": column name \"" + view.columns[i] +
                              "\" appears twice (name the columns: CREATE VIEW v (a, b) AS ...)");
      }
    }
  }
  if (v.temporary) {
    temp_views_[lower] = std::move(view);
    return QueryResult();
  }
  RETURN_NOT_OK(WriteView(*db_->fs, db_->dir, view));
  return QueryResult();
}

Result<QueryResult> Session::RunDropView(const Statement& s) {
  const auto& d = s.As<DropViewStatement>();
  if (in_transaction_) return Status::Transaction("DROP VIEW cannot run inside a transaction block");
  ASSIGN_OR_RETURN(std::string name, ViewName(d.name, "DROP VIEW"));
  if (temp_views_.erase(Lower(name))) return QueryResult();  // the temporary view first, as Spark
  ASSIGN_OR_RETURN(bool deleted, DeleteView(*db_->fs, db_->dir, name));
  if (deleted) return QueryResult();
  Catalog catalog(db_->fs, db_->dir);
  ASSIGN_OR_RETURN(std::string root, catalog.TableRoot(d.name));
  ASSIGN_OR_RETURN(bool table_exists, db_->fs->Exists(io::JoinPath(root, "_delta_log")));
  if (table_exists) return Status::Catalog(name + " is a table, not a view; use DROP TABLE");
  if (d.if_exists) return QueryResult();
  return Status::Catalog("View with name " + name + " does not exist!");
}

}  // namespace shoal::sql
