// Groups input lines into complete units for the line-based shell modes (interactive, stdin,
// -f): a dot command (a line starting with '.' outside a statement), or SQL text ending with a
// ';' outside strings and comments (which may hold several statements).
//
// Thread-safety: not thread-safe; one reader per input.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace shoal::cli {

struct InputUnit {
  enum class Kind { kSql, kDotCommand };
  Kind kind = Kind::kSql;
  std::string text;
  int first_line = 1;  // 1-based line of the input where the unit starts
};

class StatementReader {
 public:
  // Feeds one line (without its newline); returns a unit when this line completes one.
  std::optional<InputUnit> AddLine(std::string_view line);
  // At end of input: the unterminated SQL still buffered, if it holds more than whitespace.
  std::optional<InputUnit> Finish();
  // True while a statement is partly read (the interactive shell's continuation prompt).
  bool in_statement() const { return !buffer_.empty(); }
  // The lines of the partly read statement, joined by newlines ("" between statements).
  const std::string& pending() const { return buffer_; }
  // Drops the partly read statement (Ctrl-C at the prompt).
  void Clear() { buffer_.clear(); }

 private:
  std::string buffer_;
  int line_no_ = 0;
  int first_line_ = 1;
};

}  // namespace shoal::cli
