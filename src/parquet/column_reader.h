// ColumnChunkReader: reads one leaf column of one row group — page by page, levels and values —
// into column vectors, with top-level rows (records, for repeated columns) as the unit.
// Flat columns decode straight into the output vector; nested leaves hand their levels and
// dense values to the record assembler (record_assembler.h).
//
// Thread-safety: not thread-safe; one reader per leaf per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "parquet/page_reader.h"
#include "parquet/rle_bit_packed.h"
#include "parquet/schema.h"
#include "parquet/value_decoder.h"

namespace shoal::parquet {

// One leaf's share of a batch of records: a level entry per value slot, and the non-null
// values densely (entries with def == max_def, in order).
struct LeafLevels {
  std::vector<uint16_t> def;  // empty when max_def == 0 (every entry defined)
  std::vector<uint16_t> rep;  // empty when max_rep == 0
  columnar::VectorPtr values;
  int64_t num_entries = 0;
  void Clear();
};

class ColumnChunkReader {
 public:
  // `leaf` must outlive the reader; `num_rows` is the row group's row count; `path` names the
  // file in messages.
  ColumnChunkReader(const LeafColumn* leaf, std::unique_ptr<PageReader> pages, int64_t num_rows, std::string path,
                    ReadStats* stats);
  // Hands the page buffers to the thread's PageBufferCache.
  ~ColumnChunkReader();
  ColumnChunkReader(const ColumnChunkReader&) = delete;
  ColumnChunkReader& operator=(const ColumnChunkReader&) = delete;

  // Appends up to max_rows rows to `out` (of the leaf's type) with NULLs from the definition
  // levels; for leaves without repetition only. Returns the rows appended (0 at the end).
  Result<int64_t> ReadBatch(int64_t max_rows, columnar::Vector* out);
  // Appends the levels and values of up to max_records whole records; returns the records.
  Result<int64_t> ReadRecords(int64_t max_records, LeafLevels* out);
  // Skips n rows (records): whole pages through the OffsetIndex when the reader has one,
  // otherwise by decoding and discarding levels and values.
  Status SkipRows(int64_t n);
  // Consumes the next num_rows rows and appends only the rows at offsets sel[0, nsel)
  // (strictly ascending, < num_rows) to `out`; the runs between them are skipped as SkipRows
  // does (pages through the OffsetIndex, values arithmetically where the encoding allows).
  // For leaves without repetition only.
  Status ReadSelected(int64_t num_rows, const uint32_t* sel, int64_t nsel, columnar::Vector* out);
  // Like ReadSelected (sel null: all num_rows rows, nsel == num_rows), but writes each selected
  // row's dictionary index to idx[0, nsel) instead of its value — NULL rows get `null_index` —
  // so a filter evaluated once on the dictionary can run on indices. Every page read must be
  // dictionary-encoded (check AllDataPagesDictionaryEncoded first); one that is not is
  // Corruption. Flat leaves only.
  Status ReadSelectedIndices(int64_t num_rows, const uint32_t* sel, int64_t nsel, uint32_t null_index,
                             uint32_t* idx);

  // Like ReadSelectedIndices, but writes whether each selected row is non-NULL (1) or NULL (0)
  // to defined[0, nsel), from the definition levels alone: the values are not decoded, and on
  // v2 pages (whose levels are stored uncompressed) not even decompressed. Flat leaves only.
  Status ReadSelectedDefined(int64_t num_rows, const uint32_t* sel, int64_t nsel, uint8_t* defined);

  // The chunk's decoded dictionary (null before a dictionary-encoded page's values were needed).
  const columnar::VectorPtr& dictionary() const { return values_.dictionary(); }

  // Data pages of the OffsetIndex neither read nor skipped yet (0 without an OffsetIndex).
  int64_t pages_unread() const;

  const LeafColumn& leaf() const { return *leaf_; }
  int64_t rows_consumed() const { return rows_consumed_; }

 private:
  // Keeps a dictionary page's compressed body; DecodePendingDictionary decodes it before the
  // first dictionary-encoded data page.
  Status LoadDictionary(const Page& page);
  Status DecodePendingDictionary();
  // Before the first page: jumps straight to the page holding row `target` through the
  // OffsetIndex (reading only the dictionary page on the way).
  Status JumpFromStart(int64_t target);
  // Between or inside pages: continues at the page holding row `target` through the
  // OffsetIndex when that page lies after the next one to load (no-op otherwise).
  Status JumpToPage(int64_t target);
  // Loads the next data page (processing a dictionary page on the way); false at the end.
  Result<bool> NextDataPage();
  // Makes sure a data page with unread entries is current; false at the end of the chunk.
  Result<bool> EnsurePage();
  Status DecodeLevels(RleBitPackedDecoder* dec, bool bit_packed, int max_level, int64_t n, uint16_t* out,
                      const char* what);
  // Fills pending_ with up to `want` level entries of the current page.
  Status FillPending(int64_t want);
  // The next n rows' dictionary indices (NULL rows: null_index).
  Status ReadIndices(int64_t n, uint32_t null_index, uint32_t* idx);
  // The next n rows' non-NULL flags.
  Status ReadDefined(int64_t n, uint8_t* defined);
  // Walks selection `sel` (all num_rows rows when null, nsel == num_rows) of the next num_rows
  // rows: skips the gaps and calls read_run(n, at) for each run of n consecutive selected rows,
  // `at` being the run's first index in sel. `what` names the caller in errors. Flat leaves only.
  template <typename ReadRun>
  Status ReadSelectedRuns(int64_t num_rows, const uint32_t* sel, int64_t nsel, const char* what, ReadRun read_run);
  // Like ReadSelectedRuns for readers that write one T per row (indices, non-NULL flags), but
  // selected rows at most kDenseGap apart form one span that is read whole (into `scratch` when
  // it has unselected rows) and picked from: decoding a few unwanted rows in bulk is cheaper than
  // skipping them one gap at a time. read_span(n, out) reads the next n rows into out[0, n).
  template <typename T, typename ReadSpan>
  Status ReadSelectedSpans(int64_t num_rows, const uint32_t* sel, int64_t nsel, const char* what, T* out,
                           std::vector<T>* scratch, ReadSpan read_span);
  static constexpr int64_t kDenseGap = 64;
  // Makes the current page's value decoder usable: decompresses a deferred v2 values section
  // and applies the pending value skip. Call before any use of values_.
  Status PrepareValues() {
    if (!values_deferred_ && value_skip_ == 0) return Status::OK();
    return LoadValues();
  }
  Status LoadValues();
  Status Corrupt(const std::string& what) const;
  // Prefixes an error from a decoder with the file path and column.
  Status Wrap(const Status& st) const;

  const LeafColumn* leaf_;
  std::unique_ptr<PageReader> pages_;
  int64_t num_rows_;
  std::string path_;
  ReadStats* stats_;
  ValueDecoder values_;
  columnar::Buffer page_buf_;
  bool dict_pending_ = false;  // dict_header_/dict_body_ hold a dictionary page not yet decoded
  PageHeader dict_header_;
  columnar::Buffer dict_body_;
  RleBitPackedDecoder def_dec_, rep_dec_;
  bool def_bit_packed_ = false, rep_bit_packed_ = false;
  // Deprecated BIT_PACKED levels: MSB-first bits, decoded whole into these when used.
  std::vector<uint16_t> bp_def_, bp_rep_;
  int64_t bp_def_pos_ = 0, bp_rep_pos_ = 0;
  int64_t page_left_ = 0;      // level entries of the current page not yet decoded
  // Values of the current page skipped but not yet passed over in values_ (levels-only reads
  // and skips move past values lazily; a page left before its values are used never decodes them).
  int64_t value_skip_ = 0;
  // A v2 page whose values section is not decompressed yet: its page, encoding and value count.
  bool values_deferred_ = false;
  Page deferred_page_;
  Encoding deferred_enc_ = Encoding::kPlain;
  int64_t deferred_count_ = 0;
  int current_page_index_ = -1;
  int next_page_index_ = 0;    // with an OffsetIndex: pages before it were read or skipped
  bool seen_data_page_ = false;
  int64_t rows_consumed_ = 0;  // top-level rows delivered or skipped
  // Decoded but unconsumed levels (repeated leaves), all from the current page.
  std::vector<uint16_t> pend_def_, pend_rep_;
  size_t pend_pos_ = 0;
  std::vector<uint16_t> scratch_def_;
  std::vector<uint32_t> scratch_idx_;
  std::vector<uint32_t> span_idx_;     // ReadSelectedSpans' spans of indices
  std::vector<uint8_t> span_defined_;  // and of non-NULL flags
};

}  // namespace shoal::parquet
