// Bound window function calls: what a kWindow operator computes per row (row_number, rank,
// lag, first_value, an aggregate over a frame, ...), with the frame resolved to constants.
//
// Thread-safety: plain data.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "expr/aggregate_functions.h"
#include "expr/expr.h"

namespace shoal::sql {

enum class WindowFunction : uint8_t {
  kAggregate,    // binding over args, per frame
  kRowNumber,
  kRank,
  kDenseRank,
  kPercentRank,
  kCumeDist,
  kNtile,        // args[0]: bucket count
  kLag,          // args: value, offset, default (offset and default always present)
  kLead,
  kFirstValue,   // args[0], per frame
  kLastValue,
  kNthValue,     // args: value, n (1-based), per frame
};

enum class FrameBoundType : uint8_t {
  kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing,
};

// A frame with constant offsets. ROWS offsets are row counts; RANGE offsets are distances on
// the single numeric ORDER BY key (compared as doubles). SQL's default frame is RANGE
// UNBOUNDED PRECEDING .. CURRENT ROW (with peers) when the window has an ORDER BY, else the
// whole partition.
struct BoundFrame {
  bool rows = false;
  FrameBoundType start = FrameBoundType::kUnboundedPreceding;
  FrameBoundType end = FrameBoundType::kCurrentRow;
  double start_offset = 0;
  double end_offset = 0;

  bool Equals(const BoundFrame& o) const {
    return rows == o.rows && start == o.start && end == o.end && start_offset == o.start_offset &&
           end_offset == o.end_offset;
  }
  std::string ToString() const;
};

struct WindowCall {
  WindowFunction function = WindowFunction::kRowNumber;
  expr::AggregateBinding binding;    // kAggregate only
  std::vector<expr::ExprPtr> args;   // over the window operator's input columns
  BoundFrame frame;
  columnar::TypePtr type;            // result type
  std::string display;               // e.g. "sum(x) OVER (...)"

  // Same function, arguments and frame (the window's partition and order compared apart).
  bool Equals(const WindowCall& o) const;
};

}  // namespace shoal::sql
