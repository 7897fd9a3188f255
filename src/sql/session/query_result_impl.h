// The data behind a shoal::QueryResult: schema, batches, statement kind, scan metrics and the
// reservation of the batches' memory.
//
// Thread-safety: built by one thread, then read-only.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/memory_tracker.h"
#include "columnar/time_zone.h"
#include "columnar/vector.h"
#include "shoal/database.h"

namespace shoal {

struct QueryResult::Impl {
  std::shared_ptr<const columnar::Schema> schema = std::make_shared<columnar::Schema>();
  std::vector<std::shared_ptr<columnar::RecordBatch>> batches;
  std::string statement_type;
  ScanMetrics metrics;
  // Prefix sums of batch row counts, built lazily for random row access.
  mutable std::vector<int64_t> batch_starts;
  // The batches' bytes under the database's memory_limit (a SELECT's result), released with
  // the result.
  MemoryReservation memory;
  // The session time zone of the statement, for text forms of TIMESTAMP values; null = UTC.
  const columnar::TimeZone* zone = nullptr;
};

// Builds a result from a schema and batches (batches may be empty).
QueryResult MakeQueryResult(std::shared_ptr<const columnar::Schema> schema,
                            std::vector<std::shared_ptr<columnar::RecordBatch>> batches,
                            std::string statement_type, ScanMetrics metrics = {});

}  // namespace shoal
