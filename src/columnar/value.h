// Value: one typed scalar (possibly NULL) — literals, statistics bounds, partition values and
// test expectations. Not for hot loops: vectors are.
//
// Thread-safety: a value type; immutable once built.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "columnar/type.h"
#include "columnar/vector.h"

namespace shoal::columnar {

class Value {
 public:
  Value() : type_(NullType()) {}  // untyped NULL

  static Value Null(TypePtr type) { return Value(std::move(type), Storage{}); }
  static Value Boolean(bool v) { return Value(columnar::Boolean(), Storage{int64_t{v}}); }
  // Any integer, date, time or timestamp type (value in its physical unit).
  static Value Integer(TypePtr type, int64_t v) { return Value(std::move(type), Storage{v}); }
  static Value Int64(int64_t v) { return Integer(columnar::Int64(), v); }
  static Value Int32(int32_t v) { return Integer(columnar::Int32(), v); }
  static Value UInt64(uint64_t v) { return Value(columnar::UInt64(), Storage{v}); }
  static Value Double(double v) { return Value(Float64(), Storage{v}); }
  static Value Float(float v) { return Value(Float32(), Storage{double{v}}); }
  static Value Decimal(int precision, int scale, int128_t unscaled) {
    return Value(columnar::Decimal(precision, scale), Storage{unscaled});
  }
  static Value String(std::string v) { return Value(columnar::String(), Storage{std::move(v)}); }
  static Value Binary(std::string v) { return Value(columnar::Binary(), Storage{std::move(v)}); }
  static Value Date(int32_t days) { return Integer(columnar::Date(), days); }
  static Value Timestamp(int64_t micros) { return Integer(columnar::Timestamp(), micros); }
  // LIST/MAP (entries as STRUCT<key,value> values) and STRUCT (one value per field).
  static Value Nested(TypePtr type, std::vector<Value> children) {
    return Value(std::move(type), Storage{std::move(children)});
  }

  const TypePtr& type() const { return type_; }
  bool is_null() const { return std::holds_alternative<std::monostate>(v_); }

  bool GetBool() const { return std::get<int64_t>(v_) != 0; }
  int64_t GetInt() const { return std::get<int64_t>(v_); }  // integers, date, time, timestamp
  uint64_t GetUInt() const { return std::get<uint64_t>(v_); }
  double GetDouble() const { return std::get<double>(v_); }  // FLOAT and DOUBLE
  int128_t GetDecimal() const { return std::get<int128_t>(v_); }  // unscaled
  const std::string& GetString() const { return std::get<std::string>(v_); }  // STRING, BINARY
  const std::vector<Value>& GetChildren() const { return std::get<std::vector<Value>>(v_); }

  // Appends this value to a vector of the same type.
  void AppendTo(Vector* v) const;
  // Reads row `i` of a vector.
  static Value FromVector(const Vector& v, int64_t i);
  // A vector of `n` copies.
  VectorPtr Broadcast(int64_t n) const;

  // Total order for equal types: NULL first; NaN after +Inf; nested lexicographic.
  int Compare(const Value& other) const;
  bool operator==(const Value& o) const { return type_->Equals(*o.type_) && Compare(o) == 0; }

  // Text form as the shell's table output shows it (NULL as "NULL").
  std::string ToString() const;
  // SQL literal that parses back to this value (e.g. 'it''s', DATE '2024-01-01', 1.50::DECIMAL(3,2)).
  std::string ToSqlLiteral() const;

 private:
  using Storage = std::variant<std::monostate, int64_t, uint64_t, double, int128_t, std::string,
                               std::vector<Value>>;
  Value(TypePtr type, Storage v) : type_(std::move(type)), v_(std::move(v)) {}

  TypePtr type_;
  Storage v_;
};

}  // namespace shoal::columnar
