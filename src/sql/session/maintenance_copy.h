// COPY (query) | table TO 'file' (FORMAT PARQUET|CSV, ...): the options, the file writers and
// the sink operator that streams the query's batches into the file as they are produced, so
// memory stays bounded by the writer's buffer (one Parquet row group) rather than the result.
//
// Thread-safety: CopySink is a PhysicalOperator (its Sink serializes writers with a mutex);
// the writers are used under that mutex only.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "io/file_system.h"
#include "parquet/metadata.h"
#include "sql/parser/ast.h"
#include "sql/execution/physical_operator.h"

namespace shoal::sql {

struct CopyOptions {
  enum class Format : uint8_t { kCsv, kParquet };
  Format format = Format::kCsv;  // default: from the extension (.parquet), else CSV
  // Parquet
  parquet::CompressionCodec codec = parquet::CompressionCodec::kSnappy;  // COMPRESSION
  int64_t row_group_rows = 122880;                                       // ROW_GROUP_SIZE
  // CSV
  bool header = true;      // HEADER
  char delimiter = ',';    // DELIMITER / SEP
  char quote = '"';        // QUOTE
  std::string null_text;   // NULL (default: empty)
};

// Parses COPY's option list for `file`. InvalidArgument naming an unknown option or bad value.
Result<CopyOptions> ParseCopyOptions(const std::string& file,
                                     const std::vector<std::pair<std::string, OptionValue>>& options);

// Writes batches of one schema to a file in one format.
class CopyFileWriter {
 public:
  virtual ~CopyFileWriter() = default;
  virtual Status Write(const columnar::RecordBatch& batch) = 0;
  virtual Status Close() = 0;
};

Result<std::unique_ptr<CopyFileWriter>> OpenCopyWriter(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                                       const columnar::Schema& schema, const CopyOptions& options);

// Appends one CSV field: the value's text, quoted when it contains the delimiter, the quote,
// a line break, or is empty (to tell it from NULL); quotes doubled.
void AppendCsvField(std::string_view text, char delimiter, char quote, std::string* out);

// Sink of the query's output into a CopyFileWriter; as a source it yields one row: Count.
class CopySink : public PhysicalOperator {
 public:
  explicit CopySink(std::unique_ptr<CopyFileWriter> writer);
  std::string Name() const override { return "Copy"; }
  bool IsSink() const override { return true; }
  Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext& ctx, int input) override;
  Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) override;
  Status Combine(ExecContext& ctx, LocalSinkState* local, int input) override;
  Status Finalize(ExecContext& ctx) override;
  Result<std::unique_ptr<SourceState>> OpenSource(ExecContext& ctx) override;
  int64_t rows() const { return rows_; }

 private:
  std::mutex mu_;
  std::unique_ptr<CopyFileWriter> writer_;
  int64_t rows_ = 0;
};

}  // namespace shoal::sql
