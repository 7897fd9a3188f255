#include "delta/checkpoint_leaf_scan.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "delta/parquet_checkpoint_reader.h"
#include "io/memory_file_system.h"
#include "parquet/file_writer.h"
#include "parquet/writer_properties.h"

namespace shoal::delta {
namespace {

namespace c = columnar;

c::TypePtr StringMap() { return c::Map(c::String(), c::String(), true); }

c::TypePtr Dv() {
  return c::Struct({{"storageType", c::String(), true},
                    {"pathOrInlineDv", c::String(), true},
                    {"offset", c::Int32(), true},
                    {"sizeInBytes", c::Int32(), true},
                    {"cardinality", c::Int64(), true}});
}

// A checkpoint schema like the ones Spark writes, with stats_parsed next to stats.
std::shared_ptr<c::Schema> Schema() {
  auto s = std::make_shared<c::Schema>();
  s->fields = {
      {"protocol",
       c::Struct({{"minReaderVersion", c::Int32(), true}, {"minWriterVersion", c::Int32(), true}}), true},
      {"metaData",
       c::Struct({{"id", c::String(), true},
                  {"format", c::Struct({{"provider", c::String(), true}, {"options", StringMap(), true}}), true},
                  {"schemaString", c::String(), true},
                  {"partitionColumns", c::List(c::String()), true},
                  {"configuration", StringMap(), true}}),
       true},
      {"txn", c::Struct({{"appId", c::String(), true}, {"version", c::Int64(), true}}), true},
      {"add", c::Struct({{"path", c::String(), true},
                         {"partitionValues", StringMap(), true},
                         {"size", c::Int64(), true},
                         {"modificationTime", c::Int64(), true},
                         {"dataChange", c::Boolean(), true},
                         {"tags", StringMap(), true},
                         {"deletionVector", Dv(), true},
                         {"baseRowId", c::Int64(), true},
                         {"stats", c::String(), true},
                         {"stats_parsed", c::Struct({{"numRecords", c::Int64(), true}}), true}}),
       true},
      {"remove", c::Struct({{"path", c::String(), true},
                            {"deletionTimestamp", c::Int64(), true},
                            {"dataChange", c::Boolean(), true},
                            {"extendedFileMetadata", c::Boolean(), true},
                            {"partitionValues", StringMap(), true},
                            {"size", c::Int64(), true},
                            {"deletionVector", Dv(), true}}),
       true},
  };
  return s;
}

enum Col { kProtocol, kMetaData, kTxn, kAdd, kRemove, kNumCols };

void PutMap(c::Vector* v, const std::vector<std::pair<std::string, std::optional<std::string>>>& m) {
  c::Vector* entries = v->child(0).get();
  for (const auto& kv : m) {
    entries->child(0)->AppendString(kv.first);
    if (kv.second) {
      entries->child(1)->AppendString(*kv.second);
    } else {
      entries->child(1)->AppendNull();
    }
    entries->AppendStructRow();
  }
  v->AppendListEnd();
}

void PutDv(c::Vector* v, int i) {
  v->child(0)->AppendString(i % 3 == 0 ? "i" : "u");
  v->child(1)->AppendString("dv" + std::to_string(i));
  if (i % 3 == 0) {
    v->child(2)->AppendNull();
  } else {
    v->child(2)->Append<int32_t>(i % 100);
  }
  v->child(3)->Append<int32_t>(36);
  v->child(4)->Append<int64_t>(i % 7 + 1);
  v->AppendStructRow();
}

// Rows: protocol, metaData, then adds and removes interleaved, a txn in the middle; partition
// values (some null), tags, DVs, stats or only stats_parsed. `bad_row` >= 0 makes that add's
// size null (the generic route's error, or a decline for the fast paths).
struct Generated {
  std::shared_ptr<c::Schema> schema = Schema();
  std::vector<c::VectorPtr> cols;
  int64_t rows = 0;
};

Generated Generate(int adds, int bad_row, bool stats_parsed_only_rows) {
  Generated g;
  for (const auto& f : g.schema->fields) g.cols.push_back(c::Vector::Make(f.type));
  auto row = [&](int which, auto&& set) {
    for (int i = 0; i < kNumCols; ++i) {
      if (i == which) {
        set(g.cols[i].get());
        g.cols[i]->AppendStructRow();
      } else {
        g.cols[i]->AppendNull();
      }
    }
    ++g.rows;
  };
  row(kProtocol, [](c::Vector* v) {
    v->child(0)->Append<int32_t>(3);
    v->child(1)->Append<int32_t>(7);
  });
  row(kMetaData, [](c::Vector* v) {
    v->child(0)->AppendString("id-1");
    v->child(1)->child(0)->AppendString("parquet");
    PutMap(v->child(1)->child(1).get(), {});
    v->child(1)->AppendStructRow();
    v->child(2)->AppendString(R"({"type":"struct","fields":[]})");
    v->child(3)->child(0)->AppendString("p");
    v->child(3)->AppendListEnd();
    PutMap(v->child(4).get(), {{"delta.enableDeletionVectors", "true"}});
  });
  for (int i = 0; i < adds; ++i) {
    if (i == adds / 2) {
      row(kTxn, [](c::Vector* v) {
        v->child(0)->AppendString("app");
        v->child(1)->Append<int64_t>(42);
      });
    }
    if (i % 5 == 4) {
      row(kRemove, [&](c::Vector* v) {
        v->child(0)->AppendString("p=" + std::to_string(i % 4) + "/gone-" + std::to_string(i) + ".parquet");
        v->child(1)->Append<int64_t>(1700000000000 + i);
        v->child(2)->Append<uint8_t>(0);
        if (i % 2) {
          v->child(3)->Append<uint8_t>(1);
        } else {
          v->child(3)->AppendNull();
        }
        if (i % 3) {
          PutMap(v->child(4).get(), {{"p", std::to_string(i % 4)}});
        } else {
          v->child(4)->AppendNull();
        }
        v->child(5)->Append<int64_t>(1000 + i);
        if (i % 4 == 0) {
          PutDv(v->child(6).get(), i);
        } else {
          v->child(6)->AppendNull();
        }
      });
    }
    row(kAdd, [&](c::Vector* v) {
      v->child(0)->AppendString("p=" + std::to_string(i % 4) + "/part-" + std::to_string(i) + ".parquet");
      if (i % 11 == 0) {
        PutMap(v->child(1).get(), {{"p", std::nullopt}, {"q", "x"}});
      } else if (i % 13 == 0) {
        PutMap(v->child(1).get(), {});
      } else {
        PutMap(v->child(1).get(), {{"p", std::to_string(i % 4)}});
      }
      if (i == bad_row) {
        v->child(2)->AppendNull();
      } else {
        v->child(2)->Append<int64_t>(100000 + i);
      }
      v->child(3)->Append<int64_t>(1700000000000 + i);
      v->child(4)->Append<uint8_t>(0);
      if (i % 17 == 0) {
        PutMap(v->child(5).get(), {{"t", "v" + std::to_string(i)}, {"n", std::nullopt}});
      } else {
        v->child(5)->AppendNull();
      }
      if (i % 6 == 1) {
        PutDv(v->child(6).get(), i);
      } else {
        v->child(6)->AppendNull();
      }
      if (i % 9 == 0) {
        v->child(7)->Append<int64_t>(i * 10);
      } else {
        v->child(7)->AppendNull();
      }
      bool only_parsed = stats_parsed_only_rows && i % 23 == 22;
      if (only_parsed) {
        v->child(8)->AppendNull();
      } else {
        v->child(8)->AppendString(R"({"numRecords":)" + std::to_string(i) + "}");
      }
      c::Vector* sp = v->child(9).get();
      if (i % 2 == 0 || only_parsed) {
        sp->child(0)->Append<int64_t>(i);
        sp->AppendStructRow();
      } else {
        sp->AppendNull();
      }
    });
  }
  return g;
}

std::string WriteFile(const std::shared_ptr<io::FileSystem>& fs, const Generated& g, int64_t rows_per_group) {
  std::string path = "/t/_delta_log/00000000000000000010.checkpoint.parquet";
  parquet::WriterProperties::Builder b;
  b.max_row_group_rows(rows_per_group).data_page_rows(700);
  auto writer = parquet::ParquetWriter::Open(fs, path, *g.schema, b.Build());
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  EXPECT_TRUE((*writer)->WriteBatch(c::RecordBatch(g.schema, g.cols, g.rows)).ok());
  EXPECT_TRUE((*writer)->Close().ok());
  return path;
}

struct Read {
  Status status;
  std::vector<Action> actions;
};

Read ReadWith(ParquetCheckpointReader& r, io::FileSystem& fs, const std::string& path) {
  Read out;
  out.status = r.Read(fs, path, [&](Action&& a) {
    out.actions.push_back(std::move(a));
    return Status::OK();
  });
  return out;
}

// Through ReadWithFiles: add rows the scan decodes arrive as FileLists, turned back into
// AddFile actions where they arrive.
Read ReadColumnWise(ParquetCheckpointReader& r, io::FileSystem& fs, const std::string& path) {
  Read out;
  FileListSink files = [&](FileList&& list) {
    for (size_t i = 0; i < list.size(); ++i) out.actions.emplace_back(list.Get(i));
    return Status::OK();
  };
  out.status = r.ReadWithFiles(
      fs, path,
      [&](Action&& a) {
        out.actions.push_back(std::move(a));
        return Status::OK();
      },
      files);
  return out;
}

// The add actions and the other actions, each in their order (ReadWithFiles does not keep the
// order between the two).
std::pair<std::vector<Action>, std::vector<Action>> SplitAdds(const Read& r) {
  std::pair<std::vector<Action>, std::vector<Action>> out;
  for (const Action& a : r.actions) (std::holds_alternative<AddFile>(a) ? out.first : out.second).push_back(a);
  return out;
}

void ExpectSame(const Read& a, const Read& b, const std::string& what) {
  ASSERT_EQ(a.status.ToString(), b.status.ToString()) << what;
  ASSERT_EQ(a.actions.size(), b.actions.size()) << what;
  for (size_t i = 0; i < a.actions.size(); ++i) {
    ASSERT_TRUE(a.actions[i] == b.actions[i])
        << what << " action " << i << ": " << SerializeAction(a.actions[i]) << " vs " << SerializeAction(b.actions[i]);
  }
}

// Oracle: the generic JSON route. The leaf scan (with runs that cross row-group and page
// boundaries) and the assembled-batch route must give the same actions in the same order.
void CheckAllRoutesAgree(int adds, int bad_row, bool stats_parsed_only, int64_t rows_per_group) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  Generated g = Generate(adds, bad_row, stats_parsed_only);
  std::string path = WriteFile(fs, g, rows_per_group);
  ParquetCheckpointReader generic(/*generic_rows=*/true);
  ParquetCheckpointReader assembled;
  assembled.set_assembled_rows(true);
  Read want = ReadWith(generic, *fs, path);
  std::string what = "adds=" + std::to_string(adds) + " bad_row=" + std::to_string(bad_row) +
                     " stats_parsed_only=" + std::to_string(stats_parsed_only) +
                     " rows_per_group=" + std::to_string(rows_per_group);
  ExpectSame(ReadWith(assembled, *fs, path), want, what + " (assembled)");
  for (int64_t run : {0, 1, 97, 1000}) {
    ParquetCheckpointReader leaf;
    leaf.set_run_rows(run);
    ExpectSame(ReadWith(leaf, *fs, path), want, what + " run=" + std::to_string(run));
    Read columns = ReadColumnWise(leaf, *fs, path);
    ASSERT_EQ(columns.status.ToString(), want.status.ToString()) << what;
    auto [got_adds, got_others] = SplitAdds(columns);
    auto [want_adds, want_others] = SplitAdds(want);
    EXPECT_TRUE(got_adds == want_adds) << what << " column-wise run=" << run;
    EXPECT_TRUE(got_others == want_others) << what << " column-wise run=" << run;
  }
  if (bad_row < 0) {
    EXPECT_GT(want.actions.size(), static_cast<size_t>(adds)) << what;
  }
  // The scan itself must carry the rows (not hand them all to the batch route): without
  // declining rows it reads every row group to its end.
  if (bad_row < 0 && !stats_parsed_only) {
    auto reader = parquet::ParquetReader::Open(fs, path);
    ASSERT_TRUE(reader.ok());
    CheckpointLeafScan scan(**reader, {0, 1, 2, 3, 4}, {"protocol", "metaData", "txn", "add", "remove"});
    ASSERT_TRUE(scan.usable());
    scan.set_run_rows(333);
    int64_t emitted = 0, others = 0;
    for (int rg = 0; rg < (*reader)->num_row_groups(); ++rg) {
      auto stop = scan.ReadRowGroup(
          rg, [&](Action&&) { return ++emitted, Status::OK(); },
          [&](int, int64_t, int) { return ++others, Status::OK(); });
      ASSERT_TRUE(stop.ok()) << stop.status().ToString();
      EXPECT_EQ(*stop, (*reader)->row_group_num_rows(rg)) << what;
    }
    EXPECT_EQ(emitted + others, static_cast<int64_t>(want.actions.size())) << what;
    EXPECT_EQ(others, 3) << what;  // protocol, metaData, txn
  }
}

TEST(CheckpointLeafScan, MatchesTheGenericRouteWithPartitionsDvsAndRemoves) {
  CheckAllRoutesAgree(3000, -1, false, 1 << 20);
}

TEST(CheckpointLeafScan, MatchesTheGenericRouteAcrossRowGroups) { CheckAllRoutesAgree(2500, -1, false, 777); }

TEST(CheckpointLeafScan, RowsWithOnlyStatsParsedGoTheGenericRoute) { CheckAllRoutesAgree(1500, -1, true, 600); }

TEST(CheckpointLeafScan, ANullRequiredFieldGivesTheGenericRoutesError) {
  CheckAllRoutesAgree(1200, 700, false, 1 << 20);
  CheckAllRoutesAgree(1200, 5, false, 500);
}

TEST(CheckpointLeafScan, UsableOnlyWithAnAddOrRemoveColumn) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  Generated g = Generate(10, -1, false);
  std::string path = WriteFile(fs, g, 1 << 20);
  auto reader = parquet::ParquetReader::Open(fs, path);
  ASSERT_TRUE(reader.ok());
  // protocol, metaData, txn, add, remove
  EXPECT_TRUE(CheckpointLeafScan(**reader, {0, 1, 2, 3, 4}, {"protocol", "metaData", "txn", "add", "remove"}).usable());
  EXPECT_FALSE(CheckpointLeafScan(**reader, {0}, {"protocol"}).usable());  // nothing to scan
}

TEST(CheckpointLeafScan, ColumnWiseAddsKeepTheirViewsValidAfterTheReaderIsGone) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  Generated g = Generate(2000, -1, false);
  std::string path = WriteFile(fs, g, 700);
  ParquetCheckpointReader generic(/*generic_rows=*/true);
  auto [want_adds, want_others] = SplitAdds(ReadWith(generic, *fs, path));
  FileList all;
  int batches = 0;
  {
    ParquetCheckpointReader leaf;
    leaf.set_run_rows(256);
    FileListSink files = [&](FileList&& list) {
      ++batches;
      all.AppendList(std::move(list));
      return Status::OK();
    };
    Status st = leaf.ReadWithFiles(*fs, path, [](Action&&) { return Status::OK(); }, files);
    ASSERT_TRUE(st.ok()) << st.ToString();
  }
  ASSERT_TRUE(fs->Delete(path).ok());  // nothing may point into the file's bytes
  EXPECT_GT(batches, 4);
  ASSERT_EQ(all.size(), want_adds.size());
  for (size_t i = 0; i < all.size(); ++i) {
    EXPECT_TRUE(all.Get(i) == std::get<AddFile>(want_adds[i])) << i;
  }
}

TEST(CheckpointLeafScan, SinkErrorStopsTheRead) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  Generated g = Generate(100, -1, false);
  std::string path = WriteFile(fs, g, 1 << 20);
  ParquetCheckpointReader leaf;
  int seen = 0;
  Status st = leaf.Read(*fs, path, [&](Action&&) {
    return ++seen == 10 ? Status::IOError("stop here") : Status::OK();
  });
  EXPECT_EQ(seen, 10);
  EXPECT_NE(st.ToString().find("stop here"), std::string::npos) << st.ToString();
}

}  // namespace
}  // namespace shoal::delta
