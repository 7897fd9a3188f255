// Prepared statements: one SQL statement parsed once, with parameters `?` (numbered left to
// right) or `$1`, `$2`, ... (not both), run many times with different bound values.
//
//   auto ps = con->Prepare("SELECT count(*) FROM events WHERE day = ? AND kind = ?").ValueOrDie();
//   ps->BindDate(1, 19723);
//   ps->BindString(2, "click");
//   auto r = ps->Execute();
//
// A bound value takes the place of the parameter exactly as the literal of its type would
// (BindInt64(1, 5) is `5`, BindDate is `DATE '…'`), so casts, constant folding and scan pruning
// treat it as that literal; a value no literal spells (a NaN double, BindArrow's nested values) is
// bound as a constant of its type. Parameter indices are 1-based.
//
// Thread-safety: used by one thread at a time, and not concurrently with its Connection.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "shoal/result.h"
#include "shoal/status.h"

struct ArrowArray;   // shoal/arrow_c.h
struct ArrowSchema;  // shoal/arrow_c.h

namespace shoal {

class QueryResult;

class PreparedStatement {
 public:
  ~PreparedStatement();
  PreparedStatement(const PreparedStatement&) = delete;
  PreparedStatement& operator=(const PreparedStatement&) = delete;

  // Number of parameters (the highest $N, or the count of `?`).
  int parameter_count() const;

  // Each Bind* sets parameter `index` (1-based) until it is bound again or ClearBindings();
  // InvalidArgument for an index outside [1, parameter_count()] or a malformed value.
  Status BindNull(int index);
  Status BindBool(int index, bool value);
  Status BindInt64(int index, int64_t value);
  Status BindDouble(int index, double value);  // NaN and infinities too (as DOUBLE values)
  Status BindString(int index, std::string_view value);
  Status BindBinary(int index, std::string_view bytes);  // BINARY, as X'…'
  // DECIMAL from its text ("-12.50": precision and scale as written) or its unscaled value and
  // scale (BindDecimal(i, 1250, 2) is 12.50).
  Status BindDecimal(int index, std::string_view text);
  Status BindDecimal(int index, Decimal128 unscaled, int scale);
  Status BindDate(int index, int32_t days_since_epoch);
  Status BindTimestamp(int index, int64_t micros_since_epoch_utc);
  Status BindTimestampNtz(int index, int64_t micros_since_epoch);
  // Row `row` of an Arrow array (shoal/arrow_c.h), copied: any type Connection::
  // RegisterArrowStream reads, ARRAY / STRUCT / MAP included (the one way to bind nested values).
  // The structs stay the caller's. NotSupported for a format shoal has no type for,
  // InvalidArgument for a malformed array or a row outside it.
  Status BindArrow(int index, const ArrowSchema& schema, const ArrowArray& array, int64_t row = 0);
  void ClearBindings();

  // Runs the statement with the bound values; InvalidArgument naming the first unbound
  // parameter when not all are bound, or when a bound value's type does not fit its use.
  Result<QueryResult> Execute();
  Result<std::unique_ptr<StreamingResult>> Stream();

  struct Impl;
  explicit PreparedStatement(std::unique_ptr<Impl> impl);

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace shoal
