#include "table/restore.h"

#include <algorithm>
#include <set>
#include <unordered_set>

#include "delta/deletion_vector.h"
#include "delta/table_features.h"
#include "delta/table_path.h"

namespace shoal::table {

namespace {

std::string FileKey(const delta::AddFile& f) { return f.path + '\n' + f.DvUniqueId(); }

// The union of both protocols' features (reader 3 / writer 7 when either lists features).
std::optional<delta::Protocol> MergeProtocols(const delta::Protocol& current, const delta::Protocol& target) {
  std::vector<std::string> reader = delta::RequiredReaderFeatures(current);
  std::vector<std::string> writer = delta::RequiredWriterFeatures(current);
  bool changed = false;
  for (const auto& f : delta::RequiredWriterFeatures(target)) {
    if (std::find(writer.begin(), writer.end(), f) == writer.end()) writer.push_back(f), changed = true;
  }
  for (const auto& f : delta::RequiredReaderFeatures(target)) {
    if (std::find(reader.begin(), reader.end(), f) == reader.end()) reader.push_back(f), changed = true;
  }
  if (!changed) return std::nullopt;
  delta::Protocol p;
  p.min_writer_version = 7;
  p.writer_features = writer;
  p.min_reader_version = reader.empty() ? 1 : 3;
  if (!reader.empty()) p.reader_features = reader;
  return p;
}

}  // namespace

Result<RestoreMetrics> StageRestore(txn::Transaction* txn, io::FileSystem& fs, const delta::Snapshot& current,
                                    const delta::Snapshot& target) {
  if (target.version() > current.version()) {
    return Status::InvalidArgument("Cannot restore table to version " + std::to_string(target.version()) +
                                   ". Available versions: [0, " + std::to_string(current.version()) + "].");
  }
  std::unordered_set<std::string> live, wanted;
  for (const auto& f : current.files()) live.insert(FileKey(f));
  for (const auto& f : target.files()) wanted.insert(FileKey(f));

  RestoreMetrics m;
  std::vector<const delta::AddFile*> to_add;
  std::vector<std::string> missing;
  for (const auto& f : target.files()) {
    m.table_size_after_restore += f.size;
    ++m.num_of_files_after_restore;
    if (live.count(FileKey(f))) continue;
    to_add.push_back(&f);
    ASSIGN_OR_RETURN(std::string local, delta::ResolveTablePath(current.table_root(), f.path));
    ASSIGN_OR_RETURN(bool exists, fs.Exists(local));
    if (exists && f.deletion_vector && f.deletion_vector->storage_type != 'i') {
      ASSIGN_OR_RETURN(std::string dv, delta::DeletionVectorFilePath(current.table_root(), *f.deletion_vector));
      ASSIGN_OR_RETURN(exists, fs.Exists(dv));
      if (!exists && missing.size() < 100) missing.push_back(dv);
    } else if (!exists && missing.size() < 100) {
      missing.push_back(local);
    }
  }
  if (!missing.empty()) {
    std::string list;
    for (const auto& p : missing) list += "\n  " + p;
    return Status::InvalidArgument("Not all files from version " + std::to_string(target.version()) +
                                   " are available in file system (were they vacuumed?).\nMissed files (top 100 "
                                   "files):" + list + "\nPlease use a more recent version or timestamp for restoring.");
  }
  txn->ReadWholeTable();
  for (const auto& f : current.files()) {
    if (wanted.count(FileKey(f))) continue;
    RETURN_NOT_OK(txn->RemoveFile(f));
    ++m.num_removed_files;
    m.removed_files_size += f.size;
  }
  for (const delta::AddFile* f : to_add) {
    delta::AddFile add = *f;
    add.data_change = true;
    txn->AddFile(std::move(add));
    ++m.num_restored_files;
    m.restored_files_size += f->size;
  }
  if (!(target.metadata() == current.metadata())) txn->UpdateMetadata(target.metadata());
  if (auto p = MergeProtocols(current.protocol(), target.protocol())) txn->UpdateProtocol(*p);
  return m;
}

delta::Json RestoreMetricsJson(const RestoreMetrics& m) {
  delta::Json j = delta::Json::object();
  j["numRestoredFiles"] = std::to_string(m.num_restored_files);
  j["removedFilesSize"] = std::to_string(m.removed_files_size);
  j["numRemovedFiles"] = std::to_string(m.num_removed_files);
  j["restoredFilesSize"] = std::to_string(m.restored_files_size);
  j["numOfFilesAfterRestore"] = std::to_string(m.num_of_files_after_restore);
  j["tableSizeAfterRestore"] = std::to_string(m.table_size_after_restore);
  return j;
}

}  // namespace shoal::table
