// ParquetWriter: writes record batches of one columnar schema to a Parquet file — row groups of
// column chunks, bloom filters after each row group, then the page index (all ColumnIndexes,
// then all OffsetIndexes) and the footer. Memory stays bounded by about one row group of
// encoded data: each row group is written out as soon as it reaches its row or byte limit.
//
// Thread-safety: not thread-safe; one thread writes a file.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "io/file_system.h"
#include "parquet/column_writer.h"
#include "parquet/level_builder.h"
#include "parquet/metadata.h"
#include "parquet/write_schema.h"
#include "parquet/writer_properties.h"
#include "shoal/status.h"

namespace shoal::parquet {

class ParquetWriter {
 public:
  // Creates (or truncates) `path` and writes the leading magic. InvalidArgument /
  // NotSupported when the schema cannot be written.
  static Result<std::unique_ptr<ParquetWriter>> Open(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                                     const columnar::Schema& schema,
                                                     WriterProperties properties = WriterProperties::Defaults());
  ~ParquetWriter();

  // Appends the batch's rows (its columns must match the schema's types, in order).
  Status WriteBatch(const columnar::RecordBatch& batch);
  // Ends the open row group early (e.g. at a partition boundary).
  Status FlushRowGroup();
  // Writes the page index and the footer, closes the file, and returns the footer.
  Result<FileMetaData> Close();

  int64_t rows_written() const { return rows_written_ + group_rows_; }
  // Bytes written to the file so far plus the open row group's encoded bytes: about the file's
  // size if it were closed now (less the page index and footer).
  int64_t bytes_written() const;
  // Encoded bytes held for the open row group, and the most ever held.
  int64_t buffered_bytes() const;
  int64_t peak_buffered_bytes() const { return peak_buffered_; }
  const WriteSchema& schema() const { return schema_; }
  const std::string& path() const { return path_; }

 private:
  ParquetWriter() = default;
  Status CheckBatch(const columnar::RecordBatch& batch) const;

  std::shared_ptr<io::FileSystem> fs_;
  std::unique_ptr<io::WritableFile> file_;
  std::string path_;
  WriterProperties props_;
  WriteSchema schema_;
  columnar::Schema columnar_schema_;
  std::vector<std::unique_ptr<ColumnWriter>> columns_;
  LevelBuilder levels_;
  std::vector<ShreddedLeaf> leaf_levels_;
  FileMetaData meta_;
  std::vector<SortingColumn> sorting_;
  // Page index per row group and column, written at Close.
  std::vector<std::vector<std::optional<ColumnIndex>>> column_indexes_;
  std::vector<std::vector<std::optional<OffsetIndex>>> offset_indexes_;
  int64_t group_rows_ = 0;
  int64_t rows_written_ = 0;
  int64_t peak_buffered_ = 0;
  bool closed_ = false;
};

}  // namespace shoal::parquet
