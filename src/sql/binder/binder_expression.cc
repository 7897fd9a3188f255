// Expression binding: AST expressions to bound expr::Expr trees over a scope, with
// aggregates and GROUP BY matching for post-aggregation clauses.
#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "expr/aggregate_functions.h"
#include "expr/cast.h"
#include "expr/coercion.h"
#include "expr/evaluate.h"
#include "expr/function_registry.h"
#include "expr/higher_order.h"
#include "sql/binder/binder.h"
#include "sql/parser/token.h"

namespace shoal::sql {

using columnar::Value;

namespace {

size_t EditDistance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t sub = prev[j - 1] + (std::tolower(a[i - 1]) == std::tolower(b[j - 1]) ? 0 : 1);
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// The `limit` names closest to `name`, comma separated.
std::string Closest(const std::string& name, std::vector<std::string> names, size_t limit) {
  std::stable_sort(names.begin(), names.end(), [&](const std::string& a, const std::string& b) {
    return EditDistance(name, a) < EditDistance(name, b);
  });
  std::string out;
  for (size_t i = 0; i < names.size() && i < limit; ++i) out += (i ? ", " : "") + names[i];
  return out;
}

// Functions expr::Call handles itself, outside the registry.
bool IsSpecialForm(const std::string& lower) {
  return lower == "if" || lower == "iff" || lower == "coalesce" || lower == "ifnull" ||
         lower == "nvl" || lower == "nullif" || lower == "named_struct";
}

}  // namespace

bool ContainsAggregate(const ParsedExpression& e) {
  auto c = [](const sql::ExprPtr& p) { return p && ContainsAggregate(*p); };
  switch (e.kind) {
    case ExprKind::kFunction: {
      const auto& f = e.As<FunctionExpression>();
      if (!f.over && expr::IsAggregateFunction(Lower(f.name))) return true;
      for (const auto& a : f.args) if (c(a)) return true;
      if (f.over) {
        for (const auto& p : f.over->partition_by) if (c(p)) return true;
        for (const auto& o : f.over->order_by) if (c(o.expr)) return true;
      }
      return false;
    }
    case ExprKind::kCast: return c(e.As<CastExpression>().child);
    case ExprKind::kUnary: return c(e.As<UnaryExpression>().child);
    case ExprKind::kBinary: return c(e.As<BinaryExpression>().left) || c(e.As<BinaryExpression>().right);
    case ExprKind::kIsNull: return c(e.As<IsNullExpression>().child);
    case ExprKind::kBetween: {
      const auto& b = e.As<BetweenExpression>();
      return c(b.input) || c(b.lower) || c(b.upper);
    }
    case ExprKind::kIn: {
      const auto& in = e.As<InExpression>();
      if (c(in.input)) return true;
      for (const auto& v : in.values) if (c(v)) return true;
      return false;
    }
    case ExprKind::kLike: {
      const auto& l = e.As<LikeExpression>();
      return c(l.input) || c(l.pattern) || c(l.escape);
    }
    case ExprKind::kCase: {
      const auto& k = e.As<CaseExpression>();
      if (c(k.operand) || c(k.else_expr)) return true;
      for (const auto& w : k.whens) if (c(w.when) || c(w.then)) return true;
      return false;
    }
    case ExprKind::kList:
      for (const auto& v : e.As<ListExpression>().elements) if (c(v)) return true;
      return false;
    case ExprKind::kStruct:
      for (const auto& v : e.As<StructExpression>().values) if (c(v)) return true;
      return false;
    case ExprKind::kSubscript: return c(e.As<SubscriptExpression>().base) || c(e.As<SubscriptExpression>().index);
    case ExprKind::kFieldAccess: return c(e.As<FieldAccessExpression>().base);
    case ExprKind::kExtract: return c(e.As<ExtractExpression>().source);
    default: return false;
  }
}

Result<columnar::TypePtr> BindTypeName(const TypeName& t) {
  const std::string& n = t.name;
  if (n == "BOOLEAN") return columnar::Boolean();
  if (n == "TINYINT") return columnar::Int8();
  if (n == "SMALLINT") return columnar::Int16();
  if (n == "INT") return columnar::Int32();
  if (n == "BIGINT") return columnar::Int64();
  if (n == "FLOAT") return columnar::Float32();
  if (n == "DOUBLE") return columnar::Float64();
  if (n == "STRING") return columnar::String();
  if (n == "BINARY") return columnar::Binary();
  if (n == "DATE") return columnar::Date();
  if (n == "TIME") return columnar::Time();
  if (n == "TIMESTAMP") return columnar::Timestamp();
  if (n == "TIMESTAMP_NTZ") return columnar::TimestampNtz();
  if (n == "DECIMAL") {
    int p = t.params.size() > 0 ? static_cast<int>(t.params[0]) : 10;
    int s = t.params.size() > 1 ? static_cast<int>(t.params[1]) : 0;
    if (p < 1 || p > 38 || s < 0 || s > p) {
      return Status::Binder("Invalid DECIMAL(" + std::to_string(p) + "," + std::to_string(s) + ")");
    }
    return columnar::Decimal(p, s);
  }
  if (n == "ARRAY" && t.children.size() == 1) {
    ASSIGN_OR_RETURN(auto e, BindTypeName(t.children[0]));
    return columnar::List(e);
  }
  if (n == "MAP" && t.children.size() == 2) {
    ASSIGN_OR_RETURN(auto k, BindTypeName(t.children[0]));
    ASSIGN_OR_RETURN(auto v, BindTypeName(t.children[1]));
    return columnar::Map(k, v);
  }
  if (n == "STRUCT" && t.children.size() == t.field_names.size()) {
    std::vector<columnar::Field> fields;
    for (size_t i = 0; i < t.children.size(); ++i) {
      ASSIGN_OR_RETURN(auto ft, BindTypeName(t.children[i]));
      fields.push_back({t.field_names[i], ft, true});
    }
    return columnar::Struct(std::move(fields));
  }
  return Status::Binder("Unknown type " + t.ToString());
}

namespace {

// A type as Spark's typeof() writes it (its simpleString): int, decimal(10,2), array<int>,
// map<string,int>, struct<a:int,b:string>, void for NULL.
std::string SparkTypeName(const columnar::TypePtr& type) {
  using columnar::TypeId;
  const columnar::DataType& t = *type;
  if (expr::IsIntervalType(type)) return "interval";
  switch (t.id()) {
    case TypeId::kNull: return "void";
    case TypeId::kList: return "array<" + SparkTypeName(t.element()) + ">";
    case TypeId::kMap: return "map<" + SparkTypeName(t.key()) + "," + SparkTypeName(t.value()) + ">";
    case TypeId::kStruct: {
      std::string s = "struct<";
      for (size_t i = 0; i < t.children().size(); ++i) {
        if (i) s += ",";
        s += t.children()[i].name + ":" + SparkTypeName(t.children()[i].type);
      }
      return s + ">";
    }
    default: return Lower(t.ToString());
  }
}

// A number with a Spark SQL type suffix (10L, 3S, 4Y, 1.5D, 1.5F, 2BD): the value of that type,
// or an error naming the literal when it does not fit.
Result<Value> SuffixedNumber(const ConstantExpression& e) {
  const std::string& suffix = e.number_suffix;
  std::string written = e.text + suffix;
  auto out_of_range = [&](std::string_view type) {
    return Status::OutOfRange("numeric literal " + written + " does not fit in " + std::string(type));
  };
  if (suffix == "D" || suffix == "F") {
    ASSIGN_OR_RETURN(Value v, expr::FloatLiteral(e.text));
    if (suffix == "D") return v;
    double d = v.GetDouble();
    if (std::isinf(static_cast<float>(d)) && !std::isinf(d)) return out_of_range("FLOAT");
    return expr::CastValue(v, columnar::Float32());
  }
  if (suffix == "BD") {
    if (e.literal_kind == LiteralKind::kFloat) {
      return Status::NotSupported("DECIMAL literal with an exponent (" + written + ") is not supported; write its digits");
    }
    return e.literal_kind == LiteralKind::kInteger ? expr::DecimalLiteral(e.text + ".")
                                                   : expr::DecimalLiteral(e.text);
  }
  // L, S, Y: integral digits (the lexer allows no other).
  ASSIGN_OR_RETURN(Value v, expr::IntegerLiteral(e.text));
  auto type = suffix == "L" ? columnar::Int64() : suffix == "S" ? columnar::Int16() : columnar::Int8();
  auto r = expr::CastValue(v, type);
  if (!r.ok()) return out_of_range(type->ToString());
  return r;
}

}  // namespace

Result<expr::ExprPtr> Binder::BindConstant(const ConstantExpression& e) {
  if (!e.number_suffix.empty()) {
    ASSIGN_OR_RETURN(Value v, SuffixedNumber(e));
    return expr::Literal(std::move(v));
  }
  switch (e.literal_kind) {
    case LiteralKind::kNull: return expr::Literal(Value());
    case LiteralKind::kBoolean: return expr::Literal(Value::Boolean(Lower(e.text) == "true"));
    case LiteralKind::kInteger: {
      ASSIGN_OR_RETURN(Value v, expr::IntegerLiteral(e.text));
      return expr::Literal(std::move(v));
    }
    case LiteralKind::kDecimal: {
      ASSIGN_OR_RETURN(Value v, expr::DecimalLiteral(e.text));
      return expr::Literal(std::move(v));
    }
    case LiteralKind::kFloat: {
      ASSIGN_OR_RETURN(Value v, expr::FloatLiteral(e.text));
      return expr::Literal(std::move(v));
    }
    case LiteralKind::kString: return expr::Literal(Value::String(e.text));
    case LiteralKind::kBinary: {
      // The parser validated an even count of hex digits.
      auto nibble = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
      std::string bytes;
      for (size_t i = 0; i + 1 < e.text.size(); i += 2) {
        bytes.push_back(static_cast<char>(nibble(e.text[i]) * 16 + nibble(e.text[i + 1])));
      }
      return expr::Literal(Value::Binary(std::move(bytes)));
    }
    case LiteralKind::kDate:
    case LiteralKind::kTimestamp:
    case LiteralKind::kTimestampNtz: {
      auto type = e.literal_kind == LiteralKind::kDate        ? columnar::Date()
                  : e.literal_kind == LiteralKind::kTimestamp ? columnar::Timestamp()
                                                              : columnar::TimestampNtz();
      // TIMESTAMP '...' without an offset is a wall-clock time in the session zone.
      ASSIGN_OR_RETURN(Value v, expr::CastValue(Value::String(e.text), type, false, expr::ScopedTimeZone::Current()));
      return expr::Literal(std::move(v));
    }
    case LiteralKind::kInterval: return expr::IntervalLiteral(e.text, e.interval_unit);
    case LiteralKind::kParameter: {
      size_t n = std::stoul(e.text);
      if (!e.parameters || n < 1 || n > e.parameters->values.size() || !e.parameters->values[n - 1]) {
        return Status::InvalidArgument("parameter $" + e.text + " has no value (bind it on the prepared statement)");
      }
      const ParameterValues::Bound& value = *e.parameters->values[n - 1];
      if (value.kind == LiteralKind::kValue) {
        if (!value.value) return Status::Internal("parameter $" + e.text + " is bound without its value");
        return expr::Literal(*value.value);
      }
      ConstantExpression bound(e.position);
      bound.literal_kind = value.kind;
      bound.text = value.text;
      auto r = BindConstant(bound);
      if (!r.ok()) return Status::InvalidArgument("parameter $" + e.text + ": " + r.status().message());
      return r;
    }
    case LiteralKind::kDefault:
      return Status::Binder("DEFAULT is only allowed as a value of INSERT … VALUES or of UPDATE/MERGE SET");
    case LiteralKind::kValue: return Status::Internal("a bound value outside a parameter");
  }
  return Status::Internal("unknown literal kind");
}

Result<expr::ExprPtr> Binder::BindColumnRef(const ColumnRefExpression& e, ExprContext& ctx) {
  if (ctx.lambdas) {
    ASSIGN_OR_RETURN(expr::ExprPtr variable, BindLambdaVariable(e, ctx));
    if (variable) return variable;
  }
  const auto& parts = e.parts;
  const ScopeColumn* found = nullptr;
  size_t used = 0;
  if (ctx.scope) {
    // Qualified: t.c (also s.t.c: the last qualifier part names the table alias).
    for (size_t q = std::min<size_t>(parts.size() - 1, 2); q >= 1 && !found; --q) {
      const std::string& table = parts[q - 1];
      const std::string& name = parts[q];
      for (const auto& c : ctx.scope->columns) {
        if (NameEq(c.table, table) && NameEq(c.name, name)) {
          if (found) return Status::Binder("Ambiguous reference to column \"" + table + "." + name + "\"");
          found = &c;
          used = q + 1;
        }
      }
    }
    if (!found) {
      for (const auto& c : ctx.scope->columns) {
        if (c.hidden || !NameEq(c.name, parts[0])) continue;
        if (found) {
          return Status::Binder("Ambiguous reference to column name \"" + parts[0] +
                                "\" (use \"" + found->table + "." + parts[0] + "\" or \"" +
                                c.table + "." + parts[0] + "\")");
        }
        found = &c;
        used = 1;
      }
    }
  }
  if (!found) {
    if (parts.size() == 1 && ctx.aliases) {
      for (const auto& [alias, ast] : *ctx.aliases) {
        if (NameEq(alias, parts[0])) {
          ExprContext inner = ctx;
          inner.aliases = nullptr;
          return BindExpr(*ast, inner);
        }
      }
    }
    if (active_frames_ > 0) {
      auto outer = BindOuterColumnRef(e);
      // Found outside but unusable there (e.g. not grouped): that error, else "not found".
      if (outer.ok() || outer.status().ToString().find("not found") == std::string::npos) return outer;
    }
    std::vector<std::string> names;
    if (ctx.scope) {
      for (const auto& c : ctx.scope->columns) {
        if (!c.hidden) names.push_back(c.name);
      }
    }
    std::string full = JoinNameParts(parts);
    std::string msg = "Referenced column \"" + full + "\" not found";
    if (names.empty()) {
      msg += " (the query has no FROM clause)";
    } else {
      msg += ". Candidates: " + Closest(parts.back(), names, 5);
    }
    return Status::Binder(msg);
  }
  if (ctx.agg) {
    return Status::Binder("column \"" + JoinNameParts(parts) +
                          "\" must appear in the GROUP BY clause or must be part of an aggregate "
                          "function");
  }
  expr::ExprPtr out = expr::ColumnRef(found->index, found->type, found->name, found->nullable);
  for (size_t i = used; i < parts.size(); ++i) {
    ASSIGN_OR_RETURN(out, expr::FieldAccess(out, parts[i]));
  }
  return out;
}

Result<expr::ExprPtr> Binder::BindAggregate(const FunctionExpression& e, ExprContext& ctx,
                                            expr::ExprPtr extra_filter) {
  std::string name = Lower(e.name);
  if (!ctx.agg) {
    return Status::Binder("aggregate function " + name + "() is not allowed in " +
                          (ctx.clause[0] ? ctx.clause : "this context"));
  }
  ExprContext inner;
  inner.scope = ctx.scope;
  inner.clause = "an aggregate function's arguments";
  std::vector<expr::ExprPtr> args;
  // percentile_cont(p) WITHIN GROUP (ORDER BY x [DESC]) is the aggregate over (x, p, DESC?).
  const bool ordered_set = name == "percentile_cont" || name == "percentile_disc";
  if (ordered_set != (e.within_group != nullptr)) {
    return Status::Binder(ordered_set ? name + "() needs WITHIN GROUP (ORDER BY ...): " + name +
                                            "(0.5) WITHIN GROUP (ORDER BY x)"
                                      : "WITHIN GROUP is only allowed with percentile_cont and percentile_disc, not " +
                                            name + "()");
  }
  if (ordered_set) {
    if (ContainsAggregate(*e.within_group)) return Status::Binder("aggregate function calls cannot be nested");
    ASSIGN_OR_RETURN(expr::ExprPtr x, BindExpr(*e.within_group, inner));
    args.push_back(std::move(x));
  }
  bool star = e.args.size() == 1 && e.args[0]->kind == ExprKind::kStar;
  if (!star) {
    for (const auto& a : e.args) {
      if (ContainsAggregate(*a)) return Status::Binder("aggregate function calls cannot be nested");
      ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*a, inner));
      args.push_back(std::move(b));
    }
  } else if (name != "count") {
    return Status::Binder(name + "(*) is not supported; only count(*)");
  }
  if (e.filter || extra_filter) {
    // agg(x) FILTER (WHERE p) is agg(CASE WHEN p THEN x END): every aggregate that takes a
    // FILTER skips NULL inputs, so the rows p rejects do not count.
    if (!expr::AggregateIgnoresNulls(name)) {
      return Status::Binder("FILTER is not supported for " + name + "(): it does not skip NULL inputs");
    }
    expr::ExprPtr pred = extra_filter;
    if (e.filter) {
      if (ContainsAggregate(*e.filter)) return Status::Binder("aggregate function calls cannot be nested");
      inner.clause = "an aggregate function's FILTER";
      ASSIGN_OR_RETURN(expr::ExprPtr own, BindExpr(*e.filter, inner));
      ASSIGN_OR_RETURN(own, AsPredicate(own, "FILTER"));
      if (pred) {
        ASSIGN_OR_RETURN(pred, expr::And({own, pred}));
      } else {
        pred = own;
      }
    }
    if (star) {
      star = false;
      args.push_back(expr::Literal(Value::Int32(1)));
    }
    if (!args.empty()) {  // string_agg's separator stays as it is
      ASSIGN_OR_RETURN(args[0], expr::Case({{pred, args[0]}}, expr::Literal(Value())));
    }
  }
  if (ordered_set) args.push_back(expr::Literal(Value::Boolean(e.within_group_descending)));
  std::vector<columnar::TypePtr> types;
  for (const auto& a : args) types.push_back(a->type);
  ASSIGN_OR_RETURN(expr::AggregateBinding binding, expr::ResolveAggregate(name, types, e.distinct));
  for (size_t i = 0; i < args.size() && i < binding.arg_types.size(); ++i) {
    ASSIGN_OR_RETURN(args[i], expr::Cast(args[i], binding.arg_types[i]));
  }
  auto& aggs = ctx.agg->aggregates;
  size_t idx = aggs.size();
  for (size_t i = 0; i < aggs.size(); ++i) {
    const auto& a = aggs[i];
    if (a.binding.name != binding.name || a.binding.distinct != binding.distinct ||
        a.args.size() != args.size()) {
      continue;
    }
    bool same = true;
    for (size_t j = 0; j < args.size() && same; ++j) same = a.args[j]->Equals(*args[j]);
    if (same) {
      idx = i;
      break;
    }
  }
  std::string display = e.ToString();
  if (idx == aggs.size()) {
    aggs.push_back({binding, std::move(args), display});
  }
  const auto& call = aggs[idx];
  return expr::ColumnRef(static_cast<int>(ctx.agg->groups.size() + idx), call.binding.result_type,
                         call.display);
}

Result<expr::ExprPtr> Binder::BindFunction(const FunctionExpression& e, ExprContext& ctx) {
  std::string name = Lower(e.name);
  for (const auto& n : e.arg_names) {
    if (!n.empty()) return Status::Binder("Function " + name + " does not take named arguments");
  }
  if (e.filter && e.over) return Status::NotSupported("FILTER (WHERE ...) on a window function is not supported");
  if (e.within_group && e.over) return Status::NotSupported("WITHIN GROUP on a window function is not supported");
  if (e.within_group && !expr::IsAggregateFunction(name)) {
    return Status::Binder("WITHIN GROUP is only allowed with percentile_cont and percentile_disc, not " + name + "()");
  }
  if (e.over) return BindWindowFunction(e, ctx);
  if (e.filter && !expr::IsAggregateFunction(name)) {
    return Status::Binder("FILTER (WHERE ...) is only allowed in aggregate functions, not in " + name + "()");
  }
  if ((name == "grouping" || name == "grouping_id") && !expr::FunctionRegistry::Get().Find(name)) {
    return BindGroupingFunction(e, ctx);
  }
  if (expr::IsAggregateFunction(name)) return BindAggregate(e, ctx);
  if (expr::IsHigherOrderFunction(name)) return BindHigherOrder(e, ctx);
  if (name == "typeof") {
    if (e.args.size() != 1) return Status::Binder("typeof() takes exactly one argument");
    ASSIGN_OR_RETURN(expr::ExprPtr a, BindExpr(*e.args[0], ctx));
    return expr::Literal(Value::String(SparkTypeName(a->type)));
  }
  const bool known = IsSpecialForm(name) || expr::FunctionRegistry::Get().Find(name);
  if (!known) {
    if (TableFunctionRegistry::Get().Find(name)) {
      return Status::Binder("Table function " + name + "() can only be used in FROM");
    }
  }
  // Spark's unit-word forms: timestampadd / dateadd / date_add (HOUR, n, ts) and timestampdiff /
  // datediff / date_diff (DAY, a, b) take the unit as a bare word (a quoted unit keeps datediff's
  // boundary-counting form); dateadd(d, n) is date_add.
  const bool unit_word = e.args.size() == 3 && e.args[0]->kind == ExprKind::kColumnRef &&
                         e.args[0]->As<ColumnRefExpression>().parts.size() == 1;
  if (unit_word && (name == "timestampadd" || name == "dateadd" || name == "date_add")) name = "timestampadd";
  if (unit_word && (name == "timestampdiff" || name == "datediff" || name == "date_diff")) name = "timestampdiff";
  if (name == "dateadd" && e.args.size() == 2) name = "date_add";
  std::vector<expr::ExprPtr> args;
  for (const auto& a : e.args) {
    if (a->kind == ExprKind::kStar) return Status::Binder("* is not allowed as an argument of " + name);
    if (unit_word && args.empty() && (name == "timestampadd" || name == "timestampdiff")) {
      args.push_back(expr::Literal(Value::String(a->As<ColumnRefExpression>().parts[0])));
      continue;
    }
    ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*a, ctx));
    args.push_back(std::move(b));
  }
  if (e.distinct) return Status::Binder("DISTINCT is only allowed in aggregate functions");
  if (name == "assert_true" && args.size() == 1) {  // Spark's message names the condition
    args.push_back(expr::Literal(Value::String("'" + e.args[0]->ToString() + "' is not true!")));
  }
  auto call = expr::Call(name, std::move(args));
  if (!call.ok() && !known) {
    // Not a registry function and not a special form expr::Call knows: name the candidates.
    return Status::Binder("Function with name \"" + e.name + "\" does not exist. Candidates: " +
                          Closest(name, expr::FunctionRegistry::Get().Names(), 5));
  }
  return call;
}

Result<expr::ExprPtr> Binder::BindBinary(const BinaryExpression& e, ExprContext& ctx) {
  ASSIGN_OR_RETURN(expr::ExprPtr l, BindExpr(*e.left, ctx));
  ASSIGN_OR_RETURN(expr::ExprPtr r, BindExpr(*e.right, ctx));
  Result<expr::ExprPtr> bound = [&]() -> Result<expr::ExprPtr> {
    switch (e.op) {
      case BinaryOp::kAnd: return expr::And({l, r});
      case BinaryOp::kOr: return expr::Or({l, r});
      case BinaryOp::kDistinctFrom: return expr::IsDistinctFrom(l, r, false);
      case BinaryOp::kNotDistinctFrom: return expr::IsDistinctFrom(l, r, true);
      default: return expr::Call(BinaryOpSql(e.op), {l, r});
    }
  }();
  if (!bound.ok()) return PointAt(bound.status(), e.op_position);
  return bound;
}

Status PointAt(const Status& error, size_t position) {
  if (error.error_offset() || (error.code() != StatusCode::kBinder && error.code() != StatusCode::kCatalog)) {
    return error;
  }
  return error.WithErrorOffset(static_cast<int64_t>(position));
}

Result<expr::ExprPtr> Binder::BindExpr(const ParsedExpression& e, ExprContext& ctx) {
  auto bound = BindExprOrGroup(e, ctx);
  if (!bound.ok()) return PointAt(bound.status(), e.position);
  return bound;
}

Result<expr::ExprPtr> Binder::BindExprOrGroup(const ParsedExpression& e, ExprContext& ctx) {
  if (ctx.agg && !ctx.agg->groups.empty() && e.kind != ExprKind::kConstant &&
      e.kind != ExprKind::kSubquery && e.kind != ExprKind::kExists &&
      !(e.kind == ExprKind::kIn && e.As<InExpression>().subquery) && !ContainsAggregate(e)) {
    // A subtree equal to a GROUP BY expression refers to the aggregation's group column.
    ExprContext plain;
    plain.scope = ctx.scope;
    plain.aliases = ctx.aliases;
    plain.clause = ctx.clause;
    plain.lambdas = ctx.lambdas;
    auto bound = BindExprInner(e, plain);
    if (bound.ok()) {
      for (size_t i = 0; i < ctx.agg->groups.size(); ++i) {
        const auto& g = ctx.agg->groups[i];
        if (g->Equals(**bound)) {
          return expr::ColumnRef(static_cast<int>(i), g->type, g->ToString(), g->nullable);
        }
      }
    }
  }
  return BindExprInner(e, ctx);
}

Result<expr::ExprPtr> Binder::BindExprInner(const ParsedExpression& e, ExprContext& ctx) {
  switch (e.kind) {
    case ExprKind::kConstant: return BindConstant(e.As<ConstantExpression>());
    case ExprKind::kColumnRef: return BindColumnRef(e.As<ColumnRefExpression>(), ctx);
    case ExprKind::kStar: return Status::Binder("* is not allowed here");
    case ExprKind::kFunction: return BindFunction(e.As<FunctionExpression>(), ctx);
    case ExprKind::kCast: {
      const auto& c = e.As<CastExpression>();
      ASSIGN_OR_RETURN(expr::ExprPtr child, BindExpr(*c.child, ctx));
      ASSIGN_OR_RETURN(auto type, BindTypeName(c.type));
      return expr::Cast(child, type, c.try_cast);
    }
    case ExprKind::kUnary: {
      const auto& u = e.As<UnaryExpression>();
      ASSIGN_OR_RETURN(expr::ExprPtr child, BindExpr(*u.child, ctx));
      if (u.op == UnaryOp::kNot) return expr::Not(child);
      if (u.op == UnaryOp::kNegate) return expr::Call("negate", {child});
      if (!child->type->IsNumeric() && child->type->id() != columnar::TypeId::kNull) {
        return Status::Binder("unary + needs a number, got " + child->type->ToString());
      }
      return child;
    }
    case ExprKind::kBinary: return BindBinary(e.As<BinaryExpression>(), ctx);
    case ExprKind::kIsNull: {
      const auto& n = e.As<IsNullExpression>();
      ASSIGN_OR_RETURN(expr::ExprPtr child, BindExpr(*n.child, ctx));
      return expr::IsNull(child, n.negated);
    }
    case ExprKind::kBetween: {
      const auto& b = e.As<BetweenExpression>();
      ASSIGN_OR_RETURN(expr::ExprPtr in, BindExpr(*b.input, ctx));
      ASSIGN_OR_RETURN(expr::ExprPtr lo, BindExpr(*b.lower, ctx));
      ASSIGN_OR_RETURN(expr::ExprPtr hi, BindExpr(*b.upper, ctx));
      ASSIGN_OR_RETURN(expr::ExprPtr ge, expr::Call(">=", {in, lo}));
      ASSIGN_OR_RETURN(expr::ExprPtr le, expr::Call("<=", {in, hi}));
      ASSIGN_OR_RETURN(expr::ExprPtr both, expr::And({ge, le}));
      if (b.negated) return expr::Not(both);
      return both;
    }
    case ExprKind::kIn: {
      const auto& in = e.As<InExpression>();
      if (in.subquery) return BindSubqueryExpr(e, ctx);
      ASSIGN_OR_RETURN(expr::ExprPtr needle, BindExpr(*in.input, ctx));
      std::vector<expr::ExprPtr> list;
      for (const auto& v : in.values) {
        ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*v, ctx));
        list.push_back(std::move(b));
      }
      return expr::In(needle, std::move(list), in.negated);
    }
    case ExprKind::kLike: {
      const auto& l = e.As<LikeExpression>();
      ASSIGN_OR_RETURN(expr::ExprPtr v, BindExpr(*l.input, ctx));
      ASSIGN_OR_RETURN(expr::ExprPtr p, BindExpr(*l.pattern, ctx));
      // Spark's default escape character is the backslash: 'a\\%' matches a literal %.
      expr::ExprPtr esc = expr::Literal(Value::String("\\"));
      if (l.escape) {
        ASSIGN_OR_RETURN(esc, BindExpr(*l.escape, ctx));
      }
      return expr::Like(v, p, esc, l.case_insensitive, l.negated);
    }
    case ExprKind::kCase: {
      const auto& c = e.As<CaseExpression>();
      expr::ExprPtr operand;
      if (c.operand) {
        ASSIGN_OR_RETURN(operand, BindExpr(*c.operand, ctx));
      }
      std::vector<std::pair<expr::ExprPtr, expr::ExprPtr>> wt;
      for (const auto& w : c.whens) {
        ASSIGN_OR_RETURN(expr::ExprPtr cond, BindExpr(*w.when, ctx));
        if (operand) {
          ASSIGN_OR_RETURN(cond, expr::Call("=", {operand, cond}));
        }
        ASSIGN_OR_RETURN(expr::ExprPtr then, BindExpr(*w.then, ctx));
        wt.emplace_back(std::move(cond), std::move(then));
      }
      expr::ExprPtr else_expr;
      if (c.else_expr) {
        ASSIGN_OR_RETURN(else_expr, BindExpr(*c.else_expr, ctx));
      }
      return expr::Case(std::move(wt), else_expr);
    }
    case ExprKind::kSubquery:
    case ExprKind::kExists: return BindSubqueryExpr(e, ctx);
    case ExprKind::kList: {
      std::vector<expr::ExprPtr> elems;
      for (const auto& v : e.As<ListExpression>().elements) {
        ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*v, ctx));
        elems.push_back(std::move(b));
      }
      return expr::Call("array", std::move(elems));
    }
    case ExprKind::kStruct: {
      const auto& s = e.As<StructExpression>();
      std::vector<expr::ExprPtr> args;
      for (size_t i = 0; i < s.values.size(); ++i) {
        args.push_back(expr::Literal(Value::String(s.names[i])));
        ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*s.values[i], ctx));
        args.push_back(std::move(b));
      }
      return expr::Call("named_struct", std::move(args));
    }
    case ExprKind::kSubscript: {
      const auto& s = e.As<SubscriptExpression>();
      ASSIGN_OR_RETURN(expr::ExprPtr base, BindExpr(*s.base, ctx));
      ASSIGN_OR_RETURN(expr::ExprPtr index, BindExpr(*s.index, ctx));
      return expr::Subscript(base, index);
    }
    case ExprKind::kFieldAccess: {
      const auto& f = e.As<FieldAccessExpression>();
      ASSIGN_OR_RETURN(expr::ExprPtr base, BindExpr(*f.base, ctx));
      return expr::FieldAccess(base, f.field);
    }
    case ExprKind::kExtract: {
      const auto& x = e.As<ExtractExpression>();
      ASSIGN_OR_RETURN(expr::ExprPtr src, BindExpr(*x.source, ctx));
      std::string field = Lower(x.field);
      if (expr::FunctionRegistry::Get().Find(field)) return expr::Call(field, {src});
      return expr::Call("date_part", {expr::Literal(Value::String(field)), src});
    }
    case ExprKind::kLambda:
      return Status::Binder("lambda function " + e.ToString() +
                            " is only allowed as an argument of a higher-order function (transform, filter, "
                            "exists, forall, aggregate, reduce, zip_with, map_filter, map_zip_with, "
                            "transform_keys, transform_values)");
  }
  return Status::Internal("unknown expression kind");
}

Result<Value> Binder::BindConstantValue(const ParsedExpression& e) {
  Scope empty;
  ExprContext ctx;
  ctx.scope = &empty;
  ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(e, ctx));
  bool column = false;
  expr::Visit(*b, [&](const expr::Expr& x) { column = column || x.kind == expr::ExprKind::kColumnRef; });
  if (column) {
    return Status::NotSupported("a constant is needed here, but " + e.ToString() +
                                " refers to a column (of an outer query: a LATERAL table function's arguments "
                                "cannot; use LATERAL VIEW explode(...) to generate rows per row)");
  }
  expr::EvalContext ectx;
  return expr::EvaluateConstant(*b, ectx);
}

}  // namespace shoal::sql
