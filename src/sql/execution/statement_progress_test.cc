// StatementProgress: the weighted, monotone fraction of a statement's phases and its reporter.
#include "sql/execution/statement_progress.h"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <thread>

#include "sql/execution/physical_operator.h"

namespace shoal::sql {
namespace {

using namespace std::chrono_literals;

// A source whose progress the test sets.
class FakeSource : public SourceState {
 public:
  Result<bool> Next(SourceLocalState*, Chunk*) override { return false; }
  WorkProgress progress() const override { return {done.load(), planned.load()}; }
  std::atomic<int64_t> done{0};
  std::atomic<int64_t> planned{0};
};

struct Calls {
  std::mutex mu;
  std::vector<double> fractions;
  std::vector<std::string> whats;
  StatementProgress::Callback Callback() {
    return [this](double f, const std::string& what) {
      std::lock_guard<std::mutex> lock(mu);
      fractions.push_back(f);
      whats.push_back(what);
    };
  }
};

TEST(StatementProgress, WeightsPhasesAndHoldsSourcePartsBelowCompletion) {
  Calls calls;
  StatementProgress p(calls.Callback(), 1h);  // no reports from the thread in this test
  int build = p.AddPhase(3, "HashJoin");
  int probe = p.AddPhase(1, "TableScan");
  FakeSource src;
  src.planned = 100;
  p.SetSource(build, &src);
  EXPECT_DOUBLE_EQ(p.Fraction(), 0);
  src.done = 50;
  // build: 0.9 * 0.5 of weight 3, probe nothing: 1.35 / 4.
  EXPECT_DOUBLE_EQ(p.Fraction(), 1.35 / 4);
  p.SetSource(build, nullptr);
  EXPECT_DOUBLE_EQ(p.Fraction(), 0.9 * 3 / 4);
  p.CompletePhase(build);
  EXPECT_DOUBLE_EQ(p.Fraction(), 3.0 / 4);
  p.CompletePhase(probe);
  EXPECT_DOUBLE_EQ(p.Fraction(), 1.0);
}

// Loading a table's log comes before any plan: it alone moves the fraction up to the opening
// share, and the plan's phases share the rest.
TEST(StatementProgress, OpeningPhasesTakeAFixedShareBeforeThePlan) {
  Calls calls;
  StatementProgress p(calls.Callback(), 1h);
  const double share = StatementProgress::kOpeningShare;
  int load = p.AddOpeningPhase(1000, "loading log");
  p.SetWork(load, 500, 1000);
  EXPECT_DOUBLE_EQ(p.Fraction(), share * 0.9 * 0.5);
  p.CompletePhase(load);
  EXPECT_DOUBLE_EQ(p.Fraction(), share);
  // A second table's load weighs by its own size among the opening phases.
  int other = p.AddOpeningPhase(3000, "loading log");
  EXPECT_DOUBLE_EQ(p.Fraction(), share);  // held: 0.25 * share now
  p.SetWork(other, 3000, 3000);
  p.CompletePhase(other);
  EXPECT_DOUBLE_EQ(p.Fraction(), share);
  int scan = p.AddPhase(1e6, "TableScan");
  EXPECT_DOUBLE_EQ(p.Fraction(), share);
  FakeSource src;
  src.planned = 100;
  src.done = 50;
  p.SetSource(scan, &src);
  EXPECT_DOUBLE_EQ(p.Fraction(), share + (1 - share) * 0.9 * 0.5);
  p.CompletePhase(scan);
  EXPECT_DOUBLE_EQ(p.Fraction(), 1.0);
}

// PhaseReporter: a table-layer callback that completes the phase when done reaches planned.
TEST(StatementProgress, PhaseReporterCompletesAtPlanned) {
  Calls calls;
  auto p = std::make_shared<StatementProgress>(calls.Callback(), 1h);
  auto report = PhaseReporter(p, p->AddPhase(1, "VACUUM"));
  report(1, 4);
  EXPECT_DOUBLE_EQ(p->Fraction(), 0.9 * 0.25);
  report(4, 4);
  EXPECT_DOUBLE_EQ(p->Fraction(), 1.0);
  p->ReportIfComplete();
  ASSERT_FALSE(calls.fractions.empty());
  EXPECT_DOUBLE_EQ(calls.fractions.back(), 1.0);
}

TEST(StatementProgress, NeverReportsLessThanBefore) {
  Calls calls;
  StatementProgress p(calls.Callback(), 1h);
  int a = p.AddPhase(1, "a");
  p.CompletePhase(a);
  EXPECT_DOUBLE_EQ(p.Fraction(), 1.0);
  // A later plan (a second executor run of the statement) adds work: the fraction stays.
  p.AddPhase(1, "b");
  EXPECT_DOUBLE_EQ(p.Fraction(), 1.0);
  FakeSource src;
  src.planned = 10;
  src.done = 20;  // a source overshooting its plan is clamped
  int c = p.AddPhase(1, "c");
  p.SetSource(c, &src);
  EXPECT_LE(p.Fraction(), 1.0);
}

TEST(StatementProgress, ReporterCallsWithGrowingFractionsAndTheRunningPhase) {
  Calls calls;
  FakeSource src;
  src.planned = 1000;
  {
    StatementProgress p(calls.Callback(), 1ms);
    int scan = p.AddPhase(1, "Sort");
    p.SetSource(scan, &src);
    for (int i = 1; i <= 1000; i += 37) {
      src.done = i;
      std::this_thread::sleep_for(2ms);
    }
    p.SetSource(scan, nullptr);
    p.CompletePhase(scan);
    p.ReportIfComplete();
    p.ReportIfComplete();  // once
  }
  std::lock_guard<std::mutex> lock(calls.mu);
  ASSERT_GE(calls.fractions.size(), 3u);
  for (size_t i = 1; i < calls.fractions.size(); ++i) EXPECT_GT(calls.fractions[i], calls.fractions[i - 1]) << i;
  EXPECT_DOUBLE_EQ(calls.fractions.back(), 1.0);
  EXPECT_EQ(std::count(calls.fractions.begin(), calls.fractions.end(), 1.0), 1);
  EXPECT_EQ(calls.whats.front(), "Sort");
}

TEST(StatementProgress, ReporterStaysBelowOneUntilTheEnd) {
  Calls calls;
  {
    StatementProgress p(calls.Callback(), 1ms);
    int a = p.AddPhase(1, "a");
    p.CompletePhase(a);
    std::this_thread::sleep_for(20ms);
    {
      std::lock_guard<std::mutex> lock(calls.mu);
      ASSERT_FALSE(calls.fractions.empty());
      EXPECT_LT(calls.fractions.back(), 1.0);  // complete so far, but the statement may plan more
    }
  }  // the end of the statement's context: 1.0
  EXPECT_DOUBLE_EQ(calls.fractions.back(), 1.0);
}

TEST(StatementProgress, NoFinalReportUntilEveryPhaseIsComplete) {
  Calls calls;
  {
    StatementProgress p(calls.Callback(), 1h);
    int a = p.AddPhase(1, "a");
    p.AddPhase(1, "b");
    p.CompletePhase(a);
    p.ReportIfComplete();
  }
  EXPECT_TRUE(calls.fractions.empty());
}

}  // namespace
}  // namespace shoal::sql
