#include "table/external_sorter.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <thread>

#include "io/fault_injection_file_system.h"
#include "io/memory_file_system.h"
#include "table/local_sort_test_support.h"

namespace shoal::table {
namespace {

using namespace testing_rows;

struct SortOutput {
  std::vector<Row> rows;
  int64_t peak = 0;
  int runs = 0;
  int64_t max_batch_rows = 0;
};

Result<SortOutput> SortWith(const std::shared_ptr<io::FileSystem>& fs, const std::vector<Row>& rows,
                            const std::vector<std::string>& cols, LocalSortMode mode, int64_t limit,
                            int64_t add_rows = 1000, int fan_in = 64, bool sort_while_adding = true,
                            bool spill_in_background = true) {
  c::Schema s = RowSchema();
  ExternalSorterOptions o;
  o.sort_while_adding = sort_while_adding;
  o.spill_in_background = spill_in_background;
  for (const auto& n : cols) o.columns.push_back({s.Find(n), false, true});
  o.mode = mode;
  o.memory_limit = limit;
  o.spill_dir = "/t/_shoal/tmp";
  o.max_merge_fan_in = fan_in;
  o.output_batch_rows = 4096;
  ASSIGN_OR_RETURN(auto sorter, ExternalSorter::Make(fs, std::make_shared<c::Schema>(s), o));
  c::RecordBatch all = ToBatch(rows);
  for (int64_t pos = 0; pos < all.num_rows; pos += add_rows) {
    auto part = c::SliceBatch(all, pos, std::min(add_rows, all.num_rows - pos));
    RETURN_NOT_OK(sorter->Add(*part));
  }
  SortOutput out;
  RETURN_NOT_OK(sorter->Finish([&](const c::RecordBatch& b) {
    out.max_batch_rows = std::max(out.max_batch_rows, b.num_rows);
    auto got = FromBatch(b);
    out.rows.insert(out.rows.end(), got.begin(), got.end());
    return Status::OK();
  }));
  out.peak = sorter->peak_memory_bytes();
  out.runs = sorter->runs_spilled();
  return out;
}

int64_t RawBytesOf(const std::vector<Row>& rows) {
  c::RecordBatch b = ToBatch(rows);
  int64_t n = 0;
  for (const auto& col : b.columns) n += static_cast<int64_t>(col->values().size() + col->bytes().size() + col->validity().size());
  return n;
}

TEST(ExternalSorter, InMemorySortMatchesAStableBruteForceSort) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(20000, 11);
  for (const auto& cols : std::vector<std::vector<std::string>>{{"low", "dt"}, {"s", "i"}, {"d"}, {"dec", "s"}}) {
    auto out = SortWith(fs, rows, cols, LocalSortMode::kLexicographic, int64_t{1} << 30);
    ASSERT_TRUE(out.ok()) << out.status().ToString();
    EXPECT_EQ(out->runs, 0);
    EXPECT_LE(out->max_batch_rows, 4096);
    auto want = BruteSorted(rows, cols);
    ASSERT_EQ(out->rows.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(RowKey(out->rows[i]), RowKey(want[i])) << cols[0] << " " << i;
  }
}

TEST(ExternalSorter, SpillingSortEqualsInMemorySortWithBoundedMemory) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(60000, 12);
  const int64_t raw = RawBytesOf(rows);
  const int64_t limit = raw / 6;  // data is 6x the limit (plus key bytes)
  for (const auto& cols : std::vector<std::vector<std::string>>{{"low", "dt"}, {"s", "d"}, {"i"}}) {
    auto big = SortWith(fs, rows, cols, LocalSortMode::kLexicographic, int64_t{1} << 30);
    auto small = SortWith(fs, rows, cols, LocalSortMode::kLexicographic, limit);
    ASSERT_TRUE(big.ok()) << big.status().ToString();
    ASSERT_TRUE(small.ok()) << small.status().ToString();
    EXPECT_GE(small->runs, 4) << cols[0];
    EXPECT_LT(small->peak, 2 * limit) << cols[0] << " peak " << small->peak << " limit " << limit;
    ASSERT_EQ(small->rows.size(), big->rows.size());
    for (size_t i = 0; i < big->rows.size(); ++i) ASSERT_EQ(RowKey(small->rows[i]), RowKey(big->rows[i])) << i;
    auto want = BruteSorted(rows, cols);
    for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(RowKey(small->rows[i]), RowKey(want[i])) << i;
  }
  // Runs are deleted after the merge.
  auto left = fs->List("/t/_shoal/tmp");
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(left->empty());
}

// Nested columns (STRUCT, LIST) are not gathered by segment code: the merge of spilled runs
// appends them span by span. Every row must come out whole and in stable key order.
TEST(ExternalSorter, SpilledNestedColumnsKeepEachRowWholeAndStable) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto schema = std::make_shared<c::Schema>();
  schema->fields = {{"k", c::Int64(), false},
                    {"tag", c::String(), true},
                    {"st", c::Struct({{"x", c::Int64(), true}, {"y", c::String(), true}}), true},
                    {"l", c::List(c::Int64()), true}};
  const int64_t n = 20000;
  std::mt19937_64 rng(31);
  auto batch = [&](int64_t first, int64_t rows) {
    std::vector<c::VectorPtr> cols;
    for (const auto& f : schema->fields) cols.push_back(c::Vector::Make(f.type));
    for (int64_t r = first; r < first + rows; ++r) {
      cols[0]->Append<int64_t>(static_cast<int64_t>(rng() % 300));
      cols[1]->AppendString("t" + std::to_string(r));
      cols[2]->child(0)->Append<int64_t>(r);
      cols[2]->child(1)->AppendString(std::string(static_cast<size_t>(r % 7), 'y'));
      cols[2]->AppendStructRow();
      if (r % 5 == 0) {
        cols[3]->AppendNull();
      } else {
        for (int64_t e = 0; e < r % 4; ++e) cols[3]->child(0)->Append<int64_t>(r * 10 + e);
        cols[3]->AppendListEnd();
      }
    }
    return c::RecordBatch(schema, std::move(cols), rows);
  };
  ExternalSorterOptions o;
  o.columns = {{0, false, true}};
  o.memory_limit = 200 << 10;
  o.spill_dir = "/t/_shoal/tmp";
  o.output_batch_rows = 3000;
  auto sorter = ExternalSorter::Make(fs, schema, o);
  ASSERT_TRUE(sorter.ok()) << sorter.status().ToString();
  for (int64_t pos = 0; pos < n; pos += 1000) ASSERT_TRUE((*sorter)->Add(batch(pos, 1000)).ok());
  std::vector<std::pair<int64_t, int64_t>> got;  // (k, original row)
  ASSERT_TRUE((*sorter)
                  ->Finish([&](const c::RecordBatch& b) {
                    const c::Vector& st = *b.column(2);
                    const c::Vector& l = *b.column(3);
                    for (int64_t i = 0; i < b.num_rows; ++i) {
                      const int64_t r = st.child(0)->Get<int64_t>(i);
                      EXPECT_EQ(b.column(1)->GetString(i), "t" + std::to_string(r));
                      EXPECT_EQ(st.child(1)->GetString(i).size(), static_cast<size_t>(r % 7));
                      EXPECT_EQ(l.IsNull(i), r % 5 == 0) << r;
                      if (!l.IsNull(i)) {
                        const int64_t begin = l.offsets()[i], end = l.offsets()[i + 1];
                        EXPECT_EQ(end - begin, r % 4) << r;
                        for (int64_t e = begin; e < end; ++e)
                          EXPECT_EQ(l.child(0)->Get<int64_t>(e), r * 10 + (e - begin));
                      }
                      got.push_back({b.column(0)->Get<int64_t>(i), r});
                    }
                    return Status::OK();
                  })
                  .ok());
  EXPECT_GE((*sorter)->runs_spilled(), 3);
  ASSERT_EQ(got.size(), static_cast<size_t>(n));
  for (size_t i = 1; i < got.size(); ++i) ASSERT_LT(got[i - 1], got[i]) << i;  // by key, then arrival
  EXPECT_TRUE(fs->List("/t/_shoal/tmp")->empty());
}

TEST(ExternalSorter, ManyRunsMergeInSeveralPassesWithLargeInputBatches) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(30000, 13);
  const int64_t limit = RawBytesOf(rows) / 20;
  // One Add of all rows: the sorter slices it itself; fan-in 3 forces merge passes.
  auto out = SortWith(fs, rows, {"s", "low"}, LocalSortMode::kLexicographic, limit, 30000, 3);
  ASSERT_TRUE(out.ok()) << out.status().ToString();
  EXPECT_GT(out->runs, 20);  // spilled runs plus merge-pass runs
  EXPECT_LT(out->peak, 2 * limit);
  auto want = BruteSorted(rows, {"s", "low"});
  ASSERT_EQ(out->rows.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) ASSERT_EQ(RowKey(out->rows[i]), RowKey(want[i])) << i;
  EXPECT_TRUE(fs->List("/t/_shoal/tmp")->empty());
}

TEST(ExternalSorter, ZOrderSpilledEqualsInMemoryAndKeepsEveryRow) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(40000, 14);
  const int64_t limit = RawBytesOf(rows) / 5;
  auto big = SortWith(fs, rows, {"dec", "dt"}, LocalSortMode::kZOrder, int64_t{1} << 30, 40000);
  auto small = SortWith(fs, rows, {"dec", "dt"}, LocalSortMode::kZOrder, limit, 40000);
  ASSERT_TRUE(big.ok()) << big.status().ToString();
  ASSERT_TRUE(small.ok()) << small.status().ToString();
  EXPECT_GT(small->runs, 2);
  ASSERT_EQ(big->rows.size(), rows.size());
  ASSERT_EQ(small->rows.size(), rows.size());
  // Same multiset; the spilled order is z-sorted by the boundaries of its first buffer, so
  // compare multisets rather than orders.
  std::vector<std::string> a, b, want;
  for (size_t i = 0; i < rows.size(); ++i) {
    a.push_back(RowKey(big->rows[i]));
    b.push_back(RowKey(small->rows[i]));
    want.push_back(RowKey(rows[i]));
  }
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(a, want);
  EXPECT_EQ(b, want);
}

// Batches of 4,096 rows or more are kept by reference and sorted as runs on a worker thread
// while later batches arrive; Finish (and a spill) merges the runs. The result must equal the
// whole-buffer sort's and the brute-force order, in memory and spilled, and for keys whose long
// shared-prefix strings need full comparisons (their runs cannot be merged by bytes: the sorter
// falls back to the whole sort).
TEST(ExternalSorter, BatchRunsMergedAtTheEndEqualTheWholeSort) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(24000, 15);
  auto long_rows = rows;
  const std::vector<std::string> stems = {"a-shared-prefix-longer-than-the-key-", "a-shared-prefix-longer-than"};
  for (size_t r = 0; r < long_rows.size(); ++r) {
    if (long_rows[r].s) long_rows[r].s = stems[r % 2] + std::to_string(r % 37);
  }
  const int64_t limit = RawBytesOf(rows) / 4;
  for (int64_t add_rows : {4096, 9000}) {
    for (const auto& cols : std::vector<std::vector<std::string>>{{"low", "dt"}, {"s", "i"}, {"i"}, {"dec", "d"}}) {
      for (const auto* input : {&rows, &long_rows}) {
        const std::string what = cols[0] + " add " + std::to_string(add_rows) + (input == &rows ? "" : " long");
        auto want = BruteSorted(*input, cols);
        for (int64_t mem : {int64_t{1} << 30, limit}) {
          auto merged = SortWith(fs, *input, cols, LocalSortMode::kLexicographic, mem, add_rows, 64, true);
          auto whole = SortWith(fs, *input, cols, LocalSortMode::kLexicographic, mem, add_rows, 64, false);
          ASSERT_TRUE(merged.ok()) << merged.status().ToString();
          ASSERT_TRUE(whole.ok()) << whole.status().ToString();
          if (mem == limit) {
            EXPECT_GE(merged->runs, 2) << what;
          }
          EXPECT_LT(merged->peak, mem == limit ? 2 * limit : mem) << what;
          ASSERT_EQ(merged->rows.size(), want.size()) << what;
          for (size_t i = 0; i < want.size(); ++i) {
            ASSERT_EQ(RowKey(merged->rows[i]), RowKey(want[i])) << what << " row " << i;
            ASSERT_EQ(RowKey(whole->rows[i]), RowKey(want[i])) << what << " whole, row " << i;
          }
        }
      }
    }
  }
}

// The merges' span length: every boundary of every length up to 70, against counting.
TEST(LeadingCount, CountsTheLeadingTrueValuesOfAMonotonePredicate) {
  for (int64_t most = 1; most <= 70; ++most) {
    for (int64_t t = 1; t <= most; ++t) {
      int calls = 0;
      const int64_t got = LeadingCount(most, [&](int64_t k) {
        ++calls;
        EXPECT_GE(k, 0);
        EXPECT_LT(k, most);
        return k < t;
      });
      ASSERT_EQ(got, t) << "most " << most;
      EXPECT_LE(calls, 16) << "most " << most << " t " << t;
    }
  }
}

TEST(ExternalSorter, RejectsBadOptions) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto schema = std::make_shared<c::Schema>(RowSchema());
  ExternalSorterOptions o;
  o.spill_dir = "/tmp";
  EXPECT_FALSE(ExternalSorter::Make(fs, schema, o).ok());  // no columns
  o.columns = {{1, false, true}};
  o.memory_limit = 0;
  EXPECT_FALSE(ExternalSorter::Make(fs, schema, o).ok());
  o.memory_limit = 1 << 20;
  o.spill_dir.clear();
  EXPECT_FALSE(ExternalSorter::Make(fs, schema, o).ok());
  o.spill_dir = "/tmp";
  EXPECT_TRUE(ExternalSorter::Make(fs, schema, o).ok());
}

TEST(ExternalSorter, DestructorDeletesRunsOfAnUnfinishedSort) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(5000, 15);
  {
    ExternalSorterOptions o;
    o.columns = {{1, false, true}};
    o.memory_limit = RawBytesOf(rows) / 4;
    o.spill_dir = "/t/_shoal/tmp";
    auto sorter = ExternalSorter::Make(fs, std::make_shared<c::Schema>(RowSchema()), o);
    ASSERT_TRUE(sorter.ok());
    ASSERT_TRUE((*sorter)->Add(ToBatch(rows)).ok());
    EXPECT_GT((*sorter)->runs_spilled(), 0);
    EXPECT_FALSE(fs->List("/t/_shoal/tmp")->empty());
  }
  EXPECT_TRUE(fs->List("/t/_shoal/tmp")->empty());
}

// Runs written on a background thread (the buffer filling half the budget meanwhile) give the
// same rows in the same order as runs written inline, within the same memory bound; with the
// runs half as large there are about twice as many.
TEST(ExternalSorter, SpillingInTheBackgroundEqualsSpillingInline) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "background spills need a second core";
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(40000, 31);
  const int64_t limit = RawBytesOf(rows) / 5;
  for (const auto& cols : std::vector<std::vector<std::string>>{{"low", "dt"}, {"s", "i"}, {"i"}}) {
    for (bool while_adding : {true, false}) {
      const std::string what = cols[0] + (while_adding ? " batch runs" : " whole sorts");
      auto inline_ = SortWith(fs, rows, cols, LocalSortMode::kLexicographic, limit, 4096, 64, while_adding, false);
      auto bg = SortWith(fs, rows, cols, LocalSortMode::kLexicographic, limit, 4096, 64, while_adding, true);
      ASSERT_TRUE(inline_.ok()) << inline_.status().ToString();
      ASSERT_TRUE(bg.ok()) << bg.status().ToString();
      EXPECT_GE(inline_->runs, 3) << what;
      EXPECT_GT(bg->runs, inline_->runs) << what;
      EXPECT_LT(bg->peak, 2 * limit) << what;
      auto want = BruteSorted(rows, cols);
      ASSERT_EQ(bg->rows.size(), want.size()) << what;
      for (size_t i = 0; i < want.size(); ++i) {
        ASSERT_EQ(RowKey(bg->rows[i]), RowKey(want[i])) << what << " row " << i;
        ASSERT_EQ(RowKey(inline_->rows[i]), RowKey(want[i])) << what << " inline, row " << i;
      }
    }
  }
  EXPECT_TRUE(fs->List("/t/_shoal/tmp")->empty());
}

// A run whose writing fails on the background thread fails the sorter's next call (a later
// spill or Finish) with the file system's error; no run is left behind.
TEST(ExternalSorter, AFailedBackgroundSpillFailsTheNextCallAndLeavesNoRuns) {
  auto rows = RandomRows(30000, 32);
  for (int64_t nth : {1, 3, 9}) {
    auto fs = std::make_shared<io::FaultInjectionFileSystem>(std::make_shared<io::MemoryFileSystem>());
    io::FaultPlan plan;
    io::FaultRule rule;
    rule.kind = io::OpKind::kAppend;
    rule.nth = nth;
    rule.fault = io::FaultKind::kENOSPC;
    plan.rules.push_back(rule);
    fs->SetPlan(plan);
    Status failed;
    {
      ExternalSorterOptions o;
      o.columns = {{1, false, true}};
      o.memory_limit = RawBytesOf(rows) / 6;
      o.spill_dir = "/t/_shoal/tmp";
      auto sorter = ExternalSorter::Make(fs, std::make_shared<c::Schema>(RowSchema()), o);
      ASSERT_TRUE(sorter.ok());
      c::RecordBatch all = ToBatch(rows);
      for (int64_t pos = 0; pos < all.num_rows && failed.ok(); pos += 5000) {
        failed = (*sorter)->Add(*c::SliceBatch(all, pos, std::min<int64_t>(5000, all.num_rows - pos)));
      }
      if (failed.ok()) failed = (*sorter)->Finish([](const c::RecordBatch&) { return Status::OK(); });
    }
    EXPECT_FALSE(failed.ok()) << "append " << nth;
    EXPECT_NE(failed.ToString().find("No space left"), std::string::npos) << failed.ToString();
    EXPECT_EQ(fs->FaultsInjected(), 1) << "append " << nth;
    auto left = fs->base().List("/t/_shoal/tmp");
    ASSERT_TRUE(left.ok());
    EXPECT_TRUE(left->empty()) << "append " << nth << ": " << left->size() << " files left";
  }
}

// The merge produces chunks ahead of the sink on another thread: a sink error ends Finish with
// that error (the producer stops), and the runs are deleted.
TEST(ExternalSorter, ASinkErrorStopsTheMergeAndDeletesTheRuns) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(30000, 33);
  for (int fail_at : {1, 2, 5}) {
    {
      ExternalSorterOptions o;
      o.columns = {{1, false, true}};
      o.memory_limit = RawBytesOf(rows) / 6;
      o.spill_dir = "/t/_shoal/tmp";
      o.output_batch_rows = 1000;
      auto sorter = ExternalSorter::Make(fs, std::make_shared<c::Schema>(RowSchema()), o);
      ASSERT_TRUE(sorter.ok());
      ASSERT_TRUE((*sorter)->Add(ToBatch(rows)).ok());
      ASSERT_GT((*sorter)->runs_spilled(), 1);
      int calls = 0;
      Status st = (*sorter)->Finish([&](const c::RecordBatch&) {
        return ++calls == fail_at ? Status::IOError("sink is full") : Status::OK();
      });
      EXPECT_EQ(calls, fail_at);
      EXPECT_FALSE(st.ok());
      EXPECT_NE(st.ToString().find("sink is full"), std::string::npos) << st.ToString();
    }
    EXPECT_TRUE(fs->List("/t/_shoal/tmp")->empty()) << fail_at;
  }
}

}  // namespace
}  // namespace shoal::table
