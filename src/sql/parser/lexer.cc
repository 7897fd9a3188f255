#include "sql/parser/lexer.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>

#include "columnar/utf8.h"

namespace shoal::sql {

namespace {

// Kept sorted for binary search.
constexpr std::array<std::string_view, 45> kReserved = {
    "ALL",    "AND",     "AS",        "ASC",     "BETWEEN", "BY",     "CASE",   "CROSS",
    "DESC",   "DISTINCT", "ELSE",     "END",     "EXCEPT",  "FALSE",  "FROM",   "FULL",
    "GROUP",  "HAVING",  "ILIKE",     "IN",      "INNER",   "INTERSECT", "IS",  "JOIN",
    "LATERAL", "LEFT",   "LIKE",      "LIMIT",   "NATURAL", "NOT",    "NULL",   "OFFSET",
    "ON",     "OR",      "ORDER",     "OUTER",   "RIGHT",   "SELECT", "THEN",   "TRUE",
    "UNION",  "USING",   "VALUES",    "WHEN",    "WHERE",
};

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsWordStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool IsWordChar(char c) { return IsWordStart(c) || IsDigit(c) || c == '$'; }

// Quotes a snippet of source text for an error message, shortened to a readable length.
std::string Snippet(std::string_view text, size_t offset, size_t length) {
  std::string_view s = text.substr(std::min(offset, text.size()));
  s = s.substr(0, std::min<size_t>(length, 40));
  size_t nl = s.find('\n');
  if (nl != std::string_view::npos) s = s.substr(0, nl);
  std::string out = "\"";
  out.append(s);
  out.push_back('"');
  return out;
}

int HexValue(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The typed-number suffixes of Spark SQL, longest first: 10L BIGINT, 10S SMALLINT, 10Y TINYINT,
// 1.5D DOUBLE, 1.5F FLOAT, 1.5BD DECIMAL.
constexpr std::array<std::string_view, 6> kNumberSuffixes = {"BD", "L", "S", "Y", "D", "F"};

class Lexer {
 public:
  Lexer(std::string_view text, LexOptions options) : text_(text), options_(options) {}

  Result<std::vector<Token>> Run() {
    std::vector<Token> tokens;
    while (true) {
      RETURN_NOT_OK(SkipSpaceAndComments());
      if (pos_ >= text_.size()) break;
      Token token;
      token.offset = pos_;
      RETURN_NOT_OK(Next(&token));
      token.length = pos_ - token.offset;
      tokens.push_back(std::move(token));
    }
    Token end;
    end.offset = text_.size();
    tokens.push_back(std::move(end));
    return tokens;
  }

 private:
  Status Error(std::string_view what, size_t offset, size_t length) const {
    return Status::Parser(std::string(what) + " at or near " + Snippet(text_, offset, length) +
                          FormatPosition(text_, offset))
        .WithErrorOffset(static_cast<int64_t>(offset));
  }

  Status SkipSpaceAndComments() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (IsSpace(c)) {
        ++pos_;
      } else if (c == '-' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '-') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '/' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '*') {
        size_t start = pos_;
        pos_ += 2;
        int depth = 1;  // block comments nest, as in Spark and PostgreSQL
        while (pos_ < text_.size() && depth > 0) {
          if (text_.compare(pos_, 2, "/*") == 0) {
            ++depth;
            pos_ += 2;
          } else if (text_.compare(pos_, 2, "*/") == 0) {
            --depth;
            pos_ += 2;
          } else {
            ++pos_;
          }
        }
        if (depth > 0) return Error("unterminated comment", start, 2);
      } else {
        break;
      }
    }
    return Status::OK();
  }

  Status Next(Token* token) {
    char c = text_[pos_];
    if ((c == 'x' || c == 'X') && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\'') {
      size_t start = pos_;
      ++pos_;
      RETURN_NOT_OK(Quoted(token, '\'', TokenType::kString, "unterminated quoted string"));
      for (char h : token->text) {
        bool hex = IsDigit(h) || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F');
        if (!hex) return Error("invalid hex digit in binary literal", start, pos_ - start);
      }
      if (token->text.size() % 2 != 0) {
        return Error("odd number of hex digits in binary literal", start, pos_ - start);
      }
      token->type = TokenType::kHexString;
      return Status::OK();
    }
    if (IsWordStart(c)) {
      size_t start = pos_;
      while (pos_ < text_.size() && IsWordChar(text_[pos_])) ++pos_;
      token->type = TokenType::kWord;
      token->text = std::string(text_.substr(start, pos_ - start));
      return Status::OK();
    }
    if (IsDigit(c) || (c == '.' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) {
      return Number(token);
    }
    if (c == '\'') return StringLiteral(token, '\'');
    if (c == '"') {
      if (!options_.double_quoted_identifiers) return StringLiteral(token, '"');
      return Quoted(token, '"', TokenType::kQuotedIdentifier, "unterminated quoted identifier");
    }
    if (c == '`') {
      return Quoted(token, '`', TokenType::kQuotedIdentifier, "unterminated quoted identifier");
    }
    static constexpr std::array<std::string_view, 10> kTwoChar = {"::", "==", "=>", "<>", "!=",
                                                                  "<=", ">=", "||", "//", "->"};
    if (pos_ + 1 < text_.size()) {
      std::string_view two = text_.substr(pos_, 2);
      for (std::string_view op : kTwoChar) {
        if (two == op) {
          token->type = TokenType::kOperator;
          token->text = std::string(two);
          pos_ += 2;
          return Status::OK();
        }
      }
    }
    if (c == '?' || (c == '$' && pos_ + 1 < text_.size() && IsDigit(text_[pos_ + 1]))) return Parameter(token);
    static constexpr std::string_view kOneChar = "()[]{},;.:+-*/%=<>";
    if (kOneChar.find(c) != std::string_view::npos) {
      token->type = TokenType::kOperator;
      token->text = std::string(1, c);
      ++pos_;
      return Status::OK();
    }
    return Error("syntax error", pos_, 1);
  }

  Status Number(Token* token) {
    size_t start = pos_;
    bool dot = false;
    bool exponent = false;
    while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      dot = true;
      ++pos_;
      while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      size_t p = pos_ + 1;
      if (p < text_.size() && (text_[p] == '+' || text_[p] == '-')) ++p;
      if (p < text_.size() && IsDigit(text_[p])) {
        exponent = true;
        pos_ = p;
        while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
      }
    }
    token->type = exponent ? TokenType::kFloat : dot ? TokenType::kDecimal : TokenType::kInteger;
    token->text = std::string(text_.substr(start, pos_ - start));
    // A suffix types the number (Spark SQL); any other letter or digit run glued to a number is
    // an error, so `10X` is never read as `10 AS X`.
    if (pos_ < text_.size() && IsWordChar(text_[pos_])) {
      size_t end = pos_;
      while (end < text_.size() && IsWordChar(text_[end])) ++end;
      std::string suffix(text_.substr(pos_, end - pos_));
      for (char& ch : suffix) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      bool known = std::find(kNumberSuffixes.begin(), kNumberSuffixes.end(), suffix) != kNumberSuffixes.end();
      bool integral_only = suffix == "L" || suffix == "S" || suffix == "Y";
      if (!known || (integral_only && token->type != TokenType::kInteger)) {
        return Error("invalid numeric literal", start, end - start);
      }
      token->suffix = std::move(suffix);
      pos_ = end;
    }
    return Status::OK();
  }

  // A string literal quoted by ' or ", with Spark SQL's backslash escapes (a doubled quote also
  // stands for one quote).
  Status StringLiteral(Token* token, char quote) {
    return Quoted(token, quote, TokenType::kString, "unterminated quoted string", true);
  }

  // Reads one backslash escape at pos_ into `out`: \0-\377 octal (three digits), \uXXXX,
  // \UXXXXXXXX, \b \n \r \t \Z; \% and \_ stay escaped (LIKE patterns); any other \c is c.
  Status Escape(std::string* out) {
    size_t start = pos_;
    char e = text_[pos_ + 1];
    pos_ += 2;
    auto hex = [&](size_t digits) -> Status {
      uint32_t code = 0;
      for (size_t i = 0; i < digits; ++i) {
        int v = pos_ + i < text_.size() ? HexValue(text_[pos_ + i]) : -1;
        if (v < 0) return Error("invalid unicode escape in string literal", start, pos_ + i - start + 1);
        code = code * 16 + static_cast<uint32_t>(v);
      }
      if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
        return Error("invalid unicode escape in string literal", start, pos_ + digits - start);
      }
      pos_ += digits;
      columnar::AppendUtf8(code, out);
      return Status::OK();
    };
    switch (e) {
      case 'u': return hex(4);
      case 'U': return hex(8);
      case 'b': out->push_back('\b'); return Status::OK();
      case 'n': out->push_back('\n'); return Status::OK();
      case 'r': out->push_back('\r'); return Status::OK();
      case 't': out->push_back('\t'); return Status::OK();
      case 'Z': out->push_back('\x1A'); return Status::OK();
      case '%':
      case '_':
        out->push_back('\\');
        out->push_back(e);
        return Status::OK();
      default: break;
    }
    if (e >= '0' && e <= '3' && pos_ + 1 < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '7' &&
        text_[pos_ + 1] >= '0' && text_[pos_ + 1] <= '7') {
      out->push_back(static_cast<char>((e - '0') * 64 + (text_[pos_] - '0') * 8 + (text_[pos_ + 1] - '0')));
      pos_ += 2;
      return Status::OK();
    }
    if (e == '0') {
      out->push_back('\0');
      return Status::OK();
    }
    out->push_back(e);
    return Status::OK();
  }

  // Reads a token quoted by `quote`, where a doubled quote stands for one, and with
  // `backslash_escapes` a backslash starts an escape (Escape).
  Status Quoted(Token* token, char quote, TokenType type, std::string_view unterminated,
                bool backslash_escapes = false) {
    size_t start = pos_;
    ++pos_;
    std::string value;
    while (true) {
      if (pos_ >= text_.size()) return Error(unterminated, start, text_.size() - start);
      char c = text_[pos_];
      if (c == quote) {
        if (pos_ + 1 < text_.size() && text_[pos_ + 1] == quote) {
          value.push_back(quote);
          pos_ += 2;
          continue;
        }
        ++pos_;
        break;
      }
      if (backslash_escapes && c == '\\' && pos_ + 1 < text_.size()) {
        RETURN_NOT_OK(Escape(&value));
        continue;
      }
      value.push_back(c);
      ++pos_;
    }
    if (type == TokenType::kQuotedIdentifier && value.empty()) {
      return Error("zero-length quoted identifier", start, pos_ - start);
    }
    token->type = type;
    token->text = std::move(value);
    return Status::OK();
  }

  // Parameters: `?` become $1, $2, ... in order; mixing them with explicit $N is an error.
  Status Parameter(Token* token) {
    size_t start = pos_;
    if (text_[pos_] == '?') {
      if (numbered_) return Error("cannot mix ? and $N parameters in one statement", start, 1);
      ++pos_;
      token->type = TokenType::kOperator;
      std::string text = "$";
      text += std::to_string(++positional_);
      token->text = std::move(text);
      return Status::OK();
    }
    ++pos_;  // '$'
    while (pos_ < text_.size() && IsDigit(text_[pos_])) ++pos_;
    std::string_view digits = text_.substr(start + 1, pos_ - start - 1);
    if (positional_ > 0) return Error("cannot mix ? and $N parameters in one statement", start, pos_ - start);
    if (digits.size() > 5 || digits[0] == '0' || std::stoi(std::string(digits)) > 65535) {
      return Error("parameter numbers run from $1 to $65535", start, pos_ - start);
    }
    numbered_ = true;
    token->type = TokenType::kOperator;
    std::string text = "$";
    text += digits;
    token->text = std::move(text);
    return Status::OK();
  }

  std::string_view text_;
  LexOptions options_;
  size_t pos_ = 0;
  int positional_ = 0;    // `?` seen so far
  bool numbered_ = false;  // a $N seen
};

}  // namespace

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool NameEq(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  }
  return true;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view upper) {
  if (a.size() != upper.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    if (c != upper[i]) return false;
  }
  return true;
}

bool Token::IsKeyword(std::string_view keyword) const {
  return type == TokenType::kWord && EqualsIgnoreCase(text, keyword);
}

bool IsReservedKeyword(std::string_view word) {
  if (word.size() > 16) return false;
  char buf[16];
  for (size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    buf[i] = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  }
  return std::binary_search(kReserved.begin(), kReserved.end(), std::string_view(buf, word.size()));
}

Result<std::vector<Token>> Lex(std::string_view text, LexOptions options) { return Lexer(text, options).Run(); }

SourceLocation LocateOffset(std::string_view text, size_t offset) {
  SourceLocation loc;
  offset = std::min(offset, text.size());
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++loc.line;
      loc.column = 1;
    } else {
      ++loc.column;
    }
  }
  return loc;
}

std::string FormatPosition(std::string_view text, size_t offset) {
  SourceLocation loc = LocateOffset(text, offset);
  return " (line " + std::to_string(loc.line) + ", column " + std::to_string(loc.column) + ")";
}

bool IsCompleteStatement(std::string_view text) {
  bool last_is_semicolon = false;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (IsSpace(c)) {
      ++i;
    } else if (c == '-' && i + 1 < text.size() && text[i + 1] == '-') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i += 2;
      int depth = 1;
      while (i < text.size() && depth > 0) {
        if (text.compare(i, 2, "/*") == 0) {
          ++depth;
          i += 2;
        } else if (text.compare(i, 2, "*/") == 0) {
          --depth;
          i += 2;
        } else {
          ++i;
        }
      }
      if (depth > 0) return false;
    } else if (c == '\'' || c == '"' || c == '`') {
      ++i;
      while (true) {
        if (i >= text.size()) return false;
        if (c != '`' && text[i] == '\\') {  // a backslash escape inside a string
          i += 2;
          continue;
        }
        if (text[i] == c) {
          if (i + 1 < text.size() && text[i + 1] == c) {
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        ++i;
      }
      last_is_semicolon = false;
    } else {
      last_is_semicolon = c == ';';
      ++i;
    }
  }
  return last_is_semicolon;
}

}  // namespace shoal::sql
