// Computes the metadata (and protocol upgrade) of ALTER TABLE t ALTER COLUMN c SET DEFAULT e /
// DROP DEFAULT: the column's "CURRENT_DEFAULT" metadata holds the default's SQL text, and the
// allowColumnDefaults writer feature is added the first time a table gets a default (Delta
// never removes a feature implicitly). Validating the expression is the caller's job (it needs
// the SQL binder, a layer above this one).
//
// Thread-safety: pure functions over plain values.
#pragma once

#include <optional>
#include <string>

#include "delta/actions.h"
#include "shoal/status.h"
#include "table/alter_schema.h"

namespace shoal::table {

// Sets (`expression` present) or drops (std::nullopt) the default of top-level column `column`
// (case-insensitive). Errors: unknown column, a default on a generated or identity column.
// Dropping a default that is not set is a no-op, as in Spark.
Result<AlterResult> SetColumnDefault(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                     const std::string& column, const std::optional<std::string>& expression);

}  // namespace shoal::table
