// ScanMetrics (include/shoal/database.h): summing and the JSON line of `--stats`. In the base
// layer so every layer that scans can add to it.
#include <string>

#include "shoal/database.h"

namespace shoal {

void ScanMetrics::Add(const ScanMetrics& o) {
  files_total += o.files_total;
  files_read += o.files_read;
  row_groups_total += o.row_groups_total;
  row_groups_read += o.row_groups_read;
  pages_total += o.pages_total;
  pages_read += o.pages_read;
  bytes_read += o.bytes_read;
  rows_scanned += o.rows_scanned;
  rows_returned += o.rows_returned;
  elapsed_ms += o.elapsed_ms;
  files_pruned_partition += o.files_pruned_partition;
  files_pruned_stats += o.files_pruned_stats;
  row_groups_pruned_stats += o.row_groups_pruned_stats;
  row_groups_pruned_dictionary += o.row_groups_pruned_dictionary;
  row_groups_pruned_bloom += o.row_groups_pruned_bloom;
  pages_pruned_index += o.pages_pruned_index;
  rows_pruned_index += o.rows_pruned_index;
  rows_deleted_dv += o.rows_deleted_dv;
  rows_prewhere_filtered += o.rows_prewhere_filtered;
  pages_skipped_prewhere += o.pages_skipped_prewhere;
}

std::string ScanMetrics::ToJson() const {
  auto kv = [](const char* k, int64_t v) { return std::string("\"") + k + "\":" + std::to_string(v); };
  return "{" + kv("files_total", files_total) + "," + kv("files_read", files_read) + "," +
         kv("row_groups_total", row_groups_total) + "," + kv("row_groups_read", row_groups_read) + "," +
         kv("pages_total", pages_total) + "," + kv("pages_read", pages_read) + "," +
         kv("bytes_read", bytes_read) + "," + kv("rows_scanned", rows_scanned) + "," +
         kv("rows_returned", rows_returned) + "," + kv("files_pruned_partition", files_pruned_partition) + "," +
         kv("files_pruned_stats", files_pruned_stats) + "," + kv("row_groups_pruned_stats", row_groups_pruned_stats) +
         "," + kv("row_groups_pruned_dictionary", row_groups_pruned_dictionary) + "," +
         kv("row_groups_pruned_bloom", row_groups_pruned_bloom) + "," + kv("pages_pruned_index", pages_pruned_index) +
         "," + kv("rows_pruned_index", rows_pruned_index) + "," + kv("rows_deleted_dv", rows_deleted_dv) + "," +
         kv("rows_prewhere_filtered", rows_prewhere_filtered) + "," +
         kv("pages_skipped_prewhere", pages_skipped_prewhere) + "," + kv("elapsed_ms", elapsed_ms) + "}";
}

}  // namespace shoal
