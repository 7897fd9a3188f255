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

  // An expression over one dictionary-coded column evaluated once per dictionary entry
  // (columnar/vector.h), kept while batches of one column chunk flow by.
  struct CodedResult {
    const Expr* expr = nullptr;
    columnar::VectorPtr dictionary;  // held, so its address is not reused while cached
    // The value per entry, the last one for a NULL row; null when evaluating on the
    // dictionary failed (an entry no row holds may fail a cast) or cost too much.
    columnar::VectorPtr result;
    std::vector<uint8_t> pass;  // BOOLEAN results: 1 where TRUE
  };
  std::vector<CodedResult> coded_results;
  size_t coded_next = 0;  // the entry to replace next

  // While a lambda body is evaluated (higher_order.h): the batch column holding lambda slot 0
  // (the outer batch's columns come first, then one column per slot); -1 outside lambdas.
  int lambda_column0 = -1;
};

// Evaluates `expr` on every row of `input`; the result has input.num_rows rows. The result
// may share vectors with `input` (a bare column reference returns the column): read-only.
Result<columnar::VectorPtr> Evaluate(const Expr& expr, const columnar::RecordBatch& input,
                                     EvalContext& ctx);

// Like Evaluate, but the result may be dictionary-coded (columnar/vector.h) when `expr` reads one
// coded column: the column itself, or a STRING/BINARY value computed once per dictionary entry.
// Only for a caller that handles coded vectors; Evaluate always returns flat vectors.
Result<columnar::VectorPtr> EvaluateMaybeCoded(const Expr& expr, const columnar::RecordBatch& input,
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
