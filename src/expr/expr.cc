#include "expr/expr.h"

#include <strings.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <set>

#include "columnar/datetime.h"
#include "expr/in_list_set.h"
#include "expr/cast.h"
#include "expr/coercion.h"
#include "expr/function_registry.h"

namespace shoal::expr {

using columnar::TypeId;

namespace {

thread_local const columnar::TimeZone* binding_zone = nullptr;

std::shared_ptr<Expr> NewExpr(ExprKind kind, TypePtr type) {
  auto e = std::make_shared<Expr>();
  e->kind = kind;
  e->type = std::move(type);
  if (kind == ExprKind::kCast || kind == ExprKind::kFunction) e->zone = binding_zone;
  return e;
}

bool AnyNullable(const std::vector<ExprPtr>& args) {
  for (const auto& a : args) {
    if (a->nullable) return true;
  }
  return false;
}

std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// Casts every expression in `args` to their common type.
Status CoerceToCommon(std::vector<ExprPtr>* args, TypePtr* common) {
  TypePtr t = columnar::NullType();
  for (const auto& a : *args) {
    ASSIGN_OR_RETURN(t, CommonType(t, a->type));
  }
  for (auto& a : *args) {
    ASSIGN_OR_RETURN(a, ImplicitCast(a, t));
  }
  *common = t;
  return Status::OK();
}

Result<ExprPtr> ToBoolean(ExprPtr e, const char* what) {
  if (e->type->id() == TypeId::kBoolean) return e;
  if (e->type->id() == TypeId::kNull || e->type->id() == TypeId::kString) {
    return Cast(std::move(e), columnar::Boolean());
  }
  return Status::Binder(std::string(what) + " expects a BOOLEAN, got " + e->type->ToString() + " in " +
                        e->ToString());
}

Result<ExprPtr> Logical(ExprKind kind, std::vector<ExprPtr> args) {
  if (args.empty()) return Status::Internal("AND/OR without arguments");
  std::vector<ExprPtr> flat;
  for (auto& a : args) {
    ASSIGN_OR_RETURN(ExprPtr b, ToBoolean(a, kind == ExprKind::kAnd ? "AND" : "OR"));
    if (b->kind == kind) {
      flat.insert(flat.end(), b->args.begin(), b->args.end());
    } else {
      flat.push_back(std::move(b));
    }
  }
  if (flat.size() == 1) return flat[0];
  auto e = NewExpr(kind, columnar::Boolean());
  e->nullable = AnyNullable(flat);
  e->args = std::move(flat);
  return ExprPtr(e);
}

bool IsOperatorName(const std::string& name) {
  return !name.empty() && !std::isalpha(static_cast<unsigned char>(name[0]));
}

std::string LiteralText(const Value& v) {
  if (v.is_null()) return "NULL";
  switch (v.type()->id()) {
    case TypeId::kInt32: return std::to_string(v.GetInt());
    case TypeId::kDouble:
      if (std::isfinite(v.GetDouble())) return v.ToString();
      return v.ToSqlLiteral();
    default: return v.ToSqlLiteral();
  }
}

size_t Mix(size_t h, size_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// Builders

ExprPtr ColumnRef(int column, TypePtr type, std::string name, bool nullable) {
  auto e = NewExpr(ExprKind::kColumnRef, std::move(type));
  e->column = column;
  e->name = std::move(name);
  e->nullable = nullable;
  return e;
}

ExprPtr Literal(Value value) {
  auto e = NewExpr(ExprKind::kLiteral, value.type());
  e->nullable = value.is_null();
  e->value = std::move(value);
  return e;
}

Result<ExprPtr> Cast(ExprPtr child, TypePtr type, bool try_cast) {
  if (child->type->Equals(*type)) return child;
  if (!CanCast(child->type, type)) {
    return Status::Binder("Cannot cast " + child->type->ToString() + " to " + type->ToString() + " in " +
                          child->ToString());
  }
  if (child->IsLiteral()) {
    auto v = CastValue(child->value, type, try_cast, binding_zone);
    if (v.ok()) return Literal(std::move(v).value());
  }
  auto e = NewExpr(ExprKind::kCast, std::move(type));
  e->try_cast = try_cast;
  e->nullable = child->nullable || try_cast;
  e->args.push_back(std::move(child));
  return ExprPtr(e);
}

ScopedTimeZone::ScopedTimeZone(const columnar::TimeZone* zone) : saved_(binding_zone) { binding_zone = zone; }
ScopedTimeZone::~ScopedTimeZone() { binding_zone = saved_; }
const columnar::TimeZone* ScopedTimeZone::Current() { return binding_zone; }

Result<ExprPtr> ImplicitCast(ExprPtr child, const TypePtr& type) {
  if (child->type->Equals(*type)) return child;
  if (!CanImplicitCast(child->type, type)) {
    // Narrowing numeric casts happen for common types of mixed integer/decimal operands.
    if (!(child->type->IsNumeric() && type->IsNumeric())) {
      return Status::Binder("Cannot implicitly cast " + child->ToString() + " of type " +
                            child->type->ToString() + " to " + type->ToString());
    }
  }
  return Cast(std::move(child), type);
}

Result<ExprPtr> Call(std::string_view name, std::vector<ExprPtr> args) {
  std::string lower = LowerAscii(name);
  if (lower == "if" || lower == "iff") {
    if (args.size() != 3) return Status::Binder(lower + "() takes 3 arguments");
    std::vector<std::pair<ExprPtr, ExprPtr>> wt;
    wt.emplace_back(args[0], args[1]);
    return Case(std::move(wt), args[2]);
  }
  if (lower == "coalesce" || lower == "ifnull" || lower == "nvl") {
    if (args.empty() || (lower != "coalesce" && args.size() != 2)) {
      return Status::Binder(lower + "() takes " + (lower == "coalesce" ? "at least 1" : "2") + " arguments");
    }
    return Coalesce(std::move(args));
  }
  if (lower == "nullif") {
    if (args.size() != 2) return Status::Binder("nullif() takes 2 arguments");
    ASSIGN_OR_RETURN(ExprPtr eq, Call("=", {args[0], args[1]}));
    std::vector<std::pair<ExprPtr, ExprPtr>> wt;
    wt.emplace_back(eq, Literal(Value::Null(args[0]->type)));
    return Case(std::move(wt), args[0]);
  }
  if (lower == "named_struct") {
    if (args.empty() || args.size() % 2 != 0) return Status::Binder("named_struct() takes name, value pairs");
    std::vector<std::string> names;
    std::vector<ExprPtr> values;
    for (size_t i = 0; i < args.size(); i += 2) {
      if (!args[i]->IsLiteral() || args[i]->value.is_null() || args[i]->type->id() != TypeId::kString) {
        return Status::Binder("named_struct() field names must be string literals, got " + args[i]->ToString());
      }
      names.push_back(args[i]->value.GetString());
      values.push_back(args[i + 1]);
    }
    return StructPack(std::move(names), std::move(values));
  }
  std::vector<TypePtr> types;
  for (const auto& a : args) types.push_back(a->type);
  const ScalarFunctionDef* def = nullptr;
  ASSIGN_OR_RETURN(Overload o, FunctionRegistry::Get().Resolve(name, types, &def));
  for (size_t i = 0; i < args.size() && i < o.arg_types.size(); ++i) {
    ASSIGN_OR_RETURN(args[i], Cast(args[i], o.arg_types[i]));
  }
  if (o.check) RETURN_NOT_OK(o.check(args, def->name));
  auto e = NewExpr(ExprKind::kFunction, o.return_type);
  e->name = def->name;
  e->kernel = o.kernel;
  e->propagates_nulls = o.propagates_nulls;
  e->nullable = true;
  e->args = std::move(args);
  // round/bround(DECIMAL(p,s), d) with a constant d < s has the narrower type DECIMAL(p-s+d+1, d).
  if ((e->name == "round" || e->name == "bround") && e->args.size() == 2 && e->type->id() == TypeId::kDecimal &&
      e->args[1]->IsLiteral() && !e->args[1]->value.is_null()) {
    int64_t d = e->args[1]->value.GetInt();
    int p = e->type->precision(), s = e->type->scale();
    if (d < s) {
      int ns = static_cast<int>(std::max<int64_t>(d, 0));
      e->type = columnar::Decimal(std::min(38, std::max(1, p - s + ns + 1)), ns);
    }
  }
  return ExprPtr(e);
}

Result<ExprPtr> Case(std::vector<std::pair<ExprPtr, ExprPtr>> when_then, ExprPtr else_expr) {
  if (when_then.empty()) return Status::Binder("CASE needs at least one WHEN");
  std::vector<ExprPtr> results;
  for (auto& [w, t] : when_then) results.push_back(t);
  if (else_expr) results.push_back(else_expr);
  TypePtr type;
  RETURN_NOT_OK(CoerceToCommon(&results, &type));
  auto e = NewExpr(ExprKind::kCase, type);
  for (size_t i = 0; i < when_then.size(); ++i) {
    ASSIGN_OR_RETURN(ExprPtr cond, ToBoolean(when_then[i].first, "CASE WHEN"));
    e->args.push_back(cond);
    e->args.push_back(results[i]);
  }
  e->has_else = else_expr != nullptr;
  if (else_expr) e->args.push_back(results.back());
  e->nullable = !e->has_else || AnyNullable(results);
  return ExprPtr(e);
}

Result<ExprPtr> And(std::vector<ExprPtr> args) { return Logical(ExprKind::kAnd, std::move(args)); }
Result<ExprPtr> Or(std::vector<ExprPtr> args) { return Logical(ExprKind::kOr, std::move(args)); }

Result<ExprPtr> Not(ExprPtr arg) {
  ASSIGN_OR_RETURN(ExprPtr b, ToBoolean(std::move(arg), "NOT"));
  auto e = NewExpr(ExprKind::kNot, columnar::Boolean());
  e->nullable = b->nullable;
  e->args.push_back(std::move(b));
  return ExprPtr(e);
}

ExprPtr IsNull(ExprPtr arg, bool negated) {
  auto e = NewExpr(ExprKind::kIsNull, columnar::Boolean());
  e->nullable = false;
  e->negated = negated;
  e->args.push_back(std::move(arg));
  return e;
}

Result<ExprPtr> IsDistinctFrom(ExprPtr a, ExprPtr b, bool negated) {
  std::vector<ExprPtr> args{std::move(a), std::move(b)};
  TypePtr t;
  RETURN_NOT_OK(CoerceToCommon(&args, &t));
  auto e = NewExpr(ExprKind::kIsDistinctFrom, columnar::Boolean());
  e->nullable = false;
  e->negated = negated;
  e->args = std::move(args);
  return ExprPtr(e);
}

Result<ExprPtr> In(ExprPtr needle, std::vector<ExprPtr> list, bool negated) {
  if (list.empty()) return Status::Binder("IN list is empty");
  std::vector<ExprPtr> args;
  args.push_back(std::move(needle));
  for (auto& x : list) args.push_back(std::move(x));
  TypePtr t;
  RETURN_NOT_OK(CoerceToCommon(&args, &t));
  auto e = NewExpr(ExprKind::kIn, columnar::Boolean());
  e->nullable = AnyNullable(args);
  e->negated = negated;
  e->args = std::move(args);
  e->in_list = std::make_shared<InListCache>();
  return ExprPtr(e);
}

ExprPtr InSet(ExprPtr needle, std::shared_ptr<const InListSet> set, std::string label) {
  auto e = NewExpr(ExprKind::kInSet, columnar::Boolean());
  e->nullable = needle->nullable;
  e->args = {std::move(needle)};
  e->in_set = std::move(set);
  e->name = std::move(label);
  return ExprPtr(e);
}

Result<ExprPtr> Like(ExprPtr value, ExprPtr pattern, ExprPtr escape, bool case_insensitive, bool negated) {
  auto to_string = [](ExprPtr x) -> Result<ExprPtr> {
    if (x->type->id() == TypeId::kString) return x;
    return Cast(std::move(x), columnar::String());
  };
  auto e = NewExpr(ExprKind::kLike, columnar::Boolean());
  ASSIGN_OR_RETURN(ExprPtr v, to_string(std::move(value)));
  ASSIGN_OR_RETURN(ExprPtr p, to_string(std::move(pattern)));
  e->args = {v, p};
  if (escape) {
    ASSIGN_OR_RETURN(ExprPtr x, to_string(std::move(escape)));
    e->args.push_back(x);
  }
  e->nullable = AnyNullable(e->args);
  e->case_insensitive = case_insensitive;
  e->negated = negated;
  return ExprPtr(e);
}

Result<ExprPtr> Coalesce(std::vector<ExprPtr> args) {
  if (args.empty()) return Status::Binder("COALESCE needs at least one argument");
  TypePtr t;
  RETURN_NOT_OK(CoerceToCommon(&args, &t));
  if (args.size() == 1) return args[0];
  auto e = NewExpr(ExprKind::kCoalesce, t);
  e->nullable = true;
  for (const auto& a : args) {
    if (!a->nullable) e->nullable = false;
  }
  e->args = std::move(args);
  return ExprPtr(e);
}

Result<ExprPtr> FieldAccess(ExprPtr structure, std::string_view field) {
  if (structure->type->id() != TypeId::kStruct) {
    return Status::Binder("Cannot access field '" + std::string(field) + "' of " + structure->type->ToString() +
                          " expression " + structure->ToString());
  }
  const auto& fields = structure->type->children();
  for (size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].name.size() == field.size() &&
        strncasecmp(fields[i].name.data(), field.data(), field.size()) == 0) {
      auto e = NewExpr(ExprKind::kFieldAccess, fields[i].type);
      e->field_index = static_cast<int>(i);
      e->name = fields[i].name;
      e->nullable = true;
      e->args.push_back(std::move(structure));
      return ExprPtr(e);
    }
  }
  return Status::Binder("Struct " + structure->type->ToString() + " has no field '" + std::string(field) + "'");
}

Result<ExprPtr> StructPack(std::vector<std::string> names, std::vector<ExprPtr> values) {
  if (names.size() != values.size() || values.empty()) {
    return Status::Binder("struct_pack needs one name per value");
  }
  ASSIGN_OR_RETURN(ExprPtr s, Call("struct", std::move(values)));
  std::vector<columnar::Field> fields;
  for (size_t i = 0; i < names.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (strcasecmp(names[i].c_str(), names[j].c_str()) == 0) {
        return Status::Binder("Duplicate struct field name '" + names[i] + "'");
      }
    }
    fields.push_back({names[i], s->args[i]->type, true});
  }
  auto e = std::make_shared<Expr>(*s);
  e->type = columnar::Struct(std::move(fields));
  e->name = "struct_pack";
  return ExprPtr(e);
}

Result<ExprPtr> Subscript(ExprPtr container, ExprPtr index) {
  return Call("subscript", {std::move(container), std::move(index)});
}

TypePtr IntervalType() {
  static const TypePtr t = columnar::Struct(
      {{"months", columnar::Int32(), false}, {"days", columnar::Int32(), false}, {"micros", columnar::Int64(), false}});
  return t;
}

bool IsIntervalType(const TypePtr& type) { return type->Equals(*IntervalType()); }

Result<ExprPtr> IntervalLiteral(std::string_view text, std::string_view unit) {
  int64_t months = 0, days = 0, micros = 0;
  auto add = [&](double amount, std::string u) -> Status {
    u = LowerAscii(u);
    if (u.size() > 1 && u.back() == 's') u.pop_back();
    double whole = std::trunc(amount);
    bool integral = whole == amount;
    auto checked = [&](double v) { return std::fabs(v) < 9.2e18; };
    if (u == "year" || u == "month" || u == "week" || u == "day") {
      if (!integral) return Status::Conversion("Fractional INTERVAL " + u + " is not supported: " + std::string(text));
    }
    if (u == "year") months += static_cast<int64_t>(amount) * 12;
    else if (u == "month") months += static_cast<int64_t>(amount);
    else if (u == "week") days += static_cast<int64_t>(amount) * 7;
    else if (u == "day") days += static_cast<int64_t>(amount);
    else if (u == "hour" && checked(amount * 3.6e9)) micros += std::llround(amount * 3600.0 * 1e6);
    else if (u == "minute" && checked(amount * 6e7)) micros += std::llround(amount * 60.0 * 1e6);
    else if (u == "second" && checked(amount * 1e6)) micros += std::llround(amount * 1e6);
    else if (u == "millisecond" && checked(amount * 1e3)) micros += std::llround(amount * 1e3);
    else if (u == "microsecond" && checked(amount)) micros += std::llround(amount);
    else return Status::Conversion("Unknown INTERVAL unit '" + u + "' in '" + std::string(text) + "'");
    return Status::OK();
  };
  auto parse_num = [&](std::string_view s, double* out) {
    std::string buf(s);
    char* end = nullptr;
    *out = std::strtod(buf.c_str(), &end);
    return !buf.empty() && end == buf.c_str() + buf.size();
  };
  std::string_view t = text;
  auto next_word = [&]() {
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
    size_t n = 0;
    while (n < t.size() && !std::isspace(static_cast<unsigned char>(t[n]))) ++n;
    std::string_view w = t.substr(0, n);
    t.remove_prefix(n);
    return w;
  };
  if (!unit.empty()) {
    double amount;
    std::string_view w = next_word();
    if (!parse_num(w, &amount) || !next_word().empty()) {
      return Status::Conversion("Could not convert string '" + std::string(text) + "' to INTERVAL");
    }
    RETURN_NOT_OK(add(amount, std::string(unit)));
  } else {
    bool any = false;
    for (std::string_view w = next_word(); !w.empty(); w = next_word()) {
      double amount;
      std::string_view u = next_word();
      if (!parse_num(w, &amount) || u.empty()) {
        return Status::Conversion("Could not convert string '" + std::string(text) + "' to INTERVAL");
      }
      RETURN_NOT_OK(add(amount, std::string(u)));
      any = true;
    }
    if (!any) return Status::Conversion("Could not convert string '" + std::string(text) + "' to INTERVAL");
  }
  if (months > INT32_MAX || months < INT32_MIN || days > INT32_MAX || days < INT32_MIN) {
    return Status::OutOfRange("INTERVAL '" + std::string(text) + "' is out of range");
  }
  return Literal(Value::Nested(IntervalType(), {Value::Int32(static_cast<int32_t>(months)),
                                                Value::Int32(static_cast<int32_t>(days)), Value::Int64(micros)}));
}

// ---------------------------------------------------------------------------------------------
// Display, equality, hashing

std::string Expr::ToString() const {
  auto join = [&](size_t from, const char* sep) {
    std::string s;
    for (size_t i = from; i < args.size(); ++i) {
      if (i > from) s += sep;
      s += args[i]->ToString();
    }
    return s;
  };
  switch (kind) {
    case ExprKind::kColumnRef: return name.empty() ? "#" + std::to_string(column) : name;
    case ExprKind::kLiteral: return LiteralText(value);
    case ExprKind::kFunction:
      if (name == "negate" && args.size() == 1) return "(- " + args[0]->ToString() + ")";
      if (IsOperatorName(name) && args.size() == 2) {
        return "(" + args[0]->ToString() + " " + name + " " + args[1]->ToString() + ")";
      }
      return name + "(" + join(0, ", ") + ")";
    case ExprKind::kCast:
      return std::string(try_cast ? "TRY_CAST(" : "CAST(") + args[0]->ToString() + " AS " + type->ToString() + ")";
    case ExprKind::kCase: {
      std::string s = "CASE";
      size_t pairs = (args.size() - (has_else ? 1 : 0)) / 2;
      for (size_t i = 0; i < pairs; ++i) {
        s += " WHEN " + args[2 * i]->ToString() + " THEN " + args[2 * i + 1]->ToString();
      }
      if (has_else) s += " ELSE " + args.back()->ToString();
      return s + " END";
    }
    case ExprKind::kAnd: return "(" + join(0, " AND ") + ")";
    case ExprKind::kOr: return "(" + join(0, " OR ") + ")";
    case ExprKind::kNot: return "(NOT " + args[0]->ToString() + ")";
    case ExprKind::kIsNull: return "(" + args[0]->ToString() + (negated ? " IS NOT NULL)" : " IS NULL)");
    case ExprKind::kIsDistinctFrom:
      return "(" + args[0]->ToString() + (negated ? " IS NOT DISTINCT FROM " : " IS DISTINCT FROM ") +
             args[1]->ToString() + ")";
    case ExprKind::kIn:
      return "(" + args[0]->ToString() + (negated ? " NOT IN (" : " IN (") + join(1, ", ") + "))";
    case ExprKind::kLike: {
      std::string op = std::string(negated ? " NOT" : "") + (case_insensitive ? " ILIKE " : " LIKE ");
      std::string s = "(" + args[0]->ToString() + op + args[1]->ToString();
      if (args.size() > 2) s += " ESCAPE " + args[2]->ToString();
      return s + ")";
    }
    case ExprKind::kCoalesce: return "COALESCE(" + join(0, ", ") + ")";
    case ExprKind::kFieldAccess: return args[0]->ToString() + "." + name;
    case ExprKind::kInSet: return "(" + args[0]->ToString() + " IN " + name + ")";
    case ExprKind::kHigherOrder: return name + "(" + join(0, ", ") + ")";
    case ExprKind::kLambda: return "(" + name + ") -> " + args[0]->ToString();
    case ExprKind::kLambdaVariable: return name;
  }
  return "?";
}

bool Expr::Equals(const Expr& o) const {
  if (this == &o) return true;
  if (kind != o.kind || !type->Equals(*o.type) || args.size() != o.args.size()) return false;
  if (column != o.column || (kind != ExprKind::kColumnRef && name != o.name) || kernel != o.kernel || try_cast != o.try_cast ||
      has_else != o.has_else || negated != o.negated || case_insensitive != o.case_insensitive ||
      field_index != o.field_index || zone != o.zone) {
    return false;
  }
  if (kind == ExprKind::kInSet && in_set != o.in_set) return false;
  if (kind == ExprKind::kLiteral) {
    if (value.is_null() != o.value.is_null()) return false;
    if (!value.is_null() && !(value == o.value)) return false;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i]->Equals(*o.args[i])) return false;
  }
  return true;
}

size_t Expr::Hash() const {
  size_t h = static_cast<size_t>(kind);
  h = Mix(h, std::hash<std::string>()(type->ToString()));
  h = Mix(h, static_cast<size_t>(column + 1));
  if (kind != ExprKind::kColumnRef) h = Mix(h, std::hash<std::string>()(name));
  h = Mix(h, (try_cast ? 1 : 0) | (has_else ? 2 : 0) | (negated ? 4 : 0) | (case_insensitive ? 8 : 0));
  if (kind == ExprKind::kLiteral) h = Mix(h, std::hash<std::string>()(value.ToString()));
  for (const auto& a : args) h = Mix(h, a->Hash());
  return h;
}

// ---------------------------------------------------------------------------------------------
// Tree utilities

void Visit(const Expr& expr, const std::function<void(const Expr&)>& fn) {
  for (const auto& a : expr.args) Visit(*a, fn);
  fn(expr);
}

std::vector<int> CollectColumns(const Expr& expr) {
  std::set<int> cols;
  Visit(expr, [&](const Expr& e) {
    if (e.kind == ExprKind::kColumnRef) cols.insert(e.column);
  });
  return {cols.begin(), cols.end()};
}

Result<ExprPtr> RemapColumns(const ExprPtr& expr, const std::vector<int>& mapping) {
  if (expr->kind == ExprKind::kColumnRef) {
    if (expr->column < 0 || expr->column >= static_cast<int>(mapping.size()) || mapping[expr->column] < 0) {
      return Status::Internal("column #" + std::to_string(expr->column) + " (" + expr->name +
                              ") is not in the column mapping");
    }
    auto e = std::make_shared<Expr>(*expr);
    e->column = mapping[expr->column];
    return ExprPtr(e);
  }
  if (expr->args.empty()) return expr;
  std::vector<ExprPtr> args;
  bool changed = false;
  for (const auto& a : expr->args) {
    ASSIGN_OR_RETURN(ExprPtr b, RemapColumns(a, mapping));
    changed |= b != a;
    args.push_back(std::move(b));
  }
  if (!changed) return expr;
  auto e = std::make_shared<Expr>(*expr);
  e->args = std::move(args);
  return ExprPtr(e);
}

}  // namespace shoal::expr
