// Building blocks for running one table job on many processes (doc/dask.md): a coordinator
// plans which data files a scan reads and hands disjoint subsets of them to workers, which read
// exactly their subset at the pinned version; workers write data files without committing and
// hand back their add actions, which the coordinator commits in one Delta commit. An UPDATE,
// DELETE or MERGE is split the same way: each worker runs it on its files and hands back its
// transaction's read and write sets, which the coordinator commits as one transaction with
// the ordinary (row-level) conflict rules.
//
// Tables are named by path, as in delta.`path` (an absolute path, an s3:// URI, or a directory
// relative to the warehouse).
//
// Thread-safety: every function uses its Connection as a statement does (one thread at a
// time per connection).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "shoal/database.h"
#include "shoal/status.h"

namespace shoal {

// One live data file of a snapshot, as a coordinator balances splits by it.
struct TableDataFile {
  std::string path;          // the add action's path (relative to the table root, or absolute)
  int64_t size_bytes = 0;    // the add action's size
  int64_t num_records = -1;  // rows per the log statistics, -1 when unknown (deleted rows included)
  int64_t deleted_rows = 0;  // rows its deletion vector removes
  // Partition values in TableFilePlan::partition_columns order; nullopt is NULL.
  std::vector<std::optional<std::string>> partition_values;
  std::string stats_json;    // the add action's statistics JSON as logged ("" when absent)
};

// The files a scan of a table version reads after partition and log-statistics pruning.
struct TableFilePlan {
  std::string root;                       // the table directory
  int64_t version = -1;                   // the snapshot version the plan is pinned to
  std::vector<std::string> column_names;  // the table's columns in order
  std::vector<std::string> column_types;  // their SQL types ("BIGINT", "DECIMAL(10,2)", ...)
  std::vector<std::string> partition_columns;
  int64_t files_total = 0;                // live files before pruning
  std::vector<TableDataFile> files;       // the files kept, in log order
};

// Plans a scan of `table` at `version` (nullopt: latest) with the SQL boolean expression
// `filter` over its columns ("" = none): the files whose partition values or log statistics
// may match. Errors: a missing table (CatalogException), a version that does not exist, a
// filter that does not bind (BinderException naming the column).
Result<TableFilePlan> PlanTableFiles(Connection& connection, std::string_view table, std::string_view filter,
                                     std::optional<int64_t> version = std::nullopt);

// Makes `name` readable by the connection's later statements (FROM name, as Python's
// register does) as `table` at `version`, restricted to the data files `paths` (as
// PlanTableFiles listed them): the full scan stack (pruning, Prewhere, deletion vectors) runs
// on those files alone. InvalidArgument naming a path the version does not hold.
Status RegisterTableFiles(Connection& connection, const std::string& name, std::string_view table,
                          int64_t version, const std::vector<std::string>& paths);

// Data files written and not committed, and their add actions.
struct StagedFiles {
  std::string root;                      // the table directory
  int64_t read_version = -1;             // the snapshot the writes were made against
  int64_t rows = 0;                      // rows written
  std::vector<std::string> add_actions;  // Delta log lines {"add":{...}}, one per file
};

// Runs one INSERT statement (INSERT INTO delta.`path` ...; any source, e.g. a registered
// DataFrame) in a transaction that is never committed: its data files are written as the
// statement writes them (LocalSort, statistics, page index, partition directories) and stay
// on storage; the add actions come back for CommitStagedFiles. On error nothing stays.
// NotSupported when the statement would also change more than data files (identity columns),
// InvalidArgument for another kind of statement or inside BEGIN.
Result<StagedFiles> StageInsert(Connection& connection, std::string_view insert_sql);

struct StagedCommitOptions {
  // Remove every file of the table in the same commit (INSERT OVERWRITE); default append.
  bool overwrite = false;
  // The snapshot the job was planned against (conflicts with every commit after it are
  // checked); -1: the latest at commit time.
  int64_t read_version = -1;
  // Application transaction recorded as a Delta txn action; a version the table already has
  // for app_id makes the commit a no-op (already_committed) and deletes the staged files.
  std::string app_id;   // empty: none
  int64_t app_version = -1;
};

struct StagedCommit {
  int64_t version = -1;            // the committed version (the snapshot's for a replay)
  bool already_committed = false;  // the app transaction was there: nothing written
  int64_t files = 0;               // add actions committed
};

// Commits `add_actions` (StageInsert's, from any number of processes) to `table` in one Delta
// commit under the ordinary conflict rules. Every action must be an add of a file inside the
// table that exists; InvalidArgument otherwise, nothing committed. On a conflict (the named
// Delta error) the staged files are deleted; after other errors (I/O) they are kept, since
// the caller may retry the commit (with the same app transaction) or discard them.
Result<StagedCommit> CommitStagedFiles(Connection& connection, std::string_view table,
                                       const std::vector<std::string>& add_actions,
                                       const StagedCommitOptions& options = {});

// Deletes the data files of staged add actions that will not be committed (a failed job).
// Files already gone are fine, files live in the table's latest version are kept; an action
// naming a file outside the table is InvalidArgument.
Status DiscardStagedFiles(Connection& connection, std::string_view table,
                          const std::vector<std::string>& add_actions);

// One worker's share of a distributed UPDATE / DELETE / MERGE, never committed: the
// transaction's state (txn/transaction_state.h) as JSON text — its read set (the statement's
// predicate, the files read and per file the rows matched) and its write set (rows deleted per
// file as row positions, whose deletion vectors the commit writes; rewritten data files and
// change data files, which are on storage already).
struct StagedChanges {
  std::string root;                       // the table directory
  int64_t read_version = -1;              // the version the statement ran on
  std::vector<std::string> metric_names;  // the statement's result row (num_affected_rows, ...)
  std::vector<int64_t> metrics;
  std::string transaction;                // the state JSON
};

// Plans a distributed statement on `table` at `version` (nullopt: latest): checks that `sql` is
// one UPDATE, DELETE or MERGE whose target is `table` (InvalidArgument otherwise) and binds it
// by running it on no files (a missing column is the BinderException here), then returns
// PlanTableFiles with the statement's WHERE as the pruning filter (no filter for MERGE, or
// when the WHERE does not bind on the table alone: an alias, a subquery).
Result<TableFilePlan> PlanStatementFiles(Connection& connection, std::string_view table, std::string_view sql,
                                         std::optional<int64_t> version = std::nullopt);

// Runs `sql` (one UPDATE, DELETE or MERGE INTO `table`) on `table` at `version` restricted to
// the data files `paths` (PlanTableFiles' paths), in a transaction that is never committed,
// and returns its staged changes. A MERGE's NOT MATCHED inserts are made by every call (the
// target is only `paths`): split a distributed MERGE with SplitMergeStatement. Its rewritten data files and change data files stay on
// storage for CommitStagedChanges (or DiscardStagedChanges). On error nothing stays.
Result<StagedChanges> StageStatement(Connection& connection, std::string_view table, std::string_view sql,
                                     int64_t version, const std::vector<std::string>& paths);

// Commits the staged changes of one statement's workers (disjoint file sets, one read version)
// to `table` in ONE Delta commit: one transaction on that version carrying the union of their
// read and write sets, through the ordinary commit loop, so a concurrent commit is judged
// per row where the table has deletion vectors (disjoint rows: rebase, the deletion vectors
// merged; the same rows: the named Delta conflict). `options.app_id`/`app_version` as for
// CommitStagedFiles; `options.overwrite` must be false and `options.read_version`, when set,
// the changes' version. InvalidArgument, nothing committed, for changes that do not fit
// (another table, mixed versions, a file staged twice or not live, a missing staged file).
// On a conflict or a replay the staged files are deleted; after other errors they are kept.
Result<StagedCommit> CommitStagedChanges(Connection& connection, std::string_view table,
                                         const std::vector<StagedChanges>& changes,
                                         const StagedCommitOptions& options = {});

// Deletes the data and change data files of staged changes that will not be committed (a failed
// job); never a file the table's latest version holds.
Status DiscardStagedChanges(Connection& connection, std::string_view table, const std::vector<StagedChanges>& changes);

// The pieces of a MERGE that a distributed run executes apart (doc/dask.md): the matched
// clauses on each group of target files, each group with the whole source (a target row lives
// in one group, which sees every source row, so Delta's rule that two source rows may not
// match one target row holds as in one process); the NOT MATCHED [BY TARGET] inserts once, for
// the source rows that no group matched.
struct MergeParts {
  std::string source_name;  // the USING relation: a name the caller registers the source under
  // The MERGE with only its WHEN MATCHED and WHEN NOT MATCHED BY SOURCE clauses ("" when none).
  std::string matched_sql;
  // The MERGE with only its WHEN NOT MATCHED [BY TARGET] clauses ("" when none).
  std::string insert_sql;
  // SELECT DISTINCT of the source's `row_column` for the source rows the ON condition matches
  // in the relation `split_name` (the target's files of one group, as RegisterTableFiles).
  std::string matched_rows_sql;
};

// Splits `sql`, one MERGE INTO `table`, into MergeParts. InvalidArgument for another
// statement or table, a source that is not a plain name (a table function, a subquery, a
// qualified or time-travelled table), or a delta.`path` target without an alias.
Result<MergeParts> SplitMergeStatement(Connection& connection, std::string_view table, std::string_view sql,
                                       const std::string& split_name, const std::string& row_column);

}  // namespace shoal
