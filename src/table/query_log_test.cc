// The query log under _shoal/query_log: entries, tolerance of garbage, bounded compaction.
#include "table/query_log.h"

#include <gtest/gtest.h>

#include "io/memory_file_system.h"

namespace shoal::table {
namespace {

QueryLogEntry Entry(std::vector<ShapeTerm> terms, int64_t total, int64_t out, int64_t bytes) {
  QueryLogEntry e;
  e.shape.terms = std::move(terms);
  e.rows_total = total;
  e.rows_out = out;
  e.bytes_read = bytes;
  e.time_ms = 1;
  return e;
}

const ShapeHistory* Find(const QueryHistory& h, const std::string& key) {
  for (const auto& s : h.shapes) {
    if (s.shape.Key() == key) return &s;
  }
  return nullptr;
}

TEST(QueryShape, NormalizesOrderCaseAndDuplicates) {
  QueryShape a;
  a.terms = {{"B", PredicateClass::kRange}, {"a", PredicateClass::kEq}, {"b", PredicateClass::kRange}};
  a.Normalize();
  EXPECT_EQ(a.Key(), "a=,b<");
  QueryShape b;
  b.terms = {{"a", PredicateClass::kEq}, {"b", PredicateClass::kRange}};
  b.Normalize();
  EXPECT_EQ(a.Key(), b.Key());
}

TEST(QueryLog, EntryRoundTripsAndGarbageIsCorruption) {
  QueryLogEntry e = Entry({{"x", PredicateClass::kPrefix}, {"d", PredicateClass::kIsNull}}, 100, 7, 4096);
  auto back = EntryFromJson(EntryToJson(e));
  ASSERT_TRUE(back.ok()) << back.status().ToString();
  EXPECT_EQ(back->shape.Key(), "dN,x^");
  EXPECT_EQ(back->rows_total, 100);
  EXPECT_EQ(back->rows_out, 7);
  EXPECT_EQ(back->bytes_read, 4096);
  for (std::string bad : {"", "{", "[]", "{\"shape\": 3}", "{\"shape\": [[\"a\", \"?\"]], \"rowsTotal\": 1, "
                          "\"rowsOut\": 1, \"bytesRead\": 1}",
                          "{\"shape\": [[\"a\", \"=\"]], \"rowsTotal\": -1, \"rowsOut\": 1, \"bytesRead\": 1}"}) {
    EXPECT_FALSE(EntryFromJson(bad).ok()) << bad;
  }
}

TEST(QueryLog, AppendsAndReadsBackSkippingTornFiles) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  QueryLogLimits no_compact;
  no_compact.compact_check_every = 0;
  ASSERT_TRUE(AppendQueryLogEntry(*fs, "/t", Entry({{"a", PredicateClass::kEq}}, 1000, 10, 500), no_compact).ok());
  ASSERT_TRUE(AppendQueryLogEntry(*fs, "/t", Entry({{"a", PredicateClass::kEq}}, 1000, 30, 700), no_compact).ok());
  ASSERT_TRUE(AppendQueryLogEntry(*fs, "/t", Entry({{"b", PredicateClass::kRange}}, 1000, 500, 900), no_compact).ok());
  ASSERT_TRUE(fs->WriteAtomic("/t/_shoal/query_log/e-torn.json", "{\"shape\": [[\"a\"").ok());
  auto h = ReadQueryHistory(*fs, "/t");
  ASSERT_TRUE(h.ok()) << h.status().ToString();
  EXPECT_DOUBLE_EQ(h->total_count, 3);
  const ShapeHistory* a = Find(*h, "a=");
  ASSERT_NE(a, nullptr);
  EXPECT_DOUBLE_EQ(a->count, 2);
  EXPECT_DOUBLE_EQ(a->avg_selectivity(), 0.02);
  EXPECT_DOUBLE_EQ(a->avg_bytes_read(), 600);
  EXPECT_EQ(h->shapes[0].shape.Key(), "a=");  // most frequent first
}

TEST(QueryLog, MissingLogIsAnEmptyHistory) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto h = ReadQueryHistory(*fs, "/nothing");
  ASSERT_TRUE(h.ok());
  EXPECT_TRUE(h->shapes.empty());
}

TEST(QueryLog, CompactionBoundsFilesAndKeepsCounts) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  QueryLogLimits limits;
  limits.max_entry_files = 8;
  limits.compact_check_every = 1;
  for (int i = 0; i < 50; ++i) {
    std::string col = i % 5 == 0 ? "b" : "a";
    ASSERT_TRUE(AppendQueryLogEntry(*fs, "/t", Entry({{col, PredicateClass::kEq}}, 100, 1, 10), limits).ok());
    auto files = fs->List(QueryLogDir("/t"));
    ASSERT_TRUE(files.ok());
    EXPECT_LE(files->size(), limits.max_entry_files + 2) << i;  // entries + one summary
  }
  auto h = ReadQueryHistory(*fs, "/t", limits);
  ASSERT_TRUE(h.ok());
  EXPECT_DOUBLE_EQ(h->total_count, 50);
  EXPECT_DOUBLE_EQ(Find(*h, "a=")->count, 40);
  EXPECT_DOUBLE_EQ(Find(*h, "b=")->count, 10);
  EXPECT_EQ(h->recorded, 50);
}

TEST(QueryLog, SummaryDecaysAndKeepsTheMostFrequentShapes) {
  QueryHistory h;
  for (int i = 0; i < 300; ++i) {
    h.Add(Entry({{std::string("c").append(std::to_string(i % 30)), PredicateClass::kEq}}, 100, 1, 1));
  }
  for (int i = 0; i < 100; ++i) h.Add(Entry({{"hot", PredicateClass::kRange}}, 100, 1, 1));
  h.Bound(5, 100);
  EXPECT_EQ(h.shapes.size(), 5u);
  EXPECT_EQ(h.shapes[0].shape.Key(), "hot<");
  EXPECT_LE(h.total_count, 100);
  EXPECT_NEAR(h.shapes[0].avg_selectivity(), 0.01, 1e-12);  // decay keeps averages
}

TEST(QueryLog, CompactsOnTopOfAnotherProcesssSummary) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  QueryLogLimits limits;
  limits.compact_check_every = 0;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(AppendQueryLogEntry(*fs, "/t", Entry({{"a", PredicateClass::kEq}}, 100, 1, 1), limits).ok());
  }
  // Another process already took summary sequence 0 (with nothing folded).
  ASSERT_TRUE(fs->WriteAtomic("/t/_shoal/query_log/summary-0.json", "{\"shapes\": [], \"folded\": []}").ok());
  auto before = ReadQueryHistory(*fs, "/t");
  ASSERT_TRUE(before.ok());
  EXPECT_DOUBLE_EQ(before->total_count, 4);
  ASSERT_TRUE(CompactQueryLog(*fs, "/t", limits, /*force=*/true).ok());  // writes summary-1
  auto after = ReadQueryHistory(*fs, "/t");
  ASSERT_TRUE(after.ok());
  EXPECT_DOUBLE_EQ(after->total_count, 4);
  auto files = fs->List(QueryLogDir("/t"));
  ASSERT_TRUE(files.ok());
  EXPECT_EQ(files->size(), 1u);
}

}  // namespace
}  // namespace shoal::table
