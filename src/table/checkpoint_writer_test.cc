#include "table/checkpoint_writer.h"

#include <gtest/gtest.h>

#include <random>

#include "delta/parquet_checkpoint_reader.h"
#include "support/testdata.h"
#include "table/data_file_writer.h"
#include "table/table_creator.h"

namespace shoal::table {
namespace {

namespace c = columnar;

c::RecordBatch Batch(int64_t n) {
  c::Schema s;
  s.fields = {{"id", c::Int64(), true}, {"p", c::String(), true}};
  auto id = c::Vector::Make(c::Int64());
  auto p = c::Vector::Make(c::String());
  for (int64_t i = 0; i < n; ++i) {
    id->Append<int64_t>(i);
    if (i % 3 == 2) p->AppendNull();
    else p->AppendString(i % 3 ? "b" : "a");
  }
  return c::RecordBatch(std::make_shared<c::Schema>(s), {id, p}, n);
}

// Builds a table: v0 create, v1 three adds (partitioned) and a txn + domain, v2 a remove.
void BuildTable(std::shared_ptr<io::FileSystem> fs, const std::string& root, int64_t now,
                const std::map<std::string, std::string>& props) {
  c::Schema s = *Batch(0).schema;
  auto created = CreateTable(fs, root, "t", s, {"p"}, props);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  delta::Metadata meta;
  for (const auto& a : *created) {
    if (auto* m = std::get_if<delta::Metadata>(&a)) meta = *m;
  }
  auto w = DataFileWriter::Make(fs, root, meta);
  ASSERT_TRUE(w.ok());
  ASSERT_TRUE((*w)->Write(Batch(30)).ok());
  auto adds = (*w)->Finish();
  ASSERT_TRUE(adds.ok());
  ASSERT_EQ(adds->size(), 3u);
  std::vector<delta::Action> v1(adds->begin(), adds->end());
  v1.push_back(delta::Txn{"app", 7, now});
  v1.push_back(delta::DomainMetadata{"delta.rowTracking", R"({"rowIdHighWaterMark":29})", false});
  ASSERT_TRUE(fs->PutIfAbsent(CommitFilePath(root, 1), delta::SerializeCommit(v1)).ok());
  delta::RemoveFile rm;
  rm.path = (*adds)[0].path;
  rm.deletion_timestamp = now - 1000;
  rm.partition_values = (*adds)[0].partition_values;
  rm.size = (*adds)[0].size;
  delta::RemoveFile old = rm;
  old.path = "p=zzz/gone.parquet";
  old.deletion_timestamp = now - 30LL * 86400000;  // older than the 7-day retention
  ASSERT_TRUE(fs->PutIfAbsent(CommitFilePath(root, 2), delta::SerializeCommit({rm, old})).ok());
}

TEST(CheckpointWriter, SnapshotLoaderReadsItBackToTheSameState) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  std::string root = dir.Join("t");
  const int64_t now = 1750000000000;
  BuildTable(fs, root, now, {{"delta.enableRowTracking", "true"}});
  auto before = delta::Snapshot::Load(fs, root);
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  CheckpointOptions o;
  o.now_ms = now;
  auto info = WriteCheckpoint(fs, **before, o);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  EXPECT_EQ(info->version, 2);
  EXPECT_EQ(info->num_add_files, 2);
  EXPECT_EQ(info->size, 2 + 1 + 1 + 2 + 1);  // protocol, metaData, txn, domain, 2 adds, 1 live tombstone
  auto last = fs->ReadAll(root + "/_delta_log/_last_checkpoint");
  ASSERT_TRUE(last.ok());
  auto lj = delta::Json::parse(*last);
  EXPECT_EQ(lj["version"], 2);
  EXPECT_EQ(lj["size"], info->size);
  EXPECT_EQ(lj["sizeInBytes"], info->size_in_bytes);

  // Hide the commits so the loader must use the checkpoint.
  ASSERT_TRUE(fs->Rename(CommitFilePath(root, 1), root + "/c1").ok());
  ASSERT_TRUE(fs->Rename(CommitFilePath(root, 0), root + "/c0").ok());
  delta::SnapshotOptions so;
  so.readers = delta::DefaultCheckpointReaders();
  auto after = delta::Snapshot::Load(fs, root, so);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  EXPECT_EQ((*after)->version(), 2);
  EXPECT_EQ((*after)->protocol(), (*before)->protocol());
  EXPECT_EQ((*after)->metadata(), (*before)->metadata());
  EXPECT_EQ((*after)->app_transactions(), (*before)->app_transactions());
  EXPECT_EQ((*after)->domain_metadata(), (*before)->domain_metadata());
  ASSERT_EQ((*after)->files().size(), (*before)->files().size());
  std::map<std::string, delta::AddFile> want;
  for (auto a : (*before)->files()) {
    a.data_change = false;
    want[a.path] = a;
  }
  for (const auto& a : (*after)->files()) EXPECT_EQ(a, want[a.path]) << a.path;
  ASSERT_EQ((*after)->tombstones().size(), 1u);
  EXPECT_NE((*after)->tombstones()[0].path, "p=zzz/gone.parquet");  // the expired one is dropped
  EXPECT_EQ((*before)->tombstones().size(), 2u);
  EXPECT_EQ((*after)->tombstones()[0].deletion_timestamp, now - 1000);
}

// Oracle for the column-wise file list: a snapshot from a Parquet checkpoint whose files later
// commits remove, re-add with new DVs and add next to, loaded through the leaf scan's FileLists,
// equals the same load through AddFile actions (the generic route), and matches a full JSON
// replay of the same log.
TEST(CheckpointWriter, ColumnWiseCheckpointFilesWithATouchingTailMatchTheOtherRoutes) {
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  std::string root = dir.Join("t");
  c::Schema schema = *Batch(0).schema;
  ASSERT_TRUE(CreateTable(fs, root, "t", schema, {"p"}, {}).ok());
  std::mt19937 rng(11);
  int next = 0;
  auto make_add = [&](std::optional<std::string> dv) {
    delta::AddFile a;
    int i = next++;
    a.partition_values["p"] = i % 5 == 0 ? std::nullopt : std::optional<std::string>("v" + std::to_string(i % 3));
    a.path = "p=" + a.partition_values["p"].value_or("__HIVE_DEFAULT_PARTITION__") + "/f" + std::to_string(i) +
             ".parquet";
    a.size = 100 + i;
    a.modification_time = 1750000000000 + i;
    if (i % 7 != 3) {
      a.stats = R"({"numRecords":10,"minValues":{"id":)" + std::to_string(i) + R"(},"maxValues":{"id":)" +
                std::to_string(i + 9) + R"(},"nullCount":{"id":0}})";
    }
    if (i % 11 == 0) a.tags = delta::StringMap{{"INSERTION_TIME", std::to_string(i)}};
    if (i % 13 == 0) a.base_row_id = i * 10;
    if (dv) {
      delta::DeletionVectorDescriptor d;
      d.storage_type = 'u';
      d.path_or_inline_dv = *dv;
      d.offset = 1;
      d.size_in_bytes = 34;
      d.cardinality = 2;
      a.deletion_vector = d;
    }
    return a;
  };
  std::vector<delta::AddFile> live;
  int64_t v = 1;
  for (; v <= 30; ++v) {
    std::vector<delta::Action> actions;
    for (int k = 0; k < 40; ++k) {
      live.push_back(make_add(k % 9 == 0 ? std::optional<std::string>("ab^-aqEH.-t@S}K{vb[*k^" + std::to_string(k))
                                         : std::nullopt));
      actions.push_back(live.back());
    }
    ASSERT_TRUE(fs->PutIfAbsent(CommitFilePath(root, v), delta::SerializeCommit(actions)).ok());
  }
  auto at = delta::Snapshot::Load(fs, root);
  ASSERT_TRUE(at.ok()) << at.status().ToString();
  ASSERT_TRUE(WriteCheckpoint(fs, **at, CheckpointOptions()).ok());
  for (; v <= 45; ++v) {
    std::vector<delta::Action> actions;
    for (int k = 0; k < 6; ++k) {
      size_t i = rng() % live.size();
      delta::RemoveFile rm;
      rm.path = live[i].path;
      rm.deletion_timestamp = 1750000000000 + v;
      rm.deletion_vector = live[i].deletion_vector;
      switch (rng() % 3) {
        case 0:  // the file goes
          actions.push_back(rm);
          live.erase(live.begin() + static_cast<long>(i));
          break;
        case 1: {  // a new DV
          actions.push_back(rm);
          delta::AddFile again = live[i];
          again.deletion_vector = make_add("dv" + std::to_string(v * 10 + k)).deletion_vector;
          live[i] = again;
          actions.push_back(again);
          break;
        }
        default:  // a remove naming another DV cancels nothing
          rm.deletion_vector = make_add("other" + std::to_string(v * 10 + k)).deletion_vector;
          actions.push_back(rm);
          break;
      }
    }
    actions.push_back(make_add(std::nullopt));
    live.push_back(std::get<delta::AddFile>(actions.back()));
    ASSERT_TRUE(fs->PutIfAbsent(CommitFilePath(root, v), delta::SerializeCommit(actions)).ok());
  }

  delta::SnapshotOptions column_wise;
  column_wise.readers = delta::DefaultCheckpointReaders();
  delta::SnapshotOptions generic;
  generic.readers.parquet = std::make_shared<delta::ParquetCheckpointReader>(/*generic_rows=*/true);
  auto a = delta::Snapshot::Load(fs, root, column_wise);
  auto b = delta::Snapshot::Load(fs, root, generic);
  ASSERT_TRUE(a.ok()) << a.status().ToString();
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_EQ((*a)->segment().checkpoint_version, 30);
  ASSERT_EQ((*a)->files().size(), live.size());
  EXPECT_TRUE((*a)->files() == (*b)->files());
  EXPECT_TRUE((*a)->tombstones() == (*b)->tombstones());

  // Full JSON replay: the checkpoint hidden.
  ASSERT_TRUE(fs->Delete(root + "/_delta_log/_last_checkpoint").ok());
  ASSERT_TRUE(fs->Rename(root + "/_delta_log/00000000000000000030.checkpoint.parquet", root + "/cp").ok());
  auto j = delta::Snapshot::Load(fs, root);
  ASSERT_TRUE(j.ok()) << j.status().ToString();
  std::map<std::string, delta::AddFile> want;
  for (auto f : live) want[f.path] = f;
  std::map<std::string, delta::AddFile> from_json;
  for (auto f : (*j)->files()) from_json[f.path] = f;
  EXPECT_TRUE(from_json == want);
  for (auto f : (*a)->files()) {
    f.data_change = want[f.path].data_change;  // the checkpoint writes dataChange=false
    EXPECT_EQ(f, want[f.path]) << f.path;
  }
}

TEST(CheckpointWriter, DuckDbReadsTheCheckpoint) {
  std::string duck = testing::DuckDbCommand();
  if (duck.empty()) GTEST_SKIP() << "DuckDB (build/duckdb) not installed";
  testing::TempDir dir;
  auto fs = io::LocalFileSystem();
  std::string root = dir.Join("t");
  const int64_t now = 1750000000000;
  BuildTable(fs, root, now, {});
  auto snap = delta::Snapshot::Load(fs, root);
  ASSERT_TRUE(snap.ok());
  CheckpointOptions o;
  o.now_ms = now;
  auto info = WriteCheckpoint(fs, **snap, o);
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  std::string out;
  std::string sql = "SELECT count(*) AS n, count(add) AS adds, count(remove) AS removes, "
                    "max(protocol.minWriterVersion) AS w FROM read_parquet('" +
                    info->path + "')";
  ASSERT_EQ(testing::RunCommand(duck + " \"" + sql + "\"", &out), 0) << out;
  auto j = delta::Json::parse(out.substr(0, out.find('\n')));
  EXPECT_EQ(j["n"].get<int64_t>(), info->size);
  EXPECT_EQ(j["adds"].get<int64_t>(), 2);
  EXPECT_EQ(j["removes"].get<int64_t>(), 1);
  EXPECT_EQ(j["w"].get<int64_t>(), 7);
}

}  // namespace
}  // namespace shoal::table
