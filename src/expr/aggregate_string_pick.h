// min / max / first over STRING and BINARY values for the grouped aggregates
// (aggregate_functions.h): compares string views against each group's current pick and copies
// bytes only when a row becomes the new pick, so a full scan's max(s) costs one memcmp a row.
//
// Thread-safety: as GroupedAggregate (one thread per instance).
#pragma once

#include <memory>

#include "expr/aggregate_functions.h"

namespace shoal::expr {

enum class StringPick { kMin, kMax, kFirst };

// Creates the aggregate for `type` (STRING or BINARY); strings compare bytewise (unsigned).
std::unique_ptr<GroupedAggregate> MakeStringPickAggregate(StringPick pick, columnar::TypePtr type);

}  // namespace shoal::expr
