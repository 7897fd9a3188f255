#include "columnar/value.h"

#include <cmath>
#include <cstring>

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "columnar/value_text.h"

namespace shoal::columnar {

void Value::AppendTo(Vector* v) const {
  if (is_null()) {
    v->AppendNull();
    return;
  }
  switch (v->id()) {
    case TypeId::kNull: v->AppendNull(); return;
    case TypeId::kBoolean: v->Append<uint8_t>(GetBool() ? 1 : 0); return;
    case TypeId::kInt8: v->Append<int8_t>(static_cast<int8_t>(GetInt())); return;
    case TypeId::kInt16: v->Append<int16_t>(static_cast<int16_t>(GetInt())); return;
    case TypeId::kInt32:
    case TypeId::kDate: v->Append<int32_t>(static_cast<int32_t>(GetInt())); return;
    case TypeId::kInt64:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: v->Append<int64_t>(GetInt()); return;
    case TypeId::kUInt64: v->Append<uint64_t>(GetUInt()); return;
    case TypeId::kFloat: v->Append<float>(static_cast<float>(GetDouble())); return;
    case TypeId::kDouble: v->Append<double>(GetDouble()); return;
    case TypeId::kDecimal:
      if (v->type()->IsWideDecimal()) v->Append<int128_t>(GetDecimal());
      else v->Append<int64_t>(static_cast<int64_t>(GetDecimal()));
      return;
    case TypeId::kString:
    case TypeId::kBinary: v->AppendString(GetString()); return;
    case TypeId::kList:
    case TypeId::kMap:
      for (const Value& c : GetChildren()) c.AppendTo(v->children()[0].get());
      v->AppendListEnd();
      return;
    case TypeId::kStruct: {
      const auto& ch = GetChildren();
      for (size_t i = 0; i < v->children().size(); ++i) {
        if (i < ch.size()) ch[i].AppendTo(v->children()[i].get());
        else v->children()[i]->AppendNull();
      }
      v->AppendStructRow();
      return;
    }
  }
}

Value Value::FromVector(const Vector& v, int64_t i) {
  const TypePtr& t = v.type();
  if (v.IsNull(i)) return Null(t);
  switch (t->id()) {
    case TypeId::kNull: return Null(t);
    case TypeId::kBoolean: return Boolean(v.Get<uint8_t>(i) != 0);
    case TypeId::kInt8: return Integer(t, v.Get<int8_t>(i));
    case TypeId::kInt16: return Integer(t, v.Get<int16_t>(i));
    case TypeId::kInt32:
    case TypeId::kDate: return Integer(t, v.Get<int32_t>(i));
    case TypeId::kInt64:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: return Integer(t, v.Get<int64_t>(i));
    case TypeId::kUInt64: return UInt64(v.Get<uint64_t>(i));
    case TypeId::kFloat: return Value(t, Storage{double{v.Get<float>(i)}});
    case TypeId::kDouble: return Double(v.Get<double>(i));
    case TypeId::kDecimal:
      return Value(t, Storage{t->IsWideDecimal() ? v.Get<int128_t>(i) : int128_t{v.Get<int64_t>(i)}});
    case TypeId::kString:
    case TypeId::kBinary: return Value(t, Storage{std::string(v.GetString(i))});
    case TypeId::kList:
    case TypeId::kMap: {
      std::vector<Value> ch;
      for (int64_t j = v.offsets()[i]; j < v.offsets()[i + 1]; ++j) ch.push_back(FromVector(*v.child(0), j));
      return Nested(t, std::move(ch));
    }
    case TypeId::kStruct: {
      std::vector<Value> ch;
      for (const auto& c : v.children()) ch.push_back(FromVector(*c, i));
      return Nested(t, std::move(ch));
    }
  }
  return Null(t);
}

VectorPtr Value::Broadcast(int64_t n) const {
  auto v = Vector::Make(type_, n);
  if (is_null()) {
    v->AppendNulls(n);
    return v;
  }
  AppendTo(v.get());
  if (!type_->IsNested() && !type_->HasOffsets() && type_->id() != TypeId::kNull) {
    int w = type_->SlotWidth();
    v->values().Resize(static_cast<size_t>(n) * w);
    for (int64_t i = 1; i < n; ++i) std::memcpy(v->values().data() + i * w, v->values().data(), w);
    v->SetLength(n);
    return v;
  }
  // Copies from a separate one-row vector: appending a vector to itself would read buffers
  // that the append reallocates.
  auto one = Vector::Make(type_, 1);
  AppendTo(one.get());
  for (int64_t i = 1; i < n; ++i) v->AppendFrom(*one, 0, 1);
  return v;
}

namespace {
template <typename T>
int Cmp(const T& a, const T& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}
}  // namespace

int Value::Compare(const Value& o) const {
  if (is_null() || o.is_null()) return Cmp(!is_null(), !o.is_null());
  if (v_.index() != o.v_.index()) return Cmp(v_.index(), o.v_.index());
  switch (v_.index()) {
    case 1: return Cmp(GetInt(), o.GetInt());
    case 2: return Cmp(GetUInt(), o.GetUInt());
    case 3: {
      double a = GetDouble(), b = o.GetDouble();
      if (std::isnan(a) || std::isnan(b)) return Cmp(std::isnan(a), std::isnan(b));
      return Cmp(a, b);
    }
    case 4: {
      // Align scales for decimals of different scale.
      int128_t a = GetDecimal(), b = o.GetDecimal();
      int sa = type_->scale(), sb = o.type_->scale();
      if (sa < sb) a *= Pow10(sb - sa);
      else if (sb < sa) b *= Pow10(sa - sb);
      return Cmp(a, b);
    }
    case 5: return Cmp(GetString(), o.GetString());
    case 6: {
      const auto& a = GetChildren();
      const auto& b = o.GetChildren();
      for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
        int c = a[i].Compare(b[i]);
        if (c) return c;
      }
      return Cmp(a.size(), b.size());
    }
  }
  return 0;
}

std::string Value::ToString() const {
  auto v = Vector::Make(type_, 1);
  AppendTo(v.get());
  return TextOf(*v, 0);
}

std::string Value::ToSqlLiteral() const {
  if (is_null()) return type_->id() == TypeId::kNull ? "NULL" : "CAST(NULL AS " + type_->ToString() + ")";
  auto quote = [](const std::string& s) {
    std::string q = "'";
    for (char c : s) {
      if (c == '\'') q += "''";
      else q += c;
    }
    return q + "'";
  };
  switch (type_->id()) {
    case TypeId::kBoolean: return GetBool() ? "TRUE" : "FALSE";
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32: return "CAST(" + std::to_string(GetInt()) + " AS " + type_->ToString() + ")";
    case TypeId::kInt64: return std::to_string(GetInt()) + "::BIGINT";
    case TypeId::kUInt64: return std::to_string(GetUInt());
    case TypeId::kFloat:
    case TypeId::kDouble: {
      double d = GetDouble();
      std::string s = std::isfinite(d) ? FormatDouble(d) : quote(FormatDouble(d));
      return "CAST(" + s + " AS " + type_->ToString() + ")";
    }
    case TypeId::kDecimal:
      return "CAST(" + FormatDecimal(GetDecimal(), type_->scale()) + " AS " + type_->ToString() + ")";
    case TypeId::kString: return quote(GetString());
    case TypeId::kBinary: return "CAST(" + quote(EscapeBinary(GetString())) + " AS BINARY)";
    case TypeId::kDate: return "DATE " + quote(FormatDate(static_cast<int32_t>(GetInt())));
    case TypeId::kTime: return "CAST(" + quote(FormatTime(GetInt())) + " AS TIME)";
    case TypeId::kTimestamp: return "TIMESTAMP " + quote(FormatTimestamp(GetInt()));
    case TypeId::kTimestampNtz: return "CAST(" + quote(FormatTimestamp(GetInt())) + " AS TIMESTAMP_NTZ)";
    default: return "CAST(" + quote(ToString()) + " AS " + type_->ToString() + ")";
  }
}

}  // namespace shoal::columnar
