// A RowGroupReader whose column readers fail to build keeps failing with that error on every
// later call instead of touching half-built state (found by fuzz/parquet_file_fuzz.cc).
#include <gtest/gtest.h>

#include "parquet/file_reader.h"
#include "support/testdata.h"

namespace shoal::parquet {
namespace {

TEST(RowGroupReaderErrors, ColumnWiseReadsAfterAFailedInitReturnTheErrorAgain) {
  SHOAL_REQUIRE_TESTDATA();
  std::string path = testing::TestDataDir() + "/parquet-testing/data/column_chunk_key_value_metadata.parquet";
  ReaderOptions options;
  options.verify_crc = false;
  auto reader = ParquetReader::Open(io::LocalFileSystem(), path, options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_GT((*reader)->num_row_groups(), 0);
  std::vector<int> fields;
  for (int f = 0; f < static_cast<int>((*reader)->schema()->fields.size()); ++f) fields.push_back(f);
  auto group = (*reader)->OpenRowGroup(0, fields);
  ASSERT_TRUE(group.ok()) << group.status().ToString();
  ASSERT_GE((*group)->num_fields(), 2);
  // The chunk metadata places column data outside the file: building the readers fails.
  auto first = (*group)->ReadField(0, 0);
  ASSERT_FALSE(first.ok());
  EXPECT_TRUE(first.status().IsCorruption()) << first.status().ToString();
  for (int i = 0; i < (*group)->num_fields(); ++i) {
    auto again = (*group)->ReadField(i, 0);
    ASSERT_FALSE(again.ok()) << "field " << i << " must report the failed initialisation";
    EXPECT_EQ(again.status().ToString(), first.status().ToString());
    EXPECT_FALSE((*group)->SkipField(i, 0).ok() && (*group)->ReadFieldSelected(i, 0, nullptr, 0).ok());
  }
}

}  // namespace
}  // namespace shoal::parquet
