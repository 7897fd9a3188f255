#include "delta/checkpoint_reader.h"

namespace shoal::delta {

Status JsonCheckpointReader::Read(io::FileSystem& fs, const std::string& path,
                                  const ActionSink& sink) {
  ASSIGN_OR_RETURN(std::string text, fs.ReadAll(path));
  return ForEachActionInText(text, path, sink);
}

Status ReadCheckpointFile(io::FileSystem& fs, const CheckpointReaders& readers,
                          const std::string& path, const ActionSink& sink, const FileListSink* files,
                          int64_t known_size) {
  auto ends_with = [&](std::string_view suffix) {
    return path.size() >= suffix.size() &&
           path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  };
  if (ends_with(".json")) {
    if (!readers.json) return Status::NotSupported("no JSON checkpoint reader registered: " + path);
    return readers.json->Read(fs, path, sink);
  }
  if (ends_with(".parquet")) {
    if (!readers.parquet) {
      return Status::NotSupported("no Parquet checkpoint reader registered: cannot read " + path);
    }
    return files ? readers.parquet->ReadWithFiles(fs, path, sink, *files, known_size)
                 : readers.parquet->Read(fs, path, sink);
  }
  return Status::NotSupported("unknown checkpoint file format: " + path);
}

}  // namespace shoal::delta
