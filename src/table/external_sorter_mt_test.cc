// ExternalSorter's and SortKeyRows' threads (built into shoal_table_mt_test, labelled
// `concurrency`, so `make tsan-test` runs it under TSan): the next output chunk is gathered on a
// helper thread while the sink takes the current one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "io/memory_file_system.h"
#include "table/external_sorter.h"
#include "table/local_sort_test_support.h"

namespace shoal::table {
namespace {

using namespace testing_rows;

// A sorter on `cols` holding `rows`, added in batches of `add_rows`.
std::unique_ptr<ExternalSorter> SorterWith(const std::shared_ptr<io::FileSystem>& fs, const std::vector<Row>& rows,
                                           const std::vector<std::string>& cols, int64_t memory_limit,
                                           int64_t output_batch_rows, int64_t add_rows) {
  c::Schema s = RowSchema();
  ExternalSorterOptions o;
  for (const auto& n : cols) o.columns.push_back({s.Find(n), false, true});
  o.memory_limit = memory_limit;
  o.spill_dir = "/t/_shoal/tmp";
  o.output_batch_rows = output_batch_rows;
  auto sorter = ExternalSorter::Make(fs, std::make_shared<c::Schema>(s), o);
  EXPECT_TRUE(sorter.ok());
  if (!sorter.ok()) return nullptr;
  c::RecordBatch all = ToBatch(rows);
  for (int64_t pos = 0; pos < all.num_rows; pos += add_rows) {
    EXPECT_TRUE((*sorter)->Add(*c::SliceBatch(all, pos, std::min(add_rows, all.num_rows - pos))).ok());
  }
  return std::move(*sorter);
}

// Finishes `sorter` and checks that it hands out `rows` in the brute-force order on `cols`;
// returns how many batches it handed out. With `keep_batches` the sink keeps every batch
// (sharing its vectors, so the sorter must not reuse them) and reads them all at the end.
size_t ExpectFinishesInBruteForceOrder(ExternalSorter* sorter, const std::vector<Row>& rows,
                                       const std::vector<std::string>& cols, bool keep_batches = false) {
  std::vector<c::RecordBatch> kept;
  std::vector<Row> got;
  size_t batches = 0;
  EXPECT_TRUE(sorter->Finish([&](const c::RecordBatch& b) {
                      ++batches;
                      if (keep_batches) {
                        kept.push_back(b);
                      } else {
                        auto part = FromBatch(b);
                        got.insert(got.end(), part.begin(), part.end());
                      }
                      return Status::OK();
                    }).ok());
  for (const auto& b : kept) {
    auto part = FromBatch(b);
    got.insert(got.end(), part.begin(), part.end());
  }
  auto want = BruteSorted(rows, cols);
  EXPECT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size() && i < got.size(); ++i) {
    if (RowKey(got[i]) != RowKey(want[i])) {
      ADD_FAILURE() << "row " << i << " out of order";
      break;
    }
  }
  return batches;
}

// Finishes `sorter` into a sink that fails on its `fail_at`-th batch: the sort stops there (the
// helper thread joined) and returns that error.
void ExpectSinkErrorStopsTheSort(ExternalSorter* sorter, int fail_at) {
  int calls = 0;
  Status st = sorter->Finish([&](const c::RecordBatch&) {
    return ++calls == fail_at ? Status::IOError("disk full") : Status::OK();
  });
  EXPECT_EQ(calls, fail_at);
  EXPECT_NE(st.ToString().find("disk full"), std::string::npos) << st.ToString();
}

// The next chunk is gathered on a helper thread while the sink takes the current one, into two
// alternating sets of vectors: a sink that keeps every batch must still see each chunk intact,
// and a sink error stops the sort (the helper joined) with that error.
TEST(ExternalSorterThreads, ChunksGatheredAheadStayIntactAndASinkErrorStops) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(30000, 21);
  const std::vector<std::string> cols = {"s", "i"};
  auto make = [&] { return SorterWith(fs, rows, cols, int64_t{1} << 30, 1000, 5000); };
  auto sorter = make();
  ASSERT_NE(sorter, nullptr);
  EXPECT_EQ(ExpectFinishesInBruteForceOrder(sorter.get(), rows, cols, /*keep_batches=*/true), 30u);
  auto failing = make();
  ASSERT_NE(failing, nullptr);
  ExpectSinkErrorStopsTheSort(failing.get(), 3);
}

TEST(ExternalSorterThreads, SpilledRunsAreWrittenWhileTheNextChunkIsGathered) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(40000, 22);
  const std::vector<std::string> cols = {"low", "dt"};
  auto sorter = SorterWith(fs, rows, cols, 1 << 20, 3000, 8000);  // several spilled runs
  ASSERT_NE(sorter, nullptr);
  EXPECT_GE(sorter->runs_spilled(), 2);
  ExpectFinishesInBruteForceOrder(sorter.get(), rows, cols);
}

// The merge of spilled runs also works a chunk ahead on a helper thread: a sink that keeps every
// merged batch sees each intact, and a sink error stops the merge with that error.
TEST(ExternalSorterThreads, MergedChunksOfSpilledRunsStayIntactAndASinkErrorStops) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(30000, 23);
  const std::vector<std::string> cols = {"s", "d"};
  auto sorter = SorterWith(fs, rows, cols, 1 << 20, 2000, 3000);
  ASSERT_NE(sorter, nullptr);
  EXPECT_GE(sorter->runs_spilled(), 2);
  EXPECT_GE(ExpectFinishesInBruteForceOrder(sorter.get(), rows, cols, /*keep_batches=*/true), 2u);
  auto failing = SorterWith(fs, rows, cols, 1 << 20, 2000, 3000);
  ASSERT_NE(failing, nullptr);
  ExpectSinkErrorStopsTheSort(failing.get(), 4);
  failing.reset();  // the destructor deletes the unmerged runs
  EXPECT_TRUE(fs->List("/t/_shoal/tmp")->empty());
}

// Kept batches are sorted on a worker thread while later ones arrive: a sorter destroyed with
// batches still queued or being sorted stops its worker cleanly, and one that finishes merges
// the runs on the gather's helper thread.
TEST(ExternalSorterThreads, BatchRunWorkerStopsWithQueuedBatchesAndMergesOnTheHelper) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  auto rows = RandomRows(40000, 24);
  const std::vector<std::string> cols = {"low", "i"};
  for (int k = 0; k < 3; ++k) {
    auto dropped = SorterWith(fs, rows, cols, int64_t{1} << 30, 4096, 4096);
    ASSERT_NE(dropped, nullptr);
    dropped.reset();  // no Finish
  }
  auto sorter = SorterWith(fs, rows, cols, int64_t{1} << 30, 3000, 4096);
  ASSERT_NE(sorter, nullptr);
  ExpectFinishesInBruteForceOrder(sorter.get(), rows, cols);
}

// Large sorts split after the first radix pass and sort the two ranges of buckets on two
// threads: the permutation must equal the one-thread sort's (which local_sort_key_test checks
// against brute force), on low- and high-cardinality keys and long-string tie-breaks.
TEST(SortKeyThreads, TwoThreadSortEqualsTheOneThreadSort) {
  auto rows = RandomRows(20000, 23);
  c::RecordBatch batch = ToBatch(rows);
  c::Schema s = RowSchema();
  for (const auto& cols : std::vector<std::vector<std::string>>{{"low", "dt"}, {"s", "i"}, {"i"}, {"dec", "d"}}) {
    std::vector<SortColumn> sc;
    for (const auto& n : cols) sc.push_back({s.Find(n), false, true});
    auto enc = SortKeyEncoder::Make(s, sc);
    ASSERT_TRUE(enc.ok());
    KeyRows keys = enc->Encode(batch);
    EXPECT_EQ(SortKeyRows(keys, 64), SortKeyRows(keys, INT64_MAX)) << cols[0];
  }
}

}  // namespace
}  // namespace shoal::table
