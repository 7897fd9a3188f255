// Table functions and the general scan-source interface behind every FROM item that reads
// data: range/generate_series now, read_parquet and Delta tables later.
//
// A TableSource is the bound, immutable description of what can be read (its schema). The
// planner opens a Scan on it with the columns it needs and the predicates it could push down;
// worker threads then pull batches from the Scan concurrently (morsel-driven), each tagged
// with an `order` so results can keep the source's row order where the plan needs it.
//
// Thread-safety: TableSource and TableFunctionRegistry are immutable after construction and
// safe to share; Scan::Next is called concurrently by many workers, each with its own
// ScanLocalState.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/value.h"
#include "columnar/vector.h"
#include "expr/expr.h"
#include "shoal/database.h"
#include "shoal/status.h"

namespace shoal::sql {

// Work done and planned by a running scan or source, in its own units (statement_progress.h).
struct WorkProgress {
  int64_t done = 0;
  int64_t planned = 0;  // 0 = unknown
};

// Late materialization for sources that support it (SET shoal.prewhere): kAuto reads the
// other columns lazily while the filter is selective, kOn always, kOff never.
enum class PrewhereMode : uint8_t { kAuto, kOn, kOff };

// What the planner asks a source to read.
struct ScanRequest {
  // Indices into the source's schema, in output order.
  std::vector<int> columns;
  // Conjuncts over the output columns (indices into `columns`), usable for pruning. The
  // executor still applies them unless the source reports ExactFilters().
  std::vector<expr::ExprPtr> filters;
  int batch_size = 2048;
  // Stop after roughly this many rows when >= 0 (a LIMIT with nothing in between).
  int64_t limit_hint = -1;
  PrewhereMode prewhere = PrewhereMode::kAuto;
  // STRING/BINARY columns may come out dictionary-coded (columnar/vector.h), for a consumer
  // that handles them (the executor decodes them for operators that do not).
  bool coded_strings = false;
  // The memory limit (0: none): a Parquet page declaring more bytes than this is refused.
  int64_t max_page_bytes = 0;
  // The statement's interrupt flag (ExecContext::interrupted), for sources that can run long
  // without returning a batch; null: none.
  const std::atomic<bool>* interrupted = nullptr;
};

// Per-worker state of a scan (decoders, buffers); sources define their own.
class ScanLocalState {
 public:
  virtual ~ScanLocalState() = default;
};

// One running scan.
class Scan {
 public:
  virtual ~Scan() = default;
  virtual std::unique_ptr<ScanLocalState> MakeLocal() { return nullptr; }
  // Produces the next batch for this worker into *out with its order key; false at the end.
  virtual Result<bool> Next(ScanLocalState* local, columnar::BatchPtr* out, uint64_t* order) = 0;
  // Scan statistics so far (read after all workers are done).
  virtual ScanMetrics metrics() const { return {}; }
  // Work done and planned so far in the scan's own units (planned 0 = unknown); called from
  // another thread while workers run, so implementations read atomics.
  virtual WorkProgress progress() const { return {}; }
};

// Per-column statistics for cardinality estimation (optimizer/cardinality.h); every field is
// optional. distinct_count is approximate.
struct ColumnStats {
  std::optional<columnar::Value> min;
  std::optional<columnar::Value> max;
  std::optional<int64_t> null_count;
  std::optional<double> distinct_count;
};

class TableSource {
 public:
  virtual ~TableSource() = default;
  virtual const columnar::Schema& schema() const = 0;
  // Text for EXPLAIN, e.g. "range(0, 10, 1)".
  virtual std::string ToString() const = 0;
  // Row count when cheap to know (join side choice).
  virtual std::optional<int64_t> EstimatedRows() const { return std::nullopt; }
  // Statistics of source column `column` when cheap to know (file statistics, a generator's
  // bounds); nullopt otherwise.
  virtual std::optional<ColumnStats> ColumnStatistics(int column) const { return std::nullopt; }
  // True when Open applies ScanRequest::filters exactly (the executor may drop its filter).
  virtual bool ExactFilters() const { return false; }
  // Sets of source columns whose values the optimizer may take as unique across rows (a Delta
  // table's PRIMARY KEY / UNIQUE constraints declared RELY); a NULL in one is never a match.
  virtual std::vector<std::vector<int>> UniqueKeys() const { return {}; }
  virtual Result<std::unique_ptr<Scan>> Open(const ScanRequest& request) const = 0;
};

// Arguments of a table function call, already evaluated to constants.
struct TableFunctionArgs {
  std::vector<columnar::Value> positional;
  std::vector<std::pair<std::string, columnar::Value>> named;  // names lower case
};

using TableFunctionBind = Result<std::shared_ptr<const TableSource>> (*)(const TableFunctionArgs& args);

struct TableFunction {
  std::string name;        // canonical, lower case
  std::string signatures;  // for errors, e.g. "range(BIGINT[, BIGINT[, BIGINT]])"
  TableFunctionBind bind = nullptr;
};

class TableFunctionRegistry {
 public:
  // The process-wide registry with every built-in table function.
  static const TableFunctionRegistry& Get();
  void Add(TableFunction fn);
  const TableFunction* Find(const std::string& name) const;  // case-insensitive; null if unknown
  std::vector<std::string> Names() const;

 private:
  std::map<std::string, TableFunction> functions_;
};

// Registration hooks, one per table_function_*.cc file.
void RegisterRangeFunctions(TableFunctionRegistry* r);
void RegisterParquetFunctions(TableFunctionRegistry* r);  // table_function_parquet.cc

}  // namespace shoal::sql
