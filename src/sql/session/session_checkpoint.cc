// Session handler for CHECKPOINT t: writes the checkpoint of the table's latest version with
// table::WriteCheckpoint, the writer the automatic checkpoint at commit uses (classic,
// multi-part or V2 as the table's protocol and delta.checkpoint.partSize say), reporting its
// progress (doc/maintenance.md "CHECKPOINT").
#include "sql/execution/statement_progress.h"
#include "sql/session/database_impl.h"
#include "sql/session/maintenance_result.h"
#include "sql/session/maintenance_statement.h"
#include "sql/session/session.h"
#include "table/checkpoint_writer.h"

namespace shoal::sql {

// One row: path (the checkpoint file: classic, part 1 of a multi-part one, or V2's top-level
// file), version, actions and size_in_bytes (NULL when not written now and _last_checkpoint does
// not describe it) and written (false: the latest version already had a checkpoint).
Result<QueryResult> Session::RunCheckpoint(const Statement& st) {
  const auto& s = st.As<CheckpointStatement>();
  if (in_transaction()) return Status::NotSupported("CHECKPOINT inside a transaction: it writes no commit");
  ASSIGN_OR_RETURN(auto latest, OpenMaintenanceTable(*db_, s.table, LoadProgress()));
  const delta::Snapshot& snapshot = *latest->snapshot();
  const delta::LogSegment& segment = snapshot.segment();
  ResultRows rows;
  rows.AddColumn("path", columnar::String());
  rows.AddColumn("version", columnar::Int64());
  rows.AddColumn("actions", columnar::Int64());
  rows.AddColumn("size_in_bytes", columnar::Int64());
  rows.AddColumn("written", columnar::Boolean());
  if (segment.checkpoint_version == snapshot.version() && !segment.checkpoint_files.empty()) {
    columnar::Value actions = columnar::Value::Null(columnar::Int64());
    columnar::Value bytes = columnar::Value::Null(columnar::Int64());
    const auto& last = segment.last_checkpoint;
    if (last && last->version == snapshot.version()) {
      if (last->size) actions = columnar::Value::Int64(*last->size);
      if (last->size_in_bytes) bytes = columnar::Value::Int64(*last->size_in_bytes);
    }
    rows.AddRow({columnar::Value::String(segment.checkpoint_files.front().path),
                 columnar::Value::Int64(snapshot.version()), actions, bytes, columnar::Value::Boolean(false)});
    return rows.Build();
  }
  table::CheckpointOptions options;
  if (std::shared_ptr<StatementProgress> progress = NewProgress()) {
    options.progress = PhaseReporter(progress, progress->AddPhase(1, "CHECKPOINT"));
  }
  auto info = table::WriteCheckpoint(db_->fs, snapshot, options);
  if (!info.ok()) return info.status().WithContext("CHECKPOINT " + s.table.ToString());
  rows.AddRow({columnar::Value::String(info->path), columnar::Value::Int64(info->version),
               columnar::Value::Int64(info->size), columnar::Value::Int64(info->size_in_bytes),
               columnar::Value::Boolean(true)});
  return rows.Build();
}

}  // namespace shoal::sql
