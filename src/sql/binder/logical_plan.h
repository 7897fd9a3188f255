// Logical plans: the binder's output and the optimizer's input. Every operator produces a
// list of typed, named columns; expressions inside an operator reference its input columns by
// position (for a join: the left columns followed by the right ones).
//
// Thread-safety: plain data, built and rewritten by one thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "expr/aggregate_functions.h"
#include "expr/expr.h"
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
};

enum class LogicalJoinType : uint8_t { kInner, kLeft, kRight, kFull, kSemi, kAnti };
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
  // kSetOp.
  SetOpType set_op = SetOpType::kExcept;
  bool all = false;
  // Output rows the optimizer expects (optimizer/cardinality.h); < 0 until estimated.
  double estimated_rows = -1;

  columnar::SchemaPtr Schema() const;
  // Indented tree, one operator a line (EXPLAIN of the logical plan, tests).
  std::string ToString(int indent = 0) const;
};

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
