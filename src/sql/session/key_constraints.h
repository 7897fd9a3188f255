// Informational key constraints (PRIMARY KEY, UNIQUE, FOREIGN KEY ... NOT ENFORCED, as
// Databricks keeps them): Delta has no field for them, so shoal keeps each in the table's
// configuration as `shoal.constraint.<name>` = its text (other engines ignore unknown keys).
// Shared by CREATE TABLE and ALTER TABLE ADD / DROP.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "columnar/type.h"
#include "shoal/status.h"
#include "sql/parser/ast.h"

namespace shoal::sql {

inline constexpr std::string_view kKeyConstraintPrefix = "shoal.constraint.";

// True for a configuration key that holds a key constraint.
bool IsKeyConstraintProperty(std::string_view key);

// Adds `k` to `configuration` and returns the property key it used. An unnamed constraint is
// named as Databricks does: <table>_pk, <table>_uk<N>, <table>_fk<N> (N the first free number).
// BinderException when a column is not in `schema`, a PRIMARY KEY column is nullable, the table
// already has a PRIMARY KEY, or the name is taken.
Result<std::string> AddKeyConstraint(const KeyConstraint& k, const std::string& table, const columnar::Schema& schema,
                                     std::map<std::string, std::string>* configuration);

// The property key of the table's PRIMARY KEY, or empty.
std::string PrimaryKeyProperty(const std::map<std::string, std::string>& configuration);

}  // namespace shoal::sql
