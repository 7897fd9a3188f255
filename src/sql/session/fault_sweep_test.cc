// Fault-injection sweeps over whole SQL statements (issue #9, doc/reliability.md "Fault sweeps"):
// INSERT, UPDATE/DELETE with deletion vectors, the commit that triggers a checkpoint, an
// explicit checkpoint, OPTIMIZE, ZORDER, VACUUM, COMMIT PREPARED and ROLLBACK PREPARED each run
// once per fault point (EIO on any operation, ENOSPC on any write, a torn append, a crash after
// any operation) on a fresh copy of the same starting table in memory. After each run, and again
// after a simulated power loss: the table opens at the old or the new version (the new one when
// the statement was acknowledged), its rows are exactly the fault-free run's rows for that
// version, every referenced data and deletion-vector file exists, a pending prepared transaction
// still commits, and a new INSERT commits and is visible.
//
// CI samples fault points (SHOAL_FAULT_POINTS per kind, default 24); SHOAL_FAULT_SWEEP=full runs
// every point (scripts/reliability.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "delta/deletion_vector.h"
#include "delta/parquet_checkpoint_reader.h"
#include "delta/snapshot.h"
#include "delta/table_path.h"
#include "io/fault_injection_file_system.h"
#include "io/memory_file_system.h"
#include "shoal/database.h"
#include "sql/session/database_impl.h"
#include "support/testdata.h"
#include "table/checkpoint_writer.h"
#include "txn/prepared.h"

namespace shoal {
namespace {

using io::FaultKind;

// A shared_ptr view of a file system owned elsewhere (the sweep owns its wrappers).
std::shared_ptr<io::FileSystem> Borrow(io::FileSystem& fs) {
  return std::shared_ptr<io::FileSystem>(&fs, [](io::FileSystem*) {});
}

// Copies every file under `dir` from `from` into `to`.
Status CopyTree(io::FileSystem& from, io::FileSystem& to, const std::string& dir) {
  RETURN_NOT_OK(to.CreateDirs(dir));
  ASSIGN_OR_RETURN(auto entries, from.List(dir));
  for (const auto& e : entries) {
    std::string path = io::JoinPath(dir, e.name);
    if (e.is_dir) {
      RETURN_NOT_OK(CopyTree(from, to, path));
    } else {
      ASSIGN_OR_RETURN(std::string data, from.ReadAll(path));
      RETURN_NOT_OK(to.WriteAtomic(path, data));
    }
  }
  return Status::OK();
}

std::vector<std::string> SortedRows(const QueryResult& r) {
  std::vector<std::string> out;
  for (int64_t i = 0; i < r.num_rows(); ++i) {
    std::string line;
    for (int c = 0; c < r.num_columns(); ++c) {
      if (c) line += '|';
      line += r.GetText(i, c);
    }
    out.push_back(line);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string Join(const std::vector<std::string>& rows) {
  std::string s;
  for (const auto& r : rows) s += r + "\n";
  return s;
}

// One workload: the statements that build the starting table, and the operation under test.
struct SweepCase {
  SweepCase(std::string n, std::vector<std::string> s, std::vector<std::string> w)
      : name(std::move(n)), setup(std::move(s)), workload(std::move(w)) {}

  std::string name;
  std::vector<std::string> setup;      // run on one connection, fault-free
  std::vector<std::string> workload;   // run on one connection; the operation under test
  // Instead of `workload`: a function of the file system and table root (explicit checkpoint).
  std::function<Status(std::shared_ptr<io::FileSystem>, const std::string&)> custom;
  std::string prepared_id;             // a prepared transaction the setup leaves pending
};

// Runs sweeps for SweepCases over an in-memory warehouse; the Database's file system is swapped
// for the sweep's wrapper around each run.
class SqlFaultSweep : public ::testing::Test {
 protected:
  void SetUp() override {
    DatabaseOptions o;
    o.threads = 1;  // one thread: the operation order, and so each fault point, is repeatable
    auto db = Database::Open(dir_.path(), o);
    ASSERT_TRUE(db.ok()) << db.status().ToString();
    db_ = std::move(db).value();
    root_ = io::JoinPath(dir_.path(), "t");
  }

  void UseFs(std::shared_ptr<io::FileSystem> fs) { db_->impl().fs = std::move(fs); }

  Status RunAll(const std::vector<std::string>& sql) {
    auto con = db_->Connect();
    for (const auto& s : sql) {
      auto r = con->Query(s);
      if (!r.ok()) return r.status().WithContext(s);
    }
    return Status::OK();
  }

  Result<std::vector<std::string>> Rows(const std::string& sql) {
    auto con = db_->Connect();
    ASSIGN_OR_RETURN(auto r, con->Query(sql));
    return SortedRows(r);
  }

  Result<std::shared_ptr<const delta::Snapshot>> Load(std::shared_ptr<io::FileSystem> fs) {
    delta::SnapshotOptions so;
    so.readers = delta::DefaultCheckpointReaders();
    so.threads = 1;
    return delta::Snapshot::Load(std::move(fs), root_, so);
  }

  Status RunWorkload(const SweepCase& c, io::FileSystem& fs) {
    UseFs(Borrow(fs));
    if (c.custom) return c.custom(Borrow(fs), root_);
    return RunAll(c.workload);
  }

  Result<bool> PreparedPending(io::FileSystem& fs, const std::string& id) {
    ASSIGN_OR_RETURN(auto path, txn::PreparedPath(root_, id));
    return fs.Exists(path);
  }

  // Every data file and deletion-vector file the snapshot references exists.
  Status CheckFilesExist(io::FileSystem& fs, const delta::Snapshot& snap) {
    for (const auto& add : snap.files()) {
      ASSIGN_OR_RETURN(auto path, delta::ResolveTablePath(root_, add.path));
      ASSIGN_OR_RETURN(bool ok, fs.Exists(path));
      if (!ok) {
        return Status::Corruption("version " + std::to_string(snap.version()) +
                                  " references missing data file " + path);
      }
      if (add.deletion_vector && add.deletion_vector->storage_type != 'i') {
        ASSIGN_OR_RETURN(auto dv, delta::DeletionVectorFilePath(root_, *add.deletion_vector));
        ASSIGN_OR_RETURN(bool dv_ok, fs.Exists(dv));
        if (!dv_ok) {
          return Status::Corruption("version " + std::to_string(snap.version()) +
                                    " references missing deletion vector " + dv);
        }
      }
    }
    return Status::OK();
  }

  // The sweep of case `c`: builds the starting table, computes the oracle, sweeps.
  void Sweep(const SweepCase& c) {
    auto t0 = std::chrono::steady_clock::now();
    // Starting table.
    auto seed = std::make_shared<io::MemoryFileSystem>();
    ASSERT_TRUE(seed->CreateDirs(dir_.path()).ok());
    UseFs(seed);
    Status setup = RunAll(c.setup);
    ASSERT_TRUE(setup.ok()) << setup.ToString();
    auto snap0 = Load(seed);
    ASSERT_TRUE(snap0.ok()) << snap0.status().ToString();
    const int64_t v0 = (*snap0)->version();
    auto rows0 = Rows("SELECT * FROM t");
    ASSERT_TRUE(rows0.ok()) << rows0.status().ToString();

    auto copy = [&]() -> Result<std::shared_ptr<io::FileSystem>> {
      auto fs = std::make_shared<io::MemoryFileSystem>();
      RETURN_NOT_OK(CopyTree(*seed, *fs, dir_.path()));
      return std::shared_ptr<io::FileSystem>(fs);
    };

    // Oracle: the workload fault-free.
    auto clean = copy();
    ASSERT_TRUE(clean.ok());
    Status clean_st = RunWorkload(c, **clean);
    ASSERT_TRUE(clean_st.ok()) << clean_st.ToString();
    UseFs(*clean);
    auto snap1 = Load(*clean);
    ASSERT_TRUE(snap1.ok()) << snap1.status().ToString();
    const int64_t v1 = (*snap1)->version();
    ASSERT_LE(v1, v0 + 1) << "a workload commits at most once";
    std::map<int64_t, std::vector<std::string>> oracle;
    oracle[v0] = *rows0;
    auto rows1 = Rows("SELECT * FROM t");
    ASSERT_TRUE(rows1.ok()) << rows1.status().ToString();
    oracle[v1] = *rows1;
    // The prepared transaction is committed from the fault-free result when the workload
    // leaves it pending (PREPARE), else from the starting table.
    std::vector<std::string> committed_rows;
    bool clean_pending = false;
    if (!c.prepared_id.empty()) {
      auto pending = PreparedPending(**clean, c.prepared_id);
      ASSERT_TRUE(pending.ok());
      clean_pending = *pending;
      auto fs = std::make_shared<io::MemoryFileSystem>();
      ASSERT_TRUE(CopyTree(clean_pending ? **clean : *seed, *fs, dir_.path()).ok());
      UseFs(fs);
      Status st = RunAll({"COMMIT PREPARED '" + c.prepared_id + "'"});
      ASSERT_TRUE(st.ok()) << st.ToString();
      auto r = Rows("SELECT * FROM t");
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      committed_rows = *r;
    }

    auto verify = [&](io::FileSystem& live, const io::SweepRun& run) -> Status {
      // Checks run on a copy: they commit (a pending prepared transaction, a new INSERT), and
      // the sweep verifies the same state again after a simulated crash.
      auto shared = std::make_shared<io::MemoryFileSystem>();
      RETURN_NOT_OK(CopyTree(live, *shared, dir_.path()));
      io::FileSystem& fs = *shared;
      UseFs(shared);
      ASSIGN_OR_RETURN(auto snap, Load(shared));
      const int64_t v = snap->version();
      if (v != v0 && v != v1) {
        return Status::Corruption("table at version " + std::to_string(v) + ", expected " +
                                  std::to_string(v0) + " or " + std::to_string(v1));
      }
      if (run.workload_status.ok() && v != v1) {
        return Status::Corruption("acknowledged version " + std::to_string(v1) +
                                  " lost: table at " + std::to_string(v));
      }
      RETURN_NOT_OK(CheckFilesExist(fs, *snap));
      ASSIGN_OR_RETURN(auto rows, Rows("SELECT * FROM t"));
      if (rows != oracle[v]) {
        return Status::Corruption("rows at version " + std::to_string(v) + ":\n" + Join(rows) +
                                  "expected:\n" + Join(oracle[v]));
      }
      std::vector<std::string> expected = oracle[v];
      if (!c.prepared_id.empty()) {
        ASSIGN_OR_RETURN(bool pending, PreparedPending(fs, c.prepared_id));
        if (run.workload_status.ok() && clean_pending && !pending) {
          return Status::Corruption("acknowledged prepared transaction lost");
        }
        if (pending && v == v1 && v1 != v0) {
          // COMMIT PREPARED landed but its prepared file survived: rolling it back now must
          // not delete the files its commit references.
          (void)RunAll({"ROLLBACK PREPARED '" + c.prepared_id + "'"});
          ASSIGN_OR_RETURN(auto after, Load(shared));
          RETURN_NOT_OK(CheckFilesExist(fs, *after).WithContext("after ROLLBACK PREPARED of a landed commit"));
          ASSIGN_OR_RETURN(bool still, PreparedPending(fs, c.prepared_id));
          if (still) return Status::Corruption("ROLLBACK PREPARED of a landed commit left the prepared file");
        } else if (pending) {
          // Still prepared: it must commit, exactly once, with every staged file.
          RETURN_NOT_OK(RunAll({"COMMIT PREPARED '" + c.prepared_id + "'"})
                            .WithContext("committing the still pending prepared transaction"));
          expected = committed_rows;
          ASSIGN_OR_RETURN(auto after, Load(shared));
          RETURN_NOT_OK(CheckFilesExist(fs, *after));
          ASSIGN_OR_RETURN(auto got, Rows("SELECT * FROM t"));
          if (got != expected) {
            return Status::Corruption("rows after committing the pending prepared transaction:\n" +
                                      Join(got) + "expected:\n" + Join(expected));
          }
        } else if (v == v0 && c.workload.size() == 1 &&
                   c.workload[0].rfind("COMMIT PREPARED", 0) == 0) {
          return Status::Corruption("prepared transaction vanished without committing");
        }
      }
      RETURN_NOT_OK(RunAll({"INSERT INTO t VALUES (999, 'new', 'x')"})
                        .WithContext("a new commit after the fault"));
      expected.push_back("999|new|x");
      std::sort(expected.begin(), expected.end());
      ASSIGN_OR_RETURN(auto after, Rows("SELECT * FROM t"));
      if (after != expected) {
        return Status::Corruption("rows after a new INSERT:\n" + Join(after) + "expected:\n" +
                                  Join(expected));
      }
      return Status::OK();
    };

    io::SweepOptions options;
    options.faults = {FaultKind::kEIO, FaultKind::kENOSPC, FaultKind::kTornWrite};
    const char* mode = std::getenv("SHOAL_FAULT_SWEEP");
    const bool full = mode && std::string(mode) == "full";
    const char* points = std::getenv("SHOAL_FAULT_POINTS");
    options.max_points = full ? 0 : (points ? std::atoll(points) : 24);
    options.max_failures = 20;
    auto workload = [&](io::FileSystem& fs) { return RunWorkload(c, fs); };
    auto report = io::RunFaultSweep(copy, workload, verify, options);
    UseFs(seed);
    ASSERT_TRUE(report.ok()) << c.name << ": " << report.status().ToString();
    for (const auto& f : report->failures) ADD_FAILURE() << c.name << ": " << f;
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("[ faults   ] %s: %lld operations, %lld fault points injected, %lld verified, %.2f s\n",
                c.name.c_str(), static_cast<long long>(report->ops),
                static_cast<long long>(report->points), static_cast<long long>(report->verified),
                secs);
  }

  testing::TempDir dir_;
  std::unique_ptr<Database> db_;
  std::string root_;
};

const char* kCreate =
    "CREATE TABLE t (id BIGINT, v STRING, p STRING) PARTITIONED BY (p) TBLPROPERTIES "
    "('delta.enableDeletionVectors' = 'true')";

std::vector<std::string> BaseSetup(const std::string& create = kCreate) {
  return {create, "INSERT INTO t VALUES (1, 'a', 'x'), (2, 'b', 'y'), (3, 'c', 'x')",
          "INSERT INTO t VALUES (4, 'd', 'x'), (5, 'e', 'y')",
          "INSERT INTO t VALUES (6, 'f', 'x'), (7, 'g', 'y')"};
}

TEST_F(SqlFaultSweep, InsertCommitIsAllOrNothing) {
  SweepCase c{"INSERT", BaseSetup(), {"INSERT INTO t VALUES (10, 'n', 'x'), (11, 'm', 'z')"}};
  Sweep(c);
}

TEST_F(SqlFaultSweep, UpdateWithDeletionVectorsIsAllOrNothing) {
  Sweep({"UPDATE", BaseSetup(), {"UPDATE t SET v = 'u' WHERE id IN (1, 5)"}});
}

TEST_F(SqlFaultSweep, DeleteWithDeletionVectorsIsAllOrNothing) {
  Sweep({"DELETE", BaseSetup(), {"DELETE FROM t WHERE id = 3"}});
}

TEST_F(SqlFaultSweep, CommitTriggeringACheckpointIsAllOrNothing) {
  // Versions 0..3 exist; the INSERT commits version 4, a multiple of the interval.
  Sweep({"checkpointing INSERT",
         BaseSetup("CREATE TABLE t (id BIGINT, v STRING, p STRING) PARTITIONED BY (p) "
                   "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', "
                   "'delta.checkpointInterval' = '4')"),
         {"INSERT INTO t VALUES (10, 'n', 'x')"}});
}

TEST_F(SqlFaultSweep, ExplicitCheckpointNeverBreaksTheTable) {
  SweepCase c{"checkpoint", BaseSetup(), {}};
  c.setup.push_back("DELETE FROM t WHERE id = 2");
  c.custom = [](std::shared_ptr<io::FileSystem> fs, const std::string& root) -> Status {
    delta::SnapshotOptions so;
    so.readers = delta::DefaultCheckpointReaders();
    so.threads = 1;
    ASSIGN_OR_RETURN(auto snap, delta::Snapshot::Load(fs, root, so));
    return table::WriteCheckpoint(fs, *snap).status();
  };
  Sweep(c);
}

TEST_F(SqlFaultSweep, OptimizeIsAllOrNothing) {
  SweepCase c{"OPTIMIZE", BaseSetup(), {"OPTIMIZE t"}};
  c.setup.push_back("DELETE FROM t WHERE id = 4");
  Sweep(c);
}

TEST_F(SqlFaultSweep, ZorderIsAllOrNothing) {
  Sweep({"ZORDER", BaseSetup(), {"OPTIMIZE t ZORDER BY (id)"}});
}

TEST_F(SqlFaultSweep, VacuumNeverDeletesAReferencedFile) {
  SweepCase c{"VACUUM", BaseSetup(),
              {"SET shoal.vacuum.retentionCheck = false", "VACUUM t RETAIN 0 HOURS"}};
  c.setup.push_back("DELETE FROM t WHERE id = 4");
  c.setup.push_back("OPTIMIZE t");
  c.setup.push_back("UPDATE t SET v = 'w' WHERE id = 6");
  Sweep(c);
}

std::vector<std::string> PreparedSetup() {
  auto s = BaseSetup();
  s.push_back("BEGIN");
  s.push_back("INSERT INTO t VALUES (20, 'p', 'x'), (21, 'q', 'w')");
  s.push_back("DELETE FROM t WHERE id = 2");
  s.push_back("PREPARE TRANSACTION 'p1'");
  return s;
}

TEST_F(SqlFaultSweep, PreparedTransactionIsDurableAndCommittable) {
  SweepCase c{"PREPARE", BaseSetup(),
              {"BEGIN", "INSERT INTO t VALUES (20, 'p', 'x'), (21, 'q', 'w')",
               "DELETE FROM t WHERE id = 2", "PREPARE TRANSACTION 'p1'"}};
  c.prepared_id = "p1";
  Sweep(c);
}

TEST_F(SqlFaultSweep, CommitPreparedIsAllOrNothing) {
  SweepCase c{"COMMIT PREPARED", PreparedSetup(), {"COMMIT PREPARED 'p1'"}};
  c.prepared_id = "p1";
  Sweep(c);
}

TEST_F(SqlFaultSweep, RollbackPreparedLeavesItCommittableOrGone) {
  SweepCase c{"ROLLBACK PREPARED", PreparedSetup(), {"ROLLBACK PREPARED 'p1'"}};
  c.prepared_id = "p1";
  Sweep(c);
}

}  // namespace
}  // namespace shoal
