// Materialized row ids in rewritten data files (PROTOCOL.md "Row Tracking"): OPTIMIZE, ZORDER
// BY and REORG copy rows into new files whose fresh baseRowId would give them new ids, so they
// write each row's id (and row commit version) into the table's materialized columns, which
// readers of the logical schema never see.
//
// Thread-safety: a RowIdFiller is used by one thread (one bin rewrite) at a time.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "columnar/vector.h"
#include "delta/actions.h"
#include "delta/deletion_vector.h"
#include "io/file_system.h"
#include "scan/delta_schema.h"
#include "shoal/status.h"
#include "txn/row_id_remap.h"

namespace shoal::table {

// Sets the materialized columns of live-row batches of a list of source files (batches of
// each file in position order, as ReadLiveRows yields them) to the rows' ids and commit
// versions.
class RowIdFiller {
 public:
  // `with_columns` is txn::MetadataWithRowIdColumns of the table; `schema` its TableSchema
  // (the batches' columns).
  static Result<std::unique_ptr<RowIdFiller>> Make(std::shared_ptr<io::FileSystem> fs, std::string table_root,
                                                   const delta::Metadata& with_columns,
                                                   const scan::TableSchema& schema,
                                                   std::vector<delta::AddFile> files);
  // `rows` (live rows of files[file], continuing after the previous batch of that file) with
  // the row id and row commit version columns replaced.
  Result<columnar::RecordBatch> Fill(size_t file, const columnar::RecordBatch& rows);

 private:
  struct Source {
    bool loaded = false;
    txn::FileRowIds ids;
    delta::DeletionVector dv;
    uint64_t cursor = 0;  // next physical position to consider
  };
  RowIdFiller() = default;
  Status Load(size_t file);

  std::shared_ptr<io::FileSystem> fs_;
  std::string root_;
  delta::Metadata with_columns_;
  std::vector<delta::AddFile> files_;
  std::vector<Source> sources_;
  int id_column_ = -1;
  int version_column_ = -1;
};

// Row ids of table rows addressed by (index into a snapshot's files, position), for UPDATE
// writing new row versions that keep their rows' ids.
class RowIdLookup {
 public:
  // `files` (the snapshot's files, indexed by the scan's file ids) must outlive the lookup.
  RowIdLookup(std::shared_ptr<io::FileSystem> fs, std::string table_root, delta::Metadata with_columns,
              const std::vector<delta::AddFile>* files)
      : fs_(std::move(fs)), root_(std::move(table_root)), with_columns_(std::move(with_columns)), files_(files) {}
  // `rows` (the logical columns) with the materialized columns appended, as `out_schema`
  // (the writer's schema for MetadataWithRowIdColumns): each addressed row's id (NULL for a NULL
  // address — an inserted row — and for files beyond the snapshot's, which this transaction
  // staged), and a NULL
  // row commit version (the new version commits with its new file's defaultRowCommitVersion).
  Result<columnar::RecordBatch> Append(const columnar::RecordBatch& rows, const columnar::Vector& file_ids,
                                       const columnar::Vector& positions,
                                       const std::shared_ptr<columnar::Schema>& out_schema);

 private:
  std::shared_ptr<io::FileSystem> fs_;
  std::string root_;
  delta::Metadata with_columns_;
  const std::vector<delta::AddFile>* files_;
  std::map<int64_t, txn::FileRowIds> cache_;  // by file index
};

}  // namespace shoal::table
