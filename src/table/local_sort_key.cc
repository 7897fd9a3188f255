#include "table/local_sort_key.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <thread>

namespace shoal::table {

using columnar::TypeId;

namespace {

constexpr uint8_t kNullFirstByte = 0;
constexpr uint8_t kValidByte = 1;
constexpr uint8_t kNullLastByte = 2;
constexpr uint8_t kLongString = SortKeyEncoder::kStringPrefix + 1;

// Bytes of a value's encoding (without the null byte); 0 for unsortable types.
int ValueWidth(const columnar::DataType& t) {
  switch (t.id()) {
    case TypeId::kBoolean:
    case TypeId::kInt8: return 1;
    case TypeId::kInt16: return 2;
    case TypeId::kInt32:
    case TypeId::kDate:
    case TypeId::kFloat: return 4;
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kDouble:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: return 8;
    case TypeId::kDecimal: return t.IsWideDecimal() ? 16 : 8;
    case TypeId::kString:
    case TypeId::kBinary: return SortKeyEncoder::kStringPrefix + 1;
    default: return 0;
  }
}

inline void StoreBE16(uint8_t* p, uint16_t v) { v = __builtin_bswap16(v); std::memcpy(p, &v, 2); }
inline void StoreBE32(uint8_t* p, uint32_t v) { v = __builtin_bswap32(v); std::memcpy(p, &v, 4); }
inline void StoreBE64(uint8_t* p, uint64_t v) { v = __builtin_bswap64(v); std::memcpy(p, &v, 8); }

inline uint32_t FloatBits(float f) {
  if (std::isnan(f)) f = std::numeric_limits<float>::quiet_NaN();  // one NaN, sorted last
  if (f == 0.0f) f = 0.0f;                                           // -0.0 == 0.0
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

inline uint64_t DoubleBits(double d) {
  if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
  if (d == 0.0) d = 0.0;
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return (b & 0x8000000000000000ull) ? ~b : (b | 0x8000000000000000ull);
}

// Writes the value bytes of every row of `v` at `out + i*stride`.
void EncodeValues(const columnar::Vector& v, int64_t n, uint8_t* out, int stride) {
  switch (v.id()) {
    case TypeId::kBoolean: {
      const uint8_t* d = v.data<uint8_t>();
      for (int64_t i = 0; i < n; ++i) out[i * stride] = d[i] != 0;
      break;
    }
    case TypeId::kInt8: {
      const int8_t* d = v.data<int8_t>();
      for (int64_t i = 0; i < n; ++i) out[i * stride] = static_cast<uint8_t>(d[i]) ^ 0x80u;
      break;
    }
    case TypeId::kInt16: {
      const int16_t* d = v.data<int16_t>();
      for (int64_t i = 0; i < n; ++i) StoreBE16(out + i * stride, static_cast<uint16_t>(d[i]) ^ 0x8000u);
      break;
    }
    case TypeId::kInt32:
    case TypeId::kDate: {
      const int32_t* d = v.data<int32_t>();
      for (int64_t i = 0; i < n; ++i) StoreBE32(out + i * stride, static_cast<uint32_t>(d[i]) ^ 0x80000000u);
      break;
    }
    case TypeId::kFloat: {
      const float* d = v.data<float>();
      for (int64_t i = 0; i < n; ++i) StoreBE32(out + i * stride, FloatBits(d[i]));
      break;
    }
    case TypeId::kUInt64: {
      const uint64_t* d = v.data<uint64_t>();
      for (int64_t i = 0; i < n; ++i) StoreBE64(out + i * stride, d[i]);
      break;
    }
    case TypeId::kDouble: {
      const double* d = v.data<double>();
      for (int64_t i = 0; i < n; ++i) StoreBE64(out + i * stride, DoubleBits(d[i]));
      break;
    }
    case TypeId::kDecimal:
      if (v.type()->IsWideDecimal()) {
        const columnar::int128_t* d = v.data<columnar::int128_t>();
        for (int64_t i = 0; i < n; ++i) {
          unsigned __int128 u = static_cast<unsigned __int128>(d[i]) ^ (static_cast<unsigned __int128>(1) << 127);
          StoreBE64(out + i * stride, static_cast<uint64_t>(u >> 64));
          StoreBE64(out + i * stride + 8, static_cast<uint64_t>(u));
        }
        break;
      }
      [[fallthrough]];
    case TypeId::kInt64:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: {
      const int64_t* d = v.data<int64_t>();
      for (int64_t i = 0; i < n; ++i) {
        StoreBE64(out + i * stride, static_cast<uint64_t>(d[i]) ^ 0x8000000000000000ull);
      }
      break;
    }
    case TypeId::kString:
    case TypeId::kBinary: {
      const int64_t* o = v.offsets();
      const uint8_t* bytes = v.bytes().data();
      constexpr int P = SortKeyEncoder::kStringPrefix;
      for (int64_t i = 0; i < n; ++i) {
        uint8_t* p = out + i * stride;
        int64_t len = o[i + 1] - o[i];
        int64_t take = std::min<int64_t>(len, P);
        if (take > 0) std::memcpy(p, bytes + o[i], static_cast<size_t>(take));
        if (take < P) std::memset(p + take, 0, static_cast<size_t>(P - take));
        p[P] = static_cast<uint8_t>(std::min<int64_t>(len, kLongString));
      }
      break;
    }
    default:
      break;
  }
}

}  // namespace

bool IsSortableType(const columnar::DataType& type) { return ValueWidth(type) > 0; }

Result<SortKeyEncoder> SortKeyEncoder::Make(const columnar::Schema& schema, std::vector<SortColumn> columns) {
  SortKeyEncoder e;
  e.offsets_.push_back(0);
  for (const SortColumn& c : columns) {
    if (c.column < 0 || static_cast<size_t>(c.column) >= schema.size()) {
      return Status::InvalidArgument("sort column index " + std::to_string(c.column) + " is out of range for " +
                                     std::to_string(schema.size()) + " columns");
    }
    const columnar::Field& f = schema[c.column];
    int w = ValueWidth(*f.type);
    if (w == 0) {
      return Status::InvalidArgument("cannot sort by column " + f.name + " of type " + f.type->ToString());
    }
    e.types_.push_back(f.type);
    e.offsets_.push_back(e.offsets_.back() + 1 + w);
  }
  e.columns_ = std::move(columns);
  e.width_ = e.offsets_.back();
  return e;
}

KeyRows SortKeyEncoder::Encode(const columnar::RecordBatch& batch) const {
  KeyRows k;
  k.width = width_;
  const int64_t n = batch.num_rows;
  k.bytes.resize(static_cast<size_t>(n * width_));
  if (n == 0) return k;  // no rows: data() may be null, and null + offset is undefined
  uint8_t* base = k.bytes.data();
  for (size_t c = 0; c < columns_.size(); ++c) {
    const SortColumn& sc = columns_[c];
    const columnar::Vector& v = *batch.column(static_cast<size_t>(sc.column));
    const int off = offsets_[c];
    const int w = offsets_[c + 1] - off - 1;
    uint8_t* seg = base + off;
    EncodeValues(v, n, seg + 1, width_);
    if (sc.descending) {
      for (int64_t i = 0; i < n; ++i) {
        uint8_t* p = seg + i * width_ + 1;
        for (int b = 0; b < w; ++b) p[b] = static_cast<uint8_t>(~p[b]);
      }
    }
    const uint8_t null_byte = sc.nulls_first ? kNullFirstByte : kNullLastByte;
    if (v.MayHaveNulls()) {
      const uint8_t* valid = v.validity().data();
      for (int64_t i = 0; i < n; ++i) {
        uint8_t* p = seg + i * width_;
        if (valid[i]) {
          p[0] = kValidByte;
        } else {
          p[0] = null_byte;
          std::memset(p + 1, 0, static_cast<size_t>(w));
        }
      }
    } else {
      for (int64_t i = 0; i < n; ++i) seg[i * width_] = kValidByte;
    }
    if (v.type()->IsStringLike()) {
      // Only needed when some row's string is longer than the prefix.
      const int64_t* o = v.offsets();
      bool any_long = false;
      for (int64_t i = 0; i < n && !any_long; ++i) any_long = o[i + 1] - o[i] > kStringPrefix && v.IsValid(i);
      if (any_long) k.tie_breaks.push_back({offsets_[c + 1], sc.descending, &v});
    }
  }
  return k;
}

int CompareKeyRows(const KeyRows& a, int64_t i, const KeyRows& b, int64_t j) {
  const uint8_t* x = a.row(i);
  const uint8_t* y = b.row(j);
  // Both sides were encoded by one encoder, but only a side with long strings carries a
  // tie-break entry; walk the union of segments in key order.
  size_t ia = 0, ib = 0;
  int pos = 0;
  while (ia < a.tie_breaks.size() || ib < b.tie_breaks.size()) {
    int end;
    if (ib >= b.tie_breaks.size() || (ia < a.tie_breaks.size() && a.tie_breaks[ia].end <= b.tie_breaks[ib].end)) {
      end = a.tie_breaks[ia].end;
    } else {
      end = b.tie_breaks[ib].end;
    }
    int r = std::memcmp(x + pos, y + pos, static_cast<size_t>(end - pos));
    if (r != 0) return r;
    pos = end;
    const KeyRows::TieBreak* ta = ia < a.tie_breaks.size() && a.tie_breaks[ia].end == end ? &a.tie_breaks[ia] : nullptr;
    const KeyRows::TieBreak* tb = ib < b.tie_breaks.size() && b.tie_breaks[ib].end == end ? &b.tie_breaks[ib] : nullptr;
    if (ta) ++ia;
    if (tb) ++ib;
    if (ta && tb) {
      // Equal bytes so far: both long or neither; the length byte says which.
      uint8_t len = x[end - 1];
      if (ta->descending) len = static_cast<uint8_t>(~len);
      if (len == kLongString) {
        int s = ta->strings->GetString(i).compare(tb->strings->GetString(j));
        if (s != 0) return ta->descending ? -s : s;
      }
    }
  }
  return std::memcmp(x + pos, y + pos, static_cast<size_t>(a.width - pos));
}

namespace {

// A row and up to 8 bytes of its key, packed big-endian into an integer (so integer order is
// memcmp order).
struct SortItem {
  uint64_t key;
  uint32_t row;
};
static_assert(2 * sizeof(SortItem) <= kSortBytesPerRow);

inline bool ItemLess(const SortItem& a, const SortItem& b) { return a.key < b.key || (a.key == b.key && a.row < b.row); }

// Sorts rows by their key bytes. Only the byte positions that differ between some rows take
// part; they are cut into steps of at most 8 positions, and a step is loaded as one integer
// per row. The first step sorts all rows; each later step sorts only a run of rows that was
// equal on every earlier step. A long string's segment ends in a tie-break step: a run equal
// up to there whose strings are long is ordered by comparing full values (CompareKeyRows).
// Integer sorting is MSD radix on the most significant varying byte, until a range varies in
// at most two bytes (then LSD radix) or is small (then std::sort). Equal keys stay in row
// order (every sort orders by (key, row)), so the result is stable. Large inputs are first
// split in two by a pivot key, and the two sides are sorted on two threads.
class KeyRowSorter {
 public:
  KeyRowSorter(const KeyRows& keys, bool use_tie_breaks, int64_t parallel_from_rows)
      : keys_(keys), parallel_from_rows_(std::max<int64_t>(2, parallel_from_rows)) {
    const int w = keys.width;
    const int64_t n = keys.num_rows();
    // Positions where some row differs from row 0.
    std::vector<uint8_t> diff(static_cast<size_t>(w), 0);
    const uint8_t* k = keys.bytes.data();
    // Eight positions at a time as one word, the tail byte by byte.
    const int words = n > 0 ? w / 8 : 0;
    std::vector<uint64_t> wdiff(static_cast<size_t>(words), 0);
    std::vector<uint64_t> first(static_cast<size_t>(words), 0);
    for (int q = 0; q < words; ++q) std::memcpy(&first[q], k + 8 * q, 8);
    for (int64_t i = 1; i < n; ++i) {
      const uint8_t* r = k + i * w;
      for (int q = 0; q < words; ++q) {
        uint64_t v;
        std::memcpy(&v, r + 8 * q, 8);
        wdiff[q] |= v ^ first[q];
      }
      for (int b = 8 * words; b < w; ++b) diff[b] |= static_cast<uint8_t>(r[b] ^ k[b]);
    }
    for (int q = 0; q < words; ++q) std::memcpy(&diff[8 * static_cast<size_t>(q)], &wdiff[q], 8);
    size_t t = 0;
    std::vector<int> cur;
    auto close_chunk = [&] {
      if (!cur.empty()) steps_.push_back(Step{std::move(cur), -1});
      cur.clear();
    };
    for (int b = 0; b < w; ++b) {
      if (diff[b]) {
        cur.push_back(b);
        if (cur.size() == 8) close_chunk();
      }
      if (use_tie_breaks && t < keys.tie_breaks.size() && keys.tie_breaks[t].end == b + 1) {
        close_chunk();
        steps_.push_back(Step{{}, static_cast<int>(t)});
        ++t;
      }
    }
    close_chunk();
  }

  std::vector<uint32_t> Run() {
    const int64_t n = keys_.num_rows();
    items_.resize(static_cast<size_t>(n));
    tmp_.resize(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) items_[i].row = static_cast<uint32_t>(i);
    if (n < parallel_from_rows_ || std::thread::hardware_concurrency() < 2 || steps_.empty() || steps_[0].tie_break >= 0) {
      Refine(items_.data(), tmp_.data(), n, 0);
    } else {
      SortOnTwoThreads(n);
    }
    std::vector<SortItem>().swap(tmp_);  // the permutation replaces the scratch, not adds to it
    std::vector<uint32_t> perm(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) perm[i] = items_[i].row;
    return perm;
  }

 private:
  struct Step {
    std::vector<int> positions;  // key byte offsets, most significant first (empty: tie-break)
    int tie_break = -1;          // index into keys_.tie_breaks
  };

  // Orders a[0..n), whose rows are equal on every step before `s` and in row order.
  void Refine(SortItem* a, SortItem* tmp, int64_t n, size_t s) {
    while (n > 1 && s < steps_.size()) {
      const Step& step = steps_[s];
      if (step.tie_break >= 0) {
        const KeyRows::TieBreak& tb = keys_.tie_breaks[static_cast<size_t>(step.tie_break)];
        uint8_t len = keys_.row(a[0].row)[tb.end - 1];  // the same for every row of the run
        if (tb.descending) len = static_cast<uint8_t>(~len);
        if (len == SortKeyEncoder::kStringPrefix + 1) {
          std::sort(a, a + n, [this](const SortItem& x, const SortItem& y) {
            int r = CompareKeyRows(keys_, x.row, keys_, y.row);
            return r < 0 || (r == 0 && x.row < y.row);
          });
          return;
        }
        ++s;
        continue;
      }
      Load(a, n, step.positions);
      SortLoaded(a, tmp, n, s);
      return;
    }
  }

  // Orders a[0..n), whose keys hold step `s` (a positions step), then the runs of equal keys
  // on the later steps.
  void SortLoaded(SortItem* a, SortItem* tmp, int64_t n, size_t s) {
    SortByKey(a, tmp, n);
    if (s + 1 == steps_.size()) return;
    int64_t i = 0;
    while (i < n) {
      int64_t j = i + 1;
      while (j < n && a[j].key == a[i].key) ++j;
      if (j - i > 1) Refine(a + i, tmp + i, j - i, s + 1);
      i = j;
    }
  }

  // Sorts items_ (n rows, in row order) on two threads: a stable pass splits the rows by a
  // pivot on the first step's key (the median of a sample; keys equal to it go to the side
  // that balances better), then each thread sorts one side — every key on the left is below
  // every key on the right, so the sides need no merge.
  void SortOnTwoThreads(int64_t n) {
    SortItem* a = items_.data();
    SortItem* tmp = tmp_.data();
    Load(a, n, steps_[0].positions);
    std::vector<uint64_t> sample;
    const int64_t stride = std::max<int64_t>(1, n / 1024);
    for (int64_t i = 0; i < n; i += stride) sample.push_back(a[i].key);
    std::nth_element(sample.begin(), sample.begin() + static_cast<std::ptrdiff_t>(sample.size() / 2), sample.end());
    const uint64_t pivot = sample[sample.size() / 2];
    int64_t below = 0, equal = 0;
    for (int64_t i = 0; i < n; ++i) {
      below += a[i].key < pivot;
      equal += a[i].key == pivot;
    }
    // Left: keys < pivot, or <= pivot when that is closer to half.
    const bool take_equal = std::llabs(below + equal - n / 2) < std::llabs(below - n / 2);
    const int64_t left = take_equal ? below + equal : below;
    if (left == 0 || left == n) return SortLoaded(a, tmp, n, 0);
    int64_t l = 0, r = left;
    for (int64_t i = 0; i < n; ++i) {
      const bool goes_left = a[i].key < pivot || (take_equal && a[i].key == pivot);
      tmp[goes_left ? l++ : r++] = a[i];
    }
    std::copy(tmp, tmp + n, a);
    std::thread second([&] { SortLoaded(a + left, tmp + left, n - left, 0); });
    SortLoaded(a, tmp, left, 0);
    second.join();
  }

  void Load(SortItem* a, int64_t n, const std::vector<int>& pos) const {
    const uint8_t* k = keys_.bytes.data();
    const int64_t w = keys_.width;
    const int shift = 8 * (8 - static_cast<int>(pos.size()));
    for (int64_t i = 0; i < n; ++i) {
      // After the first step the rows are out of order: each key row is a cache miss.
      if (i + kPrefetch < n) __builtin_prefetch(k + a[i + kPrefetch].row * w + pos[0]);
      const uint8_t* r = k + a[i].row * w;
      uint64_t v = 0;
      for (int p : pos) v = (v << 8) | r[p];
      a[i].key = v << shift;
    }
  }

  // Sorts a[0..n) by (key, row); `tmp` is scratch of n items.
  static void SortByKey(SortItem* a, SortItem* tmp, int64_t n) {
    if (n < 64) {
      std::sort(a, a + n, ItemLess);
      return;
    }
    uint64_t diff = 0;
    const uint64_t first = a[0].key;
    for (int64_t i = 1; i < n; ++i) diff |= a[i].key ^ first;
    if (diff == 0) return;
    int varying[8];
    int nv = 0;
    for (int b = 0; b < 8; ++b) {
      if ((diff >> (8 * b)) & 0xFF) varying[nv++] = b;
    }
    if (nv <= 2) {
      LsdSort(a, tmp, n, varying, nv);
      return;
    }
    // MSD pass on the most significant varying byte, then each bucket on its own.
    const int shift = 8 * varying[nv - 1];
    int64_t counts[256] = {};
    for (int64_t i = 0; i < n; ++i) ++counts[(a[i].key >> shift) & 0xFF];
    int64_t starts[257];
    starts[0] = 0;
    for (int d = 0; d < 256; ++d) starts[d + 1] = starts[d] + counts[d];
    int64_t fill[256];
    std::copy(starts, starts + 256, fill);
    for (int64_t i = 0; i < n; ++i) tmp[fill[(a[i].key >> shift) & 0xFF]++] = a[i];
    std::copy(tmp, tmp + n, a);
    for (int d = 0; d < 256; ++d) {
      if (counts[d] > 1) SortByKey(a + starts[d], tmp + starts[d], counts[d]);
    }
  }

  // Stable LSD radix sort of a[0..n) on the given key bytes (least significant first).
  static void LsdSort(SortItem* a, SortItem* tmp, int64_t n, const int* bytes, int nb) {
    SortItem* src = a;
    SortItem* dst = tmp;
    for (int k = 0; k < nb; ++k) {
      const int shift = 8 * bytes[k];
      int64_t counts[256] = {};
      for (int64_t i = 0; i < n; ++i) ++counts[(src[i].key >> shift) & 0xFF];
      int64_t sum = 0;
      for (int d = 0; d < 256; ++d) {
        int64_t c = counts[d];
        counts[d] = sum;
        sum += c;
      }
      for (int64_t i = 0; i < n; ++i) dst[counts[(src[i].key >> shift) & 0xFF]++] = src[i];
      std::swap(src, dst);
    }
    if (src != a) std::copy(src, src + n, a);
  }

  // Rows ahead whose key bytes Load prefetches.
  static constexpr int64_t kPrefetch = 16;

  const KeyRows& keys_;
  const int64_t parallel_from_rows_;
  std::vector<Step> steps_;
  std::vector<SortItem> items_;
  std::vector<SortItem> tmp_;
};

}  // namespace

std::vector<uint32_t> RadixSortKeyRows(const KeyRows& keys) {
  return KeyRowSorter(keys, false, kParallelSortRows).Run();
}

std::vector<uint32_t> SortKeyRows(const KeyRows& keys, int64_t parallel_from_rows) {
  return KeyRowSorter(keys, true, parallel_from_rows).Run();
}

}  // namespace shoal::table
