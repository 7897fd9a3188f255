// Binder: turns parsed queries (ast.h) into logical plans (logical_plan.h) with bound,
// typed expressions — resolving names case-insensitively through scopes of table aliases,
// expanding `*`, typing literals, inserting implicit casts (through expr's builders), and
// planning aggregates, DISTINCT, ORDER BY/LIMIT, joins, set operations, VALUES and CTEs.
//
// Uncorrelated subqueries (scalar, IN, EXISTS) are planned and run once through the
// SubqueryRunner while binding; their results are substituted as literals. So are recursive
// CTEs: iterated to their fixpoint through the runner (binder_recursive.cc). Views are
// re-parsed from their stored text and bound in place (binder_view.cc). A correlated
// subquery (one naming a column of an enclosing query, at any depth) becomes a dependent
// join (logical_plan.h SubqueryInfo) of the plan its expression is evaluated on; its outer
// column uses are outer references. optimizer/decorrelation.h turns these into plain joins.
//
// Thread-safety: a Binder binds one statement on one thread.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "expr/expr.h"
#include "sql/parser/ast.h"
#include "sql/binder/logical_plan.h"
#include "sql/binder/view_catalog.h"

namespace shoal::sql {

// Runs a bound plan to completion and returns its rows.
using SubqueryRunner = std::function<Result<std::vector<columnar::BatchPtr>>(LogicalPtr plan)>;

// Maps a parsed type name to a columnar type (BinderException for unknown names).
Result<columnar::TypePtr> BindTypeName(const TypeName& type);

// `error` pointing at byte `position` of the statement text (Status::error_offset) when it is a
// binder or catalog error that points nowhere yet; any other error unchanged. The binder calls it
// as errors leave an expression or table reference, so the innermost node that failed is named.
Status PointAt(const Status& error, size_t position);

// A column visible to expressions: its qualifier (table alias), name and input position.
struct ScopeColumn {
  std::string table;
  std::string name;
  int index = 0;
  columnar::TypePtr type;
  bool nullable = true;
  bool hidden = false;  // the right side of a USING pair: qualified access only, not in `*`
};

struct Scope {
  std::vector<ScopeColumn> columns;
};

// Aggregation being planned for one SELECT: expressions bound after the GROUP BY refer to
// its output, the groups followed by the aggregates.
struct AggregateState {
  std::vector<expr::ExprPtr> groups;  // over the FROM scope
  std::vector<AggregateCall> aggregates;
  // GROUP BY ROLLUP / CUBE / GROUPING SETS (binder_grouping.cc): each set lists the indices
  // of the groups it keeps; the last group (index grouping_id) is then the set's id column
  // (set index << grouping_id | bitmask of the groups not in the set). -1: no grouping sets.
  std::vector<std::vector<int>> grouping_sets;
  int grouping_id = -1;
};

// Window functions being planned for one SELECT (binder_window.cc): calls bound so far,
// grouped by their PARTITION BY / ORDER BY. A call's bound expression is a placeholder column
// kWindowColumnBase + its id until PlanWindows places the window operators.
inline constexpr int kWindowColumnBase = 1 << 16;
struct WindowState {
  struct Spec {
    std::vector<expr::ExprPtr> partition_by;
    std::vector<SortKey> order;
    std::vector<WindowCall> calls;
    std::vector<int> ids;  // parallel to calls
  };
  std::vector<Spec> specs;
  int count = 0;
  const std::vector<std::pair<std::string, WindowSpec>>* named = nullptr;  // WINDOW clause
};

// A correlated subquery met while binding an expression: it becomes a dependent join of the
// plan the expression is evaluated on, and the expression refers to the join's added column
// through a placeholder (kPendingBase + its index here) until the plan is known.
struct PendingSubquery {
  LogicalPtr plan;
  SubqueryInfo info;
  columnar::Field field;
};
constexpr int kPendingBase = 1 << 27;

// The parameters of the lambdas around an expression (binder_lambda.cc), innermost first:
// they shadow columns of the same name.
struct LambdaScope {
  std::vector<std::string> names;
  std::vector<columnar::TypePtr> types;  // parallel to names
  int first_slot = 0;                    // slot of names[0] (expr/higher_order.h)
  const LambdaScope* outer = nullptr;
};

// Where an expression is bound: its scope, and for post-aggregation clauses the aggregation
// and the select list's aliases (HAVING / ORDER BY may name them).
struct ExprContext {
  const Scope* scope = nullptr;
  AggregateState* agg = nullptr;
  // Select aliases usable when a name does not resolve in the scope (alias -> AST).
  const std::vector<std::pair<std::string, const ParsedExpression*>>* aliases = nullptr;
  const char* clause = "";  // for messages: "WHERE", "GROUP BY", ...
  // Where correlated subqueries go; null where the clause does not support them.
  std::vector<PendingSubquery>* pending = nullptr;
  WindowState* win = nullptr;  // where window functions are allowed (SELECT, ORDER BY, QUALIFY)
  const LambdaScope* lambdas = nullptr;  // inside a lambda body: its parameters
};

class Catalog;

class Binder {
 public:
  explicit Binder(SubqueryRunner runner) : runner_(std::move(runner)) {}
  // Resolves base table names (Delta tables); without one, they do not exist. Not owned.
  void set_catalog(const Catalog* catalog) { catalog_ = catalog; }

  // Binds as the body of view `name` (CREATE VIEW): a reference to that view is an error.
  void set_defining_view(std::string name) { binding_views_.push_back(std::move(name)); }

  // Binds a query to a plan whose output columns carry the result names.
  Result<LogicalPtr> BindQuery(const QueryNode& query);

 private:

  // --- queries (binder.cc)
  Result<LogicalPtr> BindQueryNode(const QueryNode& query);
  Result<LogicalPtr> BindSelect(const SelectNode& select);
  Result<LogicalPtr> BindValues(const ValuesNode& values);
  Result<LogicalPtr> BindSetOperation(const SetOperationNode& node);
  // ORDER BY / LIMIT / OFFSET of a query whose output columns are all that is visible.
  Result<LogicalPtr> BindModifiersOnOutput(const QueryNode& query, LogicalPtr plan);
  Result<LogicalPtr> ApplyLimit(const QueryNode& query, LogicalPtr plan);
  Result<int64_t> BindLimitValue(const ParsedExpression& e, const char* what);

  // --- FROM (binder_from.cc)
  Result<LogicalPtr> BindTableRef(const TableRef& ref, Scope* scope);  // errors PointAt ref
  Result<LogicalPtr> BindTableRefSampled(const TableRef& ref, Scope* scope);  // then its TABLESAMPLE
  Result<LogicalPtr> BindTableRefUnsampled(const TableRef& ref, Scope* scope);
  Result<LogicalPtr> BindJoin(const JoinRef& join, Scope* scope);
  Result<LogicalPtr> BindTableFunction(const TableFunctionRef& ref, Scope* scope);
  // A scan of `source` named `alias` in `scope`; `what` names the kind in errors.
  Result<LogicalPtr> BindSourceScan(std::shared_ptr<const TableSource> source, const std::string& alias,
                                    const std::vector<std::string>& column_aliases, const std::string& what,
                                    Scope* scope);
  // A base table from the catalog, with time travel (binder_catalog.cc).
  Result<LogicalPtr> BindCatalogTable(const BaseTableRef& table, const TableRef& ref, Scope* scope);
  Result<LogicalPtr> BindNamedQuery(const QueryNode& query, const std::string& alias,
                                    const std::vector<std::string>& column_aliases, Scope* scope);
  const CommonTableExpr* FindCte(const std::string& name) const;
  // A view from the catalog: its stored text parsed and bound apart from the query around it,
  // output columns named as stored (binder_view.cc).
  Result<LogicalPtr> BindView(const ViewDefinition& view);
  // A WITH RECURSIVE entry: the anchor run, then the recursive term run on the working table
  // until it adds no rows; bound as VALUES of the rows, columns named by the CTE
  // (binder_recursive.cc).
  Result<LogicalPtr> BindRecursiveCte(const CommonTableExpr& cte);
  // The working table of a recursive CTE being iterated, when `name` refers to one: nullptr,
  // else its rows as VALUES (or an error for a reference where recursion is not allowed).
  Result<LogicalPtr> BindWorkingTableRef(const std::string& name);
  // The right side of a join, LATERAL (binder_subquery.cc): *info is set when it names
  // columns of the left side (`lctx`); the join then is a dependent join.
  Result<LogicalPtr> BindLateral(const TableRef& ref, ExprContext& lctx, Scope* scope,
                                 std::shared_ptr<SubqueryInfo>* info);

  // --- expressions (binder_expression.cc)
  Result<expr::ExprPtr> BindExpr(const ParsedExpression& e, ExprContext& ctx);  // errors PointAt e
  Result<expr::ExprPtr> BindExprOrGroup(const ParsedExpression& e, ExprContext& ctx);
  Result<expr::ExprPtr> BindExprInner(const ParsedExpression& e, ExprContext& ctx);
  Result<expr::ExprPtr> BindColumnRef(const ColumnRefExpression& e, ExprContext& ctx);
  Result<expr::ExprPtr> BindFunction(const FunctionExpression& e, ExprContext& ctx);
  // --- lambdas (binder_lambda.cc)
  // transform(arr, x -> ...) and the other higher-order functions of expr/higher_order.h.
  Result<expr::ExprPtr> BindHigherOrder(const FunctionExpression& e, ExprContext& ctx);
  // A lambda parameter named by `e` (innermost lambda first), with any field accesses after
  // it; null when no lambda around names it.
  Result<expr::ExprPtr> BindLambdaVariable(const ColumnRefExpression& e, const ExprContext& ctx);
  // `extra_filter` (over the input, may be null) is ANDed with the call's FILTER (PIVOT).
  Result<expr::ExprPtr> BindAggregate(const FunctionExpression& e, ExprContext& ctx,
                                      expr::ExprPtr extra_filter = nullptr);
  // --- PIVOT / UNPIVOT (binder_pivot.cc): the FROM relation `plan` in `scope` turned around;
  // `scope` becomes the new relation's, named `alias`.
  Result<LogicalPtr> BindPivot(LogicalPtr plan, const PivotClause& pivot, const std::string& alias, Scope* scope);
  Result<LogicalPtr> BindUnpivot(LogicalPtr plan, const UnpivotClause& unpivot, const std::string& alias,
                                 Scope* scope);
  // --- window functions (binder_window.cc) and grouping sets (binder_grouping.cc)
  Result<expr::ExprPtr> BindWindowFunction(const FunctionExpression& e, ExprContext& ctx);
  Status ResolveWindowSpec(const WindowSpec& spec, ExprContext& ctx, int depth,
                           std::vector<expr::ExprPtr>* partition_by, std::vector<SortKey>* order,
                           const WindowSpec** frame_owner);
  Result<BoundFrame> BindFrame(const WindowSpec* spec, const std::vector<SortKey>& order);
  // --- generators (binder_generate.cc): a kGenerate of `call` (explode, posexplode, inline
  // and their _outer forms) over `plan`; its columns join `scope` under `table`, named `names`
  // (or the defaults), and their scope positions go to *generated.
  Result<LogicalPtr> BindGenerate(LogicalPtr plan, const FunctionExpression& call, bool outer,
                                  const std::string& table, const std::vector<std::string>& names, Scope* scope,
                                  std::vector<size_t>* generated);
  Status BindGroupingSets(const SelectNode& select, ExprContext& gctx, int input_width,
                          AggregateState* agg);
  Result<expr::ExprPtr> BindGroupingFunction(const FunctionExpression& e, ExprContext& ctx);
  Result<expr::ExprPtr> BindBinary(const BinaryExpression& e, ExprContext& ctx);
  Result<expr::ExprPtr> BindConstant(const ConstantExpression& e);
  Result<expr::ExprPtr> BindSubqueryExpr(const ParsedExpression& e, ExprContext& ctx);
  // Column references not found in the current scope: the enclosing queries' scopes, from
  // the innermost out; a hit becomes an outer reference (binder_subquery.cc).
  Result<expr::ExprPtr> BindOuterColumnRef(const ColumnRefExpression& e);
  // Adds a dependent join per pending subquery above `plan` (each appends one column) and
  // clears `pending`; ResolvePending maps their placeholders to base_width + index.
  Result<LogicalPtr> AttachPending(LogicalPtr plan, std::vector<PendingSubquery>* pending);
  static Result<expr::ExprPtr> ResolvePending(const expr::ExprPtr& e, int base_width);
  // A constant expression (no columns) evaluated now.
  Result<columnar::Value> BindConstantValue(const ParsedExpression& e);

  SubqueryRunner runner_;
  const Catalog* catalog_ = nullptr;
  // Stack of WITH lists in scope, innermost last.
  std::vector<const std::vector<CommonTableExpr>*> ctes_;
  // CTEs being bound (to reject recursion).
  std::vector<std::string> binding_ctes_;
  // Views being bound, innermost last (to reject a view that reads itself).
  std::vector<std::string> binding_views_;
  // The working tables of recursive CTEs being iterated, innermost last (binder_recursive.cc).
  struct WorkingTable {
    std::string name;
    bool allowed = false;               // false: in the anchor, or not a UNION form
    columnar::BatchPtr rows;            // the previous iteration's new rows
    std::vector<columnar::Field> columns;
    int references = 0;
  };
  std::vector<WorkingTable*> working_tables_;
  // Subqueries being bound, outermost first: the context of the expression each sits in, and
  // the correlations found for it.
  struct SubqueryFrame {
    ExprContext* outer = nullptr;
    std::vector<int> ids;
    std::vector<expr::ExprPtr> outer_exprs;
    bool correlated = false;  // uses a column of this or a further-out level
  };
  std::vector<SubqueryFrame> frames_;
  size_t active_frames_ = 0;  // frames visible to a name lookup
  int next_outer_id_ = 0;
};

// Whether `e` contains an aggregate call outside subqueries (a window aggregate such as
// sum(x) OVER () is none, but an aggregate in its arguments is).
bool ContainsAggregate(const ParsedExpression& e);
// Whether `e` is a call of a generator function (explode, posexplode, inline, *_outer).
bool IsGeneratorCall(const ParsedExpression& e);
// `e` as a BOOLEAN predicate of `clause` (an implicit cast), or a Binder error naming it.
Result<expr::ExprPtr> AsPredicate(expr::ExprPtr e, const char* clause);

// Places one kWindow operator per window specification of `win` over `plan` and rewrites
// `exprs` (bound with placeholders) to the new columns (binder_window.cc).
Result<LogicalPtr> PlanWindows(LogicalPtr plan, const WindowState& win, std::vector<expr::ExprPtr*> exprs);
// An Expand and an Aggregate for an aggregation with grouping sets (binder_grouping.cc).
Result<LogicalPtr> PlanGroupingSets(LogicalPtr plan, AggregateState* agg);

}  // namespace shoal::sql
