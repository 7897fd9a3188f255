// Tracks how far a statement has come and reports it to DatabaseOptions::progress: the
// executor registers one phase per pipeline with a weight (its estimated input rows), each
// phase's fraction is its source's work done over work planned (files' bytes for a table scan,
// batches for a sink's result), 90% at most until its sink is finalized (the blocking part of a
// join build, aggregation or sort), 100% after. The statement's fraction is the weighted mean,
// never reported lower than before. A reporter thread polls it every `interval` and calls the
// callback when it grew (99% at most); 1.0 is reported once, when the statement's last run
// ends (ReportIfComplete, or the destructor: the end of the statement's context). The workers
// only add to relaxed atomic counters of their sources. Opening phases (loading a table's log,
// before any plan exists) take a fixed kOpeningShare of the fraction, so a long log load moves
// it without a plan's phases to weigh it against.
//
// Thread-safety: every method may be called from any thread; the callback runs on the reporter
// thread or on the thread calling Finish, one call at a time.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sql/functions/table_function.h"

namespace shoal::sql {

class SourceState;

class StatementProgress {
 public:
  using Callback = std::function<void(double fraction, const std::string& what)>;

  explicit StatementProgress(Callback callback,
                             std::chrono::milliseconds interval = std::chrono::milliseconds(100));
  // Stops the reporter; reports 1.0 if every phase is complete and it was not reported yet.
  ~StatementProgress();
  StatementProgress(const StatementProgress&) = delete;
  StatementProgress& operator=(const StatementProgress&) = delete;

  // A new phase of relative `weight` (> 0) named `what`; returns its id.
  int AddPhase(double weight, std::string what);
  // A new opening phase (weighted among the opening phases only), measured by SetWork.
  int AddOpeningPhase(double weight, std::string what);
  // The share of the fraction the opening phases take together when other phases exist; alone
  // they reach it, and 1.0 at the statement's end.
  static constexpr double kOpeningShare = 0.2;
  // The source whose progress() measures phase `id` while it runs; nullptr when it is done
  // (then its source part counts as complete). The source must outlive its registration.
  void SetSource(int id, const SourceState* source);
  // Work done and planned of phase `id`, for work that is not a pipeline's source (OPTIMIZE's
  // bins); `done` may arrive out of order (the largest counts).
  void SetWork(int id, int64_t done, int64_t planned);
  // Phase `id` is complete (its sink finalized, or it is the statement's last pipeline).
  void CompletePhase(int id);
  // The statement's fraction now, in [0, 1], never lower than a previous call's.
  double Fraction();
  // Reports 1.0 when every phase is complete and it was not reported yet (the end of a run).
  void ReportIfComplete();

 private:
  struct Phase {
    double weight = 1;
    std::string what;
    const SourceState* source = nullptr;
    WorkProgress work;  // SetWork's, when there is no source
    bool source_done = false;
    bool complete = false;
    bool opening = false;
  };
  // Fraction and the name of the first incomplete phase; mu_ held.
  double FractionLocked(std::string* what);
  void ReportLoop();

  Callback callback_;
  const std::chrono::milliseconds interval_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Phase> phases_;  // guarded by mu_
  double max_fraction_ = 0;    // guarded by mu_
  double reported_ = -1;       // guarded by report_mu_
  bool stop_ = false;          // guarded by mu_
  std::mutex report_mu_;       // serializes callback calls
  std::thread reporter_;
};

// A (done, planned) callback for work measured outside the executor (a table-layer operation's
// progress option): SetWork on phase `id` of `progress`, CompletePhase once done reaches planned.
std::function<void(int64_t done, int64_t planned)> PhaseReporter(std::shared_ptr<StatementProgress> progress, int id);

}  // namespace shoal::sql
