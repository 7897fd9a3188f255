// Statement dispatch, DML (INSERT/DELETE/UPDATE/MERGE), table maintenance (OPTIMIZE, REORG,
// VACUUM, CHECKPOINT, RESTORE), DESCRIBE/SHOW/EXPLAIN, transactions, SET/RESET and COPY.
#include <algorithm>

#include "columnar/time_zone.h"
#include "sql/parser/parser.h"

namespace shoal::sql {

namespace {

template <typename T>
std::unique_ptr<T> Make(size_t pos) {
  return std::make_unique<T>(pos);
}

std::string ToUpper(std::string s) {
  for (char& c : s) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return s;
}

}  // namespace

Result<StatementPtr> Parser::ParseStatementBody() {
  const Token& t = Peek();
  if (IsQueryStart(0) || t.IsOperator("(")) {
    auto s = Make<SelectStatement>(t.offset);
    ASSIGN_OR_RETURN(s->query, ParseQuery());
    return StatementPtr(std::move(s));
  }
  if (t.type != TokenType::kWord) return SyntaxError();
  if (t.IsKeyword("EXPLAIN")) return ParseExplain();
  if (t.IsKeyword("CREATE")) return ParseCreate();
  if (t.IsKeyword("DROP")) return ParseDrop();
  if (t.IsKeyword("ALTER")) return ParseAlter();
  if (t.IsKeyword("SHOW")) return ParseShow();
  if (t.IsKeyword("DESCRIBE") || t.IsKeyword("DESC")) return ParseDescribe();
  if (t.IsKeyword("INSERT")) return ParseInsert();
  if (t.IsKeyword("DELETE")) return ParseDelete();
  if (t.IsKeyword("UPDATE")) return ParseUpdate();
  if (t.IsKeyword("MERGE")) return ParseMerge();
  if (t.IsKeyword("OPTIMIZE")) return ParseOptimize();
  if (t.IsKeyword("REORG")) return ParseReorg();
  if (t.IsKeyword("VACUUM")) return ParseVacuum();
  if (t.IsKeyword("CHECKPOINT")) return ParseCheckpoint();
  if (t.IsKeyword("RESTORE")) return ParseRestore();
  if (t.IsKeyword("BEGIN") || t.IsKeyword("START") || t.IsKeyword("COMMIT") ||
      t.IsKeyword("ROLLBACK") || t.IsKeyword("PREPARE")) {
    return ParseTransaction();
  }
  if (t.IsKeyword("SET")) return ParseSet();
  if (t.IsKeyword("RESET")) return ParseReset();
  if (t.IsKeyword("COPY")) return ParseCopy();
  return SyntaxError();
}

Result<StatementPtr> Parser::ParseExplain() {
  SHOAL_ENTER_NESTING();
  auto s = Make<ExplainStatement>(Advance().offset);
  s->analyze = AcceptKeyword("ANALYZE");
  ASSIGN_OR_RETURN(s->statement, ParseStatementBody());
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseShow() {
  const size_t at = Advance().offset;
  if (PeekKeyword("TABLES") && !PeekOperator(".", 1)) {
    Advance();
    return StatementPtr(Make<ShowTablesStatement>(at));
  }
  if (Peek().type != TokenType::kWord && Peek().type != TokenType::kQuotedIdentifier) {
    return SyntaxError();
  }
  auto s = Make<ShowSettingStatement>(at);
  do {
    ASSIGN_OR_RETURN(std::string part, AnyName());
    if (!s->key.empty()) s->key += ".";
    s->key += part;
  } while (AcceptOperator("."));
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseDescribe() {
  auto s = Make<DescribeStatement>(Advance().offset);
  using K = DescribeStatement::Kind;
  // HISTORY/DETAIL/LAYOUT are forms only when a table name follows; otherwise a table name.
  bool name_follows = PeekIdentifier(1);
  if (name_follows && AcceptKeyword("HISTORY")) {
    s->describe_kind = K::kHistory;
  } else if (name_follows && AcceptKeyword("DETAIL")) {
    s->describe_kind = K::kDetail;
  } else if (name_follows && AcceptKeyword("LAYOUT")) {
    s->describe_kind = K::kLayout;
  } else if (name_follows) {
    AcceptKeyword("TABLE");
  }
  if (s->describe_kind == K::kTable && (PeekKeyword("EXTENDED") || PeekKeyword("FORMATTED")) &&
      PeekIdentifier(1)) {
    Advance();
    s->extended = true;
  }
  ASSIGN_OR_RETURN(s->name, ParseTableName());
  if (s->describe_kind == K::kHistory && AcceptKeyword("LIMIT")) {
    const Token& t = Peek();
    ASSIGN_OR_RETURN(int64_t limit, SignedInteger());
    if (limit < 0) return ErrorAt(t, "LIMIT must not be negative");
    s->limit = limit;
  }
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseInsert() {
  auto s = Make<InsertStatement>(Advance().offset);
  if (AcceptKeyword("OVERWRITE")) {
    s->overwrite = true;
  } else {
    RETURN_NOT_OK(ExpectKeyword("INTO"));
  }
  AcceptKeyword("TABLE");
  ASSIGN_OR_RETURN(s->table, ParseTableName());
  if (PeekOperator("(") && !IsQueryStart(1) && !PeekOperator("(", 1)) {
    ASSIGN_OR_RETURN(s->columns, IdentifierList());
  }
  if (AcceptKeyword("REPLACE")) {
    RETURN_NOT_OK(ExpectKeyword("WHERE"));
    ASSIGN_OR_RETURN(s->replace_where, ParseExpr());
  }
  ASSIGN_OR_RETURN(s->query, ParseQuery());
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseDelete() {
  auto s = Make<DeleteStatement>(Advance().offset);
  RETURN_NOT_OK(ExpectKeyword("FROM"));
  ASSIGN_OR_RETURN(s->table, ParseTableName());
  ASSIGN_OR_RETURN(s->alias, ParseOptionalAlias());
  if (AcceptKeyword("WHERE")) {
    ASSIGN_OR_RETURN(s->where, ParseExpr());
  }
  return StatementPtr(std::move(s));
}

Result<std::vector<Assignment>> Parser::ParseAssignments() {
  std::vector<Assignment> out;
  do {
    Assignment a;
    a.position = Peek().offset;
    do {
      ASSIGN_OR_RETURN(std::string part, Identifier());
      a.column.push_back(std::move(part));
    } while (AcceptOperator("."));
    RETURN_NOT_OK(ExpectOperator("="));
    ASSIGN_OR_RETURN(a.value, ParseExpr());
    out.push_back(std::move(a));
  } while (AcceptOperator(","));
  return out;
}

Result<StatementPtr> Parser::ParseUpdate() {
  auto s = Make<UpdateStatement>(Advance().offset);
  ASSIGN_OR_RETURN(s->table, ParseTableName());
  if (PeekKeyword("AS") || !PeekKeyword("SET")) {
    ASSIGN_OR_RETURN(s->alias, ParseOptionalAlias());
  }
  RETURN_NOT_OK(ExpectKeyword("SET"));
  ASSIGN_OR_RETURN(s->assignments, ParseAssignments());
  if (AcceptKeyword("WHERE")) {
    ASSIGN_OR_RETURN(s->where, ParseExpr());
  }
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseMerge() {
  auto s = Make<MergeStatement>(Advance().offset);
  RETURN_NOT_OK(ExpectKeyword("INTO"));
  ASSIGN_OR_RETURN(s->target, ParseTableName());
  ASSIGN_OR_RETURN(s->target_alias, ParseOptionalAlias());
  RETURN_NOT_OK(ExpectKeyword("USING"));
  ASSIGN_OR_RETURN(s->source, ParseTablePrimary());
  if (s->source->kind == TableRefKind::kJoin) {
    return ErrorAtOffset(s->source->position, "MERGE source must be a table, table function or subquery");
  }
  RETURN_NOT_OK(ExpectKeyword("ON"));
  ASSIGN_OR_RETURN(s->on, ParseExpr());
  while (PeekKeyword("WHEN")) {
    MergeClause clause;
    RETURN_NOT_OK(ParseMergeClause(&clause));
    s->clauses.push_back(std::move(clause));
  }
  if (s->clauses.empty()) return SyntaxError();
  return StatementPtr(std::move(s));
}

Status Parser::ParseMergeClause(MergeClause* clause) {
  clause->position = Advance().offset;  // WHEN
  if (AcceptKeyword("MATCHED")) {
    clause->match = MergeMatch::kMatched;
  } else {
    RETURN_NOT_OK(ExpectKeyword("NOT"));
    RETURN_NOT_OK(ExpectKeyword("MATCHED"));
    clause->match = MergeMatch::kNotMatchedByTarget;
    if (AcceptKeyword("BY")) {
      if (AcceptKeyword("SOURCE")) {
        clause->match = MergeMatch::kNotMatchedBySource;
      } else {
        RETURN_NOT_OK(ExpectKeyword("TARGET"));
      }
    }
  }
  if (AcceptKeyword("AND")) {
    ASSIGN_OR_RETURN(clause->condition, ParseExpr());
  }
  RETURN_NOT_OK(ExpectKeyword("THEN"));
  const Token& action = Peek();
  bool insert_allowed = clause->match == MergeMatch::kNotMatchedByTarget;
  if (!insert_allowed && AcceptKeyword("UPDATE")) {
    RETURN_NOT_OK(ExpectKeyword("SET"));
    if (clause->match == MergeMatch::kMatched && AcceptOperator("*")) {
      clause->action = MergeAction::kUpdateStar;
    } else {
      clause->action = MergeAction::kUpdate;
      ASSIGN_OR_RETURN(clause->assignments, ParseAssignments());
    }
  } else if (!insert_allowed && AcceptKeyword("DELETE")) {
    clause->action = MergeAction::kDelete;
  } else if (insert_allowed && AcceptKeyword("INSERT")) {
    if (AcceptOperator("*")) {
      clause->action = MergeAction::kInsertStar;
    } else {
      clause->action = MergeAction::kInsert;
      if (PeekOperator("(")) {
        ASSIGN_OR_RETURN(clause->insert_columns, IdentifierList());
      }
      RETURN_NOT_OK(ExpectKeyword("VALUES"));
      RETURN_NOT_OK(ExpectOperator("("));
      ASSIGN_OR_RETURN(clause->insert_values, ParseExprList());
      RETURN_NOT_OK(ExpectOperator(")"));
      if (!clause->insert_columns.empty() &&
          clause->insert_columns.size() != clause->insert_values.size()) {
        return ErrorAt(action, "INSERT column and value counts differ");
      }
    }
  } else {
    return ErrorAt(action, "syntax error");
  }
  return Status::OK();
}

Result<StatementPtr> Parser::ParseOptimize() {
  auto s = Make<OptimizeStatement>(Advance().offset);
  ASSIGN_OR_RETURN(s->table, ParseTableName());
  if (AcceptKeyword("COMPACT")) {
    RETURN_NOT_OK(ExpectKeyword("LOG"));
    s->compact_log = true;
    for (const char* bound : {"FROM", "TO"}) {
      if (!AcceptKeyword(bound)) continue;
      RETURN_NOT_OK(ExpectKeyword("VERSION"));
      if (Peek().type != TokenType::kInteger) return SyntaxError();
      const std::string text = Advance().text;
      int64_t v = 0;
      for (char c : text) {
        if (v > (INT64_MAX - (c - '0')) / 10) return SyntaxError();
        v = v * 10 + (c - '0');
      }
      (bound[0] == 'F' ? s->log_from : s->log_to) = v;
    }
    return StatementPtr(std::move(s));
  }
  if (AcceptKeyword("WHERE")) {
    ASSIGN_OR_RETURN(s->where, ParseExpr());
  }
  if (AcceptKeyword("ZORDER")) {
    RETURN_NOT_OK(ExpectKeyword("BY"));
    if (PeekOperator("(")) {
      ASSIGN_OR_RETURN(s->zorder_by, IdentifierList());
    } else {
      do {
        ASSIGN_OR_RETURN(std::string col, Identifier());
        s->zorder_by.push_back(std::move(col));
      } while (AcceptOperator(","));
    }
  }
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseReorg() {
  auto s = Make<ReorgStatement>(Advance().offset);
  RETURN_NOT_OK(ExpectKeyword("TABLE"));
  ASSIGN_OR_RETURN(s->table, ParseTableName());
  if (AcceptKeyword("WHERE")) {
    ASSIGN_OR_RETURN(s->where, ParseExpr());
  }
  RETURN_NOT_OK(ExpectKeyword("APPLY"));
  RETURN_NOT_OK(ExpectOperator("("));
  RETURN_NOT_OK(ExpectKeyword("PURGE"));
  RETURN_NOT_OK(ExpectOperator(")"));
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseVacuum() {
  auto s = Make<VacuumStatement>(Advance().offset);
  ASSIGN_OR_RETURN(s->table, ParseTableName());
  if (AcceptKeyword("RETAIN")) {
    const Token& t = Peek();
    if (t.type != TokenType::kInteger && t.type != TokenType::kDecimal) return SyntaxError();
    s->retain_hours = Advance().text;
    RETURN_NOT_OK(ExpectKeyword("HOURS"));
  }
  if (AcceptKeyword("DRY")) {
    RETURN_NOT_OK(ExpectKeyword("RUN"));
    s->dry_run = true;
  }
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseCheckpoint() {
  auto s = Make<CheckpointStatement>(Advance().offset);
  if (PeekIdentifier(1)) AcceptKeyword("TABLE");  // TABLE is optional
  ASSIGN_OR_RETURN(s->table, ParseTableName());
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseRestore() {
  auto s = Make<RestoreStatement>(Advance().offset);
  AcceptKeyword("TABLE");
  ASSIGN_OR_RETURN(s->table, ParseTableName());
  AcceptKeyword("TO");
  ASSIGN_OR_RETURN(auto tt, ParseTimeTravel(false));
  if (!tt) return SyntaxError();
  s->target = std::move(*tt);
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseTransaction() {
  const Token& t = Advance();
  auto s = Make<TransactionStatement>(t.offset);
  using K = TransactionStatement::Kind;
  if (t.IsKeyword("BEGIN")) {
    s->transaction_kind = K::kBegin;
    if (!AcceptKeyword("TRANSACTION")) AcceptKeyword("WORK");
  } else if (t.IsKeyword("START")) {
    s->transaction_kind = K::kBegin;
    RETURN_NOT_OK(ExpectKeyword("TRANSACTION"));
  } else if (t.IsKeyword("PREPARE")) {
    s->transaction_kind = K::kPrepare;
    RETURN_NOT_OK(ExpectKeyword("TRANSACTION"));
    ASSIGN_OR_RETURN(s->transaction_id, StringLiteral());
  } else {
    bool commit = t.IsKeyword("COMMIT");
    if (AcceptKeyword("PREPARED")) {
      s->transaction_kind = commit ? K::kCommitPrepared : K::kRollbackPrepared;
      ASSIGN_OR_RETURN(s->transaction_id, StringLiteral());
    } else {
      s->transaction_kind = commit ? K::kCommit : K::kRollback;
      if (!AcceptKeyword("TRANSACTION")) AcceptKeyword("WORK");
    }
  }
  return StatementPtr(std::move(s));
}

// SET TIME ZONE LOCAL | 'zone' | INTERVAL ...: the setting spark.sql.session.timeZone (LOCAL
// resets it to the default).
Result<StatementPtr> Parser::ParseSetTimeZone(size_t pos) {
  for (int i = 0; i < 3; ++i) Advance();  // SET TIME ZONE
  if (AcceptKeyword("LOCAL")) {
    auto r = Make<ResetStatement>(pos);
    r->key = kSessionTimeZoneKey;
    return StatementPtr(std::move(r));
  }
  auto s = Make<SetStatement>(pos);
  s->key = kSessionTimeZoneKey;
  s->value.kind = OptionValue::Kind::kString;
  if (PeekKeyword("INTERVAL")) {
    Advance();
    ASSIGN_OR_RETURN(int32_t seconds, ParseTimeZoneInterval());
    s->value.text = columnar::ZoneOffsetId(seconds);
  } else {
    ASSIGN_OR_RETURN(s->value.text, StringLiteral());
  }
  return StatementPtr(std::move(s));
}

// The offset of SET TIME ZONE INTERVAL: `n HOUR[S] [n MINUTE[S]] [n SECOND[S]]` (whole numbers, a
// leading '-' allowed) or `'[+|-]h:mm[:ss]' HOUR TO MINUTE|SECOND`, within ±18 hours (Spark).
Result<int32_t> Parser::ParseTimeZoneInterval() {
  const Token& start = Peek();
  int64_t seconds = 0;
  if (Peek().type == TokenType::kString) {
    std::string text = Advance().text;
    RETURN_NOT_OK(ExpectKeyword("HOUR"));
    RETURN_NOT_OK(ExpectKeyword("TO"));
    const bool with_seconds = PeekKeyword("SECOND");
    if (!with_seconds && !PeekKeyword("MINUTE")) return SyntaxError();
    Advance();
    int32_t offset = 0;
    const bool signed_text = !text.empty() && (text[0] == '+' || text[0] == '-');
    std::string as_offset = signed_text ? text : "+" + text;
    if (as_offset.size() > 2 && as_offset[2] == ':') as_offset.insert(1, "0");  // h:mm
    const size_t colons = static_cast<size_t>(std::count(text.begin(), text.end(), ':'));
    if (colons != (with_seconds ? 2u : 1u) || !columnar::ParseZoneOffset(as_offset, &offset)) {
      return ErrorAt(start, "the time zone interval must be [+|-]hh:mm" + std::string(with_seconds ? ":ss" : "") +
                                " within -18:00 to +18:00");
    }
    return offset;
  }
  int units = 0;
  while (Peek().type == TokenType::kInteger || (PeekOperator("-") && Peek(1).type == TokenType::kInteger)) {
    const bool negative = AcceptOperator("-");
    const Token& number = Advance();
    int64_t n = number.text.size() > 6 ? 1000000 : std::stoll(number.text);
    int64_t unit = PeekKeyword("HOUR") || PeekKeyword("HOURS")       ? 3600
                   : PeekKeyword("MINUTE") || PeekKeyword("MINUTES") ? 60
                   : PeekKeyword("SECOND") || PeekKeyword("SECONDS") ? 1
                                                                     : 0;
    if (unit == 0) return ErrorAt(Peek(), "a time zone interval is in HOURS, MINUTES and SECONDS");
    Advance();
    seconds += (negative ? -n : n) * unit;
    ++units;
  }
  if (units == 0) return SyntaxError();
  if (seconds < -18 * 3600 || seconds > 18 * 3600) {
    return ErrorAt(start, "the time zone interval must be within -18 and +18 hours");
  }
  return static_cast<int32_t>(seconds);
}

Result<StatementPtr> Parser::ParseSet() {
  if (PeekKeyword("TIME", 1) && PeekKeyword("ZONE", 2)) return ParseSetTimeZone(Peek().offset);
  auto s = Make<SetStatement>(Advance().offset);
  do {
    ASSIGN_OR_RETURN(std::string part, AnyName());
    if (!s->key.empty()) s->key += ".";
    s->key += part;
  } while (AcceptOperator("."));
  RETURN_NOT_OK(ExpectOperator("="));
  ASSIGN_OR_RETURN(s->value, ParseOptionValue());
  if (s->value.kind == OptionValue::Kind::kNone) return SyntaxError();
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseReset() {
  auto s = Make<ResetStatement>(Advance().offset);
  if (Peek().type == TokenType::kWord || Peek().type == TokenType::kQuotedIdentifier) {
    do {
      ASSIGN_OR_RETURN(std::string part, AnyName());
      if (!s->key.empty()) s->key += ".";
      s->key += part;
    } while (AcceptOperator("."));
  }
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseCopy() {
  auto s = Make<CopyStatement>(Advance().offset);
  if (PeekOperator("(")) {
    bool matched = false;
    RETURN_NOT_OK(ParseParenthesizedQueryIf(&s->query, &matched));
    if (!matched) return ErrorAt(Peek(1), "syntax error");
  } else {
    ASSIGN_OR_RETURN(s->table, ParseTableName());
  }
  RETURN_NOT_OK(ExpectKeyword("TO"));
  ASSIGN_OR_RETURN(s->file, StringLiteral());
  AcceptKeyword("WITH");
  if (AcceptOperator("(")) {
    do {
      if (Peek().type != TokenType::kWord) return SyntaxError();
      std::string name = ToUpper(Advance().text);
      AcceptOperator("=");
      OptionValue value;
      if (!PeekOperator(",") && !PeekOperator(")")) {
        ASSIGN_OR_RETURN(value, ParseOptionValue());
        if (value.kind == OptionValue::Kind::kNone) return SyntaxError();
      }
      s->options.emplace_back(std::move(name), std::move(value));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
  }
  return StatementPtr(std::move(s));
}

}  // namespace shoal::sql
