#include "delta/table_features.h"

#include <algorithm>

namespace shoal::delta {

const std::vector<TableFeature>& KnownTableFeatures() {
  static const std::vector<TableFeature> kFeatures = {
      {"appendOnly", false, true, true},
      {"invariants", false, true, true},
      {"checkConstraints", false, true, true},
      {"changeDataFeed", false, true, true},
      {"generatedColumns", false, true, true},
      {"columnMapping", true, true, true},
      {"identityColumns", false, true, true},
      {"deletionVectors", true, true, true},
      {"rowTracking", false, true, true},
      {"timestampNtz", true, true, true},
      {"typeWidening", true, true, true},
      {"typeWidening-preview", true, true, true},
      {"domainMetadata", false, true, true},
      {"v2Checkpoint", true, true, true},  // V2 checkpoints with sidecars (table/checkpoint_writer.h)
      {"vacuumProtocolCheck", true, true, true},
      {"inCommitTimestamp", false, true, true},
      {"allowColumnDefaults", false, true, true},
      {"icebergCompatV1", false, true, false},
      {"icebergCompatV2", false, true, false},
  };
  return kFeatures;
}

const TableFeature* FindTableFeature(std::string_view name) {
  for (const auto& f : KnownTableFeatures()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

std::vector<std::string> RequiredReaderFeatures(const Protocol& p) {
  if (p.min_reader_version >= 3) return p.reader_features.value_or(std::vector<std::string>{});
  if (p.min_reader_version == 2) return {"columnMapping"};
  return {};
}

std::vector<std::string> RequiredWriterFeatures(const Protocol& p) {
  if (p.min_writer_version >= 7) return p.writer_features.value_or(std::vector<std::string>{});
  std::vector<std::string> out;
  int w = p.min_writer_version;
  if (w >= 2) out.insert(out.end(), {"appendOnly", "invariants"});
  if (w >= 3) out.push_back("checkConstraints");
  if (w >= 4) out.insert(out.end(), {"changeDataFeed", "generatedColumns"});
  if (w >= 5) out.push_back("columnMapping");
  if (w >= 6) out.push_back("identityColumns");
  return out;
}

bool ProtocolHasReaderFeature(const Protocol& p, std::string_view feature) {
  auto fs = RequiredReaderFeatures(p);
  return std::find(fs.begin(), fs.end(), feature) != fs.end();
}

bool ProtocolHasWriterFeature(const Protocol& p, std::string_view feature) {
  auto fs = RequiredWriterFeatures(p);
  return std::find(fs.begin(), fs.end(), feature) != fs.end();
}

Status CheckCanRead(const Protocol& p) {
  if (p.min_reader_version < 1 || p.min_reader_version > kMaxReaderVersion) {
    return Status::NotSupported("table requires reader version " +
                                std::to_string(p.min_reader_version) +
                                " which shoal does not support (supported: 1 to " +
                                std::to_string(kMaxReaderVersion) + ")");
  }
  for (const auto& name : RequiredReaderFeatures(p)) {
    const TableFeature* f = FindTableFeature(name);
    if (!f || !f->shoal_reads) {
      return Status::NotSupported("table requires reader feature '" + name +
                                  "' which shoal does not support");
    }
  }
  return Status::OK();
}

Status CheckCanWrite(const Protocol& p) {
  RETURN_NOT_OK(CheckCanRead(p));
  if (p.min_writer_version < 1 || p.min_writer_version > kMaxWriterVersion) {
    return Status::NotSupported("table requires writer version " +
                                std::to_string(p.min_writer_version) +
                                " which shoal does not support (supported: 1 to " +
                                std::to_string(kMaxWriterVersion) + ")");
  }
  for (const auto& name : RequiredWriterFeatures(p)) {
    const TableFeature* f = FindTableFeature(name);
    if (!f || !f->shoal_writes) {
      return Status::NotSupported("table requires writer feature '" + name +
                                  "' which shoal does not support");
    }
  }
  return Status::OK();
}

}  // namespace shoal::delta
