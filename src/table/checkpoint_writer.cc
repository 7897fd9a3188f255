#include "table/checkpoint_writer.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "delta/json_fields.h"
#include "delta/table_features.h"
#include "parquet/file_writer.h"
#include "table/spark_hash.h"
#include "table/table_properties.h"
#include "table/uuid.h"

namespace shoal::table {

namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string VersionName(int64_t version, const char* suffix) {
  char name[24];
  std::snprintf(name, sizeof(name), "%020lld", static_cast<long long>(version));
  return std::string(name) + suffix;
}

// Writes `rows` as a Parquet file at `path` (through a hidden temp file and a rename).
Result<io::FileInfo> WriteRows(io::FileSystem& fs, std::shared_ptr<io::FileSystem> owner, const std::string& path,
                               const CheckpointRows& rows, parquet::CompressionCodec codec) {
  std::string dir = path.substr(0, path.rfind('/'));
  std::string name = path.substr(path.rfind('/') + 1);
  std::string tmp = io::JoinPath(dir, "." + name + "." + RandomUuid() + ".tmp");
  parquet::WriterProperties::Builder b;
  b.compression(codec);
  {
    ASSIGN_OR_RETURN(auto writer, parquet::ParquetWriter::Open(owner, tmp, *rows.schema(), b.Build()));
    RETURN_NOT_OK(writer->WriteBatch(rows.Batch()));
    RETURN_NOT_OK(writer->Close().status());
  }
  RETURN_NOT_OK(fs.Rename(tmp, path));
  return fs.Stat(path);
}

// The actions of a checkpoint: non-file ones, live adds (views into the snapshot) and unexpired
// tombstones.
struct CheckpointActions {
  std::vector<delta::Action> non_file;  // protocol, metaData, txn, domainMetadata
  const std::vector<delta::AddFile>* adds = nullptr;
  std::vector<const delta::RemoveFile*> removes;
  int64_t file_actions() const { return static_cast<int64_t>(adds->size() + removes.size()); }
};

CheckpointActions CollectActions(const delta::Snapshot& snapshot, int64_t cutoff) {
  CheckpointActions a;
  a.non_file.push_back(snapshot.protocol());
  a.non_file.push_back(snapshot.metadata());
  for (const auto& entry : snapshot.app_transactions()) a.non_file.push_back(entry.second);
  for (const auto& entry : snapshot.domain_metadata()) a.non_file.push_back(entry.second);
  a.adds = &snapshot.files();
  for (const auto& r : snapshot.tombstones()) {
    if (r.deletion_timestamp.value_or(0) > cutoff) a.removes.push_back(&r);  // else expired
  }
  return a;
}

Status WriteLastCheckpoint(io::FileSystem& fs, const std::string& log_dir, const CheckpointInfo& info,
                           const delta::Json* v2) {
  delta::Json last = delta::Json::object();
  last["version"] = info.version;
  last["size"] = info.size;
  if (info.parts > 0) last["parts"] = info.parts;
  last["sizeInBytes"] = info.size_in_bytes;
  last["numOfAddFiles"] = info.num_add_files;
  if (v2) last["v2Checkpoint"] = *v2;
  return fs.WriteAtomic(io::JoinPath(log_dir, "_last_checkpoint"), delta::JsonText(last));
}

// The hash partition of a file action (PROTOCOL.md "Multi-part checkpoint"): Spark's Murmur3 of
// the path, then of the DV unique id when the table supports deletion vectors and it has one.
int32_t PartOf(std::string_view path, const std::string& dv_id, bool dv_key, int32_t parts) {
  int32_t h = SparkHashBytes(path, kSparkHashSeed);
  if (dv_key && !dv_id.empty()) h = SparkHashBytes(dv_id, h);
  return SparkPartition(h, parts);
}

Result<CheckpointInfo> WriteClassic(std::shared_ptr<io::FileSystem> fs, const delta::Snapshot& snapshot,
                                    const CheckpointActions& actions, int64_t part_size,
                                    const CheckpointOptions& options) {
  const std::string log_dir = delta::LogDirOf(snapshot.table_root());
  const int64_t total = static_cast<int64_t>(actions.non_file.size()) + actions.file_actions();
  const int64_t n = std::max<int64_t>(1, (total + part_size - 1) / part_size);
  if (n > 9999999999LL || n > INT32_MAX) return Status::InvalidArgument("checkpoint would need too many parts");
  const int32_t parts = static_cast<int32_t>(n);
  std::vector<CheckpointRows> files;  // each with its own vectors (a copy would share them)
  for (int32_t i = 0; i < parts; ++i) files.push_back(CheckpointRows::Classic());
  const bool dv_key = delta::ProtocolHasWriterFeature(snapshot.protocol(), "deletionVectors");
  // Non-file actions have a null key: Spark hashes it as the seed alone.
  const int32_t null_part = SparkPartition(kSparkHashSeed, parts);
  for (const auto& a : actions.non_file) files[null_part].Append(a);
  for (const auto& a : *actions.adds) {
    files[parts == 1 ? 0 : PartOf(a.path, a.DvUniqueId(), dv_key, parts)].Append(a);
  }
  for (const auto* r : actions.removes) {
    files[parts == 1 ? 0 : PartOf(r->path, r->DvUniqueId(), dv_key, parts)].Append(*r);
  }
  CheckpointInfo out;
  out.version = snapshot.version();
  out.num_add_files = static_cast<int64_t>(actions.adds->size());
  out.parts = parts > 1 ? parts : 0;
  for (int32_t i = 0; i < parts; ++i) {
    std::string name;
    if (parts == 1) {
      name = VersionName(snapshot.version(), ".checkpoint.parquet");
    } else {
      char suffix[48];
      std::snprintf(suffix, sizeof(suffix), ".checkpoint.%010d.%010d.parquet", i + 1, parts);
      name = VersionName(snapshot.version(), suffix);
    }
    std::string path = io::JoinPath(log_dir, name);
    ASSIGN_OR_RETURN(io::FileInfo info, WriteRows(*fs, fs, path, files[i], options.codec));
    if (i == 0) out.path = path;
    out.size += files[i].rows();
    out.size_in_bytes += info.size;
    if (options.progress) options.progress(std::min(out.size, total - 1), total);  // _last_checkpoint to go
  }
  RETURN_NOT_OK(WriteLastCheckpoint(*fs, log_dir, out, nullptr));
  if (options.progress) options.progress(total, total);
  return out;
}

// Non-file actions and sidecars inlined in _last_checkpoint up to this many (Spark inlines them
// so that a reader need not open the top-level file); beyond it only the path is recorded.
constexpr size_t kMaxInlinedActions = 1000;

Result<CheckpointInfo> WriteV2(std::shared_ptr<io::FileSystem> fs, const delta::Snapshot& snapshot,
                               const CheckpointActions& actions, int64_t part_size,
                               const CheckpointOptions& options) {
  const std::string log_dir = delta::LogDirOf(snapshot.table_root());
  const std::string sidecar_dir = io::JoinPath(log_dir, "_sidecars");
  CheckpointInfo out;
  out.version = snapshot.version();
  out.v2 = true;
  out.num_add_files = static_cast<int64_t>(actions.adds->size());

  // Sidecars: the file actions in order, `part_size` per file.
  std::vector<delta::Sidecar> sidecars;
  const int64_t total = actions.file_actions();
  if (total > 0) RETURN_NOT_OK(fs->CreateDirs(sidecar_dir));
  for (int64_t start = 0; start < total; start += part_size) {
    CheckpointRows rows = CheckpointRows::Sidecar();
    const int64_t end = std::min(total, start + part_size);
    const int64_t num_adds = static_cast<int64_t>(actions.adds->size());
    for (int64_t i = start; i < end; ++i) {
      if (i < num_adds) {
        rows.Append((*actions.adds)[i]);
      } else {
        rows.Append(*actions.removes[i - num_adds]);
      }
    }
    std::string name = RandomUuid() + ".parquet";
    std::string path = io::JoinPath(sidecar_dir, name);
    ASSIGN_OR_RETURN(io::FileInfo info, WriteRows(*fs, fs, path, rows, options.codec));
    delta::Sidecar sc;
    sc.path = name;
    sc.size_in_bytes = info.size;
    sc.modification_time = info.mtime_ms;
    sidecars.push_back(std::move(sc));
    out.sidecars.push_back(path);
    out.size += rows.rows();
    out.size_in_bytes += info.size;
    if (options.progress) options.progress(out.size, total + 1);  // the top-level file to go
  }

  // The top-level file, written after every sidecar it names.
  std::vector<delta::Action> top;
  top.push_back(delta::CheckpointMetadata{snapshot.version(), std::nullopt});
  top.insert(top.end(), actions.non_file.begin(), actions.non_file.end());
  for (const auto& sc : sidecars) top.push_back(sc);
  const std::string name = VersionName(snapshot.version(), (".checkpoint." + RandomUuid() + ".json").c_str());
  out.path = io::JoinPath(log_dir, name);
  RETURN_NOT_OK(fs->PutIfAbsent(out.path, delta::SerializeCommit(top)));
  ASSIGN_OR_RETURN(io::FileInfo info, fs->Stat(out.path));
  out.size += static_cast<int64_t>(top.size());
  out.size_in_bytes += info.size;

  delta::Json v2 = delta::Json::object();
  v2["path"] = name;
  v2["sizeInBytes"] = info.size;
  v2["modificationTime"] = info.mtime_ms;
  if (actions.non_file.size() + 1 + sidecars.size() <= kMaxInlinedActions) {
    delta::Json non_file = delta::Json::array();
    for (const auto& a : actions.non_file) non_file.push_back(delta::ActionToJson(a));
    non_file.push_back(delta::ActionToJson(top.front()));
    delta::Json files = delta::Json::array();
    for (const auto& sc : sidecars) files.push_back(delta::ActionToJson(sc)["sidecar"]);
    v2["nonFileActions"] = std::move(non_file);
    v2["sidecarFiles"] = std::move(files);
  }
  RETURN_NOT_OK(WriteLastCheckpoint(*fs, log_dir, out, &v2));
  if (options.progress) options.progress(total + 1, total + 1);
  return out;
}

}  // namespace

Result<CheckpointInfo> WriteCheckpoint(std::shared_ptr<io::FileSystem> fs, const delta::Snapshot& snapshot,
                                       const CheckpointOptions& options) {
  ASSIGN_OR_RETURN(TableProperties props, ParseTableProperties(snapshot.metadata().configuration));
  const int64_t cutoff = options.now_ms.value_or(NowMs()) - props.deleted_file_retention_ms;
  const int64_t part_size = std::max<int64_t>(1, options.part_size.value_or(props.checkpoint_part_size));
  CheckpointActions actions = CollectActions(snapshot, cutoff);
  // Multi-part checkpoints are forbidden with v2Checkpoint (PROTOCOL.md "Checkpoints").
  if (delta::ProtocolHasWriterFeature(snapshot.protocol(), "v2Checkpoint")) {
    return WriteV2(std::move(fs), snapshot, actions, part_size, options);
  }
  return WriteClassic(std::move(fs), snapshot, actions, part_size, options);
}

}  // namespace shoal::table
