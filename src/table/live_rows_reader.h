// Reads the live rows (deletion vectors applied) of a list of a table's data files, file after
// file and each in row-position order — the order compaction must keep so that a source row's
// position maps onto its output (txn/compaction_map.h).
//
// Thread-safety: a pure function; concurrent calls on different files are safe.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "delta/actions.h"
#include "delta/deletion_vector.h"
#include "io/file_system.h"
#include "scan/delta_schema.h"
#include "shoal/status.h"

namespace shoal::table {

// Receives one batch of live rows (all table columns, table order) of files[file].
using LiveRowsSink = std::function<Status(size_t file, const columnar::RecordBatch& rows)>;

// Streams the live rows of `files` (adds of the table at `table_root`, whose schema is
// `schema`) to `sink` in order: every row of files[0] before files[1], positions ascending.
// Internal when the scan yields batches out of order (a bug, never silently reordered).
Status ReadLiveRows(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                    const std::shared_ptr<const scan::TableSchema>& schema,
                    const std::vector<delta::AddFile>& files, const LiveRowsSink& sink,
                    int64_t batch_rows = 65536);

// Like ReadLiveRows, but of files[i] only the rows at positions[i] when that is set (the file is
// then read without its deletion vector); `positions` is empty or parallel to `files`. Batches
// without a selected row are not passed on.
Status ReadRowsAt(const std::shared_ptr<io::FileSystem>& fs, const std::string& table_root,
                  const std::shared_ptr<const scan::TableSchema>& schema, std::vector<delta::AddFile> files,
                  const std::vector<std::optional<delta::DeletionVector>>& positions, const LiveRowsSink& sink);

}  // namespace shoal::table
