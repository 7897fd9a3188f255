// Compile-time dispatch from a logical type to the C++ type of its value slots (type.h), so
// kernels are written once as templates and instantiated per physical type.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>

#include "columnar/type.h"

namespace shoal::expr {

using columnar::int128_t;

// Calls f(T{}) with T the slot type of a fixed-width type (BOOLEAN as uint8_t, DECIMAL as
// int64_t or int128_t, DATE int32_t, TIME/TIMESTAMP int64_t). Returns f's result; for
// non-fixed-width types calls `other()`.
template <typename F, typename G>
decltype(auto) DispatchFixed(const columnar::DataType& t, F&& f, G&& other) {
  using columnar::TypeId;
  switch (t.id()) {
    case TypeId::kBoolean: return f(uint8_t{});
    case TypeId::kInt8: return f(int8_t{});
    case TypeId::kInt16: return f(int16_t{});
    case TypeId::kInt32:
    case TypeId::kDate: return f(int32_t{});
    case TypeId::kInt64:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: return f(int64_t{});
    case TypeId::kUInt64: return f(uint64_t{});
    case TypeId::kFloat: return f(float{});
    case TypeId::kDouble: return f(double{});
    case TypeId::kDecimal:
      if (t.IsWideDecimal()) return f(int128_t{});
      return f(int64_t{});
    default: return other();
  }
}

// Short name used in overflow messages, as DuckDB spells physical types (INT32, INT128, ...).
inline const char* PhysicalName(const columnar::DataType& t) {
  using columnar::TypeId;
  switch (t.id()) {
    case TypeId::kInt8: return "INT8";
    case TypeId::kInt16: return "INT16";
    case TypeId::kInt32: return "INT32";
    case TypeId::kInt64: return "INT64";
    case TypeId::kUInt64: return "UINT64";
    case TypeId::kFloat: return "FLOAT";
    case TypeId::kDouble: return "DOUBLE";
    case TypeId::kDecimal: return t.IsWideDecimal() ? "INT128" : "INT64";
    default: return "VALUE";
  }
}

}  // namespace shoal::expr
