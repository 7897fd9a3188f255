#include "cli/completer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/testdata.h"

namespace shoal::cli {
namespace {

CompletionSource Source() {
  CompletionSource s;
  s.tables = [] { return std::vector<std::string>{"events", "users"}; };
  s.columns = [](const std::string& t) {
    if (t == "events") return std::vector<std::string>{"amount", "event_day", "user_id"};
    if (t == "users") return std::vector<std::string>{"user_id", "name"};
    return std::vector<std::string>{};
  };
  s.functions = {"abs", "array_sort", "sum"};
  return s;
}

using V = std::vector<std::string>;

TEST(Completer, KeywordsInTheCaseTyped) {
  EXPECT_EQ(Complete("SEL", "SEL", Source()), V({"SELECT"}));
  EXPECT_EQ(Complete("sel", "sel", Source()), V({"select"}));
  EXPECT_EQ(Complete("GRO", "SELECT 1 GRO", Source()), V({"GROUP"}));
}

TEST(Completer, TableNamesAfterFromOnly) {
  EXPECT_EQ(Complete("ev", "SELECT * FROM ev", Source()), V({"events"}));
  EXPECT_EQ(Complete("", "SELECT * FROM ", Source()), V({"events", "users"}));
  EXPECT_EQ(Complete("u", "INSERT INTO u", Source()), V({"users"}));
}

TEST(Completer, ColumnsOfTablesNamedInTheStatement) {
  EXPECT_EQ(Complete("am", "SELECT * FROM events WHERE am", Source()), V({"amount"}));
  // users is not named: its columns are not offered; events' are.
  EXPECT_EQ(Complete("user", "SELECT user", Source()), V({"users"}));
  EXPECT_EQ(Complete("user_", "SELECT * FROM events\nWHERE user_", Source()), V({"user_id"}));
  EXPECT_EQ(Complete("events.am", "SELECT events.am", Source()), V({"events.amount"}));
}

TEST(Completer, FunctionsWithAParenthesis) {
  EXPECT_EQ(Complete("arr", "SELECT arr", Source()), V({"array_sort("}));
  EXPECT_EQ(Complete("su", "SELECT su", Source()), V({"sum("}));
}

TEST(Completer, FilePathsInsideQuotes) {
  testing::TempDir dir;
  std::filesystem::create_directories(dir.Join("data"));
  std::ofstream(dir.Join("data/part-1.parquet")) << "x";
  std::ofstream(dir.Join("data/part-2.parquet")) << "x";
  EXPECT_TRUE(InsideQuotes("SELECT * FROM read_parquet('" + dir.Join("da")));
  EXPECT_FALSE(InsideQuotes("SELECT 'a' FROM t"));
  EXPECT_EQ(Complete(dir.Join("da"), "", Source(), true), V({dir.Join("data") + "/"}));
  EXPECT_EQ(Complete(dir.Join("data/part-"), "", Source(), true),
            V({dir.Join("data/part-1.parquet"), dir.Join("data/part-2.parquet")}));
}

}  // namespace
}  // namespace shoal::cli
