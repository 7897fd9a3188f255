#include "txn/added_rows_matcher.h"

#include <optional>
#include <vector>

#include "delta/stats_json.h"
#include "expr/can_match.h"
#include "scan/delta_scan.h"
#include "scan/file_stats.h"
#include "scan/partition_values.h"

namespace shoal::txn {

bool FileMayMatch(const delta::AddFile& file, const expr::Expr& predicate,
                  const scan::TableSchema& schema) {
  std::optional<delta::FileStats> stats;
  if (file.stats) {
    auto parsed = delta::ParseStatsJson(*file.stats);
    if (parsed.ok()) stats = std::move(parsed).value();
  }
  std::optional<int64_t> rows;
  if (stats && stats->num_records) rows = *stats->num_records;
  if (rows && *rows == 0) return false;  // an empty file has no matching row

  std::vector<std::optional<expr::ColumnStats>> by_column(schema.columns.size());
  for (int c : expr::CollectColumns(predicate)) {
    if (c < 0 || c >= static_cast<int>(schema.columns.size())) continue;
    const scan::TableColumn& col = schema.columns[c];
    if (col.is_partition) {
      auto value = scan::PartitionValueOf(file, col);
      if (!value.ok()) continue;  // unknown: could be anything
      expr::ColumnStats cs;
      int64_t n = rows.value_or(1);
      cs.row_count = n;
      if (value->is_null()) {
        cs.null_count = n;
      } else {
        cs.min = *value;
        cs.max = *value;
        cs.null_count = 0;
        cs.may_have_nan = false;
      }
      by_column[c] = std::move(cs);
    } else if (stats) {
      by_column[c] = scan::ColumnStatsFor(*stats, col);
    }
  }
  scan::VectorStatsProvider provider(std::move(by_column));
  return expr::CanMatch(predicate, provider) != expr::TriState::kFalse;
}

std::string DescribePartition(const delta::AddFile& file,
                              const std::vector<std::string>& partition_columns) {
  if (partition_columns.empty() || file.partition_values.empty()) return "the root of the table";
  std::string out = "partition [";
  bool first = true;
  for (const auto& col : partition_columns) {
    auto it = file.partition_values.find(col);
    if (!first) out += ", ";
    first = false;
    out += col + "=";
    out += (it == file.partition_values.end() || !it->second) ? "null" : *it->second;
  }
  return out + "]";
}

}  // namespace shoal::txn
