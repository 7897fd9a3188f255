// Logical plans: the binder's output and the optimizer's input. Every operator produces a
// list of typed, named columns; expressions inside an operator reference its input columns by
// position (for a join: the left columns followed by the right ones).
//
// Thread-safety: plain data, built and rewritten by one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "expr/aggregate_functions.h"
#include "expr/expr.h"
#include "sql/binder/window_call.h"
#include "sql/functions/table_function.h"

namespace shoal::sql {

enum class LogicalKind : uint8_t {
  kGet,        // read a TableSource
  kValues,     // constant rows
  kFilter,     // predicate
  kProject,    // exprs
  kAggregate,  // groups then aggregates
  kSort,       // sort_keys (limit >= 0: top-N)
  kLimit,      // limit, offset
  kJoin,       // join_type, equi keys, residual
  kUnion,      // UNION ALL of n children
  kSetOp,      // set_op of 2 children (EXCEPT/INTERSECT [ALL])
  kWindow,     // input columns, then one column per window call (partition_by, sort_keys, windows)
  kExpand,     // per input row, one output row per expand_sets projection (grouping sets)
  kGenerate,   // per input row, one output row per element of `generator` (explode & co.)
  kSample,     // each input row kept with probability sample_fraction (TABLESAMPLE)
};

// What a kGenerate emits per element of its generator (an ARRAY or a MAP), after the input
// columns: explode: the element (ARRAY) or key, value (MAP); posexplode: its 0-based INT
// position first; inline: the fields of the STRUCT element.
enum class GenerateKind : uint8_t { kExplode, kPosExplode, kInline };

// kMark: the left rows plus a BOOLEAN NOT NULL column, true when the row has a match
// (EXISTS); kSingle: a left join that fails when a left row matches two right rows (a
// scalar subquery's "More than one row returned ...").
enum class LogicalJoinType : uint8_t { kInner, kLeft, kRight, kFull, kSemi, kAnti, kMark, kSingle };
enum class SetOpType : uint8_t { kExcept, kIntersect };

struct SortKey {
  expr::ExprPtr expr;  // over the input columns
  bool descending = false;
  bool nulls_first = true;
};

struct AggregateCall {
  expr::AggregateBinding binding;
  std::vector<expr::ExprPtr> args;  // over the input columns, already cast to binding.arg_types
  std::string display;              // e.g. "sum(i)"
};

// What a dependent join (a kJoin whose `subquery` is set) computes for each left row: the
// binder's form of a correlated subquery, which decorrelation.h rewrites into plain joins
// before any other optimizer rule runs. Its output is the left columns plus one column.
enum class SubqueryKind : uint8_t {
  kScalar,  // the value of the right's single column (NULL on no row; error on two)
  kExists,  // BOOLEAN NOT NULL: the right has a row
  kAny,     // `needle op ANY (right)` with SQL's three-valued logic (IN is `= ANY`)
  kLateral, // LATERAL join: all of the right's rows for each left row, joined with the join's
            // join_type (inner or left) and predicate (ON, over left then right columns);
            // the output is the left columns then the right's
};

struct SubqueryInfo {
  SubqueryKind kind = SubqueryKind::kScalar;
  std::string op = "=";        // kAny: the comparison ("=", "<", ...)
  expr::ExprPtr needle;        // kAny: over the left columns
  // Correlations: outer-reference ids (see decorrelation.h: OuterRef) used in the right plan,
  // each with the expression over the left columns it stands for.
  std::vector<int> ids;
  std::vector<expr::ExprPtr> outer_exprs;
};

struct LogicalOperator;
using LogicalPtr = std::unique_ptr<LogicalOperator>;

struct LogicalOperator {
  explicit LogicalOperator(LogicalKind k) : kind(k) {}

  LogicalKind kind;
  std::vector<LogicalPtr> children;
  std::vector<columnar::Field> columns;  // output

  // kGet: what to read; `projected` are source column indices (output order), filters are
  // over the output columns.
  std::shared_ptr<const TableSource> source;
  std::vector<int> projected;
  std::vector<expr::ExprPtr> filters;
  int64_t limit_hint = -1;
  // kValues: the rows (num_rows may be > 0 with zero columns: SELECT without FROM).
  columnar::BatchPtr values;
  // kFilter: predicate; kJoin: residual (may be null).
  expr::ExprPtr predicate;
  // kProject.
  std::vector<expr::ExprPtr> exprs;
  // kAggregate: output = groups then aggregates.
  std::vector<expr::ExprPtr> groups;
  std::vector<AggregateCall> aggregates;
  // kSort.
  std::vector<SortKey> sort_keys;
  // kSort (top-N when >= 0) and kLimit.
  int64_t limit = -1;
  int64_t offset = 0;
  // kJoin: left_keys over the left columns, right_keys over the right columns.
  LogicalJoinType join_type = LogicalJoinType::kInner;
  std::vector<expr::ExprPtr> left_keys;
  std::vector<expr::ExprPtr> right_keys;
  // kJoin: set for a dependent join (see SubqueryInfo).
  std::shared_ptr<const SubqueryInfo> subquery;
  // kSetOp.
  SetOpType set_op = SetOpType::kExcept;
  bool all = false;
  // kWindow: rows are partitioned by partition_by and ordered by sort_keys (both over the
  // input); `windows` are computed per row.
  std::vector<expr::ExprPtr> partition_by;
  std::vector<WindowCall> windows;
  // kExpand: one projection (over the input, as wide as `columns`) per grouping set.
  std::vector<std::vector<expr::ExprPtr>> expand_sets;
  // kGenerate: the ARRAY or MAP (over the input); `generate_outer`: a row whose generator is
  // NULL or empty still emits one row, with NULL generated columns (explode_outer, LATERAL
  // VIEW OUTER).
  expr::ExprPtr generator;
  GenerateKind generate_kind = GenerateKind::kExplode;
  bool generate_outer = false;
  // kSample: Bernoulli sampling; a batch's choices depend only on sample_seed and the batch's
  // order key, so a sample is repeatable for a given seed and input.
  double sample_fraction = 1.0;
  uint64_t sample_seed = 0;
  // Output rows the optimizer expects (optimizer/cardinality.h); < 0 until estimated.
  double estimated_rows = -1;

  columnar::SchemaPtr Schema() const;
  // A deep copy of the tree (expressions and sources are immutable and shared). A new field
  // must be copied here too.
  LogicalPtr Clone() const;
  // Indented tree, one operator a line (EXPLAIN of the logical plan, tests).
  std::string ToString(int indent = 0) const;
};

// Outer references: a correlated subquery's use of an enclosing query's column is bound as a
// column reference with index kOuterRefBase + id (id numbers the correlation within the
// statement). Decorrelation replaces every one before the plan reaches other rules.
constexpr int kOuterRefBase = 1 << 28;
inline bool IsOuterRef(const expr::Expr& e) {
  return e.kind == expr::ExprKind::kColumnRef && e.column >= kOuterRefBase;
}
inline expr::ExprPtr OuterRef(int id, const columnar::TypePtr& type, const std::string& name,
                              bool nullable) {
  return expr::ColumnRef(kOuterRefBase + id, type, name, nullable);
}

// A copy of `e` in which every column reference for which `fn` returns an expression is
// replaced by it (fn returns null to keep the reference; an error stops the rewrite).
Result<expr::ExprPtr> RewriteColumnRefs(
    const expr::ExprPtr& e, const std::function<Result<expr::ExprPtr>(const expr::Expr&)>& fn);

LogicalPtr MakeFilter(LogicalPtr child, expr::ExprPtr predicate);
// Projection with output names `names` (parallel to exprs).
LogicalPtr MakeProject(LogicalPtr child, std::vector<expr::ExprPtr> exprs,
                       std::vector<std::string> names);
const char* JoinTypeName(LogicalJoinType t);

}  // namespace shoal::sql

namespace shoal::sql {

// The conjuncts of an AND tree (the expression itself when it is no AND).
void SplitConjuncts(const expr::ExprPtr& e, std::vector<expr::ExprPtr>* out);
// Adds `cond` (over left columns then right columns) to a join: `l = r` conjuncts with one
// side on each input become hash keys, the rest joins the residual predicate.
Status AddJoinCondition(LogicalOperator* join, const expr::ExprPtr& cond);

}  // namespace shoal::sql
