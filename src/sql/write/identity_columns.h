// IdentityColumns: the identity columns (PROTOCOL.md "Identity Columns") of a write's target
// table, and the rules every write statement applies to them — values generated for rows that
// do not supply one (INSERT, MERGE … INSERT), explicit values rejected for GENERATED ALWAYS,
// UPDATE rejected on any identity column (doc/identity_columns.md) — and the high-water marks
// a statement that generated values moves in its commit's metadata.
//
// Thread-safety: immutable after Make; IdentityValues is a pure function.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "columnar/type.h"
#include "columnar/vector.h"
#include "delta/actions.h"
#include "shoal/status.h"

namespace shoal::sql {

// An identity column's value sequence for one statement: base, base+step, ...
struct IdentitySequence {
  int64_t base = 1;
  int64_t step = 1;
};

// Values `first` .. `first + n - 1` of `seq` (the i-th value is base + i * step) as a BIGINT
// vector; OutOfRange naming `column` when one overflows BIGINT.
Result<columnar::VectorPtr> IdentityValues(const IdentitySequence& seq, int64_t first, int64_t n,
                                           const std::string& column);

class IdentityColumns {
 public:
  // Finds the identity columns of `metadata`'s schema among `table_schema`'s columns (its
  // logical columns, scan::BuildTableSchema order).
  static Result<IdentityColumns> Make(const delta::Metadata& metadata, const columnar::Schema& table_schema);

  bool any() const { return any_; }
  bool Is(size_t c) const { return c < columns_.size() && columns_[c].identity; }
  // GENERATED ALWAYS (delta.identity.allowExplicitInsert false or absent).
  bool IsAlways(size_t c) const { return Is(c) && !columns_[c].allow_explicit_insert; }

  // Binder error when a statement supplies a value for GENERATED ALWAYS column c.
  Status CheckExplicitInsert(size_t c) const;
  // The error of an UPDATE (or MERGE … UPDATE) that assigns identity column c
  // (Delta's DELTA_IDENTITY_COLUMNS_UPDATE_NOT_SUPPORTED).
  Status UpdateNotSupported(size_t c) const;

  // The sequence a statement hands out for column c: the value after the high-water mark, or
  // the start value when none was generated yet.
  IdentitySequence Sequence(size_t c) const;

  // `metadata` with the high-water mark of every column c with used[c] > 0 moved to the last
  // value handed out (Sequence(c) value used[c] - 1). Corruption when the schema is not a JSON
  // struct.
  Result<delta::Metadata> WithHighWaterMarks(const delta::Metadata& metadata, const std::vector<int64_t>& used) const;

 private:
  struct Column {
    bool identity = false;
    bool allow_explicit_insert = false;
    std::string name;  // as in the Delta schema
    int64_t start = 1;
    int64_t step = 1;
    std::optional<int64_t> high_water_mark;
  };
  std::vector<Column> columns_;  // per table column
  bool any_ = false;
};

}  // namespace shoal::sql
