// Logical types of shoal's column vectors and their physical layouts.
//
// Physical layout per type (what Vector::values() holds, one slot per row):
//   BOOLEAN uint8_t (0/1) · TINYINT int8_t · SMALLINT int16_t · INT int32_t · BIGINT int64_t
//   UBIGINT uint64_t · FLOAT float · DOUBLE double
//   DECIMAL(p,s) int64_t unscaled when p <= 18, else __int128 unscaled
//   DATE int32_t days since 1970-01-01 · TIME int64_t microseconds since midnight
//   TIMESTAMP / TIMESTAMP_NTZ int64_t microseconds since 1970-01-01 00:00:00 (TIMESTAMP is UTC)
//   STRING / BINARY: values() holds size+1 int64_t offsets into bytes()
//   ARRAY<T> / MAP<K,V>: values() holds size+1 int64_t offsets into the single child
//     (MAP's child is STRUCT<key: K, value: V>)
//   STRUCT<...>: no values; one child per field, each of the struct's length
//
// Thread-safety: DataType is immutable after construction and shared freely (TypePtr).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace shoal::columnar {

enum class TypeId : uint8_t {
  kNull,  // type of an untyped NULL literal; a vector of it has no values
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

using int128_t = __int128;

class DataType;
using TypePtr = std::shared_ptr<const DataType>;

struct Field {
  std::string name;
  TypePtr type;
  bool nullable = true;
};

class DataType {
 public:
  DataType(TypeId id, int precision = 0, int scale = 0, std::vector<Field> children = {})
      : id_(id), precision_(precision), scale_(scale), children_(std::move(children)) {}

  TypeId id() const { return id_; }
  int precision() const { return precision_; }  // DECIMAL only
  int scale() const { return scale_; }          // DECIMAL only
  // LIST: one field "element"; MAP: one field "entries" of STRUCT<key, value>; STRUCT: fields.
  const std::vector<Field>& children() const { return children_; }
  const TypePtr& element() const { return children_[0].type; }  // LIST, MAP (entries)
  const TypePtr& key() const { return children_[0].type->children_[0].type; }    // MAP
  const TypePtr& value() const { return children_[0].type->children_[1].type; }  // MAP

  bool IsNested() const { return id_ == TypeId::kList || id_ == TypeId::kStruct || id_ == TypeId::kMap; }
  bool IsInteger() const {
    return id_ == TypeId::kInt8 || id_ == TypeId::kInt16 || id_ == TypeId::kInt32 ||
           id_ == TypeId::kInt64 || id_ == TypeId::kUInt64;
  }
  bool IsFloating() const { return id_ == TypeId::kFloat || id_ == TypeId::kDouble; }
  bool IsNumeric() const { return IsInteger() || IsFloating() || id_ == TypeId::kDecimal; }
  bool IsStringLike() const { return id_ == TypeId::kString || id_ == TypeId::kBinary; }
  bool IsTemporal() const {
    return id_ == TypeId::kDate || id_ == TypeId::kTime || id_ == TypeId::kTimestamp ||
           id_ == TypeId::kTimestampNtz;
  }
  // Decimal with precision > 18 is stored as int128.
  bool IsWideDecimal() const { return id_ == TypeId::kDecimal && precision_ > 18; }
  // Bytes per value slot in values(): 0 for STRUCT and NULL; 8 (an offset) for strings/lists.
  int SlotWidth() const;
  // True when values() holds size+1 offsets (strings, binary, lists, maps).
  bool HasOffsets() const {
    return id_ == TypeId::kString || id_ == TypeId::kBinary || id_ == TypeId::kList ||
           id_ == TypeId::kMap;
  }

  // SQL spelling: BIGINT, DECIMAL(10,2), ARRAY<INT>, STRUCT<a: INT, b: STRING>, MAP<STRING, INT>.
  std::string ToString() const;
  bool Equals(const DataType& other) const;

 private:
  TypeId id_;
  int precision_;
  int scale_;
  std::vector<Field> children_;
};

inline bool operator==(const DataType& a, const DataType& b) { return a.Equals(b); }

// Shared singletons and constructors.
TypePtr NullType();
TypePtr Boolean();
TypePtr Int8();
TypePtr Int16();
TypePtr Int32();
TypePtr Int64();
TypePtr UInt64();
TypePtr Float32();
TypePtr Float64();
TypePtr Decimal(int precision, int scale);
TypePtr String();
TypePtr Binary();
TypePtr Date();
TypePtr Time();
TypePtr Timestamp();
TypePtr TimestampNtz();
TypePtr List(TypePtr element, bool element_nullable = true);
TypePtr Map(TypePtr key, TypePtr value, bool value_nullable = true);
TypePtr Struct(std::vector<Field> fields);
TypePtr FromId(TypeId id);  // primitive ids only (not DECIMAL or nested)

// A list of named, typed columns.
struct Schema {
  std::vector<Field> fields;

  size_t size() const { return fields.size(); }
  const Field& operator[](size_t i) const { return fields[i]; }
  // Index of the field named `name` (case-insensitive), or -1.
  int Find(const std::string& name) const;
  std::string ToString() const;
};
using SchemaPtr = std::shared_ptr<const Schema>;

}  // namespace shoal::columnar
