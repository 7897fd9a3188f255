#include "sql/session/maintenance_copy.h"

#include <cctype>

#include "columnar/value_text.h"
#include "parquet/file_writer.h"
#include "sql/session/database_impl.h"
#include "sql/execution/executor.h"
#include "sql/session/maintenance_result.h"
#include "sql/parser/parser.h"
#include "sql/session/session.h"

namespace shoal::sql {

namespace {

Result<bool> OptionBool(const std::string& name, const OptionValue& v) {
  if (v.kind == OptionValue::Kind::kNone) return true;
  std::string t = Lower(v.text);
  if (t == "true" || t == "1" || t == "on") return true;
  if (t == "false" || t == "0" || t == "off") return false;
  return Status::InvalidArgument("COPY option " + name + " needs a boolean, got " + v.ToString());
}

Result<char> OptionChar(const std::string& name, const OptionValue& v) {
  if (v.text.size() != 1) return Status::InvalidArgument("COPY option " + name + " needs a single character");
  return v.text[0];
}

class ParquetCopyWriter : public CopyFileWriter {
 public:
  explicit ParquetCopyWriter(std::unique_ptr<parquet::ParquetWriter> w) : w_(std::move(w)) {}
  Status Write(const columnar::RecordBatch& batch) override { return w_->WriteBatch(batch); }
  Status Close() override { return w_->Close().status(); }

 private:
  std::unique_ptr<parquet::ParquetWriter> w_;
};

class CsvCopyWriter : public CopyFileWriter {
 public:
  CsvCopyWriter(std::unique_ptr<io::WritableFile> file, CopyOptions options)
      : file_(std::move(file)), options_(std::move(options)) {}

  Status WriteHeader(const columnar::Schema& schema) {
    for (size_t c = 0; c < schema.size(); ++c) {
      if (c) buffer_ += options_.delimiter;
      AppendCsvField(schema.fields[c].name, options_.delimiter, options_.quote, &buffer_);
    }
    buffer_ += '\n';
    return Status::OK();
  }

  Status Write(const columnar::RecordBatch& batch) override {
    std::string text;
    for (int64_t r = 0; r < batch.num_rows; ++r) {
      for (size_t c = 0; c < batch.num_columns(); ++c) {
        if (c) buffer_ += options_.delimiter;
        const columnar::Vector& v = *batch.column(c);
        if (v.IsNull(r)) {
          buffer_ += options_.null_text;
          continue;
        }
        if (v.id() == columnar::TypeId::kString) {
          AppendCsvField(v.GetString(r), options_.delimiter, options_.quote, &buffer_);
          continue;
        }
        text.clear();
        columnar::AppendText(v, r, &text);
        AppendCsvField(text, options_.delimiter, options_.quote, &buffer_);
      }
      buffer_ += '\n';
      if (buffer_.size() >= (1 << 20)) RETURN_NOT_OK(Flush());
    }
    return Status::OK();
  }

  Status Close() override {
    RETURN_NOT_OK(Flush());
    RETURN_NOT_OK(file_->Sync());
    return file_->Close();
  }

 private:
  Status Flush() {
    if (buffer_.empty()) return Status::OK();
    RETURN_NOT_OK(file_->Append(buffer_));
    buffer_.clear();
    return Status::OK();
  }

  std::unique_ptr<io::WritableFile> file_;
  CopyOptions options_;
  std::string buffer_;
};

class CopyLocalSink : public LocalSinkState {};

}  // namespace

void AppendCsvField(std::string_view text, char delimiter, char quote, std::string* out) {
  bool needs_quotes = text.empty();
  for (char c : text) {
    if (c == delimiter || c == quote || c == '\n' || c == '\r') {
      needs_quotes = true;
      break;
    }
  }
  if (!needs_quotes) {
    out->append(text);
    return;
  }
  out->push_back(quote);
  for (char c : text) {
    if (c == quote) out->push_back(quote);
    out->push_back(c);
  }
  out->push_back(quote);
}

Result<CopyOptions> ParseCopyOptions(const std::string& file,
                                     const std::vector<std::pair<std::string, OptionValue>>& options) {
  CopyOptions o;
  std::string lower_file = Lower(file);
  if (lower_file.ends_with(".parquet")) o.format = CopyOptions::Format::kParquet;
  for (const auto& [raw_name, v] : options) {
    std::string name = Lower(raw_name);
    if (name == "format") {
      std::string f = Lower(v.text);
      if (f == "parquet") {
        o.format = CopyOptions::Format::kParquet;
      } else if (f == "csv") {
        o.format = CopyOptions::Format::kCsv;
      } else {
        return Status::InvalidArgument("COPY FORMAT " + v.text + " is not supported (PARQUET or CSV)");
      }
    } else if (name == "compression" || name == "codec") {
      std::string c = Lower(v.text);
      if (c == "snappy") {
        o.codec = parquet::CompressionCodec::kSnappy;
      } else if (c == "zstd") {
        o.codec = parquet::CompressionCodec::kZstd;
      } else if (c == "gzip") {
        o.codec = parquet::CompressionCodec::kGzip;
      } else if (c == "lz4" || c == "lz4_raw") {
        o.codec = parquet::CompressionCodec::kLz4Raw;
      } else if (c == "brotli") {
        o.codec = parquet::CompressionCodec::kBrotli;
      } else if (c == "uncompressed" || c == "none") {
        o.codec = parquet::CompressionCodec::kUncompressed;
      } else {
        return Status::InvalidArgument("COPY COMPRESSION " + v.text + " is not supported");
      }
    } else if (name == "row_group_size") {
      int64_t n = 0;
      try {
        size_t used = 0;
        n = std::stoll(v.text, &used);
        if (used != v.text.size()) n = 0;
      } catch (...) {
        n = 0;
      }
      if (n < 1) return Status::InvalidArgument("COPY ROW_GROUP_SIZE needs a positive integer, got " + v.ToString());
      o.row_group_rows = n;
    } else if (name == "header") {
      ASSIGN_OR_RETURN(o.header, OptionBool(raw_name, v));
    } else if (name == "delimiter" || name == "sep" || name == "delim") {
      ASSIGN_OR_RETURN(o.delimiter, OptionChar(raw_name, v));
    } else if (name == "quote") {
      ASSIGN_OR_RETURN(o.quote, OptionChar(raw_name, v));
    } else if (name == "null" || name == "nullstr") {
      o.null_text = v.text;
    } else {
      return Status::InvalidArgument("COPY option " + raw_name + " is not supported");
    }
  }
  return o;
}

Result<std::unique_ptr<CopyFileWriter>> OpenCopyWriter(std::shared_ptr<io::FileSystem> fs, const std::string& path,
                                                       const columnar::Schema& schema, const CopyOptions& options) {
  if (options.format == CopyOptions::Format::kParquet) {
    parquet::WriterProperties props =
        parquet::WriterProperties::Builder().compression(options.codec).max_row_group_rows(options.row_group_rows).Build();
    ASSIGN_OR_RETURN(auto w, parquet::ParquetWriter::Open(std::move(fs), path, schema, props));
    return std::unique_ptr<CopyFileWriter>(std::make_unique<ParquetCopyWriter>(std::move(w)));
  }
  ASSIGN_OR_RETURN(auto file, fs->OpenForWrite(path));
  auto w = std::make_unique<CsvCopyWriter>(std::move(file), options);
  if (options.header) RETURN_NOT_OK(w->WriteHeader(schema));
  return std::unique_ptr<CopyFileWriter>(std::move(w));
}

CopySink::CopySink(std::unique_ptr<CopyFileWriter> writer)
    : PhysicalOperator(std::make_shared<columnar::Schema>(
          columnar::Schema{{columnar::Field{"Count", columnar::Int64(), false}}})),
      writer_(std::move(writer)) {}

Result<std::unique_ptr<LocalSinkState>> CopySink::MakeLocalSink(ExecContext&, int) {
  return std::unique_ptr<LocalSinkState>(std::make_unique<CopyLocalSink>());
}

Status CopySink::Sink(ExecContext& ctx, LocalSinkState*, Chunk chunk, int) {
  RETURN_NOT_OK(ctx.CheckInterrupt());
  std::lock_guard<std::mutex> lock(mu_);
  RETURN_NOT_OK(writer_->Write(*chunk.batch));
  rows_ += chunk.batch->num_rows;
  return Status::OK();
}

Status CopySink::Combine(ExecContext&, LocalSinkState*, int) { return Status::OK(); }

Status CopySink::Finalize(ExecContext&) {
  std::lock_guard<std::mutex> lock(mu_);
  return writer_->Close();
}

Result<std::unique_ptr<SourceState>> CopySink::OpenSource(ExecContext&) {
  auto v = columnar::Vector::Make(columnar::Int64(), 1);
  v->Append<int64_t>(rows_);
  auto batch = std::make_shared<columnar::RecordBatch>(schema(), std::vector<columnar::VectorPtr>{v}, 1);
  return std::unique_ptr<SourceState>(std::make_unique<BatchListSource>(std::vector<columnar::BatchPtr>{batch}));
}

Result<QueryResult> Session::RunCopy(const Statement& s) {
  const auto& c = s.As<CopyStatement>();
  ASSIGN_OR_RETURN(CopyOptions options, ParseCopyOptions(c.file, c.options));
  StatementPtr table_query;
  const QueryNode* query = c.query.get();
  if (!query) {
    ASSIGN_OR_RETURN(table_query, ParseStatement("SELECT * FROM " + c.table.ToString()));
    query = table_query->As<SelectStatement>().query.get();
  }
  ExecContext ctx;
  InitContext(&ctx);
  // Rows reach the sink in arrival order: an ordered query runs on one worker so the file
  // keeps its order.
  if (!query->order_by.empty()) {
    ctx.threads = 1;
    ctx.pool = nullptr;
  }
  columnar::SchemaPtr schema;
  Result<PhysicalPtr> planned = PlanQuery(*query, ctx, &schema);
  if (table_query) planned = WithoutErrorOffset(std::move(planned));  // the SELECT was built here
  ASSIGN_OR_RETURN(PhysicalPtr plan, std::move(planned));
  ASSIGN_OR_RETURN(auto writer, OpenCopyWriter(db_->fs, c.file, *schema, options));
  auto sink = std::make_unique<CopySink>(std::move(writer));
  CopySink* copy = sink.get();
  sink->children.push_back(std::move(plan));
  auto ran = Executor(&ctx).Run(copy);
  if (!ran.ok()) {
    (void)db_->fs->Delete(c.file);  // never leave a half-written file behind
    return ran.status().WithContext("COPY TO " + c.file);
  }
  ResultRows rows;
  rows.AddColumn("Count", columnar::Int64());
  rows.AddRow({columnar::Value::Int64(copy->rows())});
  return rows.Build();
}

}  // namespace shoal::sql
