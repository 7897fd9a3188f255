// Lexer: turns SQL text into tokens, and answers shell questions about raw text (is the
// statement complete, where is byte offset N).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "shoal/status.h"
#include "sql/parser/token.h"

namespace shoal::sql {

// How the lexer reads what the dialect leaves open (doc/sql_dialect.md).
struct LexOptions {
  // false (Spark SQL): "x" is a string literal, like 'x'. true (ANSI / DuckDB reading, the
  // setting shoal.sql.doubleQuotedIdentifiers): "x" is a quoted identifier, like `x`.
  bool double_quoted_identifiers = false;
};

// Splits `text` into tokens, skipping whitespace and -- / /* */ comments; the result always
// ends with a kEnd token. Fails with a ParserException naming the position for an
// unterminated string, quoted identifier or comment, or a character that starts no token.
Result<std::vector<Token>> Lex(std::string_view text, LexOptions options = {});

// 1-based line and column (in bytes) of a byte offset.
struct SourceLocation {
  int line = 1;
  int column = 1;
};
SourceLocation LocateOffset(std::string_view text, size_t offset);

// Formats " (line L, column C)" for a byte offset, the suffix of every parser error message.
std::string FormatPosition(std::string_view text, size_t offset);

// True when `text` ends with a ';' outside strings, quoted identifiers and comments (trailing
// whitespace and comments allowed): an interactive shell can then run what it has read.
bool IsCompleteStatement(std::string_view text);

}  // namespace shoal::sql
