// Token: one lexical unit of SQL text, produced by the lexer and consumed by the parser.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace shoal::sql {

enum class TokenType : uint8_t {
  kWord,              // bare identifier or keyword, text as written (keywords match case-insensitively)
  kQuotedIdentifier,  // `backticked` (or "double quoted" when those are identifiers); text is the unescaped name
  kString,            // 'single' or "double quoted"; text is the unescaped contents (backslash escapes applied)
  kHexString,         // X'4142': text is the hex digits (validated: even count, 0-9a-fA-F)
  kInteger,           // digits only, any length
  kDecimal,           // digits with a '.', no exponent (exact)
  kFloat,             // number with an exponent (1e3, 1.5E-2)
                      // (numbers may carry a type suffix: Token::suffix)
  kOperator,          // punctuation or operator: ( ) [ ] { } , ; . : :: + - * / // % = == => -> <> != < <= > >= ||
  kEnd,               // end of input (always the last token)
};

// Thread-safety: a value; safe to copy between threads.
struct Token {
  TokenType type = TokenType::kEnd;
  std::string text;     // see TokenType for what it holds
  size_t offset = 0;    // byte offset of the token's first character in the source text
  size_t length = 0;    // byte length of the token in the source text (quotes included)
  std::string suffix;   // numbers only: a type suffix in upper case (L S Y D F BD), or empty

  bool IsOperator(std::string_view op) const { return type == TokenType::kOperator && text == op; }
  // True for a bare word equal to `keyword` ignoring ASCII case; `keyword` must be upper case.
  bool IsKeyword(std::string_view keyword) const;
};

// Returns true for words that cannot be used unquoted as a column name or an implicit alias.
bool IsReservedKeyword(std::string_view word);

// `s` with ASCII letters in lower case (names and keywords compare this way).
std::string Lower(std::string s);
// Whether two names are equal ignoring ASCII case (how identifiers compare).
bool NameEq(std::string_view a, std::string_view b);

// Returns true when `a` equals upper-case `upper` ignoring ASCII case.
bool EqualsIgnoreCase(std::string_view a, std::string_view upper);

}  // namespace shoal::sql
