// Writing informational key constraints into a table's configuration (table/key_constraints.h
// says how they are kept). Shared by CREATE TABLE and ALTER TABLE ADD / DROP.
#pragma once

#include <map>
#include <string>
#include <string_view>

#include "columnar/type.h"
#include "shoal/status.h"
#include "sql/parser/ast.h"
#include "table/key_constraints.h"

namespace shoal::sql {

using table::IsKeyConstraintProperty;
using table::kKeyConstraintPrefix;
using table::PrimaryKeyProperty;

// Adds `k` to `configuration` and returns the property key it used. An unnamed constraint is
// named as Databricks does: <table>_pk, <table>_uk<N>, <table>_fk<N> (N the first free number).
// BinderException when a column is not in `schema`, a PRIMARY KEY column is nullable, the table
// already has a PRIMARY KEY, or the name is taken.
Result<std::string> AddKeyConstraint(const KeyConstraint& k, const std::string& table, const columnar::Schema& schema,
                                     std::map<std::string, std::string>* configuration);

}  // namespace shoal::sql
