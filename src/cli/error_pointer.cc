#include "cli/error_pointer.h"

#include <cctype>
#include <regex>
#include <vector>

#include "cli/table_renderer.h"

namespace shoal::cli {

namespace {

bool IsIdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool EqualsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

// Byte offset of the first whole-word, case-insensitive `name` outside string literals and
// comments (backquoted identifiers count); npos when absent.
size_t FindName(std::string_view sql, std::string_view name) {
  if (name.empty()) return std::string_view::npos;
  size_t i = 0;
  while (i < sql.size()) {
    char c = sql[i];
    if (c == '\'' || c == '"') {
      size_t j = i + 1;
      while (j < sql.size() && sql[j] != c) j += sql[j] == '\\' ? 2 : 1;
      i = j + 1;
      continue;
    }
    if (c == '-' && i + 1 < sql.size() && sql[i + 1] == '-') {
      while (i < sql.size() && sql[i] != '\n') ++i;
      continue;
    }
    if (IsIdentChar(c) && (i == 0 || !IsIdentChar(sql[i - 1]))) {
      size_t end = i;
      while (end < sql.size() && IsIdentChar(sql[end])) ++end;
      if (EqualsNoCase(sql.substr(i, end - i), name)) return i;
      i = end;
      continue;
    }
    ++i;
  }
  return std::string_view::npos;
}

}  // namespace

std::optional<TokenPosition> LocateError(const Status& status, std::string_view sql) {
  size_t at = std::string_view::npos;
  if (std::optional<int64_t> offset = status.error_offset()) {
    if (static_cast<uint64_t>(*offset) > sql.size()) return std::nullopt;  // not this text's
    at = static_cast<size_t>(*offset);
  } else if (status.code() == StatusCode::kBinder || status.code() == StatusCode::kCatalog) {
    // No offset: an error about SQL the engine built from the statement (UPDATE's SET list
    // bound as a SELECT); the first whole occurrence of the name it reports.
    static const std::regex kName(R"re(^Referenced (?:column|table) "([^"]+)" not found)re");
    std::smatch m;
    if (!std::regex_search(status.message(), m, kName)) return std::nullopt;
    std::string name = m[1].str();
    at = FindName(sql, name);
    size_t dot = name.rfind('.');
    if (at == std::string_view::npos && dot != std::string::npos) {
      at = FindName(sql, std::string_view(name).substr(dot + 1));
    }
  }
  if (at == std::string_view::npos) return std::nullopt;
  TokenPosition pos;
  size_t line_start = 0;
  for (size_t i = 0; i < at; ++i) {
    if (sql[i] == '\n') {
      ++pos.line;
      line_start = i + 1;
    }
  }
  pos.column = static_cast<int>(at - line_start) + 1;
  return pos;
}

std::string ErrorPointer(const Status& status, std::string_view sql) {
  std::optional<TokenPosition> pos = LocateError(status, sql);
  if (!pos) return "";
  size_t start = 0;
  for (int l = 1; l < pos->line; ++l) {
    size_t nl = sql.find('\n', start);
    if (nl == std::string_view::npos) return "";
    start = nl + 1;
  }
  size_t end = sql.find('\n', start);
  std::string line(sql.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
  for (char& c : line) {
    if (c == '\t' || c == '\r') c = ' ';
  }
  const size_t col = std::min<size_t>(static_cast<size_t>(pos->column - 1), line.size());
  const std::string prefix = "LINE " + std::to_string(pos->line) + ": ";
  return prefix + line + "\n" + std::string(prefix.size() + DisplayWidth(line.substr(0, col)), ' ') + "^\n";
}

}  // namespace shoal::cli
