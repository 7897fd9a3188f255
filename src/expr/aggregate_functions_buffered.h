// Aggregates computed from every input row of a group, kept until Finalize: statistics
// (corr, covar_pop/covar_samp, regr_*, skewness, kurtosis), order statistics (median,
// percentile, percentile_approx exact, mode), max_by/min_by, count_if, bit_and/bit_or/bit_xor,
// collect_set, approx_count_distinct (exact), first/last with ignoreNulls, try_sum/try_avg.
// Semantics follow Spark 4's function reference; memory grows with the rows of a group.
//
// Thread-safety: as GroupedAggregate.
#pragma once

#include <memory>
#include <string_view>
#include <vector>

#include "expr/aggregate_functions.h"

namespace shoal::expr {

// Kinds of buffered aggregates start here (below are aggregate_functions.cc's own).
constexpr int kBufferedKindBase = 100;

// The kind for a lower-case aggregate name and its argument count, or 0 when not buffered.
int BufferedAggregateKind(std::string_view lower_name, size_t num_args);
// True when rows whose first argument is NULL never change the result (FILTER rewrite).
bool BufferedAggregateIgnoresNulls(int kind);
// Sets b->arg_types and b->result_type for `args`; false when they do not fit.
bool ResolveBufferedAggregate(int kind, const std::vector<columnar::TypePtr>& args, AggregateBinding* b);
std::unique_ptr<GroupedAggregate> MakeBufferedAggregate(const AggregateBinding& b);

}  // namespace shoal::expr
