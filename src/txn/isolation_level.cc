#include "txn/isolation_level.h"

#include <algorithm>
#include <cctype>
#include <string>

namespace shoal::txn {

const char* IsolationLevelName(IsolationLevel level) {
  switch (level) {
    case IsolationLevel::kSerializable: return "Serializable";
    case IsolationLevel::kWriteSerializable: return "WriteSerializable";
    case IsolationLevel::kSnapshotIsolation: return "SnapshotIsolation";
  }
  return "WriteSerializable";
}

std::optional<IsolationLevel> ParseIsolationLevel(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "serializable") return IsolationLevel::kSerializable;
  if (lower == "writeserializable") return IsolationLevel::kWriteSerializable;
  if (lower == "snapshotisolation") return IsolationLevel::kSnapshotIsolation;
  return std::nullopt;
}

Result<IsolationLevel> TableIsolationLevel(const delta::Metadata& metadata) {
  auto it = metadata.configuration.find("delta.isolationLevel");
  if (it == metadata.configuration.end()) return IsolationLevel::kWriteSerializable;
  auto level = ParseIsolationLevel(it->second);
  if (!level || *level == IsolationLevel::kSnapshotIsolation) {
    return Status::InvalidArgument("unknown delta.isolationLevel '" + it->second +
                                   "' (expected Serializable or WriteSerializable)");
  }
  return *level;
}

}  // namespace shoal::txn
