// Maps a Delta table's schema (metaData.schemaString + partitionColumns + configuration) to the
// columnar schema the engine sees, and keeps, per column and nested field, the name or field id
// it has in the Parquet data files (column mapping) so the scan can find and rename it.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "columnar/type.h"
#include "delta/actions.h"
#include "delta/schema_json.h"
#include "shoal/status.h"

namespace shoal::scan {

// delta.columnMapping.mode.
enum class ColumnMappingMode : uint8_t { kNone, kName, kId };

// One column or nested field: its logical shape and how it is found in a data file.
struct TableColumn {
  std::string name;           // logical name (what SQL sees)
  std::string physical_name;  // name in the data files (== name without column mapping)
  std::optional<int32_t> field_id;  // Parquet field_id to match in id mode
  columnar::TypePtr type;     // logical type, nested field names logical
  bool nullable = true;
  bool is_partition = false;  // top level only: value comes from the add action
  // STRUCT: its fields; LIST: {element}; MAP: {key, value}; primitives: none.
  std::vector<TableColumn> children;
};

struct TableSchema {
  columnar::Schema schema;            // logical top-level columns, table order
  std::vector<TableColumn> columns;   // parallel to schema.fields
  ColumnMappingMode mapping = ColumnMappingMode::kNone;

  // Index of the column with this logical name (case-insensitive), or -1.
  int Find(const std::string& name) const { return schema.Find(name); }
};

// The columnar type of a Delta type node (primitives, decimal, arrays, maps, structs; "void"
// becomes the NULL type). NotSupported names the type for ones shoal cannot read (variant, ...).
Result<columnar::TypePtr> DeltaTypeToColumnar(const delta::SchemaField& field);

// The mode from the table configuration; NotSupported for an unknown mode.
Result<ColumnMappingMode> ColumnMappingModeOf(const delta::Metadata& metadata);

// Builds the schema of a table from its metadata: parses the schema JSON, applies column
// mapping, marks partition columns. Corruption when a partition column is not in the schema.
Result<TableSchema> BuildTableSchema(const delta::Metadata& metadata);

// Builds a TableColumn tree for a columnar type without mapping (plain Parquet files).
TableColumn ColumnForType(const std::string& name, const columnar::TypePtr& type, bool nullable);

}  // namespace shoal::scan
