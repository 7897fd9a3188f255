// EXPLAIN ANALYZE's pruning report and SET shoal.prewhere, end to end through a Connection.
#include "sql/execution/explain_analyze.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "sql/session/session.h"
#include "support/testdata.h"

namespace shoal::sql {
namespace {

using ::testing::HasSubstr;

// The first line of `lines` that starts (after indentation) with `prefix`; "" if none.
std::string LineStarting(const std::vector<std::string>& lines, const std::string& prefix) {
  for (const std::string& l : lines) {
    size_t p = l.find_first_not_of(' ');
    if (p != std::string::npos && l.compare(p, prefix.size(), prefix) == 0) return l;
  }
  return "";
}

TEST(PruningReport, NamesEveryLevelWithItsCount) {
  ScanMetrics m;
  m.files_total = 11;
  m.files_read = 5;
  m.files_pruned_partition = 2;
  m.files_pruned_stats = 4;
  m.row_groups_total = 23;
  m.row_groups_read = 9;
  m.row_groups_pruned_stats = 7;
  m.row_groups_pruned_dictionary = 3;
  m.row_groups_pruned_bloom = 4;
  m.pages_total = 101;
  m.pages_read = 61;
  m.pages_pruned_index = 13;
  m.rows_pruned_index = 1700;
  m.rows_prewhere_filtered = 1900;
  m.pages_skipped_prewhere = 17;
  m.rows_deleted_dv = 19;
  m.bytes_read = 12345;
  m.rows_scanned = 2900;
  m.rows_returned = 29;
  auto lines = PruningReport(m);
  EXPECT_THAT(LineStarting(lines, "partitions"), HasSubstr("files pruned 2 of 11"));
  EXPECT_THAT(LineStarting(lines, "log statistics"), HasSubstr("files pruned 4 of 11"));
  EXPECT_THAT(LineStarting(lines, "row-group stats"), HasSubstr("row groups pruned 7 of 23"));
  EXPECT_THAT(LineStarting(lines, "page index"), HasSubstr("pages pruned 13, rows pruned 1700"));
  EXPECT_THAT(LineStarting(lines, "dictionary"), HasSubstr("row groups pruned 3"));
  EXPECT_THAT(LineStarting(lines, "bloom filter"), HasSubstr("row groups pruned 4"));
  EXPECT_THAT(LineStarting(lines, "prewhere"), HasSubstr("rows filtered 1900, pages skipped 17"));
  EXPECT_THAT(LineStarting(lines, "deletion vectors"), HasSubstr("rows deleted 19"));
  EXPECT_EQ(LineStarting(lines, "Read:"),
            "Read: files 5 of 11, row groups 9 of 23, pages 61 of 101, bytes 12345, rows scanned 2900, "
            "rows returned 29");
}

TEST(PrewhereSetting, ParsesOnOffAutoInAnyCase) {
  EXPECT_EQ(*ParsePrewhereMode("on"), PrewhereMode::kOn);
  EXPECT_EQ(*ParsePrewhereMode("OFF"), PrewhereMode::kOff);
  EXPECT_EQ(*ParsePrewhereMode("Auto"), PrewhereMode::kAuto);
  EXPECT_EQ(*ParsePrewhereMode("true"), PrewhereMode::kOn);
  EXPECT_EQ(*ParsePrewhereMode("false"), PrewhereMode::kOff);
  auto bad = ParsePrewhereMode("sometimes");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().ToString(), HasSubstr("'sometimes'"));
}

class ExplainAnalyzeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = 2;
    auto db = Database::Open(dir_.path(), o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    con_ = db_->Connect();
  }
  void Exec(const std::string& sql) {
    auto r = con_->Query(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  }
  std::vector<std::string> Lines(const std::string& sql) {
    auto r = con_->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    std::vector<std::string> out;
    if (!r.ok()) return out;
    for (int64_t i = 0; i < r->num_rows(); ++i) out.push_back(r->GetText(i, 0));
    return out;
  }
  // The number after `key` in the line starting with `level`; -1 if absent.
  int64_t Count(const std::vector<std::string>& lines, const std::string& level, const std::string& key) {
    std::string l = LineStarting(lines, level);
    std::smatch m;
    if (!std::regex_search(l, m, std::regex(key + " ([0-9]+)"))) return -1;
    return std::stoll(m[1].str());
  }
  // Four files of 1000 rows each; k is 0..3999, file f holds k in [1000 f, 1000 f + 1000).
  void MakeTable() {
    Exec("CREATE TABLE t (k BIGINT, s STRING, pad STRING) TBLPROPERTIES ('delta.enableDeletionVectors' = 'true')");
    for (int f = 0; f < 4; ++f) {
      Exec("INSERT INTO t SELECT i, 'v' || (i % 10)::VARCHAR, repeat('x', 20) || i::VARCHAR FROM range(" +
           std::to_string(1000 * f) + ", " + std::to_string(1000 * f + 1000) + ") r(i)");
    }
  }
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(ExplainAnalyzeTest, ReportsFilesPrunedByLogStatistics) {
  MakeTable();
  auto lines = Lines("EXPLAIN ANALYZE SELECT pad FROM t WHERE k = 1500");
  EXPECT_EQ(Count(lines, "log statistics", "files pruned"), 3);
  EXPECT_EQ(Count(lines, "Read:", "files"), 1);
  EXPECT_EQ(Count(lines, "Read:", "rows returned"), 1);
}

TEST_F(ExplainAnalyzeTest, ReportsDeletionVectorRows) {
  MakeTable();
  Exec("DELETE FROM t WHERE k >= 10 AND k < 15");
  auto lines = Lines("EXPLAIN ANALYZE SELECT count(*) FROM t WHERE k < 1000");
  EXPECT_EQ(Count(lines, "deletion vectors", "rows deleted"), 5);
  EXPECT_EQ(Count(lines, "Read:", "files"), 1);
}

TEST_F(ExplainAnalyzeTest, PrewhereSettingReachesTheScan) {
  MakeTable();
  const std::string q = "SELECT k, pad FROM t WHERE s = 'v3' AND k < 1000";
  Exec("SET shoal.prewhere = 'on'");
  auto on = Lines("EXPLAIN ANALYZE " + q);
  Exec("SET shoal.prewhere = 'off'");
  auto off = Lines("EXPLAIN ANALYZE " + q);
  // Only the first file can match; 100 of its 1000 rows do.
  EXPECT_EQ(Count(on, "Read:", "rows returned"), 100);
  EXPECT_EQ(Count(off, "Read:", "rows returned"), 100);
  EXPECT_EQ(Count(on, "prewhere", "rows filtered"), 900);
  EXPECT_EQ(Count(off, "prewhere", "rows filtered"), 0);
  // The answer does not depend on the setting.
  auto r_off = Lines("SELECT count(*) FROM (" + q + ") x");
  Exec("RESET shoal.prewhere");
  auto r_auto = Lines("SELECT count(*) FROM (" + q + ") x");
  EXPECT_EQ(r_off, std::vector<std::string>{"100"});
  EXPECT_EQ(r_auto, std::vector<std::string>{"100"});
}

TEST_F(ExplainAnalyzeTest, RejectsAnUnknownPrewhereValueAndKeepsTheOldOne) {
  MakeTable();
  Exec("SET shoal.prewhere = 'off'");
  auto r = con_->Query("SET shoal.prewhere = 'sometimes'");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().ToString(), HasSubstr("shoal.prewhere"));
  auto lines = Lines("EXPLAIN ANALYZE SELECT k, pad FROM t WHERE s = 'v3'");
  EXPECT_EQ(Count(lines, "prewhere", "rows filtered"), 0);
}

}  // namespace
}  // namespace shoal::sql
