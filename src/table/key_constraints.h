// Informational key constraints in a Delta table's configuration (PRIMARY KEY, UNIQUE, FOREIGN
// KEY ... NOT ENFORCED, as Databricks keeps them). Delta has no field for them, so shoal keeps
// each as `shoal.constraint.<name>` = its SQL text, e.g. `PRIMARY KEY (a, b) NOT ENFORCED RELY`
// (other engines ignore unknown keys). The SQL layer writes them (sql/session/key_constraints.h);
// this file reads them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace shoal::table {

inline constexpr std::string_view kKeyConstraintPrefix = "shoal.constraint.";

// True for a configuration key that holds a key constraint.
bool IsKeyConstraintProperty(std::string_view key);

// The configuration key of the table's PRIMARY KEY, or empty.
std::string PrimaryKeyProperty(const std::map<std::string, std::string>& configuration);

// The columns of a PRIMARY KEY or UNIQUE constraint declared RELY (the optimizer may trust it),
// given one configuration entry; nullopt for any other entry.
std::optional<std::vector<std::string>> RelyUniqueKeyColumns(std::string_view key, std::string_view text);

}  // namespace shoal::table
