#include "delta/file_list.h"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <string>
#include <vector>

namespace shoal::delta {
namespace {

// A file with some of every field, chosen by `i`.
AddFile Make(int i) {
  AddFile a;
  a.path = "part=" + std::to_string(i % 7) + "/file-" + std::to_string(i) + std::string(i % 50, 'x') + ".parquet";
  if (i % 3 != 0) a.partition_values["part"] = std::to_string(i % 7);
  if (i % 4 == 0) a.partition_values["nullable"] = std::nullopt;
  if (i % 5 == 0) a.partition_values["empty"] = "";
  a.size = 1000 + i;
  a.modification_time = 1700000000000 + i;
  a.data_change = i % 2 == 0;
  if (i % 6 != 1) a.stats = R"({"numRecords":)" + std::to_string(i) + "}";
  if (i % 9 == 0) a.tags = StringMap{{"k", "v" + std::to_string(i)}};
  if (i % 8 == 0) {
    DeletionVectorDescriptor dv;
    dv.storage_type = 'u';
    dv.path_or_inline_dv = "ab" + std::to_string(i);
    dv.offset = i;
    dv.size_in_bytes = 40;
    dv.cardinality = i % 13;
    a.deletion_vector = dv;
  }
  if (i % 10 == 0) a.base_row_id = i * 100;
  if (i % 11 == 0) a.default_row_commit_version = i / 11;
  if (i % 17 == 0) a.clustering_provider = "liquid";
  return a;
}

TEST(FileList, AppendThenGetGivesEveryFieldBack) {
  FileList list;
  std::vector<AddFile> want;
  for (int i = 0; i < 3000; ++i) {  // more than one arena chunk of strings
    want.push_back(Make(i));
    list.Append(want.back());
  }
  ASSERT_EQ(list.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(list.Get(i), want[i]) << i;
    EXPECT_EQ(list.path(i), want[i].path);
    EXPECT_EQ(list.file_size(i), want[i].size);
    EXPECT_EQ(list.stats(i).has_value(), want[i].stats.has_value());
    EXPECT_EQ(list.DvUniqueId(i), want[i].DvUniqueId());
    EXPECT_EQ(list.extras(i) == nullptr, !want[i].tags && !want[i].deletion_vector && !want[i].base_row_id &&
                                             !want[i].default_row_commit_version && !want[i].clustering_provider);
  }
  EXPECT_EQ(list.Materialize(), want);
}

TEST(FileList, AStringLargerThanAChunkIsKept) {
  FileList list;
  AddFile a = Make(1);
  a.stats = std::string(3 << 20, 's');
  list.Append(Make(2));
  list.Append(a);
  list.Append(Make(3));
  EXPECT_EQ(list.Get(0), Make(2));
  EXPECT_EQ(list.Get(1), a);
  EXPECT_EQ(list.Get(2), Make(3));
}

TEST(FileList, AppendListMovesFilesAndStorageAndKeepsViewsValid) {
  std::mt19937 rng(3);
  FileList all;
  std::vector<AddFile> want;
  int next = 0;
  for (int part = 0; part < 20; ++part) {
    FileList piece;
    // Half the pieces are built from views of strings another owner holds.
    const bool views = part % 2 == 1;
    auto owned = std::make_shared<std::deque<std::string>>();  // stable addresses
    const int n = static_cast<int>(rng() % 200);
    for (int k = 0; k < n; ++k) {
      AddFile a = Make(next++);
      want.push_back(a);
      if (!views) {
        piece.Append(a);
        continue;
      }
      owned->push_back(a.path);
      FileList::Row r;
      r.path = owned->back();
      std::vector<FileList::PartitionEntry> pv;
      for (const auto& [key, value] : a.partition_values) {
        owned->push_back(key);
        std::string_view kv = owned->back();
        owned->push_back(value.value_or(""));
        pv.push_back({kv, value ? std::string_view(owned->back()) : std::string_view(), !value});
      }
      r.partition_values = pv;
      r.size = a.size;
      r.modification_time = a.modification_time;
      r.data_change = a.data_change;
      if (a.stats) {
        owned->push_back(*a.stats);
        r.stats = owned->back();
      }
      piece.AppendRow(r, FileList::ExtrasOf(a));
    }
    if (views) piece.KeepAlive(owned);
    owned.reset();
    all.AppendList(std::move(piece));
    EXPECT_TRUE(piece.empty());
    all.Append(Make(next));  // the current arena chunk keeps filling after a merge
    want.push_back(Make(next++));
  }
  ASSERT_EQ(all.Materialize(), want);
}

TEST(FileList, EraseDropsTheDeadFilesInOrder) {
  FileList list;
  std::vector<AddFile> want;
  std::vector<bool> dead;
  for (int i = 0; i < 500; ++i) {
    list.Append(Make(i));
    dead.push_back(i % 3 == 1 || i == 0 || i == 499);
    if (!dead.back()) want.push_back(Make(i));
  }
  list.Erase(dead);
  EXPECT_EQ(list.Materialize(), want);
  list.Erase(std::vector<bool>(list.size(), true));
  EXPECT_TRUE(list.empty());
  list.Append(Make(7));
  EXPECT_EQ(list.Get(0), Make(7));
}

}  // namespace
}  // namespace shoal::delta
