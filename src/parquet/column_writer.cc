#include "parquet/column_writer.h"

#include <algorithm>
#include <cstring>

#include "parquet/byte_stream_split.h"
#include "parquet/delta_encoding.h"
#include "parquet/plain_encoding.h"
#include "parquet/rle_bit_packed.h"

namespace shoal::parquet {
namespace {

using columnar::TypeId;

// Levels per piece between page-size checks.
constexpr int64_t kPieceLevels = 2048;

int PhysicalWidth(PhysicalType t, int32_t type_length) {
  switch (t) {
    case PhysicalType::kBoolean: return 1;
    case PhysicalType::kInt32:
    case PhysicalType::kFloat: return 4;
    case PhysicalType::kInt64:
    case PhysicalType::kDouble: return 8;
    case PhysicalType::kInt96: return 12;
    case PhysicalType::kFixedLenByteArray: return type_length;
    case PhysicalType::kByteArray: return 0;
  }
  return 0;
}

int BitsFor(uint64_t max_value) {
  int w = 0;
  while (w < 64 && (max_value >> w) != 0) ++w;
  return w;
}

template <typename S, typename D>
void ConvertRows(const S* src, const ShreddedLeaf& in, int64_t first, int64_t n, D* dst) {
  if (in.dense) {
    const S* s = src + in.dense_begin + first;
    for (int64_t k = 0; k < n; ++k) dst[k] = static_cast<D>(s[k]);
  } else {
    const int64_t* rows = in.value_rows.data() + first;
    for (int64_t k = 0; k < n; ++k) dst[k] = static_cast<D>(src[rows[k]]);
  }
}

BoundaryOrder ComputeBoundaryOrder(StatsKind kind, const ColumnIndex& ci) {
  bool asc = true, desc = true;
  int prev = -1;
  for (size_t i = 0; i < ci.null_pages.size(); ++i) {
    if (ci.null_pages[i]) continue;
    if (prev >= 0) {
      int cmin = CompareEncoded(kind, ci.min_values[prev], ci.min_values[i]);
      int cmax = CompareEncoded(kind, ci.max_values[prev], ci.max_values[i]);
      if (cmin > 0 || cmax > 0) asc = false;
      if (cmin < 0 || cmax < 0) desc = false;
    }
    prev = static_cast<int>(i);
  }
  if (asc) return BoundaryOrder::kAscending;
  if (desc) return BoundaryOrder::kDescending;
  return BoundaryOrder::kUnordered;
}

}  // namespace

Encoding ResolveEncoding(Encoding requested, PhysicalType t) {
  bool ints = t == PhysicalType::kInt32 || t == PhysicalType::kInt64;
  switch (requested) {
    case Encoding::kRle:
      return t == PhysicalType::kBoolean ? Encoding::kRle : Encoding::kPlain;
    case Encoding::kDeltaBinaryPacked:
      return ints ? requested : Encoding::kPlain;
    case Encoding::kDeltaLengthByteArray:
      return t == PhysicalType::kByteArray ? requested : Encoding::kPlain;
    case Encoding::kDeltaByteArray:
      return t == PhysicalType::kByteArray || t == PhysicalType::kFixedLenByteArray ? requested : Encoding::kPlain;
    case Encoding::kByteStreamSplit:
      // Only FLOAT/DOUBLE: INT32/INT64/FLBA support is recent (format 2.11) and DuckDB 1.5
      // rejects it, so shoal does not write it.
      return t == PhysicalType::kFloat || t == PhysicalType::kDouble ? requested : Encoding::kPlain;
    default:
      return Encoding::kPlain;
  }
}

ColumnWriter::ColumnWriter(const WriteLeaf& leaf, const ColumnProperties& column, const WriterProperties& props)
    : leaf_(leaf),
      column_(column),
      props_(props),
      width_(PhysicalWidth(leaf.physical, leaf.type_length)),
      fallback_(ResolveEncoding(column.encoding, leaf.physical)),
      stats_kind_(StatsKindOf(leaf.element)),
      pages_(column.codec, column.compression_level, props.page_crc(), props.data_page_version()),
      page_stats_(stats_kind_, props.statistics_truncate_bytes()),
      chunk_stats_(stats_kind_, props.statistics_truncate_bytes()) {
  bool want_dict = column.dictionary || column.encoding == Encoding::kRleDictionary ||
                   column.encoding == Encoding::kPlainDictionary;
  if (want_dict && leaf.physical != PhysicalType::kBoolean) dict_ = std::make_unique<DictionaryBuilder>(width_);
  if (column.bloom_filter && leaf.physical != PhysicalType::kBoolean) {
    bloom_ = std::make_unique<BloomFilter>(BloomFilter::OptimalNumBytes(column.bloom_ndv, column.bloom_fpp));
  }
  ResetChunk();
}

void ColumnWriter::ResetChunk() {
  use_dictionary_ = dict_ != nullptr && file_choice_ != FileChoice::kFallback;
  if (dict_) dict_->Reset();
  pages_.Reset();
  chunk_stats_.Reset();
  page_stats_.Reset();
  chunk_rows_ = 0;
  chunk_levels_ = 0;
  dict_pages_used_ = 0;
  encoding_stats_.clear();
  encodings_.clear();
  pending_offsets_ = OffsetIndex();
  pending_index_ = ColumnIndex();
  pending_index_.null_counts.emplace();
  index_valid_ = true;
  page_offsets_.assign(1, 0);
}

Status ColumnWriter::Materialize(const ShreddedLeaf& in, int64_t first, int64_t n, Values* out) {
  out->n = n;
  if (n == 0) return Status::OK();
  if (in.values == nullptr) return Status::Internal("column '" + leaf_.dotted + "' has values but no vector");
  const columnar::Vector& v = *in.values;
  auto direct = [&](int w) {
    if (in.dense) {
      out->fixed = v.values().data() + (in.dense_begin + first) * w;
      return;
    }
    scratch_fixed_.Resize(static_cast<size_t>(n * w));
    uint8_t* dst = scratch_fixed_.data();
    const uint8_t* src = v.values().data();
    const int64_t* rows = in.value_rows.data() + first;
    if (w == 8) {
      ConvertRows(reinterpret_cast<const int64_t*>(src), in, first, n, reinterpret_cast<int64_t*>(dst));
    } else if (w == 4) {
      ConvertRows(reinterpret_cast<const int32_t*>(src), in, first, n, reinterpret_cast<int32_t*>(dst));
    } else {
      for (int64_t k = 0; k < n; ++k) std::memcpy(dst + k * w, src + rows[k] * w, static_cast<size_t>(w));
    }
    out->fixed = dst;
  };
  auto convert = [&](auto src_tag, auto dst_tag) {
    using S = decltype(src_tag);
    using D = decltype(dst_tag);
    scratch_fixed_.Resize(static_cast<size_t>(n) * sizeof(D));
    ConvertRows(v.data<S>(), in, first, n, scratch_fixed_.As<D>());
    out->fixed = scratch_fixed_.data();
  };
  switch (v.id()) {
    case TypeId::kBoolean: direct(1); break;
    case TypeId::kInt8: convert(int8_t{}, int32_t{}); break;
    case TypeId::kInt16: convert(int16_t{}, int32_t{}); break;
    case TypeId::kInt32:
    case TypeId::kDate:
    case TypeId::kFloat: direct(4); break;
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kTime:
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz:
    case TypeId::kDouble: direct(8); break;
    case TypeId::kDecimal:
      if (leaf_.physical == PhysicalType::kInt32) {
        convert(int64_t{}, int32_t{});
      } else if (leaf_.physical == PhysicalType::kInt64) {
        direct(8);
      } else {
        const int w = width_;
        scratch_fixed_.Resize(static_cast<size_t>(n * w));
        uint8_t* dst = scratch_fixed_.data();
        const columnar::int128_t* src = v.data<columnar::int128_t>();
        for (int64_t k = 0; k < n; ++k) {
          int64_t row = in.dense ? in.dense_begin + first + k : in.value_rows[first + k];
          unsigned __int128 x = static_cast<unsigned __int128>(src[row]);
          for (int j = 0; j < w; ++j) dst[k * w + (w - 1 - j)] = static_cast<uint8_t>(x >> (8 * j));
        }
        out->fixed = dst;
      }
      break;
    case TypeId::kString:
    case TypeId::kBinary:
      if (in.dense) {
        out->offsets = v.offsets() + in.dense_begin + first;
        out->bytes = v.bytes().data();
      } else {
        scratch_offsets_.resize(static_cast<size_t>(n + 1));
        scratch_bytes_.Clear();
        const int64_t* off = v.offsets();
        const uint8_t* bytes = v.bytes().data();
        scratch_offsets_[0] = 0;
        for (int64_t k = 0; k < n; ++k) {
          int64_t row = in.value_rows[first + k];
          scratch_bytes_.Append(bytes + off[row], static_cast<size_t>(off[row + 1] - off[row]));
          scratch_offsets_[k + 1] = static_cast<int64_t>(scratch_bytes_.size());
        }
        out->offsets = scratch_offsets_.data();
        out->bytes = scratch_bytes_.data();
      }
      break;
    default:
      return Status::NotSupported("Parquet writer cannot write column '" + leaf_.dotted + "' of type " +
                                  v.type()->ToString());
  }
  return Status::OK();
}

void ColumnWriter::InsertBloom(const Values& v) {
  switch (leaf_.physical) {
    case PhysicalType::kInt32: {
      const int32_t* p = reinterpret_cast<const int32_t*>(v.fixed);
      for (int64_t i = 0; i < v.n; ++i) bloom_->Insert(BloomFilter::Hash(p[i]));
      break;
    }
    case PhysicalType::kInt64: {
      const int64_t* p = reinterpret_cast<const int64_t*>(v.fixed);
      for (int64_t i = 0; i < v.n; ++i) bloom_->Insert(BloomFilter::Hash(p[i]));
      break;
    }
    case PhysicalType::kFloat: {
      const float* p = reinterpret_cast<const float*>(v.fixed);
      for (int64_t i = 0; i < v.n; ++i) bloom_->Insert(BloomFilter::Hash(p[i]));
      break;
    }
    case PhysicalType::kDouble: {
      const double* p = reinterpret_cast<const double*>(v.fixed);
      for (int64_t i = 0; i < v.n; ++i) bloom_->Insert(BloomFilter::Hash(p[i]));
      break;
    }
    case PhysicalType::kFixedLenByteArray:
      for (int64_t i = 0; i < v.n; ++i) bloom_->Insert(BloomFilter::Hash(v.fixed + i * width_, width_));
      break;
    case PhysicalType::kByteArray:
      for (int64_t i = 0; i < v.n; ++i) {
        bloom_->Insert(BloomFilter::Hash(v.bytes + v.offsets[i], v.offsets[i + 1] - v.offsets[i]));
      }
      break;
    default:
      break;
  }
}

void ColumnWriter::InsertBloomFromDictionary(int64_t from) {
  for (int64_t i = from; i < dict_->size(); ++i) {
    std::string_view e = dict_->entry(i);
    uint64_t h;
    switch (leaf_.physical) {
      case PhysicalType::kInt32: {
        int32_t x;
        std::memcpy(&x, e.data(), 4);
        h = BloomFilter::Hash(x);
        break;
      }
      case PhysicalType::kInt64: {
        int64_t x;
        std::memcpy(&x, e.data(), 8);
        h = BloomFilter::Hash(x);
        break;
      }
      case PhysicalType::kFloat: {
        float x;
        std::memcpy(&x, e.data(), 4);
        h = BloomFilter::Hash(x);
        break;
      }
      case PhysicalType::kDouble: {
        double x;
        std::memcpy(&x, e.data(), 8);
        h = BloomFilter::Hash(x);
        break;
      }
      default:
        h = BloomFilter::Hash(e);
        break;
    }
    bloom_->Insert(h);
  }
}

void ColumnWriter::AppendPiece(const ShreddedLeaf& in, int64_t lb, int64_t k, int64_t rows, const Values& v) {
  if (leaf_.max_def > 0) page_def_.insert(page_def_.end(), in.def.begin() + lb, in.def.begin() + lb + k);
  if (leaf_.max_rep > 0) page_rep_.insert(page_rep_.end(), in.rep.begin() + lb, in.rep.begin() + lb + k);
  const int64_t n = v.n;
  if (n > 0) {
    if (column_.statistics) {
      if (width_ == 0) {
        page_stats_.UpdateByteArrays(v.offsets, v.bytes, n);
      } else if (leaf_.physical == PhysicalType::kFixedLenByteArray) {
        page_stats_.UpdateFixedLenByteArrays(v.fixed, width_, n);
      } else {
        page_stats_.UpdateFixed(v.fixed, n);
      }
    }
    if (use_dictionary_) {
      size_t old = page_indices_.size();
      int64_t dict_before = dict_->size();
      page_indices_.resize(old + static_cast<size_t>(n));
      if (width_ == 0) {
        dict_->InsertByteArrays(v.offsets, v.bytes, n, page_indices_.data() + old);
      } else {
        dict_->InsertFixed(v.fixed, n, page_indices_.data() + old);
      }
      if (bloom_) InsertBloomFromDictionary(dict_before);
    } else {
      if (width_ == 0) {
        int64_t base = static_cast<int64_t>(page_bytes_.size()) - v.offsets[0];
        page_bytes_.Append(v.bytes + v.offsets[0], static_cast<size_t>(v.offsets[n] - v.offsets[0]));
        for (int64_t i = 1; i <= n; ++i) page_offsets_.push_back(v.offsets[i] + base);
      } else {
        page_fixed_.Append(v.fixed, static_cast<size_t>(n * width_));
      }
      if (bloom_) InsertBloom(v);
    }
  }
  page_stats_.AddNulls(k - n);
  page_stats_.AddValues(n);
  page_levels_ += k;
  page_values_ += n;
  page_rows_ += rows;
}

Status ColumnWriter::Write(const ShreddedLeaf& in) {
  const int64_t total = in.num_levels;
  const int64_t page_rows_limit = props_.data_page_rows();
  const uint16_t max_def = static_cast<uint16_t>(leaf_.max_def);
  int64_t lpos = 0, vpos = 0;
  Values v;
  while (lpos < total) {
    int64_t k = 0, rows = 0;
    int64_t rows_left = std::max<int64_t>(1, page_rows_limit - page_rows_);
    if (leaf_.max_rep == 0) {
      k = std::min({total - lpos, kPieceLevels, rows_left});
      rows = k;
    } else {
      const uint16_t* rep = in.rep.data();
      int64_t i = lpos;
      while (i < total) {
        if (rep[i] == 0) {
          if (rows == rows_left || i - lpos >= kPieceLevels) break;
          ++rows;
        }
        ++i;
      }
      k = i - lpos;
    }
    int64_t nv = max_def == 0 ? k : CountEqual(in.def.data() + lpos, k, max_def);
    RETURN_NOT_OK(Materialize(in, vpos, nv, &v));
    AppendPiece(in, lpos, k, rows, v);
    lpos += k;
    vpos += nv;
    if (page_rows_ >= page_rows_limit || EstimatedPageBytes() >= props_.data_page_bytes()) RETURN_NOT_OK(FlushPage());
    if (use_dictionary_ && dict_->plain_bytes() > props_.dictionary_page_bytes()) {
      RETURN_NOT_OK(FlushPage());
      use_dictionary_ = false;  // fall back for the rest of this column chunk
    }
  }
  return Status::OK();
}

int64_t ColumnWriter::EstimatedPageBytes() const {
  int64_t levels = page_levels_ * ((leaf_.max_def > 0) + (leaf_.max_rep > 0)) / 4;
  if (use_dictionary_) return levels + page_values_ * BitsFor(static_cast<uint64_t>(dict_->size())) / 8 + 1;
  if (width_ == 0) return levels + static_cast<int64_t>(page_bytes_.size()) + 4 * page_values_;
  if (leaf_.physical == PhysicalType::kBoolean) return levels + page_values_ / 8;
  return levels + static_cast<int64_t>(page_fixed_.size());
}

int64_t ColumnWriter::buffered_bytes() const {
  int64_t dict = dict_ ? dict_->plain_bytes() : 0;
  return pages_.compressed_bytes() + dict + EstimatedPageBytes();
}

Status ColumnWriter::EncodeValues(columnar::Buffer* out, Encoding* encoding, int64_t count) {
  out->Clear();
  const int64_t n = count < 0 ? page_values_ : std::min(count, page_values_);
  if (n == 0) {  // all NULL: no values to encode, and no need for a dictionary
    *encoding = Encoding::kPlain;
    return Status::OK();
  }
  if (use_dictionary_) {
    int bw = std::max(1, BitsFor(static_cast<uint64_t>(dict_->size() - 1)));
    out->Push<uint8_t>(static_cast<uint8_t>(bw));
    RleBitPackedEncoder enc(bw, out);
    enc.PutBatch(page_indices_.data(), n);
    enc.Flush();
    *encoding = Encoding::kRleDictionary;
    return Status::OK();
  }
  *encoding = fallback_;
  switch (fallback_) {
    case Encoding::kRle:
      EncodeBooleanRle(page_fixed_.data(), n, out);
      break;
    case Encoding::kDeltaBinaryPacked:
      if (leaf_.physical == PhysicalType::kInt32) {
        EncodeDeltaBinaryPacked(page_fixed_.As<int32_t>(), n, out);
      } else {
        EncodeDeltaBinaryPacked(page_fixed_.As<int64_t>(), n, out);
      }
      break;
    case Encoding::kDeltaLengthByteArray:
      EncodeDeltaLengthByteArray(page_offsets_.data(), page_bytes_.data(), n, out);
      break;
    case Encoding::kDeltaByteArray:
      if (width_ == 0) {
        EncodeDeltaByteArray(page_offsets_.data(), page_bytes_.data(), n, out);
      } else {
        scratch_offsets_.resize(static_cast<size_t>(n + 1));
        for (int64_t i = 0; i <= n; ++i) scratch_offsets_[i] = i * width_;
        EncodeDeltaByteArray(scratch_offsets_.data(), page_fixed_.data(), n, out);
      }
      break;
    case Encoding::kByteStreamSplit:
      EncodeByteStreamSplit(page_fixed_.data(), width_, n, out);
      break;
    default:
      *encoding = Encoding::kPlain;
      if (leaf_.physical == PhysicalType::kBoolean) {
        EncodePlainBooleans(page_fixed_.data(), n, out);
      } else if (width_ == 0) {
        EncodePlainByteArrays(page_offsets_.data(), page_bytes_.data(), n, out);
      } else {
        out->Append(page_fixed_.data(), static_cast<size_t>(n * width_));
      }
      break;
  }
  return Status::OK();
}

// Dictionary or not, decided on a chunk's first page for the whole chunk. A dictionary would
// only fill up to the page limit and fall back anyway for a high-cardinality column (ids, keys,
// prices, timestamps), and on sorted or sequential data the fallback (DELTA_BINARY_PACKED) is
// far smaller: ids in order take a bit or two a value against a dictionary entry plus an index.
// So such columns, and any column whose fallback is DELTA_BINARY_PACKED (cheap to try), weigh
// both forms on the page's first kEncodingTrialValues values (a dictionary covering them is the
// dictionary's first entries: they are kept in first-seen order). The fallback is taken only
// when it is smaller both as stored (compressed with the chunk's codec) and as a reader
// decompresses and walks it (encoded bytes). Stored size alone would trade a small dictionary
// page for many more bytes to decompress when the values compress well either way; encoded size
// alone misses patterns the codec removes in one form but not the other (deltas that repeat,
// against a dictionary of as many distinct entries). A high-cardinality column (at least a
// quarter of the page's values distinct) needs the fallback just smaller when stored; any other
// gives up its dictionary, which also serves dictionary pruning, only for at most half.
Status ColumnWriter::ChooseDictionaryOrFallback(bool high_cardinality) {
  constexpr int64_t kEncodingTrialValues = 32768;
  const int64_t n = page_values_;
  const int64_t k = std::min(n, kEncodingTrialValues);
  uint32_t entries = 0;
  for (int64_t i = 0; i < k; ++i) entries = std::max(entries, page_indices_[static_cast<size_t>(i)] + 1);
  trial_.Clear();
  dict_->EncodePlain(&trial_, entries);
  int64_t dict_bytes = static_cast<int64_t>(trial_.size());
  ASSIGN_OR_RETURN(int64_t dict_cost, pages_.CompressedSize(trial_));
  trial_.Clear();
  const int bw = std::max(1, BitsFor(static_cast<uint64_t>(entries - 1)));
  trial_.Push<uint8_t>(static_cast<uint8_t>(bw));
  {
    RleBitPackedEncoder enc(bw, &trial_);
    enc.PutBatch(page_indices_.data(), k);
    enc.Flush();
  }
  dict_bytes += static_cast<int64_t>(trial_.size());
  ASSIGN_OR_RETURN(int64_t index_cost, pages_.CompressedSize(trial_));
  dict_cost += index_cost;
  // The page's values again in physical layout, from the dictionary: the trial's first, the rest
  // only when the page is written in the fallback.
  auto rebuild = [&](int64_t from, int64_t to) {
    for (int64_t i = from; i < to; ++i) {
      std::string_view e = dict_->entry(page_indices_[static_cast<size_t>(i)]);
      if (width_ == 0) {
        page_bytes_.Append(e.data(), e.size());
        page_offsets_.push_back(static_cast<int64_t>(page_bytes_.size()));
      } else {
        page_fixed_.Append(e.data(), e.size());
      }
    }
  };
  rebuild(0, k);
  use_dictionary_ = false;
  Encoding fallback = Encoding::kPlain;
  RETURN_NOT_OK(EncodeValues(&trial_, &fallback, k));
  const auto fallback_bytes = static_cast<int64_t>(trial_.size());
  ASSIGN_OR_RETURN(int64_t fallback_cost, pages_.CompressedSize(trial_));
  const bool smaller_stored = high_cardinality ? fallback_cost < dict_cost : 2 * fallback_cost < dict_cost;
  if (smaller_stored && fallback_bytes <= dict_bytes) {
    rebuild(k, n);
    dict_->Reset();  // not written: no page of this chunk refers to it
    page_indices_.clear();
  } else {
    use_dictionary_ = true;
    page_fixed_.Clear();
    page_offsets_.assign(1, 0);
    page_bytes_.Clear();
  }
  return Status::OK();
}

Status ColumnWriter::FlushPage() {
  if (page_levels_ == 0) return Status::OK();
  const bool high_cardinality = use_dictionary_ && dict_->size() * 4 >= page_values_;
  if (use_dictionary_ && dict_pages_used_ == 0 && chunk_levels_ == 0 && page_values_ > 0 &&
      file_choice_ == FileChoice::kUndecided && (high_cardinality || fallback_ == Encoding::kDeltaBinaryPacked)) {
    RETURN_NOT_OK(ChooseDictionaryOrFallback(high_cardinality));
    file_choice_ = use_dictionary_ ? FileChoice::kDictionary : FileChoice::kFallback;
  }
  Encoding enc = Encoding::kPlain;
  RETURN_NOT_OK(EncodeValues(&encoded_, &enc));
  DataPageInfo info;
  info.rep = leaf_.max_rep > 0 ? page_rep_.data() : nullptr;
  info.def = leaf_.max_def > 0 ? page_def_.data() : nullptr;
  info.num_levels = page_levels_;
  info.max_rep = leaf_.max_rep;
  info.max_def = leaf_.max_def;
  info.num_nulls = page_levels_ - page_values_;
  info.num_rows = page_rows_;
  info.encoding = enc;
  info.values = std::string_view(reinterpret_cast<const char*>(encoded_.data()), encoded_.size());
  if (column_.statistics) info.statistics = page_stats_.ToThrift();
  int64_t offset = 0;
  int32_t size = 0;
  RETURN_NOT_OK(pages_.WriteDataPage(info, &offset, &size).WithContext("column '" + leaf_.dotted + "'"));

  pending_offsets_.page_locations.push_back(PageLocation{offset, size, chunk_rows_});
  if (column_.statistics && column_.page_index) {
    bool null_page = page_values_ == 0;
    std::string lo, hi;
    if (!null_page) {
      if (page_stats_.has_min_max()) {
        bool exact;
        lo = page_stats_.EncodedMin(&exact);
        hi = page_stats_.EncodedMax(&exact);
      } else {
        index_valid_ = false;
      }
    }
    pending_index_.null_pages.push_back(null_page);
    pending_index_.min_values.push_back(std::move(lo));
    pending_index_.max_values.push_back(std::move(hi));
    pending_index_.null_counts->push_back(page_levels_ - page_values_);
  }
  PageType type = props_.data_page_version() == DataPageVersion::kV2 ? PageType::kDataPageV2 : PageType::kDataPage;
  auto it = std::find_if(encoding_stats_.begin(), encoding_stats_.end(),
                         [&](const PageEncodingStats& s) { return s.page_type == type && s.encoding == enc; });
  if (it == encoding_stats_.end()) {
    encoding_stats_.push_back(PageEncodingStats{type, enc, 1});
  } else {
    ++it->count;
  }
  if (std::find(encodings_.begin(), encodings_.end(), enc) == encodings_.end()) encodings_.push_back(enc);
  if (enc == Encoding::kRleDictionary) ++dict_pages_used_;

  chunk_stats_.Merge(page_stats_);
  page_stats_.Reset();
  chunk_rows_ += page_rows_;
  chunk_levels_ += page_levels_;
  page_def_.clear();
  page_rep_.clear();
  page_levels_ = page_values_ = page_rows_ = 0;
  page_fixed_.Clear();
  page_offsets_.assign(1, 0);
  page_bytes_.Clear();
  page_indices_.clear();
  return Status::OK();
}

Status ColumnWriter::WriteChunk(io::WritableFile* file, Chunk* out) {
  RETURN_NOT_OK(FlushPage());
  if (dict_pages_used_ > 0) {
    encoded_.Clear();
    dict_->EncodePlain(&encoded_);
    RETURN_NOT_OK(pages_.WriteDictionaryPage(
        std::string_view(reinterpret_cast<const char*>(encoded_.data()), encoded_.size()), dict_->size()));
  }
  const int64_t start = file->Tell();
  RETURN_NOT_OK(file->Append(pages_.dictionary().data(), pages_.dictionary().size()));
  RETURN_NOT_OK(file->Append(pages_.data().data(), pages_.data().size()));
  const int64_t data_offset = start + static_cast<int64_t>(pages_.dictionary().size());

  ColumnMetaData m;
  m.type = leaf_.physical;
  if (pages_.has_dictionary()) m.encodings.push_back(Encoding::kPlain);
  if (leaf_.max_def > 0 || leaf_.max_rep > 0) m.encodings.push_back(Encoding::kRle);
  for (Encoding e : encodings_) {
    if (std::find(m.encodings.begin(), m.encodings.end(), e) == m.encodings.end()) m.encodings.push_back(e);
  }
  m.path_in_schema = leaf_.path;
  m.codec = pages_.codec();
  m.num_values = chunk_levels_;
  m.total_uncompressed_size = pages_.uncompressed_bytes();
  m.total_compressed_size = pages_.compressed_bytes();
  m.data_page_offset = data_offset;
  if (pages_.has_dictionary()) {
    m.dictionary_page_offset = start;
    m.encoding_stats.push_back(PageEncodingStats{PageType::kDictionaryPage, Encoding::kPlain, 1});
  }
  m.encoding_stats.insert(m.encoding_stats.end(), encoding_stats_.begin(), encoding_stats_.end());
  if (column_.statistics) m.statistics = chunk_stats_.ToThrift();

  out->chunk = ColumnChunk();
  out->chunk.file_offset = start;
  out->chunk.meta_data = std::move(m);
  out->column_index.reset();
  out->offset_index.reset();
  if (column_.page_index) {
    OffsetIndex oi = std::move(pending_offsets_);
    for (PageLocation& p : oi.page_locations) p.offset += data_offset;
    out->offset_index = std::move(oi);
    if (column_.statistics && index_valid_) {
      pending_index_.boundary_order = ComputeBoundaryOrder(stats_kind_, pending_index_);
      out->column_index = std::move(pending_index_);
    }
  }
  if (bloom_) {
    out->bloom_filter = std::move(bloom_);
    bloom_ = std::make_unique<BloomFilter>(BloomFilter::OptimalNumBytes(column_.bloom_ndv, column_.bloom_fpp));
  } else {
    out->bloom_filter.reset();
  }
  ResetChunk();
  return Status::OK();
}

}  // namespace shoal::parquet
