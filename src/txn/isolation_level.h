// Isolation levels of Delta transactions (table property `delta.isolationLevel`) and their
// names as commitInfo records them.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <optional>
#include <string_view>

#include "delta/actions.h"

namespace shoal::txn {

enum class IsolationLevel : unsigned char {
  kSerializable,       // every concurrently added row this transaction should have read conflicts
  kWriteSerializable,  // blind appends of others never conflict (Delta's default)
  kSnapshotIsolation,  // transactions without data change (OPTIMIZE): concurrent adds never conflict
};

// "Serializable", "WriteSerializable", "SnapshotIsolation".
const char* IsolationLevelName(IsolationLevel level);
// Parses the names above (case-insensitive); nullopt for anything else.
std::optional<IsolationLevel> ParseIsolationLevel(std::string_view text);
// The table's level: `delta.isolationLevel`, WriteSerializable when absent.
// InvalidArgument names an unknown value.
Result<IsolationLevel> TableIsolationLevel(const delta::Metadata& metadata);

}  // namespace shoal::txn
