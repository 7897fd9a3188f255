// Snapshot loading benchmark (doc/snapshot_loading.md): times delta::Snapshot::Load on two
// generated tables and prints commits, files, checkpoint y/n, median load ms, files/s and the
// peak RSS the load adds, plus the old path (JSON DOM, generic checkpoint rows, one thread)
// measured in the same run. cpu_ms (process CPU time, all threads) is printed next to wall time
// because on a shared machine (see loadavg) wall time mostly measures waiting for a core;
// main_thread_cpu_ms is the calling thread's share (the rest ran on helper threads), so
// max(main, cpu - main) bounds the wall time on an idle machine with enough cores.
//
//   big:   1,000,000 live files reached through 100,000 commits (adds, removes, re-adds with
//          deletion vectors, ~200-byte stats, a partition column), a classic Parquet
//          checkpoint written by table::WriteCheckpoint, then 50 JSON commits after it.
//   json:  10,000 commits x 10 actions, no checkpoint.
//
//   bench_snapshot_bench [--dir D] [--runs N] [--only big|json] [--no-old] [--assembled]
//
// --assembled also times the big table through the previous checkpoint fast path (assembled
// column vectors) for a same-run ratio against the leaf scan.
//
// Tables are generated once (deterministically) under D (default: <build dir>/snapshot_bench_data,
// next to the binary) and reused while kDataVersion is unchanged.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "delta/actions.h"
#include "delta/parquet_checkpoint_reader.h"
#include "delta/snapshot.h"
#include "shoal/allocator.h"
#include "table/checkpoint_writer.h"

using namespace shoal;

namespace {

constexpr int kDataVersion = 1;  // bump when the generator changes

double NowMs() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int Fail(const Status& st) {
  std::fprintf(stderr, "error: %s\n", st.ToString().c_str());
  return 1;
}

// Deterministic 64-bit generator (splitmix64).
struct Rng {
  uint64_t s;
  uint64_t Next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t Below(uint64_t n) { return Next() % n; }
};

std::string Hex(uint64_t v, int digits) {
  static const char* kHex = "0123456789abcdef";
  std::string s(digits, '0');
  for (int i = digits - 1; i >= 0; --i, v >>= 4) s[i] = kHex[v & 15];
  return s;
}

constexpr int64_t kT0 = 1704067200000;  // 2024-01-01
int64_t CommitTime(int64_t v) { return kT0 + v * 60000; }

struct LiveFile {
  std::string path;
  std::string part;
  bool has_dv = false;
  std::string dv;
};

class TableGenerator {
 public:
  TableGenerator(std::string root, uint64_t seed) : root_(std::move(root)), rng_{seed} {}

  std::string LogDir() const { return root_ + "/_delta_log"; }

  void WriteCommit(int64_t v, const std::string& body) {
    char name[40];
    std::snprintf(name, sizeof(name), "/%020" PRId64 ".json", v);
    std::ofstream f(LogDir() + name, std::ios::binary);
    f << body;
  }

  std::string Header() {
    return R"({"protocol":{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":["deletionVectors"],"writerFeatures":["deletionVectors"]}})"
           "\n"
           R"({"metaData":{"id":"bench-table","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}},{\"name\":\"value\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},{\"name\":\"p\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}","partitionColumns":["p"],"configuration":{"delta.enableDeletionVectors":"true"},"createdTime":1704067200000}})"
           "\n";
  }

  std::string CommitInfo(int64_t v, const char* op) {
    return R"({"commitInfo":{"timestamp":)" + std::to_string(CommitTime(v)) + R"(,"operation":")" + op +
           R"(","operationParameters":{"mode":"Append"},"isolationLevel":"Serializable","isBlindAppend":false,"txnId":")" +
           Hex(rng_.Next(), 16) + "\"}}\n";
  }

  std::string Stats() {
    int64_t lo = static_cast<int64_t>(rng_.Below(1000000000));
    int64_t hi = lo + static_cast<int64_t>(rng_.Below(1000000));
    std::string s = R"({\"numRecords\":)" + std::to_string(1000 + rng_.Below(100000)) +
                    R"(,\"minValues\":{\"id\":)" + std::to_string(lo) + R"(,\"value\":\"a)" + Hex(rng_.Next(), 12) +
                    R"(\"},\"maxValues\":{\"id\":)" + std::to_string(hi) + R"(,\"value\":\"z)" +
                    Hex(rng_.Next(), 12) + R"(\"},\"nullCount\":{\"id\":0,\"value\":)" +
                    std::to_string(rng_.Below(10)) + R"(},\"tightBounds\":true})";
    return s;
  }

  std::string NewPath(std::string* part) {
    char p[16];
    std::snprintf(p, sizeof(p), "2024-%02d-%02d", 1 + static_cast<int>(rng_.Below(12)), 1 + static_cast<int>(rng_.Below(28)));
    *part = p;
    return "p=" + *part + "/part-" + Hex(file_counter_++, 5) + "-" + Hex(rng_.Next(), 8) + "-" + Hex(rng_.Next(), 4) +
           "-" + Hex(rng_.Next(), 12) + "-c000.snappy.parquet";
  }

  std::string AddLine(const LiveFile& f, int64_t v) {
    std::string s = R"({"add":{"path":")" + f.path + R"(","partitionValues":{"p":")" + f.part + R"("},"size":)" +
                    std::to_string(100000 + rng_.Below(100000000)) + R"(,"modificationTime":)" +
                    std::to_string(CommitTime(v)) + R"(,"dataChange":true,"stats":")" + Stats() + "\"";
    if (f.has_dv) {
      s += R"(,"deletionVector":{"storageType":"u","pathOrInlineDv":")" + f.dv +
           R"(","offset":1,"sizeInBytes":36,"cardinality":)" + std::to_string(1 + rng_.Below(50)) + "}";
    }
    return s + "}}\n";
  }

  std::string RemoveLine(const LiveFile& f, int64_t v) {
    std::string s = R"({"remove":{"path":")" + f.path + R"(","deletionTimestamp":)" + std::to_string(CommitTime(v)) +
                    R"(,"dataChange":true,"extendedFileMetadata":true,"partitionValues":{"p":")" + f.part +
                    R"("},"size":)" + std::to_string(100000 + rng_.Below(100000000));
    if (f.has_dv) {
      s += R"(,"deletionVector":{"storageType":"u","pathOrInlineDv":")" + f.dv +
           R"(","offset":1,"sizeInBytes":36,"cardinality":3})";
    }
    return s + "}}\n";
  }

  // Commits 1..n: `adds` new files each, plus `removes` removals of random live files, one in
  // four of which is a DELETE that re-adds the file with a deletion vector.
  void Generate(int64_t n, int adds, int removes) {
    std::filesystem::create_directories(LogDir());
    WriteCommit(0, Header() + CommitInfo(0, "CREATE TABLE"));
    std::string body;
    for (int64_t v = 1; v <= n; ++v) {
      body.clear();
      body += CommitInfo(v, "WRITE");
      for (int r = 0; r < removes && !live_.empty(); ++r) {
        size_t i = rng_.Below(live_.size());
        body += RemoveLine(live_[i], v);
        if (rng_.Below(4) == 0) {
          live_[i].has_dv = true;
          live_[i].dv = Hex(rng_.Next(), 16) + Hex(rng_.Next(), 4);
          body += AddLine(live_[i], v);
        } else {
          live_[i] = std::move(live_.back());
          live_.pop_back();
        }
      }
      for (int a = 0; a < adds; ++a) {
        LiveFile f;
        f.path = NewPath(&f.part);
        body += AddLine(f, v);
        live_.push_back(std::move(f));
      }
      WriteCommit(v, body);
    }
  }

  size_t live_files() const { return live_.size(); }

 private:
  std::string root_;
  Rng rng_;
  uint64_t file_counter_ = 0;
  std::vector<LiveFile> live_;
};

bool Exists(const std::string& p) { return std::filesystem::exists(p); }

// Generates the 100,000-commit table and its checkpoint at version n - tail.
Status MakeBigTable(const std::string& root) {
  std::string done = root + "/.generated";
  if (Exists(done)) return Status::OK();
  std::filesystem::remove_all(root);
  constexpr int64_t kCommits = 100000, kTail = 50;
  std::fprintf(stderr, "generating %s (%lld commits)...\n", root.c_str(), static_cast<long long>(kCommits));
  double t0 = NowMs();
  TableGenerator gen(root, 7);
  gen.Generate(kCommits, /*adds=*/11, /*removes=*/1);
  double t1 = NowMs();
  std::fprintf(stderr, "  commits written in %.1f s, %zu live files\n", (t1 - t0) / 1000, gen.live_files());
  auto fs = io::LocalFileSystem();
  delta::SnapshotOptions so;
  so.version = kCommits - kTail;
  so.readers = delta::DefaultCheckpointReaders();
  auto snap = delta::Snapshot::Load(fs, root, so);
  if (!snap.ok()) return snap.status();
  double t2 = NowMs();
  std::fprintf(stderr, "  snapshot at %lld loaded from JSON in %.1f s (%zu files)\n",
               static_cast<long long>(*so.version), (t2 - t1) / 1000, (*snap)->num_files());
  table::CheckpointOptions co;
  co.now_ms = CommitTime(*so.version);  // tombstones of the last week of commits are kept
  auto info = table::WriteCheckpoint(fs, **snap, co);
  if (!info.ok()) return info.status();
  std::fprintf(stderr, "  checkpoint written in %.1f s (%lld rows, %.1f MB)\n", (NowMs() - t2) / 1000,
               static_cast<long long>(info->size), info->size_in_bytes / 1e6);
  std::ofstream(done) << kDataVersion;
  return Status::OK();
}

Status MakeJsonTable(const std::string& root) {
  std::string done = root + "/.generated";
  if (Exists(done)) return Status::OK();
  std::filesystem::remove_all(root);
  TableGenerator gen(root, 11);
  gen.Generate(10000, /*adds=*/9, /*removes=*/1);  // 10 actions per commit (+ commitInfo)
  std::ofstream(done) << kDataVersion;
  return Status::OK();
}

int64_t ReadStatusKb(const char* field) {
  std::ifstream f("/proc/self/status");
  std::string line;
  size_t n = std::strlen(field);
  while (std::getline(f, line)) {
    if (line.compare(0, n, field) == 0) return std::atoll(line.c_str() + n + 1);
  }
  return -1;
}

double CpuMs(int who = RUSAGE_SELF) {
  rusage ru;
  getrusage(who, &ru);
  return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

std::string LoadAvg() {
  std::ifstream f("/proc/loadavg");
  std::string a;
  f >> a;
  return a;
}

struct Result1 {
  double median_ms = 0;
  double median_cpu_ms = 0;
  double median_main_cpu_ms = 0;  // the calling thread's share of cpu_ms
  size_t files = 0;
  int64_t commits = 0;
  bool checkpoint = false;
  int64_t peak_rss_delta_mb = -1;
  // Building Snapshot::files() (every file as an AddFile) after the last load: what the first
  // caller needing every file as an object pays (the load itself keeps the list column-wise).
  double materialize_ms = 0;
};

// kNew: the default path. kAssembled: checkpoint rows decoded from assembled column vectors
// (the previous fast path, before the leaf scan). kOld: JSON DOM, generic rows, one thread.
enum class Path { kNew, kAssembled, kOld };

Status TimeLoad(const std::string& root, Path path, int runs, Result1* out) {
  auto fs = io::LocalFileSystem();
  delta::SnapshotOptions so;
  so.readers = delta::DefaultCheckpointReaders();
  if (path == Path::kAssembled) {
    auto r = std::make_shared<delta::ParquetCheckpointReader>();
    r->set_assembled_rows(true);
    so.readers.parquet = r;
  }
  if (path == Path::kOld) {
    so.dom_json_parser = true;
    so.threads = 1;
    so.readers.parquet = std::make_shared<delta::ParquetCheckpointReader>(/*generic_rows=*/true);
  }
  std::vector<double> times, cpu, main_cpu;
  for (int r = 0; r < runs; ++r) {
    // Reset the peak-RSS mark so VmHWM measures this load only.
    { std::ofstream("/proc/self/clear_refs") << "5"; }
    int64_t base_kb = ReadStatusKb("VmRSS:");
    double c0 = CpuMs();
    double m0 = CpuMs(RUSAGE_THREAD);
    double t0 = NowMs();
    auto snap = delta::Snapshot::Load(fs, root, so);
    double t1 = NowMs();
    cpu.push_back(CpuMs() - c0);
    main_cpu.push_back(CpuMs(RUSAGE_THREAD) - m0);
    if (!snap.ok()) return snap.status();
    int64_t peak_kb = ReadStatusKb("VmHWM:");
    times.push_back(t1 - t0);
    out->files = (*snap)->num_files();
    out->commits = (*snap)->version() + 1;
    out->checkpoint = (*snap)->segment().checkpoint_version.has_value();
    if (base_kb >= 0 && peak_kb >= 0) out->peak_rss_delta_mb = std::max(out->peak_rss_delta_mb, (peak_kb - base_kb) / 1024);
    if (r == runs - 1) {
      double m = NowMs();
      if ((*snap)->files().size() != out->files) return Status::Internal("files() and num_files() disagree");
      out->materialize_ms = NowMs() - m;
    }
  }
  std::sort(times.begin(), times.end());
  std::sort(cpu.begin(), cpu.end());
  out->median_ms = times[times.size() / 2];
  out->median_cpu_ms = cpu[cpu.size() / 2];
  std::sort(main_cpu.begin(), main_cpu.end());
  out->median_main_cpu_ms = main_cpu[main_cpu.size() / 2];
  return Status::OK();
}

void Print(const char* name, const char* path_kind, const Result1& r) {
  std::printf(
      "%-5s %-9s commits=%-6lld files=%-7zu checkpoint=%s load_ms=%8.1f cpu_ms=%8.1f main_thread_cpu_ms=%8.1f "
      "files_per_s=%10.0f peak_rss_delta_mb=%lld files_materialize_ms=%.1f loadavg=%s\n",
      name, path_kind, static_cast<long long>(r.commits), r.files, r.checkpoint ? "y" : "n", r.median_ms,
      r.median_cpu_ms, r.median_main_cpu_ms, r.files / (r.median_ms / 1000.0),
      static_cast<long long>(r.peak_rss_delta_mb), r.materialize_ms, LoadAvg().c_str());
}

}  // namespace

int main(int argc, char** argv) {
  shoal::TuneAllocator();  // as Database::Open does (shoal/allocator.h)
  std::string dir;
  int runs = 5;
  std::string only;
  bool old = true;
  bool assembled = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--dir" && i + 1 < argc) dir = argv[++i];
    else if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else if (a == "--no-old") old = false;
    else if (a == "--assembled") assembled = true;
    else {
      std::fprintf(stderr, "usage: %s [--dir D] [--runs N] [--only big|json] [--no-old] [--assembled]\n", argv[0]);
      return 2;
    }
  }
  if (dir.empty()) {
    dir = std::filesystem::path(std::filesystem::canonical("/proc/self/exe")).parent_path().string() +
          "/snapshot_bench_data";
  }
  dir += "/v" + std::to_string(kDataVersion);
  std::printf("snapshot_bench: data in %s, %d runs (median), %u hardware threads\n", dir.c_str(), runs,
              std::thread::hardware_concurrency());
  struct Case {
    const char* name;
    std::string root;
    Status (*make)(const std::string&);
  };
  std::vector<Case> cases = {{"json", dir + "/json_10k", MakeJsonTable}, {"big", dir + "/big_1m", MakeBigTable}};
  for (const auto& c : cases) {
    if (!only.empty() && only != c.name) continue;
    Status st = c.make(c.root);
    if (!st.ok()) return Fail(st);
    Result1 fast;
    st = TimeLoad(c.root, Path::kNew, runs, &fast);
    if (!st.ok()) return Fail(st);
    Print(c.name, "new", fast);
    if (assembled && c.make == MakeBigTable) {
      Result1 a;
      st = TimeLoad(c.root, Path::kAssembled, runs, &a);
      if (!st.ok()) return Fail(st);
      Print(c.name, "assembled", a);
      std::printf("%-5s assembled/new: wall %.1fx, cpu %.1fx\n", c.name, a.median_ms / fast.median_ms,
                  a.median_cpu_ms / fast.median_cpu_ms);
    }
    if (old) {
      Result1 slow;
      st = TimeLoad(c.root, Path::kOld, std::min(runs, 3), &slow);
      if (!st.ok()) return Fail(st);
      Print(c.name, "old(dom)", slow);
      std::printf("%-5s old/new: wall %.1fx, cpu %.1fx\n", c.name, slow.median_ms / fast.median_ms,
                  slow.median_cpu_ms / fast.median_cpu_ms);
    }
    std::fflush(stdout);
  }
  return 0;
}
