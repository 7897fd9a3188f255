// TableWriteSink: the root of an INSERT / CTAS plan. It turns each query batch into table rows
// (columns reordered, cast to the column types, missing columns their default, NULL, generated
// identity values or computed generated columns), checks REPLACE WHERE, and streams the rows into Parquet data files through one
// table::DataFileWriter per worker (created on the worker's first batch), so memory stays
// bounded by the open files' buffers. NOT NULL and CHECK constraints are enforced by the writer.
//
// Thread-safety: Sink runs concurrently on distinct local states; identity values come from
// atomic counters, Combine locks the shared list of written files.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "columnar/value.h"
#include "delta/actions.h"
#include "expr/expr.h"
#include "io/file_system.h"
#include "sql/write/generated_columns.h"
#include "sql/write/identity_columns.h"
#include "sql/execution/physical_operator.h"
#include "table/data_file_writer.h"

namespace shoal::sql {

struct TableWriteSpec {
  std::shared_ptr<io::FileSystem> fs;
  std::string root;
  std::string table_name;   // for messages
  delta::Metadata metadata;  // the table's (possibly staged) metadata
  columnar::SchemaPtr table_schema;  // its logical columns (scan::BuildTableSchema)
  table::DataFileWriterOptions writer_options;
  // Per table column (writer schema order): the query output column feeding it, or -1.
  std::vector<int> source_index;
  // Per table column: the identity sequence when the column gets generated values.
  std::vector<std::optional<IdentitySequence>> identity;
  // Per table column not fed by the query: its default value (else NULL); may be empty.
  std::vector<std::optional<columnar::Value>> defaults;
  // Computes the generated columns the query does not feed and checks those it does; null
  // when the table has none.
  std::shared_ptr<const GeneratedColumns> generated;
  // Rows must satisfy this predicate (INSERT … REPLACE WHERE), over table columns; or null.
  expr::ExprPtr replace_where;
  std::string replace_where_sql;
};

class TableWriteSink final : public PhysicalOperator {
 public:
  explicit TableWriteSink(TableWriteSpec spec);

  std::string Name() const override { return "TABLE_WRITE"; }
  std::string Details() const override { return spec_.table_name; }
  bool IsSink() const override { return true; }

  Result<std::unique_ptr<SourceState>> OpenSource(ExecContext& ctx) override;
  Result<std::unique_ptr<LocalSinkState>> MakeLocalSink(ExecContext& ctx, int input) override;
  Status Sink(ExecContext& ctx, LocalSinkState* local, Chunk chunk, int input) override;
  Status Combine(ExecContext& ctx, LocalSinkState* local, int input) override;
  Status Finalize(ExecContext& ctx) override;

  // After execution: the files written (also those of workers that failed), rows written, and
  // per table column the number of identity values handed out.
  const std::vector<delta::AddFile>& adds() const { return adds_; }
  int64_t rows_written() const { return rows_.load(); }
  int64_t identity_count(size_t column) const { return identity_used_[column]->load(); }

 private:
  struct Local;
  Result<columnar::BatchPtr> ToTableRows(const columnar::RecordBatch& in, expr::EvalContext& ctx);
  Status ChooseWriter(Local* l);
  void AddFiles(std::vector<delta::AddFile> files);

  TableWriteSpec spec_;
  std::vector<std::unique_ptr<std::atomic<int64_t>>> identity_used_;
  std::atomic<int64_t> rows_{0};
  std::mutex mu_;
  std::vector<delta::AddFile> adds_;  // guarded by mu_
  // When the writer sorts the whole write (shoal.localSort.scope = 'write'), every thread writes
  // through this one, so the statement's rows are one sorted stream (files of disjoint key ranges)
  // under one memory budget; otherwise each thread has its own (Local::writer). A writer that
  // never finishes (a failed statement) deletes its files when destroyed.
  std::mutex writer_mu_;
  std::unique_ptr<table::DataFileWriter> writer_;  // guarded by writer_mu_
};

}  // namespace shoal::sql
