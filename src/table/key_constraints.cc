#include "table/key_constraints.h"

#include <cctype>

namespace shoal::table {

namespace {

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The words of `s` outside parentheses and backticks, upper-cased.
std::vector<std::string> OuterWords(std::string_view s) {
  std::vector<std::string> words;
  std::string word;
  int depth = 0;
  bool quoted = false;
  for (char c : s) {
    if (c == '`') quoted = !quoted;
    if (!quoted && c == '(') ++depth;
    const bool outside = !quoted && depth == 0 && c != '(' && c != ')' && c != '`';
    if (outside && std::isalpha(static_cast<unsigned char>(c))) {
      word += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
    if (!quoted && c == ')') --depth;
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

}  // namespace

bool IsKeyConstraintProperty(std::string_view key) { return StartsWith(key, kKeyConstraintPrefix); }

std::string PrimaryKeyProperty(const std::map<std::string, std::string>& configuration) {
  for (const auto& [k, v] : configuration) {
    if (IsKeyConstraintProperty(k) && StartsWith(v, "PRIMARY KEY")) return k;
  }
  return "";
}

std::optional<std::vector<std::string>> RelyUniqueKeyColumns(std::string_view key, std::string_view text) {
  if (!IsKeyConstraintProperty(key) || !(StartsWith(text, "PRIMARY KEY") || StartsWith(text, "UNIQUE"))) {
    return std::nullopt;
  }
  bool rely = false;
  for (const std::string& w : OuterWords(text)) rely = rely || w == "RELY";
  if (!rely) return std::nullopt;
  // The column list: the first parenthesized group; names may be back-quoted (`` doubles a `).
  size_t open = text.find('(');
  if (open == std::string_view::npos) return std::nullopt;
  std::vector<std::string> columns;
  std::string name;
  bool quoted = false;
  for (size_t i = open + 1; i < text.size(); ++i) {
    char c = text[i];
    if (c == '`') {
      if (quoted && i + 1 < text.size() && text[i + 1] == '`') {
        name += '`';
        ++i;
      } else {
        quoted = !quoted;
      }
    } else if (!quoted && (c == ',' || c == ')')) {
      if (name.empty()) return std::nullopt;
      columns.push_back(std::move(name));
      name.clear();
      if (c == ')') return columns;
    } else if (quoted || !std::isspace(static_cast<unsigned char>(c))) {
      name += c;
    }
  }
  return std::nullopt;
}

}  // namespace shoal::table
