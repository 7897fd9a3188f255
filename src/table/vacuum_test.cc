#include "table/vacuum.h"

#include <chrono>

#include <gtest/gtest.h>

#include "table/maintenance_test_table.h"
#include "txn/prepared.h"

namespace shoal::table {
namespace {

using testing_support::MaintenanceTable;
using testing_support::Props;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void Touch(io::FileSystem& fs, const std::string& path) {
  ASSERT_TRUE(fs.CreateDirs(io::DirName(path)).ok());
  ASSERT_TRUE(fs.WriteAtomic(path, "x").ok());
}

bool Exists(io::FileSystem& fs, const std::string& path) {
  auto e = fs.Exists(path);
  return e.ok() && *e;
}

std::string Local(const MaintenanceTable& t, const std::string& rel) { return t.root() + "/" + rel; }

// A table with: a live file A with a DV file, a removed file B, an orphan data file, an orphan
// in a subdirectory, a hidden file, a _shoal file, a _delta_log .tmp leftover, and a prepared
// transaction's staged file.
struct VacuumScene {
  MaintenanceTable t{Props{{"delta.enableDeletionVectors", "true"}}};
  std::string a, a_dv, b, staged;

  VacuumScene() {
    t.Append({1, 2, 3});
    t.Append({4});
    t.DeletePositions(0, {1});
    auto snap = t.Snap();
    for (const auto& f : snap->files()) {
      if (f.deletion_vector) {
        a = Local(t, f.path);
        a_dv = *delta::DeletionVectorFilePath(t.root(), *f.deletion_vector);
      } else {
        b = Local(t, f.path);
      }
    }
    auto rm = t.Begin("DELETE");
    for (const auto& f : snap->files()) {
      if (!f.deletion_vector) {
        EXPECT_TRUE(rm->RemoveFile(f).ok());
      }
    }
    EXPECT_TRUE(rm->Commit().ok());
    Touch(*t.fs(), Local(t, "orphan.parquet"));
    Touch(*t.fs(), Local(t, "sub/orphan2.parquet"));
    Touch(*t.fs(), Local(t, ".hidden"));
    Touch(*t.fs(), Local(t, "_shoal/keep.json"));
    Touch(*t.fs(), Local(t, "_delta_log/.00000000000000000009.json.1.2.tmp"));
    // A deletion vector's write whose process died before the rename (found by the soak).
    Touch(*t.fs(), Local(t, ".deletion_vector_x.bin.1.2.tmp"));
    auto staged_adds = t.WriteData({9});
    staged = Local(t, staged_adds.at(0).path);
    auto p = t.Begin("WRITE");
    p->AddFile(staged_adds.at(0));
    EXPECT_TRUE(txn::PrepareTransaction(*p, "pending-1").ok());
  }

  std::vector<std::string> ExpectedDeletes() const {
    std::vector<std::string> v = {b, Local(t, "_delta_log/.00000000000000000009.json.1.2.tmp"),
                                  Local(t, ".deletion_vector_x.bin.1.2.tmp"),
                                  Local(t, "orphan.parquet"), Local(t, "sub/orphan2.parquet")};
    std::sort(v.begin(), v.end());
    return v;
  }
};

VacuumOptions ZeroRetention(bool dry_run) {
  VacuumOptions o;
  o.retention_ms = 0;
  o.retention_check = false;
  o.dry_run = dry_run;
  int64_t later = NowMs() + 10000;
  o.clock_ms = [later] { return later; };
  return o;
}

TEST(Vacuum, RefusesRetentionBelowConfiguredUnlessCheckIsOff) {
  MaintenanceTable t;
  VacuumOptions o;
  o.retention_ms = 0;
  auto r = Vacuum(t.fs(), *t.Snap(), o);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.status().message().starts_with(
      "Are you sure you would like to vacuum files with such a low retention period?"));
  EXPECT_NE(r.status().message().find("SET shoal.vacuum.retentionCheck = false"), std::string::npos);
  EXPECT_NE(r.status().message().find("\"168 hours\""), std::string::npos);
  o.retention_ms = -1;
  o.retention_check = false;
  EXPECT_FALSE(Vacuum(t.fs(), *t.Snap(), o).ok());
}

TEST(Vacuum, DryRunListsWithoutDeleting) {
  VacuumScene s;
  auto r = Vacuum(s.t.fs(), *s.t.Snap(), ZeroRetention(true));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->files, s.ExpectedDeletes());
  for (const auto& f : r->files) EXPECT_TRUE(Exists(*s.t.fs(), f)) << f;
}

TEST(Vacuum, DeletesUnreferencedKeepsLiveDvPreparedAndHidden) {
  VacuumScene s;
  auto before = s.t.Rows();
  ASSERT_EQ(before, (std::vector<std::string>{"1|n1", "3|n3"}));
  auto r = Vacuum(s.t.fs(), *s.t.Snap(), ZeroRetention(false));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->files, s.ExpectedDeletes());
  EXPECT_EQ(r->dirs_deleted, 1);  // sub/
  for (const auto& f : s.ExpectedDeletes()) EXPECT_FALSE(Exists(*s.t.fs(), f)) << f;
  EXPECT_FALSE(Exists(*s.t.fs(), Local(s.t, "sub")));
  for (const auto& f : {s.a, s.a_dv, s.staged, Local(s.t, ".hidden"), Local(s.t, "_shoal/keep.json"),
                        Local(s.t, "_delta_log/00000000000000000000.json")}) {
    EXPECT_TRUE(Exists(*s.t.fs(), f)) << f;
  }
  EXPECT_EQ(s.t.Rows(), before);
  EXPECT_EQ(s.t.Violations(), "");
  // The prepared transaction can still commit its staged file.
  auto c = txn::CommitPrepared(s.t.fs(), s.t.root(), "pending-1", nullptr);
  ASSERT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_EQ(s.t.Rows(), (std::vector<std::string>{"1|n1", "3|n3", "9|n9"}));
}

TEST(Vacuum, DefaultRetentionKeepsRecentOrphansAndTombstones) {
  VacuumScene s;
  auto r = Vacuum(s.t.fs(), *s.t.Snap(), VacuumOptions{});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_TRUE(r->files.empty());
  EXPECT_EQ(r->retention_ms, 7LL * 24 * 3600 * 1000);
  EXPECT_TRUE(Exists(*s.t.fs(), s.b));
}

TEST(Vacuum, TableRetentionPropertyApplies) {
  MaintenanceTable t(Props{{"delta.deletedFileRetentionDuration", "interval 1 hours"}});
  Touch(*t.fs(), Local(t, "orphan.parquet"));
  VacuumOptions o;
  int64_t later = NowMs() + 2 * 3600 * 1000;
  o.clock_ms = [later] { return later; };
  auto r = Vacuum(t.fs(), *t.Snap(), o);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->retention_ms, 3600 * 1000);
  EXPECT_EQ(r->files, (std::vector<std::string>{Local(t, "orphan.parquet")}));
}

TEST(Vacuum, TimeTravelToVacuumedVersionFails) {
  VacuumScene s;
  ASSERT_TRUE(Vacuum(s.t.fs(), *s.t.Snap(), ZeroRetention(false)).ok());
  // Version 2 still had file B.
  scan::TimeTravel at;
  at.version = 2;
  auto table = scan::DeltaTable::Open(s.t.fs(), s.t.root(), at);
  ASSERT_TRUE(table.ok());
  scan::DeltaScanOptions o;
  o.columns = {0, 1};
  auto plan = (*table)->Plan(o);
  Status st;
  if (!plan.ok()) {
    st = plan.status();
  } else {
    auto local = (*plan)->MakeLocal();
    columnar::BatchPtr b;
    uint64_t order = 0;
    while (true) {
      auto more = (*plan)->Next(local.get(), &b, &order);
      if (!more.ok()) {
        st = more.status();
        break;
      }
      if (!*more) break;
    }
  }
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find(io::BaseName(s.b)), std::string::npos) << st.ToString();
}

}  // namespace
}  // namespace shoal::table
