// Maps a columnar Schema to the Parquet schema the writer emits (SchemaElements with logical
// and legacy converted types, 3-level LISTs, MAP key_value groups, optional field ids) and to
// the tree the level builder walks to shred vectors into leaf columns.
//
// Physical types: BOOLEAN; INT8/16/32 and DATE on INT32; INT64, UBIGINT, TIME and TIMESTAMP on
// INT64; FLOAT; DOUBLE; DECIMAL on INT32 (p <= 9), INT64 (p <= 18) or the narrowest
// FIXED_LEN_BYTE_ARRAY (p > 18); STRING and BINARY on BYTE_ARRAY.
//
// Thread-safety: plain values, immutable once built.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "columnar/type.h"
#include "parquet/metadata.h"
#include "shoal/status.h"

namespace shoal::parquet {

// One leaf column as the writer sees it.
struct WriteLeaf {
  std::vector<std::string> path;  // path_in_schema
  std::string dotted;             // "a.list.element"
  PhysicalType physical = PhysicalType::kInt32;
  int32_t type_length = 0;  // FIXED_LEN_BYTE_ARRAY width
  int16_t max_def = 0;
  int16_t max_rep = 0;
  columnar::TypePtr type;  // the leaf vector's columnar type
  SchemaElement element;   // its schema element (a copy)
};

// A node of a top-level field's shape (shredding order = leaf order).
struct WriteNode {
  enum class Kind : uint8_t { kLeaf, kStruct, kList, kMap };
  Kind kind = Kind::kLeaf;
  bool nullable = true;
  int16_t rep = 0;  // LIST/MAP: repetition level of its elements
  int leaf = -1;    // kLeaf: index in WriteSchema::leaves
  // STRUCT: fields; LIST: the element; MAP: the key_value struct (key, value).
  std::vector<WriteNode> children;
  int first_leaf = 0;
  int num_leaves = 0;
};

struct WriteSchema {
  std::vector<SchemaElement> elements;  // FileMetaData::schema, root first
  std::vector<WriteNode> fields;        // one per top-level column
  std::vector<WriteLeaf> leaves;
};

// Builds the write schema. `field_ids` maps dotted Parquet paths (e.g. "a", "a.list.element")
// to field ids. NotSupported for types Parquet cannot hold here (NULL); InvalidArgument for
// a decimal precision outside 1..38.
Result<WriteSchema> MakeWriteSchema(const columnar::Schema& schema,
                                    const std::map<std::string, int32_t>& field_ids = {});

// Bytes of the narrowest two's complement FIXED_LEN_BYTE_ARRAY holding DECIMAL(precision).
int DecimalByteWidth(int precision);

}  // namespace shoal::parquet
