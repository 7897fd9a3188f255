#include "columnar/type.h"

#include <strings.h>

namespace shoal::columnar {

int DataType::SlotWidth() const {
  switch (id_) {
    case TypeId::kNull:
    case TypeId::kStruct: return 0;
    case TypeId::kBoolean:
    case TypeId::kInt8: return 1;
    case TypeId::kInt16: return 2;
    case TypeId::kInt32:
    case TypeId::kFloat:
    case TypeId::kDate: return 4;
    case TypeId::kDecimal: return precision_ > 18 ? 16 : 8;
    default: return 8;
  }
}

std::string DataType::ToString() const {
  switch (id_) {
    case TypeId::kNull: return "NULL";
    case TypeId::kBoolean: return "BOOLEAN";
    case TypeId::kInt8: return "TINYINT";
    case TypeId::kInt16: return "SMALLINT";
    case TypeId::kInt32: return "INT";
    case TypeId::kInt64: return "BIGINT";
    case TypeId::kUInt64: return "UBIGINT";
    case TypeId::kFloat: return "FLOAT";
    case TypeId::kDouble: return "DOUBLE";
    case TypeId::kDecimal:
      return "DECIMAL(" + std::to_string(precision_) + "," + std::to_string(scale_) + ")";
    case TypeId::kString: return "STRING";
    case TypeId::kBinary: return "BINARY";
    case TypeId::kDate: return "DATE";
    case TypeId::kTime: return "TIME";
    case TypeId::kTimestamp: return "TIMESTAMP";
    case TypeId::kTimestampNtz: return "TIMESTAMP_NTZ";
    case TypeId::kList: return "ARRAY<" + element()->ToString() + ">";
    case TypeId::kMap: return "MAP<" + key()->ToString() + ", " + value()->ToString() + ">";
    case TypeId::kStruct: {
      std::string s = "STRUCT<";
      for (size_t i = 0; i < children_.size(); ++i) {
        if (i) s += ", ";
        s += children_[i].name + ": " + children_[i].type->ToString();
      }
      return s + ">";
    }
  }
  return "?";
}

bool DataType::Equals(const DataType& o) const {
  if (id_ != o.id_) return false;
  if (id_ == TypeId::kDecimal) return precision_ == o.precision_ && scale_ == o.scale_;
  if (children_.size() != o.children_.size()) return false;
  for (size_t i = 0; i < children_.size(); ++i) {
    if (id_ == TypeId::kStruct && children_[i].name != o.children_[i].name) return false;
    if (!children_[i].type->Equals(*o.children_[i].type)) return false;
  }
  return true;
}

#define SHOAL_SINGLETON(fn, id)                              \
  TypePtr fn() {                                             \
    static const TypePtr t = std::make_shared<DataType>(id); \
    return t;                                                \
  }
SHOAL_SINGLETON(NullType, TypeId::kNull)
SHOAL_SINGLETON(Boolean, TypeId::kBoolean)
SHOAL_SINGLETON(Int8, TypeId::kInt8)
SHOAL_SINGLETON(Int16, TypeId::kInt16)
SHOAL_SINGLETON(Int32, TypeId::kInt32)
SHOAL_SINGLETON(Int64, TypeId::kInt64)
SHOAL_SINGLETON(UInt64, TypeId::kUInt64)
SHOAL_SINGLETON(Float32, TypeId::kFloat)
SHOAL_SINGLETON(Float64, TypeId::kDouble)
SHOAL_SINGLETON(String, TypeId::kString)
SHOAL_SINGLETON(Binary, TypeId::kBinary)
SHOAL_SINGLETON(Date, TypeId::kDate)
SHOAL_SINGLETON(Time, TypeId::kTime)
SHOAL_SINGLETON(Timestamp, TypeId::kTimestamp)
SHOAL_SINGLETON(TimestampNtz, TypeId::kTimestampNtz)
#undef SHOAL_SINGLETON

TypePtr Decimal(int precision, int scale) {
  return std::make_shared<DataType>(TypeId::kDecimal, precision, scale);
}

TypePtr List(TypePtr element, bool element_nullable) {
  return std::make_shared<DataType>(TypeId::kList, 0, 0,
                                    std::vector<Field>{{"element", std::move(element), element_nullable}});
}

TypePtr Map(TypePtr key, TypePtr value, bool value_nullable) {
  auto entries = Struct({{"key", std::move(key), false}, {"value", std::move(value), value_nullable}});
  return std::make_shared<DataType>(TypeId::kMap, 0, 0,
                                    std::vector<Field>{{"entries", std::move(entries), false}});
}

TypePtr Struct(std::vector<Field> fields) {
  return std::make_shared<DataType>(TypeId::kStruct, 0, 0, std::move(fields));
}

TypePtr FromId(TypeId id) {
  switch (id) {
    case TypeId::kNull: return NullType();
    case TypeId::kBoolean: return Boolean();
    case TypeId::kInt8: return Int8();
    case TypeId::kInt16: return Int16();
    case TypeId::kInt32: return Int32();
    case TypeId::kInt64: return Int64();
    case TypeId::kUInt64: return UInt64();
    case TypeId::kFloat: return Float32();
    case TypeId::kDouble: return Float64();
    case TypeId::kString: return String();
    case TypeId::kBinary: return Binary();
    case TypeId::kDate: return Date();
    case TypeId::kTime: return Time();
    case TypeId::kTimestamp: return Timestamp();
    case TypeId::kTimestampNtz: return TimestampNtz();
    default: return nullptr;
  }
}

int Schema::Find(const std::string& name) const {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (strcasecmp(fields[i].name.c_str(), name.c_str()) == 0) return static_cast<int>(i);
  }
  return -1;
}

std::string Schema::ToString() const {
  std::string s;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) s += ", ";
    s += fields[i].name + " " + fields[i].type->ToString();
    if (!fields[i].nullable) s += " NOT NULL";
  }
  return s;
}

}  // namespace shoal::columnar
