#include "table/local_sort_zorder.h"

#include <algorithm>
#include <cstring>

namespace shoal::table {

Result<ZOrderKeyEncoder> ZOrderKeyEncoder::Make(const columnar::Schema& schema,
                                                const std::vector<SortColumn>& columns,
                                                const columnar::RecordBatch& sample) {
  if (columns.empty()) return Status::InvalidArgument("z-order needs at least one column");
  ZOrderKeyEncoder z;
  z.bits_ = std::min(10, 64 / static_cast<int>(columns.size()));
  if (z.bits_ < 1) return Status::InvalidArgument("z-order supports at most 64 columns");
  const int max_boundaries = std::min(kMaxBoundaries, (1 << z.bits_) - 2);
  // Evenly strided sample rows.
  const int64_t n = sample.num_rows;
  const int64_t take = std::min(n, kSampleRows);
  std::vector<uint32_t> rows(static_cast<size_t>(take));
  for (int64_t i = 0; i < take; ++i) rows[static_cast<size_t>(i)] = static_cast<uint32_t>(i * n / take);
  for (const SortColumn& c : columns) {
    ASSIGN_OR_RETURN(SortKeyEncoder enc, SortKeyEncoder::Make(schema, {{c.column, false, true}}));
    const int w = enc.width();
    std::vector<uint8_t> bounds;
    if (take > 0) {
      auto col = columnar::Gather(*sample.column(static_cast<size_t>(c.column)), rows.data(), take);
      auto one_schema = std::make_shared<columnar::Schema>();
      one_schema->fields.push_back(schema[c.column]);
      columnar::RecordBatch b(one_schema, {col}, take);
      // Encode against column 0 of the one-column batch.
      ASSIGN_OR_RETURN(SortKeyEncoder local, SortKeyEncoder::Make(*one_schema, {{0, false, true}}));
      KeyRows keys = local.Encode(b);
      std::vector<uint32_t> order = RadixSortKeyRows(keys);  // prefix order is enough for ranks
      // Quantile boundaries over the sorted sample, deduplicated; NULL keys are skipped (rank 0).
      for (int q = 1; q <= max_boundaries; ++q) {
        int64_t at = static_cast<int64_t>(q) * take / (max_boundaries + 1);
        if (at >= take) break;
        const uint8_t* k = keys.row(order[static_cast<size_t>(at)]);
        if (k[0] != 1) continue;  // NULL
        if (!bounds.empty() && std::memcmp(bounds.data() + bounds.size() - w, k, static_cast<size_t>(w)) == 0) {
          continue;
        }
        bounds.insert(bounds.end(), k, k + w);
      }
    }
    z.column_encoders_.push_back(std::move(enc));
    z.boundaries_.push_back(std::move(bounds));
  }
  return z;
}

namespace {

using U128 = unsigned __int128;

// The first `w` (<= 16) bytes at `p` as a big-endian integer, left-aligned, so integer order
// is memcmp order. Reads 16 bytes: the caller guarantees they exist.
inline U128 LoadPrefix(const uint8_t* p, int w) {
  uint64_t hi, lo;
  std::memcpy(&hi, p, 8);
  std::memcpy(&lo, p + 8, 8);
  U128 v = (static_cast<U128>(__builtin_bswap64(hi)) << 64) | __builtin_bswap64(lo);
  return w >= 16 ? v : (v >> (8 * (16 - w))) << (8 * (16 - w));
}

// Number of entries of sorted `b[0..nb)` that are <= x.
template <typename T, typename Less>
int64_t UpperBound(const T* b, int64_t nb, const T& x, Less less_or_equal) {
  int64_t lo = 0, hi = nb;
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    if (less_or_equal(b[mid], x)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

}  // namespace

uint32_t ZOrderKeyEncoder::Rank(size_t k, const KeyRows& column_keys, int64_t row) const {
  const uint8_t* key = column_keys.row(row);
  if (key[0] != 1) return 0;  // NULL
  const int w = column_keys.width;
  const std::vector<uint8_t>& b = boundaries_[k];
  const int64_t nb = static_cast<int64_t>(b.size()) / w;
  int64_t lo = 0, hi = nb;
  while (lo < hi) {
    int64_t mid = (lo + hi) / 2;
    if (std::memcmp(b.data() + mid * w, key, static_cast<size_t>(w)) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return ScaleRank(lo, nb);
}

uint32_t ZOrderKeyEncoder::ScaleRank(int64_t le, int64_t nb) const {
  // Number of boundaries <= key, plus one so NULL alone has rank 0; then scaled so the ranks
  // span the whole id space (a column with few ranges still reaches the top bits).
  const int64_t top = (int64_t{1} << bits_) - 1;
  return static_cast<uint32_t>((le + 1) * top / (nb + 1));
}

void ZOrderKeyEncoder::Ranks(size_t k, const KeyRows* keys, uint32_t* out) const {
  const int64_t n = keys->num_rows();
  const int w = keys->width;
  const std::vector<uint8_t>& b = boundaries_[k];
  const int64_t nb = static_cast<int64_t>(b.size()) / w;
  if (w > 16) {
    for (int64_t i = 0; i < n; ++i) out[i] = Rank(k, *keys, i);
    return;
  }
  // Keys of up to 16 bytes compare as integers: no memcmp per probe.
  std::vector<U128> bounds(static_cast<size_t>(nb));
  std::vector<uint8_t> pad(16, 0);
  for (int64_t j = 0; j < nb; ++j) {
    std::memcpy(pad.data(), b.data() + j * w, static_cast<size_t>(w));
    bounds[static_cast<size_t>(j)] = LoadPrefix(pad.data(), w);
  }
  const int64_t size = static_cast<int64_t>(keys->bytes.size());
  const uint8_t* base = keys->bytes.data();
  for (int64_t i = 0; i < n; ++i) {
    const uint8_t* key = base + i * w;
    if (key[0] != 1) {
      out[i] = 0;  // NULL
      continue;
    }
    if (i * w + 16 > size) {  // the last rows: LoadPrefix reads 16 bytes
      std::memcpy(pad.data(), key, static_cast<size_t>(w));
      key = pad.data();
    }
    U128 x = LoadPrefix(key, w);
    int64_t le = UpperBound(bounds.data(), nb, x, [](U128 a, U128 v) { return a <= v; });
    out[i] = ScaleRank(le, nb);
  }
}

KeyRows ZOrderKeyEncoder::Encode(const columnar::RecordBatch& batch) const {
  const int64_t n = batch.num_rows;
  const size_t d = column_encoders_.size();
  std::vector<uint64_t> z(static_cast<size_t>(n), 0);
  std::vector<uint32_t> ranks(static_cast<size_t>(n));
  for (size_t c = 0; c < d; ++c) {
    KeyRows keys = column_encoders_[c].Encode(batch);
    Ranks(c, &keys, ranks.data());
    // Bit b of column c lands at b*d + (d-1-c): top bits first, column 0 leading each group.
    for (int b = 0; b < bits_; ++b) {
      const int shift = b * static_cast<int>(d) + static_cast<int>(d - 1 - c);
      for (int64_t i = 0; i < n; ++i) {
        z[static_cast<size_t>(i)] |= static_cast<uint64_t>((ranks[static_cast<size_t>(i)] >> b) & 1u) << shift;
      }
    }
  }
  KeyRows out;
  out.width = 8;
  out.bytes.resize(static_cast<size_t>(n) * 8);
  for (int64_t i = 0; i < n; ++i) {
    uint64_t be = __builtin_bswap64(z[static_cast<size_t>(i)]);
    std::memcpy(out.bytes.data() + i * 8, &be, 8);
  }
  return out;
}

}  // namespace shoal::table
