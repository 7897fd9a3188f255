#include "txn/compaction_map.h"

#include "delta/json_fields.h"


namespace shoal::txn {

std::string SerializeCompactedFrom(const std::vector<CompactionSource>& sources) {
  delta::Json arr = delta::Json::array();
  for (const auto& s : sources) {
    delta::Json o = delta::Json::object();
    o["path"] = s.path;
    o["dvId"] = s.dv_id;
    o["liveRows"] = s.live_rows;
    arr.push_back(std::move(o));
  }
  return delta::JsonText(arr);
}

Result<std::vector<CompactionSource>> ParseCompactedFrom(std::string_view text) {
  ASSIGN_OR_RETURN(delta::Json arr, delta::ParseJson(text, kCompactedFromTag));
  if (!arr.is_array()) return Status::Corruption(std::string(kCompactedFromTag) + ": not an array");
  std::vector<CompactionSource> out;
  for (const auto& o : arr) {
    if (!o.is_object()) return Status::Corruption(std::string(kCompactedFromTag) + ": entry not an object");
    delta::JsonFields f(o, kCompactedFromTag);
    CompactionSource s;
    RETURN_NOT_OK(f.RequiredString("path", &s.path));
    std::optional<std::string> dv;
    RETURN_NOT_OK(f.OptionalString("dvId", &dv));
    s.dv_id = dv.value_or("");
    RETURN_NOT_OK(f.RequiredInt64("liveRows", &s.live_rows));
    if (s.live_rows < 0) {
      return Status::Corruption(std::string(kCompactedFromTag) + ": negative liveRows for " + s.path);
    }
    out.push_back(std::move(s));
  }
  return out;
}

Result<std::optional<CompactionPlacement>> FindCompactionPlacement(
    const std::vector<delta::AddFile>& outputs, const std::string& source_path) {
  for (const auto& out : outputs) {
    if (!out.tags) continue;
    auto it = out.tags->find(kCompactedFromTag);
    if (it == out.tags->end()) continue;
    auto parsed = ParseCompactedFrom(it->second);
    if (!parsed.ok()) return parsed.status().WithContext(out.path);
    int64_t start = 0;
    for (const auto& s : *parsed) {
      if (s.path == source_path) {
        return std::optional<CompactionPlacement>(CompactionPlacement{out, s, start});
      }
      start += s.live_rows;
    }
  }
  return std::optional<CompactionPlacement>();
}

Result<delta::DeletionVector> TranslateThroughCompaction(const delta::DeletionVector& rows,
                                                         const delta::DeletionVector& dv_at_compaction,
                                                         const CompactionPlacement& placement) {
  std::vector<uint64_t> deleted = dv_at_compaction.ToVector();
  std::vector<uint64_t> mapped;
  mapped.reserve(rows.Cardinality());
  size_t before = 0;  // deleted rows < current p
  Status st;
  rows.ForEach([&](uint64_t p) {
    while (before < deleted.size() && deleted[before] < p) ++before;
    if (before < deleted.size() && deleted[before] == p) {
      st = Status::InvalidArgument("row " + std::to_string(p) + " of " + placement.source.path +
                                   " was already deleted when it was compacted");
      return false;
    }
    uint64_t rank = p - before;
    if (rank >= static_cast<uint64_t>(placement.source.live_rows)) {
      st = Status::InvalidArgument("row " + std::to_string(p) + " of " + placement.source.path +
                                   " lies past its " + std::to_string(placement.source.live_rows) +
                                   " compacted live rows");
      return false;
    }
    mapped.push_back(static_cast<uint64_t>(placement.out_start) + rank);
    return true;
  });
  RETURN_NOT_OK(st);
  delta::DeletionVector out;
  out.AddMany(mapped.data(), mapped.size());
  return out;
}

}  // namespace shoal::txn
