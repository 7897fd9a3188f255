// Query parsing: WITH, SELECT, VALUES, set operations, ORDER BY/LIMIT, FROM items and joins.
#include <charconv>
#include <cstdlib>

#include "sql/parser/parser.h"

namespace shoal::sql {

namespace {

// Words that end a FROM item instead of naming its alias.
bool IsTableAliasStopWord(const Token& t) {
  return t.IsKeyword("VERSION") || t.IsKeyword("TIMESTAMP") || t.IsKeyword("FOR") ||
         t.IsKeyword("SET") || t.IsKeyword("WINDOW") || t.IsKeyword("QUALIFY") ||
         t.IsKeyword("REPLACE") || t.IsKeyword("ANTI") || t.IsKeyword("SEMI") || t.IsKeyword("PIVOT") ||
         t.IsKeyword("UNPIVOT");
}

// Wraps `inner` as SELECT * FROM (inner), so that outer modifiers do not clobber inner ones.
QueryPtr WrapInSelect(QueryPtr inner) {
  size_t pos = inner->position;
  auto ref = std::make_unique<SubqueryRef>(pos);
  ref->query = std::move(inner);
  UpdateHeight(*ref);
  auto select = std::make_unique<SelectNode>(pos);
  SelectItem star;
  star.expr = std::make_unique<StarExpression>(pos);
  select->select_list.push_back(std::move(star));
  select->from = std::move(ref);
  UpdateHeight(*select);
  return select;
}

}  // namespace

Result<QueryPtr> Parser::FinishQuery(QueryPtr query) const {
  UpdateHeight(*query);
  RETURN_NOT_OK(CheckHeight(query->height, query->position));
  return query;
}

Result<TableRefPtr> Parser::FinishRef(TableRefPtr ref) const {
  UpdateHeight(*ref);
  RETURN_NOT_OK(CheckHeight(ref->height, ref->position));
  return ref;
}

bool Parser::IsQueryStart(size_t ahead) const {
  const Token& t = Peek(ahead);
  return t.IsKeyword("SELECT") || t.IsKeyword("WITH") || t.IsKeyword("VALUES");
}

Status Parser::ParseParenthesizedQueryIf(QueryPtr* out, bool* matched) {
  *matched = false;
  if (!PeekOperator("(")) return Status::OK();
  size_t ahead = 1;
  // Beyond the nesting limit the parse fails anyway; bounding the scan keeps nesting linear.
  while (PeekOperator("(", ahead) && ahead <= kMaxNestingDepth) ++ahead;
  if (!IsQueryStart(ahead)) return Status::OK();
  // "( SELECT" is certainly a query; "( ( SELECT" may also be an expression such as
  // ((SELECT 1) + 1), so try the query and fall back (once per '(') when it does not parse.
  bool certain = ahead == 1;
  size_t start = pos_;
  if (!certain && failed_query_parens_.count(start)) return Status::OK();
  Advance();
  Result<QueryPtr> query = ParseQuery();
  Status st = query.ok() ? ExpectOperator(")") : query.status();
  if (st.ok()) {
    *out = std::move(query).value();
    *matched = true;
    return Status::OK();
  }
  if (certain) return st;
  failed_query_parens_.insert(start);
  pos_ = start;
  return Status::OK();
}

Result<QueryPtr> Parser::ParseQuery() {
  SHOAL_ENTER_NESTING();
  std::vector<CommonTableExpr> ctes;
  if (PeekKeyword("WITH")) RETURN_NOT_OK(ParseCtes(&ctes));
  ASSIGN_OR_RETURN(QueryPtr query, ParseSetOperations());
  if (!ctes.empty()) {
    if (!query->ctes.empty()) query = WrapInSelect(std::move(query));
    query->ctes = std::move(ctes);
  }
  bool has_order = PeekKeyword("ORDER");
  bool has_limit = PeekKeyword("LIMIT") || PeekKeyword("OFFSET") || IsFetchStart(0);
  if (has_order || has_limit) {
    if (!query->order_by.empty() || query->limit || query->offset) {
      query = WrapInSelect(std::move(query));
    }
    if (has_order) RETURN_NOT_OK(ParseOrderBy(&query->order_by));
    if (AcceptKeyword("LIMIT")) {
      ASSIGN_OR_RETURN(query->limit, ParseExpr());
    }
    if (AcceptKeyword("OFFSET")) {
      ASSIGN_OR_RETURN(query->offset, ParseExpr());
      if (!AcceptKeyword("ROWS")) AcceptKeyword("ROW");
    }
    if (!query->limit && IsFetchStart(0)) RETURN_NOT_OK(ParseFetch(query.get()));
  }
  return FinishQuery(std::move(query));
}

bool Parser::IsFetchStart(size_t ahead) const {
  return PeekKeyword("FETCH", ahead) && (PeekKeyword("FIRST", ahead + 1) || PeekKeyword("NEXT", ahead + 1));
}

Status Parser::ParseFetch(QueryNode* query) {
  // FETCH {FIRST|NEXT} [n] {ROW|ROWS} {ONLY|WITH TIES}: a LIMIT (n defaults to 1).
  const Token& fetch = Advance();
  Advance();
  if (PeekKeyword("ROW") || PeekKeyword("ROWS")) {
    auto one = std::make_unique<ConstantExpression>(Peek().offset);
    one->literal_kind = LiteralKind::kInteger;
    one->text = std::string("1");
    query->limit = std::move(one);
  } else {
    ASSIGN_OR_RETURN(query->limit, ParseExpr());
  }
  if (!AcceptKeyword("ROWS")) RETURN_NOT_OK(ExpectKeyword("ROW"));
  if (PeekKeyword("WITH") && PeekKeyword("TIES", 1)) {
    return ErrorAt(fetch, "FETCH ... WITH TIES is not supported");
  }
  return ExpectKeyword("ONLY");
}

Status Parser::ParseCtes(std::vector<CommonTableExpr>* ctes) {
  RETURN_NOT_OK(ExpectKeyword("WITH"));
  bool recursive = AcceptKeyword("RECURSIVE");
  do {
    CommonTableExpr cte;
    cte.recursive = recursive;
    cte.position = Peek().offset;
    ASSIGN_OR_RETURN(cte.name, Identifier());
    if (PeekOperator("(")) {
      ASSIGN_OR_RETURN(cte.columns, IdentifierList());
    }
    RETURN_NOT_OK(ExpectKeyword("AS"));
    bool matched = false;
    RETURN_NOT_OK(ParseParenthesizedQueryIf(&cte.query, &matched));
    if (!matched) return SyntaxError();
    ctes->push_back(std::move(cte));
  } while (AcceptOperator(","));
  return Status::OK();
}

Status Parser::ParseOrderBy(std::vector<OrderByItem>* items) {
  RETURN_NOT_OK(ExpectKeyword("ORDER"));
  RETURN_NOT_OK(ExpectKeyword("BY"));
  do {
    OrderByItem item;
    if (items->empty() && PeekKeyword("ALL")) {
      auto all = std::make_unique<ColumnRefExpression>(Advance().offset);
      all->parts = {"all"};
      item.expr = std::move(all);
      item.all = true;
    } else {
      ASSIGN_OR_RETURN(item.expr, ParseExpr());
    }
    if (AcceptKeyword("DESC")) {
      item.descending = true;
    } else {
      AcceptKeyword("ASC");
    }
    if (PeekKeyword("NULLS") && (PeekKeyword("FIRST", 1) || PeekKeyword("LAST", 1))) {
      Advance();
      item.nulls = Advance().IsKeyword("FIRST") ? NullsOrder::kFirst : NullsOrder::kLast;
    }
    items->push_back(std::move(item));
  } while (AcceptOperator(","));
  if (items->front().all && items->size() > 1) return ErrorAt(Peek(), "ORDER BY ALL takes no other sort keys");
  return Status::OK();
}

Result<QueryPtr> Parser::ParseSetOperations() {
  ASSIGN_OR_RETURN(QueryPtr left, ParseQueryPrimary());
  while (true) {
    const Token& t = Peek();
    SetOpKind op;
    if (t.IsKeyword("UNION")) {
      op = SetOpKind::kUnion;
    } else if (t.IsKeyword("EXCEPT") || t.IsKeyword("MINUS")) {
      op = SetOpKind::kExcept;
    } else if (t.IsKeyword("INTERSECT")) {
      op = SetOpKind::kIntersect;
    } else {
      break;
    }
    Advance();
    auto node = std::make_unique<SetOperationNode>(left->position);
    node->op = op;
    if (AcceptKeyword("ALL")) {
      node->all = true;
    } else {
      AcceptKeyword("DISTINCT");
    }
    node->left = std::move(left);
    ASSIGN_OR_RETURN(node->right, ParseQueryPrimary());
    ASSIGN_OR_RETURN(left, FinishQuery(std::move(node)));
  }
  return left;
}

Result<QueryPtr> Parser::ParseQueryPrimary() {
  if (PeekKeyword("SELECT")) return ParseSelect();
  if (PeekKeyword("VALUES")) return ParseValues();
  if (PeekOperator("(")) {
    SHOAL_ENTER_NESTING();
    Advance();
    ASSIGN_OR_RETURN(QueryPtr inner, ParseQuery());
    RETURN_NOT_OK(ExpectOperator(")"));
    return inner;
  }
  return SyntaxError();
}

Result<QueryPtr> Parser::ParseValues() {
  auto node = std::make_unique<ValuesNode>(Advance().offset);
  do {
    const Token& open = Peek();
    std::vector<ExprPtr> row;
    if (open.IsOperator("(")) {
      Advance();
      ASSIGN_OR_RETURN(row, ParseExprList());
      RETURN_NOT_OK(ExpectOperator(")"));
    } else {  // VALUES 1, 2: a row of one value each (Spark)
      ASSIGN_OR_RETURN(ExprPtr value, ParseExpr());
      row.push_back(std::move(value));
    }
    if (!node->rows.empty() && row.size() != node->rows[0].size()) {
      return ErrorAt(open, "VALUES rows must all have the same number of values");
    }
    node->rows.push_back(std::move(row));
  } while (AcceptOperator(","));
  return FinishQuery(std::move(node));
}

Result<std::shared_ptr<PivotClause>> Parser::ParsePivot() {
  Advance();  // PIVOT
  RETURN_NOT_OK(ExpectOperator("("));
  auto p = std::make_shared<PivotClause>();
  do {
    SelectItem item;
    ASSIGN_OR_RETURN(item.expr, ParseExpr());
    if (AcceptKeyword("AS")) {
      ASSIGN_OR_RETURN(item.alias, AnyName());
    } else if (PeekIdentifier() && !PeekKeyword("FOR")) {
      item.alias = Advance().text;
    }
    p->aggregates.push_back(std::move(item));
  } while (AcceptOperator(","));
  RETURN_NOT_OK(ExpectKeyword("FOR"));
  if (AcceptOperator("(")) {
    ASSIGN_OR_RETURN(p->for_columns, ParseExprList());
    RETURN_NOT_OK(ExpectOperator(")"));
  } else {
    ASSIGN_OR_RETURN(ExprPtr c, ParseColumnRef());
    p->for_columns.push_back(std::move(c));
  }
  RETURN_NOT_OK(ExpectKeyword("IN"));
  RETURN_NOT_OK(ExpectOperator("("));
  do {
    PivotClause::Value v;
    if (p->for_columns.size() > 1) {
      RETURN_NOT_OK(ExpectOperator("("));
      ASSIGN_OR_RETURN(v.exprs, ParseExprList());
      RETURN_NOT_OK(ExpectOperator(")"));
    } else {
      ASSIGN_OR_RETURN(ExprPtr e, ParseExpr());
      v.exprs.push_back(std::move(e));
    }
    if (v.exprs.size() != p->for_columns.size()) {
      return ErrorAt(Peek(), "a PIVOT value needs one expression per FOR column");
    }
    if (AcceptKeyword("AS")) {
      ASSIGN_OR_RETURN(v.alias, AnyName());
    } else if (PeekIdentifier()) {
      v.alias = Advance().text;
    }
    p->values.push_back(std::move(v));
  } while (AcceptOperator(","));
  RETURN_NOT_OK(ExpectOperator(")"));
  RETURN_NOT_OK(ExpectOperator(")"));
  return p;
}

Result<std::shared_ptr<UnpivotClause>> Parser::ParseUnpivot() {
  Advance();  // UNPIVOT
  auto u = std::make_shared<UnpivotClause>();
  if (PeekKeyword("INCLUDE") || PeekKeyword("EXCLUDE")) {
    u->include_nulls = Advance().IsKeyword("INCLUDE");
    RETURN_NOT_OK(ExpectKeyword("NULLS"));
  }
  RETURN_NOT_OK(ExpectOperator("("));
  if (PeekOperator("(")) {
    ASSIGN_OR_RETURN(u->value_columns, IdentifierList());
  } else {
    ASSIGN_OR_RETURN(std::string v, Identifier());
    u->value_columns.push_back(std::move(v));
  }
  RETURN_NOT_OK(ExpectKeyword("FOR"));
  ASSIGN_OR_RETURN(u->name_column, Identifier());
  RETURN_NOT_OK(ExpectKeyword("IN"));
  RETURN_NOT_OK(ExpectOperator("("));
  do {
    UnpivotClause::Item item;
    if (PeekOperator("(")) {
      ASSIGN_OR_RETURN(item.columns, IdentifierList());
    } else {
      ASSIGN_OR_RETURN(std::string c, Identifier());
      item.columns.push_back(std::move(c));
    }
    if (item.columns.size() != u->value_columns.size()) {
      return ErrorAt(Peek(), "an UNPIVOT item needs one column per value column");
    }
    if (AcceptKeyword("AS")) {
      ASSIGN_OR_RETURN(item.alias, AnyName());
    } else if (PeekIdentifier()) {
      item.alias = Advance().text;
    }
    u->items.push_back(std::move(item));
  } while (AcceptOperator(","));
  RETURN_NOT_OK(ExpectOperator(")"));
  RETURN_NOT_OK(ExpectOperator(")"));
  return u;
}

Result<std::string> Parser::ParseOptionalAlias() {
  if (AcceptKeyword("AS")) return AnyName();
  if (PeekIdentifier() && !IsFetchStart(0)) return Advance().text;
  return std::string();
}

Result<QueryPtr> Parser::ParseSelect() {
  auto node = std::make_unique<SelectNode>(Advance().offset);
  if (AcceptKeyword("DISTINCT")) {
    node->distinct = true;
  } else {
    AcceptKeyword("ALL");
  }
  do {
    SelectItem item;
    ASSIGN_OR_RETURN(item.expr, ParseExpr());
    if (item.expr->kind != ExprKind::kStar && PeekKeyword("AS") && PeekOperator("(", 1)) {
      Advance();
      ASSIGN_OR_RETURN(item.aliases, IdentifierList());
    } else if (item.expr->kind != ExprKind::kStar) {  // * and t.* take no alias
      ASSIGN_OR_RETURN(item.alias, ParseOptionalAlias());
    } else if (PeekKeyword("EXCEPT") && PeekOperator("(", 1) && PeekIdentifier(2)) {
      Advance();
      auto& star = static_cast<StarExpression&>(*item.expr);
      ASSIGN_OR_RETURN(star.except, IdentifierList());
    }
    node->select_list.push_back(std::move(item));
  } while (AcceptOperator(","));
  if (AcceptKeyword("FROM")) {
    ASSIGN_OR_RETURN(node->from, ParseFrom());
    while (PeekKeyword("LATERAL") && PeekKeyword("VIEW", 1)) {
      Advance();
      Advance();
      LateralView lv;
      lv.outer = AcceptKeyword("OUTER");
      const Token& fn = Peek();
      if (!PeekIdentifier() || !PeekOperator("(", 1)) return SyntaxError();
      std::string name = Advance().text;
      ASSIGN_OR_RETURN(auto call, ParseFunctionCall(std::move(name), fn.offset, false));
      lv.call = std::move(call);
      if (PeekIdentifier() && !PeekKeyword("AS")) lv.table_alias = Advance().text;
      if (AcceptKeyword("AS")) {
        do {
          ASSIGN_OR_RETURN(std::string c, Identifier());
          lv.columns.push_back(std::move(c));
        } while (AcceptOperator(","));
      }
      node->lateral_views.push_back(std::move(lv));
    }
    if (PeekKeyword("PIVOT") && PeekOperator("(", 1)) {
      ASSIGN_OR_RETURN(node->pivot, ParsePivot());
    } else if (PeekKeyword("UNPIVOT")) {
      ASSIGN_OR_RETURN(node->unpivot, ParseUnpivot());
    }
    if (node->pivot || node->unpivot) {
      if (AcceptKeyword("AS")) {
        ASSIGN_OR_RETURN(node->pivot_alias, Identifier());
      } else if (PeekIdentifier() && !IsTableAliasStopWord(Peek()) && !IsFetchStart(0)) {
        node->pivot_alias = Advance().text;
      }
    }
  }
  if (AcceptKeyword("WHERE")) {
    ASSIGN_OR_RETURN(node->where, ParseExpr());
  }
  if (AcceptKeyword("GROUP")) {
    RETURN_NOT_OK(ExpectKeyword("BY"));
    if (AcceptKeyword("ALL")) {
      node->group_by_all = true;
    } else {
      RETURN_NOT_OK(ParseGroupBy(node.get()));
    }
  }
  if (AcceptKeyword("HAVING")) {
    ASSIGN_OR_RETURN(node->having, ParseExpr());
  }
  if (AcceptKeyword("WINDOW")) RETURN_NOT_OK(ParseWindowClause(node.get()));
  if (AcceptKeyword("QUALIFY")) {
    ASSIGN_OR_RETURN(node->qualify, ParseExpr());
  }
  return FinishQuery(std::move(node));
}

Result<TableRefPtr> Parser::ParseFrom() {
  ASSIGN_OR_RETURN(TableRefPtr left, ParseJoinChain());
  while (AcceptOperator(",")) {
    auto join = std::make_unique<JoinRef>(left->position);
    join->type = JoinType::kCross;
    join->left = std::move(left);
    ASSIGN_OR_RETURN(join->right, ParseJoinChain());
    ASSIGN_OR_RETURN(left, FinishRef(std::move(join)));
  }
  return left;
}

bool Parser::IsSemiAntiJoinStart(size_t ahead) const {
  if (PeekKeyword("LEFT", ahead)) ++ahead;
  return (PeekKeyword("SEMI", ahead) || PeekKeyword("ANTI", ahead)) && PeekKeyword("JOIN", ahead + 1);
}

Result<TableRefPtr> Parser::ParseJoinChain() {
  ASSIGN_OR_RETURN(TableRefPtr left, ParseTablePrimary());
  while (true) {
    JoinType type;
    const Token& start = Peek();
    bool natural = AcceptKeyword("NATURAL");
    const Token& t = Peek();
    if (IsSemiAntiJoinStart(0)) {
      AcceptKeyword("LEFT");
      type = Advance().IsKeyword("SEMI") ? JoinType::kSemi : JoinType::kAnti;
    } else if (t.IsKeyword("JOIN")) {
      type = JoinType::kInner;
    } else if (t.IsKeyword("INNER")) {
      type = JoinType::kInner;
      Advance();
    } else if (t.IsKeyword("CROSS")) {
      if (natural) return ErrorAt(start, "NATURAL CROSS JOIN is not valid");
      type = JoinType::kCross;
      Advance();
    } else if (t.IsKeyword("LEFT") || t.IsKeyword("RIGHT") || t.IsKeyword("FULL")) {
      type = t.IsKeyword("LEFT") ? JoinType::kLeft : t.IsKeyword("RIGHT") ? JoinType::kRight
                                                                          : JoinType::kFull;
      Advance();
      AcceptKeyword("OUTER");
    } else if (natural) {
      return SyntaxError();
    } else {
      break;
    }
    RETURN_NOT_OK(ExpectKeyword("JOIN"));
    auto join = std::make_unique<JoinRef>(left->position);
    join->type = type;
    join->natural = natural;
    join->left = std::move(left);
    ASSIGN_OR_RETURN(join->right, ParseTablePrimary());
    if (natural) {
      if (PeekKeyword("ON") || PeekKeyword("USING")) {
        return ErrorAt(Peek(), "a NATURAL join takes no ON or USING clause");
      }
    } else if (type != JoinType::kCross) {
      if (AcceptKeyword("ON")) {
        ASSIGN_OR_RETURN(join->condition, ParseExpr());
      } else if (AcceptKeyword("USING")) {
        ASSIGN_OR_RETURN(join->using_columns, IdentifierList());
      } else if (type != JoinType::kInner) {
        // Spark allows an inner JOIN without a condition (a cross join); the outer, semi and
        // anti joins need one.
        return SyntaxError();
      }
    }
    ASSIGN_OR_RETURN(left, FinishRef(std::move(join)));
  }
  return left;
}

Result<std::optional<TimeTravel>> Parser::ParseTimeTravel(bool allow_for) {
  size_t ahead = allow_for && PeekKeyword("FOR") ? 1 : 0;
  bool version = PeekKeyword("VERSION", ahead);
  bool timestamp = PeekKeyword("TIMESTAMP", ahead);
  if (!(version || timestamp) || !PeekKeyword("AS", ahead + 1) || !PeekKeyword("OF", ahead + 2)) {
    return std::optional<TimeTravel>();
  }
  for (size_t i = 0; i < ahead + 3; ++i) Advance();
  TimeTravel tt;
  tt.kind = version ? TimeTravel::Kind::kVersion : TimeTravel::Kind::kTimestamp;
  if (version) {
    const Token& t = Peek();
    if (t.type != TokenType::kInteger) return SyntaxError();
    auto c = std::make_unique<ConstantExpression>(t.offset);
    c->literal_kind = LiteralKind::kInteger;
    c->text = Advance().text;
    tt.value = std::move(c);
  } else {
    ASSIGN_OR_RETURN(tt.value, ParseExpr());
  }
  return std::optional<TimeTravel>(std::move(tt));
}

Status Parser::ParseTableSample(TableRef* ref) {
  if (!PeekKeyword("TABLESAMPLE") || !PeekOperator("(", 1)) return Status::OK();
  Advance();
  Advance();
  TableSample sample;
  const Token& t = Peek();
  if (AcceptKeyword("BUCKET")) {
    sample.kind = TableSample::Kind::kBucket;
    const Token& num = Peek();
    ASSIGN_OR_RETURN(sample.bucket, SignedInteger());
    RETURN_NOT_OK(ExpectKeyword("OUT"));
    RETURN_NOT_OK(ExpectKeyword("OF"));
    ASSIGN_OR_RETURN(sample.buckets, SignedInteger());
    if (PeekKeyword("ON")) return ErrorAt(Peek(), "TABLESAMPLE (BUCKET ... ON column) is not supported");
    if (sample.buckets <= 0 || sample.bucket < 0 || sample.bucket > sample.buckets) {
      return ErrorAt(num, "TABLESAMPLE (BUCKET x OUT OF y) needs 0 <= x <= y and y > 0");
    }
  } else if ((t.type == TokenType::kInteger || t.type == TokenType::kDecimal || t.IsOperator("-")) &&
             t.suffix.empty()) {
    bool negative = AcceptOperator("-");
    const Token& num = Peek();
    if ((num.type != TokenType::kInteger && num.type != TokenType::kDecimal) || !num.suffix.empty()) {
      return SyntaxError();
    }
    Advance();
    if (PeekKeyword("PERCENT")) {
      Advance();
      sample.kind = TableSample::Kind::kPercent;
      double p = std::strtod(num.text.c_str(), nullptr);
      if (negative || p > 100) {
        return ErrorAt(num, "TABLESAMPLE percentage must be between 0 and 100");
      }
      sample.percent = num.text;
    } else if (PeekKeyword("ROWS")) {
      Advance();
      if (negative || num.type != TokenType::kInteger) {
        return ErrorAt(num, "TABLESAMPLE (n ROWS) needs a non-negative integer");
      }
      sample.kind = TableSample::Kind::kRows;
      auto [end, ec] = std::from_chars(num.text.data(), num.text.data() + num.text.size(), sample.rows);
      if (ec != std::errc() || end != num.text.data() + num.text.size()) {
        return ErrorAt(num, "TABLESAMPLE row count out of range");
      }
    } else {
      return ErrorAt(Peek(), "TABLESAMPLE supports (p PERCENT), (n ROWS) and (BUCKET x OUT OF y); "
                             "sampling by bytes is not supported");
    }
  } else {
    return ErrorAt(t, "TABLESAMPLE supports (p PERCENT), (n ROWS) and (BUCKET x OUT OF y)");
  }
  RETURN_NOT_OK(ExpectOperator(")"));
  if (AcceptKeyword("REPEATABLE")) {
    RETURN_NOT_OK(ExpectOperator("("));
    ASSIGN_OR_RETURN(int64_t seed, SignedInteger());
    sample.seed = seed;
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  ref->sample = std::move(sample);
  return Status::OK();
}

Status Parser::ParseTableAlias(TableRef* ref) {
  RETURN_NOT_OK(ParseTableSample(ref));
  if (AcceptKeyword("AS")) {
    ASSIGN_OR_RETURN(ref->alias, AnyName());
  } else if (PeekIdentifier() && !IsTableAliasStopWord(Peek()) && !IsFetchStart(0)) {
    ref->alias = Advance().text;
  } else {
    return Status::OK();
  }
  if (PeekOperator("(")) {
    ASSIGN_OR_RETURN(ref->column_aliases, IdentifierList());
  }
  return Status::OK();
}

Result<TableRefPtr> Parser::ParseTablePrimary() {
  SHOAL_ENTER_NESTING();
  if (PeekKeyword("LATERAL") && PeekOperator("(", 1)) {
    auto sub = std::make_unique<SubqueryRef>(Advance().offset);
    sub->lateral = true;
    bool matched = false;
    RETURN_NOT_OK(ParseParenthesizedQueryIf(&sub->query, &matched));
    if (!matched) return SyntaxError();
    RETURN_NOT_OK(ParseTableAlias(sub.get()));
    return FinishRef(std::move(sub));
  }
  const Token& t = Peek();
  if (t.IsOperator("(")) {
    auto sub = std::make_unique<SubqueryRef>(t.offset);
    bool matched = false;
    RETURN_NOT_OK(ParseParenthesizedQueryIf(&sub->query, &matched));
    if (matched) {
      RETURN_NOT_OK(ParseTableAlias(sub.get()));
      return FinishRef(std::move(sub));
    }
    Advance();
    ASSIGN_OR_RETURN(TableRefPtr inner, ParseFrom());
    RETURN_NOT_OK(ExpectOperator(")"));
    return inner;
  }
  if (t.IsKeyword("VALUES")) {
    auto sub = std::make_unique<SubqueryRef>(t.offset);
    ASSIGN_OR_RETURN(sub->query, ParseValues());
    RETURN_NOT_OK(ParseTableAlias(sub.get()));
    return FinishRef(std::move(sub));
  }
  if (PeekIdentifier() && PeekOperator("(", 1)) {
    auto fn = std::make_unique<TableFunctionRef>(t.offset);
    std::string name = Advance().text;
    ASSIGN_OR_RETURN(fn->call, ParseFunctionCall(std::move(name), t.offset, true));
    RETURN_NOT_OK(ParseTableAlias(fn.get()));
    return FinishRef(std::move(fn));
  }
  auto base = std::make_unique<BaseTableRef>(t.offset);
  ASSIGN_OR_RETURN(base->name, ParseTableName());
  ASSIGN_OR_RETURN(base->time_travel, ParseTimeTravel(true));
  RETURN_NOT_OK(ParseTableAlias(base.get()));
  return FinishRef(std::move(base));
}

}  // namespace shoal::sql
