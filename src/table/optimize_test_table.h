// Test fixture for OPTIMIZE / REORG: a real Delta table of (id BIGINT, a BIGINT, b BIGINT,
// s STRING, part STRING), optionally partitioned by `part`, on the local file system; appends
// one data file per call, deletes rows by position and reads rows back per file and in total.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "delta/snapshot.h"
#include "delta/stats_json.h"
#include "io/file_system.h"
#include "scan/delta_scan.h"
#include "support/testdata.h"
#include "table/data_file_writer.h"
#include "table/live_rows_reader.h"
#include "table/table_creator.h"
#include "txn/transaction.h"

namespace shoal::table::testing_support {

struct TestRow {
  int64_t id = 0;
  int64_t a = 0;
  int64_t b = 0;
  std::string part = "x";
  bool operator<(const TestRow& o) const { return id < o.id; }
  bool operator==(const TestRow& o) const { return id == o.id && a == o.a && b == o.b && part == o.part; }
};

class OptimizeTestTable {
 public:
  explicit OptimizeTestTable(bool partitioned = false, std::map<std::string, std::string> properties = {})
      : fs_(io::LocalFileSystem()), root_(dir_.Join("t")) {
    columnar::Schema schema;
    schema.fields = {{"id", columnar::Int64(), true},
                     {"a", columnar::Int64(), true},
                     {"b", columnar::Int64(), true},
                     {"s", columnar::String(), true},
                     {"part", columnar::String(), true}};
    properties.emplace("delta.enableDeletionVectors", "true");
    auto st = CreateTable(fs_, root_, "t", schema, partitioned ? std::vector<std::string>{"part"}
                                                               : std::vector<std::string>{},
                          properties);
    EXPECT_TRUE(st.ok()) << st.status().ToString();
  }

  const std::shared_ptr<io::FileSystem>& fs() const { return fs_; }
  const std::string& root() const { return root_; }

  std::shared_ptr<const delta::Snapshot> Snap() const {
    auto s = delta::Snapshot::Load(fs_, root_);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? *s : nullptr;
  }
  std::shared_ptr<const scan::DeltaTable> Table() const {
    auto t = scan::DeltaTable::Open(fs_, root_);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? *t : nullptr;
  }
  std::unique_ptr<txn::Transaction> Begin(const std::string& operation,
                                          std::shared_ptr<const delta::Snapshot> snap = nullptr) {
    txn::TransactionOptions o;
    o.operation = operation;
    o.max_backoff_ms = 0;
    auto t = txn::Transaction::Begin(fs_, root_, snap ? snap : Snap(), o);
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? std::move(t).value() : nullptr;
  }

  columnar::RecordBatch Batch(const std::vector<TestRow>& rows) const {
    auto schema = std::make_shared<columnar::Schema>();
    schema->fields = {{"id", columnar::Int64(), true},
                      {"a", columnar::Int64(), true},
                      {"b", columnar::Int64(), true},
                      {"s", columnar::String(), true},
                      {"part", columnar::String(), true}};
    std::vector<columnar::VectorPtr> cols;
    for (const auto& f : schema->fields) cols.push_back(columnar::Vector::Make(f.type, rows.size()));
    for (const TestRow& r : rows) {
      cols[0]->Append<int64_t>(r.id);
      cols[1]->Append<int64_t>(r.a);
      cols[2]->Append<int64_t>(r.b);
      cols[3]->AppendString(std::string("s").append(std::to_string(r.id)));
      cols[4]->AppendString(r.part);
    }
    return columnar::RecordBatch(schema, cols, static_cast<int64_t>(rows.size()));
  }

  // Writes `rows` as one data file per partition and commits them; returns the version.
  int64_t Append(const std::vector<TestRow>& rows) {
    auto snap = Snap();
    DataFileWriterOptions o;
    o.target_file_size = int64_t{1} << 40;
    auto writer = DataFileWriter::Make(fs_, root_, snap->metadata(), o);
    EXPECT_TRUE(writer.ok()) << writer.status().ToString();
    EXPECT_TRUE((*writer)->Write(Batch(rows)).ok());
    auto adds = (*writer)->Finish();
    EXPECT_TRUE(adds.ok()) << adds.status().ToString();
    auto t = Begin("WRITE");
    for (auto& a : *adds) t->AddFile(a);
    auto r = t->Commit();
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? r->version : -1;
  }

  const delta::AddFile* FindFile(const delta::Snapshot& snap, const std::string& path) const {
    for (const auto& f : snap.files()) {
      if (f.path == path) return &f;
    }
    return nullptr;
  }

  // Deletes rows at `positions` of the live file `path` with a deletion vector.
  void DeletePositions(const std::string& path, const std::vector<uint64_t>& positions) {
    auto snap = Snap();
    auto t = Begin("DELETE");
    delta::DeletionVector dv;
    for (auto p : positions) dv.Add(p);
    const delta::AddFile* f = FindFile(*snap, path);
    ASSERT_NE(f, nullptr) << path;
    ASSERT_TRUE(t->DeleteRows(*f, dv).ok());
    auto r = t->Commit();
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }

  // The live rows of one data file, in position order.
  std::vector<TestRow> FileRows(const delta::AddFile& file) const {
    auto table = Table();
    std::vector<TestRow> out;
    Status st = ReadLiveRows(fs_, root_, table->schema(), {file}, [&](size_t, const columnar::RecordBatch& b) {
      for (int64_t r = 0; r < b.num_rows; ++r) {
        TestRow row;
        row.id = b.column(0)->Get<int64_t>(r);
        row.a = b.column(1)->Get<int64_t>(r);
        row.b = b.column(2)->Get<int64_t>(r);
        row.part = std::string(b.column(4)->GetString(r));
        out.push_back(row);
      }
      return Status::OK();
    });
    EXPECT_TRUE(st.ok()) << st.ToString();
    return out;
  }

  // Every live row of the latest version, sorted by id.
  std::vector<TestRow> Rows() const {
    std::vector<TestRow> all;
    auto snap = Snap();
    for (const auto& f : snap->files()) {
      auto rows = FileRows(f);
      all.insert(all.end(), rows.begin(), rows.end());
    }
    std::sort(all.begin(), all.end());
    return all;
  }

 private:
  testing::TempDir dir_;
  std::shared_ptr<io::FileSystem> fs_;
  std::string root_;
};

}  // namespace shoal::table::testing_support
