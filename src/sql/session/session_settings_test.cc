// SET, RESET and SHOW of settings (session_settings.cc): only known keys are accepted, each
// value is checked when it is set, SHOW prints the current value or the default, and
// memory_limit is the database's (every connection sees a SET of it).
#include <gtest/gtest.h>

#include "base/byte_size.h"
#include "shoal/database.h"
#include "shoal/prepared.h"
#include "sql/session/database_impl.h"
#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal {
namespace {

using testing::Rows;

class SettingsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = 1;
    db_ = Database::Open(dir_.path(), o).ValueOrDie();
    con_ = db_->Connect();
  }
  Status Run(const std::string& sql) { return con_->Query(sql).status(); }
  std::vector<std::string> Show(const std::string& key, Connection* con = nullptr) {
    auto r = (con ? con : con_.get())->Query("SHOW " + key);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    if (!r.ok()) return {};
    EXPECT_EQ(r->num_columns(), 1);
    EXPECT_EQ(r->statement_type(), "SHOW");
    return Rows(*r);
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(SettingsTest, UnknownKeysAreNamedErrorsListingTheKnownOnes) {
  for (const char* sql : {"SET nope = 1", "SET shoal.x = 'y'", "RESET nope", "SHOW nope",
                          "SET memory_limits = '1GB'"}) {
    Status st = Run(sql);
    ASSERT_FALSE(st.ok()) << sql;
    EXPECT_EQ(st.code(), StatusCode::kCatalog) << st.ToString();
    EXPECT_NE(st.message().find("unrecognized configuration parameter"), std::string::npos)
        << st.ToString();
    EXPECT_NE(
        st.message().find("memory_limit, temp_directory, shoal.coded_strings, shoal.join_order, shoal.optimizer, shoal.prewhere, shoal.runtime_filters, "
                          "shoal.sql.doubleQuotedIdentifiers, shoal.txn.appId, shoal.txn.version, shoal.vacuum.retentionCheck"),
        std::string::npos)
        << st.ToString();
  }
  EXPECT_NE(Run("SET nope = 1").message().find("\"nope\""), std::string::npos);
}

TEST_F(SettingsTest, EveryKnownKeyAcceptsItsValuesAnyCase) {
  for (const char* sql :
       {"SET memory_limit = '4GB'", "SET MEMORY_LIMIT = '512 mib'", "SET memory_limit = 1000000",
        "SET shoal.prewhere = 'AUTO'", "SET shoal.prewhere = false", "SET shoal.join_order = 'off'",
        "SET shoal.join_order = true", "SET shoal.runtime_filters = 'ON'", "SET shoal.optimizer = 'OFF'",
        "SET shoal.vacuum.retentionCheck = false", "SET shoal.vacuum.retentioncheck = 'on'",
        "SET shoal.txn.appId = 'app'", "SET shoal.txn.version = 7",
        "SET Shoal.Txn.Version = '0'"}) {
    EXPECT_TRUE(Run(sql).ok()) << sql << ": " << Run(sql).ToString();
  }
}

TEST_F(SettingsTest, BadValuesAreRejectedWhenSet) {
  for (const char* sql :
       {"SET memory_limit = '12XB'", "SET memory_limit = '-1GB'", "SET memory_limit = -5",
        "SET memory_limit = ''", "SET memory_limit = '0'", "SET memory_limit = 'lots'",
        "SET shoal.prewhere = 'sometimes'", "SET shoal.join_order = 2",
        "SET shoal.runtime_filters = 'maybe'", "SET shoal.optimizer = 'some'", "SET shoal.vacuum.retentionCheck = 'perhaps'",
        "SET shoal.txn.appId = ''", "SET shoal.txn.version = -1", "SET shoal.txn.version = '1.5'",
        "SET shoal.txn.version = 'x'"}) {
    Status st = Run(sql);
    ASSERT_FALSE(st.ok()) << sql;
    EXPECT_EQ(st.code(), StatusCode::kInvalidArgument) << sql << ": " << st.ToString();
  }
  EXPECT_NE(Run("SET memory_limit = '12XB'").message().find("'12XB'"), std::string::npos);
}

TEST_F(SettingsTest, ShowPrintsTheValueOrTheDefault) {
  EXPECT_EQ(Show("shoal.prewhere"), std::vector<std::string>{"auto"});
  EXPECT_EQ(Show("shoal.join_order"), std::vector<std::string>{"on"});
  EXPECT_EQ(Show("shoal.optimizer"), std::vector<std::string>{"on"});
  EXPECT_EQ(Show("shoal.runtime_filters"), std::vector<std::string>{"on"});
  EXPECT_EQ(Show("shoal.vacuum.retentionCheck"), std::vector<std::string>{"true"});
  EXPECT_EQ(Show("shoal.txn.appId"), std::vector<std::string>{"NULL"});
  ASSERT_TRUE(Run("SET shoal.prewhere = 'OFF'").ok());
  ASSERT_TRUE(Run("SET shoal.join_order = false").ok());
  ASSERT_TRUE(Run("SET shoal.vacuum.retentionCheck = 'off'").ok());
  ASSERT_TRUE(Run("SET shoal.txn.appId = 'App-1'").ok());
  EXPECT_EQ(Show("shoal.prewhere"), std::vector<std::string>{"off"});
  EXPECT_EQ(Show("SHOAL.JOIN_ORDER"), std::vector<std::string>{"off"});
  EXPECT_EQ(Show("shoal.vacuum.retentionCheck"), std::vector<std::string>{"false"});
  EXPECT_EQ(Show("shoal.txn.appId"), std::vector<std::string>{"App-1"});
  auto r = con_->Query("SHOW shoal.txn.appid");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->column_name(0), "shoal.txn.appId");
  ASSERT_TRUE(Run("RESET shoal.prewhere").ok());
  EXPECT_EQ(Show("shoal.prewhere"), std::vector<std::string>{"auto"});
  ASSERT_TRUE(Run("RESET ALL").ok());
  EXPECT_EQ(Show("shoal.txn.appId"), std::vector<std::string>{"NULL"});
}

TEST_F(SettingsTest, MemoryLimitIsTheDatabasesAndShownReadably) {
  const int64_t def = db_->impl().memory->limit();
  EXPECT_EQ(def, MemoryTracker::DefaultLimit());
  ASSERT_TRUE(Run("SET memory_limit = '200MB'").ok());
  EXPECT_EQ(db_->impl().memory->limit(), int64_t{200} << 20);
  EXPECT_EQ(Show("memory_limit"), std::vector<std::string>{"200.0 MiB"});
  auto other = db_->Connect();
  EXPECT_EQ(Show("memory_limit", other.get()), std::vector<std::string>{"200.0 MiB"});
  ASSERT_TRUE(other->Query("SET memory_limit = '1.5GB'").ok());
  EXPECT_EQ(Show("memory_limit"), std::vector<std::string>{"1.5 GiB"});
  // RESET ALL is the connection's own settings; memory_limit returns to the default by name.
  ASSERT_TRUE(Run("RESET ALL").ok());
  EXPECT_EQ(Show("memory_limit"), std::vector<std::string>{"1.5 GiB"});
  ASSERT_TRUE(Run("RESET memory_limit").ok());
  EXPECT_EQ(db_->impl().memory->limit(), def);
  EXPECT_EQ(Show("memory_limit"), std::vector<std::string>{FormatByteSize(def)});
}

TEST_F(SettingsTest, TempDirectoryIsTheDatabasesAndEmptyDisablesSpilling) {
  const std::string def = dir_.path() + "/.tmp";
  EXPECT_EQ(Show("temp_directory"), std::vector<std::string>{def});
  EXPECT_TRUE(db_->impl().spill->enabled());
  ASSERT_TRUE(Run("SET temp_directory = '" + dir_.path() + "/spill here'").ok());
  auto other = db_->Connect();
  EXPECT_EQ(Show("TEMP_DIRECTORY", other.get()), std::vector<std::string>{dir_.path() + "/spill here"});
  ASSERT_TRUE(other->Query("SET temp_directory = ''").ok());
  EXPECT_EQ(Show("temp_directory"), std::vector<std::string>{""});
  EXPECT_FALSE(db_->impl().spill->enabled());
  // RESET ALL is the connection's own settings; temp_directory returns to the default by name.
  ASSERT_TRUE(Run("RESET ALL").ok());
  EXPECT_FALSE(db_->impl().spill->enabled());
  ASSERT_TRUE(Run("RESET temp_directory").ok());
  EXPECT_EQ(Show("temp_directory"), std::vector<std::string>{def});
}

}  // namespace
}  // namespace shoal

namespace shoal {
namespace {

// DatabaseOptions::time_zone is every connection's session zone until SET TIME ZONE, and what
// SET TIME ZONE LOCAL returns to; SHOW prints the zone in effect; text output follows it.
TEST(SessionTimeZone, DatabaseDefaultSetShowAndText) {
  testing::TempDir dir;
  DatabaseOptions o;
  o.threads = 1;
  o.time_zone = "Asia/Tokyo";  // +09:00 all year
  auto db = Database::Open(dir.path(), o).ValueOrDie();
  auto con = db->Connect();
  auto rows = [&](const std::string& sql) {
    auto r = con->Query(sql);
    EXPECT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
    return r.ok() ? Rows(*r) : std::vector<std::string>{};
  };
  EXPECT_EQ(rows("SHOW spark.sql.session.timeZone"), std::vector<std::string>{"Asia/Tokyo"});
  EXPECT_EQ(rows("SELECT TIMESTAMP '2024-01-01 00:00:00Z'"), std::vector<std::string>{"2024-01-01 09:00:00"});
  auto json = con->Query("SELECT TIMESTAMP '2024-01-01 00:00:00Z'");
  ASSERT_TRUE(json.ok());
  EXPECT_EQ(json->GetJson(0, 0), "\"2024-01-01 09:00:00\"");
  ASSERT_TRUE(con->Query("SET TIME ZONE '-05:00'").ok());
  EXPECT_EQ(rows("SHOW spark.sql.session.timeZone"), std::vector<std::string>{"-05:00"});
  EXPECT_EQ(rows("SELECT TIMESTAMP '2024-01-01 00:00:00Z'"), std::vector<std::string>{"2023-12-31 19:00:00"});
  // Another connection keeps the database's default.
  auto other = db->Connect();
  auto r = other->Query("SELECT current_timezone()");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Rows(*r), std::vector<std::string>{"Asia/Tokyo"});
  ASSERT_TRUE(con->Query("SET TIME ZONE LOCAL").ok());
  EXPECT_EQ(rows("SELECT current_timezone()"), std::vector<std::string>{"Asia/Tokyo"});
}

// A bound TIMESTAMP is an instant: the session zone does not move it (it only changes its text).
TEST(SessionTimeZone, BoundTimestampParametersAreInstants) {
  testing::TempDir dir;
  auto db = Database::Open(dir.path()).ValueOrDie();
  auto con = db->Connect();
  ASSERT_TRUE(con->Query("SET TIME ZONE 'America/Los_Angeles'").ok());
  auto p = con->Prepare("SELECT unix_timestamp($1), CAST($1 AS STRING)");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_TRUE((*p)->BindTimestamp(1, int64_t{1704132000} * 1000000).ok());  // 2024-01-01 18:00 UTC
  auto r = (*p)->Execute();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Rows(*r), std::vector<std::string>{"1704132000|2024-01-01 10:00:00"});
}

TEST(SessionTimeZone, AnUnknownDefaultZoneFailsOpen) {
  testing::TempDir dir;
  DatabaseOptions o;
  o.time_zone = "Nowhere/City";
  auto db = Database::Open(dir.path(), o);
  ASSERT_FALSE(db.ok());
  EXPECT_EQ(db.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(db.status().message().find("invalid time zone 'Nowhere/City'"), std::string::npos);
}

}  // namespace
}  // namespace shoal
