// ParquetReader: opens a Parquet file (footer, metadata, columnar schema), exposes raw
// statistics and the page index, and reads row groups in batches of top-level rows, touching
// only the column chunks (and, when skipping, only the pages) that are asked for.
//
// Thread-safety: a ParquetReader is immutable after Open and may be shared; each
// RowGroupReader is used by one thread at a time (open one per row group per thread).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "io/file_system.h"
#include "io/range_cache_file.h"
#include "parquet/column_reader.h"
#include "parquet/metadata.h"
#include "parquet/reader_options.h"
#include "parquet/row_ranges.h"
#include "parquet/schema.h"

namespace shoal::parquet {

class ParquetReader;

// Streams the selected top-level fields of one row group in batches.
class RowGroupReader {
 public:
  // Reads the next up to max_rows rows (0: the reader's batch_rows); nullptr after the last row.
  Result<columnar::BatchPtr> ReadBatch(int64_t max_rows = 0);
  // Skips n rows (fewer at the end of the row group): whole pages without reading them when the
  // file has an OffsetIndex and nothing was read yet from the chunk, else decode-and-discard.
  Status SkipRows(int64_t n);

  // Column-wise reading, for late materialization: each field (by its position in the
  // OpenRowGroup list, which must not repeat a field) advances on its own; pages are fetched
  // one by one through the OffsetIndex so skipped pages cost no I/O. Do not mix with
  // ReadBatch/SkipRows.
  //
  // Reads the next n rows of field i.
  Result<columnar::VectorPtr> ReadField(int i, int64_t n);
  // Consumes the next n rows of field i and returns only the rows at offsets sel[0, nsel)
  // (strictly ascending, < n), densely. Sparse selections skip the runs between selected
  // rows; dense ones decode the span and gather.
  Result<columnar::VectorPtr> ReadFieldSelected(int i, int64_t n, const uint32_t* sel, int64_t nsel);
  // Consumes the next n rows of field i (a flat leaf whose chunk is entirely
  // dictionary-encoded) and writes the dictionary index of the rows at offsets sel[0, nsel)
  // (sel null: all n rows, nsel == n) to idx; NULL rows get `null_index`. Values are not
  // materialized: a filter evaluated once on the dictionary runs on the indices.
  Status ReadFieldIndices(int i, int64_t n, const uint32_t* sel, int64_t nsel, uint32_t null_index, uint32_t* idx);
  // True when field i is a flat STRING/BINARY leaf whose chunk in this row group is provably
  // entirely dictionary-encoded, so ReadFieldCoded can read it.
  bool FieldIsDictionaryCoded(int i) const;
  // Like ReadFieldSelected (sel null: all n rows, nsel == n) for a field FieldIsDictionaryCoded
  // says yes to, but returns a dictionary-coded vector (columnar/vector.h): codes into the
  // chunk's dictionary, which every such read of the chunk shares; the strings are not copied.
  Result<columnar::VectorPtr> ReadFieldCoded(int i, int64_t n, const uint32_t* sel, int64_t nsel);
  // Consumes the next n rows of field i (a flat leaf) and writes whether each row at offsets
  // sel[0, nsel) (sel null: all n rows, nsel == n) is non-NULL (1) or NULL (0) to `defined`,
  // from the definition levels alone (IS [NOT] NULL without decoding values).
  Status ReadFieldDefined(int i, int64_t n, const uint32_t* sel, int64_t nsel, uint8_t* defined);
  // Skips the next n rows of field i.
  Status SkipField(int i, int64_t n);
  int64_t field_position(int i) const { return field_position_[i]; }
  // Data pages (of chunks read through the OffsetIndex) not read or skipped so far: after the
  // last batch, the pages a selective read never reached.
  int64_t pages_unread() const;
  int num_fields() const { return static_cast<int>(fields_.size()); }

  int64_t num_rows() const { return num_rows_; }
  int64_t rows_remaining() const { return num_rows_ - position_; }
  const columnar::SchemaPtr& schema() const { return schema_; }

 private:
  friend class ParquetReader;
  RowGroupReader() = default;
  // Creates the column readers once; `for_skip` reads page by page through the OffsetIndex. A
  // failure is remembered: every later read returns it (the readers may be partly built).
  Status EnsureInit(bool for_skip);
  Status Init(bool for_skip);
  // Reads n whole rows of field i (any shape) into a new vector.
  Result<columnar::VectorPtr> ReadFieldRows(int i, int64_t n);
  // Checks a read of n rows of field i at selection sel (a flat leaf, sel ascending below n)
  // and returns its column reader; `what` names the caller in errors.
  Result<ColumnChunkReader*> FlatLeafReader(int i, int64_t n, const uint32_t* sel, int64_t nsel, const char* what);
  // ReadField (sel null) and ReadFieldSelected.
  Result<columnar::VectorPtr> ReadFieldImpl(int i, int64_t n, const uint32_t* sel, int64_t nsel);
  // Skips n rows of every leaf of field i (field_position_ unchanged).
  Status SkipLeaves(int i, int64_t n);
  Status ShortRead(int leaf, int64_t position, int64_t got) const;

  const ParquetReader* file_ = nullptr;
  int row_group_ = 0;
  std::vector<int> fields_;
  columnar::SchemaPtr schema_;
  int64_t num_rows_ = 0;
  int64_t position_ = 0;
  ReadStats* stats_ = nullptr;
  bool initialized_ = false;
  Status init_status_;
  std::vector<std::unique_ptr<OffsetIndex>> offset_indexes_;
  std::vector<std::unique_ptr<ColumnChunkReader>> readers_;  // by leaf, for the selected fields
  std::vector<int> reader_of_leaf_;                          // leaf index -> readers_ index, -1
  std::vector<LeafLevels> levels_;                           // scratch per leaf
  std::vector<int64_t> field_position_;                      // column-wise reading: rows consumed
  std::vector<uint32_t> scratch_codes_;                      // ReadFieldCoded
};

class ParquetReader {
 public:
  // Opens `path`: checks the magic at both ends and the footer length, parses the metadata and
  // builds the columnar schema. Encrypted footers ("PARE") are NotSupported. Footer bytes are
  // counted in `stats` when given. `known_size` >= 0 is the file's size as the caller knows it
  // (a Delta add action's), which spares object storage a request.
  //
  // On storage where reads cost a round trip (RandomAccessFile::latency_bound) the file is read
  // through a RangeCacheFile: the first request fetches the last kSpeculativeTailBytes (the
  // whole file below kReadWholeFileBelow) with the head magic alongside, which usually holds the
  // footer and the page index; a second read happens only for a larger footer, and one more for
  // a page index outside the tail. Both stay in memory for the reader's life.
  static Result<std::unique_ptr<ParquetReader>> Open(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                                     ReaderOptions options = {}, ReadStats* stats = nullptr,
                                                     int64_t known_size = -1);
  static constexpr int64_t kSpeculativeTailBytes = 64 << 10;
  // One request for a file this small costs about what a round trip does on S3.
  static constexpr int64_t kReadWholeFileBelow = 1 << 20;

  const std::string& path() const { return path_; }
  const FileMetaData& metadata() const { return metadata_; }
  const ParquetSchema& parquet_schema() const { return schema_; }
  const columnar::SchemaPtr& schema() const { return columnar_schema_; }
  const ReaderOptions& options() const { return options_; }
  int num_row_groups() const { return static_cast<int>(metadata_.row_groups.size()); }
  int64_t num_rows() const { return metadata_.num_rows; }
  int64_t row_group_num_rows(int rg) const { return metadata_.row_groups[rg].num_rows; }

  // The raw column chunk metadata and statistics of leaf `leaf` in row group `rg` (the
  // statistics pointer is null when absent). Both indexes must be in range.
  const ColumnChunk& column_chunk(int rg, int leaf) const { return metadata_.row_groups[rg].columns[leaf]; }
  const Statistics* column_statistics(int rg, int leaf) const;

  // The page index of a column chunk; nullopt when the file has none for it.
  Result<std::optional<ColumnIndex>> ReadColumnIndex(int rg, int leaf, ReadStats* stats = nullptr) const;
  Result<std::optional<OffsetIndex>> ReadOffsetIndex(int rg, int leaf, ReadStats* stats = nullptr) const;

  // Opens row group `rg` for reading the top-level fields `field_indices` (in that order; an
  // empty list reads no columns, only row counts). `stats` (optional) must outlive the reader.
  Result<std::unique_ptr<RowGroupReader>> OpenRowGroup(int rg, std::vector<int> field_indices,
                                                       ReadStats* stats = nullptr) const;
  // Reads every row group's selected fields (empty: all fields), one batch per read.
  Result<std::vector<columnar::BatchPtr>> ReadAll(std::vector<int> field_indices = {},
                                                  ReadStats* stats = nullptr) const;

  const io::RandomAccessFile* file() const { return file_.get(); }

  // Read planning for latency-bound storage (all no-ops on local disk, where the OS reads
  // ahead and a read costs no round trip).
  bool latency_bound() const { return cache_ != nullptr; }
  // Fetches `ranges` ahead, merged and concurrently, into memory for the reads that follow.
  Status Prefetch(std::vector<io::ByteRange> ranges) const;
  // The byte ranges reading top-level field `field` of row group `rg` touches: per leaf, the
  // whole column chunk, or with `rows` (ascending row ranges of the row group) and an
  // OffsetIndex only the dictionary and the data pages holding those rows. Appended to `out`.
  void ChunkRanges(int rg, int field, const std::vector<RowRange>* rows, std::vector<io::ByteRange>* out) const;

 private:
  ParquetReader() = default;
  Status CheckChunk(int rg, int leaf) const;
  // Latency-bound files: fetches the page index of every chunk in one request, unless the
  // speculative tail read already holds it.
  void PrefetchPageIndex() const;

  std::shared_ptr<io::FileSystem> fs_;
  std::string path_;
  std::unique_ptr<io::RandomAccessFile> file_;
  const io::RangeCacheFile* cache_ = nullptr;  // file_ itself when latency-bound, else null
  ReaderOptions options_;
  FileMetaData metadata_;
  ParquetSchema schema_;
  columnar::SchemaPtr columnar_schema_;
};

}  // namespace shoal::parquet
