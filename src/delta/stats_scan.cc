#include "delta/stats_scan.h"

#include <charconv>
#include <optional>
#include <string>

#include "delta/json_cursor.h"

namespace shoal::delta {

namespace {

// The value at the cursor as text (validated, skipped).
bool ValueText(JsonCursor& c, std::string_view* out) {
  c.SkipWs();
  const char* start = c.pos();
  if (!c.SkipValue()) return false;
  *out = std::string_view(start, static_cast<size_t>(c.pos() - start));
  return true;
}

// A wanted min/max value as the document parser makes it: plain strings and integers directly,
// anything else through the parser.
Result<Json> ValueJson(std::string_view t) {
  if (t.size() >= 2 && t.front() == '"' && t.find('\\') == std::string_view::npos) {
    return Json(std::string(t.substr(1, t.size() - 2)));
  }
  if (!t.empty() && t.find_first_of(".eE") == std::string_view::npos && (t[0] == '-' || (t[0] >= '0' && t[0] <= '9'))) {
    // The parser keeps non-negative integers unsigned.
    if (t[0] == '-') {
      int64_t v;
      auto r = std::from_chars(t.data(), t.data() + t.size(), v);
      if (r.ec == std::errc() && r.ptr == t.data() + t.size()) return Json(v);
    } else {
      uint64_t v;
      auto r = std::from_chars(t.data(), t.data() + t.size(), v);
      if (r.ec == std::errc() && r.ptr == t.data() + t.size()) return Json(v);
    }
  }
  return ParseJson(t, "stats");
}

enum class Section { kMin, kMax, kNullCount };

// One object of a section: keeps the entries of the wanted paths that pass through it (`wanted`
// all share their first `level` names with this object's path). False: decline.
bool ScanObject(std::string_view text, const std::vector<const ColumnPath*>& wanted, size_t level, Section section,
                FileStats* out) {
  JsonCursor c(text);
  if (!c.Consume('{')) return false;
  // The last occurrence of each wanted name at this level (the document keeps the last).
  std::vector<std::optional<std::string_view>> last(wanted.size());
  if (!c.Consume('}')) {
    while (true) {
      // `name` stays valid until the next Key call (skipping a value reads no key into it).
      std::string_view name, value;
      if (!c.Key(&name)) return false;
      if (!c.Consume(':') || !ValueText(c, &value)) return false;
      for (size_t w = 0; w < wanted.size(); ++w) {
        if ((*wanted[w])[level] == name) last[w] = value;
      }
      if (c.Consume(',')) continue;
      if (c.Consume('}')) break;
      return false;
    }
  }
  std::vector<bool> done(wanted.size(), false);
  for (size_t w = 0; w < wanted.size(); ++w) {
    if (done[w] || !last[w]) continue;
    const std::string_view value = *last[w];
    if (value.front() == '{') {
      // A struct: the longer wanted paths through it go on, all those sharing this name at once.
      std::vector<const ColumnPath*> deeper;
      for (size_t v = w; v < wanted.size(); ++v) {
        if (!done[v] && last[v] && (*wanted[v])[level] == (*wanted[w])[level]) {
          done[v] = true;
          if (wanted[v]->size() > level + 1) deeper.push_back(wanted[v]);
        }
      }
      if (!deeper.empty() && !ScanObject(value, deeper, level + 1, section, out)) return false;
      continue;
    }
    done[w] = true;
    if (wanted[w]->size() != level + 1 || value == "null") continue;
    Result<Json> j = ValueJson(value);
    if (!j.ok()) return false;
    if (section == Section::kNullCount) {
      // Only integers count (other values are ignored, as the document route does).
      if (j->is_number_integer()) out->null_count[*wanted[w]] = j->get<int64_t>();
      continue;
    }
    (section == Section::kMin ? out->min_values : out->max_values)[*wanted[w]] = std::move(*j);
  }
  return true;
}

// The fast path; nullopt declines.
std::optional<FileStats> TryScan(std::string_view text, const std::vector<ColumnPath>& wanted) {
  static constexpr std::string_view kSections[] = {"minValues", "maxValues", "nullCount"};
  JsonCursor c(text);
  // The last occurrence of each known key (as the document keeps).
  std::optional<std::string_view> num_records, tight_bounds, sections[3];
  if (!c.Consume('{')) return std::nullopt;
  if (!c.Consume('}')) {
    while (true) {
      std::string_view name, value;
      if (!c.Key(&name)) return std::nullopt;
      if (!c.Consume(':') || !ValueText(c, &value)) return std::nullopt;
      if (name == "numRecords") {
        num_records = value;
      } else if (name == "tightBounds") {
        tight_bounds = value;
      } else {
        for (int s = 0; s < 3; ++s) {
          if (name == kSections[s]) sections[s] = value;
        }
      }
      if (c.Consume(',')) continue;
      if (c.Consume('}')) break;
      return std::nullopt;
    }
  }
  if (!c.AtEnd()) return std::nullopt;

  FileStats out;
  if (num_records && *num_records != "null") {
    JsonCursor n(*num_records);
    int64_t v;
    if (!n.Int64(&v)) return std::nullopt;  // the document route names the wrong type
    out.num_records = v;
  }
  if (tight_bounds && *tight_bounds != "null") {
    if (*tight_bounds != "true" && *tight_bounds != "false") return std::nullopt;
    out.tight_bounds = *tight_bounds == "true";
  }
  std::vector<const ColumnPath*> paths;
  for (const ColumnPath& p : wanted) {
    if (!p.empty()) paths.push_back(&p);
  }
  for (int s = 0; s < 3; ++s) {
    if (!sections[s] || *sections[s] == "null") continue;
    // Every section is scanned, wanted paths or not, so that its whole text is validated.
    if (!ScanObject(*sections[s], paths, 0, static_cast<Section>(s), &out)) return std::nullopt;
  }
  return out;
}

}  // namespace

Result<FileStats> ParseStatsJsonFor(std::string_view text, const std::vector<ColumnPath>& wanted) {
  if (std::optional<FileStats> fast = TryScan(text, wanted)) return std::move(*fast);
  // Declined: the document route decides, and its answer is cut to the wanted paths.
  ASSIGN_OR_RETURN(FileStats all, ParseStatsJson(text));
  FileStats out;
  out.num_records = all.num_records;
  out.tight_bounds = all.tight_bounds;
  for (const ColumnPath& p : wanted) {
    if (const Json* v = all.Min(p)) out.min_values[p] = *v;
    if (const Json* v = all.Max(p)) out.max_values[p] = *v;
    if (auto n = all.NullCount(p)) out.null_count[p] = *n;
  }
  return out;
}

}  // namespace shoal::delta
