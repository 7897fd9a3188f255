// Creates Delta tables: builds the protocol, metaData and commitInfo actions of version 0 with
// exactly the table features the schema and properties use (PROTOCOL.md "Table Features"), and
// writes them as `_delta_log/00000000000000000000.json` with put-if-absent.
//
// Thread-safety: stateless functions; concurrent CreateTable calls on one root race safely
// (exactly one wins the put-if-absent, the others get CatalogException).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/type.h"
#include "delta/actions.h"
#include "io/file_system.h"
#include "shoal/status.h"
#include "table/delta_schema_writer.h"

namespace shoal::table {

struct CreateTableOptions {
  // Per-column extras (comment, identity, generation/default expression); default none.
  ColumnSpecs columns;
  // CHECK constraints: name -> SQL expression, stored as delta.constraints.<name>; default none.
  std::map<std::string, std::string> check_constraints;
  std::optional<std::string> description;  // metaData.description; default none
  // commitInfo.timestamp (and inCommitTimestamp) in ms; default: the current time.
  std::optional<int64_t> timestamp_ms;
  // Table id (metaData.id); default: a fresh UUID.
  std::optional<std::string> table_id;
};

// Builds the actions of version 0, in commit order: commitInfo (CREATE TABLE; first, as
// in-commit timestamps require), protocol, metaData. InvalidArgument for bad schemas, unknown
// or malformed delta.* properties, partition columns that are missing, nested, duplicated or
// cover every column.
Result<std::vector<delta::Action>> CreateTableActions(const std::string& name, const columnar::Schema& schema,
                                                      const std::vector<std::string>& partition_columns,
                                                      const std::map<std::string, std::string>& properties,
                                                      const CreateTableOptions& options = {});

// Derives the protocol a table with this metadata needs: reader 3 (or 1 when no reader-writer
// feature is used) and writer 7 with exactly the features used.
Result<delta::Protocol> ProtocolForMetadata(const delta::Metadata& metadata);

// The path of a commit file: <root>/_delta_log/<version zero-padded to 20>.json.
std::string CommitFilePath(const std::string& table_root, int64_t version);

// Writes version 0 of a new table at `table_root` (the directory is created). Catalog
// "Table <root> already exists" when a commit 0 is already there (also for the loser of a
// concurrent create). Returns the committed actions.
Result<std::vector<delta::Action>> CreateTable(std::shared_ptr<io::FileSystem> fs, const std::string& table_root,
                                               const std::string& name, const columnar::Schema& schema,
                                               const std::vector<std::string>& partition_columns,
                                               const std::map<std::string, std::string>& properties,
                                               const CreateTableOptions& options = {});

}  // namespace shoal::table
