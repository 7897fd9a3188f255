// Matches a data file's top-level fields to table columns (by Parquet field_id in id mapping
// mode, else by physical name, exact then case-insensitive) and converts the vectors read from
// the file into the table's shape: nested struct fields found by physical name and renamed to
// logical names, fields absent from the file filled with NULL, narrower file types widened to
// the table type (type widening), timestamps relabelled between UTC and NTZ.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <vector>

#include "columnar/value.h"
#include "columnar/vector.h"
#include "parquet/file_reader.h"
#include "scan/delta_schema.h"

namespace shoal::scan {

// The field_id of each top-level field of the file (nullopt where absent).
std::vector<std::optional<int32_t>> TopLevelFieldIds(const parquet::FileMetaData& metadata);

// Index of the file's top-level field holding `column`, or -1 when the file lacks it.
int FindFileField(const columnar::Schema& file_schema,
                  const std::vector<std::optional<int32_t>>& file_field_ids,
                  const TableColumn& column, ColumnMappingMode mode);

// Converts `in` (as read from the file) to `column.type`. `in` may be consumed (its buffers
// moved) when only relabelling is needed; the caller must not use it afterwards.
Result<columnar::VectorPtr> AdaptColumn(columnar::VectorPtr in, const TableColumn& column);

// Converts a statistics bound read from the file into the table column's type; nullopt when
// the conversion does not preserve order or fails.
std::optional<columnar::Value> AdaptBound(const columnar::Value& v, const columnar::TypePtr& to);

}  // namespace shoal::scan
