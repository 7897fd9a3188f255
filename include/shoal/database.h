// shoal's embedding API: open a warehouse (a directory whose subdirectories are Delta tables),
// connect, run SQL, read results.
//
//   auto db = shoal::Database::Open("/data/warehouse").ValueOrDie();
//   auto con = db->Connect();
//   auto r = con->Query("SELECT count(*) FROM events WHERE day = DATE '2024-01-01'");
//   if (!r.ok()) std::cerr << r.status().ToString() << "\n";
//
// Thread-safety: Database is thread-safe; a Connection is used by one thread at a time (open
// one per thread). Many Databases, in many processes, may write the same tables concurrently.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/prepared.h"
#include "shoal/result.h"
#include "shoal/status.h"

struct ArrowArrayStream;  // shoal/arrow_c.h

namespace shoal {

namespace columnar {
struct RecordBatch;
class TimeZone;
struct Schema;
}  // namespace columnar

struct DatabaseOptions {
  // Worker threads for scans and operators; 0 = hardware concurrency.
  int threads = 0;
  // Rows per vector batch flowing between operators.
  int batch_size = 2048;
  // Bytes the database's statements may hold in hash tables, sort runs, aggregate states and
  // buffered batches together (doc/memory.md); a statement that needs more fails with
  // OutOfMemoryException. 0 = 80% of physical memory. SET memory_limit changes it for the
  // whole database; RESET memory_limit returns to this value.
  int64_t memory_limit = 0;
  // The session time zone of every connection until SET TIME ZONE changes it: a region ID
  // ("America/Los_Angeles") or an offset ("+08:00"). Empty = the TZ environment variable, else
  // the zone /etc/localtime names, else UTC.
  std::string time_zone;
  // Report progress of long statements to this callback (fraction 0..1); empty = none.
  std::function<void(double fraction, const std::string& what)> progress;
};

// What a statement's scans did (the shell's --stats line); 0 where not applicable.
struct ScanMetrics {
  int64_t files_total = 0;
  int64_t files_read = 0;
  int64_t row_groups_total = 0;
  int64_t row_groups_read = 0;
  int64_t pages_total = 0;
  int64_t pages_read = 0;
  int64_t bytes_read = 0;     // bytes fetched from storage
  int64_t rows_scanned = 0;   // rows decoded from the filter columns
  int64_t rows_returned = 0;  // rows the statement produced
  int64_t elapsed_ms = 0;
  // Pruning, per level of the stack (DESIGN.md §2), cheapest first.
  int64_t files_pruned_partition = 0;       // files whose partition values fail the filter
  int64_t files_pruned_stats = 0;           // files whose Delta log statistics fail the filter
  int64_t row_groups_pruned_stats = 0;      // row groups whose min/max/null counts fail it
  int64_t row_groups_pruned_dictionary = 0; // row groups whose dictionary has no match
  int64_t row_groups_pruned_bloom = 0;      // row groups whose Bloom filters exclude every key
  int64_t pages_pruned_index = 0;           // filter-column pages the ColumnIndex excluded
  int64_t rows_pruned_index = 0;            // rows of read row groups the page index excluded
  int64_t rows_deleted_dv = 0;              // rows dropped by deletion vectors
  int64_t rows_prewhere_filtered = 0;       // rows the filter removed before other columns were read
  int64_t pages_skipped_prewhere = 0;       // data pages not decoded because no row of them was needed

  void Add(const ScanMetrics& o);
  // {"files_total":…, …, "elapsed_ms":…}
  std::string ToJson() const;
};

// The result of one statement: a schema and row batches (empty for statements without rows).
class QueryResult {
 public:
  QueryResult();
  ~QueryResult();
  QueryResult(QueryResult&&) noexcept;
  QueryResult& operator=(QueryResult&&) noexcept;

  int num_columns() const;
  int64_t num_rows() const;
  const std::string& column_name(int i) const;
  std::string column_type(int i) const;  // SQL spelling, e.g. "DECIMAL(10,2)"
  bool IsNull(int64_t row, int col) const;
  // Text form (as the shell's table output), "NULL" for NULL; TIMESTAMP values as wall-clock
  // times in the session time zone of the statement.
  std::string GetText(int64_t row, int col) const;
  // JSON form (as --format json/jsonl).
  std::string GetJson(int64_t row, int col) const;

  // The statement kind that produced it ("SELECT", "INSERT", "CREATE TABLE", ...).
  const std::string& statement_type() const;
  const ScanMetrics& metrics() const;

  // Internal access for the shell and tests.
  const std::shared_ptr<const columnar::Schema>& schema() const;
  const std::vector<std::shared_ptr<columnar::RecordBatch>>& batches() const;
  // The session time zone TIMESTAMP text is shown in; null = UTC.
  const columnar::TimeZone* time_zone() const;
  struct Impl;
  explicit QueryResult(std::unique_ptr<Impl> impl);
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
  int64_t RowBatch(int64_t* row) const;
};

class Connection;

class Database {
 public:
  // Opens (creating if absent) the warehouse directory.
  static Result<std::unique_ptr<Database>> Open(const std::string& warehouse_dir,
                                                DatabaseOptions options = {});
  ~Database();
  std::unique_ptr<Connection> Connect();
  const std::string& warehouse_dir() const;
  const DatabaseOptions& options() const;

  struct Impl;
  Impl& impl() { return *impl_; }

 private:
  explicit Database(std::shared_ptr<Impl> impl);
  std::shared_ptr<Impl> impl_;  // shared with connections and open results
};

class Connection {
 public:
  ~Connection();
  // Runs one or more ';'-separated statements; returns the last statement's result: Stream(sql)
  // read to its end at once (the rest of a SELECT runs on every worker without pausing between
  // batches). Stops at the first failing statement; a text without statements gives an empty
  // result.
  Result<QueryResult> Query(std::string_view sql);
  // Runs statements one at a time, calling `on_result` after each; stops at the first error.
  Status Execute(std::string_view sql,
                 const std::function<Status(const std::string& statement, QueryResult&)>& on_result);
  // Requests cancellation of the running statement or open stream (from another thread).
  void Interrupt();

  // Runs the statements of `sql` and returns the last one's rows as a stream (shoal/result.h):
  // a SELECT is read lazily, batch by batch, as the caller asks for them.
  Result<std::unique_ptr<StreamingResult>> Stream(std::string_view sql);
  // Stream(sql) exported as an Arrow C stream into *out (shoal/arrow_c.h; ExportArrowStream).
  Status QueryArrow(std::string_view sql, ArrowArrayStream* out);
  // Makes `stream` readable as the relation `name` (FROM name) by the next statement that names
  // it, which consumes it: INSERT INTO t SELECT * FROM name, CREATE TABLE t AS SELECT ... FROM
  // name. Takes ownership (moves *stream, leaving it released) even on error; the stream is
  // released after that statement or with the connection. InvalidArgument for an empty name or
  // a released stream; a name registered earlier and not yet read is replaced.
  Status RegisterArrowStream(const std::string& name, ArrowArrayStream* stream);

  // Parses one statement with parameters `?` / `$N` for repeated execution (shoal/prepared.h).
  Result<std::unique_ptr<PreparedStatement>> Prepare(std::string_view sql);

  // Explicit transactions: the SQL statements BEGIN, COMMIT and ROLLBACK, with their semantics
  // and errors (doc/sql_writes.md) — Commit() returns the Conflict error of a losing commit.
  Status Begin();
  Status Commit();
  Status Rollback();
  bool in_transaction() const;

  struct Impl;
  Impl& impl() { return *impl_; }
  explicit Connection(std::shared_ptr<Impl> impl);

 private:
  std::shared_ptr<Impl> impl_;  // shared with open results and prepared statements
};

// "shoal 0.1.0"
const char* Version();

}  // namespace shoal
