// Test fixture for DML: a warehouse with Delta tables of rows (id BIGINT, v BIGINT, s STRING,
// p INT) written directly through the table layer (several files and row groups), DML
// statements run through sql/write/dml.h in their own transactions, and the table read back as a
// multiset of rows. Independent of CREATE TABLE / INSERT in SQL.
#pragma once

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "scan/delta_scan.h"
#include "shoal/database.h"
#include "sql/binder/catalog.h"
#include "sql/session/database_impl.h"
#include "sql/write/dml.h"
#include "sql/parser/parser.h"
#include "table/data_file_writer.h"
#include "table/table_creator.h"
#include "support/testdata.h"
#include "txn/transaction.h"

namespace shoal::sql::dml_testing {

struct Row {
  std::optional<int64_t> id, v;
  std::optional<std::string> s;
  std::optional<int32_t> p;
};

inline std::string Text(const Row& r) {
  auto num = [](const auto& o) { return o ? std::to_string(*o) : std::string("NULL"); };
  return num(r.id) + "|" + num(r.v) + "|" + (r.s ? *r.s : std::string("NULL")) + "|" + num(r.p);
}

struct TableOptions {
  bool partitioned = false;  // PARTITIONED BY (p)
  bool deletion_vectors = true;
  std::map<std::string, std::string> extra;  // more table properties
  bool v_not_null = false;   // v BIGINT NOT NULL

  TableOptions& Partitioned(bool on = true) { partitioned = on; return *this; }
  TableOptions& Dvs(bool on) { deletion_vectors = on; return *this; }
  TableOptions& Property(const std::string& k, const std::string& v) { extra[k] = v; return *this; }
  TableOptions& VNotNull() { v_not_null = true; return *this; }
};

class DmlFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    auto db = Database::Open(dir_.path());
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    fs_ = db_->impl().fs;
  }

  std::string Root(const std::string& name) const { return db_->warehouse_dir() + "/" + name; }

  columnar::Schema MakeSchema(const TableOptions& o) const {
    columnar::Schema s;
    s.fields = {{"id", columnar::Int64(), true},
                {"v", columnar::Int64(), !o.v_not_null},
                {"s", columnar::String(), true},
                {"p", columnar::Int32(), true}};
    return s;
  }

  void Create(const std::string& name, const TableOptions& o) {
    std::map<std::string, std::string> props = o.extra;
    props["delta.enableDeletionVectors"] = o.deletion_vectors ? "true" : "false";
    std::vector<std::string> parts;
    if (o.partitioned) parts.push_back("p");
    auto r = table::CreateTable(fs_, Root(name), name, MakeSchema(o), parts, props);
    ASSERT_TRUE(r.ok()) << r.status().ToString();
  }

  // Appends `rows` in files of `rows_per_file` rows, row groups of `rows_per_group`.
  void Append(const std::string& name, const std::vector<Row>& rows, int64_t rows_per_file = 1 << 20,
              int64_t rows_per_group = 1 << 20) {
    auto table = scan::DeltaTable::Open(fs_, Root(name));
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    auto txn = txn::Transaction::Begin(fs_, Root(name), (*table)->snapshot());
    ASSERT_TRUE(txn.ok()) << txn.status().ToString();
    for (size_t start = 0; start < rows.size(); start += static_cast<size_t>(rows_per_file)) {
      size_t end = std::min(rows.size(), start + static_cast<size_t>(rows_per_file));
      table::DataFileWriterOptions wo;
      wo.max_row_group_rows = rows_per_group;
      auto w = table::DataFileWriter::Make(fs_, Root(name), (*txn)->metadata(), wo);
      ASSERT_TRUE(w.ok()) << w.status().ToString();
      auto schema = std::make_shared<columnar::Schema>((*w)->schema());
      auto id = columnar::Vector::Make(columnar::Int64());
      auto v = columnar::Vector::Make(columnar::Int64());
      auto s = columnar::Vector::Make(columnar::String());
      auto p = columnar::Vector::Make(columnar::Int32());
      for (size_t i = start; i < end; ++i) {
        const Row& r = rows[i];
        r.id ? id->Append<int64_t>(*r.id) : id->AppendNull();
        r.v ? v->Append<int64_t>(*r.v) : v->AppendNull();
        r.s ? s->AppendString(*r.s) : s->AppendNull();
        r.p ? p->Append<int32_t>(*r.p) : p->AppendNull();
      }
      columnar::RecordBatch b(schema, {id, v, s, p}, static_cast<int64_t>(end - start));
      ASSERT_TRUE((*w)->Write(b).ok());
      auto adds = (*w)->Finish();
      ASSERT_TRUE(adds.ok()) << adds.status().ToString();
      for (auto& a : *adds) (*txn)->AddFile(a);
    }
    auto c = (*txn)->Commit();
    ASSERT_TRUE(c.ok()) << c.status().ToString();
  }

  // A DML statement prepared on the latest snapshot, committed by Commit().
  struct Pending {
    std::unique_ptr<Statement> statement;
    std::unique_ptr<txn::Transaction> txn;
    std::vector<std::string> staged;
    DmlCounts counts;
  };

  Result<std::unique_ptr<Pending>> Prepare(const std::string& name, const std::string& sql, int batch_size = 64) {
    auto p = std::make_unique<Pending>();
    ASSIGN_OR_RETURN(p->statement, ParseStatement(sql));
    ASSIGN_OR_RETURN(auto table, scan::DeltaTable::Open(fs_, Root(name)));
    ASSIGN_OR_RETURN(p->txn, txn::Transaction::Begin(fs_, Root(name), table->snapshot()));
    Catalog catalog(fs_, db_->warehouse_dir());
    ExecContext ctx;
    ctx.batch_size = batch_size;
    DmlEnvironment env{&catalog, &ctx};
    DmlTarget target{fs_, table, p->txn.get(), &p->staged};
    const Statement& st = *p->statement;
    if (st.kind == StatementKind::kDelete) {
      ASSIGN_OR_RETURN(p->counts, ExecuteDelete(st.As<DeleteStatement>(), target, env));
    } else if (st.kind == StatementKind::kUpdate) {
      ASSIGN_OR_RETURN(p->counts, ExecuteUpdate(st.As<UpdateStatement>(), target, env));
    } else if (st.kind == StatementKind::kMerge) {
      ASSIGN_OR_RETURN(p->counts, ExecuteMerge(st.As<MergeStatement>(), target, env));
    } else {
      return Status::InvalidArgument("not DML: " + sql);
    }
    return p;
  }

  Result<DmlCounts> Exec(const std::string& name, const std::string& sql) {
    ASSIGN_OR_RETURN(auto p, Prepare(name, sql));
    ASSIGN_OR_RETURN(auto c, p->txn->Commit());
    (void)c;
    return p->counts;
  }

  std::multiset<std::string> Rows(const std::string& sql) {
    std::multiset<std::string> out;
    auto con = db_->Connect();
    auto r = con->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    if (!r.ok()) return out;
    for (int64_t i = 0; i < r->num_rows(); ++i) {
      std::string line;
      for (int c = 0; c < r->num_columns(); ++c) {
        if (c) line += '|';
        line += r->GetText(i, c);
      }
      out.insert(line);
    }
    return out;
  }
  std::multiset<std::string> TableRows(const std::string& name) {
    return Rows("SELECT id, v, s, p FROM " + name);
  }
  int64_t Count(const std::string& sql) {
    auto rows = Rows(sql);
    return rows.empty() ? -1 : std::stoll(*rows.begin());
  }
  // Rows in the table's data files, deleted ones included.
  int64_t RawRows(const std::string& name) {
    return Count("SELECT count(*) FROM read_parquet('" + Root(name) + "/**/*.parquet')");
  }
  std::shared_ptr<const delta::Snapshot> Latest(const std::string& name) {
    auto t = scan::DeltaTable::Open(fs_, Root(name));
    EXPECT_TRUE(t.ok()) << t.status().ToString();
    return t.ok() ? (*t)->snapshot() : nullptr;
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::shared_ptr<io::FileSystem> fs_;
};

inline std::multiset<std::string> Texts(const std::vector<Row>& rows) {
  std::multiset<std::string> out;
  for (const auto& r : rows) out.insert(Text(r));
  return out;
}

}  // namespace shoal::sql::dml_testing
