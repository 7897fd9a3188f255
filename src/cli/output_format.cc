#include "cli/output_format.h"

#include <algorithm>

#include "columnar/value_text.h"
#include "columnar/vector.h"

namespace shoal::cli {

namespace {

constexpr size_t kFlushBytes = 64 * 1024;

// Accumulates output and hands it to the sink in large chunks.
class ChunkedWriter {
 public:
  explicit ChunkedWriter(const Sink& sink) : sink_(sink) { buf_.reserve(kFlushBytes + 4096); }
  ~ChunkedWriter() { Flush(); }
  std::string* buffer() { return &buf_; }
  void MaybeFlush() {
    if (buf_.size() >= kFlushBytes) Flush();
  }
  void Flush() {
    if (!buf_.empty()) sink_(buf_);
    buf_.clear();
  }

 private:
  const Sink& sink_;
  std::string buf_;
};

bool NeedsCsvQuotes(std::string_view s) {
  for (char c : s) {
    if (c == ',' || c == '"' || c == '\n' || c == '\r') return true;
  }
  return false;
}

void AppendCsvField(std::string_view s, bool is_null, std::string* out) {
  if (is_null) return;
  if (s.empty()) {
    out->append("\"\"");
    return;
  }
  if (!NeedsCsvQuotes(s)) {
    out->append(s);
    return;
  }
  out->push_back('"');
  for (char c : s) {
    if (c == '"') out->push_back('"');
    out->push_back(c);
  }
  out->push_back('"');
}

// Appends `{"name":value,...}` for row `row` of `batch`, with keys pre-encoded.
void AppendJsonObject(const columnar::RecordBatch& batch, int64_t row,
                      const std::vector<std::string>& keys, const columnar::TimeZone* zone, std::string* out) {
  out->push_back('{');
  for (size_t c = 0; c < keys.size(); ++c) {
    if (c > 0) out->push_back(',');
    out->append(keys[c]);
    columnar::AppendJson(*batch.columns[c], row, out, zone);
  }
  out->push_back('}');
}

std::vector<std::string> JsonKeys(const QueryResult& result) {
  std::vector<std::string> keys;
  for (int c = 0; c < result.num_columns(); ++c) {
    std::string k;
    columnar::AppendJsonString(result.column_name(c), &k);
    k.push_back(':');
    keys.push_back(std::move(k));
  }
  return keys;
}

}  // namespace

Result<OutputFormat> ParseOutputFormat(std::string_view name) {
  for (OutputFormat f : {OutputFormat::kTable, OutputFormat::kBox, OutputFormat::kCsv, OutputFormat::kJson,
                        OutputFormat::kJsonl, OutputFormat::kMarkdown, OutputFormat::kLine}) {
    if (name == OutputFormatName(f)) return f;
  }
  return Status::InvalidArgument("unknown output format '" + std::string(name) +
                                 "' (expected table, box, csv, json, jsonl, markdown or line)");
}

const char* OutputFormatName(OutputFormat format) {
  switch (format) {
    case OutputFormat::kTable: return "table";
    case OutputFormat::kBox: return "box";
    case OutputFormat::kCsv: return "csv";
    case OutputFormat::kJson: return "json";
    case OutputFormat::kJsonl: return "jsonl";
    case OutputFormat::kMarkdown: return "markdown";
    case OutputFormat::kLine: return "line";
  }
  return "table";
}

void WriteCsv(const QueryResult& result, const Sink& sink, const TableLayout& layout) {
  ChunkedWriter w(sink);
  std::string* out = w.buffer();
  const int ncols = result.num_columns();
  if (layout.headers) {
    for (int c = 0; c < ncols; ++c) {
      if (c > 0) out->push_back(',');
      AppendCsvField(result.column_name(c), false, out);
    }
    out->push_back('\n');
  }
  std::string text;
  for (const auto& batch : result.batches()) {
    for (int64_t r = 0; r < batch->num_rows; ++r) {
      for (int c = 0; c < ncols; ++c) {
        if (c > 0) out->push_back(',');
        const columnar::Vector& v = *batch->columns[c];
        if (v.IsNull(r)) {
          if (layout.null_value) AppendCsvField(*layout.null_value, false, out);
          continue;
        }
        text.clear();
        columnar::AppendText(v, r, &text, result.time_zone());
        AppendCsvField(text, false, out);
      }
      out->push_back('\n');
      w.MaybeFlush();
    }
  }
}

void WriteJson(const QueryResult& result, const Sink& sink) {
  ChunkedWriter w(sink);
  std::string* out = w.buffer();
  std::vector<std::string> keys = JsonKeys(result);
  out->push_back('[');
  bool first = true;
  for (const auto& batch : result.batches()) {
    for (int64_t r = 0; r < batch->num_rows; ++r) {
      if (!first) out->push_back(',');
      first = false;
      AppendJsonObject(*batch, r, keys, result.time_zone(), out);
      w.MaybeFlush();
    }
  }
  out->append("]\n");
}

void WriteJsonl(const QueryResult& result, const Sink& sink) {
  ChunkedWriter w(sink);
  std::string* out = w.buffer();
  std::vector<std::string> keys = JsonKeys(result);
  for (const auto& batch : result.batches()) {
    for (int64_t r = 0; r < batch->num_rows; ++r) {
      AppendJsonObject(*batch, r, keys, result.time_zone(), out);
      out->push_back('\n');
      w.MaybeFlush();
    }
  }
}

namespace {

// The text of a cell for the markdown and line formats.
std::string CellText(const QueryResult& result, int64_t row, int col, const TableLayout& layout) {
  if (layout.null_value && result.IsNull(row, col)) return *layout.null_value;
  return result.GetText(row, col);
}

// Appends " <s> |" with `|` and backslashes escaped and line breaks as spaces.
void AppendMarkdownCell(std::string_view s, std::string* out) {
  out->push_back(' ');
  for (char c : s) {
    if (c == '|' || c == '\\') out->push_back('\\');
    out->push_back(c == '\n' || c == '\r' ? ' ' : c);
  }
  out->append(" |");
}

}  // namespace

void WriteMarkdown(const QueryResult& result, const TableLayout& layout, const Sink& sink) {
  ChunkedWriter w(sink);
  std::string* out = w.buffer();
  const int ncols = result.num_columns();
  if (layout.headers) {
    out->push_back('|');
    for (int c = 0; c < ncols; ++c) AppendMarkdownCell(result.column_name(c), out);
    out->append("\n|");
    for (int c = 0; c < ncols; ++c) out->append(result.schema()->fields[c].type->IsNumeric() ? " ---: |" : " --- |");
    out->push_back('\n');
  }
  for (int64_t r = 0; r < result.num_rows(); ++r) {
    out->push_back('|');
    for (int c = 0; c < ncols; ++c) AppendMarkdownCell(CellText(result, r, c, layout), out);
    out->push_back('\n');
    w.MaybeFlush();
  }
}

void WriteLines(const QueryResult& result, const TableLayout& layout, const Sink& sink) {
  ChunkedWriter w(sink);
  std::string* out = w.buffer();
  const int ncols = result.num_columns();
  int name_width = 0;
  for (int c = 0; c < ncols; ++c) name_width = std::max(name_width, DisplayWidth(result.column_name(c)));
  for (int64_t r = 0; r < result.num_rows(); ++r) {
    if (r > 0) out->push_back('\n');
    for (int c = 0; c < ncols; ++c) {
      const std::string& name = result.column_name(c);
      out->append(static_cast<size_t>(name_width - DisplayWidth(name)), ' ');
      out->append(name);
      out->append(" = ");
      out->append(CellText(result, r, c, layout));
      out->push_back('\n');
    }
    w.MaybeFlush();
  }
}

bool PrintsRowsInDataFormats(std::string_view statement_type) {
  static constexpr std::string_view kWithoutRows[] = {
      "INSERT", "UPDATE",   "DELETE", "MERGE",    "CREATE TABLE",        "DROP TABLE",      "ALTER TABLE",
      "BEGIN",  "COMMIT",   "ROLLBACK", "SET",    "RESET",               "COPY",            "PREPARE TRANSACTION",
      "COMMIT PREPARED",    "ROLLBACK PREPARED"};
  for (std::string_view t : kWithoutRows) {
    if (statement_type == t) return false;
  }
  return true;
}

void WriteResult(const QueryResult& result, OutputFormat format, const TableLayout& layout,
                 const Sink& sink) {
  if (result.num_columns() == 0) return;
  const bool table = format == OutputFormat::kTable || format == OutputFormat::kBox;
  if (!table && !PrintsRowsInDataFormats(result.statement_type())) return;
  switch (format) {
    case OutputFormat::kTable:
    case OutputFormat::kBox: sink(RenderTable(result, layout)); return;
    case OutputFormat::kCsv: WriteCsv(result, sink, layout); return;
    case OutputFormat::kJson: WriteJson(result, sink); return;
    case OutputFormat::kJsonl: WriteJsonl(result, sink); return;
    case OutputFormat::kMarkdown: WriteMarkdown(result, layout, sink); return;
    case OutputFormat::kLine: WriteLines(result, layout, sink); return;
  }
}

}  // namespace shoal::cli
