// Parses Delta's partition value strings (PROTOCOL.md "Partition Value Serialization") into
// typed values: numbers in decimal text, booleans "true"/"false", dates "YYYY-MM-DD",
// timestamps "YYYY-MM-DD HH:MM:SS[.ffffff]" (UTC for TIMESTAMP, local wall time for
// TIMESTAMP_NTZ) or ISO-8601 with an offset, decimals as plain text, binary as the string's
// bytes. A missing value, a JSON null and an empty string are NULL.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "columnar/value.h"
#include "shoal/status.h"

namespace shoal::scan {

// Corruption naming `column` and the text when it does not parse as `type`.
Result<columnar::Value> ParsePartitionValue(const std::optional<std::string>& text,
                                            const columnar::TypePtr& type,
                                            const std::string& column);

}  // namespace shoal::scan
