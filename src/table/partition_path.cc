#include "table/partition_path.h"

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "columnar/value_text.h"
#include "table/utf8.h"

namespace shoal::table {

using columnar::TypeId;

Result<std::optional<std::string>> SerializePartitionValue(const columnar::Vector& v, int64_t row) {
  if (v.IsNull(row)) return std::optional<std::string>();
  std::string out;
  switch (v.id()) {
    case TypeId::kBoolean: out = v.Get<uint8_t>(row) ? "true" : "false"; break;
    case TypeId::kInt8: out = std::to_string(v.Get<int8_t>(row)); break;
    case TypeId::kInt16: out = std::to_string(v.Get<int16_t>(row)); break;
    case TypeId::kInt32: out = std::to_string(v.Get<int32_t>(row)); break;
    case TypeId::kInt64: out = std::to_string(v.Get<int64_t>(row)); break;
    case TypeId::kFloat: out = columnar::FormatFloat(v.Get<float>(row)); break;
    case TypeId::kDouble: out = columnar::FormatDouble(v.Get<double>(row)); break;
    case TypeId::kDecimal:
      out = v.type()->IsWideDecimal() ? columnar::FormatDecimal(v.Get<columnar::int128_t>(row), v.type()->scale())
                                      : columnar::FormatDecimal(v.Get<int64_t>(row), v.type()->scale());
      break;
    case TypeId::kDate: out = columnar::FormatDate(v.Get<int32_t>(row)); break;
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: out = columnar::FormatTimestamp(v.Get<int64_t>(row)); break;
    case TypeId::kString:
      out = std::string(v.GetString(row));
      if (!IsValidUtf8(out)) return Status::InvalidArgument("partition value is not valid UTF-8");
      break;
    case TypeId::kBinary: {
      std::string_view b = v.GetString(row);
      for (unsigned char c : b) {
        if (c >= 0x80) return Status::NotSupported("binary partition values with non-ASCII bytes cannot be written");
      }
      out = std::string(b);
      break;
    }
    default:
      return Status::NotSupported("cannot partition by a column of type " + v.type()->ToString());
  }
  if (out.empty()) return std::optional<std::string>();
  return std::optional<std::string>(std::move(out));
}

std::string EscapePartitionPathComponent(std::string_view s) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (unsigned char c : s) {
    bool escape = (c >= 0x01 && c <= 0x1F) || c == 0x7F ||
                  std::string_view("\"#%'*/:=?\\{[]^").find(static_cast<char>(c)) != std::string_view::npos;
    if (escape) {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  return out;
}

std::string PartitionDirectory(std::string_view column, const std::optional<std::string>& value) {
  return EscapePartitionPathComponent(column) + "=" +
         (value ? EscapePartitionPathComponent(*value) : std::string(kHiveDefaultPartition));
}

}  // namespace shoal::table
