// Expression parsing: precedence climbing over OR < AND < NOT < comparison < || < + - < * / %
// < unary - + < postfix (:: [] .) < primary.
#include "sql/parser/parser.h"

#include <array>

namespace shoal::sql {

namespace {

constexpr int kPrecOr = 1;
constexpr int kPrecAnd = 2;
constexpr int kPrecNot = 3;
constexpr int kPrecCompare = 4;
constexpr int kPrecConcat = 5;
constexpr int kPrecAdd = 6;
constexpr int kPrecMultiply = 7;
constexpr int kPrecUnary = 8;

struct IntervalUnit {
  std::string_view singular;
  std::string_view plural;
};
constexpr std::array<IntervalUnit, 9> kIntervalUnits = {{
    {"YEAR", "YEARS"}, {"MONTH", "MONTHS"}, {"WEEK", "WEEKS"}, {"DAY", "DAYS"},
    {"HOUR", "HOURS"}, {"MINUTE", "MINUTES"}, {"SECOND", "SECONDS"},
    {"MILLISECOND", "MILLISECONDS"}, {"MICROSECOND", "MICROSECONDS"},
}};

const IntervalUnit* FindIntervalUnit(const Token& t) {
  for (const IntervalUnit& u : kIntervalUnits) {
    if (t.IsKeyword(u.singular) || t.IsKeyword(u.plural)) return &u;
  }
  return nullptr;
}

// RLIKE and REGEXP are infix operators (x [NOT] RLIKE pattern), non-reserved words elsewhere.
bool IsRegexOperator(const Token& t) { return t.IsKeyword("RLIKE") || t.IsKeyword("REGEXP"); }

bool IsNumberToken(const Token& t) {
  return t.type == TokenType::kInteger || t.type == TokenType::kDecimal || t.type == TokenType::kFloat;
}

bool IsNumericLiteral(const ParsedExpression& e) {
  if (e.kind != ExprKind::kConstant) return false;
  LiteralKind k = e.As<ConstantExpression>().literal_kind;
  return k == LiteralKind::kInteger || k == LiteralKind::kDecimal || k == LiteralKind::kFloat;
}

std::string ToUpper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

template <typename T>
std::unique_ptr<T> Make(size_t pos) {
  return std::make_unique<T>(pos);
}

}  // namespace

Result<ExprPtr> Parser::Finish(ExprPtr expr) const {
  UpdateHeight(*expr);
  RETURN_NOT_OK(CheckHeight(expr->height, expr->position));
  return expr;
}

Result<std::vector<ExprPtr>> Parser::ParseExprList() {
  std::vector<ExprPtr> out;
  do {
    ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
    out.push_back(std::move(e));
  } while (AcceptOperator(","));
  return out;
}

Result<ExprPtr> Parser::ParseExpr(int min_precedence) {
  SHOAL_ENTER_NESTING();
  ASSIGN_OR_RETURN(ExprPtr left, ParsePrefix());
  while (true) {
    int precedence = InfixPrecedence();
    if (precedence == 0 || precedence < min_precedence) break;
    ASSIGN_OR_RETURN(left, ParseInfix(std::move(left), precedence));
  }
  return left;
}

int Parser::InfixPrecedence() const {
  const Token& t = Peek();
  if (t.type == TokenType::kOperator) {
    const std::string& op = t.text;
    if (op == "=" || op == "==" || op == "<>" || op == "!=" || op == "<" || op == "<=" ||
        op == ">" || op == ">=") {
      return kPrecCompare;
    }
    if (op == "||") return kPrecConcat;
    if (op == "+" || op == "-") return kPrecAdd;
    if (op == "*" || op == "/" || op == "//" || op == "%") return kPrecMultiply;
    return 0;
  }
  if (t.type != TokenType::kWord) return 0;
  if (t.IsKeyword("OR")) return kPrecOr;
  if (t.IsKeyword("AND")) return kPrecAnd;
  if (t.IsKeyword("DIV")) return kPrecMultiply;  // Spark's integral division, a DIV b
  if (t.IsKeyword("IS") || t.IsKeyword("BETWEEN") || t.IsKeyword("IN") || t.IsKeyword("LIKE") ||
      t.IsKeyword("ILIKE") || IsRegexOperator(t)) {
    return kPrecCompare;
  }
  if (t.IsKeyword("NOT")) {
    const Token& n = Peek(1);
    if (n.IsKeyword("BETWEEN") || n.IsKeyword("IN") || n.IsKeyword("LIKE") || n.IsKeyword("ILIKE") ||
        IsRegexOperator(n)) {
      return kPrecCompare;
    }
  }
  return 0;
}

Result<ExprPtr> Parser::ParseInfix(ExprPtr left, int precedence) {
  size_t pos = left->position;
  const Token& t = Advance();
  if (t.type == TokenType::kOperator || t.IsKeyword("OR") || t.IsKeyword("AND") || t.IsKeyword("DIV")) {
    auto bin = Make<BinaryExpression>(pos);
    bin->op_position = t.offset;
    const std::string& op = t.text;
    if (t.IsKeyword("OR")) bin->op = BinaryOp::kOr;
    else if (t.IsKeyword("AND")) bin->op = BinaryOp::kAnd;
    else if (op == "=" || op == "==") bin->op = BinaryOp::kEqual;
    else if (op == "<>" || op == "!=") bin->op = BinaryOp::kNotEqual;
    else if (op == "<") bin->op = BinaryOp::kLess;
    else if (op == "<=") bin->op = BinaryOp::kLessEqual;
    else if (op == ">") bin->op = BinaryOp::kGreater;
    else if (op == ">=") bin->op = BinaryOp::kGreaterEqual;
    else if (op == "||") bin->op = BinaryOp::kConcat;
    else if (op == "+") bin->op = BinaryOp::kAdd;
    else if (op == "-") bin->op = BinaryOp::kSubtract;
    else if (op == "*") bin->op = BinaryOp::kMultiply;
    else if (op == "/") bin->op = BinaryOp::kDivide;
    else if (op == "//" || t.IsKeyword("DIV")) bin->op = BinaryOp::kIntegerDivide;
    else bin->op = BinaryOp::kModulo;
    const bool comparison = bin->op == BinaryOp::kEqual || bin->op == BinaryOp::kNotEqual ||
                            bin->op == BinaryOp::kLess || bin->op == BinaryOp::kLessEqual ||
                            bin->op == BinaryOp::kGreater || bin->op == BinaryOp::kGreaterEqual;
    if (comparison && (PeekKeyword("ANY") || PeekKeyword("SOME") || PeekKeyword("ALL")) && Peek(1).IsOperator("(")) {
      // x op ANY|SOME|ALL (subquery)
      auto e = Make<InExpression>(pos);
      e->quantifier = PeekKeyword("ALL") ? "ALL" : "ANY";
      Advance();
      e->compare = BinaryOpSql(bin->op);
      e->input = std::move(left);
      bool matched = false;
      RETURN_NOT_OK(ParseParenthesizedQueryIf(&e->subquery, &matched));
      if (!matched) return SyntaxError();
      return Finish(std::move(e));
    }
    bin->left = std::move(left);
    ASSIGN_OR_RETURN(bin->right, ParseExpr(precedence + 1));
    return Finish(std::move(bin));
  }
  if (t.IsKeyword("IS")) {
    bool negated = AcceptKeyword("NOT");
    if (AcceptKeyword("NULL")) {
      auto e = Make<IsNullExpression>(pos);
      e->child = std::move(left);
      e->negated = negated;
      return Finish(std::move(e));
    }
    if (AcceptKeyword("DISTINCT")) {
      RETURN_NOT_OK(ExpectKeyword("FROM"));
      auto bin = Make<BinaryExpression>(pos);
      bin->op_position = t.offset;
      bin->op = negated ? BinaryOp::kNotDistinctFrom : BinaryOp::kDistinctFrom;
      bin->left = std::move(left);
      ASSIGN_OR_RETURN(bin->right, ParseExpr(precedence + 1));
      return Finish(std::move(bin));
    }
    if (PeekKeyword("TRUE") || PeekKeyword("FALSE")) {
      // x IS [NOT] TRUE is x IS [NOT] DISTINCT FROM TRUE with the NOT flipped: same semantics.
      auto bin = Make<BinaryExpression>(pos);
      bin->op_position = t.offset;
      bin->op = negated ? BinaryOp::kDistinctFrom : BinaryOp::kNotDistinctFrom;
      bin->left = std::move(left);
      ASSIGN_OR_RETURN(bin->right, ParsePrimary());
      return Finish(std::move(bin));
    }
    return SyntaxError();
  }
  bool negated = false;
  const Token* op = &t;
  if (t.IsKeyword("NOT")) {
    negated = true;
    op = &Advance();
  }
  if (op->IsKeyword("BETWEEN")) {
    auto e = Make<BetweenExpression>(pos);
    e->input = std::move(left);
    e->negated = negated;
    ASSIGN_OR_RETURN(e->lower, ParseExpr(precedence + 1));
    RETURN_NOT_OK(ExpectKeyword("AND"));
    ASSIGN_OR_RETURN(e->upper, ParseExpr(precedence + 1));
    return Finish(std::move(e));
  }
  if (op->IsKeyword("IN")) return ParseIn(std::move(left), negated, pos);
  if (IsRegexOperator(*op)) {  // x RLIKE p is the function call rlike(x, p) (Spark)
    auto call = Make<FunctionExpression>(pos);
    call->name = "rlike";
    call->args.push_back(std::move(left));
    ASSIGN_OR_RETURN(ExprPtr pattern, ParseExpr(precedence + 1));
    call->args.push_back(std::move(pattern));
    call->arg_names.resize(2);
    ASSIGN_OR_RETURN(ExprPtr match, Finish(std::move(call)));
    if (!negated) return match;
    auto e = Make<UnaryExpression>(pos);
    e->op = UnaryOp::kNot;
    e->child = std::move(match);
    return Finish(std::move(e));
  }
  // LIKE / ILIKE
  auto e = Make<LikeExpression>(pos);
  e->input = std::move(left);
  e->negated = negated;
  e->case_insensitive = op->IsKeyword("ILIKE");
  ASSIGN_OR_RETURN(e->pattern, ParseExpr(precedence + 1));
  if (AcceptKeyword("ESCAPE")) {
    ASSIGN_OR_RETURN(e->escape, ParseExpr(precedence + 1));
  }
  return Finish(std::move(e));
}

Result<ExprPtr> Parser::ParseIn(ExprPtr left, bool negated, size_t pos) {
  auto e = Make<InExpression>(pos);
  e->input = std::move(left);
  e->negated = negated;
  if (!PeekOperator("(")) return SyntaxError();
  bool matched = false;
  RETURN_NOT_OK(ParseParenthesizedQueryIf(&e->subquery, &matched));
  if (!matched) {
    Advance();
    ASSIGN_OR_RETURN(e->values, ParseExprList());
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  return Finish(std::move(e));
}

Result<ExprPtr> Parser::ParsePrefix() {
  const Token& t = Peek();
  if (t.IsKeyword("NOT")) {
    Advance();
    auto e = Make<UnaryExpression>(t.offset);
    e->op = UnaryOp::kNot;
    ASSIGN_OR_RETURN(e->child, ParseExpr(kPrecNot));
    return Finish(std::move(e));
  }
  if (t.IsOperator("-") || t.IsOperator("+")) {
    Advance();
    bool negate = t.text == "-";
    ASSIGN_OR_RETURN(ExprPtr child, ParseExpr(kPrecUnary));
    if (negate && IsNumericLiteral(*child)) {
      auto& c = child->As<ConstantExpression>();
      if (c.text.empty() || c.text[0] != '-') {
        c.text = "-" + c.text;
        c.position = t.offset;
        return child;
      }
    }
    auto e = Make<UnaryExpression>(t.offset);
    e->op = negate ? UnaryOp::kNegate : UnaryOp::kPlus;
    e->child = std::move(child);
    return Finish(std::move(e));
  }
  ASSIGN_OR_RETURN(ExprPtr primary, ParsePrimary());
  return ParsePostfix(std::move(primary));
}

Result<ExprPtr> Parser::ParsePostfix(ExprPtr base) {
  while (true) {
    size_t pos = base->position;
    if (AcceptOperator("::")) {
      auto e = Make<CastExpression>(pos);
      e->child = std::move(base);
      ASSIGN_OR_RETURN(e->type, ParseType());
      ASSIGN_OR_RETURN(base, Finish(std::move(e)));
    } else if (PeekOperator("[")) {
      Advance();
      auto e = Make<SubscriptExpression>(pos);
      e->base = std::move(base);
      ASSIGN_OR_RETURN(e->index, ParseExpr());
      RETURN_NOT_OK(ExpectOperator("]"));
      ASSIGN_OR_RETURN(base, Finish(std::move(e)));
    } else if (PeekOperator(".") && (Peek(1).type == TokenType::kWord ||
                                     Peek(1).type == TokenType::kQuotedIdentifier)) {
      Advance();
      auto e = Make<FieldAccessExpression>(pos);
      e->base = std::move(base);
      e->field = Advance().text;
      ASSIGN_OR_RETURN(base, Finish(std::move(e)));
    } else {
      return base;
    }
  }
}

Result<ExprPtr> Parser::ParsePrimary() {
  const Token& t = Peek();
  // A lambda parses anywhere (the binder accepts it only as a higher-order function's argument).
  if (size_t params = LambdaParamsAhead(); params > 0) return ParseLambda(params);
  switch (t.type) {
    case TokenType::kInteger:
    case TokenType::kDecimal:
    case TokenType::kFloat:
    case TokenType::kString: {
      auto c = Make<ConstantExpression>(t.offset);
      c->literal_kind = t.type == TokenType::kInteger   ? LiteralKind::kInteger
                        : t.type == TokenType::kDecimal ? LiteralKind::kDecimal
                        : t.type == TokenType::kFloat   ? LiteralKind::kFloat
                                                        : LiteralKind::kString;
      c->number_suffix = t.suffix;
      c->text = Advance().text;
      // Adjacent string literals are one literal: 'a' 'b' is 'ab' (Spark SQL).
      while (c->literal_kind == LiteralKind::kString && Peek().type == TokenType::kString) {
        c->text += Advance().text;
      }
      return ExprPtr(std::move(c));
    }
    case TokenType::kHexString: {
      auto c = Make<ConstantExpression>(t.offset);
      c->literal_kind = LiteralKind::kBinary;
      c->text = Advance().text;
      return ExprPtr(std::move(c));
    }
    case TokenType::kQuotedIdentifier:
      if (PeekOperator("(", 1)) {
        Advance();
        ASSIGN_OR_RETURN(auto fn, ParseFunctionCall(t.text, t.offset, false));
        return ExprPtr(std::move(fn));
      }
      return ParseColumnRef();
    case TokenType::kWord: return ParseWordPrimary();
    case TokenType::kOperator:
      if (t.text == "(") return ParseParenthesized();
      if (t.text == "*") {
        Advance();
        return ExprPtr(Make<StarExpression>(t.offset));
      }
      if (t.text == "[") {
        Advance();
        auto list = Make<ListExpression>(t.offset);
        if (!AcceptOperator("]")) {
          ASSIGN_OR_RETURN(list->elements, ParseExprList());
          RETURN_NOT_OK(ExpectOperator("]"));
        }
        return Finish(std::move(list));
      }
      if (t.text == "{") return ParseStructLiteral();
      if (t.text.size() > 1 && t.text[0] == '$') return ParseNumberedParameter();
      return SyntaxError();
    case TokenType::kEnd: return SyntaxError();
  }
  return SyntaxError();
}

Result<ExprPtr> Parser::ParseWordPrimary() {
  const Token& t = Peek();
  // An ordinary call f(...) takes the short path: its frame is on every level of f(f(...)).
  if (Peek(1).IsOperator("(") && !IsReservedKeyword(t.text) && !IsKeywordForm(t)) {
    Advance();
    ASSIGN_OR_RETURN(auto fn, ParseFunctionCall(t.text, t.offset, false));
    return ExprPtr(std::move(fn));
  }
  if (t.IsKeyword("CASE")) return ParseCase();  // likewise for CASE WHEN CASE WHEN ...
  return ParseKeywordPrimary();
}

bool Parser::IsKeywordForm(const Token& t) const {
  static constexpr std::array<std::string_view, 11> kForms = {
      "CASE", "CAST", "TRY_CAST", "EXISTS", "EXTRACT", "SUBSTRING", "SUBSTR", "TRIM", "OVERLAY", "POSITION",
      "DEFAULT"};
  for (std::string_view f : kForms) {
    if (t.IsKeyword(f)) return true;
  }
  return false;
}

Result<ExprPtr> Parser::ParseKeywordPrimary() {
  const Token& t = Peek();
  const Token& next = Peek(1);
  if (t.IsKeyword("NULL")) {
    Advance();
    return ExprPtr(Make<ConstantExpression>(t.offset));
  }
  if (t.IsKeyword("TRUE") || t.IsKeyword("FALSE")) {
    Advance();
    auto c = Make<ConstantExpression>(t.offset);
    c->literal_kind = LiteralKind::kBoolean;
    c->text = t.IsKeyword("TRUE") ? "true" : "false";
    return ExprPtr(std::move(c));
  }
  if (t.IsKeyword("DEFAULT") && !next.IsOperator("(") && !next.IsOperator(".")) {
    Advance();
    auto c = Make<ConstantExpression>(t.offset);
    c->literal_kind = LiteralKind::kDefault;
    return ExprPtr(std::move(c));
  }
  if (t.IsKeyword("CASE")) return ParseCase();
  if ((t.IsKeyword("CAST") || t.IsKeyword("TRY_CAST")) && next.IsOperator("(")) {
    return ParseCast(t.IsKeyword("TRY_CAST"));
  }
  if (t.IsKeyword("EXISTS") && next.IsOperator("(")) {
    Advance();
    auto e = Make<ExistsExpression>(t.offset);
    bool matched = false;
    RETURN_NOT_OK(ParseParenthesizedQueryIf(&e->query, &matched));
    if (!matched) {  // exists(array, x -> predicate): the higher-order function
      ASSIGN_OR_RETURN(auto fn, ParseFunctionCall(t.text, t.offset, false));
      return ExprPtr(std::move(fn));
    }
    return Finish(std::move(e));
  }
  if (t.IsKeyword("EXTRACT") && next.IsOperator("(")) {
    Advance();
    Advance();
    auto e = Make<ExtractExpression>(t.offset);
    if (Peek().type != TokenType::kWord) return SyntaxError();
    e->field = ToUpper(Advance().text);
    RETURN_NOT_OK(ExpectKeyword("FROM"));
    ASSIGN_OR_RETURN(e->source, ParseExpr());
    RETURN_NOT_OK(ExpectOperator(")"));
    return Finish(std::move(e));
  }
  if (t.IsKeyword("INTERVAL") && (next.type == TokenType::kString || IsNumberToken(next))) {
    return ParseInterval();
  }
  if (next.type == TokenType::kString &&
      (t.IsKeyword("DATE") || t.IsKeyword("TIMESTAMP") || t.IsKeyword("TIMESTAMP_NTZ"))) {
    auto c = Make<ConstantExpression>(t.offset);
    c->literal_kind = t.IsKeyword("DATE")        ? LiteralKind::kDate
                      : t.IsKeyword("TIMESTAMP") ? LiteralKind::kTimestamp
                                                 : LiteralKind::kTimestampNtz;
    Advance();
    c->text = Advance().text;
    return ExprPtr(std::move(c));
  }
  if ((t.IsKeyword("SUBSTRING") || t.IsKeyword("SUBSTR")) && next.IsOperator("(")) {
    ASSIGN_OR_RETURN(ExprPtr e, ParseSubstringFrom());
    if (e) return e;
  }
  if (t.IsKeyword("TRIM") && next.IsOperator("(")) {
    ASSIGN_OR_RETURN(ExprPtr e, ParseTrimFrom());
    if (e) return e;
  }
  if ((t.IsKeyword("OVERLAY") || t.IsKeyword("POSITION")) && next.IsOperator("(")) {
    ASSIGN_OR_RETURN(ExprPtr e, ParseOverlayOrPosition());
    if (e) return e;
  }
  if (next.IsOperator("(")) {
    // LEFT(s, n) and RIGHT(s, n) are functions although LEFT/RIGHT are reserved (joins).
    if (IsReservedKeyword(t.text) && !t.IsKeyword("LEFT") && !t.IsKeyword("RIGHT")) {
      return SyntaxError();
    }
    Advance();
    ASSIGN_OR_RETURN(auto fn, ParseFunctionCall(t.text, t.offset, false));
    return ExprPtr(std::move(fn));
  }
  if (IsReservedKeyword(t.text)) return SyntaxError();
  return ParseColumnRef();
}

// FILTER (WHERE p) after an aggregate call (its own function: ParseFunctionCall's frame is on
// every nesting level of f(f(...))).
Status Parser::ParseWithinGroup(FunctionExpression* fn) {
  Advance();  // WITHIN
  Advance();  // GROUP
  RETURN_NOT_OK(ExpectOperator("("));
  RETURN_NOT_OK(ExpectKeyword("ORDER"));
  RETURN_NOT_OK(ExpectKeyword("BY"));
  ASSIGN_OR_RETURN(fn->within_group, ParseExpr());
  if (AcceptKeyword("DESC")) {
    fn->within_group_descending = true;
  } else {
    AcceptKeyword("ASC");
  }
  return ExpectOperator(")");
}

Status Parser::ParseAggregateFilter(FunctionExpression* fn) {
  Advance();
  Advance();
  RETURN_NOT_OK(ExpectKeyword("WHERE"));
  ASSIGN_OR_RETURN(fn->filter, ParseExpr());
  return ExpectOperator(")");
}

// Kept out of ParseWordPrimary (which every nesting level of f(f(...)) passes through) so its
// locals do not grow that frame.
Result<ExprPtr> Parser::ParseOverlayOrPosition() {
  const Token& t = Peek();
  size_t start = pos_;
  Advance();
  Advance();
  if (t.IsKeyword("OVERLAY")) {
    // overlay(input, replace, pos[, len]) is an ordinary call; the PLACING form is not built.
    auto input = ParseExpr();
    if (!input.ok()) {
      pos_ = start;
      return ExprPtr();
    }
    if (AcceptKeyword("PLACING")) return ErrorAt(t, "overlay(... PLACING ...) is not supported");
    // The first argument goes on as an ordinary call's, without a re-parse (nested calls stay
    // linear).
    if (PeekOperator(",") || PeekOperator(")")) return FinishPlainCall(t, std::move(input).value());
    pos_ = start;
    return ExprPtr();
  }
  {
    // position(needle IN haystack) is position(needle, haystack); otherwise an ordinary call.
    auto needle = ParseExpr(kPrecCompare + 1);
    if (needle.ok() && AcceptKeyword("IN")) {
      auto fn = Make<FunctionExpression>(t.offset);
      fn->name = t.text;
      fn->args.push_back(std::move(needle).value());
      ASSIGN_OR_RETURN(ExprPtr haystack, ParseExpr());
      fn->args.push_back(std::move(haystack));
      fn->arg_names.resize(2);
      RETURN_NOT_OK(ExpectOperator(")"));
      return Finish(std::move(fn));
    }
    if (needle.ok()) {
      // Not IN: the first argument of an ordinary call goes on from the needle, without a
      // re-parse (nested calls stay linear).
      ExprPtr first = std::move(needle).value();
      while (int precedence = InfixPrecedence()) {
        ASSIGN_OR_RETURN(first, ParseInfix(std::move(first), precedence));
      }
      if (PeekOperator(",") || PeekOperator(")")) return FinishPlainCall(t, std::move(first));
    }
    pos_ = start;
  }
  return ExprPtr();
}

Result<ExprPtr> Parser::ParseColumnRef() {
  auto col = Make<ColumnRefExpression>(Peek().offset);
  col->parts.push_back(Advance().text);
  while (PeekOperator(".")) {
    const Token& n = Peek(1);
    if (n.IsOperator("*")) {
      Advance();
      Advance();
      auto star = Make<StarExpression>(col->position);
      star->qualifier = std::move(col->parts);
      return ExprPtr(std::move(star));
    }
    if (n.type != TokenType::kWord && n.type != TokenType::kQuotedIdentifier) {
      return ErrorAt(n, "syntax error");
    }
    Advance();
    col->parts.push_back(Advance().text);
  }
  return ExprPtr(std::move(col));
}

Result<std::unique_ptr<FunctionExpression>> Parser::ParseFunctionCall(std::string name, size_t pos,
                                                                      bool table_function) {
  auto fn = Make<FunctionExpression>(pos);
  fn->name = std::move(name);
  RETURN_NOT_OK(ExpectOperator("("));
  if (!AcceptOperator(")")) {
    if (AcceptKeyword("DISTINCT")) {
      fn->distinct = true;
    } else {
      AcceptKeyword("ALL");
    }
    do {
      std::string arg_name;
      const Token& t = Peek();
      bool name_token = t.type == TokenType::kWord || t.type == TokenType::kQuotedIdentifier;
      if (name_token && (PeekOperator("=>", 1) || (table_function && PeekOperator("=", 1)))) {
        arg_name = Advance().text;
        Advance();
      }
      ASSIGN_OR_RETURN(ExprPtr arg, ParseExpr());
      fn->args.push_back(std::move(arg));
      fn->arg_names.push_back(std::move(arg_name));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  if (!table_function && PeekKeyword("WITHIN") && PeekKeyword("GROUP", 1)) RETURN_NOT_OK(ParseWithinGroup(fn.get()));
  if (!table_function && PeekKeyword("FILTER") && PeekOperator("(", 1)) RETURN_NOT_OK(ParseAggregateFilter(fn.get()));
  if (!table_function && AcceptKeyword("OVER")) {
    ASSIGN_OR_RETURN(fn->over, ParseOver());
  }
  UpdateHeight(*fn);
  RETURN_NOT_OK(CheckHeight(fn->height, fn->position));
  return fn;
}

size_t Parser::LambdaParamsAhead() const {
  auto name = [&](size_t k) {
    return Peek(k).type == TokenType::kWord || Peek(k).type == TokenType::kQuotedIdentifier;
  };
  if (name(0) && PeekOperator("->", 1)) return 1;
  if (!PeekOperator("(")) return 0;
  size_t k = 1;
  size_t count = 0;
  while (name(k)) {
    ++count;
    if (PeekOperator(")", k + 1)) return PeekOperator("->", k + 2) ? count : 0;
    if (!PeekOperator(",", k + 1)) return 0;
    k += 2;
  }
  return 0;
}

[[gnu::noinline]] Result<ExprPtr> Parser::ParseLambda(size_t params) {
  auto lambda = Make<LambdaExpression>(Peek().offset);
  const bool parenthesized = AcceptOperator("(");
  for (size_t i = 0; i < params; ++i) {
    if (i) Advance();  // ,
    lambda->params.push_back(Advance().text);
  }
  if (parenthesized) Advance();  // )
  Advance();                     // ->
  ASSIGN_OR_RETURN(lambda->body, ParseExpr());
  UpdateHeight(*lambda);
  RETURN_NOT_OK(CheckHeight(lambda->height, lambda->position));
  return ExprPtr(std::move(lambda));
}

Result<ExprPtr> Parser::ParseParenthesized() {
  QueryPtr query;
  bool matched = false;
  size_t pos = Peek().offset;
  RETURN_NOT_OK(ParseParenthesizedQueryIf(&query, &matched));
  if (matched) {
    auto e = Make<SubqueryExpression>(pos);
    e->query = std::move(query);
    return Finish(std::move(e));
  }
  Advance();
  ASSIGN_OR_RETURN(ExprPtr inner, ParseExpr());
  RETURN_NOT_OK(ExpectOperator(")"));
  return inner;
}

// Out of line: ParsePrimary is on the stack once per nesting level, so its frame stays small.
[[gnu::noinline]] Result<ExprPtr> Parser::ParseNumberedParameter() {
  const Token& t = Peek();  // a parameter `$N` (the lexer checked the digits)
  auto c = Make<ConstantExpression>(t.offset);
  c->literal_kind = LiteralKind::kParameter;
  c->text = t.text.substr(1);
  size_t n = std::stoul(c->text);
  if (!parameters_) parameters_ = std::make_shared<ParameterValues>();
  if (parameters_->values.size() < n) parameters_->values.resize(n);
  c->parameters = parameters_;
  Advance();
  return ExprPtr(std::move(c));
}

Result<ExprPtr> Parser::ParseCase() {
  auto e = Make<CaseExpression>(Advance().offset);
  if (!PeekKeyword("WHEN")) {
    ASSIGN_OR_RETURN(e->operand, ParseExpr());
  }
  while (AcceptKeyword("WHEN")) {
    CaseExpression::When w;
    ASSIGN_OR_RETURN(w.when, ParseExpr());
    RETURN_NOT_OK(ExpectKeyword("THEN"));
    ASSIGN_OR_RETURN(w.then, ParseExpr());
    e->whens.push_back(std::move(w));
  }
  if (e->whens.empty()) return SyntaxError();
  if (AcceptKeyword("ELSE")) {
    ASSIGN_OR_RETURN(e->else_expr, ParseExpr());
  }
  RETURN_NOT_OK(ExpectKeyword("END"));
  return Finish(std::move(e));
}

Result<ExprPtr> Parser::ParseCast(bool try_cast) {
  auto e = Make<CastExpression>(Advance().offset);
  e->try_cast = try_cast;
  RETURN_NOT_OK(ExpectOperator("("));
  ASSIGN_OR_RETURN(e->child, ParseExpr());
  RETURN_NOT_OK(ExpectKeyword("AS"));
  ASSIGN_OR_RETURN(e->type, ParseType());
  RETURN_NOT_OK(ExpectOperator(")"));
  return Finish(std::move(e));
}

Result<ExprPtr> Parser::ParseInterval() {
  auto c = Make<ConstantExpression>(Advance().offset);
  c->literal_kind = LiteralKind::kInterval;
  const Token& value = Advance();
  c->text = value.text;
  if (const IntervalUnit* unit = FindIntervalUnit(Peek())) {
    c->interval_unit = std::string(unit->singular);
    Advance();
    // The SQL interval qualifier's leading field precision: INTERVAL '90' DAY (3).
    if (PeekOperator("(") && Peek(1).type == TokenType::kInteger && PeekOperator(")", 2)) {
      const Token& precision = Peek(1);
      int64_t digits = precision.text.size() > 2 ? 100 : std::stoll(precision.text);
      if (digits < 1 || digits > 9) {
        return ErrorAt(precision, "interval leading field precision must be between 1 and 9");
      }
      size_t value_digits = 0;
      for (char ch : c->text) value_digits += ch >= '0' && ch <= '9' ? 1 : 0;
      if (value_digits > static_cast<size_t>(digits)) {
        return ErrorAt(value, "interval value has more digits than its leading field precision");
      }
      Advance();
      Advance();
      Advance();
    }
  } else if (value.type != TokenType::kString) {
    return SyntaxError();
  }
  return ExprPtr(std::move(c));
}

Result<ExprPtr> Parser::ParseSubstringFrom() {
  // substring(s FROM a [FOR b]) and substring(s FOR b) are substring(s, a[, b]) and
  // substring(s, 1, b); the comma form is finished here as a plain call (no re-parse, so nested
  // calls stay linear); anything else is left to the ordinary call (returns null).
  size_t start = pos_;
  const Token& name = Advance();
  Advance();
  Result<ExprPtr> source = ParseExpr();
  if (source.ok() && (PeekOperator(",") || PeekOperator(")"))) {
    return FinishPlainCall(name, std::move(source).value());
  }
  if (!source.ok() || !(PeekKeyword("FROM") || PeekKeyword("FOR"))) {
    pos_ = start;
    return ExprPtr();
  }
  auto fn = Make<FunctionExpression>(name.offset);
  fn->name = "substring";
  fn->args.push_back(std::move(source).value());
  if (AcceptKeyword("FROM")) {
    ASSIGN_OR_RETURN(ExprPtr from, ParseExpr());
    fn->args.push_back(std::move(from));
  } else {
    auto one = Make<ConstantExpression>(Peek().offset);
    one->literal_kind = LiteralKind::kInteger;
    one->text = "1";
    fn->args.push_back(std::move(one));
  }
  if (AcceptKeyword("FOR")) {
    ASSIGN_OR_RETURN(ExprPtr length, ParseExpr());
    fn->args.push_back(std::move(length));
  }
  fn->arg_names.resize(fn->args.size());
  RETURN_NOT_OK(ExpectOperator(")"));
  return Finish(std::move(fn));
}

Result<ExprPtr> Parser::FinishPlainCall(const Token& name, ExprPtr first) {
  auto fn = Make<FunctionExpression>(name.offset);
  fn->name = name.text;
  fn->args.push_back(std::move(first));
  while (AcceptOperator(",")) {
    ASSIGN_OR_RETURN(ExprPtr arg, ParseExpr());
    fn->args.push_back(std::move(arg));
  }
  fn->arg_names.resize(fn->args.size());
  RETURN_NOT_OK(ExpectOperator(")"));
  return Finish(std::move(fn));
}

Result<ExprPtr> Parser::ParseTrimFrom() {
  // trim([BOTH|LEADING|TRAILING] [chars] FROM s) is trim|ltrim|rtrim(s[, chars]); trim(s) and
  // trim(s, chars) are left to the ordinary call (returns null).
  size_t start = pos_;
  const Token& name = Advance();
  Advance();
  std::string function = "trim";
  bool side = true;
  if (AcceptKeyword("LEADING")) {
    function = "ltrim";
  } else if (AcceptKeyword("TRAILING")) {
    function = "rtrim";
  } else if (!AcceptKeyword("BOTH")) {
    side = false;
  }
  ExprPtr chars;
  if (!PeekKeyword("FROM")) {
    Result<ExprPtr> e = ParseExpr();
    if (e.ok() && !side && (PeekOperator(",") || PeekOperator(")"))) {
      return FinishPlainCall(name, std::move(e).value());
    }
    if (!e.ok() && side) return e.status();
    if (!e.ok() || !PeekKeyword("FROM")) {
      if (side) return SyntaxError();
      pos_ = start;
      return ExprPtr();
    }
    chars = std::move(e).value();
  }
  RETURN_NOT_OK(ExpectKeyword("FROM"));
  auto fn = Make<FunctionExpression>(name.offset);
  fn->name = function;
  ASSIGN_OR_RETURN(ExprPtr source, ParseExpr());
  fn->args.push_back(std::move(source));
  if (chars) fn->args.push_back(std::move(chars));
  fn->arg_names.resize(fn->args.size());
  RETURN_NOT_OK(ExpectOperator(")"));
  return Finish(std::move(fn));
}

Result<ExprPtr> Parser::ParseStructLiteral() {
  auto e = Make<StructExpression>(Advance().offset);
  if (!AcceptOperator("}")) {
    do {
      const Token& key = Peek();
      if (key.type != TokenType::kString && key.type != TokenType::kWord &&
          key.type != TokenType::kQuotedIdentifier) {
        return SyntaxError();
      }
      e->names.push_back(Advance().text);
      RETURN_NOT_OK(ExpectOperator(":"));
      ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
      e->values.push_back(std::move(value));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator("}"));
  }
  return Finish(std::move(e));
}

}  // namespace shoal::sql
