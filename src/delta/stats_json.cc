#include "delta/stats_json.h"

namespace shoal::delta {

namespace {

constexpr int kMaxDepth = 128;

Status FlattenValues(const Json& obj, ColumnPath* prefix, int depth, const char* what,
                     std::map<ColumnPath, Json>* out) {
  if (depth > kMaxDepth) return Status::Corruption(std::string("stats: ") + what + " nests too deep");
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    prefix->push_back(it.key());
    if (it->is_object()) {
      RETURN_NOT_OK(FlattenValues(*it, prefix, depth + 1, what, out));
    } else if (!it->is_null()) {
      (*out)[*prefix] = *it;
    }
    prefix->pop_back();
  }
  return Status::OK();
}

Status FlattenCounts(const Json& obj, ColumnPath* prefix, int depth,
                     std::map<ColumnPath, int64_t>* out) {
  if (depth > kMaxDepth) return Status::Corruption("stats: nullCount nests too deep");
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    prefix->push_back(it.key());
    if (it->is_object()) {
      RETURN_NOT_OK(FlattenCounts(*it, prefix, depth + 1, out));
    } else if (it->is_number_integer()) {
      (*out)[*prefix] = it->get<int64_t>();
    } else if (!it->is_null()) {
      // Counts for map/array columns are not defined by the protocol; ignore non-integers
      // rather than rejecting files other writers produced.
    }
    prefix->pop_back();
  }
  return Status::OK();
}

template <typename V>
Json Nest(const std::map<ColumnPath, V>& flat) {
  Json root = Json::object();
  for (const auto& [path, v] : flat) {
    if (path.empty()) continue;
    Json* cur = &root;
    for (size_t i = 0; i + 1 < path.size(); ++i) {
      Json& next = (*cur)[path[i]];
      if (!next.is_object()) next = Json::object();
      cur = &next;
    }
    (*cur)[path.back()] = Json(v);
  }
  return root;
}

}  // namespace

const Json* FileStats::Min(const ColumnPath& c) const {
  auto it = min_values.find(c);
  return it == min_values.end() ? nullptr : &it->second;
}

const Json* FileStats::Max(const ColumnPath& c) const {
  auto it = max_values.find(c);
  return it == max_values.end() ? nullptr : &it->second;
}

std::optional<int64_t> FileStats::NullCount(const ColumnPath& c) const {
  auto it = null_count.find(c);
  if (it == null_count.end()) return std::nullopt;
  return it->second;
}

Result<FileStats> ParseStatsJson(std::string_view text) {
  ASSIGN_OR_RETURN(Json j, ParseJson(text, "stats"));
  if (!j.is_object()) return Status::Corruption("stats: not a JSON object");
  JsonFields f(j, "stats");
  FileStats s;
  RETURN_NOT_OK(f.OptionalInt64("numRecords", &s.num_records));
  RETURN_NOT_OK(f.OptionalBool("tightBounds", &s.tight_bounds));
  ColumnPath prefix;
  const Json* o = nullptr;
  RETURN_NOT_OK(f.OptionalObject("minValues", &o));
  if (o) RETURN_NOT_OK(FlattenValues(*o, &prefix, 0, "minValues", &s.min_values));
  RETURN_NOT_OK(f.OptionalObject("maxValues", &o));
  if (o) RETURN_NOT_OK(FlattenValues(*o, &prefix, 0, "maxValues", &s.max_values));
  RETURN_NOT_OK(f.OptionalObject("nullCount", &o));
  if (o) RETURN_NOT_OK(FlattenCounts(*o, &prefix, 0, &s.null_count));
  return s;
}

std::string SerializeStatsJson(const FileStats& s) {
  Json o = Json::object();
  if (s.num_records) o["numRecords"] = *s.num_records;
  if (!s.min_values.empty()) o["minValues"] = Nest(s.min_values);
  if (!s.max_values.empty()) o["maxValues"] = Nest(s.max_values);
  if (!s.null_count.empty()) o["nullCount"] = Nest(s.null_count);
  if (s.tight_bounds) o["tightBounds"] = *s.tight_bounds;
  return JsonText(o);
}

}  // namespace shoal::delta
