#include <charconv>
#include <cmath>
#include <cstdio>

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "columnar/value.h"
#include "shoal/arrow_c.h"
#include "sql/functions/arrow_import.h"
#include "sql/session/prepared_statement_impl.h"
#include "sql/session/streaming_result_impl.h"

namespace shoal {

namespace sql {
Status CheckNoParameters(const Statement& s) {
  if (!s.parameters || s.parameters->values.empty()) return Status::OK();
  return Status::InvalidArgument("statement has " + std::to_string(s.parameters->values.size()) +
                                 " parameter(s) ($1 ...): run it through Connection::Prepare and bind them");
}
}  // namespace sql

namespace {

using Bound = sql::ParameterValues::Bound;
using sql::LiteralKind;

// "[-]digits[.digits]" (at least one digit).
bool IsDecimalText(std::string_view t) {
  size_t i = (!t.empty() && (t[0] == '-' || t[0] == '+')) ? 1 : 0;
  bool digit = false, dot = false;
  for (; i < t.size(); ++i) {
    if (t[i] >= '0' && t[i] <= '9') {
      digit = true;
    } else if (t[i] == '.' && !dot) {
      dot = true;
    } else {
      return false;
    }
  }
  return digit;
}

}  // namespace

PreparedStatement::PreparedStatement(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
PreparedStatement::~PreparedStatement() = default;

int PreparedStatement::parameter_count() const {
  const auto& p = impl_->statement->parameters;
  return p ? static_cast<int>(p->values.size()) : 0;
}

namespace {

Status CheckIndex(const sql::Statement& s, int index) {
  int n = s.parameters ? static_cast<int>(s.parameters->values.size()) : 0;
  if (index < 1 || index > n) {
    return Status::InvalidArgument("parameter index " + std::to_string(index) + " is out of range: the statement has " +
                                   std::to_string(n) + " parameter(s)");
  }
  return Status::OK();
}

Status SetParameter(sql::Statement& s, int index, LiteralKind kind, std::string text) {
  RETURN_NOT_OK(CheckIndex(s, index));
  s.parameters->values[index - 1] = Bound{kind, std::move(text), nullptr};
  return Status::OK();
}

Status SetValue(sql::Statement& s, int index, columnar::Value value) {
  RETURN_NOT_OK(CheckIndex(s, index));
  std::string text = value.ToSqlLiteral();
  s.parameters->values[index - 1] =
      Bound{LiteralKind::kValue, std::move(text), std::make_shared<const columnar::Value>(std::move(value))};
  return Status::OK();
}

}  // namespace

Status PreparedStatement::BindNull(int index) { return SetParameter(*impl_->statement, index, LiteralKind::kNull, ""); }
Status PreparedStatement::BindBool(int index, bool value) {
  return SetParameter(*impl_->statement, index, LiteralKind::kBoolean, value ? "true" : "false");
}
Status PreparedStatement::BindInt64(int index, int64_t value) {
  return SetParameter(*impl_->statement, index, LiteralKind::kInteger, std::to_string(value));
}
Status PreparedStatement::BindDouble(int index, double value) {
  // No literal spells NaN or an infinity: they are bound as values.
  if (!std::isfinite(value)) return SetValue(*impl_->statement, index, columnar::Value::Double(value));
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::scientific);
  if (ec != std::errc()) return Status::Internal("cannot format a double parameter");
  return SetParameter(*impl_->statement, index, LiteralKind::kFloat, std::string(buf, end));
}
Status PreparedStatement::BindString(int index, std::string_view value) {
  return SetParameter(*impl_->statement, index, LiteralKind::kString, std::string(value));
}
Status PreparedStatement::BindBinary(int index, std::string_view bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    hex.push_back(kHex[c >> 4]);
    hex.push_back(kHex[c & 15]);
  }
  return SetParameter(*impl_->statement, index, LiteralKind::kBinary, std::move(hex));
}
Status PreparedStatement::BindDecimal(int index, std::string_view text) {
  if (!IsDecimalText(text)) {
    return Status::InvalidArgument("parameter $" + std::to_string(index) + ": '" + std::string(text) +
                                   "' is not a decimal number ([-]digits[.digits])");
  }
  std::string t(text);
  if (t[0] == '+') t.erase(0, 1);
  if (t.find('.') == std::string::npos) t += ".";
  return SetParameter(*impl_->statement, index, LiteralKind::kDecimal, std::move(t));
}
Status PreparedStatement::BindDecimal(int index, Decimal128 unscaled, int scale) {
  if (scale < 0 || scale > 38) {
    return Status::InvalidArgument("parameter $" + std::to_string(index) + ": decimal scale " + std::to_string(scale) +
                                   " is outside 0..38");
  }
  std::string t = unscaled.ToString(scale);
  if (t.find('.') == std::string::npos) t += ".";
  return SetParameter(*impl_->statement, index, LiteralKind::kDecimal, std::move(t));
}
Status PreparedStatement::BindDate(int index, int32_t days_since_epoch) {
  return SetParameter(*impl_->statement, index, LiteralKind::kDate, columnar::FormatDate(days_since_epoch));
}
Status PreparedStatement::BindTimestamp(int index, int64_t micros_since_epoch_utc) {
  // "Z": the instant itself, whatever the session time zone reads offset-less text in.
  return SetParameter(*impl_->statement, index, LiteralKind::kTimestamp,
                      columnar::FormatTimestamp(micros_since_epoch_utc) + "Z");
}
Status PreparedStatement::BindTimestampNtz(int index, int64_t micros_since_epoch) {
  return SetParameter(*impl_->statement, index, LiteralKind::kTimestampNtz,
                      columnar::FormatTimestamp(micros_since_epoch));
}
Status PreparedStatement::BindArrow(int index, const ArrowSchema& schema, const ArrowArray& array, int64_t row) {
  RETURN_NOT_OK(CheckIndex(*impl_->statement, index));
  const std::string what = "parameter $" + std::to_string(index);
  if (!schema.release || !array.release) return Status::InvalidArgument(what + ": the Arrow schema or array is released");
  if (row < 0 || row >= array.length) {
    return Status::InvalidArgument(what + ": row " + std::to_string(row) + " is outside the Arrow array's " +
                                   std::to_string(array.length) + " rows");
  }
  auto type = sql::ImportArrowType(schema);
  if (!type.ok()) return type.status().WithContext(what);
  auto column = sql::ImportArrowArray(schema, array, *type, row, 1);
  if (!column.ok()) return column.status().WithContext(what);
  return SetValue(*impl_->statement, index, columnar::Value::FromVector(**column, 0));
}
void PreparedStatement::ClearBindings() {
  auto& p = impl_->statement->parameters;
  if (p) {
    for (auto& v : p->values) v.reset();
  }
}

namespace {

Status CheckAllBound(const sql::Statement& s) {
  if (!s.parameters) return Status::OK();
  for (size_t i = 0; i < s.parameters->values.size(); ++i) {
    if (!s.parameters->values[i]) {
      return Status::InvalidArgument("parameter $" + std::to_string(i + 1) + " is not bound (the statement has " +
                                     std::to_string(s.parameters->values.size()) + " parameter(s))");
    }
  }
  return Status::OK();
}

// A type or conversion error of a statement with parameters is reported as InvalidArgument
// listing the bound values, so a value of the wrong type is named (pointing where it pointed).
Status AsParameterError(const sql::Statement& s, const Status& st) {
  if (!s.parameters || s.parameters->values.empty()) return st;
  if (st.code() != StatusCode::kBinder && st.code() != StatusCode::kConversion) return st;
  std::string values;
  for (size_t i = 0; i < s.parameters->values.size(); ++i) {
    sql::ConstantExpression c(0);
    c.literal_kind = s.parameters->values[i]->kind;
    c.text = s.parameters->values[i]->text;
    values += (i ? ", $" : "$") + std::to_string(i + 1) + " = " + c.ToString();
  }
  return Status::InvalidArgument("with the bound parameters (" + values + "): " + st.message())
      .WithErrorOffset(st.error_offset());
}

}  // namespace

Result<QueryResult> PreparedStatement::Execute() {
  ASSIGN_OR_RETURN(auto stream, Stream());
  auto r = CollectStream(*stream);
  if (!r.ok()) return AsParameterError(*impl_->statement, r.status());
  return r;
}

Result<std::unique_ptr<StreamingResult>> PreparedStatement::Stream() {
  RETURN_NOT_OK(CheckAllBound(*impl_->statement));
  auto r = StreamStatement(impl_->conn, *impl_->statement);
  if (!r.ok()) return AsParameterError(*impl_->statement, r.status());
  return r;
}

}  // namespace shoal
