// The table a distributed job names (shoal/distributed.h): delta.`path` resolved to its
// directory, the paths of files its staged actions name, and the statement that changes it.
// Thread-safety: free functions over one Connection (used by one thread at a time).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "delta/actions.h"
#include "shoal/database.h"
#include "shoal/distributed.h"
#include "shoal/status.h"
#include "sql/parser/ast.h"
#include "txn/transaction.h"

namespace shoal {

// The directory of the table `table` names (delta.`table`), which must exist; no trailing '/'.
Result<std::string> ExistingTableRoot(Connection& connection, std::string_view table);

// The storage path of `path` (a staged file's add or cdc path), which must lie inside `root`
// without '..'; InvalidArgument naming `what` otherwise.
Result<std::string> StagedFileInside(const std::string& root, const std::string& path, const std::string& what);

// The one UPDATE / DELETE / MERGE of `sql`, which must change the table at `root`;
// InvalidArgument for another statement, several, or another target table.
Result<std::unique_ptr<sql::Statement>> ParseTableStatement(Connection& connection, std::string_view sql,
                                                            const std::string& root);

// The Delta txn action of options' app transaction (none when neither field is set);
// InvalidArgument when only one of app_id and app_version is.
Result<std::optional<delta::Txn>> StagedAppTransaction(const StagedCommitOptions& options);

// Commits the coordinator's transaction `t` of staged work (`files` actions) as one Delta commit.
// `discard` deletes the staged files: after a conflict, and when the app transaction was
// already committed (nothing is written then); other errors keep them for a retry.
Result<StagedCommit> CommitStagedTransaction(txn::Transaction& t, int64_t files, const std::function<void()>& discard);

}  // namespace shoal
