// Delta schema JSON (PROTOCOL.md "Schema Serialization Format", metaData.schemaString):
// parsing into a neutral SchemaField tree and serializing it back in Spark's form.
//
// The tree is deliberately untyped (type names as strings); a later layer maps it to
// columnar types. Column metadata is kept as raw JSON with typed accessors for the keys
// Delta defines (column mapping, identity columns, generation expressions, type widening).
// Thread-safety: plain values and free functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "delta/json_fields.h"
#include "shoal/status.h"

namespace shoal::delta {

// One node: a struct field, or the synthetic "element" / "key" / "value" child of an
// array / map type.
struct SchemaField {
  std::string name;
  // "struct", "array", "map", or a primitive: string, long, integer, short, byte, float, double,
  // decimal, boolean, binary, date, timestamp, timestamp_ntz (others such as void/variant are
  // kept by name).
  std::string type;
  int32_t precision = 0;  // decimal only
  int32_t scale = 0;      // decimal only
  // Field nullability; for array "element" it is containsNull, for map "value"
  // valueContainsNull, map "key" is never nullable.
  bool nullable = true;
  // struct: its fields; array: {element}; map: {key, value}.
  std::vector<SchemaField> children;
  Json metadata = Json::object();  // struct fields only

  bool operator==(const SchemaField&) const = default;
  bool IsStruct() const { return type == "struct"; }
  bool IsArray() const { return type == "array"; }
  bool IsMap() const { return type == "map"; }
  // The type as Spark writes primitive names ("decimal(10,2)").
  std::string TypeName() const;

  std::optional<int64_t> ColumnMappingId() const { return MetaInt("delta.columnMapping.id"); }
  std::optional<std::string> PhysicalName() const {
    return MetaString("delta.columnMapping.physicalName");
  }
  std::optional<int64_t> IdentityStart() const { return MetaInt("delta.identity.start"); }
  std::optional<int64_t> IdentityStep() const { return MetaInt("delta.identity.step"); }
  std::optional<int64_t> IdentityHighWaterMark() const {
    return MetaInt("delta.identity.highWaterMark");
  }
  std::optional<bool> IdentityAllowExplicitInsert() const;
  bool IsIdentityColumn() const { return IdentityStart().has_value(); }
  std::optional<std::string> GenerationExpression() const {
    return MetaString("delta.generationExpression");
  }
  // Column default expression (allowColumnDefaults), "CURRENT_DEFAULT".
  std::optional<std::string> DefaultExpression() const { return MetaString("CURRENT_DEFAULT"); }
  // Raw delta.typeChanges array (type widening history), or nullptr.
  const Json* TypeChanges() const;
  // The invariant expression from delta.invariants ({"expression":{"expression":"..."}}).
  std::optional<std::string> Invariant() const;

  std::optional<int64_t> MetaInt(std::string_view key) const;
  std::optional<std::string> MetaString(std::string_view key) const;
};

// Parses a schemaString; the result is a root field of type "struct" (name "").
// Corruption naming the offending path on malformed input.
Result<SchemaField> ParseSchemaJson(std::string_view schema_string);
// Serializes a root struct back to the compact JSON Spark writes.
std::string SerializeSchemaJson(const SchemaField& root);
Json SchemaTypeToJson(const SchemaField& node);

// The JSON of a primitive top-level field an engine adds to a schema for its own files (row
// tracking's materialized columns, `_change_type`): under column mapping (`mapped`) its
// physical name is its name and its field id `field_id`.
Json HiddenFieldJson(const std::string& name, const std::string& type, bool nullable, bool mapped,
                     int32_t field_id);

// Finds a top-level or nested field by a dotted path of names (exact match), or nullptr.
const SchemaField* FindField(const SchemaField& root, const std::vector<std::string>& path);

}  // namespace shoal::delta
