#include "table/change_data_writer.h"

#include <strings.h>

#include "delta/schema_json.h"
#include "delta/table_path.h"
#include "scan/delta_schema.h"
#include "table/live_rows_reader.h"

namespace shoal::table {
namespace {

// Parquet field id of `_change_type` in id-mapped tables: far above the ids column mapping
// assigns (maxColumnId counts up from 1) and below row tracking's (txn/row_id_remap.cc).
constexpr int32_t kChangeTypeFieldId = 2147482999;

}  // namespace

const char* ChangeTypeName(ChangeType type) {
  switch (type) {
    case ChangeType::kInsert: return "insert";
    case ChangeType::kDelete: return "delete";
    case ChangeType::kUpdatePreimage: return "update_preimage";
    case ChangeType::kUpdatePostimage: return "update_postimage";
  }
  return "insert";
}

bool ChangeDataFeedEnabled(const delta::Metadata& metadata) {
  auto it = metadata.configuration.find("delta.enableChangeDataFeed");
  return it != metadata.configuration.end() && strcasecmp(it->second.c_str(), "true") == 0;
}

Result<delta::Metadata> ChangeDataMetadata(const delta::Metadata& metadata) {
  ASSIGN_OR_RETURN(delta::Json schema, delta::ParseJson(metadata.schema_string, "schemaString"));
  if (!schema.is_object() || !schema.contains("fields") || !schema["fields"].is_array()) {
    return Status::Corruption("schemaString has no fields array");
  }
  for (const auto& f : schema["fields"]) {
    if (f.is_object() && f.contains("name") && f["name"].is_string() &&
        strcasecmp(f["name"].get<std::string>().c_str(), kChangeTypeColumn) == 0) {
      return Status::InvalidArgument(
          "the table has a column named _change_type, which the change data feed reserves "
          "(PROTOCOL.md \"Change Data Files\")");
    }
  }
  delta::Metadata out;
  out.id = metadata.id;
  out.format = metadata.format;
  out.partition_columns = metadata.partition_columns;
  auto mode = metadata.configuration.find("delta.columnMapping.mode");
  const bool mapped =
      mode != metadata.configuration.end() && (mode->second == "name" || mode->second == "id");
  if (mode != metadata.configuration.end()) out.configuration.insert(*mode);
  schema["fields"].push_back(delta::HiddenFieldJson(kChangeTypeColumn, "string", false, mapped, kChangeTypeFieldId));
  out.schema_string = delta::JsonText(schema);
  return out;
}

Result<std::unique_ptr<ChangeDataWriter>> ChangeDataWriter::Make(std::shared_ptr<io::FileSystem> fs,
                                                                 const std::string& table_root,
                                                                 const delta::Metadata& metadata) {
  ASSIGN_OR_RETURN(delta::Metadata layout, ChangeDataMetadata(metadata));
  std::unique_ptr<ChangeDataWriter> w(new ChangeDataWriter());
  DataFileWriterOptions o;
  o.data_change = false;
  o.local_sort_columns = std::vector<std::string>{};
  ASSIGN_OR_RETURN(w->writer_, DataFileWriter::Make(std::move(fs), io::JoinPath(table_root, kChangeDataDir),
                                                    layout, std::move(o)));
  w->schema_ = std::make_shared<columnar::Schema>(w->writer_->schema());
  return w;
}

Status ChangeDataWriter::Write(const columnar::RecordBatch& batch, size_t first, const uint32_t* sel,
                               int64_t m, ChangeType type) {
  if (m == 0) return Status::OK();
  const size_t n = schema_->fields.size() - 1;
  if (first + n > batch.columns.size()) {
    return Status::Internal("change rows: the batch has " + std::to_string(batch.columns.size()) +
                            " columns, fewer than the table's " + std::to_string(n) + " from " +
                            std::to_string(first));
  }
  std::vector<columnar::VectorPtr> cols(batch.columns.begin() + static_cast<long>(first),
                                        batch.columns.begin() + static_cast<long>(first + n));
  columnar::RecordBatch rows(schema_, std::move(cols), batch.num_rows);
  if (sel) rows = *columnar::GatherBatch(rows, sel, m);
  rows.schema = schema_;
  rows.columns.push_back(columnar::Value::String(ChangeTypeName(type)).Broadcast(m));
  rows.num_rows = m;
  rows_ += m;
  return writer_->Write(rows);
}

Status ChangeDataWriter::Stage(const std::string& table_root, txn::Transaction* txn,
                               std::vector<std::string>* staged_files) {
  ASSIGN_OR_RETURN(std::vector<delta::AddFile> files, writer_->Finish());
  for (delta::AddFile& f : files) {
    delta::AddCdcFile cdc;
    cdc.path = kChangeDataDir;
    cdc.path.append("/").append(f.path);
    cdc.partition_values = std::move(f.partition_values);
    cdc.size = f.size;
    cdc.data_change = false;
    ASSIGN_OR_RETURN(std::string local, delta::ResolveTablePath(table_root, cdc.path));
    staged_files->push_back(std::move(local));
    txn->AddChangeFile(std::move(cdc));
  }
  return Status::OK();
}

Status StageWriteSetChanges(const std::shared_ptr<io::FileSystem>& fs, const txn::WriteSet& before,
                            txn::Transaction* txn, std::vector<std::string>* staged_files) {
  const txn::WriteSet& now = txn->write_set();
  if (!ChangeDataFeedEnabled(txn->metadata()) || !now.data_change ||
      now.cdc_files.size() != before.cdc_files.size()) {
    return Status::OK();
  }
  std::vector<delta::AddFile> files;
  std::vector<std::optional<delta::DeletionVector>> positions;
  std::vector<ChangeType> types;
  for (size_t i = before.adds.size(); i < now.adds.size(); ++i) {
    files.push_back(now.adds[i]);
    positions.emplace_back();
    types.push_back(ChangeType::kInsert);
  }
  for (const auto& [path, rm] : now.removes) {
    if (before.removes.count(path)) continue;
    delta::AddFile f;
    f.path = rm.path;
    f.partition_values = rm.partition_values.value_or(delta::PartitionValues{});
    f.size = rm.size.value_or(0);
    f.deletion_vector = rm.deletion_vector;
    files.push_back(std::move(f));
    positions.emplace_back();
    types.push_back(ChangeType::kDelete);
  }
  for (const auto& [path, del] : now.row_deletes) {
    delta::DeletionVector fresh = del.rows;
    auto old = before.row_deletes.find(path);
    if (old != before.row_deletes.end()) {
      delta::DeletionVector only_new;
      for (uint64_t r : fresh.ToVector()) {
        if (!old->second.rows.Contains(r)) only_new.Add(r);
      }
      fresh = std::move(only_new);
    }
    if (fresh.IsEmpty()) continue;
    files.push_back(del.base);
    positions.emplace_back(std::move(fresh));
    types.push_back(ChangeType::kDelete);
  }
  if (files.empty()) return Status::OK();
  const std::string& root = txn->table_root();
  ASSIGN_OR_RETURN(scan::TableSchema schema, scan::BuildTableSchema(txn->metadata()));
  auto table = std::make_shared<const scan::TableSchema>(std::move(schema));
  ASSIGN_OR_RETURN(auto writer, ChangeDataWriter::Make(fs, root, txn->metadata()));
  RETURN_NOT_OK(ReadRowsAt(fs, root, table, std::move(files), positions,
                           [&](size_t file, const columnar::RecordBatch& rows) {
                             return writer->Write(rows, 0, nullptr, rows.num_rows, types[file]);
                           }));
  return writer->Stage(root, txn, staged_files);
}

}  // namespace shoal::table
