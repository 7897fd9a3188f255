// Test support for checkpoint tests: a random Delta log of synthetic file actions (adds, removes,
// DV updates, txn and domainMetadata) on a V2-checkpoint or classic table, and a canonical text
// of a snapshot's state to compare two loads of the same version.
#pragma once

#include <map>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "delta/log_segment.h"
#include "delta/parquet_checkpoint_reader.h"
#include "delta/snapshot.h"
#include "io/file_system.h"
#include "table/checkpoint_writer.h"
#include "table/table_creator.h"

namespace shoal::table::testlog {

inline constexpr int64_t kNow = 1750000000000;

inline delta::SnapshotOptions Readers() {
  delta::SnapshotOptions o;
  o.readers = delta::DefaultCheckpointReaders();
  return o;
}

// Writes `commits` random commits after a create commit; a checkpoint (part_size actions per
// file) after every `checkpoint_every` commits. Same seed, same log, whatever the policy.
inline void BuildRandomLog(std::shared_ptr<io::FileSystem> fs, const std::string& root, bool v2, int commits,
                           int checkpoint_every, int64_t part_size, uint32_t seed) {
  delta::Protocol p;
  p.min_reader_version = 3;
  p.min_writer_version = 7;
  p.reader_features = std::vector<std::string>{"deletionVectors"};
  p.writer_features = std::vector<std::string>{"deletionVectors", "domainMetadata"};
  if (v2) {
    p.reader_features->push_back("v2Checkpoint");
    p.writer_features->push_back("v2Checkpoint");
  }
  delta::Metadata m;
  m.id = "00000000-0000-0000-0000-000000000001";
  m.schema_string = R"({"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}}]})";
  m.configuration["delta.checkpointPolicy"] = v2 ? "v2" : "classic";
  m.configuration["delta.enableDeletionVectors"] = "true";
  m.created_time = kNow;
  ASSERT_TRUE(fs->CreateDirs(root + "/_delta_log").ok());
  ASSERT_TRUE(fs->PutIfAbsent(CommitFilePath(root, 0), delta::SerializeCommit({p, m})).ok());
  std::mt19937 rng(seed);
  std::map<std::string, delta::AddFile> live;
  int next_file = 0;
  for (int v = 1; v <= commits; ++v) {
    std::vector<delta::Action> actions;
    std::set<std::string> touched;
    const int adds = 1 + static_cast<int>(rng() % 3);
    for (int i = 0; i < adds; ++i) {
      delta::AddFile a;
      a.path = "part-" + std::to_string(next_file++) + ".parquet";
      a.size = 100 + static_cast<int64_t>(rng() % 1000);
      a.modification_time = kNow + v;
      a.stats = R"({"numRecords":10})";
      touched.insert(a.path);
      actions.push_back(a);
    }
    for (auto it = live.begin(); it != live.end(); ++it) {
      if (touched.count(it->first)) continue;
      const uint32_t r = rng() % 10;
      if (r == 0 || r == 1) {
        delta::RemoveFile rm;
        rm.path = it->first;
        rm.deletion_timestamp = kNow - 1000 + v;
        rm.data_change = true;
        rm.size = it->second.size;
        rm.deletion_vector = it->second.deletion_vector;
        actions.push_back(rm);
        if (r == 1) {  // a new DV for the file
          delta::AddFile a = it->second;
          delta::DeletionVectorDescriptor dv;
          dv.storage_type = 'u';
          dv.path_or_inline_dv = "ab" + std::string(20, static_cast<char>('A' + rng() % 26));
          dv.offset = static_cast<int32_t>(1 + rng() % 100);
          dv.size_in_bytes = 34;
          dv.cardinality = 1 + static_cast<int64_t>(rng() % 5);
          a.deletion_vector = dv;
          actions.push_back(a);
        }
        touched.insert(it->first);
      }
    }
    if (v % 4 == 0) actions.push_back(delta::Txn{"app-" + std::to_string(v % 3), v, kNow});
    if (v % 5 == 0) actions.push_back(delta::DomainMetadata{"user.d" + std::to_string(v % 2), "{}", v % 10 == 0});
    for (const auto& a : actions) {
      if (auto* add = std::get_if<delta::AddFile>(&a)) live[add->path] = *add;
      if (auto* rm = std::get_if<delta::RemoveFile>(&a)) {
        bool readded = false;
        for (const auto& b : actions) {
          if (auto* add = std::get_if<delta::AddFile>(&b); add && add->path == rm->path) readded = true;
        }
        if (!readded) live.erase(rm->path);
      }
    }
    ASSERT_TRUE(fs->PutIfAbsent(CommitFilePath(root, v), delta::SerializeCommit(actions)).ok());
    if (checkpoint_every > 0 && v % checkpoint_every == 0) {
      auto snap = delta::Snapshot::Load(fs, root, Readers());
      ASSERT_TRUE(snap.ok()) << snap.status().ToString();
      CheckpointOptions o;
      o.now_ms = kNow;
      o.part_size = part_size;
      auto info = WriteCheckpoint(fs, **snap, o);
      ASSERT_TRUE(info.ok()) << info.status().ToString();
      ASSERT_EQ(info->v2, v2);
    }
  }
}

// The state of a snapshot as text: protocol, metadata, txns, domains, files and tombstones.
inline std::string StateText(const delta::Snapshot& s) {
  std::ostringstream out;
  out << delta::ActionToJson(s.protocol()).dump() << "\n" << delta::ActionToJson(s.metadata()).dump() << "\n";
  for (const auto& [id, t] : s.app_transactions()) out << "txn " << id << " " << t.version << "\n";
  for (const auto& [d, m] : s.domain_metadata()) out << "domain " << d << " " << m.configuration << "\n";
  std::set<std::string> files, tombs;
  for (const auto& a : s.files()) {
    files.insert(a.path + " " + a.DvUniqueId() + " " + std::to_string(a.size) + " " + a.stats.value_or("-"));
  }
  for (const auto& r : s.tombstones()) {
    tombs.insert(r.path + " " + r.DvUniqueId() + " " + std::to_string(r.deletion_timestamp.value_or(-1)));
  }
  for (const auto& f : files) out << "add " << f << "\n";
  for (const auto& t : tombs) out << "remove " << t << "\n";
  return out.str();
}

// The snapshot of `version` replayed from the JSON commits alone (no checkpoint, no compaction):
// the reference the other loads must equal.
inline std::string JsonLogState(std::shared_ptr<io::FileSystem> fs, const std::string& root, int64_t version) {
  delta::LogSegmentOptions o;
  o.version = version;
  o.max_checkpoint_version = -1;
  o.use_compactions = false;
  auto seg = delta::BuildLogSegment(*fs, root, o);
  if (!seg.ok()) return "error: " + seg.status().ToString();
  auto snap = delta::Snapshot::LoadSegment(fs, std::move(*seg), Readers());
  if (!snap.ok()) return "error: " + snap.status().ToString();
  return StateText(**snap);
}

}  // namespace shoal::table::testlog
