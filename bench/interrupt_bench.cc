// Ctrl-C latency over a statement's whole run (issue 31): runs STATEMENT once to completion, then
// again and again, each time calling Connection::Interrupt() after a delay that steps through
// the run (--steps points between 0 and the full run's time), and prints for each delay the time
// from Interrupt() to Query's return (what the shell's prompt waits for: noticing the flag,
// unwinding, freeing the statement's state). The longest of them names the longest stretch of
// work that does not hear Ctrl-C. Wall and CPU time of the full run are printed as the baseline.
// With --at S (a statement too long to run to its end) it interrupts K times at S seconds instead.
//
//   bench_interrupt_bench [--threads N] [--steps K] [--at S] [--setup SQL]... STATEMENT
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "cpu_seconds.h"
#include "shoal/database.h"

using namespace shoal;

namespace {

double Seconds(std::chrono::steady_clock::time_point from) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count();
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 0, steps = 10;
  double at = -1;
  std::vector<std::string> setup;
  std::string sql;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--steps") && i + 1 < argc) {
      steps = std::max(1, std::atoi(argv[++i]));
    } else if (!std::strcmp(argv[i], "--at") && i + 1 < argc) {
      at = std::atof(argv[++i]);
    } else if (!std::strcmp(argv[i], "--setup") && i + 1 < argc) {
      setup.push_back(argv[++i]);
    } else {
      sql = argv[i];
    }
  }
  if (sql.empty()) {
    std::fprintf(stderr, "usage: bench_interrupt_bench [--threads N] [--steps K] [--at S] [--setup SQL]... STATEMENT\n");
    return 2;
  }
  const std::string dir = "/tmp/shoal_interrupt_bench." + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  DatabaseOptions o;
  o.threads = threads;
  auto db = Database::Open(dir, o);
  if (!db.ok()) {
    std::fprintf(stderr, "%s\n", db.status().ToString().c_str());
    return 1;
  }
  auto con = (*db)->Connect();
  for (const std::string& s : setup) {
    auto r = con->Query(s);
    if (!r.ok()) {
      std::fprintf(stderr, "setup %s: %s\n", s.c_str(), r.status().ToString().c_str());
      return 1;
    }
  }
  double full = at;
  if (at < 0) {
    const double cpu0 = CpuSeconds();
    auto start = std::chrono::steady_clock::now();
    auto r = con->Query(sql);
    if (!r.ok()) {
      std::fprintf(stderr, "%s\n", r.status().ToString().c_str());
      return 1;
    }
    full = Seconds(start);
    std::printf("full run: %.3f s wall, %.3f s cpu\n", full, CpuSeconds() - cpu0);
  }
  double worst = 0;
  std::vector<double> all;
  for (int k = 0; k < steps; ++k) {
    const double delay = at >= 0 ? at : full * (k + 0.5) / steps;
    std::chrono::steady_clock::time_point sent;
    std::thread interrupter([&] {
      std::this_thread::sleep_for(std::chrono::duration<double>(delay));
      sent = std::chrono::steady_clock::now();
      con->Interrupt();
    });
    auto begin = std::chrono::steady_clock::now();
    auto r = con->Query(sql);
    const double ran = Seconds(begin);
    interrupter.join();
    if (r.ok()) {
      std::printf("interrupt at %6.3f s: the statement ended first (%.3f s)\n", delay, ran);
      continue;
    }
    const double ms = Seconds(sent) * 1000;
    all.push_back(ms);
    worst = std::max(worst, ms);
    std::printf("interrupt at %6.3f s: returned %7.1f ms later (%s)\n", delay, ms, r.status().ToString().c_str());
  }
  std::sort(all.begin(), all.end());
  if (!all.empty()) {
    std::printf("latency: median %.1f ms, max %.1f ms over %zu interrupts; max / full run %.4f\n",
                all[all.size() / 2], worst, all.size(), worst / 1000 / full);
  }
  con.reset();
  db->reset();
  std::filesystem::remove_all(dir);
  return 0;
}
