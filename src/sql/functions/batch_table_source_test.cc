// BatchTableSource and registered relations (Session::RegisterRelation): in-memory batches read
// by name in queries, CTAS and INSERT ... SELECT, cut into scan-sized pieces.
#include "sql/functions/batch_table_source.h"

#include <gtest/gtest.h>

#include "sql/session/database_impl.h"
#include "support/testdata.h"

namespace shoal::sql {
namespace {

// All rows as "a|b" lines (support/query_rows.h's Rows, with appends instead of operator+,
// which GCC 12 warns about falsely under -Wrestrict).
std::vector<std::string> Rows(const QueryResult& r) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < r.num_rows(); ++i) {
    std::string line;
    for (int c = 0; c < r.num_columns(); ++c) {
      if (c) line += '|';
      line += r.GetText(i, c);
    }
    out.push_back(line);
  }
  return out;
}

// Batches of (i BIGINT, s STRING) with i = 0..n-1, s NULL for odd i, `per_batch` rows each.
std::shared_ptr<const BatchTableSource> Numbers(int64_t n, int64_t per_batch) {
  columnar::Schema schema;
  schema.fields = {{"i", columnar::Int64(), false}, {"s", columnar::String(), true}};
  auto sp = std::make_shared<columnar::Schema>(schema);
  std::vector<columnar::BatchPtr> batches;
  for (int64_t off = 0; off < n; off += per_batch) {
    int64_t rows = std::min(per_batch, n - off);
    auto i = columnar::Vector::Make(columnar::Int64(), rows);
    auto s = columnar::Vector::Make(columnar::String(), rows);
    for (int64_t r = off; r < off + rows; ++r) {
      i->Append<int64_t>(r);
      if (r % 2) {
        s->AppendNull();
      } else {
        std::string text = "v";  // appended, not operator+ (GCC 12's -Wrestrict false positive)
        text += std::to_string(r);
        s->AppendString(text);
      }
    }
    batches.push_back(
        std::make_shared<columnar::RecordBatch>(sp, std::vector<columnar::VectorPtr>{i, s}, rows));
  }
  return BatchTableSource::Make("numbers", schema, std::move(batches)).value();
}

class RegisteredRelation : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = 2;
    o.batch_size = 100;  // smaller than the source's batches: scans cut them
    db_ = Database::Open(dir_.path(), o).ValueOrDie();
    con_ = db_->Connect();
  }
  std::vector<std::string> Q(const std::string& sql) {
    auto r = con_->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    return r.ok() ? Rows(*r) : std::vector<std::string>{};
  }
  shoal::testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(RegisteredRelation, ReadsEveryRowOnceAcrossPieces) {
  con_->impl().session.RegisterRelation("Nums", Numbers(1000, 333));
  EXPECT_EQ(Q("SELECT count(*), sum(i), count(s) FROM nums"),
            std::vector<std::string>{"1000|499500|500"});
  EXPECT_EQ(Q("SELECT i, s FROM NUMS WHERE i IN (4, 5) ORDER BY i"),
            (std::vector<std::string>{"4|v4", "5|NULL"}));
}

TEST_F(RegisteredRelation, FeedsCreateTableAsAndInsertSelect) {
  con_->impl().session.RegisterRelation("nums", Numbers(250, 250));
  Q("CREATE TABLE t AS SELECT * FROM nums");
  Q("INSERT INTO t SELECT i + 1000, s FROM nums WHERE i < 10");
  EXPECT_EQ(Q("SELECT count(*), max(i) FROM t"), std::vector<std::string>{"260|1009"});
  EXPECT_EQ(Q("DESCRIBE t")[0].substr(0, 9), "i|bigint|");
}

TEST_F(RegisteredRelation, ShadowsATableUntilUnregistered) {
  Q("CREATE TABLE nums (x INT)");
  Q("INSERT INTO nums VALUES (7)");
  con_->impl().session.RegisterRelation("nums", Numbers(3, 3));
  EXPECT_EQ(Q("SELECT count(*) FROM nums"), std::vector<std::string>{"3"});
  auto tt = con_->Query("SELECT * FROM nums VERSION AS OF 0");
  ASSERT_FALSE(tt.ok());
  EXPECT_EQ(tt.status().code(), StatusCode::kBinder);
  con_->impl().session.RegisterRelation("nums", nullptr);
  EXPECT_EQ(Q("SELECT * FROM nums"), std::vector<std::string>{"7"});
}

TEST_F(RegisteredRelation, IsPerConnection) {
  con_->impl().session.RegisterRelation("nums", Numbers(3, 3));
  auto other = db_->Connect();
  auto r = other->Query("SELECT * FROM nums");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kCatalog);
}

TEST(BatchTableSource, RejectsBatchesThatDoNotMatchTheSchema) {
  columnar::Schema schema;
  schema.fields = {{"i", columnar::Int32(), true}};
  auto v = columnar::Vector::Make(columnar::Int64(), 1);
  v->Append<int64_t>(1);
  auto b = std::make_shared<columnar::RecordBatch>(std::make_shared<columnar::Schema>(schema),
                                                   std::vector<columnar::VectorPtr>{v}, 1);
  auto s = BatchTableSource::Make("x", schema, {b});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace shoal::sql
