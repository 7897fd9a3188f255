// DDL parsing: CREATE TABLE (columns, generated/identity columns, constraints, table
// clauses, CTAS), DROP TABLE and ALTER TABLE.
#include "sql/parser/parser.h"

namespace shoal::sql {

namespace {

template <typename T>
std::unique_ptr<T> Make(size_t pos) {
  return std::make_unique<T>(pos);
}

}  // namespace

Result<StatementPtr> Parser::ParseCreate() {
  auto s = Make<CreateTableStatement>(Advance().offset);
  if (AcceptKeyword("OR")) {
    RETURN_NOT_OK(ExpectKeyword("REPLACE"));
    s->or_replace = true;
  }
  if (PeekKeyword("INDEX") || (PeekKeyword("UNIQUE") && PeekKeyword("INDEX", 1))) {
    return ErrorAt(Peek(), "CREATE INDEX is not supported: Delta tables have no secondary indexes. Sort the "
                           "data instead, so scans skip row groups and pages by their statistics: LocalSort "
                           "(TBLPROPERTIES ('shoal.localSort.columns' = 'c'), or 'shoal.localSort.auto' = "
                           "'true' to let shoal choose) or OPTIMIZE t ZORDER BY (c)");
  }
  if (PeekKeyword("BLOOMFILTER") && PeekKeyword("INDEX", 1)) {
    if (s->or_replace) return ErrorAt(Peek(), "CREATE OR REPLACE BLOOMFILTER INDEX is not supported");
    return ParseBloomFilterIndex(s->position, true);
  }
  if (PeekKeyword("GLOBAL") && (PeekKeyword("TEMPORARY", 1) || PeekKeyword("TEMP", 1))) {
    return ErrorAt(Peek(), "CREATE GLOBAL TEMPORARY VIEW is not supported (use CREATE TEMPORARY VIEW or CREATE VIEW)");
  }
  if ((PeekKeyword("TEMPORARY") || PeekKeyword("TEMP")) && PeekKeyword("VIEW", 1)) {
    Advance();
    ASSIGN_OR_RETURN(StatementPtr view, ParseCreateView(s->position, s->or_replace));
    static_cast<CreateViewStatement&>(*view).temporary = true;
    return view;
  }
  if (PeekKeyword("VIEW")) return ParseCreateView(s->position, s->or_replace);
  RETURN_NOT_OK(ExpectKeyword("TABLE"));
  if (PeekKeyword("IF")) {
    const Token& if_token = Advance();
    RETURN_NOT_OK(ExpectKeyword("NOT"));
    RETURN_NOT_OK(ExpectKeyword("EXISTS"));
    if (s->or_replace) return ErrorAt(if_token, "OR REPLACE and IF NOT EXISTS cannot be combined");
    s->if_not_exists = true;
  }
  ASSIGN_OR_RETURN(s->name, ParseTableName());
  if (PeekOperator("(") && !IsQueryStart(1)) {
    Advance();
    do {
      if (PeekKeyword("CONSTRAINT") && PeekKeyConstraint(2)) {
        Advance();
        ASSIGN_OR_RETURN(std::string name, Identifier());
        ASSIGN_OR_RETURN(KeyConstraint k, ParseKeyConstraint(std::move(name), nullptr));
        s->key_constraints.push_back(std::move(k));
      } else if (AcceptKeyword("CONSTRAINT")) {
        ASSIGN_OR_RETURN(CheckConstraint c, ParseCheckConstraint());
        s->constraints.push_back(std::move(c));
      } else if (PeekKeyConstraint()) {
        ASSIGN_OR_RETURN(KeyConstraint k, ParseKeyConstraint("", nullptr));
        s->key_constraints.push_back(std::move(k));
      } else {
        ASSIGN_OR_RETURN(ColumnDefinition col, ParseColumnDefinition());
        // Column-level keys: a INT PRIMARY KEY, b INT REFERENCES t (x), c INT UNIQUE.
        while (PeekKeyConstraint(0, true) || (PeekKeyword("CONSTRAINT") && PeekKeyConstraint(2, true))) {
          std::string name;
          if (AcceptKeyword("CONSTRAINT")) {
            ASSIGN_OR_RETURN(name, Identifier());
          }
          ASSIGN_OR_RETURN(KeyConstraint k, ParseKeyConstraint(std::move(name), &col.name));
          s->key_constraints.push_back(std::move(k));
          // Options may follow the key (a INT PRIMARY KEY NOT NULL).
          ASSIGN_OR_RETURN(ColumnDefinition more, ParseColumnOptions(std::move(col)));
          col = std::move(more);
        }
        s->columns.push_back(std::move(col));
      }
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
    if (s->columns.empty()) return ErrorAtOffset(s->name.position, "CREATE TABLE needs a column");
  }
  // Table clauses, each at most once, in any order.
  bool seen_using = false, seen_partitioned = false, seen_properties = false;
  while (true) {
    const Token& t = Peek();
    if (t.IsKeyword("USING") && !seen_using) {
      Advance();
      ASSIGN_OR_RETURN(s->using_format, AnyName());
      seen_using = true;
    } else if (t.IsKeyword("PARTITIONED") && !seen_partitioned) {
      Advance();
      RETURN_NOT_OK(ExpectKeyword("BY"));
      ASSIGN_OR_RETURN(s->partitioned_by, IdentifierList());
      seen_partitioned = true;
    } else if (t.IsKeyword("LOCATION") && !s->location) {
      Advance();
      ASSIGN_OR_RETURN(s->location, StringLiteral());
    } else if (t.IsKeyword("COMMENT") && !s->comment) {
      Advance();
      ASSIGN_OR_RETURN(s->comment, StringLiteral());
    } else if (t.IsKeyword("TBLPROPERTIES") && !seen_properties) {
      Advance();
      ASSIGN_OR_RETURN(s->properties, ParseProperties());
      seen_properties = true;
    } else {
      break;
    }
  }
  if (AcceptKeyword("AS")) {
    ASSIGN_OR_RETURN(s->as_query, ParseQuery());
  } else if (IsQueryStart(0) || PeekOperator("(")) {
    ASSIGN_OR_RETURN(s->as_query, ParseQuery());
  }
  return StatementPtr(std::move(s));
}

Result<CheckConstraint> Parser::ParseCheckConstraint() {
  CheckConstraint c;
  c.position = Peek().offset;
  ASSIGN_OR_RETURN(c.name, Identifier());
  RETURN_NOT_OK(ExpectKeyword("CHECK"));
  RETURN_NOT_OK(ExpectOperator("("));
  ASSIGN_OR_RETURN(c.expr, ParseExpr());
  RETURN_NOT_OK(ExpectOperator(")"));
  return c;
}

bool Parser::PeekKeyConstraint(size_t ahead, bool column_level) const {
  if (PeekKeyword("PRIMARY", ahead) && PeekKeyword("KEY", ahead + 1)) return true;
  if (PeekKeyword("FOREIGN", ahead) && PeekKeyword("KEY", ahead + 1)) return true;
  // At table level UNIQUE needs its column list, so a column named `unique` stays a column.
  if (PeekKeyword("UNIQUE", ahead)) return column_level || PeekOperator("(", ahead + 1);
  return column_level && PeekKeyword("REFERENCES", ahead);
}

Result<KeyConstraint> Parser::ParseKeyConstraint(std::string name, const std::string* column) {
  KeyConstraint k;
  k.name = std::move(name);
  k.position = Peek().offset;
  const Token& t = Advance();
  if (t.IsKeyword("PRIMARY") || t.IsKeyword("UNIQUE")) {
    k.kind = t.IsKeyword("PRIMARY") ? KeyConstraint::Kind::kPrimaryKey : KeyConstraint::Kind::kUnique;
    if (k.kind == KeyConstraint::Kind::kPrimaryKey) Advance();  // KEY
    if (column) {
      k.columns = {*column};
    } else {
      ASSIGN_OR_RETURN(k.columns, IdentifierList());
    }
  } else {
    k.kind = KeyConstraint::Kind::kForeignKey;
    if (t.IsKeyword("FOREIGN")) {
      if (column) return ErrorAt(t, "a column's foreign key is written REFERENCES table (column)");
      Advance();  // KEY
      // FOREIGN KEY name (cols): the name before the columns (DB2, as TPC-H's dss.ri writes it).
      if (PeekIdentifier() && PeekOperator("(", 1)) {
        const Token& n = Advance();
        if (!k.name.empty()) return ErrorAt(n, "a foreign key named twice (CONSTRAINT name and FOREIGN KEY name)");
        k.name = n.text;
      }
      ASSIGN_OR_RETURN(k.columns, IdentifierList());
      RETURN_NOT_OK(ExpectKeyword("REFERENCES"));
    } else if (!column) {
      return ErrorAt(t, "REFERENCES without FOREIGN KEY (columns) names no columns");
    } else {
      k.columns = {*column};
    }
    ASSIGN_OR_RETURN(k.references, ParseTableName());
    if (PeekOperator("(")) {
      ASSIGN_OR_RETURN(k.referenced_columns, IdentifierList());
    }
  }
  // Constraint options (Databricks and ANSI); every key stays informational.
  while (true) {
    const Token& o = Peek();
    if (o.IsKeyword("NOT") && (PeekKeyword("ENFORCED", 1) || PeekKeyword("DEFERRABLE", 1))) {
      Advance();
      Advance();
    } else if (o.IsKeyword("ENFORCED")) {
      return ErrorAt(o, "ENFORCED key constraints are not supported: shoal keeps PRIMARY KEY, UNIQUE and "
                        "FOREIGN KEY informational (NOT ENFORCED), as Databricks does");
    } else if (o.IsKeyword("DEFERRABLE") || o.IsKeyword("NORELY")) {
      Advance();
    } else if (o.IsKeyword("RELY")) {
      Advance();
      k.rely = true;
    } else if (o.IsKeyword("INITIALLY") && (PeekKeyword("DEFERRED", 1) || PeekKeyword("IMMEDIATE", 1))) {
      Advance();
      Advance();
    } else if (o.IsKeyword("MATCH") && PeekKeyword("FULL", 1)) {
      Advance();
      Advance();
    } else if (o.IsKeyword("ON") && (PeekKeyword("DELETE", 1) || PeekKeyword("UPDATE", 1))) {
      if (!PeekKeyword("NO", 2) || !PeekKeyword("ACTION", 3)) {
        return ErrorAt(Peek(2), "referential actions are not supported: foreign keys are informational "
                                "(only ON DELETE / ON UPDATE NO ACTION)");
      }
      for (int i = 0; i < 4; ++i) Advance();
    } else {
      break;
    }
  }
  return k;
}

Result<ColumnDefinition> Parser::ParseColumnDefinition() {
  ColumnDefinition col;
  col.position = Peek().offset;
  ASSIGN_OR_RETURN(col.name, Identifier());
  ASSIGN_OR_RETURN(col.type, ParseType());
  return ParseColumnOptions(std::move(col));
}

Result<ColumnDefinition> Parser::ParseColumnOptions(ColumnDefinition col) {
  // Column options in any order, each at most once.
  while (true) {
    const Token& t = Peek();
    if (t.IsKeyword("NOT") && PeekKeyword("NULL", 1) && !col.not_null) {
      Advance();
      Advance();
      col.not_null = true;
    } else if (t.IsKeyword("GENERATED") && !col.generated && !col.identity) {
      Advance();
      bool always = true;
      if (AcceptKeyword("BY")) {
        RETURN_NOT_OK(ExpectKeyword("DEFAULT"));
        always = false;
      } else {
        RETURN_NOT_OK(ExpectKeyword("ALWAYS"));
      }
      RETURN_NOT_OK(ExpectKeyword("AS"));
      if (AcceptKeyword("IDENTITY")) {
        ASSIGN_OR_RETURN(col.identity, ParseIdentity(always));
      } else if (always) {
        RETURN_NOT_OK(ExpectOperator("("));
        ASSIGN_OR_RETURN(col.generated, ParseExpr());
        RETURN_NOT_OK(ExpectOperator(")"));
      } else {
        return SyntaxError();
      }
    } else if (t.IsKeyword("COMMENT") && !col.comment) {
      Advance();
      ASSIGN_OR_RETURN(col.comment, StringLiteral());
    } else if (t.IsKeyword("DEFAULT") && !col.default_value) {
      Advance();
      ASSIGN_OR_RETURN(col.default_value, ParseExpr());
    } else {
      break;
    }
  }
  return col;
}

Result<IdentitySpec> Parser::ParseIdentity(bool always) {
  IdentitySpec spec;
  spec.always = always;
  if (!AcceptOperator("(")) return spec;
  while (!PeekOperator(")")) {
    if (AcceptKeyword("START") && !spec.start) {
      RETURN_NOT_OK(ExpectKeyword("WITH"));
      ASSIGN_OR_RETURN(spec.start, SignedInteger());
    } else if (AcceptKeyword("INCREMENT") && !spec.increment) {
      RETURN_NOT_OK(ExpectKeyword("BY"));
      const Token& t = Peek();
      ASSIGN_OR_RETURN(spec.increment, SignedInteger());
      if (*spec.increment == 0) return ErrorAt(t, "identity INCREMENT BY must not be 0");
    } else {
      return SyntaxError();
    }
  }
  Advance();
  return spec;
}

// CREATE BLOOMFILTER INDEX ON [TABLE] t FOR COLUMNS (c [OPTIONS (fpp = x, numItems = n)], ...)
// [OPTIONS (...)] (Databricks) sets shoal.bloomFilter.<c> (table/table_properties.h), so every
// later write puts a Parquet bloom filter for c in its files; DROP BLOOMFILTER INDEX ON t FOR
// COLUMNS (c, ...) unsets it. Both are ALTER TABLE statements; at BLOOMFILTER.
Result<StatementPtr> Parser::ParseBloomFilterIndex(size_t position, bool create) {
  Advance();  // BLOOMFILTER
  Advance();  // INDEX
  auto s = Make<AlterTableStatement>(position);
  RETURN_NOT_OK(ExpectKeyword("ON"));
  AcceptKeyword("TABLE");
  ASSIGN_OR_RETURN(s->table, ParseTableName());
  RETURN_NOT_OK(ExpectKeyword("FOR"));
  RETURN_NOT_OK(ExpectKeyword("COLUMNS"));
  RETURN_NOT_OK(ExpectOperator("("));
  // Per column: its options as written ("" when none); table-level OPTIONS come first.
  auto options = [&]() -> Result<std::string> {
    RETURN_NOT_OK(ExpectOperator("("));
    std::string out;
    do {
      const Token& name = Peek();
      ASSIGN_OR_RETURN(std::string key, Identifier());
      if (Lower(key) != "fpp" && Lower(key) != "numitems") {
        return ErrorAt(name, "a bloom filter option is fpp or numItems");
      }
      AcceptOperator("=");
      const Token& v = Peek();
      if (v.type != TokenType::kInteger && v.type != TokenType::kDecimal && v.type != TokenType::kFloat) {
        return ErrorAt(v, "a bloom filter option's value is a number");
      }
      out += (out.empty() ? "" : ", ") + key + "=" + Advance().text;
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
    return out;
  };
  std::vector<std::pair<std::string, std::string>> columns;
  do {
    ASSIGN_OR_RETURN(std::string c, Identifier());
    std::string opts;
    if (create && AcceptKeyword("OPTIONS")) {
      ASSIGN_OR_RETURN(opts, options());
    }
    columns.emplace_back(Lower(c), std::move(opts));
  } while (AcceptOperator(","));
  RETURN_NOT_OK(ExpectOperator(")"));
  std::string table_options;
  if (create && AcceptKeyword("OPTIONS")) {
    ASSIGN_OR_RETURN(table_options, options());
  }
  for (auto& [c, opts] : columns) {
    std::string key = "shoal.bloomFilter." + c;
    if (!create) {
      s->property_keys.push_back(key);
      continue;
    }
    // Later settings win when the spec is parsed: the table's options, then the column's.
    std::string value = table_options;
    if (!opts.empty()) value += (value.empty() ? "" : ", ") + opts;
    s->properties.emplace_back(key, value);
  }
  s->action = create ? AlterTableStatement::Action::kSetProperties : AlterTableStatement::Action::kUnsetProperties;
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseDrop() {
  const Token& drop = Advance();
  if (PeekKeyword("VIEW")) return ParseDropView(drop.offset);
  if (PeekKeyword("BLOOMFILTER") && PeekKeyword("INDEX", 1)) return ParseBloomFilterIndex(drop.offset, false);
  auto s = Make<DropTableStatement>(drop.offset);
  RETURN_NOT_OK(ExpectKeyword("TABLE"));
  if (AcceptKeyword("IF")) {
    RETURN_NOT_OK(ExpectKeyword("EXISTS"));
    s->if_exists = true;
  }
  ASSIGN_OR_RETURN(s->name, ParseTableName());
  return StatementPtr(std::move(s));
}

Result<StatementPtr> Parser::ParseAlter() {
  auto s = Make<AlterTableStatement>(Advance().offset);
  using A = AlterTableStatement::Action;
  RETURN_NOT_OK(ExpectKeyword("TABLE"));
  ASSIGN_OR_RETURN(s->table, ParseTableName());
  const Token& t = Advance();
  if (t.IsKeyword("ADD")) {
    if (PeekKeyConstraint() || (PeekKeyword("CONSTRAINT") && PeekKeyConstraint(2))) {
      std::string name;
      if (AcceptKeyword("CONSTRAINT")) {
        ASSIGN_OR_RETURN(name, Identifier());
      }
      s->action = A::kAddKeyConstraint;
      ASSIGN_OR_RETURN(s->key_constraint, ParseKeyConstraint(std::move(name), nullptr));
      return StatementPtr(std::move(s));
    }
    if (AcceptKeyword("CONSTRAINT")) {
      s->action = A::kAddConstraint;
      ASSIGN_OR_RETURN(s->constraint, ParseCheckConstraint());
      return StatementPtr(std::move(s));
    }
    s->action = A::kAddColumns;
    if (!AcceptKeyword("COLUMNS")) RETURN_NOT_OK(ExpectKeyword("COLUMN"));
    bool parenthesized = AcceptOperator("(");
    do {
      ASSIGN_OR_RETURN(ColumnDefinition col, ParseColumnDefinition());
      if (col.identity || col.generated || col.default_value) {
        return ErrorAtOffset(col.position, "ADD COLUMNS cannot add generated, identity or default columns");
      }
      s->add_columns.push_back(std::move(col));
    } while (AcceptOperator(","));
    if (parenthesized) RETURN_NOT_OK(ExpectOperator(")"));
  } else if (t.IsKeyword("RENAME")) {
    s->action = A::kRenameColumn;
    RETURN_NOT_OK(ExpectKeyword("COLUMN"));
    ASSIGN_OR_RETURN(s->column, Identifier());
    RETURN_NOT_OK(ExpectKeyword("TO"));
    ASSIGN_OR_RETURN(s->new_name, Identifier());
  } else if (t.IsKeyword("DROP")) {
    if (PeekKeyword("PRIMARY") && PeekKeyword("KEY", 1)) {
      Advance();
      Advance();
      s->action = A::kDropPrimaryKey;
      if (AcceptKeyword("IF")) {
        RETURN_NOT_OK(ExpectKeyword("EXISTS"));
        s->if_exists = true;
      }
      if (PeekKeyword("CASCADE")) return ErrorAt(Peek(), "DROP PRIMARY KEY CASCADE is not supported");
      AcceptKeyword("RESTRICT");
      return StatementPtr(std::move(s));
    }
    if (AcceptKeyword("CONSTRAINT")) {
      s->action = A::kDropConstraint;
      if (AcceptKeyword("IF")) {
        RETURN_NOT_OK(ExpectKeyword("EXISTS"));
        s->if_exists = true;
      }
      ASSIGN_OR_RETURN(s->constraint_name, Identifier());
      return StatementPtr(std::move(s));
    }
    s->action = A::kDropColumns;
    if (!AcceptKeyword("COLUMNS")) RETURN_NOT_OK(ExpectKeyword("COLUMN"));
    if (AcceptKeyword("IF")) {
      RETURN_NOT_OK(ExpectKeyword("EXISTS"));
      s->if_exists = true;
    }
    if (PeekOperator("(")) {
      ASSIGN_OR_RETURN(s->columns, IdentifierList());
    } else {
      do {
        ASSIGN_OR_RETURN(std::string col, Identifier());
        s->columns.push_back(std::move(col));
      } while (AcceptOperator(","));
    }
  } else if (t.IsKeyword("SET")) {
    s->action = A::kSetProperties;
    RETURN_NOT_OK(ExpectKeyword("TBLPROPERTIES"));
    ASSIGN_OR_RETURN(s->properties, ParseProperties());
  } else if (t.IsKeyword("UNSET")) {
    s->action = A::kUnsetProperties;
    RETURN_NOT_OK(ExpectKeyword("TBLPROPERTIES"));
    if (AcceptKeyword("IF")) {
      RETURN_NOT_OK(ExpectKeyword("EXISTS"));
      s->if_exists = true;
    }
    RETURN_NOT_OK(ExpectOperator("("));
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
      s->property_keys.push_back(std::move(key));
    } while (AcceptOperator(","));
    RETURN_NOT_OK(ExpectOperator(")"));
  } else if (t.IsKeyword("ALTER") || t.IsKeyword("CHANGE")) {
    AcceptKeyword("COLUMN");
    ASSIGN_OR_RETURN(s->column, Identifier());
    bool set = AcceptKeyword("SET");
    if (!set) RETURN_NOT_OK(ExpectKeyword("DROP"));
    if (AcceptKeyword("DEFAULT")) {
      s->action = set ? A::kSetDefault : A::kDropDefault;
      if (set) {
        ASSIGN_OR_RETURN(s->default_value, ParseExpr());
      }
      return StatementPtr(std::move(s));
    }
    s->action = set ? A::kSetNotNull : A::kDropNotNull;
    RETURN_NOT_OK(ExpectKeyword("NOT"));
    RETURN_NOT_OK(ExpectKeyword("NULL"));
  } else {
    return ErrorAt(t, "syntax error");
  }
  return StatementPtr(std::move(s));
}

}  // namespace shoal::sql
