#include "sql/execution/explain_analyze.h"

namespace shoal::sql {
namespace {

std::string Num(int64_t v) { return std::to_string(v); }

std::string Level(const char* name, const std::string& what) {
  std::string line = "  ";
  line += name;
  line.append(line.size() < 20 ? 20 - line.size() : 1, ' ');
  return line + what;
}

}  // namespace

std::vector<std::string> PruningReport(const ScanMetrics& m) {
  std::vector<std::string> out;
  out.push_back("Pruning (cheapest level first):");
  out.push_back(Level("partitions", "files pruned " + Num(m.files_pruned_partition) + " of " + Num(m.files_total)));
  out.push_back(Level("log statistics", "files pruned " + Num(m.files_pruned_stats) + " of " + Num(m.files_total)));
  out.push_back(Level("row-group stats", "row groups pruned " + Num(m.row_groups_pruned_stats) + " of " +
                                             Num(m.row_groups_total)));
  out.push_back(Level("page index", "pages pruned " + Num(m.pages_pruned_index) + ", rows pruned " +
                                        Num(m.rows_pruned_index)));
  out.push_back(Level("dictionary", "row groups pruned " + Num(m.row_groups_pruned_dictionary)));
  out.push_back(Level("bloom filter", "row groups pruned " + Num(m.row_groups_pruned_bloom)));
  out.push_back(Level("prewhere", "rows filtered " + Num(m.rows_prewhere_filtered) + ", pages skipped " +
                                      Num(m.pages_skipped_prewhere)));
  out.push_back(Level("deletion vectors", "rows deleted " + Num(m.rows_deleted_dv)));
  out.push_back("Read: files " + Num(m.files_read) + " of " + Num(m.files_total) + ", row groups " +
                Num(m.row_groups_read) + " of " + Num(m.row_groups_total) + ", pages " + Num(m.pages_read) + " of " +
                Num(m.pages_total) + ", bytes " + Num(m.bytes_read) + ", rows scanned " + Num(m.rows_scanned) +
                ", rows returned " + Num(m.rows_returned));
  return out;
}

}  // namespace shoal::sql
