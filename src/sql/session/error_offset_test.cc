// Parser and binder errors point at the offending token: Status::error_offset is a byte offset
// into the text the caller passed (the whole script), checked here through the public API.
#include <gtest/gtest.h>

#include "shoal/database.h"
#include "support/sql_table_fixture.h"

namespace shoal {
namespace {

class ErrorOffsetTest : public testing::SqlTableTest {
 protected:
  void Run(const std::string& sql) { Q(sql); }
  // The text at the error's offset, as long as `token`; "<none>" without an offset.
  std::string At(const std::string& sql, const Status& st, size_t length) {
    std::optional<int64_t> offset = st.error_offset();
    if (!offset) return "<none>: " + st.ToString();
    EXPECT_LE(static_cast<size_t>(*offset), sql.size());
    return sql.substr(static_cast<size_t>(*offset), length);
  }
  std::string TokenAt(const std::string& sql, const std::string& token) {
    return At(sql, Err(sql), token.size());
  }
};

TEST_F(ErrorOffsetTest, ParserErrorsPointAtTheToken) {
  EXPECT_EQ(TokenAt("SELECT * FORM t", "FORM"), "FORM");
  EXPECT_EQ(TokenAt("SELECT a,\n  FROM t", "FROM"), "FROM");
  EXPECT_EQ(TokenAt("SELEC 1", "SELEC"), "SELEC");
  EXPECT_EQ(TokenAt("CREATE TABLE t (d DECIMAL(50, 2))", "50"), "50");
  // At end of input: the offset is the text's length.
  const std::string open = "SELECT (1 + 2";
  EXPECT_EQ(Err(open).error_offset(), static_cast<int64_t>(open.size()));
}

TEST_F(ErrorOffsetTest, LexerErrorsPointAtTheTokenStart) {
  EXPECT_EQ(TokenAt("SELECT 1, 'abc", "'abc"), "'abc");
  EXPECT_EQ(TokenAt("SELECT 1 /* x", "/*"), "/*");
}

TEST_F(ErrorOffsetTest, BinderErrorsPointAtTheNode) {
  Run("CREATE TABLE t (a INT, s STRING)");
  // Unknown columns, qualified or not, in any clause.
  EXPECT_EQ(TokenAt("SELECT a, nope FROM t", "nope"), "nope");
  EXPECT_EQ(TokenAt("SELECT a FROM t WHERE a > 1 AND t.nope = 2", "t.nope"), "t.nope");
  EXPECT_EQ(TokenAt("SELECT a FROM t GROUP BY a ORDER BY zz", "zz"), "zz");
  EXPECT_EQ(TokenAt("SELECT a FROM t x JOIN t y ON x.a = y.nope", "y.nope"), "y.nope");
  // Unknown table, unknown function.
  EXPECT_EQ(TokenAt("SELECT * FROM t JOIN missing_tbl m ON true", "missing_tbl"), "missing_tbl");
  EXPECT_EQ(TokenAt("SELECT abs(a) + no_such_fn(a) FROM t", "no_such_fn"), "no_such_fn");
  // A column not in GROUP BY: the column.
  EXPECT_EQ(TokenAt("SELECT a, s FROM t GROUP BY a", "s"), "s");
  // A type mismatch of an operator: the operator.
  EXPECT_EQ(TokenAt("SELECT array(1) - a FROM t", "-"), "-");
  // In a subquery and in INSERT ... VALUES.
  EXPECT_EQ(TokenAt("SELECT (SELECT max(nope) FROM t) FROM t", "nope"), "nope");
  EXPECT_EQ(TokenAt("INSERT INTO t VALUES (1, nope)", "nope"), "nope");
}

TEST_F(ErrorOffsetTest, AScriptsOffsetIsIntoTheWholeText) {
  const std::string script = "SELECT 1;\nSELECT 2; SELECT nope";
  EXPECT_EQ(TokenAt(script, "nope"), "nope");
  const std::string parse = "SELECT 1; SELEC 2";
  EXPECT_EQ(TokenAt(parse, "SELEC"), "SELEC");
  // Execute (the shell's call) too.
  Status st = conn_->Execute(script, [](const std::string&, QueryResult&) { return Status::OK(); });
  EXPECT_EQ(At(script, st, 4), "nope");
  // And Prepare.
  const std::string one = "SELECT ? + nope";
  auto prepared = conn_->Prepare(one);
  ASSERT_TRUE(prepared.ok()) << prepared.status().ToString();
  ASSERT_TRUE((*prepared)->BindInt64(1, 5).ok());
  Status bind = (*prepared)->Execute().status();
  EXPECT_EQ(At(one, bind, 4), "nope");
}

TEST_F(ErrorOffsetTest, AnErrorInsideAViewPointsAtTheViewsName) {
  Run("CREATE TABLE t (a INT)");
  Run("CREATE VIEW v AS SELECT a FROM t");
  Run("DROP TABLE t");
  Run("CREATE TABLE t (b INT)");
  // The view's text is not the caller's: the offset names where the view is used.
  const std::string sql = "SELECT 1 AS x FROM t, v";
  Status st = Err(sql);
  EXPECT_EQ(st.code(), StatusCode::kBinder) << st.ToString();
  EXPECT_EQ(At(sql, st, 1), "v");
}

TEST_F(ErrorOffsetTest, ErrorsWithoutAPositionHaveNoOffset) {
  Run("CREATE TABLE t (a INT)");
  EXPECT_EQ(Err("SELECT CAST('x' AS INT)").error_offset(), std::nullopt);  // at run time
  EXPECT_EQ(Err("SELECT 1 / 0").error_offset(), std::nullopt);
  // UPDATE binds its SET list as SQL it builds: no offset into the caller's text.
  EXPECT_EQ(Err("UPDATE t SET a = nope").error_offset(), std::nullopt);
  // Copies keep the offset; WithErrorOffset(nullopt) removes it.
  Status st = Status::Binder("x").WithErrorOffset(3);
  EXPECT_EQ(st.WithContext("ctx").error_offset(), 3);
  EXPECT_EQ(st.WithErrorOffset(std::nullopt).error_offset(), std::nullopt);
  EXPECT_EQ(Status::OK().error_offset(), std::nullopt);
}

}  // namespace
}  // namespace shoal
