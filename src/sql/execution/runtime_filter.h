// Sideways information passing: a hash join, once its build side is complete, publishes what
// its build keys are — their range, and for few distinct keys the keys themselves — and the
// table scan that feeds the probe side with that key column turns it into scan predicates
// (`k BETWEEN min AND max`, or `k IN (...)`) when it opens. The scan's whole pruning stack then
// uses them: Delta log statistics skip files, row-group statistics, dictionaries, Bloom filters
// and the page index skip row groups and pages, Prewhere decodes the other columns only for rows
// that can join, and deletion vectors apply as always.
//
// PlanRuntimeFilters (run on every physical plan) pairs joins with scans: the join must drop
// probe rows that match nothing (INNER, SEMI, RIGHT, or a SEMI/ANTI join that hashes its output
// side), and the probe key must be a column that reaches a scan column unchanged through
// operators that only drop or repeat rows (PhysicalOperator::PassesColumn), so filtering the
// scan removes only rows the join would drop. A scan that opens before its join's build is done
// reads without the filter (a filter is an optimization, never needed for the answer).
// `SET shoal.runtime_filters = 'off'` disables them.
//
// Thread-safety: RuntimeFilter is thread-safe (published once, read by scans).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "columnar/value.h"
#include "columnar/vector.h"
#include "expr/expr.h"
#include "expr/in_list_set.h"
#include "sql/functions/table_function.h"

namespace shoal::sql {

class PhysicalOperator;

// What one join key's build values are.
struct JoinKeySummary {
  bool empty = true;                    // no non-NULL build key
  columnar::Value min, max;
  std::optional<std::vector<columnar::Value>> values;  // the distinct keys, when few
  std::shared_ptr<const expr::InListSet> set;          // integer keys, when not too many
};

// Keys with at most this many distinct values become an IN list; integer keys with at most
// kRuntimeFilterMaxSetKeys a range and a hashed key set (expr::InSet); more give a range only.
// Integer keys that fill more than 1/kRuntimeFilterMinSparsity of their range give the range
// only: the list or set would pass nearly what the range passes, at a cost per row. The set's
// bound keeps it cache-resident (a probe per scanned row must be cheaper than what it saves).
inline constexpr size_t kRuntimeFilterMaxValues = 4096;
inline constexpr size_t kRuntimeFilterMaxSetKeys = size_t{1} << 15;
inline constexpr double kRuntimeFilterMinSparsity = 8;
inline constexpr double kRuntimeFilterMaxPass = 0.5;

// Summarizes key vectors (one per build chunk, all of `type`); nullopt for a type without a
// summary (only integer-like, DATE, TIMESTAMP, DECIMAL(<=18) and STRING keys have one).
std::optional<JoinKeySummary> SummarizeKeys(const std::vector<const columnar::Vector*>& chunks,
                                            const columnar::TypePtr& type);

class RuntimeFilter {
 public:
  void Publish(JoinKeySummary summary);
  // The published summary; nullopt before Publish.
  std::optional<JoinKeySummary> Get() const;
  // The predicates for `column` of a scan's output (empty when nothing can be said, or when,
  // judged by the column's statistics `stats` (may be null), they would pass more than
  // kRuntimeFilterMaxPass of its rows: then filtering costs more than it saves).
  std::vector<expr::ExprPtr> Predicates(int column, const columnar::Field& field, const ColumnStats* stats) const;

 private:
  mutable std::mutex mu_;
  std::optional<JoinKeySummary> summary_;
};

// Pairs the hash joins of `root`'s tree with the scans their probe keys come from.
void PlanRuntimeFilters(PhysicalOperator* root);

}  // namespace shoal::sql
