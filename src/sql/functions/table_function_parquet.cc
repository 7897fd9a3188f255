// read_parquet('path-or-glob' | ['p1', 'p2', ...]), parquet_metadata('file') (one row per
// column chunk, like DuckDB's) and parquet_schema('file') (one row per schema element).
#include <algorithm>
#include <atomic>

#include "columnar/value.h"
#include "io/routing_file_system.h"
#include "parquet/file_reader.h"
#include "parquet/statistics.h"
#include "scan/parquet_scan.h"
#include "sql/functions/delta_table_source.h"
#include "sql/functions/table_function.h"

namespace shoal::sql {
namespace {

using columnar::Value;

// Rows computed at bind time, served from memory.
class MaterializedSource final : public TableSource {
 public:
  MaterializedSource(std::string name, columnar::Schema schema, std::vector<std::vector<Value>> rows)
      : name_(std::move(name)), schema_(std::move(schema)), rows_(std::move(rows)) {}
  const columnar::Schema& schema() const override { return schema_; }
  std::string ToString() const override { return name_; }
  std::optional<int64_t> EstimatedRows() const override { return static_cast<int64_t>(rows_.size()); }

  Result<std::unique_ptr<Scan>> Open(const ScanRequest& request) const override {
    auto out_schema = std::make_shared<columnar::Schema>();
    std::vector<columnar::VectorPtr> cols;
    for (int c : request.columns) {
      out_schema->fields.push_back(schema_.fields[c]);
      auto v = columnar::Vector::Make(schema_.fields[c].type);
      for (const auto& row : rows_) row[c].AppendTo(v.get());
      cols.push_back(std::move(v));
    }
    auto batch = std::make_shared<columnar::RecordBatch>(out_schema, std::move(cols), static_cast<int64_t>(rows_.size()));
    return std::unique_ptr<Scan>(new OneBatchScan(std::move(batch)));
  }

 private:
  class OneBatchScan final : public Scan {
   public:
    explicit OneBatchScan(columnar::BatchPtr b) : batch_(std::move(b)) {}
    Result<bool> Next(ScanLocalState*, columnar::BatchPtr* out, uint64_t* order) override {
      if (taken_.exchange(true) || batch_->num_rows == 0) return false;
      *out = batch_;
      *order = 0;
      return true;
    }

   private:
    columnar::BatchPtr batch_;
    std::atomic<bool> taken_{false};
  };

  std::string name_;
  columnar::Schema schema_;
  std::vector<std::vector<Value>> rows_;
};

Result<std::vector<std::string>> PathArgs(const TableFunctionArgs& args, const char* fn) {
  if (args.positional.size() != 1) {
    return Status::Binder(std::string(fn) + " expects one argument: a path, a glob or a list of them");
  }
  const Value& v = args.positional[0];
  std::vector<std::string> paths;
  if (v.type()->id() == columnar::TypeId::kString && !v.is_null()) {
    paths.push_back(v.GetString());
  } else if (v.type()->id() == columnar::TypeId::kList && !v.is_null()) {
    for (const Value& e : v.GetChildren()) {
      if (e.is_null() || e.type()->id() != columnar::TypeId::kString) {
        return Status::Binder(std::string(fn) + ": list elements must be strings");
      }
      paths.push_back(e.GetString());
    }
  } else {
    return Status::Binder(std::string(fn) + " expects a string path, got " + v.type()->ToString());
  }
  if (paths.empty()) return Status::Binder(std::string(fn) + ": no paths given");
  return paths;
}

Result<std::shared_ptr<const TableSource>> BindReadParquet(const TableFunctionArgs& args) {
  ASSIGN_OR_RETURN(auto paths, PathArgs(args, "read_parquet"));
  for (const auto& [name, value] : args.named) {
    // union_by_name is what shoal always does; other options are not supported.
    if (name != "union_by_name") return Status::Binder("read_parquet: unknown option '" + name + "'");
  }
  ASSIGN_OR_RETURN(auto set, scan::ParquetFileSet::Open(io::DefaultFileSystem(), paths));
  return std::shared_ptr<const TableSource>(std::make_shared<ParquetFilesSource>(std::move(set)));
}

const char* PhysicalText(parquet::PhysicalType t) {
  switch (t) {
    case parquet::PhysicalType::kBoolean: return "BOOLEAN";
    case parquet::PhysicalType::kInt32: return "INT32";
    case parquet::PhysicalType::kInt64: return "INT64";
    case parquet::PhysicalType::kInt96: return "INT96";
    case parquet::PhysicalType::kFloat: return "FLOAT";
    case parquet::PhysicalType::kDouble: return "DOUBLE";
    case parquet::PhysicalType::kByteArray: return "BYTE_ARRAY";
    case parquet::PhysicalType::kFixedLenByteArray: return "FIXED_LEN_BYTE_ARRAY";
  }
  return "UNKNOWN";
}

const char* CodecText(parquet::CompressionCodec c) {
  switch (c) {
    case parquet::CompressionCodec::kUncompressed: return "UNCOMPRESSED";
    case parquet::CompressionCodec::kSnappy: return "SNAPPY";
    case parquet::CompressionCodec::kGzip: return "GZIP";
    case parquet::CompressionCodec::kLzo: return "LZO";
    case parquet::CompressionCodec::kBrotli: return "BROTLI";
    case parquet::CompressionCodec::kLz4: return "LZ4";
    case parquet::CompressionCodec::kZstd: return "ZSTD";
    case parquet::CompressionCodec::kLz4Raw: return "LZ4_RAW";
  }
  return "UNKNOWN";
}

const char* EncodingText(parquet::Encoding e) {
  switch (e) {
    case parquet::Encoding::kPlain: return "PLAIN";
    case parquet::Encoding::kPlainDictionary: return "PLAIN_DICTIONARY";
    case parquet::Encoding::kRle: return "RLE";
    case parquet::Encoding::kBitPacked: return "BIT_PACKED";
    case parquet::Encoding::kDeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case parquet::Encoding::kDeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case parquet::Encoding::kDeltaByteArray: return "DELTA_BYTE_ARRAY";
    case parquet::Encoding::kRleDictionary: return "RLE_DICTIONARY";
    case parquet::Encoding::kByteStreamSplit: return "BYTE_STREAM_SPLIT";
  }
  return "UNKNOWN";
}

Value OptInt(const std::optional<int64_t>& v) { return v ? Value::Int64(*v) : Value::Null(columnar::Int64()); }
Value OptStr(const std::optional<std::string>& v) { return v ? Value::String(*v) : Value::Null(columnar::String()); }

Result<std::shared_ptr<const TableSource>> BindParquetMetadata(const TableFunctionArgs& args) {
  ASSIGN_OR_RETURN(auto patterns, PathArgs(args, "parquet_metadata"));
  auto fs = io::DefaultFileSystem();
  ASSIGN_OR_RETURN(auto files, scan::ExpandGlobs(*fs, patterns));
  using columnar::Int64;
  using columnar::String;
  columnar::Schema schema;
  schema.fields = {{"file_name", String(), false},          {"row_group_id", Int64(), false},
                   {"row_group_num_rows", Int64(), false},  {"row_group_num_columns", Int64(), false},
                   {"row_group_bytes", Int64(), false},     {"column_id", Int64(), false},
                   {"file_offset", Int64(), false},         {"num_values", Int64(), true},
                   {"path_in_schema", String(), false},     {"type", String(), true},
                   {"stats_min", String(), true},           {"stats_max", String(), true},
                   {"stats_null_count", Int64(), true},     {"stats_distinct_count", Int64(), true},
                   {"compression", String(), true},         {"encodings", String(), true},
                   {"index_page_offset", Int64(), true},    {"dictionary_page_offset", Int64(), true},
                   {"data_page_offset", Int64(), true},     {"total_compressed_size", Int64(), true},
                   {"total_uncompressed_size", Int64(), true}, {"has_column_index", columnar::Boolean(), false},
                   {"has_offset_index", columnar::Boolean(), false}, {"bloom_filter_offset", Int64(), true},
                   {"bloom_filter_length", Int64(), true}};
  std::vector<std::vector<Value>> rows;
  for (const std::string& path : files) {
    ASSIGN_OR_RETURN(auto reader, parquet::ParquetReader::Open(fs, path));
    const auto& md = reader->metadata();
    const auto& leaves = reader->parquet_schema().leaves();
    for (size_t g = 0; g < md.row_groups.size(); ++g) {
      const parquet::RowGroup& rg = md.row_groups[g];
      for (size_t c = 0; c < rg.columns.size(); ++c) {
        const parquet::ColumnChunk& chunk = rg.columns[c];
        std::vector<Value> row;
        row.push_back(Value::String(path));
        row.push_back(Value::Int64(static_cast<int64_t>(g)));
        row.push_back(Value::Int64(rg.num_rows));
        row.push_back(Value::Int64(static_cast<int64_t>(rg.columns.size())));
        row.push_back(Value::Int64(rg.total_byte_size));
        row.push_back(Value::Int64(static_cast<int64_t>(c)));
        row.push_back(Value::Int64(chunk.file_offset));
        const parquet::ColumnMetaData* m = chunk.meta_data ? &*chunk.meta_data : nullptr;
        row.push_back(m ? Value::Int64(m->num_values) : Value::Null(Int64()));
        std::string path_in_schema;
        if (m) {
          for (const auto& p : m->path_in_schema) path_in_schema += (path_in_schema.empty() ? "" : ".") + p;
        } else if (c < leaves.size()) {
          path_in_schema = leaves[c].dotted_path;
        }
        row.push_back(Value::String(path_in_schema));
        row.push_back(m ? Value::String(PhysicalText(m->type)) : Value::Null(String()));
        std::optional<std::string> smin, smax;
        std::optional<int64_t> nulls, distinct;
        if (m && m->statistics && c < leaves.size()) {
          std::optional<parquet::ColumnOrder> order;
          if (c < md.column_orders.size()) order = md.column_orders[c];
          auto st = parquet::DecodeStatistics(*m->statistics, leaves[c], md.schema[leaves[c].element_index], order);
          if (st.ok()) {
            if (st->min) smin = st->min->ToString();
            if (st->max) smax = st->max->ToString();
            nulls = st->null_count;
            distinct = st->distinct_count;
          }
        }
        row.push_back(OptStr(smin));
        row.push_back(OptStr(smax));
        row.push_back(OptInt(nulls));
        row.push_back(OptInt(distinct));
        row.push_back(m ? Value::String(CodecText(m->codec)) : Value::Null(String()));
        std::string enc;
        if (m) {
          for (auto e : m->encodings) enc += (enc.empty() ? "" : ", ") + std::string(EncodingText(e));
        }
        row.push_back(m ? Value::String(enc) : Value::Null(String()));
        row.push_back(OptInt(m ? m->index_page_offset : std::nullopt));
        row.push_back(OptInt(m ? m->dictionary_page_offset : std::nullopt));
        row.push_back(OptInt(m ? std::optional<int64_t>(m->data_page_offset) : std::nullopt));
        row.push_back(OptInt(m ? std::optional<int64_t>(m->total_compressed_size) : std::nullopt));
        row.push_back(OptInt(m ? std::optional<int64_t>(m->total_uncompressed_size) : std::nullopt));
        row.push_back(Value::Boolean(chunk.column_index_offset.has_value()));
        row.push_back(Value::Boolean(chunk.offset_index_offset.has_value()));
        row.push_back(OptInt(m ? m->bloom_filter_offset : std::nullopt));
        row.push_back(OptInt(m && m->bloom_filter_length ? std::optional<int64_t>(*m->bloom_filter_length)
                                                         : std::nullopt));
        rows.push_back(std::move(row));
      }
    }
  }
  return std::shared_ptr<const TableSource>(
      std::make_shared<MaterializedSource>("parquet_metadata", std::move(schema), std::move(rows)));
}

Result<std::shared_ptr<const TableSource>> BindParquetSchema(const TableFunctionArgs& args) {
  ASSIGN_OR_RETURN(auto patterns, PathArgs(args, "parquet_schema"));
  auto fs = io::DefaultFileSystem();
  ASSIGN_OR_RETURN(auto files, scan::ExpandGlobs(*fs, patterns));
  using columnar::Int64;
  using columnar::String;
  columnar::Schema schema;
  schema.fields = {{"file_name", String(), false}, {"name", String(), false},      {"type", String(), true},
                   {"type_length", Int64(), true}, {"repetition_type", String(), true},
                   {"num_children", Int64(), true}, {"converted_type", Int64(), true},
                   {"scale", Int64(), true},        {"precision", Int64(), true},  {"field_id", Int64(), true}};
  std::vector<std::vector<Value>> rows;
  for (const std::string& path : files) {
    ASSIGN_OR_RETURN(auto reader, parquet::ParquetReader::Open(fs, path));
    for (const parquet::SchemaElement& e : reader->metadata().schema) {
      auto oi = [](const std::optional<int32_t>& v) { return v ? Value::Int64(*v) : Value::Null(columnar::Int64()); };
      const char* rep = nullptr;
      if (e.repetition) {
        rep = *e.repetition == parquet::Repetition::kRequired   ? "REQUIRED"
              : *e.repetition == parquet::Repetition::kOptional ? "OPTIONAL"
                                                                : "REPEATED";
      }
      rows.push_back({Value::String(path), Value::String(e.name),
                      e.type ? Value::String(PhysicalText(*e.type)) : Value::Null(String()), oi(e.type_length),
                      rep ? Value::String(rep) : Value::Null(String()), oi(e.num_children),
                      e.converted_type ? Value::Int64(static_cast<int64_t>(*e.converted_type)) : Value::Null(Int64()),
                      oi(e.scale), oi(e.precision), oi(e.field_id)});
    }
  }
  return std::shared_ptr<const TableSource>(
      std::make_shared<MaterializedSource>("parquet_schema", std::move(schema), std::move(rows)));
}

}  // namespace

void RegisterParquetFunctions(TableFunctionRegistry* r) {
  r->Add({"read_parquet", "read_parquet(VARCHAR | VARCHAR[])", &BindReadParquet});
  r->Add({"parquet_scan", "parquet_scan(VARCHAR | VARCHAR[])", &BindReadParquet});
  r->Add({"parquet_metadata", "parquet_metadata(VARCHAR)", &BindParquetMetadata});
  r->Add({"parquet_schema", "parquet_schema(VARCHAR)", &BindParquetSchema});
}

}  // namespace shoal::sql
