// The data behind shoal::StreamingResult and shoal::ResultBatch: a SELECT's open plan (pulled
// lazily) or a finished statement's batches, and the public column types.
//
// Thread-safety: used by one thread at a time (the StreamingResult's).
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "shoal/database.h"
#include "shoal/result.h"
#include "sql/session/database_impl.h"

namespace shoal {

struct StreamingResult::Impl {
  std::shared_ptr<Connection::Impl> conn;  // keeps the session (and transaction) alive
  uint64_t generation = 0;                 // conn->generation when opened
  bool in_transaction = false;             // opened inside an explicit transaction
  std::shared_ptr<const columnar::Schema> schema;
  std::shared_ptr<const std::vector<ColumnType>> types;
  std::string statement_type;
  const columnar::TimeZone* zone = nullptr;  // the session zone of the statement (text of TIMESTAMPs)
  ScanMetrics metrics;
  std::chrono::steady_clock::time_point start;
  std::optional<sql::Session::OpenedQuery> query;  // a lazily run SELECT
  std::deque<columnar::BatchPtr> batches;          // a finished statement's rows
  bool done = false;
  Status error;            // sticky: every later Next returns it

  // The next non-empty batch or nullptr at the end; checks interrupts and invalidation.
  Result<columnar::BatchPtr> NextBatch();
  // Every remaining batch at once (a SELECT's rest runs with free-running workers:
  // PlanStream::Drain); the stream is at its end afterwards. Errors as NextBatch.
  Result<std::vector<columnar::BatchPtr>> Drain();
  // The largest number of batches the open plan held at once (0 for finished statements).
  size_t max_buffered() const;

 private:
  // The invalidation error when the stream was opened in a transaction that ran another
  // statement since.
  Status CheckOpen();
  // Makes `st` the sticky error, closes the plan and fails the explicit transaction it ran in.
  Status Fail(Status st);
  // After the plan's last batch: the statement's metrics, and the plan freed.
  void FinishQuery();
};

struct ResultBatch::Impl {
  columnar::BatchPtr batch;
  std::shared_ptr<const columnar::Schema> schema;
  std::shared_ptr<const std::vector<ColumnType>> types;
};

// The public description of `type`.
ColumnType ToColumnType(const columnar::DataType& type);

// The rest of `stream` as one QueryResult (schema, batches, statement type, metrics): how
// Connection::Query and PreparedStatement::Execute are built on their streams.
Result<QueryResult> CollectStream(StreamingResult& stream);

// A stream over the finished statement `result`.
std::unique_ptr<StreamingResult> MakeFinishedStream(QueryResult result, std::shared_ptr<Connection::Impl> conn);
// A stream over an opened SELECT.
std::unique_ptr<StreamingResult> MakeQueryStream(sql::Session::OpenedQuery query,
                                                 std::shared_ptr<Connection::Impl> conn,
                                                 std::chrono::steady_clock::time_point start);

}  // namespace shoal

namespace shoal {

// Starts `statement` on `conn` as a stream: a SELECT opened lazily, any other statement run.
Result<std::unique_ptr<StreamingResult>> StreamStatement(const std::shared_ptr<Connection::Impl>& conn,
                                                         const sql::Statement& statement);

}  // namespace shoal
