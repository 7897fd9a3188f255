// Streaming, typed statement results: a StreamingResult hands out one ResultBatch at a time
// (memory stays bounded by a few batches for any result size), and each batch gives typed,
// zero-copy access to its columns through the public types below.
//
//   auto stream = con->Stream("SELECT id, amount FROM orders").ValueOrDie();
//   shoal::ResultBatch batch;
//   while (stream->Next(&batch).ValueOrDie()) {
//     shoal::Column id = batch.column(0);
//     for (int64_t r = 0; r < batch.num_rows(); ++r) {
//       if (!id.IsNull(r)) Use(id.GetInt64(r));
//     }
//   }
//
// Lifetimes: a ResultBatch (and the Columns taken from it) stays valid as long as it is held,
// after Next() moved on, and after the stream, Connection and Database were destroyed.
// doc/embedding.md has the details and the Arrow type mapping of ExportArrowStream.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/status.h"

struct ArrowArrayStream;  // shoal/arrow_c.h

namespace shoal {

namespace columnar {
class Vector;
struct RecordBatch;
}  // namespace columnar

struct ScanMetrics;  // shoal/database.h

// A column's logical type. Values are stored as (Get* below):
//   BOOLEAN bool · TINYINT..BIGINT int8..int64 · UBIGINT uint64 · FLOAT float · DOUBLE double
//   DECIMAL(p,s) the unscaled integer (Decimal128) · STRING, BINARY bytes (string_view)
//   DATE int32 days since 1970-01-01 · TIME int64 microseconds since midnight
//   TIMESTAMP int64 microseconds since 1970-01-01 UTC · TIMESTAMP_NTZ the same, no time zone
//   ARRAY / MAP / STRUCT: child columns (Column::child)
enum class TypeKind : uint8_t {
  kNull,  // the type of an untyped NULL (every row is NULL)
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt64,
  kFloat,
  kDouble,
  kDecimal,
  kString,
  kBinary,
  kDate,
  kTime,
  kTimestamp,
  kTimestampNtz,
  kList,
  kStruct,
  kMap,
};

struct ColumnType {
  TypeKind kind = TypeKind::kNull;
  int precision = 0;  // DECIMAL only
  int scale = 0;      // DECIMAL only
  // ARRAY: one child "element"; MAP: one child "entries", a STRUCT<key, value>; STRUCT: one
  // child per field.
  std::vector<std::string> child_names;
  std::vector<ColumnType> children;

  // SQL spelling: BIGINT, DECIMAL(38,2), ARRAY<INT>, MAP<STRING, INT>, STRUCT<a: INT>.
  std::string ToString() const;
};

// A DECIMAL's unscaled value as a two's-complement 128-bit integer in two halves.
struct Decimal128 {
  uint64_t low = 0;
  int64_t high = 0;  // sign-extended: -1 for negative values that fit in 64 bits

  // The value with `scale` digits after the point, e.g. "-12.50".
  std::string ToString(int scale) const;
  friend bool operator==(const Decimal128& a, const Decimal128& b) { return a.low == b.low && a.high == b.high; }
};

// One column of a ResultBatch: a borrowed, zero-copy view, valid while its batch is held.
// Each getter expects the type listed above; on another type, or a row outside [0, size()), it
// returns 0 / false / an empty view (never undefined behaviour). The integer getters widen:
// GetInt64 reads TINYINT..BIGINT, GetDouble reads FLOAT and DOUBLE.
//
// Thread-safety: read-only; safe to read from several threads.
class Column {
 public:
  struct ListRange {
    int64_t begin = 0;  // the row's elements are rows [begin, end) of child(0)
    int64_t end = 0;
  };

  Column() = default;
  const ColumnType& type() const;
  int64_t size() const;
  bool IsNull(int64_t row) const;
  int64_t null_count() const;

  bool GetBool(int64_t row) const;
  int8_t GetInt8(int64_t row) const;
  int16_t GetInt16(int64_t row) const;
  int32_t GetInt32(int64_t row) const;
  int64_t GetInt64(int64_t row) const;
  uint64_t GetUInt64(int64_t row) const;
  float GetFloat(int64_t row) const;
  double GetDouble(int64_t row) const;
  Decimal128 GetDecimal(int64_t row) const;    // unscaled; type().scale digits after the point
  int32_t GetDate(int64_t row) const;          // days since 1970-01-01
  int64_t GetTime(int64_t row) const;          // microseconds since midnight
  int64_t GetTimestamp(int64_t row) const;     // TIMESTAMP and TIMESTAMP_NTZ: microseconds
  std::string_view GetString(int64_t row) const;  // STRING and BINARY
  ListRange GetList(int64_t row) const;        // ARRAY and MAP

  // Nested columns: ARRAY's elements, MAP's entries (child(0) of which are the keys, child(1)
  // the values), STRUCT's fields.
  int num_children() const;
  Column child(int i) const;

  // Text form as the shell prints it ("NULL" for NULL).
  std::string GetText(int64_t row) const;

 private:
  friend class ResultBatch;
  Column(const columnar::Vector* vector, const ColumnType* type) : vector_(vector), type_(type) {}
  bool Is(TypeKind kind, int64_t row) const;

  const columnar::Vector* vector_ = nullptr;
  const ColumnType* type_ = nullptr;
};

// A batch of rows of a result: equal-length columns. Copies share the data.
//
// Thread-safety: read-only once returned; safe to read from several threads.
class ResultBatch {
 public:
  ResultBatch();
  ~ResultBatch();
  ResultBatch(const ResultBatch&);
  ResultBatch& operator=(const ResultBatch&);

  int64_t num_rows() const;
  int num_columns() const;
  const std::string& column_name(int i) const;
  Column column(int i) const;  // an empty Column for i out of range

  // Internal: the batch in shoal's columnar form, for the shell and tests.
  const std::shared_ptr<columnar::RecordBatch>& batch() const;
  struct Impl;
  explicit ResultBatch(std::shared_ptr<const Impl> impl);

 private:
  std::shared_ptr<const Impl> impl_;
};

// The rows of one statement, produced batch by batch as they are read: a SELECT runs lazily
// (its scans and streaming operators advance only when Next is called; operators that need all
// their input — sort, aggregate, join build — ran before Connection::Stream returned); other
// statements' (small) results are handed out from memory.
//
// Lifetimes: keeps its Connection's and Database's state alive. A stream opened inside an
// explicit transaction is closed when the connection runs its next statement (Next then
// returns InvalidArgument); one opened in auto-commit mode reads its own snapshot and stays
// valid. Connection::Interrupt() cancels it (Next returns Interrupted).
//
// Thread-safety: used by one thread at a time.
class StreamingResult {
 public:
  ~StreamingResult();
  StreamingResult(const StreamingResult&) = delete;
  StreamingResult& operator=(const StreamingResult&) = delete;

  int num_columns() const;
  const std::string& column_name(int i) const;
  const ColumnType& column_type(int i) const;
  // The statement kind ("SELECT", "INSERT", ...).
  const std::string& statement_type() const;

  // Stores the next non-empty batch in *batch and returns true, or returns false at the end
  // (and again on later calls). After an error, returns that error again.
  Result<bool> Next(ResultBatch* batch);
  // What the statement's scans did; complete once Next returned false.
  const ScanMetrics& metrics() const;

  struct Impl;
  explicit StreamingResult(std::unique_ptr<Impl> impl);
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
};

// Moves `result` into an Arrow C stream (*out must not hold a live stream; on success the
// consumer owns *out and calls its release callback). Batches are exported as they are read;
// fixed-width values and string/list offsets are shared without copying. NotSupported for a
// type without an Arrow form (none today). See doc/embedding.md for the type mapping.
Status ExportArrowStream(std::unique_ptr<StreamingResult> result, ArrowArrayStream* out);

}  // namespace shoal
