// Maps a Parquet schema (the flattened SchemaElement tree) to shoal's columnar types, and
// describes how each top-level field is assembled from its leaf columns (Dremel levels).
// Handles the legacy list and map forms of LogicalTypes.md (two- and three-level LISTs,
// MAP_KEY_VALUE, repeated fields without annotation, maps without values).
//
// Thread-safety: immutable after construction; shared freely.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "columnar/type.h"
#include "parquet/metadata.h"
#include "shoal/status.h"

namespace shoal::parquet {

// How a leaf's physical values become the values of its columnar type.
enum class Conversion : uint8_t {
  kNone,             // same layout (INT32→INT, INT64→BIGINT, FLOAT, DOUBLE, BOOLEAN, BYTE_ARRAY)
  kInt32ToInt8,
  kInt32ToInt16,
  kUInt8ToInt16,
  kUInt16ToInt32,
  kUInt32ToInt64,
  kInt32ToInt64,     // DECIMAL on INT32 (unscaled, p <= 18 slot)
  kInt32ToInt128,    // DECIMAL on INT32 with p > 18
  kInt64ToInt128,    // DECIMAL on INT64 with p > 18
  kMillisToMicros32, // TIME(MILLIS) on INT32
  kMillisToMicros,   // INT64 millis
  kNanosToMicros,    // INT64 nanos (floor)
  kInt96ToMicros,    // INT96 Julian day + nanos
  kBytesToDecimal,   // BYTE_ARRAY / FLBA big-endian two's complement
  kFlbaToBinary,     // FLBA → BINARY
  kFlbaToUuid,       // FLBA(16) → canonical UUID text
  kFloat16ToFloat,   // FLBA(2) half precision
};

// One leaf column (one column chunk per row group).
struct LeafColumn {
  int index = 0;                // column index within a row group
  std::vector<std::string> path;
  std::string dotted_path;      // "a.b.c", for messages
  PhysicalType physical = PhysicalType::kInt32;
  int32_t type_length = 0;      // FIXED_LEN_BYTE_ARRAY width
  int16_t max_def = 0;
  int16_t max_rep = 0;
  columnar::TypePtr type;       // its columnar type
  Conversion conversion = Conversion::kNone;
  int element_index = 0;        // its SchemaElement in FileMetaData::schema
};

// A node of a top-level field's columnar shape, annotated with Dremel levels.
struct FieldNode {
  enum class Kind : uint8_t { kLeaf, kStruct, kList, kMap };
  Kind kind = Kind::kLeaf;
  std::string name;
  columnar::TypePtr type;
  bool nullable = true;
  // The node is present (not NULL) for a level entry whose definition level >= def.
  int16_t def = 0;
  // LIST/MAP: entries with def >= elem_def have at least one element; elements repeat at `rep`.
  int16_t elem_def = 0;
  int16_t rep = 0;
  int leaf = -1;  // kLeaf: LeafColumn index
  // STRUCT: fields; LIST: one element; MAP: key and value (value may be missing: see schema.cc).
  std::vector<FieldNode> children;
  int first_leaf = 0;  // leaves of this subtree are [first_leaf, first_leaf + num_leaves)
  int num_leaves = 0;
};

class ParquetSchema {
 public:
  // Builds the schema from the footer's elements; Corruption for a malformed tree.
  static Result<ParquetSchema> Make(const std::vector<SchemaElement>& elements);

  const columnar::Schema& columnar_schema() const { return schema_; }
  const std::vector<FieldNode>& fields() const { return fields_; }
  const std::vector<LeafColumn>& leaves() const { return leaves_; }
  int num_leaves() const { return static_cast<int>(leaves_.size()); }

 private:
  columnar::Schema schema_;
  std::vector<FieldNode> fields_;
  std::vector<LeafColumn> leaves_;
};

}  // namespace shoal::parquet
