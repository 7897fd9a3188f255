#include "sql/binder/view_catalog.h"

#include <gtest/gtest.h>

#include "io/memory_file_system.h"

namespace shoal::sql {
namespace {

TEST(ViewCatalog, WriteReadListDeleteRoundTrip) {
  io::MemoryFileSystem fs;
  ViewDefinition v{"revenue0", "select 1 as a, 'x' as b", {"supplier_no", "total_revenue"}};
  ASSERT_TRUE(WriteView(fs, "/wh", v).ok());
  auto read = ReadView(fs, "/wh", "revenue0");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  ASSERT_TRUE(read->has_value());
  EXPECT_EQ((*read)->name, "revenue0");
  EXPECT_EQ((*read)->sql, v.sql);
  EXPECT_EQ((*read)->columns, v.columns);
  ASSERT_TRUE(fs.Exists("/wh/_shoal/views/revenue0.json").value());
  // Replacing keeps one file; a temporary file of a writer in progress is not a view.
  v.sql = "select 2, 3";
  ASSERT_TRUE(WriteView(fs, "/wh", v).ok());
  ASSERT_TRUE(fs.WriteAtomic("/wh/_shoal/views/.other.json.1.tmp", "{").ok());
  ASSERT_TRUE(WriteView(fs, "/wh", {"a_view", "select 1", {"x"}}).ok());
  auto names = ListViews(fs, "/wh");
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, (std::vector<std::string>{"a_view", "revenue0"}));
  EXPECT_EQ(ReadView(fs, "/wh", "revenue0").value()->sql, "select 2, 3");
  EXPECT_TRUE(DeleteView(fs, "/wh", "revenue0").value());
  EXPECT_FALSE(DeleteView(fs, "/wh", "revenue0").value());
  EXPECT_FALSE(ReadView(fs, "/wh", "revenue0").value().has_value());
}

TEST(ViewCatalog, NoViewsDirectoryMeansNoViews) {
  io::MemoryFileSystem fs;
  EXPECT_TRUE(ListViews(fs, "/empty").value().empty());
  EXPECT_FALSE(ReadView(fs, "/empty", "v").value().has_value());
}

TEST(ViewCatalog, BadFilesAreCorruptionNamingThePath) {
  io::MemoryFileSystem fs;
  ASSERT_TRUE(fs.CreateDirs("/wh/_shoal/views").ok());
  for (const char* text : {"not json", "[1]", "{\"name\": \"v\", \"sql\": 1, \"columns\": []}",
                           "{\"name\": \"v\", \"sql\": \"select 1\"}",
                           "{\"name\": \"v\", \"sql\": \"select 1\", \"columns\": [1]}"}) {
    ASSERT_TRUE(fs.WriteAtomic("/wh/_shoal/views/v.json", text).ok());
    auto r = ReadView(fs, "/wh", "v");
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.status().code(), StatusCode::kCorruption) << text;
    EXPECT_NE(r.status().ToString().find("/wh/_shoal/views/v.json"), std::string::npos) << r.status().ToString();
  }
}

TEST(ViewCatalog, NamesThatCannotBeFilesAreRejected) {
  io::MemoryFileSystem fs;
  for (const char* name : {"", ".hidden", "a/b", "..", "a\\b"}) {
    EXPECT_FALSE(CheckViewName(name).ok()) << name;
    EXPECT_FALSE(WriteView(fs, "/wh", {name, "select 1", {"x"}}).ok()) << name;
    EXPECT_FALSE(ReadView(fs, "/wh", name).value().has_value()) << name;
  }
  EXPECT_TRUE(CheckViewName("revenue0").ok());
}

}  // namespace
}  // namespace shoal::sql
