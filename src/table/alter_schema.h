// Computes the metadata (and, when a feature must be added, the protocol) that one ALTER TABLE
// commits: ADD/RENAME/DROP COLUMNS, SET/UNSET TBLPROPERTIES, SET/DROP NOT NULL and
// ADD/DROP CONSTRAINT, with Delta's rules and error texts (column mapping required for rename
// and drop, no NOT NULL on added columns, protocols are only ever upgraded). Checking existing
// rows against a new NOT NULL or CHECK constraint is the caller's job (it needs a scan).
//
// Thread-safety: pure functions over plain values.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "columnar/type.h"
#include "delta/actions.h"
#include "shoal/status.h"
#include "table/delta_schema_writer.h"

namespace shoal::table {

// The outcome of one ALTER TABLE: what to stage in the transaction and what commitInfo says.
struct AlterResult {
  delta::Metadata metadata;
  std::optional<delta::Protocol> protocol;  // set only when the protocol must be upgraded
  std::string operation;                    // commitInfo.operation, as Spark names it
  delta::Json parameters = delta::Json::object();  // commitInfo.operationParameters
};

// Adds top-level columns at the end. Errors: a NOT NULL column (Delta forbids it), a name
// that already exists (case-insensitive), identity/generated extras.
Result<AlterResult> AddColumns(const delta::Metadata& metadata, const delta::Protocol& protocol,
                               const columnar::Schema& columns, const ColumnSpecs& specs = {});

// Renames a top-level column (`path` of one name) or a nested struct field (dotted path);
// needs column mapping (name or id): the logical name changes, the physical name stays.
Result<AlterResult> RenameColumn(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                 const std::vector<std::string>& path, const std::string& new_name);

// Drops top-level columns; needs column mapping. Missing columns are an error unless
// `if_exists`; partition columns and the last remaining column cannot be dropped.
Result<AlterResult> DropColumns(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                const std::vector<std::string>& columns, bool if_exists);

// Sets properties, validated as at CREATE TABLE; `delta.feature.<f>` = 'supported' and
// delta.minReaderVersion/minWriterVersion go to the protocol. Enabling column mapping
// ('name' only, from 'none') gives every existing field an id and its current name as
// physical name, so existing data files still read.
Result<AlterResult> SetProperties(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                  const std::map<std::string, std::string>& properties);

// Removes properties; a missing key is an error unless `if_exists`. Never downgrades.
Result<AlterResult> UnsetProperties(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                    const std::vector<std::string>& keys, bool if_exists,
                                    const std::string& table_name);

// ALTER COLUMN c SET NOT NULL (nullable=false) / DROP NOT NULL (nullable=true) on a top-level
// column.
Result<AlterResult> SetColumnNullable(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                      const std::string& column, bool nullable);

// Stores CHECK constraint `name` (case-insensitive) with its SQL text as
// delta.constraints.<name>; an existing name is an error.
Result<AlterResult> AddCheckConstraint(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                       const std::string& name, const std::string& expression);

// Removes CHECK constraint `name`; a missing one is an error unless `if_exists`.
Result<AlterResult> DropCheckConstraint(const delta::Metadata& metadata, const delta::Protocol& protocol,
                                        const std::string& name, bool if_exists,
                                        const std::string& table_name);

// The protocol `current` must become so that `metadata` (plus `explicit_features`) is
// supported: std::nullopt when `current` already covers it, else `current`'s features plus the
// missing ones (a legacy protocol is converted to reader 3 / writer 7 with its implied features).
Result<std::optional<delta::Protocol>> UpgradeProtocolFor(const delta::Protocol& current,
                                                          const delta::Metadata& metadata);

}  // namespace shoal::table
