#include "table/file_stats_collector.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "columnar/string_bounds.h"
#include "table/utf8.h"

namespace shoal::table {

using columnar::TypeId;
using columnar::Vector;

namespace {

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Byte length of the first `chars` code points of s (whole s when shorter).
size_t PrefixBytes(std::string_view s, int chars) {
  size_t i = 0;
  for (int c = 0; c < chars && i < s.size(); ++c) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xC0) == 0x80) ++i;
  }
  return i;
}

bool HasMinMax(const columnar::DataType& t) {
  switch (t.id()) {
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kFloat: case TypeId::kDouble: case TypeId::kDate: case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: case TypeId::kString:
      return true;
    case TypeId::kDecimal:
      return t.precision() <= 15;
    default:
      return false;
  }
}

void CollectLeaves(const delta::SchemaField& f, const columnar::TypePtr& type, delta::ColumnPath logical,
                   delta::ColumnPath physical, std::vector<int> index_path, bool use_physical,
                   std::vector<StatsLeaf>* out) {
  logical.push_back(f.name);
  physical.push_back(use_physical && f.PhysicalName() ? *f.PhysicalName() : f.name);
  if (type->id() == TypeId::kStruct) {
    for (size_t i = 0; i < f.children.size() && i < type->children().size(); ++i) {
      auto ip = index_path;
      ip.push_back(static_cast<int>(i));
      CollectLeaves(f.children[i], type->children()[i].type, logical, physical, ip, use_physical, out);
    }
    return;
  }
  out->push_back({std::move(logical), std::move(physical), std::move(index_path), type});
}

}  // namespace

std::string StatsStringMin(std::string_view s) { return std::string(s.substr(0, PrefixBytes(s, kStatsStringPrefixChars))); }

std::string StatsStringMax(std::string_view s) {
  size_t n = PrefixBytes(s, kStatsStringPrefixChars);
  if (n == s.size()) return std::string(s);
  // U+10FFFF encodes as F4 8F BF BF, the largest UTF-8 sequence; a next code point equal to it
  // would make the bound smaller than s, so keep s whole then.
  if (s.substr(n).starts_with("\xF4\x8F\xBF\xBF")) return std::string(s);
  return std::string(s.substr(0, n)) + "\xF4\x8F\xBF\xBF";
}

std::optional<std::string> StatsTimestamp(int64_t micros, bool utc, bool round_up) {
  int64_t ms = columnar::FloorDiv(micros, 1000);
  if (round_up && columnar::FloorMod(micros, 1000) != 0) ++ms;
  int64_t days = columnar::FloorDiv(ms, 86400000);
  int64_t in_day = columnar::FloorMod(ms, 86400000);
  columnar::CivilDate d = columnar::CivilFromDays(days);
  if (d.year < 0 || d.year > 9999) return std::nullopt;
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02d.%03d%s", static_cast<int>(d.year), d.month, d.day,
                static_cast<int>(in_day / 3600000), static_cast<int>(in_day / 60000 % 60),
                static_cast<int>(in_day / 1000 % 60), static_cast<int>(in_day % 1000), utc ? "Z" : "");
  return std::string(buf);
}

Result<FileStatsCollector> FileStatsCollector::Make(const std::vector<delta::SchemaField>& data_fields,
                                                    const std::vector<columnar::TypePtr>& data_types,
                                                    bool use_physical, int64_t num_indexed_cols,
                                                    const std::optional<std::vector<std::string>>& stats_columns) {
  std::vector<StatsLeaf> all;
  for (size_t i = 0; i < data_fields.size(); ++i) {
    CollectLeaves(data_fields[i], data_types[i], {}, {}, {static_cast<int>(i)}, use_physical, &all);
  }
  FileStatsCollector c;
  if (stats_columns) {
    for (const auto& name : *stats_columns) {
      std::string want = Lower(name);
      bool found = false;
      for (const auto& leaf : all) {
        std::string dotted;
        for (const auto& p : leaf.logical) {
          if (!dotted.empty()) dotted += '.';
          dotted += Lower(p);
        }
        // A name selects a leaf or every leaf of a struct.
        if (dotted == want || dotted.starts_with(want + ".")) {
          c.leaves_.push_back(leaf);
          found = true;
        }
      }
      if (!found) return Status::InvalidArgument("delta.dataSkippingStatsColumns names unknown column " + name);
    }
  } else {
    size_t n = num_indexed_cols < 0 ? all.size() : std::min<size_t>(all.size(), static_cast<size_t>(num_indexed_cols));
    c.leaves_.assign(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
  }
  c.accs_.resize(c.leaves_.size());
  return c;
}

void FileStatsCollector::Reset() {
  num_records_ = 0;
  for (auto& a : accs_) a = Acc{};
}

void FileStatsCollector::Merge(const FileStatsCollector& other) {
  num_records_ += other.num_records_;
  for (size_t li = 0; li < accs_.size() && li < other.accs_.size(); ++li) {
    Acc& a = accs_[li];
    const Acc& o = other.accs_[li];
    a.nulls += o.nulls;
    if (!o.has) continue;
    if (!a.has) {
      a = Acc{a.nulls, true, o.imin, o.imax, o.dmin, o.dmax, o.smin, o.smax};
      continue;
    }
    a.imin = std::min(a.imin, o.imin);
    a.imax = std::max(a.imax, o.imax);
    a.dmin = std::min(a.dmin, o.dmin);
    a.dmax = std::max(a.dmax, o.dmax);
    if (o.smin < a.smin) a.smin = o.smin;
    if (o.smax > a.smax) a.smax = o.smax;
  }
}

void FileStatsCollector::Update(const columnar::RecordBatch& batch) {
  const int64_t n = batch.num_rows;
  num_records_ += n;
  for (size_t li = 0; li < leaves_.size(); ++li) {
    const StatsLeaf& leaf = leaves_[li];
    const Vector* v = batch.column(static_cast<size_t>(leaf.index_path[0])).get();
    const uint8_t* valid = nullptr;
    // Walk down struct children, folding ancestor validity into mask_.
    for (size_t k = 1; k < leaf.index_path.size(); ++k) {
      if (v->MayHaveNulls()) {
        if (!valid) {
          mask_.assign(v->validity().begin(), v->validity().begin() + n);
        } else {
          for (int64_t r = 0; r < n; ++r) mask_[r] &= v->validity()[r] != 0;
        }
        valid = mask_.data();
      }
      v = v->child(static_cast<size_t>(leaf.index_path[k])).get();
    }
    if (v->MayHaveNulls()) {
      if (!valid) {
        valid = v->validity().data();
      } else {
        for (int64_t r = 0; r < n; ++r) mask_[r] &= v->validity()[r] != 0;
      }
    }
    UpdateLeaf(li, *v, valid, n);
  }
}

namespace {

template <typename T>
void UpdateInts(const T* d, const uint8_t* valid, int64_t n, bool* has, int64_t* lo, int64_t* hi) {
  for (int64_t i = 0; i < n; ++i) {
    if (valid && !valid[i]) continue;
    int64_t x = static_cast<int64_t>(d[i]);
    if (!*has) {
      *lo = *hi = x;
      *has = true;
    } else {
      *lo = std::min(*lo, x);
      *hi = std::max(*hi, x);
    }
  }
}

template <typename T>
void UpdateFloats(const T* d, const uint8_t* valid, int64_t n, bool* has, double* lo, double* hi) {
  for (int64_t i = 0; i < n; ++i) {
    if (valid && !valid[i]) continue;
    double x = static_cast<double>(d[i]);
    if (std::isnan(x)) continue;
    if (!*has) {
      *lo = *hi = x;
      *has = true;
    } else {
      *lo = std::min(*lo, x);
      *hi = std::max(*hi, x);
    }
  }
}

}  // namespace

void FileStatsCollector::UpdateLeaf(size_t li, const Vector& v, const uint8_t* valid, int64_t n) {
  Acc& a = accs_[li];
  if (valid) {
    int64_t nulls = 0;
    for (int64_t i = 0; i < n; ++i) nulls += valid[i] == 0;
    a.nulls += nulls;
  }
  if (!HasMinMax(*v.type())) return;
  switch (v.id()) {
    case TypeId::kInt8: UpdateInts(v.data<int8_t>(), valid, n, &a.has, &a.imin, &a.imax); break;
    case TypeId::kInt16: UpdateInts(v.data<int16_t>(), valid, n, &a.has, &a.imin, &a.imax); break;
    case TypeId::kInt32:
    case TypeId::kDate: UpdateInts(v.data<int32_t>(), valid, n, &a.has, &a.imin, &a.imax); break;
    case TypeId::kInt64:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kDecimal: UpdateInts(v.data<int64_t>(), valid, n, &a.has, &a.imin, &a.imax); break;
    case TypeId::kFloat: UpdateFloats(v.data<float>(), valid, n, &a.has, &a.dmin, &a.dmax); break;
    case TypeId::kDouble: UpdateFloats(v.data<double>(), valid, n, &a.has, &a.dmin, &a.dmax); break;
    case TypeId::kString: {
      // Find the batch's bounds as views first; copy only when they improve the file's bounds.
      columnar::StringBounds b;
      for (int64_t i = 0; i < n; ++i) {
        if (!valid || valid[i]) b.Add(v.GetString(i));
      }
      if (b.empty()) break;
      const std::string_view lo = b.min(), hi = b.max();
      if (!a.has || lo < a.smin) a.smin = std::string(lo);
      if (!a.has || hi > a.smax) a.smax = std::string(hi);
      a.has = true;
      break;
    }
    default:
      break;
  }
}

delta::FileStats FileStatsCollector::ToFileStats() const {
  delta::FileStats fs;
  fs.num_records = num_records_;
  fs.tight_bounds = true;
  for (size_t li = 0; li < leaves_.size(); ++li) {
    const StatsLeaf& leaf = leaves_[li];
    const Acc& a = accs_[li];
    fs.null_count[leaf.physical] = a.nulls;
    if (!a.has) continue;
    delta::Json lo, hi;
    switch (leaf.type->id()) {
      case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
        lo = a.imin;
        hi = a.imax;
        break;
      case TypeId::kDate:
        lo = columnar::FormatDate(static_cast<int32_t>(a.imin));
        hi = columnar::FormatDate(static_cast<int32_t>(a.imax));
        break;
      case TypeId::kTimestamp:
      case TypeId::kTimestampNtz: {
        bool utc = leaf.type->id() == TypeId::kTimestamp;
        auto l = StatsTimestamp(a.imin, utc, false);
        auto h = StatsTimestamp(a.imax, utc, true);
        if (!l || !h) continue;
        lo = *l;
        hi = *h;
        break;
      }
      case TypeId::kFloat:
      case TypeId::kDouble:
        if (!std::isfinite(a.dmin) || !std::isfinite(a.dmax)) continue;
        lo = a.dmin;
        hi = a.dmax;
        break;
      case TypeId::kDecimal: {
        // <= 15 digits: the nearest double prints back as the same decimal digits.
        int s = leaf.type->scale();
        lo = std::strtod(columnar::FormatDecimal(a.imin, s).c_str(), nullptr);
        hi = std::strtod(columnar::FormatDecimal(a.imax, s).c_str(), nullptr);
        break;
      }
      case TypeId::kString:
        // JSON cannot carry malformed UTF-8: such a column gets no bounds.
        if (!IsValidUtf8(a.smin) || !IsValidUtf8(a.smax)) continue;
        lo = StatsStringMin(a.smin);
        hi = StatsStringMax(a.smax);
        break;
      default:
        continue;
    }
    fs.min_values[leaf.physical] = std::move(lo);
    fs.max_values[leaf.physical] = std::move(hi);
  }
  return fs;
}

}  // namespace shoal::table
