#include "scan/parquet_scan.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <fstream>

#include "parquet/file_writer.h"
#include "scan/scan_test_support.h"
#include "support/testdata.h"

namespace shoal::scan {
namespace {

using testing_support::Drain;

void WriteFile(const std::shared_ptr<io::FileSystem>& fs, const std::string& path,
               std::vector<columnar::Field> fields, std::vector<columnar::VectorPtr> cols, int64_t rows,
               int64_t rg_rows = 1 << 20) {
  columnar::Schema schema;
  schema.fields = std::move(fields);
  auto props = parquet::WriterProperties::Builder().max_row_group_rows(rg_rows).Build();
  auto w = parquet::ParquetWriter::Open(fs, path, schema, props);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE((*w)->WriteBatch(columnar::RecordBatch(std::make_shared<columnar::Schema>(schema), cols, rows)).ok());
  ASSERT_TRUE((*w)->Close().ok());
}

template <typename T>
columnar::VectorPtr Ints(columnar::TypePtr t, std::vector<T> v) {
  auto out = columnar::Vector::Make(t);
  for (T x : v) out->Append<T>(x);
  return out;
}

columnar::VectorPtr Strings(std::vector<std::string> v) {
  auto out = columnar::Vector::Make(columnar::String());
  for (const auto& s : v) out->AppendString(s);
  return out;
}

TEST(ParquetScan, GlobUnionsFilesByNameWithNullsAndCommonTypes) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  WriteFile(fs, dir.Join("a1.parquet"), {{"a", columnar::Int32(), true}, {"b", columnar::String(), true}},
            {Ints<int32_t>(columnar::Int32(), {1, 2}), Strings({"x", "y"})}, 2);
  WriteFile(fs, dir.Join("a2.parquet"), {{"A", columnar::Int64(), true}, {"c", columnar::Float64(), true}},
            {Ints<int64_t>(columnar::Int64(), {3}), Ints<double>(columnar::Float64(), {0.5})}, 1);
  std::ofstream(dir.Join("other.txt")) << "not matched";
  auto set = ParquetFileSet::Open(fs, {dir.Join("a*.parquet")});
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  ASSERT_EQ((*set)->files().size(), 2u);
  const auto& schema = (*set)->schema()->schema;
  ASSERT_EQ(schema.size(), 3u);
  EXPECT_EQ(schema[0].type->ToString(), "BIGINT");
  EXPECT_EQ((*set)->total_rows(), 3);
  auto scan = (*set)->Plan({0, 1, 2}, {});
  ASSERT_TRUE(scan.ok());
  auto batches = Drain(**scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  auto rows = testing_support::RowsAsJson(*batches);
  std::vector<std::string> want = {R"({"a":1,"b":"x","c":null})", R"({"a":2,"b":"y","c":null})",
                                   R"({"a":3,"b":null,"c":0.5})"};
  EXPECT_EQ(rows, want);
}

TEST(ParquetScan, DoubleStarMatchesZeroOrMoreDirectories) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  ASSERT_TRUE(fs->CreateDirs(dir.Join("p=1/q=2")).ok());
  ASSERT_TRUE(fs->CreateDirs(dir.Join(".hidden")).ok());
  for (const char* name : {"top.parquet", "p=1/mid.parquet", "p=1/q=2/deep.parquet", ".hidden/no.parquet"}) {
    WriteFile(fs, dir.Join(name), {{"a", columnar::Int32(), true}}, {Ints<int32_t>(columnar::Int32(), {1})}, 1);
  }
  auto files = ExpandGlobs(*fs, {dir.Join("**/*.parquet")});
  ASSERT_TRUE(files.ok()) << files.status().ToString();
  std::vector<std::string> want = {dir.Join("top.parquet"), dir.Join("p=1/mid.parquet"),
                                   dir.Join("p=1/q=2/deep.parquet")};
  std::vector<std::string> got = *files;
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  EXPECT_FALSE(ExpandGlobs(*fs, {dir.Join("**")}).ok()) << "a trailing ** names no files";
}

TEST(ParquetScan, IncompatibleTypesNameColumnAndFiles) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  WriteFile(fs, dir.Join("x1.parquet"), {{"a", columnar::Int32(), true}}, {Ints<int32_t>(columnar::Int32(), {1})}, 1);
  auto lst = columnar::Vector::Make(columnar::List(columnar::Int32()));
  lst->child(0)->Append<int32_t>(5);
  lst->AppendListEnd();
  WriteFile(fs, dir.Join("x2.parquet"), {{"a", columnar::List(columnar::Int32()), true}}, {lst}, 1);
  auto set = ParquetFileSet::Open(fs, {dir.Join("x*.parquet")});
  ASSERT_FALSE(set.ok());
  EXPECT_NE(set.status().message().find("\"a\""), std::string::npos) << set.status().ToString();
  EXPECT_NE(set.status().message().find("x2.parquet"), std::string::npos);
}

TEST(ParquetScan, NoMatchAndMissingFileAreErrors) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  EXPECT_FALSE(ParquetFileSet::Open(fs, {dir.Join("*.parquet")}).ok());
  EXPECT_FALSE(ParquetFileSet::Open(fs, {dir.Join("nope.parquet")}).ok());
}

TEST(ParquetScan, RowGroupStatisticsPrune) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  std::vector<int64_t> v;
  for (int i = 0; i < 1000; ++i) v.push_back(i);
  WriteFile(fs, dir.Join("s.parquet"), {{"id", columnar::Int64(), true}}, {Ints<int64_t>(columnar::Int64(), v)},
            1000, 100);
  auto set = ParquetFileSet::Open(fs, {dir.Join("s.parquet")});
  ASSERT_TRUE(set.ok());
  auto ge = expr::Call(">=", {expr::ColumnRef(0, columnar::Int64(), "id"), expr::Literal(columnar::Value::Int64(420))});
  auto lt = expr::Call("<", {expr::ColumnRef(0, columnar::Int64(), "id"), expr::Literal(columnar::Value::Int64(450))});
  ASSERT_TRUE(ge.ok() && lt.ok());
  auto scan = (*set)->Plan({0}, {*ge, *lt});
  ASSERT_TRUE(scan.ok());
  auto batches = Drain(**scan);
  ASSERT_TRUE(batches.ok());
  EXPECT_EQ(testing_support::CountRows(*batches), 30);
  EXPECT_EQ((*scan)->metrics().row_groups_total, 10);
  EXPECT_EQ((*scan)->metrics().row_groups_read, 1);
}

TEST(ParquetScan, ReadsParquetTestingFile) {
  SHOAL_REQUIRE_TESTDATA();
  std::string path = testing::TestDataDir() + "/parquet-testing/data/alltypes_plain.parquet";
  auto fs = io::LocalFileSystem();
  auto set = ParquetFileSet::Open(fs, {path});
  ASSERT_TRUE(set.ok()) << set.status().ToString();
  std::vector<int> cols;
  for (size_t i = 0; i < (*set)->schema()->columns.size(); ++i) cols.push_back(static_cast<int>(i));
  auto scan = (*set)->Plan(cols, {});
  ASSERT_TRUE(scan.ok());
  auto batches = Drain(**scan);
  ASSERT_TRUE(batches.ok()) << batches.status().ToString();
  EXPECT_EQ(testing_support::CountRows(*batches), 8);
}

}  // namespace
}  // namespace shoal::scan
