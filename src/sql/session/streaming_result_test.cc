// The C++ embedding API's streaming, typed results (shoal/result.h), its transactions and the
// lifetimes of results and prepared statements beyond their Connection.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "columnar/datetime.h"
#include "columnar/vector.h"
#include "shoal/database.h"
#include "sql/session/streaming_result_impl.h"
#include "support/query_rows.h"
#include "support/testdata.h"

namespace shoal {
namespace {

std::unique_ptr<Database> OpenDb(const std::string& dir, int threads = 2, int batch = 1024) {
  DatabaseOptions o;
  o.threads = threads;
  o.batch_size = batch;
  auto db = Database::Open(dir, o);
  EXPECT_TRUE(db.ok()) << db.status().ToString();
  return std::move(db).value();
}

class StreamingResultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    db_ = OpenDb(dir_.path());
    con_ = db_->Connect();
  }
  void Ok(const std::string& sql) {
    auto r = con_->Query(sql);
    ASSERT_TRUE(r.ok()) << sql << ": " << r.status().ToString();
  }
  std::unique_ptr<StreamingResult> Open(const std::string& sql, Connection* con = nullptr) {
    auto s = (con ? con : con_.get())->Stream(sql);
    EXPECT_TRUE(s.ok()) << sql << ": " << s.status().ToString();
    return s.ok() ? std::move(s).value() : nullptr;
  }
  // Every batch of a stream.
  std::vector<ResultBatch> Drain(StreamingResult* s) {
    std::vector<ResultBatch> out;
    ResultBatch b;
    while (true) {
      auto more = s->Next(&b);
      EXPECT_TRUE(more.ok()) << more.status().ToString();
      if (!more.ok() || !*more) break;
      out.push_back(b);
    }
    return out;
  }
  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

TEST_F(StreamingResultTest, ScalarTypesRoundTripWithNulls) {
  auto s = Open(
      "SELECT * FROM (VALUES "
      "(true, CAST(-8 AS TINYINT), CAST(-16 AS SMALLINT), 32, CAST(-64 AS BIGINT), CAST(1.5 AS FLOAT), CAST(2.25 AS DOUBLE), "
      " CAST(-12.34 AS DECIMAL(10,2)), CAST('-12345678901234567890.123456' AS DECIMAL(38,6)), 'héllo', X'00FF', "
      " DATE '2024-02-29', TIMESTAMP '2024-02-29 12:34:56.789012', TIMESTAMP_NTZ '1969-12-31 23:59:59'),"
      "(NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL)"
      ") AS t(b, i8, i16, i32, i64, f, d, dec, wide, s, bin, dt, ts, ntz)");
  ASSERT_TRUE(s);
  ASSERT_EQ(s->num_columns(), 14);
  EXPECT_EQ(s->column_name(7), "dec");
  EXPECT_EQ(s->column_type(0).kind, TypeKind::kBoolean);
  EXPECT_EQ(s->column_type(7).ToString(), "DECIMAL(10,2)");
  EXPECT_EQ(s->column_type(8).precision, 38);
  EXPECT_EQ(s->column_type(13).kind, TypeKind::kTimestampNtz);
  auto batches = Drain(s.get());
  ASSERT_EQ(batches.size(), 1u);
  const ResultBatch& b = batches[0];
  ASSERT_EQ(b.num_rows(), 2);
  EXPECT_TRUE(b.column(0).GetBool(0));
  EXPECT_EQ(b.column(1).GetInt8(0), -8);
  EXPECT_EQ(b.column(2).GetInt16(0), -16);
  EXPECT_EQ(b.column(3).GetInt32(0), 32);
  EXPECT_EQ(b.column(4).GetInt64(0), -64);
  EXPECT_EQ(b.column(1).GetInt64(0), -8);  // widening
  EXPECT_EQ(b.column(5).GetFloat(0), 1.5f);
  EXPECT_EQ(b.column(6).GetDouble(0), 2.25);
  Decimal128 dec = b.column(7).GetDecimal(0);
  EXPECT_EQ(dec.high, -1);
  EXPECT_EQ(static_cast<int64_t>(dec.low), -1234);
  EXPECT_EQ(dec.ToString(2), "-12.34");
  EXPECT_EQ(b.column(8).GetDecimal(0).ToString(6), "-12345678901234567890.123456");
  EXPECT_EQ(b.column(9).GetString(0), "héllo");
  EXPECT_EQ(b.column(10).GetString(0), std::string_view("\x00\xff", 2));
  EXPECT_EQ(b.column(11).GetDate(0), *columnar::ParseDate("2024-02-29"));
  EXPECT_EQ(b.column(12).GetTimestamp(0), *columnar::ParseTimestamp("2024-02-29 12:34:56.789012"));
  EXPECT_EQ(b.column(13).GetTimestamp(0), -1000000);
  for (int c = 0; c < 14; ++c) {
    EXPECT_FALSE(b.column(c).IsNull(0)) << c;
    EXPECT_TRUE(b.column(c).IsNull(1)) << c;
    EXPECT_EQ(b.column(c).null_count(), 1) << c;
  }
  // A getter of another type, or a row out of range, is a zero value, never UB.
  EXPECT_EQ(b.column(9).GetInt64(0), 0);
  EXPECT_EQ(b.column(3).GetString(0), "");
  EXPECT_EQ(b.column(3).GetInt32(7), 0);
  EXPECT_EQ(b.column(99).size(), 0);
  auto more = s->Next(nullptr);  // at the end: false again, *batch untouched
  ASSERT_TRUE(more.ok());
  EXPECT_FALSE(*more);
}

TEST_F(StreamingResultTest, NestedColumnsGiveChildAccess) {
  auto s = Open(
      "SELECT [1, NULL, 3] AS l, {'a': 7, 'b': 'x'} AS st, map('k1', 10, 'k2', 20) AS m "
      "UNION ALL SELECT NULL, NULL, NULL");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->column_type(0).ToString(), "ARRAY<INT>");
  EXPECT_EQ(s->column_type(2).ToString(), "MAP<STRING, INT>");
  auto batches = Drain(s.get());
  int64_t rows = 0;
  bool seen = false;
  for (const auto& b : batches) {
    for (int64_t r = 0; r < b.num_rows(); ++r, ++rows) {
      Column l = b.column(0), st = b.column(1), m = b.column(2);
      if (l.IsNull(r)) {
        EXPECT_TRUE(st.IsNull(r));
        EXPECT_TRUE(m.IsNull(r));
        continue;
      }
      seen = true;
      auto range = l.GetList(r);
      ASSERT_EQ(range.end - range.begin, 3);
      Column e = l.child(0);
      EXPECT_EQ(e.GetInt32(range.begin), 1);
      EXPECT_TRUE(e.IsNull(range.begin + 1));
      EXPECT_EQ(e.GetInt32(range.begin + 2), 3);
      ASSERT_EQ(st.num_children(), 2);
      EXPECT_EQ(st.type().child_names[1], "b");
      EXPECT_EQ(st.child(0).GetInt32(r), 7);
      EXPECT_EQ(st.child(1).GetString(r), "x");
      auto mr = m.GetList(r);
      ASSERT_EQ(mr.end - mr.begin, 2);
      Column entries = m.child(0);
      EXPECT_EQ(entries.child(0).GetString(mr.begin), "k1");
      EXPECT_EQ(entries.child(1).GetInt32(mr.begin + 1), 20);
    }
  }
  EXPECT_EQ(rows, 2);
  EXPECT_TRUE(seen);
}

TEST_F(StreamingResultTest, EmptyResultHasSchemaAndNoBatches) {
  auto s = Open("SELECT x, x * 2 AS y FROM range(0, 10) AS r(x) WHERE x > 100");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->num_columns(), 2);
  EXPECT_EQ(s->column_name(1), "y");
  EXPECT_TRUE(Drain(s.get()).empty());
  EXPECT_EQ(s->metrics().rows_returned, 0);
}

TEST_F(StreamingResultTest, LargeResultStreamsWithBoundedMemory) {
  // A billion rows could never be materialized: reading the first batches must be quick and
  // hold only a round of batches.
  auto s = Open("SELECT x, x + 1 AS y FROM range(0, 1000000000) AS r(x)");
  ASSERT_TRUE(s);
  ResultBatch b;
  int64_t rows = 0, expect = 0;
  for (int i = 0; i < 200; ++i) {
    auto more = s->Next(&b);
    ASSERT_TRUE(more.ok() && *more);
    for (int64_t r = 0; r < b.num_rows(); ++r, ++expect) ASSERT_EQ(b.column(0).GetInt64(r), expect);  // in order
    rows += b.num_rows();
  }
  EXPECT_EQ(rows, 200 * 1024);
  EXPECT_LE(s->impl().max_buffered(), static_cast<size_t>(2 * sql::PlanStream::kRoundChunks));
  s.reset();  // abandons the rest
}

TEST_F(StreamingResultTest, OrderByStreamsInOrderAndAggregatesWork) {
  auto s = Open("SELECT x FROM range(0, 5000) AS r(x) ORDER BY x DESC");
  ASSERT_TRUE(s);
  int64_t expect = 4999;
  for (const auto& b : Drain(s.get())) {
    for (int64_t r = 0; r < b.num_rows(); ++r) ASSERT_EQ(b.column(0).GetInt64(r), expect--);
  }
  EXPECT_EQ(expect, -1);
  auto agg = Open("SELECT x % 3 AS k, count(*) AS n FROM range(0, 3000) AS r(x) GROUP BY 1 ORDER BY 1");
  auto batches = Drain(agg.get());
  ASSERT_EQ(batches.size(), 1u);
  EXPECT_EQ(batches[0].column(1).GetInt64(2), 1000);
  EXPECT_EQ(agg->metrics().rows_returned, 3);
}

TEST_F(StreamingResultTest, QueryAndStreamAgreeOnATable) {
  Ok("CREATE TABLE t (id BIGINT, s STRING)");
  Ok("INSERT INTO t SELECT x, 'v' || x FROM range(0, 5000) AS r(x)");
  auto q = con_->Query("SELECT id, s FROM t ORDER BY id");
  ASSERT_TRUE(q.ok());
  auto s = Open("SELECT id, s FROM t ORDER BY id");
  int64_t row = 0;
  for (const auto& b : Drain(s.get())) {
    for (int64_t r = 0; r < b.num_rows(); ++r, ++row) {
      ASSERT_EQ(b.column(1).GetText(r), q->GetText(row, 1));
    }
  }
  EXPECT_EQ(row, 5000);
  EXPECT_GT(s->metrics().files_read, 0);
  // Non-SELECT statements stream their (small) result.
  auto ins = Open("INSERT INTO t VALUES (1, 'a')");
  EXPECT_EQ(ins->statement_type(), "INSERT");
  auto rows = Drain(ins.get());
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].column(0).GetInt64(0), 1);
}

TEST_F(StreamingResultTest, QueryIsItsStreamReadToTheEnd) {
  Ok("CREATE TABLE t (id BIGINT)");
  for (int f = 0; f < 3; ++f) {
    Ok("INSERT INTO t SELECT x FROM range(" + std::to_string(f * 4000) + ", " + std::to_string(f * 4000 + 4000) +
       ") AS r(x)");
  }
  // The same rows (without ORDER BY, in an order of their own) and the same metrics.
  const std::string sql = "SELECT id, id % 7 AS m FROM t WHERE id >= 8000 AND id % 3 <> 0";
  auto q = con_->Query(sql);
  ASSERT_TRUE(q.ok()) << q.status().ToString();
  auto s = Open(sql);
  std::vector<int64_t> streamed, queried;
  for (const auto& b : Drain(s.get())) {
    for (int64_t r = 0; r < b.num_rows(); ++r) streamed.push_back(b.column(0).GetInt64(r));
  }
  for (const auto& b : q->batches()) {
    for (int64_t r = 0; r < b->num_rows; ++r) queried.push_back(b->columns[0]->Get<int64_t>(r));
  }
  std::sort(streamed.begin(), streamed.end());
  std::sort(queried.begin(), queried.end());
  EXPECT_EQ(queried, streamed);
  EXPECT_EQ(queried.size(), 2667u);
  EXPECT_GT(q->batches().size(), 1u);
  EXPECT_EQ(q->statement_type(), "SELECT");
  EXPECT_EQ(q->metrics().rows_returned, 2667);
  EXPECT_GT(q->metrics().files_pruned_stats, 0);
  EXPECT_EQ(q->metrics().files_total, s->metrics().files_total);
  EXPECT_EQ(q->metrics().files_read, s->metrics().files_read);
  EXPECT_EQ(q->metrics().files_pruned_stats, s->metrics().files_pruned_stats);
  EXPECT_EQ(q->metrics().rows_scanned, s->metrics().rows_scanned);
  EXPECT_EQ(q->metrics().rows_returned, s->metrics().rows_returned);
  // A sorted source stays sorted.
  auto sorted = con_->Query("SELECT x FROM range(0, 30000) AS r(x)");
  ASSERT_TRUE(sorted.ok());
  EXPECT_GT(sorted->batches().size(), 1u);
  for (int64_t r = 0; r < sorted->num_rows(); r += 997) ASSERT_EQ(sorted->GetText(r, 0), std::to_string(r));
  // Other statements keep their kind and rows; a text without statements is an empty result.
  auto ins = con_->Query("INSERT INTO t VALUES (1), (2)");
  ASSERT_TRUE(ins.ok());
  EXPECT_EQ(ins->statement_type(), "INSERT");
  EXPECT_EQ(ins->GetText(0, 0), "2");
  auto none = con_->Query(" ; -- nothing\n");
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_EQ(none->num_columns(), 0);
  EXPECT_EQ(con_->Stream(";").status().code(), StatusCode::kInvalidArgument);
}

TEST_F(StreamingResultTest, CollectingAfterSomeBatchesReturnsTheRestInOrder) {
  auto s = Open("SELECT x FROM range(0, 20000) AS r(x)");
  ResultBatch b;
  ASSERT_TRUE(*s->Next(&b));
  const int64_t first = b.num_rows();
  ASSERT_EQ(b.column(0).GetInt64(first - 1), first - 1);
  auto rest = CollectStream(*s);
  ASSERT_TRUE(rest.ok()) << rest.status().ToString();
  ASSERT_EQ(first + rest->num_rows(), 20000);
  for (int64_t r = 0; r < rest->num_rows(); ++r) ASSERT_EQ(rest->GetText(r, 0), std::to_string(first + r));
  EXPECT_EQ(rest->metrics().rows_returned, 20000);
  auto more = s->Next(&b);
  ASSERT_TRUE(more.ok());
  EXPECT_FALSE(*more);  // at its end
}

TEST_F(StreamingResultTest, AnErrorWhileReadingFailsTheTransaction) {
  Ok("CREATE TABLE t (i INT)");
  const std::string bad = "SELECT CAST(CAST(x AS STRING) || 'x' AS INT) FROM range(0, 10) AS r(x)";
  // Through Query (the stream read to its end) and through Next: the error comes after the
  // statement was opened, and the transaction is failed as for any failing statement.
  for (bool stream : {false, true}) {
    ASSERT_TRUE(con_->Begin().ok());
    Ok("INSERT INTO t VALUES (1)");
    if (stream) {
      auto s = Open(bad);
      ASSERT_TRUE(s);
      ResultBatch b;
      auto next = s->Next(&b);
      ASSERT_FALSE(next.ok());
      EXPECT_EQ(next.status().code(), StatusCode::kConversion) << next.status().ToString();
    } else {
      auto r = con_->Query(bad);
      ASSERT_FALSE(r.ok());
      EXPECT_EQ(r.status().code(), StatusCode::kConversion) << r.status().ToString();
    }
    auto after = con_->Query("SELECT count(*) FROM t");
    ASSERT_FALSE(after.ok()) << stream;
    EXPECT_EQ(after.status().code(), StatusCode::kTransaction) << after.status().ToString();
    EXPECT_EQ(con_->Commit().code(), StatusCode::kTransaction);  // rolled back
    EXPECT_FALSE(con_->in_transaction());
  }
  EXPECT_EQ(testing::Rows(*con_->Query("SELECT count(*) FROM t")), std::vector<std::string>{"0"});
  // Outside a transaction the connection simply goes on.
  EXPECT_FALSE(con_->Query(bad).ok());
  EXPECT_TRUE(con_->Query("SELECT 1").ok());
}

TEST_F(StreamingResultTest, InterruptCancelsAStream) {
  auto s = Open("SELECT x FROM range(0, 1000000000) AS r(x)");
  ResultBatch b;
  ASSERT_TRUE(s->Next(&b).ok());
  con_->Interrupt();
  auto more = s->Next(&b);
  // A batch already buffered may still come; the next round is refused.
  while (more.ok() && *more) more = s->Next(&b);
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.status().code(), StatusCode::kInterrupted);
  auto again = s->Next(&b);
  EXPECT_EQ(again.status().code(), StatusCode::kInterrupted);  // sticky
  // The connection is usable afterwards.
  auto r = con_->Query("SELECT 1");
  EXPECT_TRUE(r.ok());
}

TEST_F(StreamingResultTest, ResultOutlivesItsConnectionAndDatabase) {
  auto s = Open("SELECT x FROM range(0, 10000) AS r(x)");
  ResultBatch first;
  ASSERT_TRUE(*s->Next(&first));
  con_.reset();
  db_.reset();  // the stream keeps the shared state alive
  int64_t rows = first.num_rows();
  for (const auto& b : Drain(s.get())) rows += b.num_rows();
  EXPECT_EQ(rows, 10000);
  s.reset();
  EXPECT_EQ(first.column(0).GetInt64(0), 0);  // a batch outlives its stream
}

TEST_F(StreamingResultTest, StreamInsideATransactionIsClosedByTheNextStatement) {
  Ok("CREATE TABLE t (id BIGINT)");
  Ok("INSERT INTO t SELECT x FROM range(0, 100000) AS r(x)");
  ASSERT_TRUE(con_->Begin().ok());
  auto s = Open("SELECT id FROM t");
  ResultBatch b;
  ASSERT_TRUE(*s->Next(&b));
  ASSERT_TRUE(con_->Rollback().ok());
  auto more = s->Next(&b);
  ASSERT_FALSE(more.ok());
  EXPECT_EQ(more.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(more.status().message().find("closed"), std::string::npos);
  // Auto-commit streams stay valid across later statements.
  auto s2 = Open("SELECT id FROM t");
  Ok("INSERT INTO t VALUES (1)");
  int64_t rows = 0;
  for (const auto& x : Drain(s2.get())) rows += x.num_rows();
  EXPECT_EQ(rows, 100000);
}

// ---- transactions from C++

TEST_F(StreamingResultTest, CommitMakesWritesVisibleRollbackDiscardsThem) {
  Ok("CREATE TABLE t (id BIGINT)");
  auto other = db_->Connect();
  ASSERT_TRUE(con_->Begin().ok());
  EXPECT_TRUE(con_->in_transaction());
  Ok("INSERT INTO t VALUES (1), (2)");
  EXPECT_EQ(testing::Rows(*other->Query("SELECT count(*) FROM t")), std::vector<std::string>{"0"});
  EXPECT_EQ(testing::Rows(*con_->Query("SELECT count(*) FROM t")), std::vector<std::string>{"2"});
  ASSERT_TRUE(con_->Commit().ok());
  EXPECT_FALSE(con_->in_transaction());
  EXPECT_EQ(testing::Rows(*other->Query("SELECT count(*) FROM t")), std::vector<std::string>{"2"});

  ASSERT_TRUE(con_->Begin().ok());
  Ok("DELETE FROM t WHERE id = 1");
  ASSERT_TRUE(con_->Rollback().ok());
  EXPECT_EQ(testing::Rows(*other->Query("SELECT count(*) FROM t")), std::vector<std::string>{"2"});
  // The same errors as the SQL statements.
  Status st = con_->Commit();
  EXPECT_EQ(st.code(), StatusCode::kTransaction) << st.ToString();
  ASSERT_TRUE(con_->Begin().ok());
  EXPECT_EQ(con_->Begin().code(), StatusCode::kTransaction);
  ASSERT_TRUE(con_->Rollback().ok());
}

TEST_F(StreamingResultTest, ConcurrentCommitsConflictWithANamedError) {
  Ok("CREATE TABLE t (id BIGINT, v BIGINT) TBLPROPERTIES ('delta.enableDeletionVectors' = 'false')");
  Ok("INSERT INTO t VALUES (1, 0), (2, 0)");
  auto other = db_->Connect();
  ASSERT_TRUE(con_->Begin().ok());
  ASSERT_TRUE(other->Begin().ok());
  Ok("UPDATE t SET v = 1 WHERE id = 1");
  ASSERT_TRUE(other->Query("UPDATE t SET v = 2 WHERE id = 1").ok());
  ASSERT_TRUE(con_->Commit().ok());
  Status st = other->Commit();
  ASSERT_EQ(st.code(), StatusCode::kConflict) << st.ToString();
  EXPECT_NE(st.ToString().find("Concurrent"), std::string::npos) << st.ToString();
  EXPECT_FALSE(other->in_transaction());
}

}  // namespace
}  // namespace shoal
