// Auto layout vs explicit LocalSort keys on real bytes: writes bench/scan_bench.sh's
// lineitem-like data (or its TPC-H-correlated variant) unsorted, with each candidate explicit key
// (single columns and pairs the workload filters on, z-orders of two) and in auto mode (written
// unsorted, the mixed workload replayed through the query log, OPTIMIZE applying the advisor's
// key), runs the workload on each table and prints per table: the key, write CPU time, storage,
// the workload's CPU time, bytes / row groups / pages read (weighted by the query frequencies)
// and the bytes benefit against unsorted as a share of the best explicit key's.
//
// and the bytes benefit against unsorted as a share of the best explicit key's; then bytes and
// row groups read per query (row groups against the table's).
//
//   bench_layout_bench [rows=2000000] [dir=/tmp/shoal_layout_bench] [variant=scan|correlated]
//                      [tables=all, or a comma list of table names] [sorted row-group rows]
// SHOAL_BENCH_KEEP=1 keeps the last table's files under dir (for inspecting its footers).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "shoal/allocator.h"
#include "table/layout_experiment.h"

using namespace shoal;
using table::LayoutCandidate;
using table::LocalSortMode;
using table::LocalSortScope;
using table::SortKey;

int main(int argc, char** argv) {
  TuneAllocator();  // as Database::Open does by default (shoal/allocator.h)
  table::LayoutExperimentOptions o;
  o.rows = argc > 1 ? std::atoll(argv[1]) : 2000000;
  std::string dir = argc > 2 ? argv[2] : "/tmp/shoal_layout_bench";
  std::string variant = argc > 3 ? argv[3] : "scan";
  o.variant = variant == "correlated" ? table::LineitemVariant::kCorrelated : table::LineitemVariant::kScanBench;
  // Optional: a comma list of table names to build (the first is the baseline), and the sorted
  // files' row-group rows.
  const std::string only = argc > 4 ? argv[4] : "";
  if (argc > 5) o.sorted_max_row_group_rows = std::atoll(argv[5]);
  auto workload = table::LineitemWorkload();
  if (!workload.ok()) {
    std::fprintf(stderr, "error: %s\n", workload.status().ToString().c_str());
    return 1;
  }
  auto lex = [](std::vector<std::string> cols) { return SortKey{LocalSortMode::kLexicographic, std::move(cols)}; };
  auto z = [](std::vector<std::string> cols) { return SortKey{LocalSortMode::kZOrder, std::move(cols)}; };
  std::vector<LayoutCandidate> cands = {
      {"unsorted", {}, false},
      {"l_skey", lex({"l_skey"}), false},
      {"l_skey, scope=write", lex({"l_skey"}), false, LocalSortScope::kWrite},
      {"l_partkey", lex({"l_partkey"}), false},
      {"l_shipdate", lex({"l_shipdate"}), false},
      {"l_shipdate, scope=write", lex({"l_shipdate"}), false, LocalSortScope::kWrite},
      {"l_env", lex({"l_env"}), false},
      {"l_note", lex({"l_note"}), false},
      {"(l_env,l_shipdate)", lex({"l_env", "l_shipdate"}), false},
      {"(l_shipdate,l_skey)", lex({"l_shipdate", "l_skey"}), false},
      {"(l_env,l_skey)", lex({"l_env", "l_skey"}), false},
      {"(l_skey,l_shipdate)", lex({"l_skey", "l_shipdate"}), false},
      {"zorder(l_skey,l_shipdate)", z({"l_skey", "l_shipdate"}), false},
      {"zorder(l_skey,l_partkey)", z({"l_skey", "l_partkey"}), false},
      {"auto", {}, true},
  };
  if (!only.empty()) {
    // Names are split at commas not followed by a space ("l_skey, scope=write" is one name).
    std::vector<std::string> names;
    for (size_t at = 0; at <= only.size();) {
      size_t end = only.find(',', at);
      while (end != std::string::npos && end + 1 < only.size() && only[end + 1] == ' ') end = only.find(',', end + 1);
      if (end == std::string::npos) end = only.size();
      names.push_back(only.substr(at, end - at));
      at = end + 1;
    }
    std::vector<LayoutCandidate> picked;
    for (const auto& c : cands) {
      if (std::find(names.begin(), names.end(), c.name) != names.end()) picked.push_back(c);
    }
    cands = std::move(picked);
  }
  auto fs = io::LocalFileSystem();
  std::vector<table::LayoutResult> results;
  for (const auto& c : cands) {
    auto r = table::RunLayoutCandidate(fs, dir + "/t", c, *workload, o);
    if (!r.ok()) {
      std::fprintf(stderr, "error (%s): %s\n", c.name.c_str(), r.status().ToString().c_str());
      return 1;
    }
    results.push_back(std::move(*r));
    std::fprintf(stderr, "done %s\n", c.name.c_str());
  }
  if (!std::getenv("SHOAL_BENCH_KEEP")) (void)fs->DeleteRecursive(dir);
  const auto& base = results[0];
  int64_t best = 0;
  std::string best_name;
  for (size_t i = 1; i < results.size(); ++i) {
    if (cands[i].auto_mode) continue;
    int64_t b = table::BytesBenefit(base, results[i]);
    if (b > best) best = b, best_name = results[i].name;
  }
  std::printf("rows=%lld variant=%s; workload:", static_cast<long long>(o.rows), variant.c_str());
  for (const auto& q : *workload) std::printf(" %s x%d", q.name.c_str(), q.weight);
  std::printf(
      "\nbytes/rgs/pages read are weighted by the query counts; query_cpu is one run of each "
      "query\n");
  std::printf(
      "write_cpu: the write's CPU on every thread (generation excluded); write_wall: wall time of "
      "generating and writing the rows "
      "(a sorted write sorts on a second thread)\n");
  std::printf("%-27s %-27s %9s %10s %11s %10s %13s %8s %8s %9s %10s\n", "table", "key", "write_cpu", "write_wall",
              "storage", "query_ms", "bytes_read", "rgs", "pages", "benefit", "of_best");
  for (size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    int64_t b = table::BytesBenefit(base, r);
    std::printf("%-27s %-27s %9.0f %10.0f %11lld %10.1f %13lld %8lld %8lld %8.1f%% %9.1f%%\n", r.name.c_str(),
                r.key.empty() ? "-" : r.key.ToString().c_str(), r.write_cpu_ms, r.write_wall_ms,
                static_cast<long long>(r.storage_bytes),
                r.workload.cpu_ms, static_cast<long long>(r.workload.bytes_read),
                static_cast<long long>(r.workload.row_groups_read), static_cast<long long>(r.workload.pages_read),
                base.workload.bytes_read ? 100.0 * static_cast<double>(b) / static_cast<double>(base.workload.bytes_read) : 0.0,
                best ? 100.0 * static_cast<double>(b) / static_cast<double>(best) : 0.0);
  }
  std::printf("best explicit key: %s\n", best_name.c_str());
  // Per query bytes read, per table.
  std::printf("\n%-27s", "bytes read per query");
  for (const auto& q : *workload) std::printf(" %14s", q.name.c_str());
  std::printf("\n");
  for (const auto& r : results) {
    std::printf("%-27s", r.name.c_str());
    for (const auto& m : r.per_query) std::printf(" %14lld", static_cast<long long>(m.bytes_read));
    std::printf("\n");
  }
  // Row groups read per query against the table's row groups (the point filters' goal: <= 1%).
  std::printf("\n%-27s %6s %6s", "row groups read per query", "files", "rgs");
  for (const auto& q : *workload) std::printf(" %16s", q.name.c_str());
  std::printf("\n");
  for (const auto& r : results) {
    std::printf("%-27s %6lld %6lld", r.name.c_str(), static_cast<long long>(r.files),
                static_cast<long long>(r.row_groups_total));
    for (const auto& m : r.per_query) {
      std::printf(" %7lld (%5.1f%%)", static_cast<long long>(m.row_groups_read),
                  r.row_groups_total
                      ? 100.0 * static_cast<double>(m.row_groups_read) / static_cast<double>(r.row_groups_total)
                      : 0.0);
    }
    std::printf("\n");
  }
  return 0;
}
