// Recursive-descent parser from SQL text to the AST of ast.h. Entry points are the free
// functions; the Parser class holds the state of one parse and is split over
// parser.cc (tokens, errors, types, statement list), parser_expr.cc, parser_select.cc
// (queries and FROM), parser_statement.cc (DML and utility), parser_ddl.cc (CREATE/ALTER) and
// parser_view.cc (CREATE/DROP VIEW).
#pragma once

#include <string_view>
#include <unordered_set>
#include <vector>

#include "shoal/status.h"
#include "sql/parser/ast.h"
#include "sql/parser/lexer.h"
#include "sql/parser/token.h"

namespace shoal::sql {

// Parses `;`-separated statements (empty statements are skipped). Errors are ParserExceptions
// whose message names the token and its line/column.
// `options` says how "double quotes" read (LexOptions).
Result<std::vector<StatementPtr>> ParseStatements(std::string_view text, LexOptions options = {});
// Parses exactly one statement (a trailing ';' is allowed).
Result<StatementPtr> ParseStatement(std::string_view text, LexOptions options = {});
// Parses one expression, e.g. a CHECK constraint or generated-column expression stored as
// text in a Delta table's metadata.
Result<ExprPtr> ParseExpression(std::string_view text);
// Parses one type name, e.g. "DECIMAL(10, 2)" or "ARRAY<STRUCT<a: INT>>".
Result<TypeName> ParseTypeName(std::string_view text);

// `r` with its error pointing nowhere (Status::error_offset): for errors about SQL text other
// than the caller's — a view's stored text, an expression from a table's metadata, SQL the
// engine built — whose offsets would point into that other text.
inline Status WithoutErrorOffset(const Status& s) { return s.WithErrorOffset(std::nullopt); }
template <typename T>
Result<T> WithoutErrorOffset(Result<T> r) {
  if (r.ok()) return r;
  return WithoutErrorOffset(r.status());
}

// Holds the tokens and position of one parse.
// Thread-safety: not thread-safe; one parse per instance.
class Parser {
 public:
  Parser(std::string_view text, std::vector<Token> tokens)
      : text_(text), tokens_(std::move(tokens)) {}

  Result<std::vector<StatementPtr>> ParseAll();  // ;-separated statements
  Result<StatementPtr> ParseSingle();             // exactly one statement
  Result<ExprPtr> ParseWholeExpression();         // the whole input as one expression
  Result<TypeName> ParseWholeType();              // the whole input as one type

 private:
  friend class NestingScope;

  // --- tokens and errors (parser.cc)
  const Token& Peek(size_t ahead = 0) const;
  const Token& Advance();
  bool PeekKeyword(std::string_view kw, size_t ahead = 0) const { return Peek(ahead).IsKeyword(kw); }
  bool PeekOperator(std::string_view op, size_t ahead = 0) const { return Peek(ahead).IsOperator(op); }
  bool AcceptKeyword(std::string_view kw);
  bool AcceptOperator(std::string_view op);
  Status ExpectKeyword(std::string_view kw);
  Status ExpectOperator(std::string_view op);
  Status ExpectEnd();
  Status SyntaxError() const;  // at the current token
  Status ErrorAt(const Token& token, std::string_view what) const;
  Status ErrorAtOffset(size_t offset, std::string_view what) const;
  // Counts one level of recursion; fails past kMaxNestingDepth.
  Status EnterNesting();
  Status CheckHeight(int height, size_t offset) const;
  // A name: a non-reserved bare word or a quoted identifier.
  bool PeekIdentifier(size_t ahead = 0) const;
  Result<std::string> Identifier();
  // Any bare word (reserved or not) or quoted identifier, e.g. after AS or in SET keys.
  Result<std::string> AnyName();
  Result<std::vector<std::string>> IdentifierList();  // ( a, b, ... )
  Result<std::string> StringLiteral();
  Result<int64_t> SignedInteger();
  Result<TypeName> ParseType();
  Result<TableName> ParseTableName();
  Result<Properties> ParseProperties();
  Result<OptionValue> ParseOptionValue();

  // --- expressions (parser_expr.cc)
  Result<ExprPtr> ParseExpr(int min_precedence = 0);
  Result<ExprPtr> ParsePrefix();
  Result<ExprPtr> ParsePostfix(ExprPtr base);
  Result<ExprPtr> ParsePrimary();
  Result<ExprPtr> ParseWordPrimary();
  Result<ExprPtr> ParseColumnRef();
  // A word primary other than an ordinary call: literals, keyword forms, column references.
  Result<ExprPtr> ParseKeywordPrimary();
  bool IsKeywordForm(const Token& t) const;  // CASE, CAST, EXTRACT, ... (parsed specially)
  // overlay(...) and position(...): their keyword forms, else null to parse an ordinary call.
  Result<ExprPtr> ParseOverlayOrPosition();
  Status ParseAggregateFilter(FunctionExpression* fn);  // at FILTER ( WHERE ... )
  Result<ExprPtr> ParseParenthesized();
  // The number of parameters of a lambda (`x ->`, `(x, y) ->`) starting at the next token,
  // else 0; ParseLambda parses it.
  size_t LambdaParamsAhead() const;
  // WITHIN GROUP (ORDER BY x [ASC|DESC]) after an aggregate's arguments.
  Status ParseWithinGroup(FunctionExpression* fn);
  Result<ExprPtr> ParseLambda(size_t params);
  Result<ExprPtr> ParseCase();
  Result<ExprPtr> ParseNumberedParameter();
  Result<ExprPtr> ParseCast(bool try_cast);
  Result<ExprPtr> ParseInterval();
  Result<ExprPtr> ParseStructLiteral();
  // SQL's keyword forms of substring and trim (parser_expr.cc); null when the call is to be
  // parsed as an ordinary call (the position is then unchanged).
  Result<ExprPtr> ParseSubstringFrom();
  Result<ExprPtr> ParseTrimFrom();
  // The rest of `name(first, e2, ...)` after its first argument, as an ordinary call.
  Result<ExprPtr> FinishPlainCall(const Token& name, ExprPtr first);
  int InfixPrecedence() const;  // of the operator at the current token, 0 when none
  Result<ExprPtr> ParseInfix(ExprPtr left, int precedence);
  Result<ExprPtr> ParseIn(ExprPtr left, bool negated, size_t pos);
  Result<std::unique_ptr<FunctionExpression>> ParseFunctionCall(std::string name, size_t pos,
                                                                bool table_function);
  Result<std::vector<ExprPtr>> ParseExprList();  // e1, e2, ... (at least one)
  Result<ExprPtr> Finish(ExprPtr expr) const;

  // --- queries and FROM (parser_select.cc)
  bool IsQueryStart(size_t ahead) const;
  // When the current '(' opens a query, parses "( query )" into *out; sets *matched.
  Status ParseParenthesizedQueryIf(QueryPtr* out, bool* matched);
  Result<QueryPtr> ParseQuery();
  Result<QueryPtr> ParseSetOperations();
  Result<QueryPtr> ParseQueryPrimary();
  Result<QueryPtr> ParseSelect();
  Result<QueryPtr> ParseValues();
  Status ParseCtes(std::vector<CommonTableExpr>* ctes);
  Status ParseOrderBy(std::vector<OrderByItem>* items);
  // FETCH FIRST|NEXT at Peek(ahead); FETCH ... ONLY into query->limit.
  bool IsFetchStart(size_t ahead) const;
  Status ParseFetch(QueryNode* query);
  // [LEFT] SEMI|ANTI JOIN at Peek(ahead).
  bool IsSemiAntiJoinStart(size_t ahead) const;
  // --- windows and grouping sets (parser_window.cc)
  Result<std::unique_ptr<WindowSpec>> ParseOver();       // after OVER: name or (spec)
  Status ParseWindowSpecBody(WindowSpec* spec);          // inside the parentheses
  Status ParseFrameBound(FrameBound* bound);
  Status ParseGroupBy(SelectNode* node);                 // after GROUP BY
  Status ParseWindowClause(SelectNode* node);            // after WINDOW
  Result<TableRefPtr> ParseFrom();
  Result<TableRefPtr> ParseJoinChain();
  Result<TableRefPtr> ParseTablePrimary();
  Result<std::optional<TimeTravel>> ParseTimeTravel(bool allow_for);
  Status ParseTableAlias(TableRef* ref);
  Status ParseTableSample(TableRef* ref);  // TABLESAMPLE (...) [REPEATABLE (n)], when present
  Result<std::string> ParseOptionalAlias();
  Result<std::shared_ptr<PivotClause>> ParsePivot();      // at PIVOT
  Result<std::shared_ptr<UnpivotClause>> ParseUnpivot();  // at UNPIVOT
  Result<QueryPtr> FinishQuery(QueryPtr query) const;
  Result<TableRefPtr> FinishRef(TableRefPtr ref) const;

  // --- statements (parser_statement.cc, parser_ddl.cc)
  Result<StatementPtr> ParseStatementBody();
  Result<StatementPtr> ParseExplain();
  Result<StatementPtr> ParseShow();
  Result<StatementPtr> ParseDescribe();
  Result<StatementPtr> ParseInsert();
  Result<StatementPtr> ParseDelete();
  Result<StatementPtr> ParseUpdate();
  Result<StatementPtr> ParseMerge();
  Status ParseMergeClause(MergeClause* clause);
  Result<std::vector<Assignment>> ParseAssignments();
  Result<StatementPtr> ParseOptimize();
  Result<StatementPtr> ParseReorg();
  Result<StatementPtr> ParseVacuum();
  Result<StatementPtr> ParseCheckpoint();
  Result<StatementPtr> ParseRestore();
  Result<StatementPtr> ParseTransaction();
  Result<StatementPtr> ParseSet();
  Result<StatementPtr> ParseSetTimeZone(size_t pos);
  Result<int32_t> ParseTimeZoneInterval();
  Result<StatementPtr> ParseReset();
  Result<StatementPtr> ParseCopy();
  Result<StatementPtr> ParseCreate();
  Result<StatementPtr> ParseDrop();
  Result<StatementPtr> ParseBloomFilterIndex(size_t position, bool create);  // at BLOOMFILTER
  // CREATE [OR REPLACE] VIEW after CREATE [OR REPLACE]; DROP VIEW after DROP (parser_view.cc).
  Result<StatementPtr> ParseCreateView(size_t pos, bool or_replace);
  Result<StatementPtr> ParseDropView(size_t pos);
  Result<StatementPtr> ParseAlter();
  Result<ColumnDefinition> ParseColumnDefinition();
  Result<ColumnDefinition> ParseColumnOptions(ColumnDefinition col);  // NOT NULL, DEFAULT, ...
  Result<IdentitySpec> ParseIdentity(bool always);
  Result<CheckConstraint> ParseCheckConstraint();  // after CONSTRAINT
  // A key constraint starts `ahead`: PRIMARY KEY, FOREIGN KEY, UNIQUE (at table level only
  // before its column list), or (after a column's type) REFERENCES.
  bool PeekKeyConstraint(size_t ahead = 0, bool column_level = false) const;
  // A key constraint from its keyword on; `column` is set for a column-level one (which names
  // no columns).
  Result<KeyConstraint> ParseKeyConstraint(std::string name, const std::string* column);

  std::string_view text_;
  std::vector<Token> tokens_;
  // The current statement's parameter values, created by its first parameter (? / $N).
  std::shared_ptr<ParameterValues> parameters_;
  size_t pos_ = 0;
  int depth_ = 0;
  // Token indexes of '(' where a speculative query parse failed (so it is not retried).
  std::unordered_set<size_t> failed_query_parens_;
};

// Scopes one EnterNesting(): the depth goes back down when the scope ends.
class NestingScope {
 public:
  explicit NestingScope(Parser* parser) : parser_(parser) {}
  ~NestingScope() { --parser_->depth_; }
  NestingScope(const NestingScope&) = delete;
  NestingScope& operator=(const NestingScope&) = delete;

 private:
  Parser* parser_;
};

}  // namespace shoal::sql

// Enters one nesting level for the rest of the enclosing scope, or returns the depth error.
#define SHOAL_ENTER_NESTING()                        \
  ::shoal::sql::NestingScope _nesting_scope(this);   \
  RETURN_NOT_OK(EnterNesting())
