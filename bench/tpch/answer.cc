#include "tpch/answer.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <regex>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

namespace shoal::tpch {

namespace {

using Cell = std::optional<std::string>;
using Row = std::vector<Cell>;

bool IsFloatType(const std::string& t) {
  std::string u = t;
  for (auto& ch : u) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return u.find("DOUBLE") != std::string::npos || u.find("FLOAT") != std::string::npos ||
         u.find("REAL") != std::string::npos;
}

// A plain decimal or scientific number (no spaces, no hex).
bool ParseNumber(const std::string& s, long double* v) {
  static const std::regex kNumber(R"(^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$)");
  if (!std::regex_match(s, kNumber)) return false;
  *v = std::strtold(s.c_str(), nullptr);
  return true;
}

// A decimal's text without a sign on zero, trailing fraction zeros or a bare point.
std::string NormalizeDecimal(std::string s) {
  if (!s.empty() && s[0] == '+') s.erase(0, 1);
  if (s.find_first_of("eE") != std::string::npos) return s;
  const size_t dot = s.find('.');
  if (dot != std::string::npos) {
    while (s.size() > dot + 1 && s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

// The scale of a "DECIMAL(p,s)" type name; -1 for other types.
int DecimalScale(const std::string& t) {
  static const std::regex kDecimal(R"(^\s*(DECIMAL|NUMERIC)\s*\(\s*\d+\s*,\s*(\d+)\s*\)\s*$)", std::regex::icase);
  std::smatch m;
  if (!std::regex_match(t, m, kDecimal)) return -1;
  return std::stoi(m[2].str());
}

// `got_scale` >= 0: shoal's cell is a DECIMAL of that scale where DuckDB's is a DOUBLE (a
// DECIMAL division: Spark's rules keep a DECIMAL, DuckDB computes a DOUBLE); equal when
// DuckDB's value rounds to shoal's at that scale.
bool SameCell(const Cell& a, const Cell& b, bool floating, double tolerance, int got_scale) {
  if (!a || !b) return !a && !b;
  if (*a == *b) return true;
  long double x, y;
  if (!ParseNumber(*a, &x) || !ParseNumber(*b, &y)) return false;
  if (got_scale >= 0) {
    const long double half_unit = 0.5L * std::pow(10.0L, -static_cast<long double>(got_scale));
    return std::fabs(x - y) <= half_unit * (1 + 1e-12L) + static_cast<long double>(tolerance) * std::fabs(y);
  }
  if (floating) {
    const long double scale = std::max(std::fabs(x), std::fabs(y));
    return std::fabs(x - y) <= static_cast<long double>(tolerance) * scale;
  }
  return NormalizeDecimal(*a) == NormalizeDecimal(*b);
}

// -1, 0, 1: NULLs first, numbers by value, other text bytewise.
int CompareCell(const Cell& a, const Cell& b) {
  if (!a || !b) return (a ? 1 : 0) - (b ? 1 : 0);
  long double x, y;
  if (ParseNumber(*a, &x) && ParseNumber(*b, &y)) return x < y ? -1 : (x > y ? 1 : 0);
  return a->compare(*b) < 0 ? -1 : (*a == *b ? 0 : 1);
}

bool RowLess(const Row& a, const Row& b) {
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    const int c = CompareCell(a[i], b[i]);
    if (c) return c < 0;
  }
  return a.size() < b.size();
}

std::string Lower(std::string s) {
  for (auto& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

std::string Show(const Row& r) {
  std::string s;
  for (size_t i = 0; i < r.size(); ++i) s += (i ? "|" : "") + (r[i] ? *r[i] : std::string("NULL"));
  return s;
}

struct OrderKey {
  int column;
  bool descending;
};

// The keys of the query's last ORDER BY that name output columns; stops at the first key that
// is not one (its order cannot be checked, nor any after it).
std::vector<OrderKey> OrderKeys(const std::string& sql, const std::vector<std::string>& columns) {
  const std::string s = Lower(sql);
  static const std::regex kOrderBy(R"(\border\s+by\b)");
  std::smatch m;
  size_t pos = std::string::npos;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), kOrderBy); it != std::sregex_iterator(); ++it)
    pos = static_cast<size_t>(it->position() + it->length());
  std::vector<OrderKey> keys;
  if (pos == std::string::npos) return keys;
  std::string clause = s.substr(pos);
  for (const char* end : {"limit", ";", ")"}) {
    const size_t e = clause.find(end);
    if (e != std::string::npos) clause = clause.substr(0, e);
  }
  size_t from = 0;
  while (from <= clause.size()) {
    size_t to = clause.find(',', from);
    if (to == std::string::npos) to = clause.size();
    std::istringstream item(clause.substr(from, to - from));
    std::string name, dir;
    item >> name >> dir;
    auto c = std::find_if(columns.begin(), columns.end(), [&](const std::string& x) { return Lower(x) == name; });
    if (name.empty() || c == columns.end()) break;
    keys.push_back({static_cast<int>(c - columns.begin()), dir == "desc"});
    from = to + 1;
  }
  return keys;
}

}  // namespace

std::string FormatAnswer(const Answer& a) {
  std::string out = nlohmann::json{{"columns", a.columns}, {"types", a.types}}.dump() + "\n";
  for (const auto& row : a.rows) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& cell : row) j.push_back(cell ? nlohmann::json(*cell) : nlohmann::json(nullptr));
    out += j.dump() + "\n";
  }
  return out;
}

Result<Answer> ParseAnswer(const std::string& text) {
  Answer a;
  size_t pos = 0;
  bool header = true;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty()) continue;
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded()) return Status::InvalidArgument("answer line is not JSON: " + line.substr(0, 200));
    if (header) {
      if (!j.is_object() || !j.contains("columns") || !j.contains("types"))
        return Status::InvalidArgument("answer has no {\"columns\",\"types\"} header line");
      a.columns = j["columns"].get<std::vector<std::string>>();
      a.types = j["types"].get<std::vector<std::string>>();
      header = false;
      continue;
    }
    if (!j.is_array()) return Status::InvalidArgument("answer row is not an array: " + line.substr(0, 200));
    Row row;
    for (const auto& v : j) row.push_back(v.is_null() ? Cell() : Cell(v.is_string() ? v.get<std::string>() : v.dump()));
    a.rows.push_back(std::move(row));
  }
  if (header) return Status::InvalidArgument("empty answer");
  return a;
}

Answer AnswerOf(const QueryResult& r) {
  Answer a;
  for (int c = 0; c < r.num_columns(); ++c) {
    a.columns.push_back(r.column_name(c));
    a.types.push_back(r.column_type(c));
  }
  for (int64_t i = 0; i < r.num_rows(); ++i) {
    Row row;
    for (int c = 0; c < r.num_columns(); ++c) row.push_back(r.IsNull(i, c) ? Cell() : Cell(r.GetText(i, c)));
    a.rows.push_back(std::move(row));
  }
  return a;
}

Result<Answer> RunQueryText(Connection& con, const std::string& sql, double timeout_s, bool* timed_out) {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false, fired = false;
  std::thread watchdog;
  if (timeout_s > 0) {
    watchdog = std::thread([&] {
      std::unique_lock<std::mutex> lock(mu);
      if (!cv.wait_for(lock, std::chrono::duration<double>(timeout_s), [&] { return done; })) {
        fired = true;
        con.Interrupt();
      }
    });
  }
  Answer answer;
  Status st = con.Execute(sql, [&](const std::string&, QueryResult& r) {
    if (r.num_columns() > 0 && r.statement_type() == "SELECT") answer = AnswerOf(r);
    return Status::OK();
  });
  if (watchdog.joinable()) {
    {
      std::lock_guard<std::mutex> lock(mu);
      done = true;
    }
    cv.notify_one();
    watchdog.join();
  }
  if (timed_out) *timed_out = fired;
  RETURN_NOT_OK(st);
  return answer;
}

bool SameAnswer(const Answer& got, const Answer& want, const std::string& sql, std::string* why,
                double float_tolerance) {
  if (got.columns.size() != want.columns.size()) {
    *why = std::to_string(got.columns.size()) + " columns, DuckDB has " + std::to_string(want.columns.size());
    return false;
  }
  if (got.rows.size() != want.rows.size()) {
    *why = std::to_string(got.rows.size()) + " rows, DuckDB has " + std::to_string(want.rows.size());
    return false;
  }
  std::vector<bool> floating(got.columns.size());
  std::vector<int> got_scale(got.columns.size(), -1);
  for (size_t c = 0; c < floating.size(); ++c) {
    floating[c] = IsFloatType(got.types[c]) || IsFloatType(want.types[c]);
    if (IsFloatType(want.types[c]) && !IsFloatType(got.types[c])) got_scale[c] = DecimalScale(got.types[c]);
  }
  std::vector<Row> a = got.rows, b = want.rows;
  std::sort(a.begin(), a.end(), RowLess);
  std::sort(b.begin(), b.end(), RowLess);
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t c = 0; c < a[i].size(); ++c) {
      if (!SameCell(a[i][c], b[i][c], floating[c], float_tolerance, got_scale[c])) {
        *why = "column " + want.columns[c] + " (" + got.types[c] + " vs DuckDB " + want.types[c] + "): row [" +
               Show(a[i]) + "] vs DuckDB [" + Show(b[i]) + "]";
        return false;
      }
    }
  }
  const std::vector<OrderKey> keys = OrderKeys(sql, got.columns);
  for (size_t i = 1; i < got.rows.size(); ++i) {
    for (const OrderKey& k : keys) {
      int c = CompareCell(got.rows[i - 1][k.column], got.rows[i][k.column]);
      if (k.descending) c = -c;
      if (c < 0) break;
      if (c > 0) {
        *why = "rows " + std::to_string(i - 1) + " and " + std::to_string(i) + " are out of ORDER BY order on " +
               got.columns[k.column];
        return false;
      }
    }
  }
  return true;
}

}  // namespace shoal::tpch
