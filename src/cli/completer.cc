#include "cli/completer.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

namespace shoal::cli {

namespace {

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(s[i])) != std::tolower(static_cast<unsigned char>(prefix[i]))) return false;
  }
  return true;
}

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The words of `sql` outside string literals, in order.
std::vector<std::string> Words(std::string_view sql) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < sql.size()) {
    if (sql[i] == '\'' || sql[i] == '"') {
      size_t j = sql.find(sql[i], i + 1);
      i = j == std::string_view::npos ? sql.size() : j + 1;
      continue;
    }
    if (IsWordChar(sql[i])) {
      size_t j = i;
      while (j < sql.size() && IsWordChar(sql[j])) ++j;
      words.emplace_back(sql.substr(i, j - i));
      i = j;
      continue;
    }
    ++i;
  }
  return words;
}

// File names in the directory of `partial` starting with its last component.
std::vector<std::string> CompletePath(std::string_view partial) {
  namespace fs = std::filesystem;
  size_t slash = partial.rfind('/');
  std::string dir = slash == std::string_view::npos ? "." : std::string(partial.substr(0, slash + 1));
  std::string_view base = slash == std::string_view::npos ? partial : partial.substr(slash + 1);
  std::string shown_dir = slash == std::string_view::npos ? "" : dir;
  std::vector<std::string> out;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.rfind(base, 0) != 0 || (base.empty() && name[0] == '.')) continue;
    std::error_code type_ec;
    out.push_back(shown_dir + name + (it->is_directory(type_ec) ? "/" : ""));
  }
  return out;
}

}  // namespace

const std::vector<std::string>& CompletionKeywords() {
  static const std::vector<std::string> kKeywords = {
      "ALL", "ALTER", "AND", "AS", "ASC", "BEGIN", "BETWEEN", "BY", "CASE", "CAST", "CHECKPOINT",
      "COMMIT", "COPY", "CREATE", "CROSS", "DATABASE", "DELETE", "DESC", "DESCRIBE", "DISTINCT",
      "DROP", "ELSE", "END", "EXCEPT", "EXISTS", "EXPLAIN", "FALSE", "FROM", "FULL", "GROUP",
      "HAVING", "HISTORY", "IF", "ILIKE", "IN", "INNER", "INSERT", "INTERSECT", "INTERVAL", "INTO",
      "IS", "JOIN", "LATERAL", "LEFT", "LIKE", "LIMIT", "MATCHED", "MERGE", "NATURAL", "NOT",
      "NULL", "OFFSET", "ON", "OPTIMIZE", "OR", "ORDER", "OUTER", "OVER", "PARTITION",
      "PARTITIONED", "PIVOT", "QUALIFY", "RECURSIVE", "REPLACE", "RESET", "RESTORE", "RIGHT",
      "ROLLBACK", "SELECT", "SET", "SHOW", "TABLE", "TABLES", "TABLESAMPLE", "THEN", "TO", "TRUE",
      "TRUNCATE", "UNION", "UNPIVOT", "UPDATE", "USING", "VACUUM", "VALUES", "VIEW", "WHEN",
      "WHERE", "WINDOW", "WITH", "ZORDER",
  };
  return kKeywords;
}

bool InsideQuotes(std::string_view before_cursor) {
  bool in_single = false, in_double = false;
  for (char c : before_cursor) {
    if (c == '\'' && !in_double) in_single = !in_single;
    if (c == '"' && !in_single) in_double = !in_double;
  }
  return in_single;
}

std::vector<std::string> Complete(std::string_view word, std::string_view statement, const CompletionSource& source,
                                  bool in_quotes) {
  if (in_quotes) {
    std::vector<std::string> paths = CompletePath(word);
    std::sort(paths.begin(), paths.end());
    return paths;
  }
  std::set<std::string> out;
  size_t dot = word.rfind('.');
  if (dot != std::string_view::npos) {
    // "t.am": columns of table t.
    std::string qualifier(word.substr(0, dot));
    std::string_view rest = word.substr(dot + 1);
    if (source.columns) {
      for (const std::string& c : source.columns(qualifier)) {
        if (StartsWithNoCase(c, rest)) out.insert(qualifier + "." + c);
      }
    }
    return {out.begin(), out.end()};
  }
  std::vector<std::string> words = Words(statement);
  // Right after FROM / JOIN / INTO / UPDATE / TABLE only table names make sense.
  bool table_position = false;
  if (!words.empty()) {
    size_t last = words.size() - 1;
    if (!word.empty() && last > 0 && Lower(words[last]) == Lower(word)) --last;
    const std::string prev = Lower(words[last]);
    table_position = prev == "from" || prev == "join" || prev == "into" || prev == "update" || prev == "table" ||
                     prev == "describe";
  }
  std::vector<std::string> tables = source.tables ? source.tables() : std::vector<std::string>{};
  for (const std::string& t : tables) {
    if (StartsWithNoCase(t, word)) out.insert(t);
  }
  if (table_position) return {out.begin(), out.end()};
  if (source.columns) {
    std::set<std::string> named;
    for (const std::string& w : words) {
      for (const std::string& t : tables) {
        if (Lower(t) == Lower(w)) named.insert(t);
      }
    }
    for (const std::string& t : named) {
      for (const std::string& c : source.columns(t)) {
        if (StartsWithNoCase(c, word)) out.insert(c);
      }
    }
  }
  if (word.empty()) return {out.begin(), out.end()};
  const bool lower = std::all_of(word.begin(), word.end(), [](char c) { return !std::isupper(static_cast<unsigned char>(c)); });
  for (const std::string& k : CompletionKeywords()) {
    if (StartsWithNoCase(k, word)) out.insert(lower ? Lower(k) : k);
  }
  for (const std::string& f : source.functions) {
    if (StartsWithNoCase(f, word)) out.insert(f + "(");
  }
  return {out.begin(), out.end()};
}

}  // namespace shoal::cli
