// The generator follows the specification's shape: row counts, key relationships, derived
// columns, the strings the queries look for; and gives the same rows on every run.
#include "tpch/dbgen.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "shoal/database.h"
#include "support/testdata.h"
#include "tpch/answer.h"

namespace shoal::tpch {
namespace {

constexpr double kSf = 0.01;

std::string Bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The data, generated once for the tests of this file.
class TpchDbgen : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new testing::TempDir();
    DbgenOptions o;
    o.scale_factor = kSf;
    o.out_dir = dir_->Join("data");
    auto rows = GenerateTpch(o);
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    rows_ = new std::map<std::string, int64_t>(*rows);
  }
  static void TearDownTestSuite() {
    delete dir_;
    delete rows_;
  }
  static std::string Table(const std::string& t) { return "read_parquet('" + dir_->Join("data") + "/" + t + "/*.parquet')"; }
  // The single integer a query returns.
  static int64_t Scalar(const std::string& sql) {
    auto db = Database::Open(dir_->Join("wh"));
    EXPECT_TRUE(db.ok());
    auto con = (*db)->Connect();
    auto r = con->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << "\n" << r.status().ToString();
    if (!r.ok() || r->num_rows() != 1) return -999;
    return std::stoll(r->GetText(0, 0));
  }
  static testing::TempDir* dir_;
  static std::map<std::string, int64_t>* rows_;
};
testing::TempDir* TpchDbgen::dir_ = nullptr;
std::map<std::string, int64_t>* TpchDbgen::rows_ = nullptr;

TEST_F(TpchDbgen, RowCountsFollowTheSpec) {
  EXPECT_EQ((*rows_)["region"], 5);
  EXPECT_EQ((*rows_)["nation"], 25);
  EXPECT_EQ((*rows_)["supplier"], 100);
  EXPECT_EQ((*rows_)["part"], 2000);
  EXPECT_EQ((*rows_)["partsupp"], 8000);
  EXPECT_EQ((*rows_)["customer"], 1500);
  EXPECT_EQ((*rows_)["orders"], 15000);
  // 1..7 lines per order, uniformly: 4 per order on average.
  EXPECT_GT((*rows_)["lineitem"], 15000 * 39 / 10);
  EXPECT_LT((*rows_)["lineitem"], 15000 * 41 / 10);
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("lineitem")), (*rows_)["lineitem"]);
  EXPECT_EQ(SpecRowCount("lineitem", 1), -1);
  EXPECT_EQ(SpecRowCount("supplier", 1), 10000);
  EXPECT_EQ(SpecRowCount("part", 10), 2000000);
  EXPECT_EQ(SpecRowCount("partsupp", 10), 8000000);
  EXPECT_EQ(SpecRowCount("customer", 0.1), 15000);
  EXPECT_EQ(SpecRowCount("orders", 10), 15000000);
  EXPECT_EQ(SpecRowCount("nation", 10), 25);
}

TEST_F(TpchDbgen, SameRowsOnEveryRunWhateverTheBatchSize) {
  testing::TempDir again;
  DbgenOptions o;
  o.scale_factor = kSf;
  o.out_dir = again.path();
  auto rows = GenerateTpch(o);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  for (const auto& t : TableNames()) {
    const auto file = "/" + t + "/" + t + "-000.parquet";
    EXPECT_EQ(Bytes(dir_->Join("data") + file), Bytes(again.path() + file)) << t;
  }
  // Smaller batches and files: the same rows (values are drawn per row, not per batch).
  testing::TempDir small;
  o.out_dir = small.path();
  o.batch_rows = 1500;
  o.max_rows_per_file = 20000;
  o.tables = {"lineitem"};
  rows = GenerateTpch(o);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_TRUE(std::filesystem::exists(small.path() + "/lineitem/lineitem-002.parquet"));
  auto db = Database::Open(dir_->Join("wh"));
  ASSERT_TRUE(db.ok());
  auto con = (*db)->Connect();
  const std::string order = " ORDER BY l_orderkey, l_linenumber";
  auto a = RunQueryText(*con, "SELECT * FROM " + Table("lineitem") + order);
  auto b = RunQueryText(*con, "SELECT * FROM read_parquet('" + small.path() + "/lineitem/*.parquet')" + order);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->rows.size(), b->rows.size());
  EXPECT_TRUE(a->rows == b->rows);
}

TEST_F(TpchDbgen, KeysJoinAsTheSpecRelatesThem) {
  const std::string l = Table("lineitem"), ps = Table("partsupp"), o = Table("orders"), c = Table("customer");
  // Every lineitem (part, supplier) is a partsupp row; partsupp's pairs are unique.
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + l + " LEFT JOIN " + ps +
                   " ON l_partkey = ps_partkey AND l_suppkey = ps_suppkey WHERE ps_partkey IS NULL"),
            0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM (SELECT ps_partkey, ps_suppkey FROM " + ps +
                   " GROUP BY ps_partkey, ps_suppkey HAVING count(*) > 1) d"),
            0);
  // Every order's customer exists, and no customer key divisible by 3 ordered.
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + o + " LEFT JOIN " + c + " ON o_custkey = c_custkey WHERE c_custkey IS NULL"), 0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + o + " WHERE o_custkey % 3 = 0"), 0);
  EXPECT_GT(Scalar("SELECT count(DISTINCT o_custkey) FROM " + o), 900);
  // Sparse order keys: 8 used of every 32; every lineitem has its order, 1..7 lines each.
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + o + " WHERE (o_orderkey - 1) % 32 >= 8"), 0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM (SELECT l_orderkey, count(*) AS n, max(l_linenumber) AS m FROM " + l +
                   " GROUP BY l_orderkey) x LEFT JOIN " + o +
                   " ON l_orderkey = o_orderkey WHERE o_orderkey IS NULL OR n > 7 OR m <> n"),
            0);
}

TEST_F(TpchDbgen, DerivedColumnsFollowTheirLines) {
  const std::string l = Table("lineitem"), o = Table("orders");
  const std::string per_order =
      "(SELECT l_orderkey, count(*) AS n, sum(CASE WHEN l_linestatus = 'F' THEN 1 ELSE 0 END) AS f, "
      "sum(l_extendedprice * (1 + l_tax) * (1 - l_discount)) AS t FROM " + l + " GROUP BY l_orderkey) x";
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + o + " JOIN " + per_order + " ON o_orderkey = l_orderkey WHERE "
                   "o_orderstatus <> CASE WHEN f = n THEN 'F' WHEN f = 0 THEN 'O' ELSE 'P' END"),
            0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + o + " JOIN " + per_order +
                   " ON o_orderkey = l_orderkey WHERE abs(o_totalprice - t) > 0.005"),
            0);
  // All three statuses occur; returnflag N exactly for lines received after 1995-06-17.
  EXPECT_EQ(Scalar("SELECT count(DISTINCT o_orderstatus) FROM " + o), 3);
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + l + " WHERE (l_returnflag = 'N') <> (l_receiptdate > DATE '1995-06-17')"), 0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + l + " WHERE (l_linestatus = 'O') <> (l_shipdate > DATE '1995-06-17')"), 0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + l + " JOIN " + Table("part") +
                   " ON l_partkey = p_partkey WHERE l_extendedprice <> l_quantity * p_retailprice"),
            0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + o + " WHERE o_orderdate < DATE '1992-01-01' OR o_orderdate > DATE '1998-08-02'"), 0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + l + " JOIN " + o + " ON l_orderkey = o_orderkey WHERE "
                   "l_shipdate <= o_orderdate OR l_shipdate > o_orderdate + 121 OR "
                   "l_commitdate < o_orderdate + 30 OR l_commitdate > o_orderdate + 90 OR "
                   "l_receiptdate <= l_shipdate OR l_receiptdate > l_shipdate + 30"),
            0);
}

TEST_F(TpchDbgen, ValuesTheQueriesLookFor) {
  // Phones carry the nation: country code = nationkey + 10.
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("customer") +
                   " WHERE CAST(substring(c_phone, 1, 2) AS BIGINT) <> c_nationkey + 10 OR length(c_phone) <> 15"),
            0);
  EXPECT_GT(Scalar("SELECT count(*) FROM " + Table("orders") + " WHERE o_comment LIKE '%special%requests%'"), 0);
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("supplier") + " WHERE s_comment LIKE '%Customer%Complaints%'"), 1);
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("supplier") + " WHERE s_comment LIKE '%Customer%Recommends%'"), 1);
  EXPECT_GT(Scalar("SELECT count(*) FROM " + Table("part") + " WHERE p_name LIKE '%green%'"), 0);
  EXPECT_GT(Scalar("SELECT count(*) FROM " + Table("part") + " WHERE p_name LIKE 'forest%'"), 0);
  EXPECT_EQ(Scalar("SELECT count(DISTINCT p_type) FROM " + Table("part")), 150);
  EXPECT_EQ(Scalar("SELECT count(DISTINCT p_container) FROM " + Table("part")), 40);
  EXPECT_EQ(Scalar("SELECT count(DISTINCT p_brand) FROM " + Table("part")), 25);
  EXPECT_EQ(Scalar("SELECT count(*) FROM " + Table("part") +
                   " WHERE p_retailprice * 100 <> 90000 + (((p_partkey - p_partkey % 10) / 10) % 20001) + 100 * (p_partkey % 1000)"),
            0);
}

}  // namespace
}  // namespace shoal::tpch
