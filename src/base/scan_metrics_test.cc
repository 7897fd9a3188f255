// ScanMetrics::ToJson (include/shoal/database.h): the `--stats` line keeps its keys, their order
// and its exact spelling, since scripts read it.
#include <gtest/gtest.h>

#include "shoal/database.h"

namespace shoal {
namespace {

TEST(ScanMetrics, ToJsonSpellsEveryCounterInItsFixedOrder) {
  ScanMetrics m;
  m.files_total = 1;
  m.files_read = 2;
  m.row_groups_total = 3;
  m.row_groups_read = 4;
  m.pages_total = 5;
  m.pages_read = 6;
  m.bytes_read = 7;
  m.rows_scanned = 8;
  m.rows_returned = 9;
  m.elapsed_ms = 10;
  m.files_pruned_partition = 11;
  m.files_pruned_stats = 12;
  m.row_groups_pruned_stats = 13;
  m.row_groups_pruned_dictionary = 14;
  m.row_groups_pruned_bloom = 15;
  m.pages_pruned_index = 16;
  m.rows_pruned_index = 17;
  m.rows_deleted_dv = 18;
  m.rows_prewhere_filtered = 19;
  m.pages_skipped_prewhere = -20;
  EXPECT_EQ(m.ToJson(),
            "{\"files_total\":1,\"files_read\":2,\"row_groups_total\":3,\"row_groups_read\":4,"
            "\"pages_total\":5,\"pages_read\":6,\"bytes_read\":7,\"rows_scanned\":8,\"rows_returned\":9,"
            "\"files_pruned_partition\":11,\"files_pruned_stats\":12,\"row_groups_pruned_stats\":13,"
            "\"row_groups_pruned_dictionary\":14,\"row_groups_pruned_bloom\":15,\"pages_pruned_index\":16,"
            "\"rows_pruned_index\":17,\"rows_deleted_dv\":18,\"rows_prewhere_filtered\":19,"
            "\"pages_skipped_prewhere\":-20,\"elapsed_ms\":10}");
}

TEST(ScanMetrics, ToJsonOfZeroMetricsIsValidJsonOfZeros) {
  std::string j = ScanMetrics().ToJson();
  EXPECT_EQ(j.front(), '{');
  EXPECT_EQ(j.back(), '}');
  EXPECT_EQ(j.find(",,"), std::string::npos);
  EXPECT_NE(j.find("\"files_total\":0,"), std::string::npos);
  EXPECT_NE(j.find("\"elapsed_ms\":0}"), std::string::npos);
}

}  // namespace
}  // namespace shoal
