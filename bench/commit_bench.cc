// Commit throughput and log replay benchmark (doc/benchmarks.md, "Commits per second").
//
//  1. commits/s: N = 1, 2, 4, 8 concurrent `shoal` processes each run M blind appends
//     (`INSERT INTO t VALUES (...)`, one commit each, `-f` script) on one fresh table; wall time
//     from the first spawn to the last exit. Printed with the speed-up over N = 1 and the
//     process CPU time of all children (on a shared machine wall time includes waiting for a
//     core). The log must end at version N*M + 1 (CREATE, the initial INSERT... every commit).
//  2. log replay cost per commit: a table with `delta.checkpointInterval` = 1000000 (no
//     checkpoint) and V commits; delta::Snapshot::Load at versions V/10, V/2 and V, median of
//     --runs loads, divided by the version. Baseline in the same run: loading the N = 1 table of
//     part 1, whose log has a checkpoint every 10 commits.
//
//   bench_commit_bench [--shoal PATH] [--dir D] [--commits M] [--replay V] [--runs R]
//
// Defaults: shoal next to this binary, D = <this binary's dir>/commit_bench_data (recreated),
// M = 50, V = 1000, R = 5.
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "delta/parquet_checkpoint_reader.h"
#include "delta/snapshot.h"
#include "io/file_system.h"

extern char** environ;

using namespace shoal;
namespace fs = std::filesystem;

namespace {

double NowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// CPU time (user + system) of waited-for children so far, in ms.
double ChildrenCpuMs() {
  struct rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000.0 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000.0;
}

// Starts `shoal <warehouse> --threads 1 -f <script>`, stdout to /dev/null, stderr to err_path.
pid_t Spawn(const std::string& shoal, const std::string& warehouse, const std::string& script,
            const std::string& err_path) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> args = {shoal, warehouse, "--threads", "1", "-f", script};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, shoal.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -1;
}

// Runs the scripts concurrently; returns false (after printing why) if one failed.
bool RunAll(const std::string& shoal, const std::string& warehouse, const std::vector<std::string>& scripts) {
  std::vector<pid_t> pids;
  for (size_t i = 0; i < scripts.size(); ++i) {
    pid_t pid = Spawn(shoal, warehouse, scripts[i], scripts[i] + ".err");
    if (pid < 0) {
      std::fprintf(stderr, "cannot start %s\n", shoal.c_str());
      return false;
    }
    pids.push_back(pid);
  }
  bool ok = true;
  for (size_t i = 0; i < pids.size(); ++i) {
    int status = 0;
    waitpid(pids[i], &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::ifstream err(scripts[i] + ".err");
      std::string line;
      std::getline(err, line);
      std::fprintf(stderr, "%s failed: %s\n", scripts[i].c_str(), line.c_str());
      ok = false;
    }
  }
  return ok;
}

std::string WriteScript(const std::string& path, const std::vector<std::string>& statements) {
  std::ofstream out(path);
  for (const std::string& s : statements) out << s << ";\n";
  return path;
}

int64_t LatestVersion(const std::string& table_root) {
  int64_t latest = -1;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(table_root + "/_delta_log", ec)) {
    std::string name = e.path().filename().string();
    if (name.size() == 25 && name.compare(20, 5, ".json") == 0) {
      latest = std::max<int64_t>(latest, std::strtoll(name.c_str(), nullptr, 10));
    }
  }
  return latest;
}

// Median wall ms of `runs` snapshot loads of table_root at `version` (latest when < 0).
double MedianLoadMs(const std::string& table_root, int64_t version, int runs, size_t* files) {
  auto fs = io::LocalFileSystem();
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    delta::SnapshotOptions so;
    if (version >= 0) so.version = version;
    so.readers = delta::DefaultCheckpointReaders();
    double t0 = NowMs();
    auto snap = delta::Snapshot::Load(fs, table_root, so);
    times.push_back(NowMs() - t0);
    if (!snap.ok()) {
      std::fprintf(stderr, "load %s: %s\n", table_root.c_str(), snap.status().ToString().c_str());
      return -1;
    }
    *files = (*snap)->files().size();
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  std::string self_dir = fs::path(fs::read_symlink("/proc/self/exe")).parent_path().string();
  std::string shoal = self_dir + "/shoal";
  std::string dir = self_dir + "/commit_bench_data";
  int commits = 50, replay = 1000, runs = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--shoal") shoal = argv[i + 1];
    else if (a == "--dir") dir = argv[i + 1];
    else if (a == "--commits") commits = std::max(1, std::atoi(argv[i + 1]));
    else if (a == "--replay") replay = std::max(10, std::atoi(argv[i + 1]));
    else if (a == "--runs") runs = std::max(1, std::atoi(argv[i + 1]));
    else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return 2;
    }
  }
  if (!fs::exists(shoal)) {
    std::fprintf(stderr, "shoal binary not found at %s (--shoal PATH)\n", shoal.c_str());
    return 1;
  }
  fs::remove_all(dir);
  fs::create_directories(dir);
  double load[3] = {0, 0, 0};
  if (std::FILE* f = std::fopen("/proc/loadavg", "r")) {
    if (std::fscanf(f, "%lf %lf %lf", &load[0], &load[1], &load[2]) != 3) load[0] = -1;
    std::fclose(f);
  }
  std::printf("commit benchmark: %d blind appends per process, loadavg %.2f, %u hardware threads\n\n", commits,
              load[0], std::max(1u, static_cast<unsigned>(sysconf(_SC_NPROCESSORS_ONLN))));

  // ---- 1. commits per second
  std::printf("| processes | commits | wall s | commits/s | vs N=1 | child CPU ms/commit |\n");
  std::printf("|---|---|---|---|---|---|\n");
  double base_rate = 0;
  std::string first_table;
  for (int n : {1, 2, 4, 8}) {
    std::string wh = dir + "/append" + std::to_string(n);
    fs::create_directories(wh);
    std::string setup = WriteScript(wh + "/setup.sql", {"CREATE TABLE t (w BIGINT, i BIGINT)"});
    if (!RunAll(shoal, wh, {setup})) return 1;
    std::vector<std::string> scripts;
    for (int w = 0; w < n; ++w) {
      std::vector<std::string> stmts;
      for (int i = 0; i < commits; ++i) {
        stmts.push_back("INSERT INTO t VALUES (" + std::to_string(w) + ", " + std::to_string(i) + ")");
      }
      scripts.push_back(WriteScript(wh + "/w" + std::to_string(w) + ".sql", stmts));
    }
    double cpu0 = ChildrenCpuMs();
    double t0 = NowMs();
    if (!RunAll(shoal, wh, scripts)) return 1;
    double wall = (NowMs() - t0) / 1000;
    double cpu = ChildrenCpuMs() - cpu0;
    int64_t total = static_cast<int64_t>(n) * commits;
    int64_t latest = LatestVersion(wh + "/t");
    if (latest != total) {
      std::fprintf(stderr, "N=%d: log ends at version %lld, expected %lld\n", n, static_cast<long long>(latest),
                   static_cast<long long>(total));
      return 1;
    }
    double rate = total / wall;
    if (n == 1) {
      base_rate = rate;
      first_table = wh + "/t";
    }
    std::printf("| %d | %lld | %.2f | %.1f | %.2fx | %.1f |\n", n, static_cast<long long>(total), wall, rate,
                rate / base_rate, cpu / total);
    std::fflush(stdout);
  }

  // ---- 2. log replay cost per commit (no checkpoint)
  std::string wh = dir + "/replay";
  fs::create_directories(wh);
  std::vector<std::string> stmts = {
      "CREATE TABLE t (i BIGINT) TBLPROPERTIES ('delta.checkpointInterval' = '1000000')"};
  for (int i = 1; i < replay; ++i) stmts.push_back("INSERT INTO t VALUES (" + std::to_string(i) + ")");
  std::fprintf(stderr, "writing %d commits for the replay table...\n", replay);
  if (!RunAll(shoal, wh, {WriteScript(wh + "/replay.sql", stmts)})) return 1;
  int64_t latest = LatestVersion(wh + "/t");
  if (latest != replay - 1) {
    std::fprintf(stderr, "replay table ends at version %lld\n", static_cast<long long>(latest));
    return 1;
  }
  bool has_checkpoint = fs::exists(wh + "/t/_delta_log/_last_checkpoint");
  std::printf("\n| snapshot | version | checkpoint | files | load ms (median of %d) | us per commit |\n", runs);
  std::printf("|---|---|---|---|---|---|\n");
  size_t files = 0;
  double base_ms = MedianLoadMs(first_table, -1, runs, &files);
  if (base_ms < 0) return 1;
  std::printf("| baseline: N=1 append table | %lld | every 10 | %zu | %.2f | - |\n",
              static_cast<long long>(LatestVersion(first_table)), files, base_ms);
  for (int64_t v : {static_cast<int64_t>(replay / 10), static_cast<int64_t>(replay / 2), static_cast<int64_t>(replay - 1)}) {
    double ms = MedianLoadMs(wh + "/t", v, runs, &files);
    if (ms < 0) return 1;
    std::printf("| log only | %lld | %s | %zu | %.2f | %.1f |\n", static_cast<long long>(v),
                has_checkpoint ? "yes (!)" : "no", files, ms, ms * 1000 / static_cast<double>(v));
  }
  fs::remove_all(dir);
  return 0;
}
