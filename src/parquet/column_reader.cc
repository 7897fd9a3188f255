#include "parquet/column_reader.h"

#include <algorithm>
#include <cstring>

#include "parquet/bit_unpack.h"
#include "parquet/page_buffer_cache.h"

namespace shoal::parquet {

using columnar::Vector;

void LeafLevels::Clear() {
  def.clear();
  rep.clear();
  if (values) values->Clear();
  num_entries = 0;
}

namespace {

// Deprecated BIT_PACKED levels: n values of bit_width bits, most significant bit first.
Status DecodeBitPackedLevels(const uint8_t* data, int64_t size, int bit_width, int64_t n, std::vector<uint16_t>* out,
                             int64_t* consumed) {
  int64_t bytes = (n * bit_width + 7) / 8;
  if (bytes > size) return Status::Corruption("BIT_PACKED levels extend past the page");
  out->resize(static_cast<size_t>(n));
  int64_t bit = 0;
  for (int64_t i = 0; i < n; ++i) {
    uint32_t v = 0;
    for (int b = 0; b < bit_width; ++b, ++bit) {
      v = (v << 1) | ((data[bit >> 3] >> (7 - (bit & 7))) & 1);
    }
    (*out)[i] = static_cast<uint16_t>(v);
  }
  *consumed = bytes;
  return Status::OK();
}

template <int W>
void SpreadFixed(uint8_t* d, const uint8_t* valid, int64_t s, int64_t k, int64_t m) {
  int64_t j = m - 1;
  for (int64_t i = k - 1; i >= 0 && j < i; --i) {
    if (valid[i]) {
      std::memmove(d + (s + i) * W, d + (s + j) * W, W);
      --j;
    } else {
      std::memset(d + (s + i) * W, 0, W);
    }
  }
}

// Turns the m dense values appended at row s into k rows with NULLs where valid[i] == 0.
void Spread(Vector* out, int64_t s, int64_t k, int64_t m, const uint8_t* valid) {
  const columnar::DataType& t = *out->type();
  if (t.HasOffsets()) {
    out->values().Resize(static_cast<size_t>(s + k + 1) * sizeof(int64_t));
    int64_t* off = out->offsets();
    int64_t j = m - 1;
    for (int64_t i = k - 1; i >= 0; --i) {
      off[s + i + 1] = off[s + j + 1];
      if (valid[i]) --j;
    }
  } else {
    int w = t.SlotWidth();
    out->values().Resize(static_cast<size_t>(s + k) * w);
    uint8_t* d = out->values().data();
    switch (w) {
      case 1: SpreadFixed<1>(d, valid, s, k, m); break;
      case 2: SpreadFixed<2>(d, valid, s, k, m); break;
      case 4: SpreadFixed<4>(d, valid, s, k, m); break;
      case 8: SpreadFixed<8>(d, valid, s, k, m); break;
      case 16: SpreadFixed<16>(d, valid, s, k, m); break;
      default: break;
    }
  }
  out->SetLength(s + k);
}

}  // namespace

ColumnChunkReader::ColumnChunkReader(const LeafColumn* leaf, std::unique_ptr<PageReader> pages, int64_t num_rows,
                                     std::string path, ReadStats* stats)
    : leaf_(leaf), pages_(std::move(pages)), num_rows_(num_rows), path_(std::move(path)), stats_(stats), values_(leaf) {}

ColumnChunkReader::~ColumnChunkReader() {
  PageBufferCache::Give(&page_buf_);
  PageBufferCache::Give(&dict_body_);
}

Status ColumnChunkReader::Corrupt(const std::string& what) const {
  return Status::Corruption(path_ + ": column '" + leaf_->dotted_path + "': " + what);
}

Status ColumnChunkReader::Wrap(const Status& st) const {
  if (st.ok() || st.message().rfind(path_, 0) == 0) return st;
  if (st.message().find("column '") != std::string::npos) return Status(st.code(), path_ + ": " + st.message());
  return Status(st.code(), path_ + ": column '" + leaf_->dotted_path + "': " + st.message());
}

Status ColumnChunkReader::LoadDictionary(const Page& page) {
  const PageHeader& h = page.header;
  if (!h.dictionary_page_header) return Corrupt("dictionary page without its header");
  if (seen_data_page_ || values_.has_dictionary() || dict_pending_) {
    return Corrupt("dictionary page after the first page");
  }
  // Kept compressed until a dictionary-encoded page is decoded: a selective read may touch only
  // pages written after the writer fell back to plain encoding.
  dict_header_ = h;
  PageBufferCache::Fit(&dict_body_, static_cast<size_t>(page.body_size));
  dict_body_.Resize(static_cast<size_t>(page.body_size));
  if (page.body_size > 0) std::memcpy(dict_body_.data(), page.body, static_cast<size_t>(page.body_size));
  dict_pending_ = true;
  return Status::OK();
}

Status ColumnChunkReader::DecodePendingDictionary() {
  dict_pending_ = false;
  Page page;
  page.header = dict_header_;
  page.body = dict_body_.data();
  page.body_size = static_cast<int64_t>(dict_body_.size());
  RETURN_NOT_OK(pages_->Decompress(page, &page_buf_));
  RETURN_NOT_OK(Wrap(values_.SetDictionary(page_buf_.data(), static_cast<int64_t>(page_buf_.size()),
                                           dict_header_.dictionary_page_header->num_values)));
  PageBufferCache::Give(&dict_body_);
  if (stats_) stats_->pages_read++;
  return Status::OK();
}

Status ColumnChunkReader::JumpFromStart(int64_t target) {
  const auto& locs = pages_->offset_index()->page_locations;
  int p = 0;
  while (p + 1 < static_cast<int>(locs.size()) && locs[p + 1].first_row_index <= target) ++p;
  if (p == 0 || locs[p].first_row_index > num_rows_) return Status::OK();
  // The dictionary page (if any) precedes the first data page; read it, then jump.
  while (true) {
    Page page;
    ASSIGN_OR_RETURN(bool have, pages_->NextLeadingPage(&page));
    if (!have) break;
    if (page.header.type == PageType::kDictionaryPage) RETURN_NOT_OK(LoadDictionary(page));
  }
  RETURN_NOT_OK(pages_->SeekToPage(p));
  if (stats_) stats_->pages_skipped += p;
  next_page_index_ = p;
  seen_data_page_ = true;
  rows_consumed_ = locs[p].first_row_index;
  return Status::OK();
}

int64_t ColumnChunkReader::pages_unread() const {
  if (!pages_->has_offset_index()) return 0;
  int64_t n = static_cast<int64_t>(pages_->offset_index()->page_locations.size());
  return std::max<int64_t>(0, n - next_page_index_);
}

Status ColumnChunkReader::JumpToPage(int64_t target) {
  if (target < rows_consumed_ + page_left_) return Status::OK();  // inside the current page
  const auto& locs = pages_->offset_index()->page_locations;
  const int npages = static_cast<int>(locs.size());
  // The page holding `target`: the last one starting at or before it.
  auto after = std::upper_bound(locs.begin(), locs.end(), target,
                                [](int64_t row, const PageLocation& l) { return row < l.first_row_index; });
  int p = static_cast<int>(after - locs.begin()) - 1;
  if (p < 0 || locs[p].first_row_index > num_rows_ || locs[p].first_row_index <= rows_consumed_) return Status::OK();
  if (current_page_index_ < 0) return Status::OK();
  const int next = current_page_index_ + 1;  // the page the reader would load next
  if (page_left_ == 0) {
    // Between pages the next page must start at the current row, else the index does not
    // describe this chunk's pages and the reader decodes its way forward.
    if (next >= npages || locs[next].first_row_index != rows_consumed_ || p == next) return Status::OK();
  }
  if (p < next) return Status::OK();
  if (stats_) stats_->pages_skipped += p - next;
  RETURN_NOT_OK(pages_->SeekToPage(p));
  next_page_index_ = p;
  page_left_ = 0;
  value_skip_ = 0;
  values_deferred_ = false;
  pend_def_.clear();
  pend_rep_.clear();
  pend_pos_ = 0;
  rows_consumed_ = locs[p].first_row_index;
  return Status::OK();
}

Result<bool> ColumnChunkReader::NextDataPage() {
  while (true) {
    Page page;
    ASSIGN_OR_RETURN(bool have, pages_->Next(&page));
    if (!have) return false;
    const PageHeader& h = page.header;
    if (h.type == PageType::kDictionaryPage) {
      RETURN_NOT_OK(LoadDictionary(page));
      continue;
    }
    int64_t num_values;
    Encoding enc;
    if (h.type == PageType::kDataPage) {
      if (!h.data_page_header) return Corrupt("data page without its header");
      num_values = h.data_page_header->num_values;
      enc = h.data_page_header->encoding;
    } else if (h.type == PageType::kDataPageV2) {
      if (!h.data_page_header_v2) return Corrupt("data page v2 without its header");
      num_values = h.data_page_header_v2->num_values;
      enc = h.data_page_header_v2->encoding;
      int64_t nulls = h.data_page_header_v2->num_nulls;
      if (nulls < 0 || nulls > num_values) return Corrupt("data page v2 has invalid num_nulls");
    } else {
      continue;  // index pages and unknown page types carry no values
    }
    seen_data_page_ = true;
    if (num_values < 0) return Corrupt("negative num_values in a data page");
    if (num_values == 0) continue;
    int rep_bw = BitWidthOf(leaf_->max_rep), def_bw = BitWidthOf(leaf_->max_def);
    def_bit_packed_ = rep_bit_packed_ = false;
    value_skip_ = 0;
    values_deferred_ = false;
    if (h.type == PageType::kDataPage) {
      if (dict_pending_ && (enc == Encoding::kRleDictionary || enc == Encoding::kPlainDictionary)) {
        RETURN_NOT_OK(DecodePendingDictionary());
      }
      RETURN_NOT_OK(pages_->Decompress(page, &page_buf_));
      const uint8_t* p = page_buf_.data();
      int64_t size = static_cast<int64_t>(page_buf_.size());
      const DataPageHeader& d = *h.data_page_header;
      auto levels = [&](Encoding le, RleBitPackedDecoder* dec, int bw, bool* bp, std::vector<uint16_t>* bpv,
                        int64_t* bp_pos) -> Status {
        int64_t consumed = 0;
        if (le == Encoding::kBitPacked) {
          *bp = true;
          *bp_pos = 0;
          RETURN_NOT_OK(Wrap(DecodeBitPackedLevels(p, size, bw, num_values, bpv, &consumed)));
        } else if (le == Encoding::kRle) {
          RETURN_NOT_OK(Wrap(dec->ResetWithLengthPrefix(p, size, bw, &consumed)));
        } else {
          return Status::NotSupported(path_ + ": column '" + leaf_->dotted_path + "': level encoding " +
                                      EncodingName(le) + " is not supported");
        }
        if (consumed > size) return Corrupt("levels extend past the page");
        p += consumed;
        size -= consumed;
        return Status::OK();
      };
      if (leaf_->max_rep > 0) {
        RETURN_NOT_OK(levels(d.repetition_level_encoding, &rep_dec_, rep_bw, &rep_bit_packed_, &bp_rep_, &bp_rep_pos_));
      }
      if (leaf_->max_def > 0) {
        RETURN_NOT_OK(levels(d.definition_level_encoding, &def_dec_, def_bw, &def_bit_packed_, &bp_def_, &bp_def_pos_));
      }
      RETURN_NOT_OK(Wrap(values_.Reset(enc, p, size, num_values)));
    } else {
      // v2 stores the levels uncompressed: they are read in place, and the values section is
      // decompressed (and the dictionary decoded) only when a value is needed (LoadValues).
      const DataPageHeaderV2& d = *h.data_page_header_v2;
      int64_t rl = d.repetition_levels_byte_length, dl = d.definition_levels_byte_length;
      if (rl < 0 || dl < 0 || rl + dl > page.body_size) return Corrupt("v2 page levels extend past the page");
      const uint8_t* p = page.body;
      if (leaf_->max_rep > 0) RETURN_NOT_OK(Wrap(rep_dec_.Reset(p, rl, rep_bw)));
      if (leaf_->max_def > 0) RETURN_NOT_OK(Wrap(def_dec_.Reset(p + rl, dl, def_bw)));
      deferred_page_ = page;
      deferred_enc_ = enc;
      deferred_count_ = num_values - d.num_nulls;
      values_deferred_ = true;
    }
    page_left_ = num_values;
    current_page_index_ = page.page_index;
    if (page.page_index >= 0) next_page_index_ = page.page_index + 1;
    pend_def_.clear();
    pend_rep_.clear();
    pend_pos_ = 0;
    if (stats_) stats_->pages_read++;
    return true;
  }
}

Status ColumnChunkReader::LoadValues() {
  if (values_deferred_) {
    values_deferred_ = false;
    if (dict_pending_ && (deferred_enc_ == Encoding::kRleDictionary || deferred_enc_ == Encoding::kPlainDictionary)) {
      RETURN_NOT_OK(DecodePendingDictionary());
    }
    RETURN_NOT_OK(pages_->DecompressV2Values(deferred_page_, &page_buf_));
    RETURN_NOT_OK(Wrap(values_.Reset(deferred_enc_, page_buf_.data(), static_cast<int64_t>(page_buf_.size()),
                                     deferred_count_)));
  }
  if (value_skip_ > 0) {
    const int64_t n = value_skip_;
    value_skip_ = 0;
    RETURN_NOT_OK(Wrap(values_.Skip(n)));
  }
  return Status::OK();
}

Result<bool> ColumnChunkReader::EnsurePage() {
  if (page_left_ > 0) return true;
  return NextDataPage();
}

Status ColumnChunkReader::DecodeLevels(RleBitPackedDecoder* dec, bool bit_packed, int max_level, int64_t n,
                                       uint16_t* out, const char* what) {
  if (bit_packed) {
    std::vector<uint16_t>& v = dec == &def_dec_ ? bp_def_ : bp_rep_;
    int64_t& pos = dec == &def_dec_ ? bp_def_pos_ : bp_rep_pos_;
    if (pos + n > static_cast<int64_t>(v.size())) return Corrupt(std::string("page ends before its ") + what + " levels");
    std::memcpy(out, v.data() + pos, static_cast<size_t>(n) * sizeof(uint16_t));
    pos += n;
  } else {
    Result<int64_t> got = dec->GetBatch(out, n);
    if (!got.ok()) return Corrupt(got.status().message());
    if (*got != n) {
      return Corrupt(std::string("page has fewer ") + what + " levels (" + std::to_string(*got) +
                     ") than its values (" + std::to_string(n) + ")");
    }
  }
  uint16_t mx = 0;
  for (int64_t i = 0; i < n; ++i) mx = std::max(mx, out[i]);
  if (mx > max_level) {
    return Corrupt(std::string(what) + " level " + std::to_string(mx) + " exceeds the maximum " +
                   std::to_string(max_level));
  }
  return Status::OK();
}

Result<int64_t> ColumnChunkReader::ReadBatch(int64_t max_rows, Vector* out) {
  if (leaf_->max_rep > 0) return Status::Internal("ReadBatch on a repeated column; use ReadRecords");
  int64_t done = 0;
  const int max_def = leaf_->max_def;
  while (done < max_rows) {
    ASSIGN_OR_RETURN(bool have, EnsurePage());
    if (!have) break;
    RETURN_NOT_OK(PrepareValues());
    int64_t k = std::min(max_rows - done, page_left_);
    int64_t s = out->size();
    if (max_def == 0) {
      RETURN_NOT_OK(Wrap(values_.Decode(k, out)));
      if (!out->validity().empty()) out->validity().resize(static_cast<size_t>(s + k), 1);
    } else {
      scratch_def_.resize(static_cast<size_t>(k));
      RETURN_NOT_OK(DecodeLevels(&def_dec_, def_bit_packed_, max_def, k, scratch_def_.data(), "definition"));
      // Turn levels into validity bytes in place of the output's validity.
      int64_t m = 0;
      for (int64_t i = 0; i < k; ++i) m += scratch_def_[i] == max_def;
      RETURN_NOT_OK(Wrap(values_.Decode(m, out)));
      if (m == k) {
        if (!out->validity().empty()) out->validity().resize(static_cast<size_t>(s + k), 1);
      } else {
        std::vector<uint8_t>& val = out->validity();
        if (val.empty()) val.assign(static_cast<size_t>(s), 1);
        val.resize(static_cast<size_t>(s + k));
        uint8_t* v = val.data() + s;
        for (int64_t i = 0; i < k; ++i) v[i] = scratch_def_[i] == max_def;
        Spread(out, s, k, m, v);
      }
    }
    page_left_ -= k;
    done += k;
  }
  rows_consumed_ += done;
  return done;
}

Status ColumnChunkReader::FillPending(int64_t want) {
  if (pend_pos_ > 0) {
    pend_def_.erase(pend_def_.begin(), pend_def_.begin() + static_cast<int64_t>(pend_pos_));
    if (!pend_rep_.empty()) pend_rep_.erase(pend_rep_.begin(), pend_rep_.begin() + static_cast<int64_t>(pend_pos_));
    pend_pos_ = 0;
  }
  int64_t k = std::min(want, page_left_);
  size_t base = pend_def_.size();
  pend_def_.resize(base + k);
  if (leaf_->max_def > 0) {
    RETURN_NOT_OK(DecodeLevels(&def_dec_, def_bit_packed_, leaf_->max_def, k, pend_def_.data() + base, "definition"));
  } else {
    std::fill(pend_def_.begin() + base, pend_def_.end(), 0);
  }
  if (leaf_->max_rep > 0) {
    pend_rep_.resize(base + k);
    RETURN_NOT_OK(DecodeLevels(&rep_dec_, rep_bit_packed_, leaf_->max_rep, k, pend_rep_.data() + base, "repetition"));
  }
  page_left_ -= k;
  return Status::OK();
}

Result<int64_t> ColumnChunkReader::ReadRecords(int64_t max_records, LeafLevels* out) {
  if (!out->values) out->values = Vector::Make(leaf_->type);
  int64_t records = 0;
  const int max_def = leaf_->max_def;
  const bool repeated = leaf_->max_rep > 0;
  bool first = true;
  while (max_records > 0) {
    if (pend_pos_ >= pend_def_.size()) {
      if (page_left_ == 0) {
        ASSIGN_OR_RETURN(bool have, NextDataPage());
        if (!have) break;
      }
      RETURN_NOT_OK(FillPending(4096));
    }
    size_t i = pend_pos_, end = pend_def_.size();
    bool stopped = false;
    if (!repeated) {
      size_t take = std::min<size_t>(end - i, static_cast<size_t>(max_records - records));
      records += static_cast<int64_t>(take);
      i += take;
      stopped = records == max_records;
    } else {
      const uint16_t* rep = pend_rep_.data();
      if (first && rows_consumed_ == 0 && rep[i] != 0) return Corrupt("repetition levels start inside a record");
      for (; i < end; ++i) {
        if (rep[i] == 0) {
          if (records == max_records) {
            stopped = true;
            break;
          }
          ++records;
        }
      }
    }
    first = false;
    size_t n = i - pend_pos_;
    if (max_def > 0) out->def.insert(out->def.end(), pend_def_.begin() + pend_pos_, pend_def_.begin() + i);
    if (repeated) out->rep.insert(out->rep.end(), pend_rep_.begin() + pend_pos_, pend_rep_.begin() + i);
    int64_t defined = 0;
    if (max_def == 0) {
      defined = static_cast<int64_t>(n);
    } else {
      for (size_t j = pend_pos_; j < i; ++j) defined += pend_def_[j] == max_def;
    }
    RETURN_NOT_OK(PrepareValues());
    RETURN_NOT_OK(Wrap(values_.Decode(defined, out->values.get())));
    out->num_entries += static_cast<int64_t>(n);
    pend_pos_ = i;
    if (stopped) break;
  }
  rows_consumed_ += records;
  return records;
}

Status ColumnChunkReader::SkipRows(int64_t n) {
  if (n <= 0) return Status::OK();
  int64_t target = rows_consumed_ + n;
  const bool repeated = leaf_->max_rep > 0;
  // Repeated leaves never jump: a writer may split a record across pages, which would make
  // first_row_index point inside a record. They decode and discard.
  if (repeated) {
    LeafLevels discard;
    int64_t left = target - rows_consumed_;
    while (left > 0) {
      discard.Clear();
      ASSIGN_OR_RETURN(int64_t got, ReadRecords(std::min<int64_t>(left, 4096), &discard));
      if (got == 0) return Corrupt("cannot skip past the end of the column chunk");
      left -= got;
    }
    return Status::OK();
  }
  if (pages_->has_offset_index()) {
    if (page_left_ == 0 && !seen_data_page_ && rows_consumed_ == 0) {
      RETURN_NOT_OK(JumpFromStart(target));
    } else {
      RETURN_NOT_OK(JumpToPage(target));
    }
    if (rows_consumed_ == target) return Status::OK();
  }
  int64_t left = target - rows_consumed_;
  while (left > 0) {
    ASSIGN_OR_RETURN(bool have, EnsurePage());
    if (!have) return Corrupt("cannot skip past the end of the column chunk");
    int64_t k = std::min(left, page_left_);
    int64_t defined = k;
    if (leaf_->max_def > 0) {
      if (def_bit_packed_) {
        scratch_def_.resize(static_cast<size_t>(k));
        RETURN_NOT_OK(DecodeLevels(&def_dec_, true, leaf_->max_def, k, scratch_def_.data(), "definition"));
        defined = 0;
        for (int64_t i = 0; i < k; ++i) defined += scratch_def_[i] == leaf_->max_def;
      } else {
        defined = 0;
        Result<int64_t> got = def_dec_.SkipCounting(k, static_cast<uint32_t>(leaf_->max_def), &defined);
        if (!got.ok()) return Corrupt(got.status().message());
        if (*got != k) return Corrupt("page has fewer definition levels than its values");
      }
    }
    value_skip_ += defined;  // passed over only if a later read in this page needs values
    page_left_ -= k;
    left -= k;
    rows_consumed_ += k;
  }
  return Status::OK();
}

template <typename ReadRun>
Status ColumnChunkReader::ReadSelectedRuns(int64_t num_rows, const uint32_t* sel, int64_t nsel, const char* what,
                                           ReadRun read_run) {
  if (leaf_->max_rep > 0) return Status::Internal(std::string(what) + " on a repeated column");
  if (sel == nullptr) {
    if (nsel != num_rows) return Status::Internal(std::string(what) + ": nsel must equal num_rows without a selection");
    return read_run(num_rows, int64_t{0});
  }
  int64_t pos = 0;
  int64_t i = 0;
  while (i < nsel) {
    int64_t start = sel[i];
    int64_t j = i + 1;
    while (j < nsel && sel[j] == sel[j - 1] + 1) ++j;
    if (start < pos || start + (j - i) > num_rows) return Status::Internal(std::string(what) + ": selection out of order");
    RETURN_NOT_OK(SkipRows(start - pos));
    RETURN_NOT_OK(read_run(j - i, i));
    pos = start + (j - i);
    i = j;
  }
  return SkipRows(num_rows - pos);
}

template <typename T, typename ReadSpan>
Status ColumnChunkReader::ReadSelectedSpans(int64_t num_rows, const uint32_t* sel, int64_t nsel, const char* what,
                                            T* out, std::vector<T>* scratch, ReadSpan read_span) {
  if (leaf_->max_rep > 0) return Status::Internal(std::string(what) + " on a repeated column");
  if (sel == nullptr) {
    if (nsel != num_rows) return Status::Internal(std::string(what) + ": nsel must equal num_rows without a selection");
    return read_span(num_rows, out);
  }
  int64_t pos = 0;
  int64_t i = 0;
  while (i < nsel) {
    const int64_t start = sel[i];
    int64_t j = i + 1;
    while (j < nsel && sel[j] > sel[j - 1] && sel[j] - sel[j - 1] <= kDenseGap) ++j;
    const int64_t end = static_cast<int64_t>(sel[j - 1]) + 1;
    if (start < pos || end > num_rows) return Status::Internal(std::string(what) + ": selection out of order");
    RETURN_NOT_OK(SkipRows(start - pos));
    if (end - start == j - i) {
      RETURN_NOT_OK(read_span(end - start, out + i));
    } else {
      scratch->resize(static_cast<size_t>(end - start));
      RETURN_NOT_OK(read_span(end - start, scratch->data()));
      const T* span = scratch->data();
      for (int64_t t = i; t < j; ++t) out[t] = span[sel[t] - start];
    }
    pos = end;
    i = j;
  }
  return SkipRows(num_rows - pos);
}

Status ColumnChunkReader::ReadSelected(int64_t num_rows, const uint32_t* sel, int64_t nsel, Vector* out) {
  return ReadSelectedRuns(num_rows, sel, nsel, "ReadSelected", [&](int64_t n, int64_t) -> Status {
    ASSIGN_OR_RETURN(int64_t got, ReadBatch(n, out));
    if (got != n) return Corrupt("column chunk ends before its row group's rows");
    return Status::OK();
  });
}

Status ColumnChunkReader::ReadIndices(int64_t n, uint32_t null_index, uint32_t* idx) {
  const int max_def = leaf_->max_def;
  int64_t done = 0;
  while (done < n) {
    ASSIGN_OR_RETURN(bool have, EnsurePage());
    if (!have) return Corrupt("column chunk ends before its row group's rows");
    RETURN_NOT_OK(PrepareValues());
    if (!values_.page_is_dictionary()) {
      return Corrupt("a data page is not dictionary-encoded although the chunk metadata says every page is");
    }
    int64_t k = std::min(n - done, page_left_);
    uint32_t* out = idx + done;
    if (max_def == 0) {
      RETURN_NOT_OK(Wrap(values_.DecodeIndices(k, out)));
    } else {
      scratch_def_.resize(static_cast<size_t>(k));
      RETURN_NOT_OK(DecodeLevels(&def_dec_, def_bit_packed_, max_def, k, scratch_def_.data(), "definition"));
      int64_t m = 0;
      for (int64_t i = 0; i < k; ++i) m += scratch_def_[i] == max_def;
      if (m == k) {
        RETURN_NOT_OK(Wrap(values_.DecodeIndices(k, out)));
      } else {
        scratch_idx_.resize(static_cast<size_t>(m));
        RETURN_NOT_OK(Wrap(values_.DecodeIndices(m, scratch_idx_.data())));
        const uint16_t* def = scratch_def_.data();
        const uint32_t* src = scratch_idx_.data();
        int64_t j = 0;
        for (int64_t i = 0; i < k; ++i) {
          const bool valid = def[i] == max_def;
          out[i] = valid ? src[j] : null_index;
          j += valid;
        }
      }
    }
    page_left_ -= k;
    done += k;
    rows_consumed_ += k;
  }
  return Status::OK();
}

Status ColumnChunkReader::ReadSelectedIndices(int64_t num_rows, const uint32_t* sel, int64_t nsel,
                                              uint32_t null_index, uint32_t* idx) {
  return ReadSelectedSpans(num_rows, sel, nsel, "ReadSelectedIndices", idx, &span_idx_,
                           [&](int64_t n, uint32_t* out) { return ReadIndices(n, null_index, out); });
}

Status ColumnChunkReader::ReadDefined(int64_t n, uint8_t* defined) {
  const int max_def = leaf_->max_def;
  int64_t done = 0;
  while (done < n) {
    ASSIGN_OR_RETURN(bool have, EnsurePage());
    if (!have) return Corrupt("column chunk ends before its row group's rows");
    int64_t k = std::min(n - done, page_left_);
    uint8_t* out = defined + done;
    int64_t m = k;
    if (max_def == 0) {
      std::memset(out, 1, static_cast<size_t>(k));
    } else {
      scratch_def_.resize(static_cast<size_t>(k));
      RETURN_NOT_OK(DecodeLevels(&def_dec_, def_bit_packed_, max_def, k, scratch_def_.data(), "definition"));
      const uint16_t* def = scratch_def_.data();
      m = 0;
      for (int64_t i = 0; i < k; ++i) {
        const uint8_t d = def[i] == max_def;
        out[i] = d;
        m += d;
      }
    }
    value_skip_ += m;
    page_left_ -= k;
    done += k;
    rows_consumed_ += k;
  }
  return Status::OK();
}

Status ColumnChunkReader::ReadSelectedDefined(int64_t num_rows, const uint32_t* sel, int64_t nsel,
                                              uint8_t* defined) {
  return ReadSelectedSpans(num_rows, sel, nsel, "ReadSelectedDefined", defined, &span_defined_,
                           [&](int64_t n, uint8_t* out) { return ReadDefined(n, out); });
}

}  // namespace shoal::parquet
