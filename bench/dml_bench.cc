// DML with deletion vectors vs copy-on-write (issue #6): builds a table of N rows (id BIGINT,
// a BIGINT, b DOUBLE, s STRING) in F files through SQL, twice — delta.enableDeletionVectors
// true and false — and measures, median of R runs each on a fresh copy of the table:
//   update   UPDATE of 0.1% of the rows, spread over every file (a hash of id)
//   delete   DELETE of 0.1% of the rows (other rows), rows deleted per CPU second
//   optimize OPTIMIZE of the table (after the delete), rows rewritten per CPU second
// Time is process CPU time (getrusage, user + system): the machine is shared. Bytes written
// are the bytes of the new files under the table directory (data and deletion vector files,
// the log excluded). Ratios are copy-on-write / deletion vectors, from the same run.
//
//   bench_dml_bench [dir] [rows] [files] [runs]      (default /tmp/shoal_dml_bench 2000000 20 3)
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cpu_seconds.h"
#include "shoal/database.h"

using namespace shoal;
namespace fsys = std::filesystem;

namespace {

// Size of every file under `root` outside _delta_log, by path.
std::map<std::string, int64_t> DataFiles(const std::string& root) {
  std::map<std::string, int64_t> out;
  for (const auto& e : fsys::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    std::string p = e.path().string();
    if (p.find("_delta_log") != std::string::npos) continue;
    out[p] = static_cast<int64_t>(e.file_size());
  }
  return out;
}

int64_t NewBytes(const std::map<std::string, int64_t>& before, const std::map<std::string, int64_t>& after) {
  int64_t n = 0;
  for (const auto& [p, size] : after) {
    if (!before.count(p)) n += size;
  }
  return n;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0.0 : v[v.size() / 2];
}

struct Measure {
  double cpu_s = 0;
  int64_t bytes = 0;
  int64_t rows = 0;
};

Status Run(Connection* c, const std::string& root, const std::string& sql, Measure* m) {
  auto before = DataFiles(root);
  double t0 = CpuSeconds();
  auto r = c->Query(sql);
  double t1 = CpuSeconds();
  if (!r.ok()) return r.status().WithContext(sql);
  m->cpu_s = t1 - t0;
  m->bytes = NewBytes(before, DataFiles(root));
  if (r->num_rows() > 0 && r->num_columns() > 0) m->rows = std::atoll(r->GetText(0, 0).c_str());
  return Status::OK();
}

int Fail(const Status& st) {
  std::fprintf(stderr, "error: %s\n", st.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : "/tmp/shoal_dml_bench";
  int64_t rows = argc > 2 ? std::atoll(argv[2]) : 2000000;
  int files = argc > 3 ? std::atoi(argv[3]) : 20;
  int runs = argc > 4 ? std::atoi(argv[4]) : 3;
  if (rows <= 0 || files <= 0 || runs <= 0) {
    std::fprintf(stderr, "usage: %s [dir] [rows] [files] [runs]\n", argv[0]);
    return 2;
  }
  std::error_code ec;
  fsys::remove_all(dir, ec);
  fsys::create_directories(dir + "/base");
  // Build the two base tables once, then copy them for every run.
  const char* modes[2] = {"dv", "cow"};
  {
    auto db = Database::Open(dir + "/base");
    if (!db.ok()) return Fail(db.status());
    auto c = (*db)->Connect();
    for (const char* mode : modes) {
      std::string t = std::string("t_") + mode;
      std::string props = std::string("'delta.enableDeletionVectors' = '") + (mode[0] == 'd' ? "true" : "false") +
                          "', 'delta.targetFileSize' = '1073741824'";
      auto r = c->Query("CREATE TABLE " + t + " (id BIGINT, a BIGINT, b DOUBLE, s STRING) TBLPROPERTIES (" + props + ")");
      if (!r.ok()) return Fail(r.status());
      int64_t per = (rows + files - 1) / files;
      for (int f = 0; f < files; ++f) {
        int64_t lo = f * per, hi = std::min(rows, lo + per);
        if (lo >= hi) break;
        std::string sql = "INSERT INTO " + t + " SELECT range AS id, (range * 7919) % 1000003 AS a, " +
                          "CAST(range % 100000 AS DOUBLE) / 7.0 AS b, 'v' || CAST(range % 10000 AS VARCHAR) AS s " +
                          "FROM range(" + std::to_string(lo) + ", " + std::to_string(hi) + ")";
        r = c->Query(sql);
        if (!r.ok()) return Fail(r.status());
      }
    }
  }
  // 0.1% of the rows, spread over every file: a multiplicative hash of id.
  const std::string upd_pred = "(id * 2654435761) % 1000 = 7";
  const std::string del_pred = "(id * 2654435761) % 1000 = 11";
  std::map<std::string, std::vector<double>> cpu, bytes, rate;
  for (int run = 0; run < runs; ++run) {
    for (const char* mode : modes) {
      std::string wh = dir + "/run";
      fsys::remove_all(wh, ec);
      fsys::copy(dir + "/base", wh, fsys::copy_options::recursive);
      auto db = Database::Open(wh);
      if (!db.ok()) return Fail(db.status());
      auto c = (*db)->Connect();
      std::string t = std::string("t_") + mode;
      std::string root = wh + "/" + t;
      Measure u, d, o;
      Status st = Run(c.get(), root, "UPDATE " + t + " SET a = a + 1 WHERE " + upd_pred, &u);
      if (st.ok()) st = Run(c.get(), root, "DELETE FROM " + t + " WHERE " + del_pred, &d);
      if (st.ok()) st = Run(c.get(), root, "OPTIMIZE " + t, &o);
      if (!st.ok()) return Fail(st);
      std::string m = mode;
      cpu[m + ".update"].push_back(u.cpu_s);
      bytes[m + ".update"].push_back(static_cast<double>(u.bytes));
      cpu[m + ".delete"].push_back(d.cpu_s);
      bytes[m + ".delete"].push_back(static_cast<double>(d.bytes));
      rate[m + ".delete"].push_back(d.cpu_s > 0 ? static_cast<double>(d.rows) / d.cpu_s : 0);
      cpu[m + ".optimize"].push_back(o.cpu_s);
      bytes[m + ".optimize"].push_back(static_cast<double>(o.bytes));
      // OPTIMIZE rewrites the live rows of the files it packs: all of them here (small files).
      double live = static_cast<double>(rows) - static_cast<double>(d.rows);
      rate[m + ".optimize"].push_back(o.cpu_s > 0 ? live / o.cpu_s : 0);
    }
  }
  std::printf("dml_bench: %lld rows in %d files, median of %d runs, CPU seconds (user+sys)\n",
              static_cast<long long>(rows), files, runs);
  std::printf("%-10s %12s %14s %12s %14s %10s %10s\n", "op", "dv_cpu_s", "dv_bytes", "cow_cpu_s", "cow_bytes",
              "cpu_ratio", "byte_ratio");
  for (const char* op : {"update", "delete", "optimize"}) {
    std::string k = op;
    double dc = Median(cpu["dv." + k]), cc = Median(cpu["cow." + k]);
    double db = Median(bytes["dv." + k]), cb = Median(bytes["cow." + k]);
    std::printf("%-10s %12.3f %14.0f %12.3f %14.0f %10.2f %10.2f\n", op, dc, db, cc, cb, dc > 0 ? cc / dc : 0,
                db > 0 ? cb / db : 0);
  }
  std::printf("delete   rows/cpu-s: dv %.0f  cow %.0f\n", Median(rate["dv.delete"]), Median(rate["cow.delete"]));
  std::printf("optimize rows/cpu-s: dv %.0f  cow %.0f\n", Median(rate["dv.optimize"]), Median(rate["cow.optimize"]));
  fsys::remove_all(dir + "/run", ec);
  return 0;
}
