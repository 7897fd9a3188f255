#include "cli/scan_summary.h"

#include <gtest/gtest.h>

namespace shoal::cli {
namespace {

TEST(ScanSummary, NamesWhatWasReadAndWhatEachLevelSkipped) {
  ScanMetrics m;
  m.files_total = 10;
  m.files_read = 3;
  m.files_pruned_partition = 5;
  m.files_pruned_stats = 2;
  m.row_groups_total = 96;
  m.row_groups_read = 2;
  m.row_groups_pruned_stats = 93;
  m.row_groups_pruned_bloom = 1;
  m.bytes_read = 1100000;
  m.rows_returned = 1;
  m.elapsed_ms = 35;
  EXPECT_EQ(ScanSummaryLine(m),
            "read 2 of 96 row groups in 3 of 10 files (1.1 MB); skipped 5 files by partition values, "
            "2 files by statistics, 93 row groups by statistics, 1 row group by Bloom filter; 1 row in 35 ms");
}

TEST(ScanSummary, WithoutScansOnlyRowsAndTime) {
  ScanMetrics m;
  m.rows_returned = 2;
  m.elapsed_ms = 3;
  EXPECT_EQ(ScanSummaryLine(m), "2 rows in 3 ms");
}

TEST(ScanSummary, HumanBytesUsesDecimalUnits) {
  EXPECT_EQ(HumanBytes(999), "999 B");
  EXPECT_EQ(HumanBytes(1000), "1.0 KB");
  EXPECT_EQ(HumanBytes(140000000), "140 MB");
  EXPECT_EQ(HumanBytes(2500000000), "2.5 GB");
}

}  // namespace
}  // namespace shoal::cli
