#include "table/row_id_columns.h"

#include "txn/row_tracking.h"

namespace shoal::table {

Result<std::unique_ptr<RowIdFiller>> RowIdFiller::Make(std::shared_ptr<io::FileSystem> fs, std::string table_root,
                                                       const delta::Metadata& with_columns,
                                                       const scan::TableSchema& schema,
                                                       std::vector<delta::AddFile> files) {
  std::unique_ptr<RowIdFiller> f(new RowIdFiller());
  f->fs_ = std::move(fs);
  f->root_ = std::move(table_root);
  f->with_columns_ = with_columns;
  f->id_column_ = schema.Find(txn::MaterializedRowIdColumn(with_columns));
  f->version_column_ = schema.Find(txn::MaterializedRowCommitVersionColumn(with_columns));
  if (f->id_column_ < 0 || f->version_column_ < 0) {
    return Status::InvalidArgument("row tracking: the rewrite schema has no materialized row id columns");
  }
  f->sources_.resize(files.size());
  f->files_ = std::move(files);
  return f;
}

Status RowIdFiller::Load(size_t file) {
  Source& s = sources_[file];
  const delta::AddFile& add = files_[file];
  ASSIGN_OR_RETURN(s.ids, txn::ReadFileRowIds(fs_, root_, with_columns_, add));
  if (add.deletion_vector) {
    auto dv = delta::DeletionVector::Load(*fs_, root_, *add.deletion_vector);
    if (!dv.ok()) return dv.status().WithContext("deletion vector of " + add.path);
    s.dv = std::move(dv).value();
  }
  s.loaded = true;
  return Status::OK();
}

Result<columnar::RecordBatch> RowIdFiller::Fill(size_t file, const columnar::RecordBatch& rows) {
  if (file >= sources_.size()) return Status::Internal("RowIdFiller: unknown source " + std::to_string(file));
  if (!sources_[file].loaded) RETURN_NOT_OK(Load(file));
  Source& s = sources_[file];
  columnar::RecordBatch out = rows;
  auto ids = columnar::Vector::Make(rows.column(static_cast<size_t>(id_column_))->type(), rows.num_rows);
  auto versions = columnar::Vector::Make(rows.column(static_cast<size_t>(version_column_))->type(), rows.num_rows);
  ids->Resize(rows.num_rows);
  versions->Resize(rows.num_rows);
  int64_t* id_out = ids->data<int64_t>();
  int64_t* version_out = versions->data<int64_t>();
  bool version_nulls = false;
  const uint64_t n = s.ids.ids.size();
  const bool has_dv = !s.dv.IsEmpty();
  for (int64_t i = 0; i < rows.num_rows; ++i) {
    while (has_dv && s.cursor < n && s.dv.Contains(s.cursor)) ++s.cursor;
    if (s.cursor >= n) {
      return Status::Internal("RowIdFiller: more live rows than rows in " + files_[file].path);
    }
    id_out[i] = s.ids.ids[s.cursor];
    version_out[i] = s.ids.versions[s.cursor];
    version_nulls |= version_out[i] < 0;
    ++s.cursor;
  }
  if (version_nulls) {
    uint8_t* valid = versions->MutableValidity();
    for (int64_t i = 0; i < rows.num_rows; ++i) valid[i] = version_out[i] >= 0;
  }
  out.columns[static_cast<size_t>(id_column_)] = std::move(ids);
  out.columns[static_cast<size_t>(version_column_)] = std::move(versions);
  return out;
}

Result<columnar::RecordBatch> RowIdLookup::Append(const columnar::RecordBatch& rows, const columnar::Vector& file_ids,
                                                  const columnar::Vector& positions,
                                                  const std::shared_ptr<columnar::Schema>& out_schema) {
  if (out_schema->fields.size() != rows.num_columns() + 2) {
    return Status::Internal("RowIdLookup: the output schema is not the rows' plus the row id columns");
  }
  auto ids = columnar::Vector::Make(out_schema->fields[rows.num_columns()].type, rows.num_rows);
  ids->Resize(rows.num_rows);
  int64_t* out = ids->data<int64_t>();
  for (int64_t i = 0; i < rows.num_rows; ++i) {
    int64_t f = file_ids.IsValid(i) ? file_ids.Get<int64_t>(i) : -1;
    int64_t p = positions.IsValid(i) ? positions.Get<int64_t>(i) : -1;
    if (f < 0 || static_cast<size_t>(f) >= files_->size()) {
      // A file this transaction staged itself: its rows never had committed ids, so the new
      // version takes a fresh one (NULL materialized id).
      ids->MutableValidity()[i] = 0;
      out[i] = 0;
      continue;
    }
    auto it = cache_.find(f);
    if (it == cache_.end()) {
      ASSIGN_OR_RETURN(txn::FileRowIds read,
                       txn::ReadFileRowIds(fs_, root_, with_columns_, (*files_)[static_cast<size_t>(f)]));
      it = cache_.emplace(f, std::move(read)).first;
    }
    if (p < 0 || static_cast<size_t>(p) >= it->second.ids.size()) {
      return Status::Internal("RowIdLookup: row " + std::to_string(p) + " past the rows of " +
                              (*files_)[static_cast<size_t>(f)].path);
    }
    out[i] = it->second.ids[static_cast<size_t>(p)];
  }
  columnar::RecordBatch result = rows;
  result.schema = out_schema;
  ids->DropValidityIfAllValid();
  result.columns.push_back(std::move(ids));
  result.columns.push_back(columnar::Vector::MakeNull(out_schema->fields[rows.num_columns() + 1].type, rows.num_rows));
  return result;
}

}  // namespace shoal::table
