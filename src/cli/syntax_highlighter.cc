#include "cli/syntax_highlighter.h"

#include <cctype>
#include <cstring>
#include <vector>

#include "cli/completer.h"
#include "sql/parser/token.h"

namespace shoal::cli {

namespace {

enum class Kind : unsigned char { kPlain, kKeyword, kString, kNumber, kComment };

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool IsKeyword(std::string_view word) {
  if (sql::IsReservedKeyword(word)) return true;
  for (const std::string& k : CompletionKeywords()) {
    if (sql::EqualsIgnoreCase(word, k)) return true;
  }
  return false;
}

// The kind of every byte of `text`.
std::vector<Kind> Classify(std::string_view text) {
  std::vector<Kind> kinds(text.size(), Kind::kPlain);
  size_t i = 0;
  auto mark = [&](size_t from, size_t to, Kind k) {
    for (size_t j = from; j < to && j < kinds.size(); ++j) kinds[j] = k;
  };
  while (i < text.size()) {
    const char c = text[i];
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    size_t end = i + 1;
    if (c == '-' && next == '-') {
      end = text.find('\n', i);
      if (end == std::string_view::npos) end = text.size();
      mark(i, end, Kind::kComment);
    } else if (c == '/' && next == '*') {
      end = text.find("*/", i + 2);
      end = end == std::string_view::npos ? text.size() : end + 2;
      mark(i, end, Kind::kComment);
    } else if (c == '\'' || c == '"') {
      while (end < text.size() && text[end] != c) end += text[end] == '\\' ? 2 : 1;
      end = std::min(end + 1, text.size());
      mark(i, end, Kind::kString);
    } else if (c == '`') {
      end = text.find('`', i + 1);
      end = end == std::string_view::npos ? text.size() : end + 1;
    } else if (std::isdigit(static_cast<unsigned char>(c)) ||
               (c == '.' && std::isdigit(static_cast<unsigned char>(next)))) {
      if (i == 0 || !IsWordChar(text[i - 1])) {
        while (end < text.size() && (IsWordChar(text[end]) || text[end] == '.')) ++end;
        mark(i, end, Kind::kNumber);
      }
    } else if (IsWordChar(c)) {
      while (end < text.size() && IsWordChar(text[end])) ++end;
      if (IsKeyword(text.substr(i, end - i))) mark(i, end, Kind::kKeyword);
    }
    i = end;
  }
  return kinds;
}

std::string_view ColorOf(Kind k) {
  switch (k) {
    case Kind::kKeyword: return kKeywordColor;
    case Kind::kString: return kStringColor;
    case Kind::kNumber: return kNumberColor;
    case Kind::kComment: return kCommentColor;
    case Kind::kPlain: break;
  }
  return {};
}

}  // namespace

std::string HighlightSql(std::string_view line, std::string_view before) {
  std::string text(before);
  text.append(line);
  const std::vector<Kind> kinds = Classify(text);
  std::string out;
  Kind current = Kind::kPlain;
  for (size_t i = 0; i < line.size(); ++i) {
    const Kind k = kinds[before.size() + i];
    if (k != current) {
      if (current != Kind::kPlain) out.append(kResetColor);
      out.append(ColorOf(k));
      current = k;
    }
    out.push_back(line[i]);
  }
  if (current != Kind::kPlain) out.append(kResetColor);
  return out;
}

bool ColorWanted(bool stdin_tty, bool stdout_tty, const char* term, const char* no_color) {
  if (!stdin_tty || !stdout_tty) return false;
  if (no_color != nullptr && no_color[0] != '\0') return false;
  return term != nullptr && term[0] != '\0' && std::strcmp(term, "dumb") != 0;
}

}  // namespace shoal::cli
