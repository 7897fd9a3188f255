// ScanMetrics (include/shoal/database.h): summing and the JSON line of `--stats`. In the base
// layer so every layer that scans can add to it.
#include <string>
#include <utility>

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
  const std::pair<const char*, int64_t> fields[] = {
      {"files_total", files_total},
      {"files_read", files_read},
      {"row_groups_total", row_groups_total},
      {"row_groups_read", row_groups_read},
      {"pages_total", pages_total},
      {"pages_read", pages_read},
      {"bytes_read", bytes_read},
      {"rows_scanned", rows_scanned},
      {"rows_returned", rows_returned},
      {"files_pruned_partition", files_pruned_partition},
      {"files_pruned_stats", files_pruned_stats},
      {"row_groups_pruned_stats", row_groups_pruned_stats},
      {"row_groups_pruned_dictionary", row_groups_pruned_dictionary},
      {"row_groups_pruned_bloom", row_groups_pruned_bloom},
      {"pages_pruned_index", pages_pruned_index},
      {"rows_pruned_index", rows_pruned_index},
      {"rows_deleted_dv", rows_deleted_dv},
      {"rows_prewhere_filtered", rows_prewhere_filtered},
      {"pages_skipped_prewhere", pages_skipped_prewhere},
      {"elapsed_ms", elapsed_ms},
  };
  std::string out = "{";
  for (const auto& [key, value] : fields) {
    if (out.size() > 1) out += ',';
    out += '"';
    out += key;
    out += "\":";
    out += std::to_string(value);
  }
  out += '}';
  return out;
}

}  // namespace shoal
