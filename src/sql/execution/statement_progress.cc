#include "sql/execution/statement_progress.h"

#include <algorithm>

#include "sql/execution/physical_operator.h"

namespace shoal::sql {

namespace {
// A phase's source part: the rest is its sink's finalization.
constexpr double kSourceShare = 0.9;
// The most the reporter thread reports: 1.0 means the statement ended (ReportIfComplete), and
// a statement may plan more work after its phases so far are complete (DML runs several plans).
constexpr double kMaxWhileRunning = 0.99;
}  // namespace

StatementProgress::StatementProgress(Callback callback, std::chrono::milliseconds interval)
    : callback_(std::move(callback)), interval_(interval) {
  reporter_ = std::thread([this] { ReportLoop(); });
}

StatementProgress::~StatementProgress() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  reporter_.join();
  ReportIfComplete();
}

int StatementProgress::AddPhase(double weight, std::string what) {
  std::lock_guard<std::mutex> lock(mu_);
  Phase p;
  p.weight = weight > 0 ? weight : 1;
  p.what = std::move(what);
  phases_.push_back(std::move(p));
  return static_cast<int>(phases_.size()) - 1;
}

int StatementProgress::AddOpeningPhase(double weight, std::string what) {
  const int id = AddPhase(weight, std::move(what));
  std::lock_guard<std::mutex> lock(mu_);
  phases_[static_cast<size_t>(id)].opening = true;
  return id;
}

void StatementProgress::SetSource(int id, const SourceState* source) {
  std::lock_guard<std::mutex> lock(mu_);
  if (id < 0 || id >= static_cast<int>(phases_.size())) return;
  phases_[id].source = source;
  if (!source) phases_[id].source_done = true;
}

void StatementProgress::SetWork(int id, int64_t done, int64_t planned) {
  std::lock_guard<std::mutex> lock(mu_);
  if (id < 0 || id >= static_cast<int>(phases_.size())) return;
  WorkProgress& w = phases_[id].work;
  w.done = std::max(w.done, done);
  w.planned = planned;
}

void StatementProgress::CompletePhase(int id) {
  std::lock_guard<std::mutex> lock(mu_);
  if (id < 0 || id >= static_cast<int>(phases_.size())) return;
  phases_[id].source = nullptr;
  phases_[id].source_done = true;
  phases_[id].complete = true;
}

double StatementProgress::FractionLocked(std::string* what) {
  double total = 0, done = 0;            // the plan's phases
  double open_total = 0, open_done = 0;  // opening phases
  bool named = false;
  for (const Phase& p : phases_) {
    (p.opening ? open_total : total) += p.weight;
    double f = 0;
    if (p.complete) {
      f = 1;
    } else if (p.source_done) {
      f = kSourceShare;
    } else {
      WorkProgress w = p.source ? p.source->progress() : p.work;
      if (w.planned > 0) f = kSourceShare * std::clamp(static_cast<double>(w.done) / w.planned, 0.0, 1.0);
    }
    if (!p.complete && !named && what) {
      *what = p.what;
      named = true;
    }
    (p.opening ? open_done : done) += p.weight * f;
  }
  double fraction = total > 0 ? std::clamp(done / total, 0.0, 1.0) : 0;
  if (open_total > 0) {
    const double opening = std::clamp(open_done / open_total, 0.0, 1.0);
    fraction = kOpeningShare * opening + (total > 0 ? (1 - kOpeningShare) * fraction : 0);
  }
  max_fraction_ = std::max(max_fraction_, fraction);
  return max_fraction_;
}

double StatementProgress::Fraction() {
  std::lock_guard<std::mutex> lock(mu_);
  return FractionLocked(nullptr);
}

void StatementProgress::ReportIfComplete() {
  bool all = true;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const Phase& p : phases_) all = all && p.complete;
    if (!all || phases_.empty()) return;
    max_fraction_ = 1;
  }
  std::lock_guard<std::mutex> report(report_mu_);
  if (reported_ >= 1) return;
  reported_ = 1;
  callback_(1.0, "");
}

void StatementProgress::ReportLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait_for(lock, interval_, [this] { return stop_; });
    if (stop_) return;
    std::string what;
    double f = std::min(FractionLocked(&what), kMaxWhileRunning);
    lock.unlock();
    {
      std::lock_guard<std::mutex> report(report_mu_);
      if (f > reported_ && reported_ < 1) {
        reported_ = f;
        callback_(f, what);
      }
    }
    lock.lock();
  }
}

std::function<void(int64_t done, int64_t planned)> PhaseReporter(std::shared_ptr<StatementProgress> progress, int id) {
  return [progress = std::move(progress), id](int64_t done, int64_t planned) {
    progress->SetWork(id, done, planned);
    if (done >= planned) progress->CompletePhase(id);
  };
}

}  // namespace shoal::sql
