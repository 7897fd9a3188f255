// Vectorized evaluation of bound expressions (expr.h) on record batches.
//
// Evaluation is short-circuiting where it matters for correctness and speed: a conjunct of an
// AND runs only on rows still undecided, a CASE branch only on rows that reach it, a COALESCE
// argument only on rows still NULL; so `CASE WHEN x <> 0 THEN 1/x END` and
// `x <> 0 AND 10 % x = 0` never fail on rows the guard excluded.
//
// Thread-safety: EvalContext is per thread (or per statement, used by one thread at a time);
// Evaluate itself has no shared state.
#pragma once

#include <cstdint>
#include <vector>

#include "columnar/vector.h"
#include "expr/expr.h"

namespace shoal::expr {

// Per-statement evaluation state.
struct EvalContext {
  // current_timestamp / now(), fixed for the statement (microseconds since epoch, UTC).
  // Defaults to the wall clock at construction.
  int64_t statement_timestamp = 0;

  EvalContext();
  explicit EvalContext(int64_t timestamp) : statement_timestamp(timestamp) {}
};

// Evaluates `expr` on every row of `input`; the result has input.num_rows rows. The result
// may share vectors with `input` (a bare column reference returns the column): read-only.
Result<columnar::VectorPtr> Evaluate(const Expr& expr, const columnar::RecordBatch& input,
                                     EvalContext& ctx);

// Appends to *selected the row indices (ascending) where the BOOLEAN predicate is TRUE and
// returns their count; *selected is cleared first.
Result<int64_t> EvaluateFilter(const Expr& predicate, const columnar::RecordBatch& input,
                               EvalContext& ctx, std::vector<uint32_t>* selected);

// Like EvaluateFilter, restricted to the rows in `rows` (ascending indices into input).
Result<int64_t> EvaluateFilterOn(const Expr& predicate, const columnar::RecordBatch& input,
                                 const std::vector<uint32_t>& rows, EvalContext& ctx,
                                 std::vector<uint32_t>* selected);

// Evaluates an expression without column references (e.g. a folded literal) to a Value.
Result<Value> EvaluateConstant(const Expr& expr, EvalContext& ctx);

}  // namespace shoal::expr
