// Test fixture for the txn layer: writes a small Delta table log directly (protocol, metadata,
// adds with stats and partition values) so the tests do not depend on the table layer, and
// builds predicates bound to its schema (id BIGINT, value BIGINT, date STRING).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "delta/actions.h"
#include "delta/snapshot.h"
#include "expr/expr.h"
#include "io/file_system.h"
#include "io/memory_file_system.h"
#include "scan/delta_schema.h"
#include "txn/transaction.h"

namespace shoal::txn::testing_support {

struct TableSpec {
  bool partitioned = false;         // partitioned by `date`
  bool deletion_vectors = false;    // DV feature + delta.enableDeletionVectors=true
  std::optional<std::string> isolation;  // delta.isolationLevel
  delta::StringMap extra_config;
  bool identity = false;            // `id` is an identity column

  // Builders: a designated initializer that leaves fields out trips GCC's
  // -Wmissing-field-initializers.
  TableSpec& Partitioned() { partitioned = true; return *this; }
  TableSpec& DeletionVectors() { deletion_vectors = true; return *this; }
  TableSpec& Identity() { identity = true; return *this; }
  TableSpec& Config(const std::string& key, const std::string& value) { extra_config[key] = value; return *this; }
};

// Transaction options naming only the commitInfo operation.
inline TransactionOptions Op(std::string operation) {
  TransactionOptions o;
  o.operation = std::move(operation);
  return o;
}

inline delta::Metadata MakeMetadata(const TableSpec& spec, int64_t high_water_mark = 0) {
  delta::Metadata m;
  m.id = "00000000-0000-4000-8000-000000000001";
  std::string id_meta = "{}";
  if (spec.identity) {
    id_meta = "{\"delta.identity.start\":1,\"delta.identity.step\":1,"
              "\"delta.identity.allowExplicitInsert\":false,\"delta.identity.highWaterMark\":" +
              std::to_string(high_water_mark) + "}";
  }
  m.schema_string =
      "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,"
      "\"metadata\":" + id_meta + "},{\"name\":\"value\",\"type\":\"long\",\"nullable\":true,"
      "\"metadata\":{}},{\"name\":\"date\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}";
  if (spec.partitioned) m.partition_columns = {"date"};
  if (spec.deletion_vectors) m.configuration["delta.enableDeletionVectors"] = "true";
  if (spec.isolation) m.configuration["delta.isolationLevel"] = *spec.isolation;
  for (const auto& [k, v] : spec.extra_config) m.configuration[k] = v;
  m.created_time = 1700000000000;
  return m;
}

inline delta::Protocol MakeProtocol(const TableSpec& spec) {
  delta::Protocol p;
  if (spec.deletion_vectors) {
    p.min_reader_version = 3;
    p.min_writer_version = 7;
    p.reader_features = std::vector<std::string>{"deletionVectors"};
    p.writer_features = std::vector<std::string>{"deletionVectors"};
    if (spec.identity) p.writer_features->push_back("identityColumns");
  } else {
    p.min_reader_version = 1;
    p.min_writer_version = spec.identity ? 6 : 2;
  }
  return p;
}

// An add of `path` holding ids [min_id, max_id] (`rows` rows), in partition `date`.
inline delta::AddFile MakeAdd(const std::string& path, std::optional<std::string> date,
                              int64_t min_id, int64_t max_id, int64_t rows = 100) {
  delta::AddFile a;
  a.path = path;
  if (date) a.partition_values["date"] = *date;
  a.size = 1000;
  a.modification_time = 1700000000000;
  a.data_change = true;
  a.stats = "{\"numRecords\":" + std::to_string(rows) + ",\"minValues\":{\"id\":" +
            std::to_string(min_id) + ",\"value\":0},\"maxValues\":{\"id\":" + std::to_string(max_id) +
            ",\"value\":9},\"nullCount\":{\"id\":0,\"value\":0}}";
  return a;
}

class TestTable {
 public:
  TestTable(std::shared_ptr<io::FileSystem> fs, std::string root, TableSpec spec)
      : fs_(std::move(fs)), root_(std::move(root)), spec_(std::move(spec)) {}

  // Writes version 0: protocol, metadata and `files`.
  void Create(const std::vector<delta::AddFile>& files) {
    std::vector<delta::Action> actions;
    delta::CommitInfo ci;
    ci.json["timestamp"] = 1700000000000;
    ci.json["operation"] = "CREATE TABLE";
    ci.json["txnId"] = "fixture-0";
    actions.push_back(ci);
    actions.push_back(MakeProtocol(spec_));
    actions.push_back(MakeMetadata(spec_));
    for (const auto& f : files) actions.push_back(f);
    ASSERT_TRUE(fs_->CreateDirs(root_ + "/_delta_log").ok());
    ASSERT_TRUE(fs_->PutIfAbsent(root_ + "/_delta_log/" + delta::CommitFileName(0),
                                 delta::SerializeCommit(actions)).ok());
  }

  std::shared_ptr<const delta::Snapshot> Snap() const {
    auto s = delta::Snapshot::Load(fs_, root_);
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    return s.ok() ? *s : nullptr;
  }

  std::unique_ptr<Transaction> Begin(TransactionOptions options = {},
                                     std::shared_ptr<const delta::Snapshot> snap = nullptr) {
    if (!snap) snap = Snap();
    options.max_backoff_ms = 0;
    auto t = Transaction::Begin(fs_, root_, snap, std::move(options));
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? std::move(t).value() : nullptr;
  }

  // `column op literal` bound to the table schema.
  expr::ExprPtr Pred(const std::string& column, const std::string& op, columnar::Value literal) const {
    auto schema = scan::BuildTableSchema(MakeMetadata(spec_));
    EXPECT_TRUE(schema.ok());
    int idx = schema->Find(column);
    EXPECT_GE(idx, 0);
    auto ref = expr::ColumnRef(idx, schema->schema[idx].type, column);
    auto call = expr::Call(op, {ref, expr::Literal(std::move(literal))});
    EXPECT_TRUE(call.ok()) << call.status().ToString();
    return call.ok() ? *call : nullptr;
  }

  const delta::AddFile* FindFile(const delta::Snapshot& s, const std::string& path) const {
    for (const auto& f : s.files()) {
      if (f.path == path) return &f;
    }
    return nullptr;
  }

  const std::shared_ptr<io::FileSystem>& fs() const { return fs_; }
  const std::string& root() const { return root_; }
  const TableSpec& spec() const { return spec_; }

 private:
  std::shared_ptr<io::FileSystem> fs_;
  std::string root_;
  TableSpec spec_;
};

inline delta::DeletionVector Rows(std::initializer_list<uint64_t> rows) {
  delta::DeletionVector dv;
  for (uint64_t r : rows) dv.Add(r);
  return dv;
}

}  // namespace shoal::txn::testing_support
