// Prepared statements with ? and $N parameters (shoal/prepared.h).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "columnar/datetime.h"
#include "shoal/arrow_c.h"
#include "shoal/database.h"
#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal {
namespace {

class PreparedStatementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = 2;
    db_ = std::move(Database::Open(dir_.path(), o)).value();
    con_ = db_->Connect();
  }
  void Ok(const std::string& sql) {
    auto r = con_->Query(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  }
  std::unique_ptr<PreparedStatement> Prep(const std::string& sql) {
    auto p = con_->Prepare(sql);
    EXPECT_TRUE(p.ok()) << sql << ": " << p.status().ToString();
    return p.ok() ? std::move(p).value() : nullptr;
  }
  std::vector<std::string> Run(PreparedStatement* p) {
    auto r = p->Execute();
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? testing::Rows(*r) : std::vector<std::string>{};
  }
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(PreparedStatementTest, QuestionMarksAndDollarNumbersBindByPosition) {
  auto p = Prep("SELECT ? + 1, ? || 'x'");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->parameter_count(), 2);
  ASSERT_TRUE(p->BindInt64(1, 41).ok());
  ASSERT_TRUE(p->BindString(2, "it's ").ok());
  EXPECT_EQ(Run(p.get()), std::vector<std::string>{"42|it's x"});
  auto d = Prep("SELECT $2 - $1, $1");
  EXPECT_EQ(d->parameter_count(), 2);
  ASSERT_TRUE(d->BindInt64(1, 1).ok());
  ASSERT_TRUE(d->BindInt64(2, 10).ok());
  EXPECT_EQ(Run(d.get()), std::vector<std::string>{"9|1"});
}

TEST_F(PreparedStatementTest, EveryBindTypeRoundTrips) {
  auto p = Prep("SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, typeof($7), typeof($8)");
  ASSERT_TRUE(p);
  ASSERT_TRUE(p->BindNull(1).ok());
  ASSERT_TRUE(p->BindBool(2, true).ok());
  ASSERT_TRUE(p->BindDouble(3, 0.1).ok());
  ASSERT_TRUE(p->BindDecimal(4, "-12.50").ok());
  ASSERT_TRUE(p->BindDecimal(5, Decimal128{1250, 0}, 2).ok());
  ASSERT_TRUE(p->BindDate(6, *columnar::ParseDate("2024-02-29")).ok());
  ASSERT_TRUE(p->BindTimestamp(7, *columnar::ParseTimestamp("2024-02-29 01:02:03.000004")).ok());
  ASSERT_TRUE(p->BindTimestampNtz(8, 0).ok());
  ASSERT_TRUE(p->BindDecimal(9, "123456789012345678901234567890.5").ok());
  auto s = p->Stream();
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ResultBatch b;
  ASSERT_TRUE(*(*s)->Next(&b));
  EXPECT_TRUE(b.column(0).IsNull(0));
  EXPECT_TRUE(b.column(1).GetBool(0));
  EXPECT_EQ(b.column(2).GetDouble(0), 0.1);
  EXPECT_EQ(b.column(3).GetDecimal(0).ToString(2), "-12.50");
  EXPECT_EQ(b.column(4).GetText(0), "12.50");
  EXPECT_EQ(b.column(5).GetText(0), "2024-02-29");
  EXPECT_EQ(b.column(6).GetTimestamp(0), *columnar::ParseTimestamp("2024-02-29 01:02:03.000004"));
  EXPECT_EQ(b.column(7).GetTimestamp(0), 0);
  EXPECT_EQ(b.column(8).type().precision, 31);
  EXPECT_EQ(b.column(8).GetText(0), "123456789012345678901234567890.5");
  EXPECT_EQ(b.column(9).GetString(0), "timestamp");  // typeof: Spark's type names
  EXPECT_EQ(b.column(10).GetString(0), "timestamp_ntz");
}

TEST_F(PreparedStatementTest, ReusedWithNewValuesAndForWrites) {
  Ok("CREATE TABLE t (id BIGINT, name STRING)");
  auto ins = Prep("INSERT INTO t VALUES ($1, $2)");
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(ins->BindInt64(1, i).ok());
    ASSERT_TRUE(ins->BindString(2, std::string("n").append(std::to_string(i))).ok());
    ASSERT_TRUE(ins->Execute().ok());
  }
  auto sel = Prep("SELECT name FROM t WHERE id = ?");
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(sel->BindInt64(1, i).ok());
    EXPECT_EQ(Run(sel.get()), std::vector<std::string>{std::string("n").append(std::to_string(i))});
  }
  auto upd = Prep("UPDATE t SET name = ? WHERE id >= ?");
  ASSERT_TRUE(upd->BindString(1, "big").ok());
  ASSERT_TRUE(upd->BindInt64(2, 3).ok());
  ASSERT_TRUE(upd->Execute().ok());
  EXPECT_EQ(testing::Rows(*con_->Query("SELECT count(*) FROM t WHERE name = 'big'")), std::vector<std::string>{"2"});
}

TEST_F(PreparedStatementTest, WrongCountOrTypeIsInvalidArgument) {
  auto p = Prep("SELECT ? + 1, ?");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->BindInt64(0, 1).code(), StatusCode::kInvalidArgument);
  Status st = p->BindInt64(3, 1);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("2 parameter"), std::string::npos) << st.ToString();
  ASSERT_TRUE(p->BindInt64(1, 1).ok());
  auto r = p->Execute();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(r.status().message().find("$2"), std::string::npos) << r.status().ToString();
  ASSERT_TRUE(p->BindString(1, "abc").ok());
  ASSERT_TRUE(p->BindInt64(2, 2).ok());
  r = p->Execute();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << r.status().ToString();
  EXPECT_NE(r.status().message().find("$1 = 'abc'"), std::string::npos) << r.status().ToString();
  EXPECT_EQ(p->BindDecimal(1, "1e5").code(), StatusCode::kInvalidArgument);
  p->ClearBindings();
  EXPECT_FALSE(p->Execute().ok());
  // Mixing styles is a parse error; parameters outside Prepare are refused by name.
  EXPECT_EQ(con_->Prepare("SELECT ?, $1").status().code(), StatusCode::kParser);
  auto q = con_->Query("SELECT ?");
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(q.status().message().find("Prepare"), std::string::npos);
}

TEST_F(PreparedStatementTest, BinaryAndNonFiniteDoublesBind) {
  auto p = Prep("SELECT ?, typeof(?), ?, ?, ?, typeof(?)");
  ASSERT_TRUE(p);
  const std::string bytes("\x00\x01'\xff", 4);
  ASSERT_TRUE(p->BindBinary(1, bytes).ok());
  ASSERT_TRUE(p->BindBinary(2, "").ok());
  ASSERT_TRUE(p->BindDouble(3, std::numeric_limits<double>::quiet_NaN()).ok());
  ASSERT_TRUE(p->BindDouble(4, std::numeric_limits<double>::infinity()).ok());
  ASSERT_TRUE(p->BindDouble(5, -std::numeric_limits<double>::infinity()).ok());
  ASSERT_TRUE(p->BindDouble(6, std::numeric_limits<double>::quiet_NaN()).ok());
  auto r = p->Execute();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->num_rows(), 1);
  EXPECT_EQ(r->column_type(0), "BINARY");
  EXPECT_EQ(r->GetText(0, 1), "binary");
  EXPECT_EQ(r->column_type(2), "DOUBLE");
  EXPECT_EQ(r->GetText(0, 5), "double");
  auto s = p->Stream();
  ASSERT_TRUE(s.ok()) << s.status().ToString();
  ResultBatch b;
  ASSERT_TRUE(*(*s)->Next(&b));
  EXPECT_EQ(b.column(0).GetString(0), bytes);
  EXPECT_TRUE(std::isnan(b.column(2).GetDouble(0)));
  EXPECT_EQ(b.column(3).GetDouble(0), std::numeric_limits<double>::infinity());
  EXPECT_EQ(b.column(4).GetDouble(0), -std::numeric_limits<double>::infinity());
  // A binary parameter compares with BINARY columns; NaN is a value (not NULL) of a DOUBLE column.
  Ok("CREATE TABLE t (b BINARY, d DOUBLE)");
  auto ins = Prep("INSERT INTO t VALUES (?, ?)");
  ASSERT_TRUE(ins->BindBinary(1, bytes).ok());
  ASSERT_TRUE(ins->BindDouble(2, std::numeric_limits<double>::quiet_NaN()).ok());
  ASSERT_TRUE(ins->Execute().ok());
  auto q = Prep("SELECT count(*) FROM t WHERE b = ? AND d IS NOT DISTINCT FROM ?");
  ASSERT_TRUE(q->BindBinary(1, bytes).ok());
  ASSERT_TRUE(q->BindDouble(2, std::numeric_limits<double>::quiet_NaN()).ok());
  EXPECT_EQ(Run(q.get()), std::vector<std::string>{"1"});
  EXPECT_EQ(p->BindBinary(7, "x").code(), StatusCode::kInvalidArgument);
}

// Reads the first batch of `sql` through the Arrow C stream export.
struct ArrowBatch {
  ArrowArrayStream stream{};
  ArrowSchema schema{};
  ArrowArray array{};
  ~ArrowBatch() {
    if (array.release) array.release(&array);
    if (schema.release) schema.release(&schema);
    if (stream.release) stream.release(&stream);
  }
  bool Read(Connection* con, const std::string& sql) {
    if (!con->QueryArrow(sql, &stream).ok()) return false;
    return stream.get_schema(&stream, &schema) == 0 && stream.get_next(&stream, &array) == 0 && array.release;
  }
};

TEST_F(PreparedStatementTest, ArrowValuesBindNestedTypes) {
  ArrowBatch in;
  ASSERT_TRUE(in.Read(con_.get(),
                      "SELECT * FROM (VALUES ([1, NULL, 3], {'x': 1, 'y': 'z'}, map('k', 2), CAST(1.25 AS DECIMAL(5,2))),"
                      " ([], {'x': NULL, 'y': NULL}, map('a', 1, 'b', NULL), NULL)) AS v(l, s, m, d)"));
  ASSERT_EQ(in.array.length, 2);
  auto p = Prep("SELECT $1, $2, $3, $4, typeof($1), typeof($2), typeof($3), typeof($4)");
  for (int row = 0; row < 2; ++row) {
    for (int i = 0; i < 4; ++i) {
      Status st = p->BindArrow(i + 1, *in.schema.children[i], *in.array.children[i], row);
      ASSERT_TRUE(st.ok()) << st.ToString();
    }
    auto expect = row == 0 ? std::vector<std::string>{"[1, NULL, 3]|{'x': 1, 'y': 'z'}|{k=2}|1.25|array<int>|"
                                                      "struct<x:int,y:string>|map<string,int>|decimal(5,2)"}
                           : std::vector<std::string>{"[]|{'x': NULL, 'y': NULL}|{a=1, b=NULL}|NULL|array<int>|"
                                                      "struct<x:int,y:string>|map<string,int>|decimal(5,2)"};
    EXPECT_EQ(Run(p.get()), expect) << row;
  }
  // Into a table, and compared with a column of the same type.
  Ok("CREATE TABLE t (l ARRAY<BIGINT>, s STRUCT<x: INT, y: STRING>)");
  auto ins = Prep("INSERT INTO t VALUES (?, ?)");
  ASSERT_TRUE(ins->BindArrow(1, *in.schema.children[0], *in.array.children[0], 0).ok());
  ASSERT_TRUE(ins->BindArrow(2, *in.schema.children[1], *in.array.children[1], 0).ok());
  ASSERT_TRUE(ins->Execute().ok());
  // l[1] is the second element: arr[i] is 0-based (doc/sql_dialect.md).
  auto q = Prep("SELECT count(*) FROM t WHERE s = ? AND l[1] IS NULL");
  ASSERT_TRUE(q->BindArrow(1, *in.schema.children[1], *in.array.children[1], 0).ok());
  EXPECT_EQ(Run(q.get()), std::vector<std::string>{"1"});
}

TEST_F(PreparedStatementTest, BadArrowValuesAreNamedErrors) {
  ArrowBatch in;
  ASSERT_TRUE(in.Read(con_.get(), "SELECT 1 AS a"));
  auto p = Prep("SELECT ?");
  EXPECT_EQ(p->BindArrow(2, *in.schema.children[0], *in.array.children[0], 0).code(), StatusCode::kInvalidArgument);
  Status st = p->BindArrow(1, *in.schema.children[0], *in.array.children[0], 1);
  EXPECT_EQ(st.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("row 1"), std::string::npos) << st.ToString();
  ArrowSchema released = *in.schema.children[0];
  released.release = nullptr;
  EXPECT_EQ(p->BindArrow(1, released, *in.array.children[0], 0).code(), StatusCode::kInvalidArgument);
  ArrowSchema half_float = *in.schema.children[0];
  half_float.format = "e";
  st = p->BindArrow(1, half_float, *in.array.children[0], 0);
  EXPECT_EQ(st.code(), StatusCode::kNotSupported);
  EXPECT_NE(st.message().find("'e'"), std::string::npos) << st.ToString();
  ArrowArray no_buffers = *in.array.children[0];
  no_buffers.n_buffers = 0;
  EXPECT_EQ(p->BindArrow(1, *in.schema.children[0], no_buffers, 0).code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(p->Execute().ok());  // nothing was bound
}

TEST_F(PreparedStatementTest, ParameterPrunesTheSameFilesAndRowGroupsAsTheLiteral) {
  Ok("CREATE TABLE t (id BIGINT, d DATE, v STRING)");
  for (int f = 0; f < 4; ++f) {
    Ok("INSERT INTO t SELECT x, DATE '2024-01-01' + CAST(x // 1000 AS INT), 'v' || x FROM range(" +
       std::to_string(f * 1000) + ", " + std::to_string(f * 1000 + 1000) + ") AS r(x)");
  }
  auto literal = con_->Query("SELECT count(*) FROM t WHERE id BETWEEN 1500 AND 1600 AND d = DATE '2024-01-02'");
  ASSERT_TRUE(literal.ok());
  auto p = Prep("SELECT count(*) FROM t WHERE id BETWEEN ? AND ? AND d = ?");
  ASSERT_TRUE(p->BindInt64(1, 1500).ok());
  ASSERT_TRUE(p->BindInt64(2, 1600).ok());
  ASSERT_TRUE(p->BindDate(3, *columnar::ParseDate("2024-01-02")).ok());
  auto param = p->Execute();
  ASSERT_TRUE(param.ok()) << param.status().ToString();
  EXPECT_EQ(testing::Rows(*param), testing::Rows(*literal));
  EXPECT_EQ(testing::Rows(*param), std::vector<std::string>{"101"});
  const ScanMetrics& a = literal->metrics();
  const ScanMetrics& b = param->metrics();
  EXPECT_EQ(a.files_total, 4);
  EXPECT_EQ(a.files_read, 1);
  EXPECT_EQ(b.files_read, a.files_read);
  EXPECT_EQ(b.files_pruned_stats, a.files_pruned_stats);
  EXPECT_EQ(b.row_groups_read, a.row_groups_read);
  EXPECT_EQ(b.row_groups_pruned_stats, a.row_groups_pruned_stats);
  EXPECT_EQ(b.rows_scanned, a.rows_scanned);
}

TEST_F(PreparedStatementTest, OutlivesItsConnection) {
  auto p = Prep("SELECT ? * 2");
  con_.reset();
  db_.reset();
  ASSERT_TRUE(p->BindInt64(1, 21).ok());
  EXPECT_EQ(Run(p.get()), std::vector<std::string>{"42"});
}

}  // namespace
}  // namespace shoal
