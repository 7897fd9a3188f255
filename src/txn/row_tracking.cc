#include "txn/row_tracking.h"

#include <algorithm>
#include <limits>
#include <unordered_set>

#include "delta/json_fields.h"
#include "delta/stats_json.h"
#include "delta/table_features.h"

namespace shoal::txn {
namespace {

std::string ConfigValue(const delta::Metadata& m, const char* key) {
  auto it = m.configuration.find(key);
  return it == m.configuration.end() ? std::string() : it->second;
}

}  // namespace

bool RowTrackingSupported(const delta::Protocol& protocol) {
  return delta::ProtocolHasWriterFeature(protocol, "rowTracking");
}

bool RowTrackingEnabled(const delta::Protocol& protocol, const delta::Metadata& metadata) {
  return RowTrackingSupported(protocol) && ConfigValue(metadata, kEnableRowTrackingKey) == "true";
}

std::string MaterializedRowIdColumn(const delta::Metadata& metadata) {
  return ConfigValue(metadata, kMaterializedRowIdKey);
}

std::string MaterializedRowCommitVersionColumn(const delta::Metadata& metadata) {
  return ConfigValue(metadata, kMaterializedRowCommitVersionKey);
}

Result<int64_t> ParseRowIdHighWaterMark(const delta::DomainMetadata& domain) {
  if (domain.removed) return int64_t{-1};
  auto parsed = delta::ParseJson(domain.configuration, "domainMetadata " + domain.domain);
  if (!parsed.ok()) return parsed.status();
  const delta::Json& j = *parsed;
  auto it = j.is_object() ? j.find("rowIdHighWaterMark") : j.end();
  if (it == j.end() || !it->is_number_integer() || it->get<int64_t>() < -1) {
    return Status::Corruption("domainMetadata " + domain.domain +
                              " has no valid rowIdHighWaterMark: " + domain.configuration);
  }
  return it->get<int64_t>();
}

delta::DomainMetadata RowIdHighWaterMarkDomain(int64_t high_water_mark) {
  delta::DomainMetadata d;
  d.domain = kRowTrackingDomain;
  delta::Json j = delta::Json::object();
  j["rowIdHighWaterMark"] = high_water_mark;
  d.configuration = delta::JsonText(j);
  return d;
}

Result<int64_t> HighWaterMarkOf(const std::vector<delta::DomainMetadata>& domains, int64_t current) {
  for (const auto& d : domains) {
    if (d.domain != kRowTrackingDomain) continue;
    ASSIGN_OR_RETURN(int64_t hwm, ParseRowIdHighWaterMark(d));
    current = std::max(current, hwm);
  }
  return current;
}

Result<int64_t> NumRecordsOf(const delta::AddFile& add) {
  if (!add.stats) {
    return Status::InvalidArgument("row tracking: add " + add.path + " has no stats (numRecords)");
  }
  ASSIGN_OR_RETURN(delta::FileStats stats, delta::ParseStatsJson(*add.stats));
  if (!stats.num_records || *stats.num_records < 0) {
    return Status::InvalidArgument("row tracking: add " + add.path + " has no numRecords");
  }
  return *stats.num_records;
}

Status AssignRowIds(std::vector<delta::Action>* actions, int64_t version, int64_t* high_water_mark) {
  for (auto& action : *actions) {
    auto* add = std::get_if<delta::AddFile>(&action);
    if (!add || add->base_row_id) continue;
    ASSIGN_OR_RETURN(int64_t rows, NumRecordsOf(*add));
    if (*high_water_mark > std::numeric_limits<int64_t>::max() - rows - 1) {
      return Status::InvalidArgument("row tracking: row ids exhausted at " + add->path);
    }
    add->base_row_id = *high_water_mark + 1;
    if (!add->default_row_commit_version) add->default_row_commit_version = version;
    // An empty file takes no ids (the mark stays: ranges must not overlap, and this one is empty).
    *high_water_mark += rows;
  }
  return Status::OK();
}

std::vector<delta::AddFile> BackfillAdds(const std::vector<delta::AddFile>& files,
                                         const std::vector<std::string>& touched) {
  std::unordered_set<std::string> skip(touched.begin(), touched.end());
  std::vector<delta::AddFile> out;
  for (const auto& f : files) {
    if (f.base_row_id || skip.count(f.path)) continue;
    delta::AddFile a = f;
    a.data_change = false;
    out.push_back(std::move(a));
  }
  return out;
}

void StripStatsOfColumns(delta::AddFile* add, const std::vector<std::string>& columns) {
  if (!add->stats) return;
  bool mentioned = false;
  for (const auto& c : columns) mentioned |= !c.empty() && add->stats->find(c) != std::string::npos;
  if (!mentioned) return;
  auto parsed = delta::ParseJson(*add->stats, "stats");
  if (!parsed.ok() || !parsed->is_object()) return;
  delta::Json& j = *parsed;
  for (const char* key : {"minValues", "maxValues", "nullCount"}) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_object()) continue;
    for (const auto& c : columns) it->erase(c);
  }
  add->stats = delta::JsonText(j);
}

}  // namespace shoal::txn
