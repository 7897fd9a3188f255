#include "cli/statement_reader.h"

#include "sql/parser/lexer.h"

namespace shoal::cli {

namespace {

std::string_view TrimLeft(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\n')) ++i;
  return s.substr(i);
}

std::string_view TrimRight(std::string_view s) {
  size_t n = s.size();
  while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n')) --n;
  return s.substr(0, n);
}

}  // namespace

std::optional<InputUnit> StatementReader::AddLine(std::string_view line) {
  ++line_no_;
  if (buffer_.empty()) {
    std::string_view t = TrimLeft(line);
    if (t.empty() || t.rfind("--", 0) == 0) return std::nullopt;
    if (t[0] == '.') {
      return InputUnit{InputUnit::Kind::kDotCommand, std::string(TrimRight(t)), line_no_};
    }
    first_line_ = line_no_;
  } else {
    buffer_.push_back('\n');
  }
  buffer_.append(line);
  if (!sql::IsCompleteStatement(buffer_)) return std::nullopt;
  InputUnit unit{InputUnit::Kind::kSql, std::move(buffer_), first_line_};
  buffer_.clear();
  return unit;
}

std::optional<InputUnit> StatementReader::Finish() {
  if (TrimLeft(buffer_).empty()) {
    buffer_.clear();
    return std::nullopt;
  }
  InputUnit unit{InputUnit::Kind::kSql, std::move(buffer_), first_line_};
  buffer_.clear();
  return unit;
}

}  // namespace shoal::cli
