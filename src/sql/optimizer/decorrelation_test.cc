// Plan shapes of decorrelation: no dependent join remains, and the TPC-H subquery shapes
// (Q2, Q4, Q17, Q20, Q21, Q22) become the joins doc/subqueries.md promises.
#include "sql/optimizer/decorrelation.h"

#include <gtest/gtest.h>

#include "sql/binder/binder.h"
#include "sql/parser/parser.h"

namespace shoal::sql {
namespace {

// TPC-H-like tables as CTEs (the binder inlines them as VALUES).
const char* kTables =
    "WITH part(p_partkey, p_name, p_size) AS (VALUES (1, 'forest a', 15)), "
    "supplier(s_suppkey, s_name, s_nationkey) AS (VALUES (1, 'x', 1)), "
    "partsupp(ps_partkey, ps_suppkey, ps_supplycost, ps_availqty) AS (VALUES (1, 1, 2.5, 10)), "
    "lineitem(l_orderkey, l_partkey, l_suppkey, l_quantity, l_commitdate, l_receiptdate) AS "
    "(VALUES (1, 1, 1, 5.0, DATE '2020-01-01', DATE '2020-01-02')), "
    "orders(o_orderkey, o_custkey, o_orderstatus) AS (VALUES (1, 1, 'F')), "
    "customer(c_custkey, c_phone, c_acctbal) AS (VALUES (1, '13-1', 1.5)), "
    "t1(a, b) AS (VALUES (1, 2), (NULL, NULL)), t2(c, d) AS (VALUES (1, 2), (NULL, NULL)) ";

struct Bound {
  std::string plan;         // decorrelated main plan
  std::string subqueries;   // decorrelated plans the binder ran (uncorrelated subqueries)
};

Result<Bound> Decorrelated(const std::string& sql) {
  ASSIGN_OR_RETURN(StatementPtr s, ParseStatement(std::string(kTables) + sql));
  Bound out;
  Status inner = Status::OK();
  Binder binder([&](LogicalPtr p) -> Result<std::vector<columnar::BatchPtr>> {
    auto d = Decorrelate(std::move(p));
    if (!d.ok()) return d.status();
    EXPECT_FALSE(HasDependentJoin(**d));
    out.subqueries += (*d)->ToString();
    return std::vector<columnar::BatchPtr>{};
  });
  ASSIGN_OR_RETURN(LogicalPtr plan, binder.BindQuery(*s->As<SelectStatement>().query));
  ASSIGN_OR_RETURN(plan, Decorrelate(std::move(plan)));
  EXPECT_FALSE(HasDependentJoin(*plan));
  out.plan = plan->ToString();
  return out;
}

int Count(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

TEST(Decorrelation, Q17ScalarAggregateBecomesGroupedAggregateAndSingleJoin) {
  auto r = Decorrelated(
      "SELECT sum(l_quantity) FROM lineitem, part WHERE p_partkey = l_partkey AND "
      "l_quantity < (SELECT 0.2 * avg(l_quantity) FROM lineitem WHERE l_partkey = p_partkey)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Count(r->plan, "Join SINGLE"), 1) << r->plan;
  // D was replaced by l_partkey: part is read once, lineitem twice, no outer join with D.
  EXPECT_EQ(Count(r->plan, "Values"), 3) << r->plan;
  EXPECT_EQ(Count(r->plan, "Join LEFT"), 0) << r->plan;
  EXPECT_EQ(Count(r->plan, "Aggregate groups=[]"), 1) << r->plan;  // only the outer sum
}

TEST(Decorrelation, Q2MinByPartkeyJoins) {
  auto r = Decorrelated(
      "SELECT s_name FROM part, supplier, partsupp WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey "
      "AND ps_supplycost = (SELECT min(ps_supplycost) FROM partsupp, supplier "
      "WHERE p_partkey = ps_partkey AND s_suppkey = ps_suppkey)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Count(r->plan, "Join SINGLE"), 1) << r->plan;
  EXPECT_EQ(Count(r->plan, "Values"), 5) << r->plan;  // 3 outer + 2 inner, no D copy
}

TEST(Decorrelation, Q4ExistsBecomesSemiJoin) {
  auto r = Decorrelated(
      "SELECT o_orderstatus, count(*) FROM orders WHERE EXISTS (SELECT * FROM lineitem "
      "WHERE l_orderkey = o_orderkey AND l_commitdate < l_receiptdate) GROUP BY o_orderstatus");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Count(r->plan, "Join SEMI"), 1) << r->plan;
  EXPECT_EQ(Count(r->plan, "Join MARK"), 0) << r->plan;
}

TEST(Decorrelation, Q21ExistsAndNotExistsWithInequalityBecomeSemiAndAnti) {
  auto r = Decorrelated(
      "SELECT count(*) FROM lineitem l1 WHERE EXISTS (SELECT * FROM lineitem l2 WHERE l2.l_orderkey = "
      "l1.l_orderkey AND l2.l_suppkey <> l1.l_suppkey) AND NOT EXISTS (SELECT * FROM lineitem l3 WHERE "
      "l3.l_orderkey = l1.l_orderkey AND l3.l_suppkey <> l1.l_suppkey AND l3.l_receiptdate > l3.l_commitdate)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Count(r->plan, "Join SEMI"), 1) << r->plan;
  EXPECT_EQ(Count(r->plan, "Join ANTI"), 1) << r->plan;
  EXPECT_EQ(Count(r->plan, "residual"), 2) << r->plan;  // the <> stays a residual of each join
  EXPECT_EQ(Count(r->plan, "Values"), 3) << r->plan;    // no D copy of l1
}

TEST(Decorrelation, Q22NotExistsBecomesAntiJoin) {
  auto r = Decorrelated(
      "SELECT substr(c_phone, 1, 2) AS code, count(*) FROM customer WHERE substr(c_phone, 1, 2) IN ('13', '31') "
      "AND NOT EXISTS (SELECT * FROM orders WHERE o_custkey = c_custkey) GROUP BY code");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Count(r->plan, "Join ANTI"), 1) << r->plan;
}

TEST(Decorrelation, Q20CorrelatedScalarInsideUncorrelatedIn) {
  auto r = Decorrelated(
      "SELECT s_name FROM supplier WHERE s_suppkey IN (SELECT ps_suppkey FROM partsupp WHERE ps_partkey IN "
      "(SELECT p_partkey FROM part WHERE p_name LIKE 'forest%') AND ps_availqty > (SELECT 0.5 * "
      "sum(l_quantity) FROM lineitem WHERE l_partkey = ps_partkey AND l_suppkey = ps_suppkey))");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  // The IN subquery is uncorrelated and runs once; inside it the scalar subquery is a join.
  EXPECT_EQ(Count(r->subqueries, "Join SINGLE"), 1) << r->subqueries;
}

TEST(Decorrelation, CountBugJoinsTheDomainOuter) {
  auto r = Decorrelated("SELECT a, (SELECT count(*) FROM t2 WHERE t2.c = t1.a) FROM t1");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Count(r->plan, "Join LEFT"), 1) << r->plan;  // D LEFT JOIN count by c
  EXPECT_NE(r->plan.find("COALESCE"), std::string::npos) << r->plan;
}

TEST(Decorrelation, NotInBuildsNullAwareMarks) {
  auto r = Decorrelated("SELECT a FROM t1 WHERE b NOT IN (SELECT d FROM t2 WHERE t2.c = t1.a)");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Count(r->plan, "Join MARK"), 3) << r->plan;  // match, "has a row", "has a NULL"
}

TEST(Decorrelation, NestedTwoLevels) {
  auto r = Decorrelated(
      "SELECT a FROM t1 WHERE EXISTS (SELECT 1 FROM t2 WHERE t2.c = t1.a AND "
      "t2.d > (SELECT count(*) FROM t2 AS t3 WHERE t3.c = t2.d AND t3.d <> t1.b))");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->plan.find("dependent"), std::string::npos) << r->plan;
}

TEST(Decorrelation, LimitInCorrelatedSubqueryIsNamed) {
  auto r = Decorrelated("SELECT a, (SELECT count(*) FROM (SELECT d FROM t2 WHERE t2.c = t1.a LIMIT 1) s) FROM t1");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().ToString().find("LIMIT"), std::string::npos) << r.status().ToString();
}

}  // namespace
}  // namespace shoal::sql
