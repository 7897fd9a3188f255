#include "table/optimize_plan.h"

#include <algorithm>
#include <map>

#include "delta/stats_json.h"
#include "expr/evaluate.h"
#include "scan/delta_scan.h"
#include "scan/partition_values.h"

namespace shoal::table {

namespace {

// Files grouped by partition, partitions in order of first appearance.
std::vector<std::pair<delta::PartitionValues, std::vector<delta::AddFile>>> GroupByPartition(
    const std::vector<delta::AddFile>& files) {
  std::vector<std::pair<delta::PartitionValues, std::vector<delta::AddFile>>> groups;
  std::map<delta::PartitionValues, size_t> index;
  for (const delta::AddFile& f : files) {
    auto [it, inserted] = index.try_emplace(f.partition_values, groups.size());
    if (inserted) groups.emplace_back(f.partition_values, std::vector<delta::AddFile>());
    groups[it->second].second.push_back(f);
  }
  return groups;
}

bool HasDeletedRows(const delta::AddFile& f) {
  return f.deletion_vector && f.deletion_vector->cardinality > 0;
}

RewriteBin MakeBin(const delta::PartitionValues& partition) {
  RewriteBin bin;
  bin.partition = partition;
  return bin;
}

}  // namespace

Status CheckPartitionPredicate(const expr::Expr& predicate, const scan::TableSchema& schema) {
  for (int c : expr::CollectColumns(predicate)) {
    if (c >= 0 && c < static_cast<int>(schema.columns.size()) && schema.columns[c].is_partition)
      continue;
    std::string name = c >= 0 && c < static_cast<int>(schema.columns.size())
                           ? schema.columns[c].name
                           : std::string("#").append(std::to_string(c));
    std::string parts;
    for (const auto& col : schema.columns) {
      if (!col.is_partition) continue;
      if (!parts.empty()) parts += ", ";
      parts += col.name;
    }
    return Status::InvalidArgument("Predicate references non-partition column '" + name +
                                   "'. Only the partition columns may be referenced: [" + parts +
                                   "]");
  }
  return Status::OK();
}

Result<std::vector<delta::AddFile>> SelectPartitions(const std::vector<delta::AddFile>& files,
                                                     const scan::TableSchema& schema,
                                                     const expr::ExprPtr& predicate) {
  if (!predicate) return files;
  RETURN_NOT_OK(CheckPartitionPredicate(*predicate, schema));
  // The predicate is evaluated once per partition on a one-row batch of its values.
  std::map<delta::PartitionValues, bool> decided;
  std::vector<delta::AddFile> out;
  expr::EvalContext ctx;
  std::vector<uint32_t> sel;
  auto batch_schema = std::make_shared<columnar::Schema>(schema.schema);
  for (const delta::AddFile& f : files) {
    auto it = decided.find(f.partition_values);
    if (it == decided.end()) {
      ASSIGN_OR_RETURN(auto values, scan::PartitionValuesOf(schema, f));
      std::vector<columnar::VectorPtr> cols;
      for (size_t c = 0; c < schema.columns.size(); ++c) {
        cols.push_back(values[c] ? values[c]->Broadcast(1)
                                 : columnar::Vector::MakeNull(schema.columns[c].type, 1));
      }
      columnar::RecordBatch one(batch_schema, std::move(cols), 1);
      ASSIGN_OR_RETURN(int64_t k, expr::EvaluateFilter(*predicate, one, ctx, &sel));
      it = decided.emplace(f.partition_values, k > 0).first;
    }
    if (it->second) out.push_back(f);
  }
  return out;
}

double DeletedRowsRatio(const delta::AddFile& file) {
  if (!HasDeletedRows(file)) return 0;
  if (file.stats) {
    auto s = delta::ParseStatsJson(*file.stats);
    if (s.ok() && s->num_records && *s->num_records > 0) {
      return static_cast<double>(file.deletion_vector->cardinality) /
             static_cast<double>(*s->num_records);
    }
  }
  return 1;
}

RewritePlan PlanBinPacking(const std::vector<delta::AddFile>& files,
                           const BinPackingOptions& options) {
  RewritePlan plan;
  plan.files_considered = static_cast<int64_t>(files.size());
  int64_t min_size = options.min_file_size.value_or(options.max_bin_size);
  int64_t rewritten = 0;
  for (auto& [partition, group] : GroupByPartition(files)) {
    std::vector<delta::AddFile> candidates;
    for (delta::AddFile& f : group) {
      bool resort = options.needs_resort && options.needs_resort(f);
      if (resort || f.size < min_size || DeletedRowsRatio(f) > options.max_deleted_rows_ratio) {
        candidates.push_back(std::move(f));
      }
    }
    std::sort(candidates.begin(), candidates.end(),
              [](const delta::AddFile& a, const delta::AddFile& b) {
                return a.size != b.size ? a.size < b.size : a.path < b.path;
              });
    std::vector<RewriteBin> bins;
    RewriteBin bin = MakeBin(partition);
    for (delta::AddFile& f : candidates) {
      if (!bin.files.empty() && bin.total_size + f.size > options.max_bin_size) {
        bins.push_back(std::move(bin));
        bin = MakeBin(partition);
      }
      bin.total_size += f.size;
      bin.files.push_back(std::move(f));
    }
    if (!bin.files.empty()) bins.push_back(std::move(bin));
    bool any = false;
    for (RewriteBin& b : bins) {
      if (b.files.size() == 1 && !HasDeletedRows(b.files[0]) &&
          !(options.needs_resort && options.needs_resort(b.files[0]))) {
        continue;
      }
      rewritten += static_cast<int64_t>(b.files.size());
      plan.bins.push_back(std::move(b));
      any = true;
    }
    if (any) ++plan.partitions;
  }
  plan.files_skipped = plan.files_considered - rewritten;
  return plan;
}

RewritePlan PlanZOrder(const std::vector<delta::AddFile>& files) {
  RewritePlan plan;
  plan.files_considered = static_cast<int64_t>(files.size());
  for (auto& [partition, group] : GroupByPartition(files)) {
    RewriteBin bin = MakeBin(partition);
    for (delta::AddFile& f : group) {
      bin.total_size += f.size;
      bin.files.push_back(std::move(f));
    }
    plan.bins.push_back(std::move(bin));
    ++plan.partitions;
  }
  return plan;
}

RewritePlan PlanPurge(const std::vector<delta::AddFile>& files) {
  RewritePlan plan;
  plan.files_considered = static_cast<int64_t>(files.size());
  for (auto& [partition, group] : GroupByPartition(files)) {
    bool any = false;
    for (delta::AddFile& f : group) {
      if (!HasDeletedRows(f)) {
        ++plan.files_skipped;
        continue;
      }
      RewriteBin bin = MakeBin(partition);
      bin.total_size = f.size;
      bin.files.push_back(std::move(f));
      plan.bins.push_back(std::move(bin));
      any = true;
    }
    if (any) ++plan.partitions;
  }
  return plan;
}

}  // namespace shoal::table
