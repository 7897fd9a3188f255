#include "table/table_properties.h"

#include <cctype>
#include <charconv>
#include <cstdlib>
#include <set>

#include "scan/delta_schema.h"
#include "table/local_sort_key.h"

namespace shoal::table {

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<int64_t> ParseInt(std::string_view s) {
  s = Trim(s);
  int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty()) return std::nullopt;
  return v;
}

Status Bad(const std::string& key, const std::string& value, const std::string& expected) {
  return Status::InvalidArgument("table property " + key + " = '" + value + "' is invalid: expected " + expected);
}

Result<bool> ParseBool(const std::string& key, const std::string& value) {
  std::string v = Lower(Trim(value));
  if (v == "true") return true;
  if (v == "false") return false;
  return Bad(key, value, "true or false");
}

// Boolean keys shoal does not act on but Delta defines.
const std::set<std::string>& OtherBooleanKeys() {
  static const std::set<std::string> k = {
      "delta.autooptimize.autocompact", "delta.autooptimize.optimizewrite",
      "delta.checkpoint.writestatsasjson", "delta.checkpoint.writestatsasstruct",
      "delta.randomizefileprefixes", "delta.enableexpiredlogcleanup",
      "delta.compatibility.symlinkformatmanifest.enabled", "delta.enableicebergcompatv1",
      "delta.enableicebergcompatv2", "delta.tunefilesizesforrewrites",
      "delta.enablefullretentionrollback"};
  return k;
}

// Other keys Delta defines, with free-form or integer values shoal only stores.
const std::set<std::string>& OtherKeys() {
  static const std::set<std::string> k = {
      "delta.minreaderversion", "delta.minwriterversion", "delta.randomprefixlength",
      "delta.columnmapping.maxcolumnid", "delta.setTransactionRetentionDuration",
      "delta.settransactionretentionduration", "delta.checkpointretentionduration",
      "delta.rowtracking.materializedrowidcolumnname",
      "delta.rowtracking.materializedrowcommitversioncolumnname",
      "delta.incommittimestampenablementversion", "delta.incommittimestampenablementtimestamp",
      "delta.universalformat.enabledformats",
      "delta.samplingretentionduration"};
  return k;
}

}  // namespace

Result<int64_t> ParseIntervalMillis(const std::string& text) {
  std::string s = Lower(Trim(text));
  std::string_view v = s;
  if (v.starts_with("interval")) v = Trim(v.substr(8));
  size_t sp = v.find(' ');
  if (sp == std::string_view::npos) return Status::InvalidArgument("malformed interval '" + text + "'");
  auto n = ParseInt(v.substr(0, sp));
  std::string unit(Trim(v.substr(sp + 1)));
  if (!n || *n < 0) return Status::InvalidArgument("malformed interval '" + text + "'");
  if (!unit.empty() && unit.back() == 's') unit.pop_back();
  int64_t mult = 0;
  if (unit == "week") mult = 7LL * 86400000;
  else if (unit == "day") mult = 86400000;
  else if (unit == "hour") mult = 3600000;
  else if (unit == "minute") mult = 60000;
  else if (unit == "second") mult = 1000;
  else if (unit == "millisecond") mult = 1;
  else return Status::InvalidArgument("unknown interval unit in '" + text + "' (months and years are not allowed)");
  if (*n > INT64_MAX / mult) return Status::InvalidArgument("interval '" + text + "' is too large");
  return *n * mult;
}

Result<int64_t> ParseByteSize(const std::string& text) {
  std::string s = Lower(Trim(text));
  size_t i = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
  auto n = ParseInt(std::string_view(s).substr(0, i));
  std::string unit(Trim(std::string_view(s).substr(i)));
  int64_t mult = 0;
  if (unit.empty() || unit == "b") mult = 1;
  else if (unit == "k" || unit == "kb") mult = 1 << 10;
  else if (unit == "m" || unit == "mb") mult = 1 << 20;
  else if (unit == "g" || unit == "gb") mult = 1 << 30;
  if (!n || mult == 0 || *n <= 0 || *n > INT64_MAX / mult) {
    return Status::InvalidArgument("malformed byte size '" + text + "'");
  }
  return *n * mult;
}

// Parses one shoal.localsort.* key (lower-cased in `k`) into `p`.
static Status ParseLocalSortProperty(const std::string& k, const std::string& key, const std::string& value,
                              TableProperties* p) {
  if (k == "shoal.localsort.columns") {
    std::vector<std::string> cols;
    std::string_view rest = value;
    if (!Trim(rest).empty()) {
      while (true) {
        size_t comma = rest.find(',');
        std::string_view part = Trim(rest.substr(0, comma));
        if (part.empty()) return Bad(key, value, "a comma-separated list of column names");
        cols.emplace_back(part);
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
      }
    }
    p->local_sort_columns = std::move(cols);
  } else if (k == "shoal.localsort.mode") {
    std::string v = Lower(Trim(value));
    if (v == "lexicographic") p->local_sort_mode = LocalSortMode::kLexicographic;
    else if (v == "zorder") p->local_sort_mode = LocalSortMode::kZOrder;
    else return Bad(key, value, "lexicographic or zorder");
  } else if (k == "shoal.localsort.memorylimit") {
    auto n = ParseByteSize(value);
    if (!n.ok()) return Bad(key, value, "a positive byte size");
    p->local_sort_memory_limit = *n;
  } else if (k == "shoal.localsort.scope") {
    std::string v = Lower(Trim(value));
    if (v == "file")
      p->local_sort_scope = LocalSortScope::kFile;
    else if (v == "write")
      p->local_sort_scope = LocalSortScope::kWrite;
    else
      return Bad(key, value, "file or write");
  } else if (k == "shoal.localsort.auto") {
    ASSIGN_OR_RETURN(p->local_sort_auto, ParseBool(key, value));
  } else {
    return Status::InvalidArgument("Unknown configuration was specified: " + key);
  }
  return Status::OK();
}

// Parses "fpp=0.1, numItems=1000" (either may be left out; names case-insensitive).
static Result<BloomFilterSpec> ParseBloomFilterSpec(const std::string& key, const std::string& value) {
  BloomFilterSpec spec;
  std::string_view rest = value;
  const char* expected = "fpp=<0..1>, numItems=<positive integer>";
  while (!Trim(rest).empty()) {
    size_t comma = rest.find(',');
    std::string_view part = Trim(rest.substr(0, comma));
    size_t eq = part.find('=');
    if (eq == std::string_view::npos) return Bad(key, value, expected);
    std::string name = Lower(Trim(part.substr(0, eq)));
    std::string v(Trim(part.substr(eq + 1)));
    char* end = nullptr;
    if (name == "fpp") {
      spec.fpp = std::strtod(v.c_str(), &end);
      if (v.empty() || *end != '\0' || !(spec.fpp > 0 && spec.fpp < 1)) return Bad(key, value, expected);
    } else if (name == "numitems") {
      spec.num_items = std::strtoll(v.c_str(), &end, 10);
      if (v.empty() || *end != '\0' || spec.num_items <= 0) return Bad(key, value, expected);
    } else {
      return Bad(key, value, expected);
    }
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return spec;
}

Result<TableProperties> ParseTableProperties(const std::map<std::string, std::string>& config) {
  TableProperties p;
  for (const auto& [key, value] : config) {
    std::string k = Lower(key);
    if (k.starts_with("shoal.localsort.")) {
      RETURN_NOT_OK(ParseLocalSortProperty(k, key, value, &p));
      continue;
    }
    if (k.starts_with("shoal.bloomfilter.")) {
      const std::string column = k.substr(18);
      if (column.empty()) return Bad(key, value, "a column name after shoal.bloomFilter.");
      ASSIGN_OR_RETURN(p.bloom_filters[column], ParseBloomFilterSpec(key, value));
      continue;
    }
    if (!k.starts_with("delta.")) continue;
    if (k.starts_with("delta.constraints.")) {
      std::string name = key.substr(18);
      if (name.empty()) return Bad(key, value, "a constraint name after delta.constraints.");
      if (Trim(value).empty()) return Bad(key, value, "a CHECK expression");
      p.constraints[Lower(name)] = value;
      continue;
    }
    if (k.starts_with("delta.feature.")) {
      std::string v = Lower(Trim(value));
      if (v != "supported" && v != "enabled") return Bad(key, value, "'supported'");
      p.explicit_features.push_back(key.substr(14));
      continue;
    }
    if (k == "delta.appendonly") {
      ASSIGN_OR_RETURN(p.append_only, ParseBool(key, value));
    } else if (k == "delta.enabledeletionvectors") {
      ASSIGN_OR_RETURN(p.enable_deletion_vectors, ParseBool(key, value));
    } else if (k == "delta.enablerowtracking") {
      ASSIGN_OR_RETURN(p.enable_row_tracking, ParseBool(key, value));
    } else if (k == "delta.enablechangedatafeed") {
      ASSIGN_OR_RETURN(p.enable_change_data_feed, ParseBool(key, value));
    } else if (k == "delta.enableincommittimestamps" || k == "delta.enableincommittimestamps-preview") {
      ASSIGN_OR_RETURN(p.enable_in_commit_timestamps, ParseBool(key, value));
    } else if (k == "delta.enabletypewidening") {
      ASSIGN_OR_RETURN(p.enable_type_widening, ParseBool(key, value));
    } else if (k == "delta.columnmapping.mode") {
      std::string v = Lower(Trim(value));
      if (v == "none") p.column_mapping = ColumnMapping::kNone;
      else if (v == "name") p.column_mapping = ColumnMapping::kName;
      else if (v == "id") p.column_mapping = ColumnMapping::kId;
      else return Bad(key, value, "none, name or id");
    } else if (k == "delta.isolationlevel") {
      if (value != "Serializable" && value != "WriteSerializable") {
        return Bad(key, value, "Serializable or WriteSerializable");
      }
      p.isolation_level = value;
    } else if (k == "delta.checkpointpolicy") {
      std::string v = Lower(Trim(value));
      if (v != "classic" && v != "v2") return Bad(key, value, "classic or v2");
      p.checkpoint_policy = v;
    } else if (k == "delta.checkpointinterval") {
      auto n = ParseInt(value);
      if (!n || *n <= 0) return Bad(key, value, "a positive integer");
      p.checkpoint_interval = *n;
    } else if (k == "delta.checkpoint.partsize") {
      auto n = ParseInt(value);
      if (!n || *n <= 0) return Bad(key, value, "a positive integer");
      p.checkpoint_part_size = *n;
    } else if (k == "delta.targetfilesize") {
      auto n = ParseByteSize(value);
      if (!n.ok()) return Bad(key, value, "a positive byte size");
      p.target_file_size = *n;
    } else if (k == "delta.dataskippingnumindexedcols") {
      auto n = ParseInt(value);
      if (!n || *n < -1) return Bad(key, value, "an integer >= -1");
      p.num_indexed_cols = *n;
    } else if (k == "delta.dataskippingstatscolumns") {
      std::vector<std::string> cols;
      std::string_view rest = value;
      while (true) {
        size_t comma = rest.find(',');
        std::string_view part = Trim(rest.substr(0, comma));
        if (part.empty()) return Bad(key, value, "a comma-separated list of column names");
        cols.emplace_back(part);
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
      }
      p.stats_columns = std::move(cols);
    } else if (k == "delta.deletedfileretentionduration") {
      auto ms = ParseIntervalMillis(value);
      if (!ms.ok()) return Bad(key, value, "an interval such as 'interval 7 days'");
      p.deleted_file_retention_ms = *ms;
    } else if (k == "delta.logretentionduration") {
      auto ms = ParseIntervalMillis(value);
      if (!ms.ok()) return Bad(key, value, "an interval such as 'interval 30 days'");
      p.log_retention_ms = *ms;
    } else if (k == "delta.settransactionretentionduration" || k == "delta.checkpointretentionduration") {
      auto ms = ParseIntervalMillis(value);
      if (!ms.ok()) return Bad(key, value, "an interval such as 'interval 2 days'");
    } else if (OtherBooleanKeys().count(k)) {
      RETURN_NOT_OK(ParseBool(key, value).status());
    } else if (!OtherKeys().count(k)) {
      return Status::InvalidArgument("Unknown configuration was specified: " + key);
    }
  }
  return p;
}

Status ValidateLocalSortColumns(const TableProperties& props, const columnar::Schema& schema) {
  std::set<int> seen;
  for (const std::string& name : props.local_sort_columns) {
    int i = schema.Find(name);
    if (i < 0) {
      return Status::InvalidArgument("table property shoal.localSort.columns names column '" + name +
                                     "', which the table does not have");
    }
    if (!seen.insert(i).second) {
      return Status::InvalidArgument("table property shoal.localSort.columns lists column '" + name + "' twice");
    }
    if (!IsSortableType(*schema[i].type)) {
      return Status::InvalidArgument("table property shoal.localSort.columns: cannot sort by column '" + name +
                                     "' of type " + schema[i].type->ToString());
    }
  }
  return Status::OK();
}

Status ValidateBloomFilterColumns(const TableProperties& props, const columnar::Schema& schema) {
  for (const auto& [name, spec] : props.bloom_filters) {
    int i = schema.Find(name);
    if (i < 0) {
      return Status::InvalidArgument("table property shoal.bloomFilter." + name +
                                     " names a column the table does not have");
    }
    const columnar::DataType& type = *schema[i].type;
    if (type.id() == columnar::TypeId::kBoolean || type.IsNested()) {
      return Status::InvalidArgument("table property shoal.bloomFilter." + name + ": no bloom filter for column '" +
                                     schema[i].name + "' of type " + type.ToString());
    }
  }
  return Status::OK();
}

Status ValidateColumnProperties(const delta::Metadata& metadata) {
  ASSIGN_OR_RETURN(TableProperties props, ParseTableProperties(metadata.configuration));
  if (props.local_sort_columns.empty() && props.bloom_filters.empty()) return Status::OK();
  ASSIGN_OR_RETURN(scan::TableSchema schema, scan::BuildTableSchema(metadata));
  RETURN_NOT_OK(ValidateLocalSortColumns(props, schema.schema));
  return ValidateBloomFilterColumns(props, schema.schema);
}

}  // namespace shoal::table
