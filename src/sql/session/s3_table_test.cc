// Delta tables on S3 end to end: SQL through Database/Connection on a warehouse and on
// `delta.`s3://...`` paths on the local S3 server (scripts/s3-server.sh), and concurrent writers
// with separate Database handles committing through conditional PUTs.
#include <curl/curl.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <set>
#include <thread>
#include <vector>

#include "io/routing_file_system.h"
#include "io/s3_file_system.h"
#include "shoal/database.h"
#include "support/query_rows.h"
#include "support/s3_test_server.h"
#include "support/testdata.h"

namespace shoal {
namespace {

using testing::Rows;

class S3TableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SHOAL_REQUIRE_S3(server);
    server_ = server;
    // Database::Open configures S3 from the AWS_* environment on the first s3:// path.
    setenv("AWS_ENDPOINT_URL", server_.endpoint.c_str(), 1);
    setenv("AWS_ACCESS_KEY_ID", server_.access_key.c_str(), 1);
    setenv("AWS_SECRET_ACCESS_KEY", server_.secret_key.c_str(), 1);
    root_ = server_.UniquePath("sql");
    fs_ = std::make_shared<io::S3FileSystem>(server_.Options());
  }
  void TearDown() override {
    if (fs_) (void)fs_->DeleteRecursive(root_);
  }
  std::unique_ptr<Database> Open(const std::string& warehouse) {
    auto db = Database::Open(warehouse);
    EXPECT_TRUE(db.ok()) << db.status().ToString();
    return db.ok() ? std::move(*db) : nullptr;
  }
  static std::vector<std::string> Q(Connection& c, const std::string& sql) {
    auto r = c.Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    return r.ok() ? Rows(*r) : std::vector<std::string>{};
  }
  // The commit versions in the table's _delta_log.
  std::vector<int64_t> Versions(const std::string& table_root) {
    auto entries = fs_->List(io::JoinPath(table_root, "_delta_log"));
    EXPECT_TRUE(entries.ok()) << entries.status().ToString();
    std::vector<int64_t> out;
    if (!entries.ok()) return out;
    for (const auto& e : *entries) {
      if (e.name.size() == 25 && e.name.substr(20) == ".json") out.push_back(std::stoll(e.name.substr(0, 20)));
    }
    std::sort(out.begin(), out.end());
    return out;
  }

  testing::S3TestServer server_;
  std::string root_;
  std::shared_ptr<io::S3FileSystem> fs_;
};

TEST_F(S3TableTest, WarehouseOnS3CreateInsertUpdateDeleteSelect) {
  auto db = Open(root_ + "/wh");
  ASSERT_TRUE(db);
  auto c = db->Connect();
  Q(*c, "CREATE TABLE t (id INT, v STRING)");
  Q(*c, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
  Q(*c, "INSERT INTO t VALUES (4, 'd')");
  Q(*c, "UPDATE t SET v = 'B' WHERE id = 2");
  Q(*c, "DELETE FROM t WHERE id = 3");
  EXPECT_EQ(Q(*c, "SELECT id, v FROM t ORDER BY id"), (std::vector<std::string>{"1|a", "2|B", "4|d"}));
  EXPECT_EQ(Q(*c, "SELECT count(*), sum(id) FROM t WHERE v <> 'a'"), (std::vector<std::string>{"2|6"}));
  EXPECT_EQ(Versions(root_ + "/wh/t"), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  // The same table from a second handle, by path.
  auto other = Open(server_.UniquePath("other-wh"));
  ASSERT_TRUE(other);
  auto c2 = other->Connect();
  EXPECT_EQ(Q(*c2, "SELECT id FROM delta.`" + root_ + "/wh/t` ORDER BY id"), (std::vector<std::string>{"1", "2", "4"}));
  auto again = c->Query("CREATE TABLE t (x INT)");
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kCatalog) << again.status().ToString();
  Q(*c, "DROP TABLE t");
  EXPECT_FALSE(*fs_->Exists(root_ + "/wh/t/_delta_log"));
}

// VACUUM lists and deletes on S3 (its root once lost the "//" of s3:// to path normalization
// and listed a local directory instead).
TEST_F(S3TableTest, VacuumDeletesUnreferencedFilesOnS3) {
  auto db = Open(root_);
  ASSERT_TRUE(db);
  auto c = db->Connect();
  Q(*c, "CREATE TABLE t AS SELECT id AS k FROM range(10)");
  Q(*c, "INSERT OVERWRITE t SELECT id AS k FROM range(5)");
  const std::string table = io::JoinPath(root_, "t");
  auto data_files = [&] {
    auto entries = fs_->List(table);
    EXPECT_TRUE(entries.ok()) << entries.status().ToString();
    int n = 0;
    for (const auto& e : entries.ok() ? *entries : std::vector<io::FileInfo>{}) n += e.name.ends_with(".parquet");
    return n;
  };
  const int before = data_files();
  ASSERT_GE(before, 2);
  Q(*c, "SET shoal.vacuum.retentionCheck = false");
  auto dry = Q(*c, "VACUUM t RETAIN 0 HOURS DRY RUN");
  ASSERT_FALSE(dry.empty());
  for (const std::string& path : dry) EXPECT_TRUE(path.starts_with("s3://")) << path;
  Q(*c, "VACUUM t RETAIN 0 HOURS");
  EXPECT_EQ(data_files(), before - static_cast<int>(dry.size()));
  EXPECT_EQ(Q(*c, "SELECT count(*), sum(k) FROM t"), (std::vector<std::string>{"5|10"}));
}

TEST_F(S3TableTest, PathTablesOnS3FromALocalWarehouse) {
  testing::TempDir dir;
  auto db = Open(dir.path());
  ASSERT_TRUE(db);
  auto c = db->Connect();
  const std::string t = "delta.`" + root_ + "/events`";
  Q(*c, "CREATE TABLE " + t + " AS SELECT id, id % 3 AS k FROM range(100) r(id)");
  EXPECT_EQ(Q(*c, "SELECT k, count(*) FROM " + t + " GROUP BY k ORDER BY k"),
            (std::vector<std::string>{"0|34", "1|33", "2|33"}));
  Q(*c, "DELETE FROM " + t + " WHERE k = 0");
  EXPECT_EQ(Q(*c, "SELECT count(*) FROM " + t), (std::vector<std::string>{"66"}));
  // read_parquet on the table's data files on S3 (rows deleted by the DV are still in them).
  auto files = fs_->List(root_ + "/events");
  ASSERT_TRUE(files.ok());
  int parquet_files = 0;
  for (const auto& f : *files) {
    if (f.name.size() > 8 && f.name.substr(f.name.size() - 8) == ".parquet") {
      ++parquet_files;
      auto rows = Q(*c, "SELECT count(*) > 0 FROM read_parquet('" + root_ + "/events/" + f.name + "')");
      EXPECT_EQ(rows, (std::vector<std::string>{"true"}));
    }
  }
  EXPECT_GE(parquet_files, 1);
  auto missing = c->Query("SELECT * FROM delta.`" + root_ + "/nothing-here`");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kCatalog) << missing.status().ToString();
}

// SET s3_* acts on the process's S3 client: a wrong secret makes the next statement fail with
// the named access-denied error (never echoing the secret), RESET brings back the environment's, a
// changed endpoint is used at once; SHOW never shows a secret.
TEST_F(S3TableTest, S3SettingsActAndNeverShowASecret) {
  testing::TempDir dir;
  auto db = Open(dir.path());
  ASSERT_TRUE(db);
  auto c = db->Connect();
  const std::string t = "delta.`" + root_ + "/settings`";
  Q(*c, "CREATE TABLE " + t + " AS SELECT 1 AS x");
  Q(*c, "SET s3_secret_access_key = 'not-the-secret-789'");
  EXPECT_EQ(Q(*c, "SHOW s3_secret_access_key"), std::vector<std::string>{"********"});
  auto denied = c->Query("SELECT * FROM " + t);
  ASSERT_FALSE(denied.ok());
  EXPECT_NE(denied.status().message().find("S3 access denied"), std::string::npos) << denied.status().ToString();
  EXPECT_EQ(denied.status().message().find("not-the-secret-789"), std::string::npos);
  Q(*c, "RESET s3_secret_access_key");
  EXPECT_EQ(Q(*c, "SELECT x FROM " + t), std::vector<std::string>{"1"});
  // The endpoint: host:port with s3_use_ssl = false is http://host:port.
  Q(*c, "SET s3_endpoint = '127.0.0.1:1'");
  Q(*c, "SET s3_use_ssl = false");
  EXPECT_EQ(Q(*c, "SHOW s3_endpoint"), std::vector<std::string>{"http://127.0.0.1:1"});
  auto unreachable = c->Query("SELECT * FROM " + t);
  ASSERT_FALSE(unreachable.ok());
  EXPECT_NE(unreachable.status().message().find("unreachable"), std::string::npos) << unreachable.status().ToString();
  Q(*c, "SET s3_endpoint = '" + server_.endpoint + "'");
  EXPECT_EQ(Q(*c, "SELECT x FROM " + t), std::vector<std::string>{"1"});
  Q(*c, "RESET s3_endpoint");
  EXPECT_EQ(Q(*c, "SHOW s3_endpoint"), std::vector<std::string>{server_.endpoint});
  EXPECT_EQ(c->Query("SET s3_url_style = 'sideways'").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(c->Query("SET s3_use_ssl = 'maybe'").status().code(), StatusCode::kInvalidArgument);
}

TEST_F(S3TableTest, TwoWritersAppendingManyCommitsLoseAndDuplicateNothing) {
  const std::string wh = root_ + "/wh";
  {
    auto db = Open(wh);
    ASSERT_TRUE(db);
    Q(*db->Connect(), "CREATE TABLE log (writer INT, seq INT)");
  }
  constexpr int kWriters = 2;
  constexpr int kCommits = 25;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w) {
    threads.emplace_back([&, w] {
      auto db = Database::Open(wh);  // a separate handle: nothing shared but the bucket
      if (!db.ok()) {
        ++failures;
        return;
      }
      auto c = (*db)->Connect();
      for (int i = 0; i < kCommits; ++i) {
        auto r = c->Query("INSERT INTO log VALUES (" + std::to_string(w) + ", " + std::to_string(i) + ")");
        if (!r.ok()) {
          ADD_FAILURE() << "writer " << w << " commit " << i << ": " << r.status().ToString();
          ++failures;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  auto db = Open(wh);
  ASSERT_TRUE(db);
  auto c = db->Connect();
  EXPECT_EQ(Q(*c, "SELECT count(*), count(DISTINCT writer * 1000 + seq) FROM log"),
            (std::vector<std::string>{std::to_string(kWriters * kCommits) + "|" + std::to_string(kWriters * kCommits)}));
  std::vector<int64_t> want;
  for (int64_t v = 0; v <= kWriters * kCommits; ++v) want.push_back(v);
  EXPECT_EQ(Versions(wh + "/log"), want);  // one commit per INSERT, no gap, no duplicate
}

TEST_F(S3TableTest, ConcurrentCreateOfOneNewTableHasOneWinner) {
  const std::string wh = root_ + "/wh";
  constexpr int kCreators = 4;
  std::atomic<int> ready{0}, wins{0}, already{0}, other{0};
  std::vector<std::thread> threads;
  for (int i = 0; i < kCreators; ++i) {
    threads.emplace_back([&, i] {
      auto db = Database::Open(wh);
      if (!db.ok()) {
        ++other;
        return;
      }
      auto c = (*db)->Connect();
      ready.fetch_add(1);
      while (ready.load() < kCreators) std::this_thread::yield();
      auto r = c->Query("CREATE TABLE t AS SELECT " + std::to_string(i) + " AS creator");
      if (r.ok()) {
        ++wins;
      } else if (r.status().code() == StatusCode::kCatalog || r.status().conflict() == ConflictKind::kProtocolChanged) {
        ++already;
      } else {
        ADD_FAILURE() << r.status().ToString();
        ++other;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wins.load(), 1);
  EXPECT_EQ(already.load(), kCreators - 1);
  EXPECT_EQ(other.load(), 0);
  auto db = Open(wh);
  ASSERT_TRUE(db);
  EXPECT_EQ(Q(*db->Connect(), "SELECT count(*) FROM t"), (std::vector<std::string>{"1"}));
  EXPECT_EQ(Versions(wh + "/t"), (std::vector<int64_t>{0}));
}

// Faults on a fixed share of attempts, decided by a hash of the attempt's number: 503
// SlowDown before sending, connection resets after the server acted (conditional PUTs
// included, which must then be read back, not sent again), truncated GET bodies.
class RandomFaults final : public io::S3FaultInjector {
 public:
  bool BeforeSend(const io::S3Request&, io::S3Response* fake, int*) override {
    if (Roll() % 100 >= 8) return false;
    ++slowdowns;
    fake->status = 503;
    fake->body = "<Error><Code>SlowDown</Code></Error>";
    return true;
  }
  void AfterSend(const io::S3Request& req, io::S3Response* resp, int* code) override {
    if (*code != 0) return;
    const uint64_t r = Roll() % 100;
    if (r < 6) {
      ++resets;
      *resp = io::S3Response();
      *code = CURLE_RECV_ERROR;
    } else if (r < 12 && (req.kind == io::S3RequestKind::kGet || req.kind == io::S3RequestKind::kGetRange) && resp->body.size() > 1) {
      ++truncations;
      resp->body.resize(resp->body.size() / 2);
    }
  }
  std::atomic<int> slowdowns{0}, resets{0}, truncations{0};

 private:
  uint64_t Roll() {
    uint64_t x = n_.fetch_add(1) * 0x9E3779B97F4A7C15ull + 12345;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    return x ^ (x >> 29);
  }
  std::atomic<uint64_t> n_{0};
};

TEST_F(S3TableTest, QueriesAndCommitsStayRightUnderInjectedFaults) {
  const std::string wh = root_ + "/wh";
  auto db = Open(wh);
  ASSERT_TRUE(db);
  auto c = db->Connect();
  Q(*c, "CREATE TABLE t (id INT, v STRING)");
  Q(*c, "INSERT INTO t SELECT i, CAST(i AS STRING) FROM range(1000) r(i)");
  auto routing = std::dynamic_pointer_cast<io::RoutingFileSystem>(io::DefaultFileSystem());
  ASSERT_TRUE(routing);
  std::shared_ptr<io::S3FileSystem> s3 = routing->s3_if_used();
  ASSERT_TRUE(s3);
  auto faults = std::make_shared<RandomFaults>();
  s3->SetFaultInjector(faults);
  int64_t rows = 1000, sum = 999 * 1000 / 2;
  for (int i = 0; i < 12; ++i) {
    const int id = 1000 + i;
    auto r = c->Query("INSERT INTO t VALUES (" + std::to_string(id) + ", 'x')");
    ASSERT_TRUE(r.ok()) << "insert " << i << ": " << r.status().ToString();
    rows += 1;
    sum += id;
    EXPECT_EQ(Q(*c, "SELECT count(*), sum(id) FROM t"),
              (std::vector<std::string>{std::to_string(rows) + "|" + std::to_string(sum)}));
  }
  auto upd = c->Query("UPDATE t SET v = 'even' WHERE id % 2 = 0");
  ASSERT_TRUE(upd.ok()) << upd.status().ToString();
  auto del = c->Query("DELETE FROM t WHERE id < 100");
  ASSERT_TRUE(del.ok()) << del.status().ToString();
  EXPECT_EQ(Q(*c, "SELECT count(*), sum(CASE WHEN v = 'even' THEN 1 ELSE 0 END) FROM t"), (std::vector<std::string>{"912|456"}));
  s3->SetFaultInjector(nullptr);
  EXPECT_GT(faults->slowdowns.load() + faults->resets.load() + faults->truncations.load(), 10);
  EXPECT_EQ(Q(*c, "SELECT count(*), min(id), max(id) FROM t"), (std::vector<std::string>{"912|100|1011"}));
  std::vector<int64_t> want;
  for (int64_t v = 0; v <= 15; ++v) want.push_back(v);
  EXPECT_EQ(Versions(wh + "/t"), want);  // every commit once: none lost, none doubled by a retry
}

}  // namespace
}  // namespace shoal
