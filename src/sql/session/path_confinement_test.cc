// Tables stay inside their directories, and names inside the warehouse (issue #28, "Security
// and bad input"): a table name or a relative delta.`path` cannot leave the warehouse or reach
// its own directories; a data file or directory that a symbolic link leads out of the table is
// refused when read; VACUUM never follows or deletes links.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "shoal/database.h"
#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal {
namespace {

namespace fs = std::filesystem;
using testing::Rows;

class PathConfinementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    warehouse_ = dir_.Join("wh");
    outside_ = dir_.Join("outside");
    fs::create_directories(warehouse_);
    fs::create_directories(outside_);
    DatabaseOptions o;
    o.threads = 1;
    db_ = Database::Open(warehouse_, o).ValueOrDie();
    con_ = db_->Connect();
  }
  Status Run(const std::string& sql) { return con_->Query(sql).status(); }
  std::vector<std::string> Query(const std::string& sql) {
    auto r = con_->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    return r.ok() ? Rows(*r) : std::vector<std::string>{};
  }
  // The data files of a table directory (relative paths), not under _delta_log.
  std::vector<fs::path> DataFiles(const std::string& root) {
    std::vector<fs::path> out;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (e.is_regular_file() && e.path().extension() == ".parquet" &&
          e.path().string().find("_delta_log") == std::string::npos) {
        out.push_back(e.path());
      }
    }
    return out;
  }
  // Moves `file` to `target` and leaves a symbolic link to it (`link_text`) in its place.
  static void ReplaceWithLink(const fs::path& file, const fs::path& target, const fs::path& link_text) {
    fs::create_directories(target.parent_path());
    fs::rename(file, target);
    fs::create_symlink(link_text, file);
  }

  testing::TempDir dir_;
  std::string warehouse_;
  std::string outside_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(PathConfinementTest, TableNamesThatWouldLeaveTheWarehouseAreNamedErrors) {
  for (const char* name : {"`..`", "`../escape`", "`a/b`", "`.hidden`", "`_shoal`", "`_delta_log`", "`a\\\\b`",
                           "x.`..`", "``"}) {
    for (const std::string& sql : {"CREATE TABLE " + std::string(name) + " AS SELECT 1 AS a",
                                   "SELECT * FROM " + std::string(name), "DROP TABLE " + std::string(name)}) {
      Status st = Run(sql);
      ASSERT_FALSE(st.ok()) << sql;
      // An empty quoted identifier is the parser's error; every other name the catalog's.
      if (std::string(name) != "``") {
        EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << sql << ": " << st.ToString();
        EXPECT_NE(st.message().find("may not leave"), std::string::npos) << st.ToString();
      }
    }
  }
  EXPECT_FALSE(fs::exists(dir_.Join("escape")));
  EXPECT_FALSE(fs::exists(fs::path(warehouse_) / "a"));
  EXPECT_FALSE(fs::exists(fs::path(warehouse_) / ".hidden"));
  // Ordinary names (schema-qualified too) still work.
  ASSERT_TRUE(Run("CREATE TABLE fine AS SELECT 1 AS a").ok());
  ASSERT_TRUE(Run("CREATE TABLE s.t AS SELECT 2 AS a").ok());
  EXPECT_EQ(Query("SELECT a FROM s.t"), (std::vector<std::string>{"2"}));
}

TEST_F(PathConfinementTest, RelativeDeltaPathsLieInsideTheWarehouseAbsoluteOnesAreTheUsers) {
  ASSERT_TRUE(Run("CREATE TABLE delta.`rel/x` AS SELECT 7 AS a").ok());
  EXPECT_TRUE(fs::exists(fs::path(warehouse_) / "rel" / "x" / "_delta_log"));
  EXPECT_EQ(Query("SELECT a FROM delta.`rel/x`"), (std::vector<std::string>{"7"}));
  for (const char* path : {"../x", "rel/../../x", ".", "rel/.."}) {
    Status st = Run("CREATE TABLE delta.`" + std::string(path) + "` AS SELECT 1 AS a");
    ASSERT_FALSE(st.ok()) << path;
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  }
  EXPECT_FALSE(fs::exists(dir_.Join("x")));
  // An absolute path is the user's choice, outside the warehouse included.
  const std::string abs = outside_ + "/abs";
  ASSERT_TRUE(Run("CREATE TABLE delta.`" + abs + "` AS SELECT 8 AS a").ok());
  EXPECT_EQ(Query("SELECT a FROM delta.`" + abs + "`"), (std::vector<std::string>{"8"}));
}

TEST_F(PathConfinementTest, ADataFileLinkedOutOfTheTableIsRefused) {
  ASSERT_TRUE(Run("CREATE TABLE t AS SELECT 1 AS a").ok());
  auto files = DataFiles(warehouse_ + "/t");
  ASSERT_EQ(files.size(), 1u);
  const fs::path target = fs::path(outside_) / "stolen.parquet";
  ReplaceWithLink(files[0], target, target);
  Status st = Run("SELECT * FROM t");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.message().find("resolves outside the table"), std::string::npos) << st.ToString();
  // A relative link that escapes with ".." is refused too.
  fs::remove(files[0]);
  fs::create_symlink(fs::relative(target, files[0].parent_path()), files[0]);
  EXPECT_FALSE(Run("SELECT * FROM t").ok());
  // A link that stays inside the table reads.
  fs::remove(files[0]);
  const fs::path inside = fs::path(warehouse_) / "t" / "moved" / "data.parquet";
  fs::create_directories(inside.parent_path());
  fs::rename(target, inside);
  fs::create_symlink(fs::path("moved") / "data.parquet", files[0]);
  EXPECT_EQ(Query("SELECT a FROM t"), (std::vector<std::string>{"1"}));
}

TEST_F(PathConfinementTest, APartitionDirectoryLinkedOutOfTheTableIsRefused) {
  ASSERT_TRUE(Run("CREATE TABLE p PARTITIONED BY (k) AS SELECT 1 AS a, 5 AS k").ok());
  const fs::path part = fs::path(warehouse_) / "p" / "k=5";
  ASSERT_TRUE(fs::is_directory(part));
  const fs::path target = fs::path(outside_) / "k=5";
  fs::rename(part, target);
  fs::create_symlink(target, part);
  Status st = Run("SELECT * FROM p");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("resolves outside the table"), std::string::npos) << st.ToString();
}

TEST_F(PathConfinementTest, VacuumNeitherFollowsNorDeletesLinks) {
  ASSERT_TRUE(Run("CREATE TABLE v AS SELECT 1 AS a").ok());
  // An outside directory with an old file that is no table's, linked into the table.
  const fs::path victim_dir = fs::path(outside_) / "precious";
  fs::create_directories(victim_dir);
  const fs::path victim = victim_dir / "part-0.parquet";
  std::ofstream(victim) << "not the table's";
  const fs::path victim_file = fs::path(outside_) / "lone.parquet";
  std::ofstream(victim_file) << "nor this";
  const auto old = fs::file_time_type::clock::now() - std::chrono::hours(24 * 30);
  fs::last_write_time(victim, old);
  fs::last_write_time(victim_file, old);
  const fs::path dir_link = fs::path(warehouse_) / "v" / "evil";
  const fs::path file_link = fs::path(warehouse_) / "v" / "evil.parquet";
  fs::create_directory_symlink(victim_dir, dir_link);
  fs::create_symlink(victim_file, file_link);
  ASSERT_TRUE(Run("SET shoal.vacuum.retentionCheck = false").ok());
  ASSERT_TRUE(Run("VACUUM v RETAIN 0 HOURS").ok());
  EXPECT_TRUE(fs::exists(victim));
  EXPECT_TRUE(fs::exists(victim_file));
  EXPECT_TRUE(fs::is_symlink(dir_link));
  EXPECT_TRUE(fs::is_symlink(file_link));
  EXPECT_EQ(Query("SELECT a FROM v"), (std::vector<std::string>{"1"}));
}

}  // namespace
}  // namespace shoal
