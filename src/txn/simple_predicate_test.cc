#include "txn/simple_predicate.h"

#include <gtest/gtest.h>

#include "txn/txn_test_table.h"

namespace shoal::txn {
namespace {

using testing_support::TableSpec;

TEST(SimplePredicate, BindsConjunctionsOfComparisons) {
  TableSpec spec;
  spec.partitioned = true;
  auto schema = scan::BuildTableSchema(testing_support::MakeMetadata(spec));
  ASSERT_TRUE(schema.ok());
  auto e = BindSimplePredicate("date = 'it''s' AND id >= 5 and value <> -3", *schema);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ((*e)->kind, expr::ExprKind::kAnd);
  EXPECT_EQ((*e)->args.size(), 3u);
  EXPECT_FALSE(BindSimplePredicate("nope = 1", *schema).ok());
  EXPECT_FALSE(BindSimplePredicate("id = ", *schema).ok());
  EXPECT_FALSE(BindSimplePredicate("id = 'x", *schema).ok());
}

}  // namespace
}  // namespace shoal::txn
