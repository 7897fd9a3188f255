#include "delta/parquet_checkpoint_reader.h"

#include <algorithm>
#include <array>
#include <thread>
#include <optional>
#include <string_view>

#include "columnar/datetime.h"
#include "columnar/decimal.h"
#include "delta/checkpoint_batch_decoder.h"
#include "delta/checkpoint_batch_stream.h"
#include "delta/checkpoint_leaf_scan.h"
#include "delta/json_fields.h"
#include "parquet/file_reader.h"

namespace shoal::delta {
namespace {

constexpr std::array<std::string_view, 9> kActionColumns = {
    "add", "remove", "metaData", "protocol", "txn", "domainMetadata", "checkpointMetadata",
    "sidecar", "cdc"};

// Converts row `i` of `v` to JSON as the log writes it: structs as objects without their null
// fields, maps as objects keyed by the key's text, timestamps in the ISO form of stats JSON.
Json ToJson(const columnar::Vector& v, int64_t i) {
  using columnar::TypeId;
  if (v.IsNull(i)) return Json();
  switch (v.id()) {
    case TypeId::kNull: return Json();
    case TypeId::kBoolean: return Json(v.Get<uint8_t>(i) != 0);
    case TypeId::kInt8: return Json(int64_t{v.Get<int8_t>(i)});
    case TypeId::kInt16: return Json(int64_t{v.Get<int16_t>(i)});
    case TypeId::kInt32: return Json(int64_t{v.Get<int32_t>(i)});
    case TypeId::kInt64: return Json(v.Get<int64_t>(i));
    case TypeId::kUInt64: return Json(v.Get<uint64_t>(i));
    case TypeId::kFloat: return Json(double{v.Get<float>(i)});
    case TypeId::kDouble: return Json(v.Get<double>(i));
    case TypeId::kDecimal: {
      columnar::int128_t u = v.type()->IsWideDecimal() ? v.Get<columnar::int128_t>(i)
                                                       : columnar::int128_t{v.Get<int64_t>(i)};
      // A string keeps every digit; the scan layer's stats decoder accepts both forms.
      return Json(columnar::FormatDecimal(u, v.type()->scale()));
    }
    case TypeId::kString:
    case TypeId::kBinary: return Json(std::string(v.GetString(i)));
    case TypeId::kDate: return Json(columnar::FormatDate(v.Get<int32_t>(i)));
    case TypeId::kTime: return Json(columnar::FormatTime(v.Get<int64_t>(i)));
    case TypeId::kTimestamp:
    case TypeId::kTimestampNtz: {
      std::string s = columnar::FormatTimestamp(v.Get<int64_t>(i));
      if (s.size() > 10 && s[10] == ' ') s[10] = 'T';
      if (v.id() == TypeId::kTimestamp) s += 'Z';
      return Json(std::move(s));
    }
    case TypeId::kList: {
      Json arr = Json::array();
      const int64_t* o = v.offsets();
      for (int64_t k = o[i]; k < o[i + 1]; ++k) arr.push_back(ToJson(*v.child(0), k));
      return arr;
    }
    case TypeId::kMap: {
      Json obj = Json::object();
      const int64_t* o = v.offsets();
      const columnar::Vector& entries = *v.child(0);
      for (int64_t k = o[i]; k < o[i + 1]; ++k) {
        Json key = ToJson(*entries.child(0), k);
        std::string key_text = key.is_string() ? key.get<std::string>() : JsonText(key);
        obj[key_text] = ToJson(*entries.child(1), k);
      }
      return obj;
    }
    case TypeId::kStruct: {
      Json obj = Json::object();
      const auto& fields = v.type()->children();
      for (size_t f = 0; f < fields.size(); ++f) {
        if (v.child(f)->IsNull(i)) continue;
        obj[fields[f].name] = ToJson(*v.child(f), i);
      }
      return obj;
    }
  }
  return Json();
}

// Converts row `i` of action column `col` (named `name`) through JSON and parses it; `shown_row`
// is the row number errors report (batch-relative, as the batch loop counts).
Status EmitGeneric(const columnar::Vector& col, int64_t i, const std::string& name, const std::string& path,
                   int rg, int64_t shown_row, const ActionSink& sink) {
  if (name == "cdc") return Status::OK();  // change files do not belong in a snapshot
  Json body = ToJson(col, i);
  if (name == "add" || name == "remove") {
    // ordered_json is a vector: take the text before erasing (which moves elements).
    auto parsed_stats = body.find("stats_parsed");
    if (parsed_stats != body.end()) {
      std::optional<std::string> text;
      if (!body.contains("stats") && parsed_stats->is_object()) text = JsonText(*parsed_stats);
      body.erase("stats_parsed");
      if (text) body["stats"] = std::move(*text);
    }
    body.erase("partitionValues_parsed");
  }
  Json action = Json::object();
  action[name] = std::move(body);
  auto parsed = ParseActionJson(action);
  if (!parsed.ok()) {
    std::string shown = JsonText(action);
    if (shown.size() > 300) shown = shown.substr(0, 300) + "...";
    return parsed.status().WithContext(path + ": row group " + std::to_string(rg) + ", row " +
                                       std::to_string(shown_row) + " " + shown);
  }
  if (parsed->has_value()) RETURN_NOT_OK(sink(std::move(**parsed)));
  return Status::OK();
}

// Emits every action of rows [0, b.num_rows) of a batch, in row order; `row_base` is added to
// the row numbers errors report.
Status EmitBatch(const columnar::RecordBatch& b, const std::vector<std::string>& names, bool generic_rows,
                 const std::string& path, int rg, int64_t row_base, const ActionSink& sink) {
  std::vector<std::optional<FileActionColumnDecoder>> decoders(names.size());
  if (!generic_rows) {
    for (size_t c = 0; c < names.size(); ++c) {
      if (names[c] == "add" || names[c] == "remove") decoders[c].emplace(*b.column(c), names[c] == "add");
    }
  }
  for (int64_t row = 0; row < b.num_rows; ++row) {
    for (size_t c = 0; c < names.size(); ++c) {
      const columnar::Vector& col = *b.column(c);
      if (col.IsNull(row)) continue;
      if (decoders[c]) {
        if (auto fast = decoders[c]->Decode(row)) {
          RETURN_NOT_OK(sink(std::move(*fast)));
          continue;
        }
      }
      RETURN_NOT_OK(EmitGeneric(col, row, names[c], path, rg, row_base + row, sink));
    }
  }
  return Status::OK();
}

// Rows [start, end) of row group `rg` through the batch route, with the row numbering of a
// read from the row group's start.
Status EmitRowGroupFrom(const parquet::ParquetReader& reader, const std::vector<int>& fields,
                        const std::vector<std::string>& names, const std::string& path, int rg, int64_t start,
                        const ActionSink& sink) {
  auto opened = reader.OpenRowGroup(rg, fields);
  if (!opened.ok()) return opened.status().WithContext("checkpoint " + path);
  parquet::RowGroupReader& rgr = **opened;
  const int64_t batch_rows = reader.options().batch_rows;
  Status st = rgr.SkipRows(start);
  if (!st.ok()) return st.WithContext("checkpoint " + path);
  int64_t row_base = start % batch_rows;
  while (true) {
    auto batch = rgr.ReadBatch(batch_rows - row_base);
    if (!batch.ok()) return batch.status().WithContext("checkpoint " + path);
    if (*batch == nullptr) break;
    RETURN_NOT_OK(EmitBatch(**batch, names, false, path, rg, row_base, sink));
    row_base = 0;
  }
  return Status::OK();
}

// Reads single rows of the non-add/remove action columns of one row group for the leaf scan,
// column-wise, so the rows between them are skipped without assembling anything.
class OtherRows {
 public:
  OtherRows(const parquet::ParquetReader& reader, const std::vector<int>& fields,
            const std::vector<std::string>& names, const std::string& path, int rg)
      : reader_(reader), fields_(fields), names_(names), path_(path), rg_(rg), index_(fields.size(), -1) {}

  Status Emit(int64_t row, int c, const ActionSink& sink) {
    if (!rgr_) {
      std::vector<int> selected;
      for (size_t k = 0; k < fields_.size(); ++k) {
        if (names_[k] == "add" || names_[k] == "remove" || names_[k] == "cdc") continue;
        index_[k] = static_cast<int>(selected.size());
        selected.push_back(fields_[k]);
      }
      auto opened = reader_.OpenRowGroup(rg_, std::move(selected));
      if (!opened.ok()) return opened.status().WithContext("checkpoint " + path_);
      rgr_ = std::move(*opened);
    }
    int f = index_[c];
    if (f < 0) return Status::Internal("checkpoint " + path_ + ": no column-wise reader for " + names_[c]);
    Status st = rgr_->SkipField(f, row - rgr_->field_position(f));
    if (!st.ok()) return st.WithContext("checkpoint " + path_);
    auto v = rgr_->ReadField(f, 1);
    if (!v.ok()) return v.status().WithContext("checkpoint " + path_);
    const int64_t batch_rows = reader_.options().batch_rows;
    return EmitGeneric(**v, 0, names_[c], path_, rg_, row % batch_rows, sink);
  }

 private:
  const parquet::ParquetReader& reader_;
  const std::vector<int>& fields_;
  const std::vector<std::string>& names_;
  const std::string& path_;
  int rg_;
  std::vector<int> index_;  // column -> field of rgr_
  std::unique_ptr<parquet::RowGroupReader> rgr_;
};

}  // namespace

Status ParquetCheckpointReader::Read(io::FileSystem& fs, const std::string& path,
                                     const ActionSink& sink) {
  return ReadImpl(fs, path, sink, nullptr, -1);
}

Status ParquetCheckpointReader::ReadWithFiles(io::FileSystem& fs, const std::string& path, const ActionSink& sink,
                                              const FileListSink& files, int64_t known_size) {
  return ReadImpl(fs, path, sink, &files, known_size);
}

Status ParquetCheckpointReader::ReadImpl(io::FileSystem& fs, const std::string& path, const ActionSink& sink,
                                         const FileListSink* files, int64_t known_size) {
  // The reader only borrows `fs` for the duration of this call.
  std::shared_ptr<io::FileSystem> borrowed(&fs, [](io::FileSystem*) {});
  auto opened = parquet::ParquetReader::Open(borrowed, path, {}, nullptr, known_size);
  if (!opened.ok()) return opened.status().WithContext("checkpoint " + path);
  const parquet::ParquetReader& reader = **opened;
  const columnar::Schema& schema = *reader.schema();
  std::vector<int> fields;
  std::vector<std::string> names;
  for (size_t f = 0; f < schema.size(); ++f) {
    for (std::string_view a : kActionColumns) {
      if (schema[f].name == a) {
        fields.push_back(static_cast<int>(f));
        names.push_back(schema[f].name);
      }
    }
  }
  if (fields.empty()) return Status::OK();  // no action columns: an empty checkpoint part
  if (!generic_rows_ && !assembled_rows_) {
    CheckpointLeafScan scan(reader, fields, names);
    if (scan.usable()) {
      if (run_rows_ > 0) scan.set_run_rows(run_rows_);
      for (int rg = 0; rg < reader.num_row_groups(); ++rg) {
        OtherRows other(reader, fields, names, path, rg);
        auto other_fn = [&](int, int64_t row, int c) { return other.Emit(row, c, sink); };
        ASSIGN_OR_RETURN(int64_t stop, scan.ReadRowGroup(rg, sink, other_fn, files));
        if (stop < reader.row_group_num_rows(rg)) {
          RETURN_NOT_OK(EmitRowGroupFrom(reader, fields, names, path, rg, stop, sink));
        }
      }
      return Status::OK();
    }
  }
  int workers = threads_ > 0 ? threads_ : static_cast<int>(std::min(8u, std::max(2u, std::thread::hardware_concurrency())) - 1);
  CheckpointBatchStream stream(reader, fields, path, workers);
  while (true) {
    int rg = 0;
    auto batch = stream.Next(&rg);
    if (!batch.ok()) return batch.status();
    if (*batch == nullptr) break;
    RETURN_NOT_OK(EmitBatch(**batch, names, generic_rows_, path, rg, 0, sink));
  }
  return Status::OK();
}

CheckpointReaders DefaultCheckpointReaders() {
  CheckpointReaders r;
  r.parquet = std::make_shared<ParquetCheckpointReader>();
  return r;
}

}  // namespace shoal::delta
