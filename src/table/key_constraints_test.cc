#include "table/key_constraints.h"

#include <gtest/gtest.h>

namespace shoal::table {
namespace {

using Columns = std::optional<std::vector<std::string>>;

TEST(KeyConstraints, RelyUniqueKeyColumnsReadsPrimaryAndUniqueKeysMarkedRely) {
  EXPECT_EQ(RelyUniqueKeyColumns("shoal.constraint.t_pk", "PRIMARY KEY (a, b) NOT ENFORCED RELY"),
            Columns({"a", "b"}));
  EXPECT_EQ(RelyUniqueKeyColumns("shoal.constraint.u", "UNIQUE (`x y`, `a``b`) NOT ENFORCED RELY"),
            Columns({"x y", "a`b"}));
  // Not RELY, NORELY, a foreign key, a column literally named rely, another property.
  EXPECT_EQ(RelyUniqueKeyColumns("shoal.constraint.t_pk", "PRIMARY KEY (a) NOT ENFORCED"), std::nullopt);
  EXPECT_EQ(RelyUniqueKeyColumns("shoal.constraint.t_pk", "PRIMARY KEY (a) NOT ENFORCED NORELY"), std::nullopt);
  EXPECT_EQ(RelyUniqueKeyColumns("shoal.constraint.f", "FOREIGN KEY (a) REFERENCES t NOT ENFORCED RELY"),
            std::nullopt);
  EXPECT_EQ(RelyUniqueKeyColumns("shoal.constraint.t_pk", "PRIMARY KEY (rely) NOT ENFORCED"), std::nullopt);
  EXPECT_EQ(RelyUniqueKeyColumns("delta.constraints.c", "PRIMARY KEY (a) NOT ENFORCED RELY"), std::nullopt);
  // Malformed text is no key.
  EXPECT_EQ(RelyUniqueKeyColumns("shoal.constraint.t_pk", "PRIMARY KEY (a, RELY"), std::nullopt);
  EXPECT_EQ(RelyUniqueKeyColumns("shoal.constraint.t_pk", "PRIMARY KEY () RELY"), std::nullopt);
}

TEST(KeyConstraints, PrimaryKeyPropertyFindsThePrimaryKey) {
  std::map<std::string, std::string> config = {{"shoal.constraint.u", "UNIQUE (a) NOT ENFORCED"},
                                               {"owner", "PRIMARY KEY"},
                                               {"shoal.constraint.p", "PRIMARY KEY (b) NOT ENFORCED"}};
  EXPECT_EQ(PrimaryKeyProperty(config), "shoal.constraint.p");
  config.erase("shoal.constraint.p");
  EXPECT_EQ(PrimaryKeyProperty(config), "");
}

}  // namespace
}  // namespace shoal::table
