#include "sql/functions/arrow_import.h"

#include <cstring>
#include <string>
#include <string_view>

#include "columnar/datetime.h"

namespace shoal::sql {

namespace {

using columnar::TypeId;
using columnar::TypePtr;
using columnar::VectorPtr;

std::string_view Format(const ArrowSchema& s) { return s.format ? std::string_view(s.format) : std::string_view(); }

Status Unsupported(const ArrowSchema& s) {
  return Status::NotSupported("Arrow format '" + std::string(Format(s)) + "'" +
                              (s.name && *s.name ? " of column " + std::string(s.name) : std::string()) +
                              " is not supported");
}

Status Malformed(const ArrowSchema& s, const std::string& what) {
  return Status::InvalidArgument("malformed Arrow array (format '" + std::string(Format(s)) + "'): " + what);
}

// Microseconds per unit of a time/timestamp unit letter, or 0 for nanoseconds (divided).
int64_t MicrosPer(char unit) {
  switch (unit) {
    case 's': return 1000000;
    case 'm': return 1000;
    case 'u': return 1;
    default: return 0;
  }
}

bool ValidBit(const ArrowArray& a, int64_t i) {
  if (a.null_count == 0 || !a.buffers || !a.buffers[0]) return true;
  const auto* bits = static_cast<const uint8_t*>(a.buffers[0]);
  return (bits[i >> 3] >> (i & 7)) & 1;
}

// Sets the validity of rows [0, n) of `v` from physical rows [p0, p0 + n) of `a`.
void CopyValidity(const ArrowArray& a, int64_t p0, int64_t n, columnar::Vector* v) {
  if (a.null_count == 0 || !a.buffers || !a.buffers[0]) return;
  uint8_t* valid = v->MutableValidity();
  for (int64_t i = 0; i < n; ++i) valid[i] = ValidBit(a, p0 + i) ? 1 : 0;
  v->DropValidityIfAllValid();
}

Status NeedBuffers(const ArrowSchema& s, const ArrowArray& a, int64_t count) {
  if (a.n_buffers != count || (count > 0 && !a.buffers)) {
    return Malformed(s, "expected " + std::to_string(count) + " buffers, got " + std::to_string(a.n_buffers));
  }
  for (int64_t i = 1; i < count; ++i) {
    if (!a.buffers[i] && a.length > 0) return Malformed(s, "buffer " + std::to_string(i) + " is null");
  }
  return Status::OK();
}

Status NeedChildren(const ArrowSchema& s, const ArrowArray& a) {
  if (a.n_children != s.n_children || (a.n_children > 0 && (!a.children || !s.children))) {
    return Malformed(s, "the array has " + std::to_string(a.n_children) + " children, its schema " +
                            std::to_string(s.n_children));
  }
  for (int64_t i = 0; i < a.n_children; ++i) {
    if (!a.children[i] || !s.children[i]) return Malformed(s, "child " + std::to_string(i) + " is null");
  }
  return Status::OK();
}

// Values times `mul` (or floor-divided by `div`); a value whose product leaves int64 (seconds or
// milliseconds of a timestamp beyond year 294247) is InvalidArgument.
template <typename From, typename To>
Status ConvertValues(const ArrowSchema& s, const ArrowArray& a, int64_t p0, int64_t n, columnar::Vector* v,
                     int64_t mul, int64_t div) {
  v->Resize(n);
  const From* src = static_cast<const From*>(a.buffers[1]) + p0;
  To* dst = v->data<To>();
  for (int64_t i = 0; i < n; ++i) {
    auto x = static_cast<int64_t>(src[i]);
    int64_t y = 0;
    if (div > 1) {
      y = columnar::FloorDiv(x, div);
    } else if (__builtin_mul_overflow(x, mul, &y)) {
      return Malformed(s, "value " + std::to_string(x) + " at row " + std::to_string(p0 + i) +
                              " is out of the range shoal's type holds");
    }
    if (static_cast<int64_t>(static_cast<To>(y)) != y) {
      return Malformed(s, "value " + std::to_string(x) + " at row " + std::to_string(p0 + i) +
                              " is out of the range shoal's type holds");
    }
    dst[i] = static_cast<To>(y);
  }
  return Status::OK();
}

template <typename T>
void CopyValues(const ArrowArray& a, int64_t p0, int64_t n, columnar::Vector* v) {
  v->Resize(n);
  if (n > 0) std::memcpy(v->data<T>(), static_cast<const T*>(a.buffers[1]) + p0, static_cast<size_t>(n) * sizeof(T));
}

template <typename Offset>
Status ImportStrings(const ArrowSchema& s, const ArrowArray& a, int64_t p0, int64_t n, columnar::Vector* v) {
  RETURN_NOT_OK(NeedBuffers(s, a, 3));
  if (n == 0) return Status::OK();
  const Offset* o = static_cast<const Offset*>(a.buffers[1]);
  const char* data = static_cast<const char*>(a.buffers[2]);
  // The data buffer holds o[offset + length] bytes (the format's rule): no string may end past it.
  const int64_t data_size = o[a.offset + a.length];
  for (int64_t i = 0; i < n; ++i) {
    int64_t b = o[p0 + i], e = o[p0 + i + 1];
    if (b < 0 || e < b) return Malformed(s, "offsets decrease at row " + std::to_string(p0 + i));
    if (e > data_size) {
      return Malformed(s, "offset " + std::to_string(e) + " at row " + std::to_string(p0 + i) +
                              " is past the end of the data buffer (" + std::to_string(data_size) + " bytes)");
    }
    if (!ValidBit(a, p0 + i)) {
      v->AppendNull();
    } else {
      v->AppendString(std::string_view(data + b, static_cast<size_t>(e - b)));
    }
  }
  return Status::OK();
}

Result<VectorPtr> Import(const ArrowSchema& s, const ArrowArray& a, const TypePtr& type, int64_t start, int64_t n);

template <typename Offset>
Status ImportList(const ArrowSchema& s, const ArrowArray& a, int64_t p0, int64_t n, columnar::Vector* v) {
  RETURN_NOT_OK(NeedBuffers(s, a, 2));
  RETURN_NOT_OK(NeedChildren(s, a));
  if (a.n_children != 1) return Malformed(s, "a list needs one child");
  const Offset* o = n > 0 ? static_cast<const Offset*>(a.buffers[1]) : nullptr;
  int64_t first = o ? o[p0] : 0;
  int64_t last = o ? o[p0 + n] : 0;
  if (first < 0 || last < first || last > a.children[0]->length) {
    return Malformed(s, "list offsets [" + std::to_string(first) + ", " + std::to_string(last) +
                            ") exceed the child's length " + std::to_string(a.children[0]->length));
  }
  ASSIGN_OR_RETURN(VectorPtr child, Import(*s.children[0], *a.children[0], v->type()->element(), first, last - first));
  columnar::Buffer& offsets = v->values();
  offsets.Resize(static_cast<size_t>(n + 1) * sizeof(int64_t));
  int64_t* out = offsets.As<int64_t>();
  out[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (o[p0 + i + 1] < o[p0 + i]) return Malformed(s, "list offsets decrease at row " + std::to_string(p0 + i));
    out[i + 1] = o[p0 + i + 1] - first;
  }
  v->children()[0] = std::move(child);
  v->SetLength(n);
  CopyValidity(a, p0, n, v);
  return Status::OK();
}

Result<VectorPtr> Import(const ArrowSchema& s, const ArrowArray& a, const TypePtr& type, int64_t start, int64_t n) {
  if (start < 0 || n < 0 || start + n > a.length || a.offset < 0) {
    return Malformed(s, "rows [" + std::to_string(start) + ", " + std::to_string(start + n) + ") exceed its length " +
                            std::to_string(a.length));
  }
  const int64_t p0 = a.offset + start;  // physical index of the first row
  std::string_view f = Format(s);
  auto v = columnar::Vector::Make(type, n);
  switch (type->id()) {
    case TypeId::kNull: v->AppendNulls(n); return v;
    case TypeId::kBoolean: {
      RETURN_NOT_OK(NeedBuffers(s, a, 2));
      v->Resize(n);
      const auto* bits = static_cast<const uint8_t*>(a.buffers[1]);
      uint8_t* out = v->data<uint8_t>();
      for (int64_t i = 0; i < n; ++i) out[i] = (bits[(p0 + i) >> 3] >> ((p0 + i) & 7)) & 1;
      break;
    }
    case TypeId::kString:
    case TypeId::kBinary:
      if (f == "u" || f == "z") {
        RETURN_NOT_OK(ImportStrings<int32_t>(s, a, p0, n, v.get()));
      } else {
        RETURN_NOT_OK(ImportStrings<int64_t>(s, a, p0, n, v.get()));
      }
      return v;  // validity set while appending
    case TypeId::kList:
      if (f == "+l") {
        RETURN_NOT_OK(ImportList<int32_t>(s, a, p0, n, v.get()));
      } else {
        RETURN_NOT_OK(ImportList<int64_t>(s, a, p0, n, v.get()));
      }
      return v;
    case TypeId::kMap: RETURN_NOT_OK(ImportList<int32_t>(s, a, p0, n, v.get())); return v;
    case TypeId::kStruct: {
      RETURN_NOT_OK(NeedBuffers(s, a, 1));
      RETURN_NOT_OK(NeedChildren(s, a));
      if (a.n_children != static_cast<int64_t>(type->children().size())) return Malformed(s, "struct children");
      for (int64_t i = 0; i < a.n_children; ++i) {
        ASSIGN_OR_RETURN(v->children()[i], Import(*s.children[i], *a.children[i], type->children()[i].type, p0, n));
      }
      v->SetLength(n);
      CopyValidity(a, p0, n, v.get());
      return v;
    }
    default: {
      RETURN_NOT_OK(NeedBuffers(s, a, 2));
      if (n == 0) return v;
      if (f == "c") CopyValues<int8_t>(a, p0, n, v.get());
      else if (f == "s") CopyValues<int16_t>(a, p0, n, v.get());
      else if (f == "i") CopyValues<int32_t>(a, p0, n, v.get());
      else if (f == "l") CopyValues<int64_t>(a, p0, n, v.get());
      else if (f == "L") CopyValues<uint64_t>(a, p0, n, v.get());
      else if (f == "C") RETURN_NOT_OK((ConvertValues<uint8_t, int16_t>(s, a, p0, n, v.get(), 1, 1)));
      else if (f == "S") RETURN_NOT_OK((ConvertValues<uint16_t, int32_t>(s, a, p0, n, v.get(), 1, 1)));
      else if (f == "I") RETURN_NOT_OK((ConvertValues<uint32_t, int64_t>(s, a, p0, n, v.get(), 1, 1)));
      else if (f == "f") CopyValues<float>(a, p0, n, v.get());
      else if (f == "g") CopyValues<double>(a, p0, n, v.get());
      else if (f == "tdD") CopyValues<int32_t>(a, p0, n, v.get());
      else if (f == "tdm") RETURN_NOT_OK((ConvertValues<int64_t, int32_t>(s, a, p0, n, v.get(), 1, 86400000)));
      else if (f == "tts") RETURN_NOT_OK((ConvertValues<int32_t, int64_t>(s, a, p0, n, v.get(), 1000000, 1)));
      else if (f == "ttm") RETURN_NOT_OK((ConvertValues<int32_t, int64_t>(s, a, p0, n, v.get(), 1000, 1)));
      else if (f == "ttu") CopyValues<int64_t>(a, p0, n, v.get());
      else if (f == "ttn") RETURN_NOT_OK((ConvertValues<int64_t, int64_t>(s, a, p0, n, v.get(), 1, 1000)));
      else if (f.size() >= 4 && f.substr(0, 2) == "ts") {
        int64_t mul = MicrosPer(f[2]);
        RETURN_NOT_OK((ConvertValues<int64_t, int64_t>(s, a, p0, n, v.get(), mul ? mul : 1, mul ? 1 : 1000)));
      } else if (f.substr(0, 2) == "d:") {
        v->Resize(n);
        const auto* src = static_cast<const columnar::int128_t*>(a.buffers[1]) + p0;
        if (type->IsWideDecimal()) {
          std::memcpy(v->data<columnar::int128_t>(), src, static_cast<size_t>(n) * 16);
        } else {
          int64_t* dst = v->data<int64_t>();
          for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<int64_t>(src[i]);  // |v| < 10^18
        }
      } else {
        return Unsupported(s);
      }
      break;
    }
  }
  CopyValidity(a, p0, n, v.get());
  return v;
}

}  // namespace

namespace {

// Nesting deeper than this is refused: the import recurses once per level.
constexpr int kMaxNesting = 64;

Result<TypePtr> ImportType(const ArrowSchema& s, int depth) {
  if (depth > kMaxNesting) {
    return Status::NotSupported("Arrow schema nested deeper than " + std::to_string(kMaxNesting) + " levels");
  }
  if (s.dictionary) {
    return Status::NotSupported("dictionary-encoded Arrow column" + (s.name && *s.name ? " " + std::string(s.name) : "") +
                                " (format '" + std::string(Format(s)) + "') is not supported");
  }
  std::string_view f = Format(s);
  if (f.size() == 1) {
    switch (f[0]) {
      case 'n': return columnar::NullType();
      case 'b': return columnar::Boolean();
      case 'c': return columnar::Int8();
      case 's':
      case 'C': return columnar::Int16();
      case 'i':
      case 'S': return columnar::Int32();
      case 'l':
      case 'I': return columnar::Int64();
      case 'L': return columnar::UInt64();
      case 'f': return columnar::Float32();
      case 'g': return columnar::Float64();
      case 'u':
      case 'U': return columnar::String();
      case 'z':
      case 'Z': return columnar::Binary();
      default: return Unsupported(s);
    }
  }
  if (f == "tdD" || f == "tdm") return columnar::Date();
  if (f == "tts" || f == "ttm" || f == "ttu" || f == "ttn") return columnar::Time();
  if (f.size() >= 4 && f.substr(0, 2) == "ts" && f[3] == ':' && std::string_view("smun").find(f[2]) != std::string_view::npos) {
    return f.size() == 4 ? columnar::TimestampNtz() : columnar::Timestamp();
  }
  if (f.substr(0, 2) == "d:") {
    int p = 0, sc = 0, bits = 128;
    std::string rest(f.substr(2));
    int fields = std::sscanf(rest.c_str(), "%d,%d,%d", &p, &sc, &bits);
    if (fields < 2 || bits != 128 || p < 1 || p > 38 || sc < 0 || sc > p) return Unsupported(s);
    return columnar::Decimal(p, sc);
  }
  auto child_type = [&](int64_t i) -> Result<TypePtr> {
    if (!s.children || !s.children[i]) return Status::InvalidArgument("malformed Arrow schema: child " + std::to_string(i) + " is null");
    return ImportType(*s.children[i], depth + 1);
  };
  if (f == "+l" || f == "+L") {
    if (s.n_children != 1) return Status::InvalidArgument("malformed Arrow schema: a list needs one child");
    ASSIGN_OR_RETURN(TypePtr e, child_type(0));
    return columnar::List(e);
  }
  if (f == "+s") {
    std::vector<columnar::Field> fields;
    for (int64_t i = 0; i < s.n_children; ++i) {
      ASSIGN_OR_RETURN(TypePtr t, child_type(i));
      const char* name = s.children[i]->name;
      fields.push_back({name ? name : "", t, (s.children[i]->flags & ARROW_FLAG_NULLABLE) != 0});
    }
    return columnar::Struct(std::move(fields));
  }
  if (f == "+m") {
    if (s.n_children != 1 || !s.children || !s.children[0] || s.children[0]->n_children != 2 ||
        !s.children[0]->children) {
      return Status::InvalidArgument("malformed Arrow schema: a map needs one struct child with key and value");
    }
    const ArrowSchema& entries = *s.children[0];
    if (!entries.children[0] || !entries.children[1]) return Status::InvalidArgument("malformed Arrow map schema");
    ASSIGN_OR_RETURN(TypePtr k, ImportType(*entries.children[0], depth + 2));
    ASSIGN_OR_RETURN(TypePtr v, ImportType(*entries.children[1], depth + 2));
    return columnar::Map(k, v);
  }
  return Unsupported(s);
}

}  // namespace

Result<TypePtr> ImportArrowType(const ArrowSchema& s) { return ImportType(s, 0); }

Result<columnar::VectorPtr> ImportArrowArray(const ArrowSchema& schema, const ArrowArray& array,
                                             const columnar::TypePtr& type, int64_t start, int64_t length) {
  return Import(schema, array, type, start, length);
}

}  // namespace shoal::sql
