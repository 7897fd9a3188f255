// A Parquet page is refused when it declares more bytes uncompressed than memory_limit allows
// (issue #28, "Security and bad input": a decompression bomb is bounded by the memory limit,
// not only by the reader's fixed 1 GiB cap): a 3 MB string compresses to a few KB, so its page
// is small on disk and large in memory.
#include <gtest/gtest.h>

#include <string>

#include "shoal/database.h"
#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal {
namespace {

using testing::Rows;

TEST(PageSizeLimit, APageLargerThanTheMemoryLimitIsOutOfMemoryNotAnAllocation) {
  testing::TempDir dir;
  DatabaseOptions o;
  o.threads = 1;
  auto db = Database::Open(dir.path(), o).ValueOrDie();
  auto con = db->Connect();
  ASSERT_TRUE(con->Query("CREATE TABLE big AS SELECT repeat('x', 3000000) AS s").ok());
  ASSERT_TRUE(con->Query("SET memory_limit = '2MB'").ok());
  // Through the Delta table and through read_parquet of its file.
  for (const std::string& q : {std::string("SELECT length(s) FROM big"),
                               "SELECT length(s) FROM read_parquet('" + dir.path() + "/big/*.parquet')"}) {
    auto r = con->Query(q);
    ASSERT_FALSE(r.ok()) << q;
    EXPECT_EQ(r.status().code(), StatusCode::kOutOfMemory) << r.status().ToString();
    EXPECT_NE(r.status().message().find("does not fit the memory limit"), std::string::npos) << r.status().ToString();
  }
  ASSERT_TRUE(con->Query("SET memory_limit = '64MB'").ok());
  auto r = con->Query("SELECT length(s) FROM big");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Rows(*r), std::vector<std::string>{"3000000"});
}

}  // namespace
}  // namespace shoal
