// Loads every golden Delta table (delta-golden/golden/*/delta and delta-golden/kernel/*) and
// cross-checks the active files against an independent brute-force replay.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "delta/deletion_vector.h"
#include "delta/snapshot.h"
#include "support/testdata.h"

namespace shoal::delta {
namespace {

namespace fs = std::filesystem;

struct GoldenTable {
  std::string name;  // e.g. "golden/checkpoint" or "kernel/partition_cm/id"
  std::string root;
};

std::vector<GoldenTable> FindTables() {
  std::vector<GoldenTable> out;
  std::string base = testing::TestDataDir() + "/delta-golden";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(base + "/golden", ec)) {
    if (!e.is_directory()) continue;
    std::string n = "golden/" + e.path().filename().string();
    fs::path delta = e.path() / "delta";
    bool nested = false;
    if (!fs::exists(delta / "_delta_log")) {  // e.g. golden/hive/delta/<table>
      for (const auto& sub : fs::directory_iterator(delta, ec)) {
        if (fs::exists(sub.path() / "_delta_log")) {
          out.push_back({n + "/" + sub.path().filename().string(), sub.path().string()});
          nested = true;
        }
      }
    }
    if (!nested) out.push_back({n, delta.string()});
  }
  for (const auto& e : fs::directory_iterator(base + "/kernel", ec)) {
    if (!e.is_directory()) continue;
    std::string n = "kernel/" + e.path().filename().string();
    if (fs::exists(e.path() / "_delta_log")) {
      out.push_back({n, e.path().string()});
    } else if (fs::exists(e.path() / "delta" / "_delta_log")) {
      out.push_back({n, (e.path() / "delta").string()});
    } else {
      for (const auto& sub : fs::directory_iterator(e.path(), ec)) {
        if (fs::exists(sub.path() / "_delta_log")) {
          out.push_back({n + "/" + sub.path().filename().string(), sub.path().string()});
        }
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

// The obviously-correct oracle: replays commit files 0..version in order with a std::set keyed
// by (path, dv unique id). Returns nullopt when commit 0 is gone (needs a checkpoint).
std::optional<std::set<std::pair<std::string, std::string>>> BruteForceFiles(const std::string& root,
                                                                             int64_t version) {
  std::set<std::pair<std::string, std::string>> live;
  for (int64_t v = 0; v <= version; ++v) {
    char name[64];
    std::snprintf(name, sizeof(name), "/_delta_log/%020lld.json", static_cast<long long>(v));
    std::ifstream in(root + name);
    if (!in) return std::nullopt;
    std::string line;
    while (std::getline(in, line)) {
      if (line.find_first_not_of(" \r\t") == std::string::npos) continue;
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded()) return std::nullopt;
      for (const char* kind : {"add", "remove"}) {
        if (!j.contains(kind) || !j[kind].is_object()) continue;
        const auto& a = j[kind];
        std::string dv;
        if (a.contains("deletionVector") && a["deletionVector"].is_object()) {
          const auto& d = a["deletionVector"];
          dv = d["storageType"].get<std::string>() + d["pathOrInlineDv"].get<std::string>();
          if (d.contains("offset") && !d["offset"].is_null()) dv += "@" + std::to_string(d["offset"].get<int64_t>());
        }
        auto key = std::make_pair(a["path"].get<std::string>(), dv);
        if (std::string(kind) == "add") {
          live.insert(key);
        } else {
          live.erase(key);
        }
      }
    }
  }
  return live;
}

void CrossCheck(const GoldenTable& t, const Snapshot& s) {
  auto oracle = BruteForceFiles(t.root, s.version());
  if (!oracle) return;  // commits cleaned up: only the checkpoint knows
  std::set<std::pair<std::string, std::string>> got;
  for (const auto& f : s.files()) got.insert({f.path, f.DvUniqueId()});
  EXPECT_EQ(got.size(), s.files().size()) << t.name << ": duplicate active files";
  EXPECT_EQ(got, *oracle) << t.name << " at version " << s.version();
}

Result<std::shared_ptr<const Snapshot>> Load(const std::string& root, std::optional<int64_t> v = std::nullopt) {
  SnapshotOptions o;
  o.version = v;
  return Snapshot::Load(io::LocalFileSystem(), root, o);
}

bool UsesParquetCheckpoint(const std::string& root, std::optional<int64_t> v = std::nullopt) {
  auto seg = BuildLogSegment(*io::LocalFileSystem(), root, v);
  if (!seg.ok()) return false;
  for (const auto& f : seg->checkpoint_files) {
    if (!f.IsJson()) return true;
    // A JSON V2 checkpoint may point at Parquet sidecars.
    auto actions = ParseCommitFile(*io::LocalFileSystem()->ReadAll(f.path), f.path);
    if (!actions.ok()) return false;
    for (const auto& a : *actions) {
      auto* sc = std::get_if<Sidecar>(&a);
      if (sc && sc->path.size() > 8 && sc->path.substr(sc->path.size() - 8) == ".parquet") return true;
    }
  }
  return false;
}

TEST(GoldenLog, LoadsEveryTableOrFailsAsExpected) {
  SHOAL_REQUIRE_TESTDATA();
  auto tables = FindTables();
  ASSERT_GT(tables.size(), 100u);
  const std::map<std::string, StatusCode> expected_errors = {
      {"golden/deltalog-invalid-protocol-version", StatusCode::kNotSupported},
      {"golden/versions-not-contiguous", StatusCode::kCorruption},
      {"golden/no-delta-log-folder", StatusCode::kInvalidArgument},
      {"golden/deltalog-state-reconstruction-without-metadata", StatusCode::kCorruption},
      {"golden/deltalog-state-reconstruction-without-protocol", StatusCode::kCorruption},
      // Hand-written log with only protocol + adds (and an add escaping the table root).
      {"golden/data-reader-absolute-paths-escaped-chars", StatusCode::kCorruption},
      // Hand-written metaData without the required schemaString.
      {"golden/deltalog-commit-info", StatusCode::kCorruption},
      // Only a (malformed) .crc file, no commit: an empty log.
      {"kernel/crc-malformed", StatusCode::kInvalidArgument},
  };
  int loaded = 0, parquet_blocked = 0, older_loaded = 0;
  std::vector<std::string> parquet_tables;
  for (const auto& t : tables) {
    SCOPED_TRACE(t.name);
    auto s = Load(t.root);
    auto exp = expected_errors.find(t.name);
    if (exp != expected_errors.end()) {
      ASSERT_FALSE(s.ok());
      EXPECT_EQ(s.status().code(), exp->second) << s.status().ToString();
      if (t.name == "golden/no-delta-log-folder") {
        EXPECT_NE(s.status().message().find("has no _delta_log"), std::string::npos);
      }
      if (t.name.find("without-metadata") != std::string::npos) {
        EXPECT_NE(s.status().message().find("no metadata"), std::string::npos);
      }
      if (t.name.find("without-protocol") != std::string::npos) {
        EXPECT_NE(s.status().message().find("no protocol"), std::string::npos);
      }
      continue;
    }
    if (UsesParquetCheckpoint(t.root)) {
      ASSERT_FALSE(s.ok()) << "loaded although a Parquet checkpoint is needed";
      EXPECT_TRUE(s.status().IsNotSupported()) << s.status().ToString();
      EXPECT_NE(s.status().message().find("no Parquet checkpoint reader"), std::string::npos);
      ++parquet_blocked;
      parquet_tables.push_back(t.name);
      // An older version may not need the checkpoint.
      auto seg = BuildLogSegment(*io::LocalFileSystem(), t.root);
      if (seg.ok() && seg->checkpoint_version && *seg->checkpoint_version > 0) {
        int64_t v = *seg->checkpoint_version - 1;
        if (!UsesParquetCheckpoint(t.root, v)) {
          auto older = Load(t.root, v);
          if (older.ok()) {
            ++older_loaded;
            CrossCheck(t, **older);
          } else if (t.name.find("missing-metadata") == std::string::npos &&
                     t.name.find("missing-protocol") == std::string::npos) {
            // Only a cleaned-up log may make the older version unreachable.
            EXPECT_EQ(older.status().code(), StatusCode::kInvalidArgument) << older.status().ToString();
          }
        }
      }
      continue;
    }
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    ++loaded;
    CrossCheck(t, **s);
    EXPECT_TRUE((*s)->Schema().ok()) << (*s)->Schema().status().ToString();
  }
  std::cout << "golden tables: " << tables.size() << ", loaded " << loaded
            << ", blocked on Parquet checkpoints " << parquet_blocked << " (older version loaded for "
            << older_loaded << ")\n";
  for (const auto& n : parquet_tables) std::cout << "  parquet checkpoint: " << n << "\n";
}

TEST(GoldenLog, TimeTravelTablesLoadEveryVersion) {
  SHOAL_REQUIRE_TESTDATA();
  int checked = 0;
  for (const auto& t : FindTables()) {
    if (t.name.find("time-travel-") == std::string::npos) continue;
    SCOPED_TRACE(t.name);
    auto seg = BuildLogSegment(*io::LocalFileSystem(), t.root);
    ASSERT_TRUE(seg.ok()) << seg.status().ToString();
    for (int64_t v = 0; v <= seg->version; ++v) {
      auto s = Load(t.root, v);
      if (UsesParquetCheckpoint(t.root, v)) {
        EXPECT_TRUE(s.status().IsNotSupported());
        continue;
      }
      ASSERT_TRUE(s.ok()) << "version " << v << ": " << s.status().ToString();
      EXPECT_EQ((*s)->version(), v);
      CrossCheck(t, **s);
      ++checked;
    }
    // Timestamp lookups agree with the commit timestamps.
    auto ts = ListCommitTimestamps(*io::LocalFileSystem(), t.root);
    ASSERT_TRUE(ts.ok());
    for (const auto& c : *ts) {
      auto v = FindVersionAtTimestamp(*io::LocalFileSystem(), t.root, c.timestamp_ms);
      ASSERT_TRUE(v.ok());
      EXPECT_EQ(*v, c.version);
    }
  }
  EXPECT_GT(checked, 10);
}

TEST(GoldenLog, DeletionVectorsOfActiveFilesLoadWithMatchingCardinality) {
  SHOAL_REQUIRE_TESTDATA();
  int dvs = 0;
  bool saw_small = false;
  for (const auto& t : FindTables()) {
    auto s = Load(t.root);
    if (!s.ok()) continue;
    for (const auto& f : (*s)->files()) {
      if (!f.deletion_vector) continue;
      SCOPED_TRACE(t.name + ": " + f.path);
      auto dv = DeletionVector::Load(*io::LocalFileSystem(), t.root, *f.deletion_vector);
      ASSERT_TRUE(dv.ok()) << dv.status().ToString();
      EXPECT_EQ(static_cast<int64_t>(dv->Cardinality()), f.deletion_vector->cardinality);
      if (t.name == "kernel/table-with-dv-small") {
        saw_small = true;
        EXPECT_EQ(dv->ToVector(), (std::vector<uint64_t>{0, 9}));  // DELETE ... value IN (0, 9)
      }
      ++dvs;
    }
  }
  EXPECT_TRUE(saw_small);
  EXPECT_GT(dvs, 3);
}

}  // namespace
}  // namespace shoal::delta
