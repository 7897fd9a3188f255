#include "table/query_log.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <map>
#include <random>
#include <set>

#include "delta/json_fields.h"


namespace shoal::table {

namespace {

constexpr size_t kMaxLogFileBytes = 1 << 20;  // a summary is ~100 bytes per shape; entries < 1 KiB
constexpr size_t kMaxTerms = 32;

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

char OpChar(PredicateClass c) {
  switch (c) {
    case PredicateClass::kEq: return '=';
    case PredicateClass::kRange: return '<';
    case PredicateClass::kIsNull: return 'N';
    case PredicateClass::kPrefix: return '^';
  }
  return '?';
}

bool OpFromChar(char ch, PredicateClass* out) {
  switch (ch) {
    case '=': *out = PredicateClass::kEq; return true;
    case '<': *out = PredicateClass::kRange; return true;
    case 'N': *out = PredicateClass::kIsNull; return true;
    case '^': *out = PredicateClass::kPrefix; return true;
    default: return false;
  }
}

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string JoinPath(const std::string& dir, const std::string& name) {
  return !dir.empty() && dir.back() == '/' ? dir + name : dir + "/" + name;
}

delta::Json ShapeToJson(const QueryShape& s) {
  delta::Json terms = delta::Json::array();
  for (const ShapeTerm& t : s.terms) terms.push_back(delta::Json::array({t.column, std::string(1, OpChar(t.op))}));
  return terms;
}

Result<QueryShape> ShapeFromJson(const delta::Json& j) {
  if (!j.is_array() || j.size() > kMaxTerms) return Status::Corruption("query log: shape is not a short array");
  QueryShape s;
  for (const auto& t : j) {
    if (!t.is_array() || t.size() != 2 || !t[0].is_string() || !t[1].is_string()) {
      return Status::Corruption("query log: shape term is not [column, op]");
    }
    std::string op = t[1].get<std::string>();
    ShapeTerm term;
    term.column = t[0].get<std::string>();
    if (op.size() != 1 || !OpFromChar(op[0], &term.op) || term.column.empty()) {
      return Status::Corruption("query log: bad shape term op '" + op + "'");
    }
    s.terms.push_back(std::move(term));
  }
  s.Normalize();
  return s;
}

double NumberOr(const delta::Json& j, const char* key, double dflt) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return dflt;
  return it->get<double>();
}

struct SummaryFile {
  int64_t seq = -1;
  std::string name;
};

bool ParseSummaryName(const std::string& name, int64_t* seq) {
  // summary-<seq>.json
  if (!name.starts_with("summary-") || !name.ends_with(".json")) return false;
  std::string digits = name.substr(8, name.size() - 8 - 5);
  if (digits.empty() || digits.size() > 18) return false;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  *seq = std::stoll(digits);
  return true;
}

bool IsEntryName(const std::string& name) { return name.starts_with("e-") && name.ends_with(".json"); }

// What is in the log directory right now.
struct LogListing {
  SummaryFile newest;
  std::vector<std::string> summaries;  // every summary file name
  std::vector<std::string> entries;    // entry file names, sorted
};

Result<LogListing> ListLog(io::FileSystem& fs, const std::string& dir) {
  LogListing out;
  ASSIGN_OR_RETURN(bool exists, fs.Exists(dir));
  if (!exists) return out;
  ASSIGN_OR_RETURN(std::vector<io::FileInfo> files, fs.List(dir));
  for (const io::FileInfo& f : files) {
    if (f.is_dir) continue;
    int64_t seq = 0;
    if (ParseSummaryName(f.name, &seq)) {
      out.summaries.push_back(f.name);
      if (seq > out.newest.seq) out.newest = {seq, f.name};
    } else if (IsEntryName(f.name)) {
      out.entries.push_back(f.name);
    }
  }
  std::sort(out.entries.begin(), out.entries.end());
  return out;
}

Result<std::string> ReadSmallFile(io::FileSystem& fs, const std::string& path) {
  ASSIGN_OR_RETURN(io::FileInfo info, fs.Stat(path));
  if (info.size < 0 || static_cast<size_t>(info.size) > kMaxLogFileBytes) {
    return Status::Corruption("query log file " + path + " is larger than " + std::to_string(kMaxLogFileBytes) +
                              " bytes");
  }
  return fs.ReadAll(path);
}

// A summary: the history and the entry files it folded.
struct Summary {
  QueryHistory history;
  std::set<std::string> folded;
};

Result<Summary> ParseSummary(std::string_view text) {
  delta::Json j = delta::Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Status::Corruption("query log summary is not a JSON object");
  Summary s;
  s.history.recorded = static_cast<int64_t>(NumberOr(j, "recorded", 0));
  auto shapes = j.find("shapes");
  if (shapes != j.end() && shapes->is_array()) {
    for (const auto& sj : *shapes) {
      if (!sj.is_object() || !sj.contains("shape")) continue;
      auto shape = ShapeFromJson(sj["shape"]);
      if (!shape.ok()) continue;
      ShapeHistory h;
      h.shape = std::move(*shape);
      h.count = NumberOr(sj, "count", 0);
      h.sum_selectivity = NumberOr(sj, "sumSelectivity", 0);
      h.sum_bytes_read = NumberOr(sj, "sumBytesRead", 0);
      h.last_ms = static_cast<int64_t>(NumberOr(sj, "lastMs", 0));
      if (!(h.count > 0) || !(h.sum_selectivity >= 0) || !(h.sum_bytes_read >= 0)) continue;
      h.sum_selectivity = std::min(h.sum_selectivity, h.count);
      s.history.Merge(h);
    }
  }
  auto folded = j.find("folded");
  if (folded != j.end() && folded->is_array()) {
    for (const auto& f : *folded) {
      if (f.is_string()) s.folded.insert(f.get<std::string>());
    }
  }
  return s;
}

std::string SummaryToJson(const QueryHistory& h, const std::vector<std::string>& folded) {
  delta::Json j = delta::Json::object();
  j["recorded"] = h.recorded;
  delta::Json shapes = delta::Json::array();
  for (const ShapeHistory& s : h.shapes) {
    delta::Json sj = delta::Json::object();
    sj["shape"] = ShapeToJson(s.shape);
    sj["count"] = s.count;
    sj["sumSelectivity"] = s.sum_selectivity;
    sj["sumBytesRead"] = s.sum_bytes_read;
    sj["lastMs"] = s.last_ms;
    shapes.push_back(std::move(sj));
  }
  j["shapes"] = std::move(shapes);
  j["folded"] = folded;
  return delta::JsonText(j);
}

// The history in `listing`; `folded_out` gets the entry files that were merged.
QueryHistory LoadHistory(io::FileSystem& fs, const std::string& dir, const LogListing& listing,
                         const QueryLogLimits& limits, std::vector<std::string>* folded_out,
                         std::set<std::string>* previously_folded) {
  QueryHistory h;
  std::set<std::string> skip;
  if (listing.newest.seq >= 0) {
    auto text = ReadSmallFile(fs, JoinPath(dir, listing.newest.name));
    if (text.ok()) {
      auto s = ParseSummary(*text);
      if (s.ok()) {
        h = std::move(s->history);
        skip = std::move(s->folded);
      }
    }
  }
  for (const std::string& name : listing.entries) {
    if (skip.count(name)) {
      if (previously_folded) previously_folded->insert(name);
      continue;
    }
    auto text = ReadSmallFile(fs, JoinPath(dir, name));
    if (!text.ok()) continue;
    auto e = EntryFromJson(*text);
    if (!e.ok()) {
      // Torn or garbage: fold it away (it is deleted with the folded entries) once it is old
      // enough that its writer cannot still be writing it.
      if (folded_out) {
        auto info = fs.Stat(JoinPath(dir, name));
        if (info.ok() && info->mtime_ms < NowMs() - 60'000) folded_out->push_back(name);
      }
      continue;
    }
    h.Add(*e);
    if (folded_out) folded_out->push_back(name);
  }
  h.Bound(limits.max_shapes, limits.decay_after);
  return h;
}

std::atomic<uint64_t> g_append_counter{0};

}  // namespace

const char* PredicateClassName(PredicateClass c) {
  switch (c) {
    case PredicateClass::kEq: return "eq";
    case PredicateClass::kRange: return "range";
    case PredicateClass::kIsNull: return "is null";
    case PredicateClass::kPrefix: return "prefix";
  }
  return "?";
}

void QueryShape::Normalize() {
  std::sort(terms.begin(), terms.end(), [](const ShapeTerm& a, const ShapeTerm& b) {
    std::string la = Lower(a.column), lb = Lower(b.column);
    return la != lb ? la < lb : a.op < b.op;
  });
  terms.erase(std::unique(terms.begin(), terms.end(),
                          [](const ShapeTerm& a, const ShapeTerm& b) {
                            return a.op == b.op && Lower(a.column) == Lower(b.column);
                          }),
              terms.end());
}

std::string QueryShape::Key() const {
  std::string k;
  for (const ShapeTerm& t : terms) {
    if (!k.empty()) k += ',';
    k += Lower(t.column);
    k += OpChar(t.op);
  }
  return k;
}

void QueryHistory::Merge(const ShapeHistory& s) {
  std::string key = s.shape.Key();
  for (ShapeHistory& h : shapes) {
    if (h.shape.Key() != key) continue;
    h.count += s.count;
    h.sum_selectivity += s.sum_selectivity;
    h.sum_bytes_read += s.sum_bytes_read;
    h.last_ms = std::max(h.last_ms, s.last_ms);
    total_count += s.count;
    return;
  }
  shapes.push_back(s);
  total_count += s.count;
}

void QueryHistory::Add(const QueryLogEntry& e) {
  ShapeHistory s;
  s.shape = e.shape;
  s.shape.Normalize();
  s.count = 1;
  double sel = e.rows_total > 0 ? static_cast<double>(e.rows_out) / static_cast<double>(e.rows_total) : 1.0;
  s.sum_selectivity = std::clamp(sel, 0.0, 1.0);
  s.sum_bytes_read = static_cast<double>(std::max<int64_t>(0, e.bytes_read));
  s.last_ms = e.time_ms;
  Merge(s);
  ++recorded;
}

void QueryHistory::Bound(size_t max_shapes, double decay_after) {
  std::stable_sort(shapes.begin(), shapes.end(),
                   [](const ShapeHistory& a, const ShapeHistory& b) { return a.count > b.count; });
  if (shapes.size() > max_shapes) shapes.resize(max_shapes);
  total_count = 0;
  for (const ShapeHistory& s : shapes) total_count += s.count;
  while (decay_after > 0 && total_count > decay_after) {
    total_count = 0;
    for (ShapeHistory& s : shapes) {
      s.count /= 2;
      s.sum_selectivity /= 2;
      s.sum_bytes_read /= 2;
      total_count += s.count;
    }
  }
}

std::string QueryLogDir(const std::string& table_root) { return JoinPath(table_root, "_shoal/query_log"); }

std::string EntryToJson(const QueryLogEntry& e) {
  delta::Json j = delta::Json::object();
  j["shape"] = ShapeToJson(e.shape);
  j["rowsTotal"] = e.rows_total;
  j["rowsOut"] = e.rows_out;
  j["bytesRead"] = e.bytes_read;
  j["timeMs"] = e.time_ms;
  return delta::JsonText(j);
}

Result<QueryLogEntry> EntryFromJson(std::string_view text) {
  delta::Json j = delta::Json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("shape")) {
    return Status::Corruption("query log entry is not a JSON object with a shape");
  }
  QueryLogEntry e;
  ASSIGN_OR_RETURN(e.shape, ShapeFromJson(j["shape"]));
  double total = NumberOr(j, "rowsTotal", -1), out = NumberOr(j, "rowsOut", -1), bytes = NumberOr(j, "bytesRead", -1);
  if (!(total >= 0 && out >= 0 && bytes >= 0 && total < 1e18 && out < 1e18 && bytes < 1e18)) {
    return Status::Corruption("query log entry has missing or negative counts");
  }
  e.rows_total = static_cast<int64_t>(total);
  e.rows_out = std::min(static_cast<int64_t>(out), e.rows_total);
  e.bytes_read = static_cast<int64_t>(bytes);
  e.time_ms = static_cast<int64_t>(NumberOr(j, "timeMs", 0));
  return e;
}

Status AppendQueryLogEntry(io::FileSystem& fs, const std::string& table_root, const QueryLogEntry& entry,
                           const QueryLogLimits& limits) {
  std::string dir = QueryLogDir(table_root);
  uint64_t n = g_append_counter.fetch_add(1);
  thread_local std::mt19937_64 rng(std::random_device{}());
  std::string name = "e-" + std::to_string(NowMs()) + "-" + std::to_string(::getpid()) + "-" + std::to_string(n) +
                     "-" + std::to_string(rng() % 1000000) + ".json";
  std::string path = JoinPath(dir, name);
  auto file = fs.OpenForWrite(path);
  if (!file.ok()) {
    RETURN_NOT_OK(fs.CreateDirs(dir));
    file = fs.OpenForWrite(path);
  }
  if (!file.ok()) return file.status();
  std::string text = EntryToJson(entry);
  RETURN_NOT_OK((*file)->Append(text.data(), text.size()));
  RETURN_NOT_OK((*file)->Close());
  if (limits.compact_check_every > 0 && n % static_cast<uint64_t>(limits.compact_check_every) == 0) {
    return CompactQueryLog(fs, table_root, limits);
  }
  return Status::OK();
}

Result<QueryHistory> ReadQueryHistory(io::FileSystem& fs, const std::string& table_root,
                                      const QueryLogLimits& limits) {
  std::string dir = QueryLogDir(table_root);
  ASSIGN_OR_RETURN(LogListing listing, ListLog(fs, dir));
  return LoadHistory(fs, dir, listing, limits, nullptr, nullptr);
}

Status CompactQueryLog(io::FileSystem& fs, const std::string& table_root, const QueryLogLimits& limits,
                       bool force) {
  std::string dir = QueryLogDir(table_root);
  ASSIGN_OR_RETURN(LogListing listing, ListLog(fs, dir));
  if (listing.entries.empty() || (!force && listing.entries.size() <= limits.max_entry_files)) return Status::OK();
  std::vector<std::string> folded;
  std::set<std::string> previously_folded;
  QueryHistory h = LoadHistory(fs, dir, listing, limits, &folded, &previously_folded);
  std::string next = "summary-" + std::to_string(listing.newest.seq + 1) + ".json";
  std::vector<std::string> listed = folded;
  listed.insert(listed.end(), previously_folded.begin(), previously_folded.end());
  Status st = fs.PutIfAbsent(JoinPath(dir, next), SummaryToJson(h, listed));
  if (io::IsAlreadyExists(st)) return Status::OK();  // another process compacted first
  RETURN_NOT_OK(st);
  // The new summary lists what it folded; deleting is cleanup, failures are harmless (readers
  // skip files the newest summary lists).
  for (const std::string& name : folded) (void)fs.Delete(JoinPath(dir, name));
  for (const std::string& name : previously_folded) (void)fs.Delete(JoinPath(dir, name));
  for (const std::string& name : listing.summaries) (void)fs.Delete(JoinPath(dir, name));
  return Status::OK();
}

}  // namespace shoal::table
