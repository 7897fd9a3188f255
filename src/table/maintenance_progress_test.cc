// The progress callbacks of VACUUM, checkpoint writing (classic multi-part and V2) and log
// compaction: `done` never falls on the calling thread, never passes `planned`, and the last
// call is planned of planned.
#include <gtest/gtest.h>

#include <mutex>
#include <utility>
#include <vector>

#include "table/checkpoint_writer.h"
#include "table/log_compaction.h"
#include "table/maintenance_test_table.h"
#include "table/vacuum.h"

namespace shoal::table {
namespace {

using testing_support::MaintenanceTable;
using testing_support::Props;

struct Calls {
  std::mutex mu;
  std::vector<std::pair<int64_t, int64_t>> calls;  // (done, planned)
  std::function<void(int64_t, int64_t)> Callback() {
    return [this](int64_t done, int64_t planned) {
      std::lock_guard<std::mutex> lock(mu);
      calls.emplace_back(done, planned);
    };
  }
  // Checks the contract; `ordered`: calls come from one thread, so done never falls.
  void ExpectMonotoneToPlanned(bool ordered, size_t at_least) {
    ASSERT_GE(calls.size(), at_least);
    const int64_t planned = calls.back().second;
    EXPECT_GT(planned, 0);
    EXPECT_EQ(calls.back().first, planned);
    for (size_t i = 0; i < calls.size(); ++i) {
      EXPECT_GE(calls[i].first, 0);
      EXPECT_LE(calls[i].first, calls[i].second) << "call " << i;
      EXPECT_EQ(calls[i].second, planned) << "call " << i;
      if (ordered && i > 0) {
        EXPECT_GE(calls[i].first, calls[i - 1].first) << "call " << i;
      }
    }
  }
};

TEST(MaintenanceProgress, VacuumCountsTheTopDirectorysEntries) {
  MaintenanceTable t(Props{}, {"name"});
  for (int i = 0; i < 6; ++i) t.Append({i, i + 10});
  Calls c;
  VacuumOptions o;
  o.dry_run = true;
  o.progress = c.Callback();
  ASSERT_TRUE(Vacuum(t.fs(), *t.Snap(), o).ok());
  c.ExpectMonotoneToPlanned(true, 3);  // _delta_log and partition directories, then the end
}

TEST(MaintenanceProgress, ClassicMultiPartAndV2CheckpointsCountActions) {
  for (const char* kind : {"classic", "v2"}) {
    Props props;
    if (std::string(kind) == "v2") props = Props{{"delta.checkpointPolicy", "v2"}};
    MaintenanceTable t(props);
    for (int i = 0; i < 8; ++i) t.Append({i});
    Calls c;
    CheckpointOptions o;
    o.part_size = 3;  // several parts or sidecars
    o.progress = c.Callback();
    auto info = WriteCheckpoint(t.fs(), *t.Snap(), o);
    ASSERT_TRUE(info.ok()) << kind << ": " << info.status().ToString();
    SCOPED_TRACE(kind);
    c.ExpectMonotoneToPlanned(true, 3);
  }
}

TEST(MaintenanceProgress, LogCompactionCountsCommitBytesThenTheWrite) {
  MaintenanceTable t;
  for (int i = 0; i < 80; ++i) t.Append({i});  // over 64 commits: read by several threads
  Calls c;
  auto info = WriteLogCompaction(t.fs(), t.root(), 1, 80, c.Callback());
  ASSERT_TRUE(info.ok()) << info.status().ToString();
  c.ExpectMonotoneToPlanned(false, 81);  // one call per commit read, one for the write
}

}  // namespace
}  // namespace shoal::table
