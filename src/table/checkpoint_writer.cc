#include "table/checkpoint_writer.h"

#include <chrono>
#include <cstdio>

#include "delta/json_fields.h"
#include "parquet/file_writer.h"
#include "table/table_properties.h"
#include "table/uuid.h"

namespace shoal::table {

namespace c = columnar;
using c::Field;
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

enum Col { kTxn, kAdd, kRemove, kMetaData, kProtocol, kDomain, kNumCols };

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

// Appends one row: `set` fills column `which`, every other column gets a null.
template <typename F>
void Row(std::vector<c::VectorPtr>& cols, int which, F&& set) {
  for (int i = 0; i < kNumCols; ++i) {
    if (i == which) {
      set(cols[i].get());
      cols[i]->AppendStructRow();
    } else {
      cols[i]->AppendNull();
    }
  }
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

c::Schema CheckpointSchema() {
  c::Schema s;
  s.fields = {
      {"txn", c::Struct({{"appId", c::String(), true}, {"version", c::Int64(), true}, {"lastUpdated", c::Int64(), true}}),
       true},
      {"add", c::Struct({{"path", c::String(), true},
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
       true},
      {"remove", c::Struct({{"path", c::String(), true},
                            {"deletionTimestamp", c::Int64(), true},
                            {"dataChange", c::Boolean(), true},
                            {"extendedFileMetadata", c::Boolean(), true},
                            {"partitionValues", StringMapType(), true},
                            {"size", c::Int64(), true},
                            {"tags", StringMapType(), true},
                            {"deletionVector", DvType(), true},
                            {"baseRowId", c::Int64(), true},
                            {"defaultRowCommitVersion", c::Int64(), true}}),
       true},
      {"metaData", c::Struct({{"id", c::String(), true},
                              {"name", c::String(), true},
                              {"description", c::String(), true},
                              {"format", c::Struct({{"provider", c::String(), true}, {"options", StringMapType(), true}}),
                               true},
                              {"schemaString", c::String(), true},
                              {"partitionColumns", c::List(c::String()), true},
                              {"configuration", StringMapType(), true},
                              {"createdTime", c::Int64(), true}}),
       true},
      {"protocol", c::Struct({{"minReaderVersion", c::Int32(), true},
                              {"minWriterVersion", c::Int32(), true},
                              {"readerFeatures", c::List(c::String()), true},
                              {"writerFeatures", c::List(c::String()), true}}),
       true},
      {"domainMetadata",
       c::Struct({{"domain", c::String(), true}, {"configuration", c::String(), true}, {"removed", c::Boolean(), true}}),
       true},
  };
  return s;
}

Result<CheckpointInfo> WriteCheckpoint(std::shared_ptr<io::FileSystem> fs, const delta::Snapshot& snapshot,
                                       const CheckpointOptions& options) {
  auto schema = std::make_shared<c::Schema>(CheckpointSchema());
  std::vector<c::VectorPtr> cols;
  for (const auto& f : schema->fields) cols.push_back(Vector::Make(f.type));

  ASSIGN_OR_RETURN(TableProperties props, ParseTableProperties(snapshot.metadata().configuration));
  const int64_t cutoff = options.now_ms.value_or(NowMs()) - props.deleted_file_retention_ms;

  int64_t rows = 0;
  const delta::Protocol& p = snapshot.protocol();
  Row(cols, kProtocol, [&](Vector* v) {
    v->child(0)->Append<int32_t>(p.min_reader_version);
    v->child(1)->Append<int32_t>(p.min_writer_version);
    PutStringList(v->child(2).get(), p.reader_features);
    PutStringList(v->child(3).get(), p.writer_features);
  });
  ++rows;
  const delta::Metadata& m = snapshot.metadata();
  Row(cols, kMetaData, [&](Vector* v) {
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
  });
  ++rows;
  for (const auto& entry : snapshot.app_transactions()) {
    const delta::Txn& t = entry.second;  // (clang 14 cannot capture structured bindings)
    Row(cols, kTxn, [&](Vector* v) {
      v->child(0)->AppendString(t.app_id);
      v->child(1)->Append<int64_t>(t.version);
      PutLong(v->child(2).get(), t.last_updated);
    });
    ++rows;
  }
  for (const auto& entry : snapshot.domain_metadata()) {
    const delta::DomainMetadata& d = entry.second;
    Row(cols, kDomain, [&](Vector* v) {
      v->child(0)->AppendString(d.domain);
      v->child(1)->AppendString(d.configuration);
      v->child(2)->Append<uint8_t>(d.removed ? 1 : 0);
    });
    ++rows;
  }
  for (const auto& a : snapshot.files()) {
    Row(cols, kAdd, [&](Vector* v) {
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
    });
    ++rows;
  }
  for (const auto& r : snapshot.tombstones()) {
    if (r.deletion_timestamp.value_or(0) <= cutoff) continue;  // expired tombstone
    Row(cols, kRemove, [&](Vector* v) {
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
    });
    ++rows;
  }

  char name[48];
  std::snprintf(name, sizeof(name), "%020lld.checkpoint.parquet", static_cast<long long>(snapshot.version()));
  std::string log_dir = io::JoinPath(snapshot.table_root(), "_delta_log");
  std::string path = io::JoinPath(log_dir, name);
  std::string tmp_name = ".";
  tmp_name.append(name).append(".").append(RandomUuid()).append(".tmp");
  std::string tmp = io::JoinPath(log_dir, tmp_name);
  parquet::WriterProperties::Builder b;
  b.compression(options.codec);
  {
    ASSIGN_OR_RETURN(auto writer, parquet::ParquetWriter::Open(fs, tmp, *schema, b.Build()));
    RETURN_NOT_OK(writer->WriteBatch(c::RecordBatch(schema, cols, rows)));
    RETURN_NOT_OK(writer->Close().status());
  }
  RETURN_NOT_OK(fs->Rename(tmp, path));
  ASSIGN_OR_RETURN(io::FileInfo info, fs->Stat(path));

  CheckpointInfo out;
  out.version = snapshot.version();
  out.path = path;
  out.size = rows;
  out.size_in_bytes = info.size;
  out.num_add_files = static_cast<int64_t>(snapshot.num_files());
  delta::Json last = delta::Json::object();
  last["version"] = out.version;
  last["size"] = out.size;
  last["sizeInBytes"] = out.size_in_bytes;
  last["numOfAddFiles"] = out.num_add_files;
  RETURN_NOT_OK(fs->WriteAtomic(io::JoinPath(log_dir, "_last_checkpoint"), delta::JsonText(last)));
  return out;
}

}  // namespace shoal::table
