// Test fixture for the maintenance operations (ALTER, VACUUM, RESTORE): a real Delta table of
// (id BIGINT, name STRING) on the local file system, built with CreateTable, DataFileWriter and
// Transaction, with helpers to append, delete rows by position and read rows back.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "columnar/value_text.h"
#include "columnar/vector.h"
#include "delta/snapshot.h"
#include "io/file_system.h"
#include "scan/delta_scan.h"
#include "table/data_file_writer.h"
#include "table/protocol_validator.h"
#include "table/table_creator.h"
#include "support/testdata.h"
#include "txn/transaction.h"

namespace shoal::table::testing_support {

// Table properties of a MaintenanceTable.
using Props = std::map<std::string, std::string>;

class MaintenanceTable {
 public:
  explicit MaintenanceTable(Props properties = {},
                            std::vector<std::string> partition_columns = {})
      : fs_(io::LocalFileSystem()), root_(dir_.Join("t")) {
    columnar::Schema schema;
    schema.fields.push_back({"id", columnar::Int64(), true});
    schema.fields.push_back({"name", columnar::String(), true});
    auto st = CreateTable(fs_, root_, "t", schema, partition_columns, properties);
    EXPECT_TRUE(st.ok()) << st.status().ToString();
  }

  const std::shared_ptr<io::FileSystem>& fs() const { return fs_; }
  const std::string& root() const { return root_; }
  // The directory holding the table (as a warehouse, the table is named `t`).
  const std::string& warehouse() const { return dir_.path(); }

  std::shared_ptr<const delta::Snapshot> Snap(std::optional<int64_t> version = std::nullopt) const {
    delta::SnapshotOptions o;
    o.version = version;
    auto s = delta::Snapshot::Load(fs_, root_, o);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? *s : nullptr;
  }

  std::unique_ptr<txn::Transaction> Begin(const std::string& operation = "WRITE") {
    txn::TransactionOptions o;
    o.operation = operation;
    auto t = txn::Transaction::Begin(fs_, root_, Snap(), o);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? std::move(t).value() : nullptr;
  }

  // Appends one data file with rows (id, "n<id>") (name NULL for negative ids); returns the
  // committed version.
  int64_t Append(const std::vector<int64_t>& ids) {
    auto adds = WriteData(ids);
    auto t = Begin();
    for (auto& a : adds) t->AddFile(a);
    auto r = t->Commit();
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->version : -1;
  }

  // Writes the data file(s) of Append without committing them.
  std::vector<delta::AddFile> WriteData(const std::vector<int64_t>& ids) {
    auto snap = Snap();
    auto writer = DataFileWriter::Make(fs_, root_, snap->metadata());
    EXPECT_TRUE(writer.ok()) << writer.status().ToString();
    const columnar::Schema& ws = (*writer)->schema();
    auto schema = std::make_shared<columnar::Schema>(ws);
    std::vector<columnar::VectorPtr> cols;
    for (const auto& f : ws.fields) cols.push_back(columnar::Vector::Make(f.type, ids.size()));
    for (int64_t id : ids) {
      for (size_t c = 0; c < ws.fields.size(); ++c) {
        std::string n = ws.fields[c].name;
        if (n == "id") {
          cols[c]->Append<int64_t>(id);
        } else if (ws.fields[c].type->id() == columnar::TypeId::kString && id >= 0) {
          cols[c]->AppendString(std::string("n").append(std::to_string(id)));
        } else {
          cols[c]->AppendNull();
        }
      }
    }
    columnar::RecordBatch batch(schema, cols, static_cast<int64_t>(ids.size()));
    EXPECT_TRUE((*writer)->Write(batch).ok());
    auto adds = (*writer)->Finish();
    EXPECT_TRUE(adds.ok()) << adds.status().ToString();
    return adds.ok() ? *adds : std::vector<delta::AddFile>{};
  }

  // Deletes rows at `positions` of live file `file_index` with a deletion vector.
  // The DV goes to a DV file (never inline).
  int64_t DeletePositions(size_t file_index, const std::vector<uint64_t>& positions) {
    auto snap = Snap();
    txn::TransactionOptions o;
    o.operation = "DELETE";
    o.dv_options.max_inline_bytes = 0;
    auto begun = txn::Transaction::Begin(fs_, root_, snap, o);
    EXPECT_TRUE(begun.ok()) << begun.status().ToString();
    auto t = std::move(begun).value();
    delta::DeletionVector dv;
    for (auto p : positions) dv.Add(p);
    EXPECT_TRUE(t->DeleteRows(snap->files().at(file_index), dv).ok());
    auto r = t->Commit();
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->version : -1;
  }

  // Every row of `version` (default latest) as "v1|v2|...", sorted.
  std::vector<std::string> Rows(std::optional<int64_t> version = std::nullopt) const {
    scan::TimeTravel at;
    at.version = version;
    auto table = scan::DeltaTable::Open(fs_, root_, at);
    EXPECT_TRUE(table.ok()) << table.status().ToString();
    if (!table.ok()) return {};
    scan::DeltaScanOptions o;
    for (size_t i = 0; i < (*table)->schema()->schema.size(); ++i) o.columns.push_back(static_cast<int>(i));
    auto scan = (*table)->Plan(o);
    EXPECT_TRUE(scan.ok()) << scan.status().ToString();
    std::vector<std::string> rows;
    auto local = (*scan)->MakeLocal();
    columnar::BatchPtr b;
    uint64_t order = 0;
    while (true) {
      auto more = (*scan)->Next(local.get(), &b, &order);
      EXPECT_TRUE(more.ok()) << more.status().ToString();
      if (!more.ok() || !*more) break;
      for (int64_t r = 0; r < b->num_rows; ++r) {
        std::string line;
        for (size_t c = 0; c < b->num_columns(); ++c) {
          if (c) line += '|';
          line += b->column(c)->IsNull(r) ? std::string("NULL") : columnar::TextOf(*b->column(c), r);
        }
        rows.push_back(line);
      }
    }
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  // Empty when the log passes the protocol validator, else the violations.
  std::string Violations() const {
    auto v = ValidateTableLog(*fs_, root_);
    if (!v.ok()) return v.status().ToString();
    return FormatViolations(*v);
  }

 private:
  testing::TempDir dir_;
  std::shared_ptr<io::FileSystem> fs_;
  std::string root_;
};

}  // namespace shoal::table::testing_support
