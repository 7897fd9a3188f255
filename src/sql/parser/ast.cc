#include "sql/parser/ast.h"

#include <algorithm>

#include "sql/parser/token.h"

namespace shoal::sql {

namespace {

int H(const ExprPtr& e) { return e ? e->height : 0; }
int H(const QueryPtr& q) { return q ? q->height : 0; }
int H(const TableRefPtr& t) { return t ? t->height : 0; }
int H(const std::vector<ExprPtr>& v) {
  int h = 0;
  for (const auto& e : v) h = std::max(h, H(e));
  return h;
}

bool IsPlainWord(const std::string& s) {
  if (s.empty()) return false;
  char c0 = s[0];
  if (!((c0 >= 'a' && c0 <= 'z') || (c0 >= 'A' && c0 <= 'Z') || c0 == '_')) return false;
  for (char c : s) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) {
      return false;
    }
  }
  return true;
}

std::string ExprList(const std::vector<ExprPtr>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    out += v[i]->ToString();
  }
  return out;
}

std::string IdentList(const std::vector<std::string>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    out += QuoteIdentifier(v[i]);
  }
  return out;
}

// Prints a function name bare unless that would re-parse as something else: a reserved word
// (scalar LEFT/RIGHT excepted) or a special form written like a call.
std::string FunctionName(const std::string& name, bool table_function) {
  bool special = EqualsIgnoreCase(name, "CAST") || EqualsIgnoreCase(name, "TRY_CAST") ||
                 EqualsIgnoreCase(name, "EXISTS") || EqualsIgnoreCase(name, "EXTRACT");
  bool left_right = !table_function && (EqualsIgnoreCase(name, "LEFT") || EqualsIgnoreCase(name, "RIGHT"));
  if (IsPlainWord(name) && !special && (left_right || !IsReservedKeyword(name))) return name;
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out += '`';
    out += c;
  }
  return out + "`";
}

std::string FunctionToString(const FunctionExpression& f, bool table_function = false) {
  std::string out = FunctionName(f.name, table_function);
  out += "(";
  if (f.distinct) out += "DISTINCT ";
  for (size_t i = 0; i < f.args.size(); ++i) {
    if (i) out += ", ";
    if (i < f.arg_names.size() && !f.arg_names[i].empty()) {
      out += QuoteIdentifier(f.arg_names[i]) + " => ";
    }
    out += f.args[i]->ToString();
  }
  out += ")";
  if (f.within_group) {
    out += " WITHIN GROUP (ORDER BY " + f.within_group->ToString() + (f.within_group_descending ? " DESC)" : ")");
  }
  if (f.filter) out += " FILTER (WHERE " + f.filter->ToString() + ")";
  if (f.over) out += " OVER " + f.over->ToString();
  return out;
}

// Prints the base of a subscript or field access so that it re-parses as the same base.
std::string PostfixBase(const ParsedExpression& base, bool field_access) {
  switch (base.kind) {
    case ExprKind::kColumnRef:
      return field_access ? "(" + base.ToString() + ")" : base.ToString();
    case ExprKind::kFunction:
    case ExprKind::kSubscript:
    case ExprKind::kFieldAccess:
      return base.ToString();
    default:
      return "(" + base.ToString() + ")";
  }
}

std::string OrderByToString(const std::vector<OrderByItem>& items) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += items[i].all ? "ALL" : items[i].expr->ToString();
    out += items[i].descending ? " DESC" : " ASC";
    if (items[i].nulls == NullsOrder::kFirst) out += " NULLS FIRST";
    if (items[i].nulls == NullsOrder::kLast) out += " NULLS LAST";
  }
  return out;
}

std::string AliasToString(const TableRef& ref) {
  std::string out;
  if (ref.sample) out += " " + ref.sample->ToString();
  if (!ref.alias.empty()) out += " AS " + QuoteIdentifier(ref.alias);
  if (!ref.column_aliases.empty()) out += "(" + IdentList(ref.column_aliases) + ")";
  return out;
}

}  // namespace

std::string QuoteIdentifier(const std::string& name) {
  if (IsPlainWord(name) && !IsReservedKeyword(name)) return name;
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out += '`';
    out += c;
  }
  return out + "`";
}

std::string QuoteString(const std::string& value) {
  std::string out = "'";
  for (size_t i = 0; i < value.size(); ++i) {
    char c = value[i];
    if (c == '\'') out += '\'';
    // A backslash starts an escape when read back, except before % and _ (kept for LIKE).
    bool kept = c == '\\' && i + 1 < value.size() && (value[i + 1] == '%' || value[i + 1] == '_');
    if (c == '\\' && !kept) out += '\\';
    out += c;
  }
  return out + "'";
}

std::string JoinNameParts(const std::vector<std::string>& parts) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += ".";
    out += QuoteIdentifier(parts[i]);
  }
  return out;
}

const char* BinaryOpSql(BinaryOp op) {
  switch (op) {
    case BinaryOp::kOr: return "OR";
    case BinaryOp::kAnd: return "AND";
    case BinaryOp::kEqual: return "=";
    case BinaryOp::kNotEqual: return "<>";
    case BinaryOp::kLess: return "<";
    case BinaryOp::kLessEqual: return "<=";
    case BinaryOp::kGreater: return ">";
    case BinaryOp::kGreaterEqual: return ">=";
    case BinaryOp::kDistinctFrom: return "IS DISTINCT FROM";
    case BinaryOp::kNotDistinctFrom: return "IS NOT DISTINCT FROM";
    case BinaryOp::kConcat: return "||";
    case BinaryOp::kAdd: return "+";
    case BinaryOp::kSubtract: return "-";
    case BinaryOp::kMultiply: return "*";
    case BinaryOp::kDivide: return "/";
    case BinaryOp::kModulo: return "%";
    case BinaryOp::kIntegerDivide: return "//";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------
// Heights

void UpdateHeight(TypeName& type) {
  int h = 0;
  for (const TypeName& c : type.children) h = std::max(h, c.height);
  type.height = h + 1;
}

void UpdateHeight(ParsedExpression& expr) {
  int h = 0;
  switch (expr.kind) {
    case ExprKind::kConstant:
    case ExprKind::kColumnRef:
    case ExprKind::kStar:
      break;
    case ExprKind::kFunction: {
      const auto& f = expr.As<FunctionExpression>();
      h = std::max(H(f.args), H(f.within_group));
      if (f.filter) h = std::max(h, f.filter->height);
      if (f.over) h = std::max(h, f.over->height);
      break;
    }
    case ExprKind::kCast: {
      const auto& e = expr.As<CastExpression>();
      h = std::max(H(e.child), e.type.height);
      break;
    }
    case ExprKind::kUnary: h = H(expr.As<UnaryExpression>().child); break;
    case ExprKind::kBinary: {
      const auto& e = expr.As<BinaryExpression>();
      h = std::max(H(e.left), H(e.right));
      break;
    }
    case ExprKind::kIsNull: h = H(expr.As<IsNullExpression>().child); break;
    case ExprKind::kBetween: {
      const auto& e = expr.As<BetweenExpression>();
      h = std::max({H(e.input), H(e.lower), H(e.upper)});
      break;
    }
    case ExprKind::kIn: {
      const auto& e = expr.As<InExpression>();
      h = std::max({H(e.input), H(e.values), H(e.subquery)});
      break;
    }
    case ExprKind::kLike: {
      const auto& e = expr.As<LikeExpression>();
      h = std::max({H(e.input), H(e.pattern), H(e.escape)});
      break;
    }
    case ExprKind::kCase: {
      const auto& e = expr.As<CaseExpression>();
      h = std::max(H(e.operand), H(e.else_expr));
      for (const auto& w : e.whens) h = std::max({h, H(w.when), H(w.then)});
      break;
    }
    case ExprKind::kSubquery: h = H(expr.As<SubqueryExpression>().query); break;
    case ExprKind::kExists: h = H(expr.As<ExistsExpression>().query); break;
    case ExprKind::kList: h = H(expr.As<ListExpression>().elements); break;
    case ExprKind::kStruct: h = H(expr.As<StructExpression>().values); break;
    case ExprKind::kSubscript: {
      const auto& e = expr.As<SubscriptExpression>();
      h = std::max(H(e.base), H(e.index));
      break;
    }
    case ExprKind::kFieldAccess: h = H(expr.As<FieldAccessExpression>().base); break;
    case ExprKind::kExtract: h = H(expr.As<ExtractExpression>().source); break;
    case ExprKind::kLambda: h = H(expr.As<LambdaExpression>().body); break;
  }
  expr.height = h + 1;
}

void UpdateHeight(WindowSpec& spec) {
  int h = H(spec.partition_by);
  for (const auto& o : spec.order_by) h = std::max(h, H(o.expr));
  if (spec.frame) h = std::max({h, H(spec.frame->start.offset), H(spec.frame->end.offset)});
  spec.height = h + 1;
}

void UpdateHeight(QueryNode& query) {
  int h = std::max(H(query.limit), H(query.offset));
  for (const auto& cte : query.ctes) h = std::max(h, H(cte.query));
  for (const auto& o : query.order_by) h = std::max(h, H(o.expr));
  switch (query.kind) {
    case QueryKind::kSelect: {
      const auto& s = query.As<SelectNode>();
      for (const auto& item : s.select_list) h = std::max(h, H(item.expr));
      h = std::max({h, H(s.from), H(s.where), H(s.group_by), H(s.having), H(s.qualify)});
      for (const auto& g : s.grouping_elements) {
        for (const auto& set : g.items) h = std::max(h, H(set));
      }
      for (const auto& w : s.windows) h = std::max(h, w.second.height);
      break;
    }
    case QueryKind::kSetOperation: {
      const auto& s = query.As<SetOperationNode>();
      h = std::max({h, H(s.left), H(s.right)});
      break;
    }
    case QueryKind::kValues:
      for (const auto& row : query.As<ValuesNode>().rows) h = std::max(h, H(row));
      break;
  }
  query.height = h + 1;
}

void UpdateHeight(TableRef& ref) {
  int h = 0;
  switch (ref.kind) {
    case TableRefKind::kBaseTable: {
      const auto& t = ref.As<BaseTableRef>();
      if (t.time_travel) h = H(t.time_travel->value);
      break;
    }
    case TableRefKind::kTableFunction: {
      const auto& t = ref.As<TableFunctionRef>();
      h = t.call ? t.call->height : 0;
      break;
    }
    case TableRefKind::kSubquery: h = H(ref.As<SubqueryRef>().query); break;
    case TableRefKind::kJoin: {
      const auto& j = ref.As<JoinRef>();
      h = std::max({H(j.left), H(j.right), H(j.condition)});
      break;
    }
  }
  ref.height = h + 1;
}

// ---------------------------------------------------------------------------------------------
// Printing

std::string TypeName::ToString() const {
  if (name == "ARRAY" && children.size() == 1) return "ARRAY<" + children[0].ToString() + ">";
  if (name == "MAP" && children.size() == 2) {
    return "MAP<" + children[0].ToString() + ", " + children[1].ToString() + ">";
  }
  if (name == "STRUCT") {
    std::string out = "STRUCT<";
    for (size_t i = 0; i < children.size(); ++i) {
      if (i) out += ", ";
      out += (i < field_names.size() ? QuoteIdentifier(field_names[i]) : std::string("?")) + ": " +
             children[i].ToString();
    }
    return out + ">";
  }
  if (name == "STRING" && params.size() == 1) return "VARCHAR(" + std::to_string(params[0]) + ")";
  std::string out = name;
  if (!params.empty()) {
    out += "(";
    for (size_t i = 0; i < params.size(); ++i) {
      if (i) out += ", ";
      out += std::to_string(params[i]);
    }
    out += ")";
  }
  return out;
}

namespace {

std::string FrameBoundToString(const FrameBound& b) {
  switch (b.kind) {
    case FrameBoundKind::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
    case FrameBoundKind::kPreceding: return b.offset->ToString() + " PRECEDING";
    case FrameBoundKind::kCurrentRow: return "CURRENT ROW";
    case FrameBoundKind::kFollowing: return b.offset->ToString() + " FOLLOWING";
    case FrameBoundKind::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
  }
  return "";
}

std::string ParenList(const std::vector<ExprPtr>& v) {
  std::string out = "(";
  out += ExprList(v);
  out += ')';
  return out;
}

}  // namespace

std::string WindowSpec::ToString() const {
  if (!base.empty() && partition_by.empty() && order_by.empty() && !frame) {
    return QuoteIdentifier(base);
  }
  std::string out;
  auto sep = [&out] {
    if (!out.empty()) out += " ";
  };
  if (!base.empty()) out += QuoteIdentifier(base);
  if (!partition_by.empty()) {
    sep();
    out += "PARTITION BY " + ExprList(partition_by);
  }
  if (!order_by.empty()) {
    sep();
    out += "ORDER BY " + OrderByToString(order_by);
  }
  if (frame) {
    sep();
    out += frame->unit == FrameUnit::kRows ? "ROWS BETWEEN " : "RANGE BETWEEN ";
    out += FrameBoundToString(frame->start) + " AND " + FrameBoundToString(frame->end);
  }
  return "(" + out + ")";
}

std::string GroupingElement::ToString() const {
  std::string out = kind == Kind::kRollup ? "ROLLUP (" : kind == Kind::kCube ? "CUBE (" : "GROUPING SETS (";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i) out += ", ";
    out += ParenList(items[i]);
  }
  return out + ")";
}

std::string ParsedExpression::ToString() const {
  switch (kind) {
    case ExprKind::kConstant: {
      const auto& c = As<ConstantExpression>();
      switch (c.literal_kind) {
        case LiteralKind::kNull: return "NULL";
        case LiteralKind::kBoolean: return c.text == "true" ? "TRUE" : "FALSE";
        case LiteralKind::kInteger:
        case LiteralKind::kDecimal:
        case LiteralKind::kFloat: return c.text + c.number_suffix;
        case LiteralKind::kString: return QuoteString(c.text);
        case LiteralKind::kBinary: return "X'" + c.text + "'";
        case LiteralKind::kDate: return "DATE " + QuoteString(c.text);
        case LiteralKind::kTimestamp: return "TIMESTAMP " + QuoteString(c.text);
        case LiteralKind::kTimestampNtz: return "TIMESTAMP_NTZ " + QuoteString(c.text);
        case LiteralKind::kDefault: return "DEFAULT";
        case LiteralKind::kValue: return c.text;
        case LiteralKind::kParameter: {
          size_t n = std::stoul(c.text);
          if (c.parameters && n >= 1 && n <= c.parameters->values.size() && c.parameters->values[n - 1]) {
            ConstantExpression bound(c.position);
            bound.literal_kind = c.parameters->values[n - 1]->kind;
            bound.text = c.parameters->values[n - 1]->text;
            return bound.ToString();
          }
          return "$" + c.text;
        }
        case LiteralKind::kInterval: {
          std::string out = "INTERVAL " + QuoteString(c.text);
          if (!c.interval_unit.empty()) out += " " + c.interval_unit;
          return out;
        }
      }
      return "NULL";
    }
    case ExprKind::kColumnRef: return JoinNameParts(As<ColumnRefExpression>().parts);
    case ExprKind::kStar: {
      const auto& s = As<StarExpression>();
      std::string out = s.qualifier.empty() ? "*" : JoinNameParts(s.qualifier) + ".*";
      if (!s.except.empty()) out += " EXCEPT (" + IdentList(s.except) + ")";
      return out;
    }
    case ExprKind::kFunction: return FunctionToString(As<FunctionExpression>());
    case ExprKind::kCast: {
      const auto& c = As<CastExpression>();
      return std::string(c.try_cast ? "TRY_CAST(" : "CAST(") + c.child->ToString() + " AS " +
             c.type.ToString() + ")";
    }
    case ExprKind::kUnary: {
      const auto& u = As<UnaryExpression>();
      const char* op = u.op == UnaryOp::kNot ? "NOT " : u.op == UnaryOp::kNegate ? "- " : "+ ";
      return "(" + std::string(op) + u.child->ToString() + ")";
    }
    case ExprKind::kBinary: {
      const auto& b = As<BinaryExpression>();
      return "(" + b.left->ToString() + " " + BinaryOpSql(b.op) + " " + b.right->ToString() + ")";
    }
    case ExprKind::kIsNull: {
      const auto& e = As<IsNullExpression>();
      return "(" + e.child->ToString() + (e.negated ? " IS NOT NULL)" : " IS NULL)");
    }
    case ExprKind::kBetween: {
      const auto& e = As<BetweenExpression>();
      return "(" + e.input->ToString() + (e.negated ? " NOT BETWEEN " : " BETWEEN ") +
             e.lower->ToString() + " AND " + e.upper->ToString() + ")";
    }
    case ExprKind::kIn: {
      const auto& e = As<InExpression>();
      std::string list = e.subquery ? e.subquery->ToString() : ExprList(e.values);
      if (!e.quantifier.empty()) {
        return "(" + e.input->ToString() + " " + e.compare + " " + e.quantifier + " (" + list + "))";
      }
      return "(" + e.input->ToString() + (e.negated ? " NOT IN (" : " IN (") + list + "))";
    }
    case ExprKind::kLike: {
      const auto& e = As<LikeExpression>();
      std::string out = "(" + e.input->ToString() + (e.negated ? " NOT" : "") +
                        (e.case_insensitive ? " ILIKE " : " LIKE ") + e.pattern->ToString();
      if (e.escape) out += " ESCAPE " + e.escape->ToString();
      return out + ")";
    }
    case ExprKind::kCase: {
      const auto& e = As<CaseExpression>();
      std::string out = "CASE";
      if (e.operand) out += " " + e.operand->ToString();
      for (const auto& w : e.whens) {
        out += " WHEN " + w.when->ToString() + " THEN " + w.then->ToString();
      }
      if (e.else_expr) out += " ELSE " + e.else_expr->ToString();
      return out + " END";
    }
    case ExprKind::kSubquery: return "(" + As<SubqueryExpression>().query->ToString() + ")";
    case ExprKind::kExists: return "EXISTS (" + As<ExistsExpression>().query->ToString() + ")";
    case ExprKind::kList: return "[" + ExprList(As<ListExpression>().elements) + "]";
    case ExprKind::kStruct: {
      const auto& s = As<StructExpression>();
      std::string out = "{";
      for (size_t i = 0; i < s.values.size(); ++i) {
        if (i) out += ", ";
        out += QuoteString(s.names[i]) + ": " + s.values[i]->ToString();
      }
      return out + "}";
    }
    case ExprKind::kSubscript: {
      const auto& s = As<SubscriptExpression>();
      return PostfixBase(*s.base, false) + "[" + s.index->ToString() + "]";
    }
    case ExprKind::kFieldAccess: {
      const auto& f = As<FieldAccessExpression>();
      return PostfixBase(*f.base, true) + "." + QuoteIdentifier(f.field);
    }
    case ExprKind::kExtract: {
      const auto& e = As<ExtractExpression>();
      return "EXTRACT(" + e.field + " FROM " + e.source->ToString() + ")";
    }
    case ExprKind::kLambda: {
      const auto& l = As<LambdaExpression>();
      std::string params;
      for (size_t i = 0; i < l.params.size(); ++i) params += (i ? ", " : "") + QuoteIdentifier(l.params[i]);
      return "(" + params + ") -> " + l.body->ToString();
    }
  }
  return "?";
}

std::string QueryNode::ToString() const {
  std::string out;
  if (!ctes.empty()) {
    out += ctes[0].recursive ? "WITH RECURSIVE " : "WITH ";
    for (size_t i = 0; i < ctes.size(); ++i) {
      if (i) out += ", ";
      out += QuoteIdentifier(ctes[i].name);
      if (!ctes[i].columns.empty()) out += "(" + IdentList(ctes[i].columns) + ")";
      out += " AS (" + ctes[i].query->ToString() + ")";
    }
    out += " ";
  }
  switch (kind) {
    case QueryKind::kSelect: {
      const auto& s = As<SelectNode>();
      out += s.distinct ? "SELECT DISTINCT " : "SELECT ";
      for (size_t i = 0; i < s.select_list.size(); ++i) {
        if (i) out += ", ";
        out += s.select_list[i].expr->ToString();
        if (!s.select_list[i].alias.empty()) out += " AS " + QuoteIdentifier(s.select_list[i].alias);
        if (!s.select_list[i].aliases.empty()) out += " AS (" + IdentList(s.select_list[i].aliases) + ")";
      }
      if (s.from) out += " FROM " + s.from->ToString();
      for (const auto& lv : s.lateral_views) {
        out += std::string(" LATERAL VIEW ") + (lv.outer ? "OUTER " : "") + lv.call->ToString();
        if (!lv.table_alias.empty()) out += " " + QuoteIdentifier(lv.table_alias);
        if (!lv.columns.empty()) out += " AS " + IdentList(lv.columns);
      }
      if (s.pivot) out += " " + s.pivot->ToString();
      if (s.unpivot) out += " " + s.unpivot->ToString();
      if ((s.pivot || s.unpivot) && !s.pivot_alias.empty()) out += " AS " + QuoteIdentifier(s.pivot_alias);
      if (s.where) out += " WHERE " + s.where->ToString();
      if (s.group_by_all) out += " GROUP BY ALL";
      if (!s.group_by.empty() || !s.grouping_elements.empty()) {
        out += " GROUP BY " + ExprList(s.group_by);
        for (size_t i = 0; i < s.grouping_elements.size(); ++i) {
          out += (i || !s.group_by.empty() ? ", " : "") + s.grouping_elements[i].ToString();
        }
      }
      if (s.having) out += " HAVING " + s.having->ToString();
      for (size_t i = 0; i < s.windows.size(); ++i) {
        out += (i ? ", " : " WINDOW ") + QuoteIdentifier(s.windows[i].first) + " AS " +
               s.windows[i].second.ToString();
      }
      if (s.qualify) out += " QUALIFY " + s.qualify->ToString();
      break;
    }
    case QueryKind::kSetOperation: {
      const auto& s = As<SetOperationNode>();
      std::string left = s.left->ToString();
      if (s.left->HasModifiers()) left = "(" + left + ")";
      std::string right = s.right->ToString();
      if (s.right->HasModifiers() || s.right->kind == QueryKind::kSetOperation) {
        right = "(" + right + ")";
      }
      const char* op = s.op == SetOpKind::kUnion    ? " UNION "
                       : s.op == SetOpKind::kExcept ? " EXCEPT "
                                                    : " INTERSECT ";
      out += left + op + (s.all ? "ALL " : "") + right;
      break;
    }
    case QueryKind::kValues: {
      out += "VALUES ";
      const auto& rows = As<ValuesNode>().rows;
      for (size_t i = 0; i < rows.size(); ++i) {
        if (i) out += ", ";
        out += "(" + ExprList(rows[i]) + ")";
      }
      break;
    }
  }
  if (!order_by.empty()) out += " ORDER BY " + OrderByToString(order_by);
  if (limit) out += " LIMIT " + limit->ToString();
  if (offset) out += " OFFSET " + offset->ToString();
  return out;
}

std::string TableName::ToString() const {
  if (IsPath()) {  // always back-quoted: delta.`x` is a path, delta.x a table in schema delta
    std::string out = "delta.`";
    for (char c : path) {
      if (c == '`') out += '`';
      out += c;
    }
    return out + "`";
  }
  return JoinNameParts(parts);
}

std::string TimeTravel::ToString() const {
  return std::string(kind == Kind::kVersion ? "VERSION AS OF " : "TIMESTAMP AS OF ") +
         value->ToString();
}

std::string TableSample::ToString() const {
  std::string out = "TABLESAMPLE (";
  switch (kind) {
    case Kind::kPercent: out += percent + " PERCENT"; break;
    case Kind::kRows: out += std::to_string(rows) + " ROWS"; break;
    case Kind::kBucket: out += "BUCKET " + std::to_string(bucket) + " OUT OF " + std::to_string(buckets); break;
  }
  out += ")";
  if (seed) out += " REPEATABLE (" + std::to_string(*seed) + ")";
  return out;
}

std::string TableRef::ToString() const {
  switch (kind) {
    case TableRefKind::kBaseTable: {
      const auto& t = As<BaseTableRef>();
      std::string out = t.name.ToString();
      if (t.time_travel) out += " " + t.time_travel->ToString();
      return out + AliasToString(*this);
    }
    case TableRefKind::kTableFunction:
      return FunctionToString(*As<TableFunctionRef>().call, true) + AliasToString(*this);
    case TableRefKind::kSubquery:
      return std::string(As<SubqueryRef>().lateral ? "LATERAL (" : "(") + As<SubqueryRef>().query->ToString() + ")" +
             AliasToString(*this);
    case TableRefKind::kJoin: {
      const auto& j = As<JoinRef>();
      std::string right = j.right->ToString();
      if (j.right->kind == TableRefKind::kJoin) right = "(" + right + ")";
      const char* op = "";
      switch (j.type) {
        case JoinType::kInner: op = " INNER JOIN "; break;
        case JoinType::kLeft: op = " LEFT JOIN "; break;
        case JoinType::kRight: op = " RIGHT JOIN "; break;
        case JoinType::kFull: op = " FULL JOIN "; break;
        case JoinType::kCross: op = " CROSS JOIN "; break;
        case JoinType::kSemi: op = " SEMI JOIN "; break;
        case JoinType::kAnti: op = " ANTI JOIN "; break;
      }
      std::string out = j.left->ToString() + (j.natural ? " NATURAL" : "") + op + right;
      if (j.condition) out += " ON " + j.condition->ToString();
      if (!j.using_columns.empty()) out += " USING (" + IdentList(j.using_columns) + ")";
      return out;
    }
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------
// Statements


namespace {


std::string PropertiesToString(const Properties& props) {
  std::string out = "(";
  for (size_t i = 0; i < props.size(); ++i) {
    if (i) out += ", ";
    out += QuoteString(props[i].first) + " = " + QuoteString(props[i].second);
  }
  return out + ")";
}

std::string AssignmentList(const std::vector<Assignment>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    out += v[i].ToString();
  }
  return out;
}

std::string AliasSuffix(const std::string& alias) {
  return alias.empty() ? "" : " AS " + QuoteIdentifier(alias);
}

std::string WhereSuffix(const ExprPtr& where) {
  return where ? " WHERE " + where->ToString() : "";
}

// Prints a dotted SET/RESET key so that it re-parses to the same string.
std::string SettingKey(const std::string& key) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    size_t dot = key.find('.', start);
    parts.push_back(key.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  for (const std::string& p : parts) {
    if (p.empty()) return QuoteIdentifier(key);  // e.g. "a." cannot be split
  }
  return JoinNameParts(parts);
}

std::string AlterToString(const AlterTableStatement& s) {
  std::string out = "ALTER TABLE " + s.table.ToString() + " ";
  using A = AlterTableStatement::Action;
  switch (s.action) {
    case A::kAddColumns: {
      out += "ADD COLUMNS (";
      for (size_t i = 0; i < s.add_columns.size(); ++i) {
        if (i) out += ", ";
        out += s.add_columns[i].ToString();
      }
      return out + ")";
    }
    case A::kRenameColumn:
      return out + "RENAME COLUMN " + QuoteIdentifier(s.column) + " TO " + QuoteIdentifier(s.new_name);
    case A::kDropColumns:
      return out + "DROP COLUMNS " + (s.if_exists ? "IF EXISTS " : "") + "(" + IdentList(s.columns) + ")";
    case A::kSetProperties: return out + "SET TBLPROPERTIES " + PropertiesToString(s.properties);
    case A::kUnsetProperties: {
      out += "UNSET TBLPROPERTIES ";
      if (s.if_exists) out += "IF EXISTS ";
      out += "(";
      for (size_t i = 0; i < s.property_keys.size(); ++i) {
        if (i) out += ", ";
        out += QuoteString(s.property_keys[i]);
      }
      return out + ")";
    }
    case A::kSetNotNull: return out + "ALTER COLUMN " + QuoteIdentifier(s.column) + " SET NOT NULL";
    case A::kDropNotNull: return out + "ALTER COLUMN " + QuoteIdentifier(s.column) + " DROP NOT NULL";
    case A::kAddConstraint: return out + "ADD " + s.constraint.ToString();
    case A::kSetDefault:
      return out + "ALTER COLUMN " + QuoteIdentifier(s.column) + " SET DEFAULT " + s.default_value->ToString();
    case A::kDropDefault: return out + "ALTER COLUMN " + QuoteIdentifier(s.column) + " DROP DEFAULT";
    case A::kDropConstraint:
      return out + "DROP CONSTRAINT " + (s.if_exists ? "IF EXISTS " : "") +
             QuoteIdentifier(s.constraint_name);
    case A::kAddKeyConstraint:
      out += "ADD ";
      if (!s.key_constraint.name.empty()) out += "CONSTRAINT " + QuoteIdentifier(s.key_constraint.name) + " ";
      return out + s.key_constraint.ToString();
    case A::kDropPrimaryKey: return out + "DROP PRIMARY KEY" + (s.if_exists ? " IF EXISTS" : "");
  }
  return out;
}

std::string CreateToString(const CreateTableStatement& s) {
  std::string out = s.or_replace ? "CREATE OR REPLACE TABLE " : "CREATE TABLE ";
  if (s.if_not_exists) out += "IF NOT EXISTS ";
  out += s.name.ToString();
  if (!s.columns.empty() || !s.constraints.empty()) {
    out += " (";
    bool first = true;
    for (const auto& c : s.columns) {
      if (!first) out += ", ";
      first = false;
      out += c.ToString();
    }
    for (const auto& c : s.constraints) {
      if (!first) out += ", ";
      first = false;
      out += c.ToString();
    }
    for (const auto& k : s.key_constraints) {
      if (!first) out += ", ";
      first = false;
      if (!k.name.empty()) out += "CONSTRAINT " + QuoteIdentifier(k.name) + " ";
      out += k.ToString();
    }
    out += ")";
  }
  if (!s.using_format.empty()) out += " USING " + QuoteIdentifier(s.using_format);
  if (!s.partitioned_by.empty()) out += " PARTITIONED BY (" + IdentList(s.partitioned_by) + ")";
  if (s.location) out += " LOCATION " + QuoteString(*s.location);
  if (s.comment) out += " COMMENT " + QuoteString(*s.comment);
  if (!s.properties.empty()) out += " TBLPROPERTIES " + PropertiesToString(s.properties);
  if (s.as_query) out += " AS " + s.as_query->ToString();
  return out;
}

}  // namespace

std::string OptionValue::ToString() const {
  switch (kind) {
    case Kind::kNone: return "";
    case Kind::kString: return QuoteString(text);
    case Kind::kNumber:
    case Kind::kBoolean: return text;
    case Kind::kWord: return QuoteIdentifier(text);
  }
  return "";
}

std::string ColumnDefinition::ToString() const {
  std::string out = QuoteIdentifier(name) + " " + type.ToString();
  if (not_null) out += " NOT NULL";
  if (generated) out += " GENERATED ALWAYS AS (" + generated->ToString() + ")";
  if (default_value) out += " DEFAULT " + default_value->ToString();
  if (identity) {
    out += identity->always ? " GENERATED ALWAYS AS IDENTITY" : " GENERATED BY DEFAULT AS IDENTITY";
    if (identity->start || identity->increment) {
      out += " (";
      if (identity->start) out += "START WITH " + std::to_string(*identity->start);
      if (identity->start && identity->increment) out += " ";
      if (identity->increment) out += "INCREMENT BY " + std::to_string(*identity->increment);
      out += ")";
    }
  }
  if (comment) out += " COMMENT " + QuoteString(*comment);
  return out;
}

std::string PivotClause::ToString() const {
  std::string out = "PIVOT (";
  for (size_t i = 0; i < aggregates.size(); ++i) {
    out += (i ? ", " : "") + aggregates[i].expr->ToString();
    if (!aggregates[i].alias.empty()) out += " AS " + QuoteIdentifier(aggregates[i].alias);
  }
  out += " FOR ";
  out += for_columns.size() == 1 ? for_columns[0]->ToString() : "(" + ExprList(for_columns) + ")";
  out += " IN (";
  for (size_t i = 0; i < values.size(); ++i) {
    out += i ? ", " : "";
    if (values[i].exprs.size() == 1) {
      out += values[i].exprs[0]->ToString();
    } else {
      out += '(';
      out += ExprList(values[i].exprs);
      out += ')';
    }
    if (!values[i].alias.empty()) out += " AS " + QuoteIdentifier(values[i].alias);
  }
  return out + "))";
}

std::string UnpivotClause::ToString() const {
  std::string out = include_nulls ? "UNPIVOT INCLUDE NULLS (" : "UNPIVOT (";
  out += value_columns.size() == 1 ? QuoteIdentifier(value_columns[0]) : "(" + IdentList(value_columns) + ")";
  out += " FOR " + QuoteIdentifier(name_column) + " IN (";
  for (size_t i = 0; i < items.size(); ++i) {
    out += i ? ", " : "";
    if (items[i].columns.size() == 1) {
      out += QuoteIdentifier(items[i].columns[0]);
    } else {
      out += '(';
      out += IdentList(items[i].columns);
      out += ')';
    }
    if (!items[i].alias.empty()) out += " AS " + QuoteIdentifier(items[i].alias);
  }
  return out + "))";
}

std::string KeyConstraint::ToString() const {
  std::string out = kind == Kind::kPrimaryKey ? "PRIMARY KEY (" : kind == Kind::kUnique ? "UNIQUE (" : "FOREIGN KEY (";
  out += IdentList(columns) + ")";
  if (kind == Kind::kForeignKey) {
    out += " REFERENCES " + references.ToString();
    if (!referenced_columns.empty()) out += " (" + IdentList(referenced_columns) + ")";
  }
  out += " NOT ENFORCED";
  if (rely) out += " RELY";
  return out;
}

std::string CheckConstraint::ToString() const {
  return "CONSTRAINT " + QuoteIdentifier(name) + " CHECK (" + expr->ToString() + ")";
}

std::string Assignment::ToString() const {
  return JoinNameParts(column) + " = " + value->ToString();
}

std::string MergeClause::ToString() const {
  std::string out;
  switch (match) {
    case MergeMatch::kMatched: out = "WHEN MATCHED"; break;
    case MergeMatch::kNotMatchedByTarget: out = "WHEN NOT MATCHED"; break;
    case MergeMatch::kNotMatchedBySource: out = "WHEN NOT MATCHED BY SOURCE"; break;
  }
  if (condition) out += " AND " + condition->ToString();
  out += " THEN ";
  switch (action) {
    case MergeAction::kUpdate: return out + "UPDATE SET " + AssignmentList(assignments);
    case MergeAction::kUpdateStar: return out + "UPDATE SET *";
    case MergeAction::kDelete: return out + "DELETE";
    case MergeAction::kInsertStar: return out + "INSERT *";
    case MergeAction::kInsert: {
      out += "INSERT ";
      if (!insert_columns.empty()) out += "(" + IdentList(insert_columns) + ") ";
      out += "VALUES (";
      for (size_t i = 0; i < insert_values.size(); ++i) {
        if (i) out += ", ";
        out += insert_values[i]->ToString();
      }
      return out + ")";
    }
  }
  return out;
}

std::string Statement::ToString() const {
  switch (kind) {
    case StatementKind::kSelect: return As<SelectStatement>().query->ToString();
    case StatementKind::kExplain: {
      const auto& s = As<ExplainStatement>();
      return std::string(s.analyze ? "EXPLAIN ANALYZE " : "EXPLAIN ") + s.statement->ToString();
    }
    case StatementKind::kCreateTable: return CreateToString(As<CreateTableStatement>());
    case StatementKind::kDropTable: {
      const auto& s = As<DropTableStatement>();
      return std::string("DROP TABLE ") + (s.if_exists ? "IF EXISTS " : "") + s.name.ToString();
    }
    case StatementKind::kShowTables: return "SHOW TABLES";
    case StatementKind::kShowSetting: {
      const std::string& key = As<ShowSettingStatement>().key;
      // A setting named `tables` is quoted, so that it does not read back as SHOW TABLES.
      if (EqualsIgnoreCase(key, "TABLES")) return "SHOW `" + key + "`";
      return "SHOW " + SettingKey(key);
    }
    case StatementKind::kCreateView:
    case StatementKind::kDropView: return ViewStatementToString(*this);
    case StatementKind::kDescribe: {
      const auto& s = As<DescribeStatement>();
      using K = DescribeStatement::Kind;
      switch (s.describe_kind) {
        case K::kTable: return std::string("DESCRIBE TABLE ") + (s.extended ? "EXTENDED " : "") + s.name.ToString();
        case K::kHistory:
          return "DESCRIBE HISTORY " + s.name.ToString() +
                 (s.limit ? " LIMIT " + std::to_string(*s.limit) : "");
        case K::kDetail: return "DESCRIBE DETAIL " + s.name.ToString();
        case K::kLayout: return "DESCRIBE LAYOUT " + s.name.ToString();
      }
      return "DESCRIBE";
    }
    case StatementKind::kInsert: {
      const auto& s = As<InsertStatement>();
      std::string out = s.overwrite ? "INSERT OVERWRITE TABLE " : "INSERT INTO ";
      out += s.table.ToString();
      if (!s.columns.empty()) out += " (" + IdentList(s.columns) + ")";
      if (s.replace_where) out += " REPLACE WHERE " + s.replace_where->ToString();
      return out + " " + s.query->ToString();
    }
    case StatementKind::kDelete: {
      const auto& s = As<DeleteStatement>();
      return "DELETE FROM " + s.table.ToString() + AliasSuffix(s.alias) + WhereSuffix(s.where);
    }
    case StatementKind::kUpdate: {
      const auto& s = As<UpdateStatement>();
      return "UPDATE " + s.table.ToString() + AliasSuffix(s.alias) + " SET " +
             AssignmentList(s.assignments) + WhereSuffix(s.where);
    }
    case StatementKind::kMerge: {
      const auto& s = As<MergeStatement>();
      std::string out = "MERGE INTO " + s.target.ToString() + AliasSuffix(s.target_alias) +
                        " USING " + s.source->ToString() + " ON " + s.on->ToString();
      for (const auto& c : s.clauses) out += " " + c.ToString();
      return out;
    }
    case StatementKind::kOptimize: {
      const auto& s = As<OptimizeStatement>();
      std::string out = "OPTIMIZE " + s.table.ToString() + WhereSuffix(s.where);
      if (!s.zorder_by.empty()) out += " ZORDER BY (" + IdentList(s.zorder_by) + ")";
      if (s.compact_log) {
        out += " COMPACT LOG";
        if (s.log_from) out += " FROM VERSION " + std::to_string(*s.log_from);
        if (s.log_to) out += " TO VERSION " + std::to_string(*s.log_to);
      }
      return out;
    }
    case StatementKind::kReorg: {
      const auto& s = As<ReorgStatement>();
      return "REORG TABLE " + s.table.ToString() + WhereSuffix(s.where) + " APPLY (PURGE)";
    }
    case StatementKind::kVacuum: {
      const auto& s = As<VacuumStatement>();
      std::string out = "VACUUM " + s.table.ToString();
      if (s.retain_hours) out += " RETAIN " + *s.retain_hours + " HOURS";
      if (s.dry_run) out += " DRY RUN";
      return out;
    }
    case StatementKind::kCheckpoint: return "CHECKPOINT " + As<CheckpointStatement>().table.ToString();
    case StatementKind::kRestore: {
      const auto& s = As<RestoreStatement>();
      return "RESTORE TABLE " + s.table.ToString() + " TO " + s.target.ToString();
    }
    case StatementKind::kAlterTable: return AlterToString(As<AlterTableStatement>());
    case StatementKind::kTransaction: {
      const auto& s = As<TransactionStatement>();
      using K = TransactionStatement::Kind;
      switch (s.transaction_kind) {
        case K::kBegin: return "BEGIN TRANSACTION";
        case K::kCommit: return "COMMIT";
        case K::kRollback: return "ROLLBACK";
        case K::kPrepare: return "PREPARE TRANSACTION " + QuoteString(s.transaction_id);
        case K::kCommitPrepared: return "COMMIT PREPARED " + QuoteString(s.transaction_id);
        case K::kRollbackPrepared: return "ROLLBACK PREPARED " + QuoteString(s.transaction_id);
      }
      return "COMMIT";
    }
    case StatementKind::kSet: {
      const auto& s = As<SetStatement>();
      return "SET " + SettingKey(s.key) + " = " + s.value.ToString();
    }
    case StatementKind::kReset: {
      const auto& s = As<ResetStatement>();
      return s.key.empty() ? "RESET" : "RESET " + SettingKey(s.key);
    }
    case StatementKind::kCopy: {
      const auto& s = As<CopyStatement>();
      std::string out = "COPY ";
      out += s.query ? "(" + s.query->ToString() + ")" : s.table.ToString();
      out += " TO " + QuoteString(s.file);
      if (!s.options.empty()) {
        out += " (";
        for (size_t i = 0; i < s.options.size(); ++i) {
          if (i) out += ", ";
          out += s.options[i].first;
          if (s.options[i].second.kind != OptionValue::Kind::kNone) {
            out += " " + s.options[i].second.ToString();
          }
        }
        out += ")";
      }
      return out;
    }
  }
  return "?";
}

}  // namespace shoal::sql
