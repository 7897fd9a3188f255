// Parser core: token access, errors, nesting limits, names, types, properties, entry points.
#include "sql/parser/parser.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdlib>

#include "sql/parser/lexer.h"

namespace shoal::sql {

namespace {

struct TypeAlias {
  std::string_view written;
  std::string_view canonical;
};

constexpr std::array<TypeAlias, 29> kTypeAliases = {{
    {"CHAR", "STRING"},       {"CHARACTER", "STRING"},
    {"BOOLEAN", "BOOLEAN"},   {"BOOL", "BOOLEAN"},        {"TINYINT", "TINYINT"},
    {"BYTE", "TINYINT"},      {"SMALLINT", "SMALLINT"},   {"SHORT", "SMALLINT"},
    {"INT", "INT"},           {"INTEGER", "INT"},         {"BIGINT", "BIGINT"},
    {"LONG", "BIGINT"},       {"FLOAT", "FLOAT"},         {"REAL", "FLOAT"},
    {"DOUBLE", "DOUBLE"},     {"DECIMAL", "DECIMAL"},     {"NUMERIC", "DECIMAL"},
    {"DEC", "DECIMAL"},       {"STRING", "STRING"},       {"VARCHAR", "STRING"},
    {"TEXT", "STRING"},       {"BINARY", "BINARY"},       {"BLOB", "BINARY"},
    {"DATE", "DATE"},         {"TIMESTAMP", "TIMESTAMP"}, {"TIMESTAMP_LTZ", "TIMESTAMP"},
    {"TIMESTAMP_NTZ", "TIMESTAMP_NTZ"}, {"ARRAY", "ARRAY"}, {"MAP", "MAP"},
}};

std::string TokenSnippet(std::string_view text, const Token& token) {
  std::string_view s = text.substr(std::min(token.offset, text.size()));
  s = s.substr(0, std::min<size_t>(token.length, 40));
  s = s.substr(0, s.find('\n'));  // messages stay one line
  std::string quoted = "\"";
  quoted += s;
  quoted += '"';
  return quoted;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Entry points

Result<std::vector<StatementPtr>> ParseStatements(std::string_view text, LexOptions options) {
  ASSIGN_OR_RETURN(auto tokens, Lex(text, options));
  Parser parser(text, std::move(tokens));
  return parser.ParseAll();
}

Result<StatementPtr> ParseStatement(std::string_view text, LexOptions options) {
  ASSIGN_OR_RETURN(auto tokens, Lex(text, options));
  Parser parser(text, std::move(tokens));
  return parser.ParseSingle();
}

Result<ExprPtr> ParseExpression(std::string_view text) {
  ASSIGN_OR_RETURN(auto tokens, Lex(text));
  Parser parser(text, std::move(tokens));
  return parser.ParseWholeExpression();
}

Result<TypeName> ParseTypeName(std::string_view text) {
  ASSIGN_OR_RETURN(auto tokens, Lex(text));
  Parser parser(text, std::move(tokens));
  return parser.ParseWholeType();
}

Result<std::vector<StatementPtr>> Parser::ParseAll() {
  std::vector<StatementPtr> out;
  while (true) {
    while (AcceptOperator(";")) {
    }
    if (Peek().type == TokenType::kEnd) break;
    ASSIGN_OR_RETURN(auto stmt, ParseStatementBody());
    stmt->parameters = std::move(parameters_);
    parameters_.reset();
    out.push_back(std::move(stmt));
    if (!AcceptOperator(";") && Peek().type != TokenType::kEnd) return SyntaxError();
  }
  return out;
}

Result<StatementPtr> Parser::ParseSingle() {
  if (Peek().type == TokenType::kEnd) return ErrorAt(Peek(), "empty statement");
  ASSIGN_OR_RETURN(auto stmt, ParseStatementBody());
  AcceptOperator(";");
  RETURN_NOT_OK(ExpectEnd());
  stmt->parameters = std::move(parameters_);
  return stmt;
}

Result<ExprPtr> Parser::ParseWholeExpression() {
  ASSIGN_OR_RETURN(auto expr, ParseExpr());
  RETURN_NOT_OK(ExpectEnd());
  return expr;
}

Result<TypeName> Parser::ParseWholeType() {
  ASSIGN_OR_RETURN(auto type, ParseType());
  RETURN_NOT_OK(ExpectEnd());
  return type;
}

// ---------------------------------------------------------------------------------------------
// Tokens and errors

const Token& Parser::Peek(size_t ahead) const {
  size_t i = pos_ + ahead;
  return i < tokens_.size() ? tokens_[i] : tokens_.back();
}

const Token& Parser::Advance() {
  const Token& t = Peek();
  if (pos_ + 1 < tokens_.size()) ++pos_;
  return t;
}

bool Parser::AcceptKeyword(std::string_view kw) {
  if (!PeekKeyword(kw)) return false;
  Advance();
  return true;
}

bool Parser::AcceptOperator(std::string_view op) {
  if (!PeekOperator(op)) return false;
  Advance();
  return true;
}

Status Parser::ExpectKeyword(std::string_view kw) {
  if (AcceptKeyword(kw)) return Status::OK();
  return SyntaxError();
}

Status Parser::ExpectOperator(std::string_view op) {
  if (AcceptOperator(op)) return Status::OK();
  return SyntaxError();
}

Status Parser::ExpectEnd() {
  if (Peek().type == TokenType::kEnd) return Status::OK();
  return SyntaxError();
}

Status Parser::SyntaxError() const { return ErrorAt(Peek(), "syntax error"); }

Status Parser::ErrorAt(const Token& token, std::string_view what) const {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on `std::string(what) + "..."`.
  std::string message(what);
  if (token.type == TokenType::kEnd) {
    message.append(" at end of input");
  } else {
    message.append(" at or near ");
    message.append(TokenSnippet(text_, token));
  }
  message.append(FormatPosition(text_, token.offset));
  return Status::Parser(std::move(message)).WithErrorOffset(static_cast<int64_t>(token.offset));
}

Status Parser::ErrorAtOffset(size_t offset, std::string_view what) const {
  auto it = std::lower_bound(tokens_.begin(), tokens_.end(), offset,
                             [](const Token& t, size_t off) { return t.offset < off; });
  if (it == tokens_.end()) it = tokens_.end() - 1;
  return ErrorAt(*it, what);
}

Status Parser::EnterNesting() {
  ++depth_;
  if (depth_ > kMaxNestingDepth) return ErrorAt(Peek(), "expression nested too deeply");
  return Status::OK();
}

Status Parser::CheckHeight(int height, size_t offset) const {
  if (height > kMaxNestingDepth) return ErrorAtOffset(offset, "expression nested too deeply");
  return Status::OK();
}

bool Parser::PeekIdentifier(size_t ahead) const {
  const Token& t = Peek(ahead);
  if (t.type == TokenType::kQuotedIdentifier) return true;
  return t.type == TokenType::kWord && !IsReservedKeyword(t.text);
}

Result<std::string> Parser::Identifier() {
  if (!PeekIdentifier()) return SyntaxError();
  return Advance().text;
}

Result<std::string> Parser::AnyName() {
  const Token& t = Peek();
  if (t.type != TokenType::kWord && t.type != TokenType::kQuotedIdentifier) return SyntaxError();
  return Advance().text;
}

Result<std::vector<std::string>> Parser::IdentifierList() {
  RETURN_NOT_OK(ExpectOperator("("));
  std::vector<std::string> out;
  do {
    ASSIGN_OR_RETURN(std::string name, Identifier());
    out.push_back(std::move(name));
  } while (AcceptOperator(","));
  RETURN_NOT_OK(ExpectOperator(")"));
  return out;
}

Result<std::string> Parser::StringLiteral() {
  if (Peek().type != TokenType::kString) return SyntaxError();
  return Advance().text;
}

Result<int64_t> Parser::SignedInteger() {
  bool negative = AcceptOperator("-");
  if (!negative) AcceptOperator("+");
  const Token& t = Peek();
  if (t.type != TokenType::kInteger) return SyntaxError();
  std::string digits = (negative ? "-" : "") + t.text;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(digits.c_str(), &end, 10);
  if (errno == ERANGE || end != digits.c_str() + digits.size()) {
    return ErrorAt(t, "integer out of range");
  }
  Advance();
  return static_cast<int64_t>(v);
}

// ---------------------------------------------------------------------------------------------
// Types

Result<TypeName> Parser::ParseType() {
  SHOAL_ENTER_NESTING();
  const Token& start = Peek();
  if (start.type != TokenType::kWord) return ErrorAt(start, "syntax error");
  TypeName type;
  type.position = start.offset;
  if (start.IsKeyword("STRUCT")) {
    Advance();
    type.name = "STRUCT";
    RETURN_NOT_OK(ExpectOperator("<"));
    if (!PeekOperator(">")) {
      do {
        ASSIGN_OR_RETURN(std::string field, AnyName());
        AcceptOperator(":");
        ASSIGN_OR_RETURN(TypeName child, ParseType());
        type.field_names.push_back(std::move(field));
        type.children.push_back(std::move(child));
      } while (AcceptOperator(","));
    }
    RETURN_NOT_OK(ExpectOperator(">"));
  } else {
    const TypeAlias* alias = nullptr;
    for (const TypeAlias& a : kTypeAliases) {
      if (start.IsKeyword(a.written)) alias = &a;
    }
    if (!alias) return ErrorAt(start, "unknown type");
    Advance();
    type.name = std::string(alias->canonical);
    if (type.name == "DOUBLE") AcceptKeyword("PRECISION");
    // CHAR(n), CHARACTER(n), CHAR VARYING(n), CHARACTER VARYING(n): strings (doc/sql.md).
    if (start.IsKeyword("CHAR") || start.IsKeyword("CHARACTER")) AcceptKeyword("VARYING");
    if (type.name == "ARRAY") {
      RETURN_NOT_OK(ExpectOperator("<"));
      ASSIGN_OR_RETURN(TypeName child, ParseType());
      type.children.push_back(std::move(child));
      RETURN_NOT_OK(ExpectOperator(">"));
    } else if (type.name == "MAP") {
      RETURN_NOT_OK(ExpectOperator("<"));
      ASSIGN_OR_RETURN(TypeName key, ParseType());
      RETURN_NOT_OK(ExpectOperator(","));
      ASSIGN_OR_RETURN(TypeName value, ParseType());
      type.children.push_back(std::move(key));
      type.children.push_back(std::move(value));
      RETURN_NOT_OK(ExpectOperator(">"));
    } else if (type.name == "DECIMAL") {
      int64_t precision = 10;
      int64_t scale = 0;
      if (AcceptOperator("(")) {
        const Token& p_token = Peek();
        ASSIGN_OR_RETURN(precision, SignedInteger());
        if (precision < 1 || precision > 38) {
          return ErrorAt(p_token, "DECIMAL precision must be between 1 and 38");
        }
        if (AcceptOperator(",")) {
          const Token& s_token = Peek();
          ASSIGN_OR_RETURN(scale, SignedInteger());
          if (scale < 0 || scale > precision) {
            return ErrorAt(s_token, "DECIMAL scale must be between 0 and the precision");
          }
        }
        RETURN_NOT_OK(ExpectOperator(")"));
      }
      type.params = {precision, scale};
    } else if (type.name == "STRING" && PeekOperator("(")) {
      Advance();
      const Token& n_token = Peek();
      ASSIGN_OR_RETURN(int64_t length, SignedInteger());
      if (length < 1) return ErrorAt(n_token, "string length must be positive");
      type.params = {length};
      RETURN_NOT_OK(ExpectOperator(")"));
    }
  }
  UpdateHeight(type);
  // T[] is ARRAY<T>.
  while (PeekOperator("[") && PeekOperator("]", 1)) {
    Advance();
    Advance();
    TypeName array;
    array.name = "ARRAY";
    array.position = type.position;
    array.children.push_back(std::move(type));
    UpdateHeight(array);
    type = std::move(array);
    RETURN_NOT_OK(CheckHeight(type.height, type.position));
  }
  return type;
}

// ---------------------------------------------------------------------------------------------
// Names, properties, option values

Result<TableName> Parser::ParseTableName() {
  TableName name;
  name.position = Peek().offset;
  std::vector<bool> quoted;
  do {
    quoted.push_back(Peek().type == TokenType::kQuotedIdentifier);
    ASSIGN_OR_RETURN(std::string part, Identifier());
    name.parts.push_back(std::move(part));
  } while (AcceptOperator("."));
  if (name.parts.size() == 2 && quoted[1] && EqualsIgnoreCase(name.parts[0], "DELTA")) {
    name.path = std::move(name.parts[1]);
    name.parts.clear();
  }
  return name;
}

Result<Properties> Parser::ParseProperties() {
  RETURN_NOT_OK(ExpectOperator("("));
  Properties props;
  if (!PeekOperator(")")) {
    do {
      std::string key;
      if (Peek().type == TokenType::kString) {
        key = Advance().text;
      } else {
        do {
          ASSIGN_OR_RETURN(std::string part, AnyName());
          if (!key.empty()) key += ".";
          key += part;
        } while (AcceptOperator("."));
      }
      AcceptOperator("=");
      ASSIGN_OR_RETURN(OptionValue value, ParseOptionValue());
      if (value.kind == OptionValue::Kind::kNone) return SyntaxError();
      props.emplace_back(std::move(key), std::move(value.text));
    } while (AcceptOperator(","));
  }
  RETURN_NOT_OK(ExpectOperator(")"));
  return props;
}

Result<OptionValue> Parser::ParseOptionValue() {
  OptionValue v;
  const Token& t = Peek();
  if (t.type == TokenType::kString) {
    v.kind = OptionValue::Kind::kString;
    v.text = Advance().text;
  } else if (t.IsOperator("-") || t.IsOperator("+") || t.type == TokenType::kInteger ||
             t.type == TokenType::kDecimal || t.type == TokenType::kFloat) {
    std::string sign;
    if (t.IsOperator("-") || t.IsOperator("+")) sign = Advance().text == "-" ? "-" : "";
    const Token& n = Peek();
    if (n.type != TokenType::kInteger && n.type != TokenType::kDecimal && n.type != TokenType::kFloat) {
      return SyntaxError();
    }
    v.kind = OptionValue::Kind::kNumber;
    v.text = sign + Advance().text;
  } else if (t.IsKeyword("TRUE") || t.IsKeyword("FALSE")) {
    v.kind = OptionValue::Kind::kBoolean;
    v.text = t.IsKeyword("TRUE") ? "true" : "false";
    Advance();
  } else if (t.type == TokenType::kWord || t.type == TokenType::kQuotedIdentifier) {
    v.kind = OptionValue::Kind::kWord;
    v.text = Advance().text;
  }
  return v;
}

}  // namespace shoal::sql
