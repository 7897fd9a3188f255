// Session handlers for SET, RESET and SHOW of settings: the known keys, how each value is
// validated and stored, memory_limit and temp_directory, which are the database's (its
// MemoryTracker and SpillManager), not the connection's, and the s3_* settings, which are the process's (s3_settings.h).
#include <algorithm>
#include <cctype>
#include <charconv>

#include "base/byte_size.h"
#include "base/memory_tracker.h"
#include "columnar/time_zone.h"
#include "sql/session/database_impl.h"
#include "sql/session/maintenance_result.h"
#include "sql/session/s3_settings.h"
#include "sql/session/session.h"

namespace shoal::sql {

namespace {

constexpr char kMemoryLimit[] = "memory_limit";
constexpr char kTempDirectory[] = "temp_directory";

// A connection setting: its key as documented, what SHOW prints when it is not set (null: NULL)
// and the check that turns a SET value into the stored one.
struct SettingDef {
  const char* name;
  const char* unset;
  Result<std::string> (*normalize)(const std::string& key, const std::string& value);
};

Result<std::string> OnOff(const std::string& key, const std::string& value) {
  std::string v = Lower(value);
  if (v == "true") v = "on";
  if (v == "false") v = "off";
  if (v != "on" && v != "off") {
    return Status::InvalidArgument("SET " + key + ": expected 'on' or 'off', got '" + value + "'");
  }
  return v;
}

Result<std::string> TrueFalse(const std::string& key, const std::string& value) {
  std::string v = Lower(value);
  if (v == "true" || v == "on" || v == "1") return std::string("true");
  if (v == "false" || v == "off" || v == "0") return std::string("false");
  return Status::InvalidArgument("SET " + key + ": expected true or false, got '" + value + "'");
}

Result<std::string> Prewhere(const std::string&, const std::string& value) {
  RETURN_NOT_OK(ParsePrewhereMode(value).status());
  return Lower(value);
}

Result<std::string> NonEmpty(const std::string& key, const std::string& value) {
  if (value.empty()) return Status::InvalidArgument("SET " + key + ": expected a non-empty string");
  return value;
}

Result<std::string> Version(const std::string& key, const std::string& value) {
  int64_t v = -1;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
  if (ec != std::errc() || end != value.data() + value.size() || v < 0) {
    return Status::InvalidArgument("SET " + key + ": expected a non-negative integer, got '" +
                                   value + "'");
  }
  return value;
}

// A zone columnar::FindTimeZone knows, stored as its ID ("+08:00" for "+8").
Result<std::string> TimeZoneName(const std::string& key, const std::string& value) {
  auto zone = columnar::FindTimeZone(value);
  if (!zone.ok()) return zone.status().WithContext("SET " + key);
  return (*zone)->name();
}

const std::vector<SettingDef>& ConnectionSettings() {
  static const std::vector<SettingDef> defs = {
      {"shoal.coded_strings", "on", &OnOff},
      {"shoal.join_order", "on", &OnOff},       {"shoal.optimizer", "on", &OnOff},
      {"shoal.prewhere", "auto", &Prewhere},
      {"shoal.runtime_filters", "on", &OnOff},  {"shoal.sql.doubleQuotedIdentifiers", "false", &TrueFalse},
      {"shoal.txn.appId", nullptr, &NonEmpty},
      {"shoal.txn.version", nullptr, &Version}, {"shoal.vacuum.retentionCheck", "true", &TrueFalse},
      {"enable_progress_bar", "true", &TrueFalse},  // DatabaseOptions::progress is called
      {kSessionTimeZoneKey, nullptr, &TimeZoneName},  // unset: the database's default zone
  };
  return defs;
}

// The definition of lower-case `key`, or null when it is not a connection setting.
const SettingDef* FindSetting(const std::string& key) {
  for (const auto& d : ConnectionSettings()) {
    if (Lower(d.name) == key) return &d;
  }
  return nullptr;
}

Status UnknownSetting(const std::string& key) {
  std::string known;
  for (const auto& k : KnownSettings()) known += (known.empty() ? "" : ", ") + k;
  return Status::Catalog("unrecognized configuration parameter \"" + key + "\" (known: " + known +
                         ")");
}

}  // namespace

Result<PrewhereMode> ParsePrewhereMode(const std::string& value) {
  std::string v = Lower(value);
  if (v == "auto") return PrewhereMode::kAuto;
  if (v == "on" || v == "true") return PrewhereMode::kOn;
  if (v == "off" || v == "false") return PrewhereMode::kOff;
  return Status::InvalidArgument("SET shoal.prewhere: expected 'on', 'off' or 'auto', got '" +
                                 value + "'");
}

const columnar::TimeZone* Session::time_zone() const {
  if (auto name = Setting(Lower(kSessionTimeZoneKey))) {
    auto zone = columnar::FindTimeZone(*name);  // validated by SET, cached since
    if (zone.ok()) return *zone;
  }
  return db_->default_time_zone;
}

LexOptions Session::lex_options() const {
  LexOptions options;
  auto quoted = Setting("shoal.sql.doublequotedidentifiers");
  options.double_quoted_identifiers = quoted && *quoted == "true";
  return options;
}

std::vector<std::string> KnownSettings() {
  std::vector<std::string> keys{kMemoryLimit, kTempDirectory};
  for (const auto& d : ConnectionSettings()) keys.emplace_back(d.name);
  for (const auto& k : S3SettingNames()) keys.push_back(k);
  return keys;
}

Result<QueryResult> Session::RunSet(const Statement& s) {
  const auto& set = s.As<SetStatement>();
  const std::string key = Lower(set.key);
  if (key == kMemoryLimit) {
    auto bytes = ParseByteSize(set.value.text);
    if (!bytes.ok()) return bytes.status().WithContext("SET memory_limit");
    if (*bytes <= 0)
      return Status::InvalidArgument("SET memory_limit: the limit must be at least 1 byte");
    db_->memory->set_limit(*bytes);
    return QueryResult();
  }
  if (key == kTempDirectory) {
    RETURN_NOT_OK(db_->spill->SetDirectory(set.value.text));
    return QueryResult();
  }
  if (IsS3Setting(key)) {
    RETURN_NOT_OK(SetS3Setting(*db_->fs, key, set.value.text));
    return QueryResult();
  }
  const SettingDef* def = FindSetting(key);
  if (!def) return UnknownSetting(set.key);
  ASSIGN_OR_RETURN(std::string value, def->normalize(def->name, set.value.text));
  settings_[key] = std::move(value);
  return QueryResult();
}

Result<QueryResult> Session::RunReset(const Statement& s) {
  const auto& reset = s.As<ResetStatement>();
  const std::string key = Lower(reset.key);
  if (key.empty() || key == "all") {
    settings_.clear();  // the connection's own; memory_limit is reset by name only
  } else if (key == kMemoryLimit) {
    db_->memory->set_limit(db_->default_memory_limit);
  } else if (key == kTempDirectory) {
    db_->spill->ResetDirectory();
  } else if (IsS3Setting(key)) {
    RETURN_NOT_OK(ResetS3Setting(*db_->fs, key));
  } else if (FindSetting(key)) {
    settings_.erase(key);
  } else {
    return UnknownSetting(reset.key);
  }
  return QueryResult();
}

Result<QueryResult> Session::RunShowSetting(const Statement& s) {
  const auto& show = s.As<ShowSettingStatement>();
  const std::string key = Lower(show.key);
  ResultRows rows;
  if (key == kMemoryLimit) {
    rows.AddColumn(kMemoryLimit, columnar::String());
    rows.AddRow({columnar::Value::String(FormatByteSize(db_->memory->limit()))});
    return rows.Build();
  }
  if (key == kTempDirectory) {
    rows.AddColumn(kTempDirectory, columnar::String());
    rows.AddRow({columnar::Value::String(db_->spill->directory())});
    return rows.Build();
  }
  if (IsS3Setting(key)) {
    ASSIGN_OR_RETURN(std::string value, ShowS3Setting(*db_->fs, key));
    rows.AddColumn(key, columnar::String());
    rows.AddRow({columnar::Value::String(value)});
    return rows.Build();
  }
  const SettingDef* def = FindSetting(key);
  if (!def) return UnknownSetting(show.key);
  rows.AddColumn(def->name, columnar::String());
  auto value = Setting(key);
  if (key == Lower(kSessionTimeZoneKey)) value = time_zone()->name();
  if (value) {
    rows.AddRow({columnar::Value::String(*value)});
  } else if (def->unset) {
    rows.AddRow({columnar::Value::String(def->unset)});
  } else {
    rows.AddRow({columnar::Value::Null(columnar::String())});
  }
  return rows.Build();
}

}  // namespace shoal::sql
