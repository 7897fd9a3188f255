#include "columnar/value_text.h"

#include <charconv>
#include <cmath>

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "columnar/time_zone.h"

namespace shoal::columnar {

std::string FormatDouble(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, d);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string FormatFloat(float f) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "Infinity" : "-Infinity";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, f);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

void AppendJsonString(std::string_view s, std::string* out) {
  out->push_back('"');
  for (unsigned char c : s) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out->append(buf);
        } else {
          out->push_back(static_cast<char>(c));
        }
    }
  }
  out->push_back('"');
}

std::string EscapeBinary(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '"') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out.append(buf);
    }
  }
  return out;
}

namespace {

enum class Form { kJson, kText, kNestedText };

int128_t DecimalAt(const Vector& v, int64_t row) {
  return v.type()->IsWideDecimal() ? v.Get<int128_t>(row) : v.Get<int64_t>(row);
}

void AppendValue(const Vector& v, int64_t row, Form form, const TimeZone* zone, std::string* out) {
  const bool json = form == Form::kJson;
  if (v.IsNull(row)) {
    out->append(json ? "null" : "NULL");
    return;
  }
  auto quoted = [&](const std::string& s) {
    if (json) {
      AppendJsonString(s, out);
    } else if (form == Form::kNestedText) {
      out->push_back('\'');
      out->append(s);
      out->push_back('\'');
    } else {
      out->append(s);
    }
  };
  switch (v.id()) {
    case TypeId::kNull: out->append(json ? "null" : "NULL"); return;
    case TypeId::kBoolean: out->append(v.Get<uint8_t>(row) ? "true" : "false"); return;
    case TypeId::kInt8: out->append(std::to_string(v.Get<int8_t>(row))); return;
    case TypeId::kInt16: out->append(std::to_string(v.Get<int16_t>(row))); return;
    case TypeId::kInt32: out->append(std::to_string(v.Get<int32_t>(row))); return;
    case TypeId::kInt64: out->append(std::to_string(v.Get<int64_t>(row))); return;
    case TypeId::kUInt64: out->append(std::to_string(v.Get<uint64_t>(row))); return;
    case TypeId::kFloat: {
      float f = v.Get<float>(row);
      // JSON follows DuckDB's expectations: the float widened to double.
      std::string s = json ? FormatDouble(static_cast<double>(f)) : FormatFloat(f);
      if (json && !std::isfinite(f)) AppendJsonString(s, out);
      else out->append(s);
      return;
    }
    case TypeId::kDouble: {
      double d = v.Get<double>(row);
      std::string s = FormatDouble(d);
      if (json && !std::isfinite(d)) AppendJsonString(s, out);
      else out->append(s);
      return;
    }
    case TypeId::kDecimal: {
      std::string s = FormatDecimal(DecimalAt(v, row), v.type()->scale());
      if (json) AppendJsonString(s, out);
      else out->append(s);
      return;
    }
    case TypeId::kString: quoted(std::string(v.GetString(row))); return;
    case TypeId::kBinary: quoted(EscapeBinary(v.GetString(row))); return;
    case TypeId::kDate: quoted(FormatDate(v.Get<int32_t>(row))); return;
    case TypeId::kTime: quoted(FormatTime(v.Get<int64_t>(row))); return;
    case TypeId::kTimestamp: {
      const int64_t t = v.Get<int64_t>(row);
      quoted(FormatTimestamp(zone ? zone->ToLocal(t) : t));
      return;
    }
    case TypeId::kTimestampNtz: quoted(FormatTimestamp(v.Get<int64_t>(row))); return;
    case TypeId::kList: {
      const int64_t* o = v.offsets();
      const Vector& c = *v.child(0);
      out->push_back('[');
      for (int64_t i = o[row]; i < o[row + 1]; ++i) {
        if (i > o[row]) out->append(json ? "," : ", ");
        AppendValue(c, i, json ? form : Form::kNestedText, zone, out);
      }
      out->push_back(']');
      return;
    }
    case TypeId::kMap: {
      const int64_t* o = v.offsets();
      const Vector& entries = *v.child(0);
      const Vector& keys = *entries.child(0);
      const Vector& values = *entries.child(1);
      out->push_back(json ? '[' : '{');
      for (int64_t i = o[row]; i < o[row + 1]; ++i) {
        if (i > o[row]) out->append(json ? "," : ", ");
        if (json) {
          out->append("{\"key\":");
          AppendValue(keys, i, form, zone, out);
          out->append(",\"value\":");
          AppendValue(values, i, form, zone, out);
          out->push_back('}');
        } else {
          AppendValue(keys, i, Form::kText, zone, out);
          out->push_back('=');
          AppendValue(values, i, Form::kText, zone, out);
        }
      }
      out->push_back(json ? ']' : '}');
      return;
    }
    case TypeId::kStruct: {
      const auto& fields = v.type()->children();
      out->push_back('{');
      for (size_t f = 0; f < fields.size(); ++f) {
        if (f) out->append(json ? "," : ", ");
        if (json) {
          AppendJsonString(fields[f].name, out);
          out->push_back(':');
        } else {
          out->push_back('\'');
          out->append(fields[f].name);
          out->append("': ");
        }
        AppendValue(*v.child(f), row, json ? form : Form::kNestedText, zone, out);
      }
      out->push_back('}');
      return;
    }
  }
}

}  // namespace

void AppendJson(const Vector& v, int64_t row, std::string* out, const TimeZone* zone) {
  AppendValue(v, row, Form::kJson, zone, out);
}
void AppendText(const Vector& v, int64_t row, std::string* out, const TimeZone* zone) {
  AppendValue(v, row, Form::kText, zone, out);
}
std::string TextOf(const Vector& v, int64_t row, const TimeZone* zone) {
  std::string s;
  AppendText(v, row, &s, zone);
  return s;
}

}  // namespace shoal::columnar
