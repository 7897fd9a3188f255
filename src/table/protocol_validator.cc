#include "table/protocol_validator.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "delta/json_fields.h"
#include "delta/schema_json.h"
#include "delta/stats_json.h"
#include "delta/table_features.h"
#include "delta/table_path.h"
#include "table/delta_schema_writer.h"
#include "table/table_properties.h"

namespace shoal::table {

namespace {

// Row ids of an active file: its baseRowId and, from its stats, its row count.
struct FileRowIds {
  std::optional<int64_t> base_row_id;
  std::optional<int64_t> num_records;
};

struct State {
  std::optional<delta::Protocol> protocol;
  std::optional<delta::Metadata> metadata;
  std::optional<delta::SchemaField> schema;
  std::optional<TableProperties> props;
  int64_t row_id_high_water_mark = -1;      // of the delta.rowTracking domain; -1 before one
  std::map<std::string, FileRowIds> files;  // active adds by path
};

constexpr const char* kRowTrackingDomain = "delta.rowTracking";

// The last row id of a file with row ids; nullopt when unknown, empty, or out of range.
std::optional<int64_t> LastRowId(const FileRowIds& ids) {
  if (!ids.base_row_id || !ids.num_records || *ids.num_records <= 0) return std::nullopt;
  int64_t last = 0;
  if (__builtin_add_overflow(*ids.base_row_id, *ids.num_records - 1, &last)) return std::nullopt;
  return last;
}

class Checker {
 public:
  explicit Checker(std::vector<Violation>* out) : out_(out) {}
  void Fail(int64_t v, std::string m) { out_->push_back({v, std::move(m)}); }

  bool HasFeature(const State& s, std::string_view f, bool reader) const {
    if (!s.protocol) return false;
    return reader ? delta::ProtocolHasReaderFeature(*s.protocol, f) : delta::ProtocolHasWriterFeature(*s.protocol, f);
  }

  void CheckProtocol(int64_t v, const delta::Protocol& p) {
    if (p.min_reader_version < 1 || p.min_reader_version > 3) Fail(v, "protocol minReaderVersion " + std::to_string(p.min_reader_version) + " is not 1..3");
    if (p.min_writer_version < 1 || p.min_writer_version > 7) Fail(v, "protocol minWriterVersion " + std::to_string(p.min_writer_version) + " is not 1..7");
    if ((p.min_reader_version == 3) != p.reader_features.has_value()) Fail(v, "protocol readerFeatures must be present exactly when minReaderVersion is 3");
    if ((p.min_writer_version == 7) != p.writer_features.has_value()) Fail(v, "protocol writerFeatures must be present exactly when minWriterVersion is 7");
    if (p.min_reader_version == 3 && p.min_writer_version != 7) Fail(v, "protocol minReaderVersion 3 requires minWriterVersion 7");
    if (p.reader_features && p.writer_features) {
      for (const auto& f : *p.reader_features) {
        if (std::find(p.writer_features->begin(), p.writer_features->end(), f) == p.writer_features->end()) {
          Fail(v, "reader feature " + f + " is not also listed in writerFeatures");
        }
        const delta::TableFeature* tf = delta::FindTableFeature(f);
        if (tf && !tf->reader_writer) Fail(v, "writer-only feature " + f + " is listed in readerFeatures");
      }
      for (const auto& f : *p.writer_features) {
        const delta::TableFeature* tf = delta::FindTableFeature(f);
        if (tf && tf->reader_writer &&
            std::find(p.reader_features->begin(), p.reader_features->end(), f) == p.reader_features->end()) {
          Fail(v, "reader-writer feature " + f + " is missing from readerFeatures");
        }
      }
    }
  }

  void Need(int64_t v, const State& s, std::string_view feature, bool reader_writer, const std::string& why) {
    if (!HasFeature(s, feature, false) || (reader_writer && !HasFeature(s, feature, true))) {
      Fail(v, why + " but the protocol does not support table feature " + std::string(feature));
    }
  }

  void CheckMetadata(int64_t v, State& s) {
    const delta::Metadata& m = *s.metadata;
    if (m.id.empty()) Fail(v, "metaData.id is empty");
    if (m.format.provider != "parquet") Fail(v, "metaData.format.provider is " + m.format.provider + ", not parquet");
    auto schema = delta::ParseSchemaJson(m.schema_string);
    if (!schema.ok()) {
      Fail(v, "metaData.schemaString: " + schema.status().message());
      s.schema.reset();
    } else {
      s.schema = *schema;
    }
    auto props = ParseTableProperties(m.configuration);
    if (!props.ok()) {
      Fail(v, "metaData.configuration: " + props.status().message());
      s.props.reset();
    } else {
      s.props = *props;
    }
    if (s.schema) {
      for (const auto& pc : m.partition_columns) {
        if (!delta::FindField(*s.schema, {pc})) Fail(v, "partition column " + pc + " is not in the schema");
      }
      if (SchemaUsesTimestampNtz(*s.schema)) Need(v, s, "timestampNtz", true, "a timestamp_ntz column exists");
      if (SchemaUsesIdentity(*s.schema)) Need(v, s, "identityColumns", false, "an identity column exists");
      if (SchemaUsesGeneratedColumns(*s.schema)) Need(v, s, "generatedColumns", false, "a generated column exists");
      if (SchemaUsesColumnDefaults(*s.schema)) Need(v, s, "allowColumnDefaults", false, "a column default exists");
    }
    if (s.props) {
      const TableProperties& p = *s.props;
      if (p.append_only) Need(v, s, "appendOnly", false, "delta.appendOnly is true");
      if (p.enable_deletion_vectors) Need(v, s, "deletionVectors", true, "delta.enableDeletionVectors is true");
      if (!p.constraints.empty()) Need(v, s, "checkConstraints", false, "CHECK constraints exist");
      if (p.enable_row_tracking) {
        Need(v, s, "rowTracking", false, "delta.enableRowTracking is true");
        Need(v, s, "domainMetadata", false, "row tracking is on");
      }
      if (p.enable_change_data_feed) Need(v, s, "changeDataFeed", false, "delta.enableChangeDataFeed is true");
      if (p.enable_in_commit_timestamps) Need(v, s, "inCommitTimestamp", false, "delta.enableInCommitTimestamps is true");
      if (p.checkpoint_policy == "v2") Need(v, s, "v2Checkpoint", true, "delta.checkpointPolicy is v2");
      if (p.column_mapping != ColumnMapping::kNone) {
        Need(v, s, "columnMapping", true, "delta.columnMapping.mode is name/id");
        if (s.schema) CheckColumnMapping(v, *s.schema, m);
      }
    }
  }

  void CheckColumnMapping(int64_t v, const delta::SchemaField& root, const delta::Metadata& m) {
    int64_t max_id = 0;
    std::set<int64_t> ids;
    std::set<std::string> names;
    std::function<void(const delta::SchemaField&, const std::string&)> walk = [&](const delta::SchemaField& node,
                                                                              const std::string& path) {
      for (const auto& c : node.children) {
        std::string p = path.empty() ? c.name : path + "." + c.name;
        if (node.IsStruct()) {
          auto id = c.ColumnMappingId();
          auto phys = c.PhysicalName();
          if (!id) Fail(v, "column " + p + " has no delta.columnMapping.id");
          else if (!ids.insert(*id).second) Fail(v, "column mapping id " + std::to_string(*id) + " is used twice");
          else max_id = std::max(max_id, *id);
          if (!phys) Fail(v, "column " + p + " has no delta.columnMapping.physicalName");
          else if (!names.insert(path + "/" + *phys).second) Fail(v, "physical name " + *phys + " is used twice");
        }
        walk(c, p);
      }
    };
    walk(root, "");
    auto it = m.configuration.find("delta.columnMapping.maxColumnId");
    if (it == m.configuration.end()) {
      Fail(v, "column mapping is on but delta.columnMapping.maxColumnId is missing");
    } else if (int64_t stored = 0;
               std::from_chars(it->second.data(), it->second.data() + it->second.size(), stored).ec != std::errc() ||
               stored < max_id) {
      Fail(v, "delta.columnMapping.maxColumnId " + it->second + " is below the largest id " + std::to_string(max_id));
    }
  }

  bool Mapped(const State& s) const { return s.props && s.props->column_mapping != ColumnMapping::kNone; }

  // Physical (or logical) name of a top-level column.
  std::string KeyName(const State& s, const std::string& logical) const {
    if (!s.schema) return logical;
    const delta::SchemaField* f = delta::FindField(*s.schema, {logical});
    if (f && Mapped(s) && f->PhysicalName()) return *f->PhysicalName();
    return logical;
  }

  void CheckPath(int64_t v, const std::string& kind, const std::string& path) {
    if (path.empty()) {
      Fail(v, kind + " has an empty path");
      return;
    }
    if (path.find("://") != std::string::npos || path.starts_with("file:") || path.front() == '/') {
      Fail(v, kind + " path " + path + " is not relative to the table root");
      return;
    }
    auto decoded = delta::PercentDecode(path);
    if (!decoded.ok()) {
      Fail(v, kind + " path " + path + ": " + decoded.status().message());
      return;
    }
    if (!delta::NormalizePathNoDotDot(*decoded).ok()) Fail(v, kind + " path " + path + " leaves the table root");
  }

  // A stats column path must name a (physical) field chain in the schema.
  bool PathInSchema(const State& s, const delta::ColumnPath& p) const {
    const delta::SchemaField* node = &*s.schema;
    for (const auto& name : p) {
      const delta::SchemaField* next = nullptr;
      if (!node->IsStruct()) return false;
      for (const auto& c : node->children) {
        std::string n = Mapped(s) && c.PhysicalName() ? *c.PhysicalName() : c.name;
        if (n == name) next = &c;
      }
      if (!next) return false;
      node = next;
    }
    return true;
  }

  void CheckAdd(int64_t v, const State& s, const delta::AddFile& a) {
    CheckPath(v, "add", a.path);
    if (a.size < 0) Fail(v, "add " + a.path + " has negative size");
    if (a.deletion_vector) Need(v, s, "deletionVectors", true, "add " + a.path + " has a deletion vector");
    if (a.base_row_id || a.default_row_commit_version) Need(v, s, "rowTracking", false, "add " + a.path + " has row tracking fields");
    CheckAddRowIds(v, s, a);
    if (!s.metadata) return;
    std::set<std::string> want;
    for (const auto& pc : s.metadata->partition_columns) want.insert(KeyName(s, pc));
    std::set<std::string> have;
    for (const auto& [k, _] : a.partition_values) have.insert(k);
    for (const auto& w : want) {
      if (!have.count(w)) Fail(v, "add " + a.path + " has no partition value for partition column " + w);
    }
    for (const auto& h : have) {
      if (!want.count(h)) Fail(v, "add " + a.path + " has a partition value for non-partition column " + h);
    }
    if (a.stats && s.schema) {
      auto st = delta::ParseStatsJson(*a.stats);
      if (!st.ok()) {
        Fail(v, "add " + a.path + " stats: " + st.status().message());
        return;
      }
      auto check_keys = [&](const auto& m, const char* what) {
        for (const auto& [p, _] : m) {
          if (!PathInSchema(s, p)) {
            std::string dotted;
            for (const auto& x : p) dotted += (dotted.empty() ? "" : ".") + x;
            Fail(v, "add " + a.path + " stats " + what + " names unknown column " + dotted);
          }
        }
      };
      check_keys(st->min_values, "minValues");
      check_keys(st->max_values, "maxValues");
      check_keys(st->null_count, "nullCount");
      if (st->num_records && *st->num_records < 0) Fail(v, "add " + a.path + " stats numRecords is negative");
      for (const auto& [p, n] : st->null_count) {
        if (n < 0 || (st->num_records && n > *st->num_records)) Fail(v, "add " + a.path + " stats nullCount out of range");
      }
    }
  }

  // Row tracking is supported and not suspended: writers must give every add row ids.
  bool RowIdsRequired(const State& s) const {
    if (!HasFeature(s, "rowTracking", false) || !s.metadata) return false;
    auto it = s.metadata->configuration.find("delta.rowTrackingSuspended");
    return it == s.metadata->configuration.end() || it->second != "true";
  }
  bool RowTrackingEnabled(const State& s) const {
    return HasFeature(s, "rowTracking", false) && s.props && s.props->enable_row_tracking;
  }

  void CheckAddRowIds(int64_t v, const State& s, const delta::AddFile& a) {
    if (!RowIdsRequired(s)) return;
    if (!a.base_row_id) {
      Fail(v, "row tracking: add " + a.path + " has no baseRowId but the protocol supports rowTracking");
    } else if (*a.base_row_id < 0) {
      Fail(v, "row tracking: add " + a.path + " has negative baseRowId " + std::to_string(*a.base_row_id));
    }
    if (!a.default_row_commit_version) {
      Fail(v, "row tracking: add " + a.path + " has no defaultRowCommitVersion but the protocol supports rowTracking");
    } else if (*a.default_row_commit_version < 0 || *a.default_row_commit_version > v) {
      Fail(v, "row tracking: add " + a.path + " has defaultRowCommitVersion " +
                  std::to_string(*a.default_row_commit_version) + " outside 0.." + std::to_string(v));
    }
  }

  void ApplyRowTrackingDomain(int64_t v, State& s, const delta::DomainMetadata& d) {
    if (d.domain != kRowTrackingDomain || d.removed) return;
    delta::Json j = delta::Json::parse(d.configuration, nullptr, false);
    auto it = j.is_object() ? j.find("rowIdHighWaterMark") : j.end();
    if (!j.is_object() || it == j.end() || !it->is_number_integer()) {
      Fail(v, "row tracking: domain delta.rowTracking has no integer rowIdHighWaterMark: " + d.configuration);
      return;
    }
    int64_t hwm = it->get<int64_t>();
    if (hwm < s.row_id_high_water_mark) {
      Fail(v, "row tracking: rowIdHighWaterMark moves back from " + std::to_string(s.row_id_high_water_mark) +
                  " to " + std::to_string(hwm));
    }
    s.row_id_high_water_mark = std::max(s.row_id_high_water_mark, hwm);
  }

  // After commit v: the commit's fresh row ids are below the high-water mark, every active file has
  // row ids when row tracking is enabled, and no two active files share a row id.
  void CheckRowIdsAfterCommit(int64_t v, const State& s, const std::vector<const delta::AddFile*>& adds) {
    if (!RowIdsRequired(s)) return;
    for (const delta::AddFile* a : adds) {
      if (a->default_row_commit_version != v) continue;  // ids assigned earlier (e.g. a DV re-add)
      auto it = s.files.find(a->path);
      std::optional<int64_t> last = it == s.files.end() ? std::nullopt : LastRowId(it->second);
      if (last && *last > s.row_id_high_water_mark) {
        Fail(v, "row tracking: add " + a->path + " uses row id " + std::to_string(*last) +
                    " above the delta.rowTracking rowIdHighWaterMark " + std::to_string(s.row_id_high_water_mark));
      }
    }
    struct Range {
      int64_t first, last;
      const std::string* path;
    };
    std::vector<Range> ranges;
    for (const auto& [path, ids] : s.files) {
      if (!ids.base_row_id) {
        if (RowTrackingEnabled(s)) Fail(v, "row tracking: enabled but active file " + path + " has no baseRowId");
        continue;
      }
      if (auto last = LastRowId(ids)) ranges.push_back({*ids.base_row_id, *last, &path});
    }
    std::sort(ranges.begin(), ranges.end(), [](const Range& a, const Range& b) { return a.first < b.first; });
    for (size_t i = 1; i < ranges.size(); ++i) {
      if (ranges[i].first <= ranges[i - 1].last) {
        Fail(v, "row tracking: row ids of active files " + *ranges[i - 1].path + " and " + *ranges[i].path +
                    " overlap");
      }
    }
  }

  void CheckCommitInfo(int64_t v, const delta::CommitInfo& ci) {
    const auto& j = ci.json;
    auto typed = [&](const char* key, auto pred, const char* type) {
      auto it = j.find(key);
      if (it != j.end() && !it->is_null() && !pred(*it)) Fail(v, std::string("commitInfo.") + key + " is not " + type);
    };
    typed("timestamp", [](const delta::Json& x) { return x.is_number_integer(); }, "an integer");
    typed("inCommitTimestamp", [](const delta::Json& x) { return x.is_number_integer(); }, "an integer");
    typed("readVersion", [](const delta::Json& x) { return x.is_number_integer(); }, "an integer");
    typed("operation", [](const delta::Json& x) { return x.is_string(); }, "a string");
    typed("isolationLevel", [](const delta::Json& x) { return x.is_string(); }, "a string");
    typed("isBlindAppend", [](const delta::Json& x) { return x.is_boolean(); }, "a boolean");
    typed("operationParameters", [](const delta::Json& x) { return x.is_object(); }, "an object");
    typed("operationMetrics", [](const delta::Json& x) { return x.is_object(); }, "an object");
  }

 private:
  std::vector<Violation>* out_;
};

}  // namespace

std::vector<Violation> ValidateCommits(const std::vector<CommitText>& commits) {
  std::vector<Violation> out;
  Checker c(&out);
  State s;
  if (commits.empty()) {
    c.Fail(-1, "the log has no commits");
    return out;
  }
  for (size_t i = 0; i < commits.size(); ++i) {
    const int64_t v = commits[i].version;
    if (i > 0 && v != commits[i - 1].version + 1) {
      c.Fail(v, "commit versions are not contiguous: " + std::to_string(commits[i - 1].version) + " then " + std::to_string(v));
    }
    auto parsed = delta::ParseCommitFile(commits[i].text, std::to_string(v) + ".json");
    if (!parsed.ok()) {
      c.Fail(v, parsed.status().message());
      continue;
    }
    const auto& actions = *parsed;
    int n_protocol = 0, n_meta = 0, n_ci = 0;
    for (const auto& a : actions) {
      if (std::holds_alternative<delta::Protocol>(a)) ++n_protocol;
      if (std::holds_alternative<delta::Metadata>(a)) ++n_meta;
      if (std::holds_alternative<delta::CommitInfo>(a)) ++n_ci;
    }
    if (n_protocol > 1) c.Fail(v, "more than one protocol action");
    if (n_meta > 1) c.Fail(v, "more than one metaData action");
    if (n_ci > 1) c.Fail(v, "more than one commitInfo action");
    if (i == 0 && v == 0 && (n_protocol == 0 || n_meta == 0)) c.Fail(v, "version 0 needs a protocol and a metaData action");
    // Protocol and metadata first (they govern the other actions of the same commit).
    for (const auto& a : actions) {
      if (auto* p = std::get_if<delta::Protocol>(&a)) {
        c.CheckProtocol(v, *p);
        s.protocol = *p;
      }
    }
    for (const auto& a : actions) {
      if (auto* m = std::get_if<delta::Metadata>(&a)) {
        s.metadata = *m;
        c.CheckMetadata(v, s);
      }
    }
    if (!s.protocol || !s.metadata) {
      c.Fail(v, "no protocol or metaData action precedes this commit");
      continue;
    }
    if (s.props && s.props->enable_in_commit_timestamps) {
      auto* ci = actions.empty() ? nullptr : std::get_if<delta::CommitInfo>(&actions.front());
      if (!ci || !ci->InCommitTimestamp()) c.Fail(v, "in-commit timestamps are on but the first action is not a commitInfo with inCommitTimestamp");
    }
    for (const auto& a : actions) {
      if (auto* d = std::get_if<delta::DomainMetadata>(&a)) c.ApplyRowTrackingDomain(v, s, *d);
    }
    std::vector<const delta::AddFile*> adds;
    for (const auto& a : actions) {
      if (auto* rm = std::get_if<delta::RemoveFile>(&a)) s.files.erase(rm->path);
    }
    for (const auto& a : actions) {
      if (auto* add = std::get_if<delta::AddFile>(&a)) {
        FileRowIds ids;
        ids.base_row_id = add->base_row_id;
        if (add->stats) {
          auto st = delta::ParseStatsJson(*add->stats);
          if (st.ok()) ids.num_records = st->num_records;
        }
        s.files[add->path] = ids;
        adds.push_back(add);
      }
    }
    for (const auto& a : actions) {
      if (auto* add = std::get_if<delta::AddFile>(&a)) {
        c.CheckAdd(v, s, *add);
      } else if (auto* rm = std::get_if<delta::RemoveFile>(&a)) {
        c.CheckPath(v, "remove", rm->path);
        if (rm->deletion_vector) c.Need(v, s, "deletionVectors", true, "remove " + rm->path + " has a deletion vector");
      } else if (auto* cdc = std::get_if<delta::AddCdcFile>(&a)) {
        c.CheckPath(v, "cdc", cdc->path);
        // PROTOCOL.md "Add CDC File": change data files never count as a data change, and
        // belong to tables with the change data feed.
        if (cdc->data_change) c.Fail(v, "cdc " + cdc->path + " has dataChange = true");
        c.Need(v, s, "changeDataFeed", false, "cdc " + cdc->path + " is a change data file");
      } else if (std::holds_alternative<delta::DomainMetadata>(a)) {
        c.Need(v, s, "domainMetadata", false, "a domainMetadata action exists");
      } else if (auto* ci = std::get_if<delta::CommitInfo>(&a)) {
        c.CheckCommitInfo(v, *ci);
      } else if (std::holds_alternative<delta::CheckpointMetadata>(a) || std::holds_alternative<delta::Sidecar>(a)) {
        c.Fail(v, std::string(delta::ActionKindName(a)) + " actions belong in checkpoints, not commits");
      }
    }
    c.CheckRowIdsAfterCommit(v, s, adds);
  }
  return out;
}

Result<std::vector<Violation>> ValidateTableLog(io::FileSystem& fs, const std::string& table_root) {
  std::string log_dir = io::JoinPath(table_root, "_delta_log");
  ASSIGN_OR_RETURN(auto entries, fs.List(log_dir));
  std::vector<CommitText> commits;
  for (const auto& e : entries) {
    if (e.is_dir || e.name.size() != 25 || !e.name.ends_with(".json")) continue;
    std::string digits = e.name.substr(0, 20);
    if (!std::all_of(digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) continue;
    CommitText ct;
    std::from_chars(digits.data(), digits.data() + digits.size(), ct.version);
    ASSIGN_OR_RETURN(ct.text, fs.ReadAll(io::JoinPath(log_dir, e.name)));
    commits.push_back(std::move(ct));
  }
  std::sort(commits.begin(), commits.end(), [](const CommitText& a, const CommitText& b) { return a.version < b.version; });
  return ValidateCommits(commits);
}

std::string FormatViolations(const std::vector<Violation>& violations) {
  std::string out;
  for (const auto& v : violations) {
    out += 'v';
    out += std::to_string(v.version);
    out += ": ";
    out += v.message;
    out += '\n';
  }
  return out;
}

}  // namespace shoal::table
