#include "table/checkpoint_rows.h"

#include <type_traits>

namespace shoal::table {

namespace c = columnar;
using c::Vector;

namespace {

c::TypePtr StringMapType() { return c::Map(c::String(), c::String(), true); }

c::TypePtr DvType() {
  return c::Struct({{"storageType", c::String(), true},
                    {"pathOrInlineDv", c::String(), true},
                    {"offset", c::Int32(), true},
                    {"sizeInBytes", c::Int32(), true},
                    {"cardinality", c::Int64(), true}});
}

c::Field ColumnField(CheckpointColumn kind) {
  switch (kind) {
    case CheckpointColumn::kTxn:
      return {"txn",
              c::Struct({{"appId", c::String(), true}, {"version", c::Int64(), true}, {"lastUpdated", c::Int64(), true}}),
              true};
    case CheckpointColumn::kAdd:
      return {"add",
              c::Struct({{"path", c::String(), true},
                         {"partitionValues", StringMapType(), true},
                         {"size", c::Int64(), true},
                         {"modificationTime", c::Int64(), true},
                         {"dataChange", c::Boolean(), true},
                         {"tags", StringMapType(), true},
                         {"deletionVector", DvType(), true},
                         {"baseRowId", c::Int64(), true},
                         {"defaultRowCommitVersion", c::Int64(), true},
                         {"clusteringProvider", c::String(), true},
                         {"stats", c::String(), true}}),
              true};
    case CheckpointColumn::kRemove:
      return {"remove",
              c::Struct({{"path", c::String(), true},
                         {"deletionTimestamp", c::Int64(), true},
                         {"dataChange", c::Boolean(), true},
                         {"extendedFileMetadata", c::Boolean(), true},
                         {"partitionValues", StringMapType(), true},
                         {"size", c::Int64(), true},
                         {"tags", StringMapType(), true},
                         {"deletionVector", DvType(), true},
                         {"baseRowId", c::Int64(), true},
                         {"defaultRowCommitVersion", c::Int64(), true}}),
              true};
    case CheckpointColumn::kMetaData:
      return {"metaData",
              c::Struct({{"id", c::String(), true},
                         {"name", c::String(), true},
                         {"description", c::String(), true},
                         {"format", c::Struct({{"provider", c::String(), true}, {"options", StringMapType(), true}}),
                          true},
                         {"schemaString", c::String(), true},
                         {"partitionColumns", c::List(c::String()), true},
                         {"configuration", StringMapType(), true},
                         {"createdTime", c::Int64(), true}}),
              true};
    case CheckpointColumn::kProtocol:
      return {"protocol",
              c::Struct({{"minReaderVersion", c::Int32(), true},
                         {"minWriterVersion", c::Int32(), true},
                         {"readerFeatures", c::List(c::String()), true},
                         {"writerFeatures", c::List(c::String()), true}}),
              true};
    case CheckpointColumn::kDomainMetadata:
      return {"domainMetadata",
              c::Struct({{"domain", c::String(), true}, {"configuration", c::String(), true}, {"removed", c::Boolean(), true}}),
              true};
  }
  return {};
}

void PutString(Vector* v, const std::optional<std::string>& s) {
  if (s) v->AppendString(*s);
  else v->AppendNull();
}
void PutLong(Vector* v, const std::optional<int64_t>& x) {
  if (x) v->Append<int64_t>(*x);
  else v->AppendNull();
}
void PutInt(Vector* v, const std::optional<int32_t>& x) {
  if (x) v->Append<int32_t>(*x);
  else v->AppendNull();
}
void PutBool(Vector* v, const std::optional<bool>& x) {
  if (x) v->Append<uint8_t>(*x ? 1 : 0);
  else v->AppendNull();
}
template <typename M>
void PutMap(Vector* v, const std::optional<M>& m) {
  if (!m) {
    v->AppendNull();
    return;
  }
  Vector* entries = v->child(0).get();
  for (const auto& [k, val] : *m) {
    entries->child(0)->AppendString(k);
    if constexpr (std::is_same_v<std::decay_t<decltype(val)>, std::optional<std::string>>) {
      PutString(entries->child(1).get(), val);
    } else {
      entries->child(1)->AppendString(val);
    }
    entries->AppendStructRow();
  }
  v->AppendListEnd();
}
void PutStringList(Vector* v, const std::optional<std::vector<std::string>>& l) {
  if (!l) {
    v->AppendNull();
    return;
  }
  for (const auto& s : *l) v->child(0)->AppendString(s);
  v->AppendListEnd();
}
void PutDv(Vector* v, const std::optional<delta::DeletionVectorDescriptor>& dv) {
  if (!dv) {
    v->AppendNull();
    return;
  }
  v->child(0)->AppendString(std::string(1, dv->storage_type));
  v->child(1)->AppendString(dv->path_or_inline_dv);
  PutInt(v->child(2).get(), dv->offset);
  v->child(3)->Append<int32_t>(dv->size_in_bytes);
  v->child(4)->Append<int64_t>(dv->cardinality);
  v->AppendStructRow();
}

void FillProtocol(Vector* v, const delta::Protocol& p) {
  v->child(0)->Append<int32_t>(p.min_reader_version);
  v->child(1)->Append<int32_t>(p.min_writer_version);
  PutStringList(v->child(2).get(), p.reader_features);
  PutStringList(v->child(3).get(), p.writer_features);
}

void FillMetadata(Vector* v, const delta::Metadata& m) {
  v->child(0)->AppendString(m.id);
  PutString(v->child(1).get(), m.name);
  PutString(v->child(2).get(), m.description);
  Vector* format = v->child(3).get();
  format->child(0)->AppendString(m.format.provider);
  PutMap(format->child(1).get(), std::optional<delta::StringMap>(m.format.options));
  format->AppendStructRow();
  v->child(4)->AppendString(m.schema_string);
  PutStringList(v->child(5).get(), std::optional<std::vector<std::string>>(m.partition_columns));
  PutMap(v->child(6).get(), std::optional<delta::StringMap>(m.configuration));
  PutLong(v->child(7).get(), m.created_time);
}

void FillAdd(Vector* v, const delta::AddFile& a) {
  v->child(0)->AppendString(a.path);
  PutMap(v->child(1).get(), std::optional<delta::PartitionValues>(a.partition_values));
  v->child(2)->Append<int64_t>(a.size);
  v->child(3)->Append<int64_t>(a.modification_time);
  // Checkpoints record the reconciled state, so dataChange is false (PROTOCOL.md).
  v->child(4)->Append<uint8_t>(0);
  PutMap(v->child(5).get(), a.tags);
  PutDv(v->child(6).get(), a.deletion_vector);
  PutLong(v->child(7).get(), a.base_row_id);
  PutLong(v->child(8).get(), a.default_row_commit_version);
  PutString(v->child(9).get(), a.clustering_provider);
  PutString(v->child(10).get(), a.stats);
}

void FillRemove(Vector* v, const delta::RemoveFile& r) {
  v->child(0)->AppendString(r.path);
  PutLong(v->child(1).get(), r.deletion_timestamp);
  v->child(2)->Append<uint8_t>(0);
  PutBool(v->child(3).get(), r.extended_file_metadata);
  PutMap(v->child(4).get(), r.partition_values);
  PutLong(v->child(5).get(), r.size);
  PutMap(v->child(6).get(), r.tags);
  PutDv(v->child(7).get(), r.deletion_vector);
  PutLong(v->child(8).get(), r.base_row_id);
  PutLong(v->child(9).get(), r.default_row_commit_version);
}

}  // namespace

CheckpointRows::CheckpointRows(std::vector<CheckpointColumn> columns) : kinds_(std::move(columns)) {
  schema_ = std::make_shared<c::Schema>();
  for (CheckpointColumn k : kinds_) {
    schema_->fields.push_back(ColumnField(k));
    cols_.push_back(Vector::Make(schema_->fields.back().type));
  }
}

CheckpointRows CheckpointRows::Classic() {
  return CheckpointRows({CheckpointColumn::kTxn, CheckpointColumn::kAdd, CheckpointColumn::kRemove,
                         CheckpointColumn::kMetaData, CheckpointColumn::kProtocol, CheckpointColumn::kDomainMetadata});
}

CheckpointRows CheckpointRows::Sidecar() { return CheckpointRows({CheckpointColumn::kAdd, CheckpointColumn::kRemove}); }

bool CheckpointRows::Put(CheckpointColumn kind, const std::function<void(columnar::Vector*)>& fill) {
  size_t which = kinds_.size();
  for (size_t i = 0; i < kinds_.size(); ++i) {
    if (kinds_[i] == kind) which = i;
  }
  if (which == kinds_.size()) return false;
  for (size_t i = 0; i < cols_.size(); ++i) {
    if (i != which) {
      cols_[i]->AppendNull();
      continue;
    }
    fill(cols_[i].get());
    cols_[i]->AppendStructRow();
  }
  ++rows_;
  return true;
}

bool CheckpointRows::Append(const delta::AddFile& a) {
  return Put(CheckpointColumn::kAdd, [&](Vector* v) { FillAdd(v, a); });
}

bool CheckpointRows::Append(const delta::RemoveFile& r) {
  return Put(CheckpointColumn::kRemove, [&](Vector* v) { FillRemove(v, r); });
}

bool CheckpointRows::Append(const delta::Action& action) {
  switch (action.index()) {
    case 0:
      return Put(CheckpointColumn::kProtocol, [&](Vector* v) { FillProtocol(v, std::get<delta::Protocol>(action)); });
    case 1:
      return Put(CheckpointColumn::kMetaData, [&](Vector* v) { FillMetadata(v, std::get<delta::Metadata>(action)); });
    case 2:
      return Append(std::get<delta::AddFile>(action));
    case 3:
      return Append(std::get<delta::RemoveFile>(action));
    case 5:
      return Put(CheckpointColumn::kTxn, [&](Vector* v) {
        const auto& t = std::get<delta::Txn>(action);
        v->child(0)->AppendString(t.app_id);
        v->child(1)->Append<int64_t>(t.version);
        PutLong(v->child(2).get(), t.last_updated);
      });
    case 7:
      return Put(CheckpointColumn::kDomainMetadata, [&](Vector* v) {
        const auto& d = std::get<delta::DomainMetadata>(action);
        v->child(0)->AppendString(d.domain);
        v->child(1)->AppendString(d.configuration);
        v->child(2)->Append<uint8_t>(d.removed ? 1 : 0);
      });
    default:
      return false;
  }
}

c::RecordBatch CheckpointRows::Batch() const { return c::RecordBatch(schema_, cols_, rows_); }

c::Schema CheckpointSchema() { return *CheckpointRows::Classic().schema(); }

}  // namespace shoal::table
