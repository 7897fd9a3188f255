// Comparison kernels shared by the `= <> < <= > >=` functions, IN, IS DISTINCT FROM,
// greatest/least and sorting: one total order per type where NaN equals NaN and is greater
// than every other value (Spark, DuckDB), strings compare bytewise, nested values
// lexicographically.
//
// Thread-safety: pure functions.
#pragma once

#include <string_view>

#include "expr/function_registry.h"

namespace shoal::expr {

enum class CompareOp : uint8_t { kEq, kNe, kLt, kLe, kGt, kGe };

// Kernel for `a op b` on two arguments of the same type (BOOLEAN result, NULL-propagating).
ScalarKernel ComparisonKernel(CompareOp op);
// Operator spelling ("=", "<>", ...), and parsing it back.
const char* CompareOpName(CompareOp op);
bool ParseCompareOp(std::string_view name, CompareOp* op);
// The op with its operands swapped (a < b  <=>  b > a).
CompareOp FlipCompareOp(CompareOp op);

// Three-way comparison of row i of a and row j of b (same type, both valid).
int CompareRows(const columnar::Vector& a, int64_t i, const columnar::Vector& b, int64_t j);

}  // namespace shoal::expr
