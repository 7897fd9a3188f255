// Dictionary-coded strings end to end (columnar/vector.h): every query answers the same with
// the scans' coded strings on (SET shoal.coded_strings, the default) as off, whichever
// operators take coded vectors (filter, projection, aggregate) or get them decoded (joins,
// sorts, windows, set operations, results), and the coded path is really taken.
#include <gtest/gtest.h>

#include <algorithm>

#include "shoal/database.h"
#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal {
namespace {

class CodedStringsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = 2;
    o.batch_size = 512;
    auto db = Database::Open(dir_.path(), o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    con_ = db_->Connect();
    // Low-cardinality strings (dictionary-encoded by the writer) with NULLs and empty strings,
    // one high-cardinality column, and a second table to join on a string key.
    Exec("CREATE TABLE t AS SELECT i AS k, "
         "CASE WHEN i % 17 = 0 THEN NULL ELSE 'mode' || CAST(i % 7 AS STRING) END AS mode, "
         "CASE WHEN i % 5 = 0 THEN '' ELSE 'city-' || CAST(i % 23 AS STRING) END AS city, "
         "'name#' || CAST(i * 7919 % 30011 AS STRING) AS name, "
         "CAST(i % 100 AS INT) AS qty "
         "FROM range(30000) AS r(i)");
    Exec("CREATE TABLE u AS SELECT 'mode' || CAST(i AS STRING) AS mode, i * 10 AS weight FROM range(5) AS r(i)");
    Exec("DELETE FROM t WHERE k % 101 = 3");  // deletion vectors under the coded columns
  }

  void Exec(const std::string& sql) {
    auto r = con_->Query(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  }

  std::vector<std::string> Sorted(const std::string& sql) {
    auto r = con_->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    if (!r.ok()) return {};
    std::vector<std::string> rows = testing::Rows(*r);
    std::sort(rows.begin(), rows.end());
    return rows;
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(CodedStringsTest, EveryOperatorAnswersAsWithDecodedStrings) {
  const std::vector<std::string> queries = {
      "SELECT mode, count(*), sum(qty) FROM t GROUP BY mode",
      "SELECT mode, city, count(*) FROM t GROUP BY mode, city",
      "SELECT mode, qty % 3, count(*) FROM t GROUP BY mode, qty % 3",
      "SELECT substring(city, 1, 6) AS c, count(*) FROM t GROUP BY substring(city, 1, 6)",
      "SELECT upper(mode), min(city), max(city), count(DISTINCT city) FROM t GROUP BY upper(mode)",
      "SELECT count(*) FROM t WHERE mode IN ('mode1', 'mode3') AND city <> ''",
      "SELECT k, mode FROM t WHERE mode LIKE '%5' AND k < 400",
      "SELECT k FROM t WHERE mode IS NULL AND k < 2000",
      "SELECT count(*) FROM t WHERE coalesce(mode, 'none') = 'none'",
      "SELECT k, upper(mode) || '/' || city FROM t WHERE k BETWEEN 100 AND 300",
      "SELECT t.mode, sum(u.weight) FROM t JOIN u ON t.mode = u.mode GROUP BY t.mode",
      "SELECT count(*) FROM t LEFT JOIN u ON t.mode = u.mode WHERE u.weight IS NULL",
      "SELECT t.city, count(*) FROM t JOIN u ON t.mode = u.mode GROUP BY t.city",
      "SELECT u.weight, t.city, max(t.name) FROM t JOIN u ON t.mode = u.mode GROUP BY u.weight, t.city",
      "SELECT count(*) FROM t JOIN u ON t.mode = u.mode AND t.city || 'x' <> u.mode",
      "SELECT t.k, t.city, u.mode FROM u LEFT JOIN t ON u.mode = t.mode AND t.k < 30",
      "SELECT count(*), min(city) FROM t WHERE mode IN (SELECT mode FROM u WHERE weight > 10)",
      "SELECT count(*) FROM t WHERE NOT EXISTS (SELECT 1 FROM u WHERE u.mode = t.mode)",
      "SELECT DISTINCT mode, city FROM t",
      "SELECT mode FROM t WHERE k < 50 UNION SELECT mode FROM u",
      "SELECT mode, k, row_number() OVER (PARTITION BY mode ORDER BY k) FROM t WHERE k < 300",
      "SELECT k, city FROM t ORDER BY city, k LIMIT 40",
      "SELECT name, mode FROM t WHERE name LIKE 'name#1%' AND k < 5000",
      "SELECT max(name), min(mode), count(DISTINCT mode), count(DISTINCT city) FROM t",
      "SELECT mode, count(*) FROM t WHERE city IN (SELECT city FROM t WHERE k < 10) GROUP BY mode",
  };
  for (const std::string& q : queries) {
    Exec("SET shoal.coded_strings = 'off'");
    std::vector<std::string> want = Sorted(q);
    Exec("SET shoal.coded_strings = 'on'");
    std::vector<std::string> got = Sorted(q);
    ASSERT_FALSE(want.empty()) << q;
    EXPECT_EQ(got, want) << q;
  }
}

TEST_F(CodedStringsTest, TheWriterDictionaryEncodesTheColumnsSoTheCodedPathRuns) {
  // The scan reads dictionary-encoded chunks only: check the files are, or the test above
  // would compare the plain path with itself.
  std::string sql = "SELECT count(*) FROM parquet_metadata('";
  sql += dir_.path();
  sql += "/t/*.parquet') WHERE path_in_schema = 'mode' AND encodings LIKE '%DICTIONARY%'";
  auto r = con_->Query(sql);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_NE(testing::Rows(*r), std::vector<std::string>{"0"});
}

}  // namespace
}  // namespace shoal
