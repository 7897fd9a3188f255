#include "cli/scan_summary.h"

#include <cstdio>
#include <vector>

namespace shoal::cli {

namespace {

std::string Count(int64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string HumanBytes(int64_t bytes) {
  static const char* kUnits[] = {"B", "KB", "MB", "GB", "TB", "PB"};
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1000 && u < 5) {
    v /= 1000;
    ++u;
  }
  char buf[32];
  if (u == 0) {
    std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(bytes));
  } else if (v < 10) {
    std::snprintf(buf, sizeof buf, "%.1f %s", v, kUnits[u]);
  } else {
    std::snprintf(buf, sizeof buf, "%.0f %s", v, kUnits[u]);
  }
  return buf;
}

std::string ScanSummaryLine(const ScanMetrics& m) {
  std::string line;
  if (m.files_total > 0 || m.row_groups_total > 0) {
    line = "read " + std::to_string(m.row_groups_read) + " of " + Count(m.row_groups_total, "row group", "row groups") +
           " in " + std::to_string(m.files_read) + " of " + Count(m.files_total, "file", "files") + " (" +
           HumanBytes(m.bytes_read) + ")";
    std::vector<std::string> skipped;
    auto add = [&](int64_t n, const char* one, const char* many, const char* why) {
      if (n > 0) skipped.push_back(Count(n, one, many) + " by " + why);
    };
    add(m.files_pruned_partition, "file", "files", "partition values");
    add(m.files_pruned_stats, "file", "files", "statistics");
    add(m.row_groups_pruned_stats, "row group", "row groups", "statistics");
    add(m.row_groups_pruned_dictionary, "row group", "row groups", "dictionary");
    add(m.row_groups_pruned_bloom, "row group", "row groups", "Bloom filter");
    add(m.pages_pruned_index, "page", "pages", "page index");
    for (size_t i = 0; i < skipped.size(); ++i) line += (i == 0 ? "; skipped " : ", ") + skipped[i];
    line += "; ";
  }
  line += Count(m.rows_returned, "row", "rows") + " in " + std::to_string(m.elapsed_ms) + " ms";
  return line;
}

}  // namespace shoal::cli
