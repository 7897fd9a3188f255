// Parquet checkpoints: every golden table with a Parquet checkpoint (classic, multi-part, V2
// with sidecars, struct-only stats) must replay to the same active files, with the same stats
// and DVs, as an independent replay of all JSON commits.
#include "delta/parquet_checkpoint_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "delta/snapshot.h"
#include "delta/stats_json.h"
#include "io/file_system.h"
#include "io/memory_file_system.h"
#include "parquet/file_writer.h"
#include "support/testdata.h"

namespace shoal::delta {
namespace {

namespace fs = std::filesystem;

std::string Golden(const std::string& rel) {
  return testing::TestDataDir() + "/delta-golden/" + rel;
}

// path -> numRecords from replaying every JSON commit 0..n in order; nullopt if one is missing.
std::optional<std::map<std::string, std::optional<int64_t>>> ReplayJson(const std::string& root,
                                                                        int64_t version) {
  std::map<std::string, std::optional<int64_t>> live;
  for (int64_t v = 0; v <= version; ++v) {
    char name[64];
    std::snprintf(name, sizeof(name), "/_delta_log/%020lld.json", static_cast<long long>(v));
    std::ifstream in(root + name);
    if (!in) return std::nullopt;
    std::string line;
    while (std::getline(in, line)) {
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object()) continue;
      if (j.contains("add")) {
        std::optional<int64_t> n;
        if (j["add"].contains("stats") && j["add"]["stats"].is_string()) {
          auto s = nlohmann::json::parse(j["add"]["stats"].get<std::string>(), nullptr, false);
          if (!s.is_discarded() && s.contains("numRecords")) n = s["numRecords"].get<int64_t>();
        }
        live[j["add"]["path"].get<std::string>()] = n;
      } else if (j.contains("remove")) {
        live.erase(j["remove"]["path"].get<std::string>());
      }
    }
  }
  return live;
}

class ParquetCheckpointGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(ParquetCheckpointGolden, ReplaysToSameFilesAsJsonCommits) {
  SHOAL_REQUIRE_TESTDATA();
  std::string root = Golden(GetParam());
  if (!fs::exists(root)) GTEST_SKIP() << root << " absent";
  SnapshotOptions opts;
  opts.readers = DefaultCheckpointReaders();
  auto snap = Snapshot::Load(io::LocalFileSystem(), root, opts);
  ASSERT_TRUE(snap.ok()) << snap.status().ToString();
  ASSERT_TRUE((*snap)->segment().checkpoint_version.has_value()) << "expected a checkpoint";
  auto oracle = ReplayJson(root, (*snap)->version());
  ASSERT_TRUE(oracle.has_value()) << "JSON commits missing";
  std::map<std::string, std::optional<int64_t>> got;
  for (const AddFile& a : (*snap)->files()) {
    std::optional<int64_t> n;
    if (a.stats) {
      auto s = ParseStatsJson(*a.stats);
      ASSERT_TRUE(s.ok()) << s.status().ToString();
      n = s->num_records;
    }
    got[a.path] = n;
  }
  EXPECT_EQ(got, *oracle);
  EXPECT_FALSE((*snap)->metadata().schema_string.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Tables, ParquetCheckpointGolden,
    ::testing::Values("golden/checkpoint/delta", "golden/multi-part-checkpoint/delta",
                      "kernel/v2-checkpoints-parquet-with-sidecars",
                      "kernel/v2-checkpoints-parquet-without-sidecars",
                      "kernel/v2-checkpoints-parquet-with-last-checkpoint",
                      "kernel/v2-classic-checkpoint-parquet",
                      "kernel/v2-classic-parquet-struct-stats-only",
                      "kernel/v2-parquet-sidecars-struct-stats-only",
                      "kernel/v1-multi-part-struct-stats-only",
                      "kernel/v1-single-part-struct-stats-only",
                      "kernel/v1-multi-part-partitioned-struct-stats-only",
                      "kernel/app-txn-checkpoint"),
    [](const auto& info) {
      std::string n = info.param;
      for (char& c : n) if (!isalnum(static_cast<unsigned char>(c))) c = '_';
      return n;
    });

TEST(ParquetCheckpointReader, ReadsProtocolMetadataAndTxn) {
  SHOAL_REQUIRE_TESTDATA();
  std::string root = Golden("kernel/app-txn-checkpoint");
  if (!fs::exists(root)) GTEST_SKIP();
  ParquetCheckpointReader reader;
  auto local = io::LocalFileSystem();
  int protocols = 0, metadatas = 0, txns = 0, adds = 0;
  Status st = reader.Read(*local, root + "/_delta_log/00000000000000000001.checkpoint.parquet",
                          [&](Action&& a) {
                            if (std::holds_alternative<Protocol>(a)) ++protocols;
                            if (std::holds_alternative<Metadata>(a)) ++metadatas;
                            if (std::holds_alternative<Txn>(a)) ++txns;
                            if (std::holds_alternative<AddFile>(a)) ++adds;
                            return Status::OK();
                          });
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(protocols, 1);
  EXPECT_EQ(metadatas, 1);
  EXPECT_GE(txns, 1);
  EXPECT_GE(adds, 1);
}

TEST(ParquetCheckpointReader, NotAParquetFileIsAnErrorNamingTheFile) {
  testing::TempDir dir;
  std::ofstream(dir.Join("x.checkpoint.parquet")) << "not parquet at all";
  ParquetCheckpointReader reader;
  auto local = io::LocalFileSystem();
  Status st = reader.Read(*local, dir.Join("x.checkpoint.parquet"),
                          [](Action&&) { return Status::OK(); });
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.ToString().find("x.checkpoint.parquet"), std::string::npos) << st.ToString();
}

TEST(ParquetCheckpointReader, SinkErrorStopsTheRead) {
  SHOAL_REQUIRE_TESTDATA();
  std::string root = Golden("golden/checkpoint/delta");
  if (!fs::exists(root)) GTEST_SKIP();
  ParquetCheckpointReader reader;
  auto local = io::LocalFileSystem();
  int calls = 0;
  Status st = reader.Read(*local, root + "/_delta_log/00000000000000000010.checkpoint.parquet",
                          [&](Action&&) {
                            ++calls;
                            return Status::Internal("stop");
                          });
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(st.ok());
}

// A checkpoint whose strings are not UTF-8 (a corrupt or hostile file; the fuzzer's finding):
// the generic action path turns rows into JSON, and both the error message and the
// stats_parsed text serialize it. That must give a named error or a replaced character, never
// an exception out of the JSON library.
TEST(ParquetCheckpointReader, InvalidUtf8StringsGiveAnErrorNotAnException) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  const std::string path = "/t/_delta_log/00000000000000000001.checkpoint.parquet";
  auto meta_type = columnar::Struct({{"id", columnar::String(), true}, {"name", columnar::String(), true}});
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields = {{"metaData", meta_type, true}};
  auto col = columnar::Vector::Make(meta_type);
  col->children()[0]->AppendString(std::string("bad\x8b\xff", 5));
  col->children()[1]->AppendString(std::string("\xc3", 1));
  col->AppendStructRow();
  columnar::RecordBatch batch(schema, {col}, 1);
  auto w = parquet::ParquetWriter::Open(fs, path, *schema);
  ASSERT_TRUE(w.ok()) << w.status().ToString();
  ASSERT_TRUE((*w)->WriteBatch(batch).ok());
  ASSERT_TRUE((*w)->Close().ok());
  for (bool generic : {false, true}) {
    ParquetCheckpointReader reader(generic, /*threads=*/1);
    Status st;
    EXPECT_NO_THROW(st = reader.Read(*fs, path, [](Action&&) { return Status::OK(); }));
    // metaData without schemaString/format is not a valid action: a named error, with the
    // offending row shown (invalid bytes replaced).
    EXPECT_FALSE(st.ok());
    EXPECT_NE(st.ToString().find("metaData"), std::string::npos) << st.ToString();
  }
}

TEST(JsonText, ReplacesInvalidUtf8InsteadOfThrowing) {
  Json j = Json::object();
  j["k"] = std::string("a\xff", 2);
  std::string text;
  EXPECT_NO_THROW(text = JsonText(j));
  EXPECT_EQ(text, "{\"k\":\"a\xef\xbf\xbd\"}");
  EXPECT_EQ(JsonText(Json::array({1, 2}), 2), "[\n  1,\n  2\n]");
}

}  // namespace
}  // namespace shoal::delta
