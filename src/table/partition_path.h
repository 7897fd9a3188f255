// Delta partition values (PROTOCOL.md "Partition Value Serialization") and the Hive-style
// directory names shoal writes them into (`col=value/`, special characters %-escaped as Spark
// does, NULL as __HIVE_DEFAULT_PARTITION__).
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "columnar/vector.h"
#include "shoal/status.h"

namespace shoal::table {

inline constexpr std::string_view kHiveDefaultPartition = "__HIVE_DEFAULT_PARTITION__";

// The partition value string of row `row` of `v`; nullopt for NULL (and for the empty string,
// which Delta also stores as null). NotSupported for nested types and non-ASCII binary.
Result<std::optional<std::string>> SerializePartitionValue(const columnar::Vector& v, int64_t row);

// Escapes a partition column name or value for a directory name the way Hive/Spark do:
// control characters and "#%'*/:=?\{[]^ (plus DEL) become %XX.
std::string EscapePartitionPathComponent(std::string_view s);

// "col=value" for one partition column (value escaped; NULL as __HIVE_DEFAULT_PARTITION__).
std::string PartitionDirectory(std::string_view column, const std::optional<std::string>& value);

}  // namespace shoal::table
