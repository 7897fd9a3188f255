// Generators: LATERAL VIEW [OUTER] explode / posexplode / inline (...) and the same calls in a
// select list (Spark), bound to a kGenerate operator (logical_plan.h).
#include "sql/binder/binder.h"
#include "sql/parser/token.h"

namespace shoal::sql {

namespace {

// The generator a (lower-case) function name calls, and whether it is an _outer form.
bool GeneratorOf(std::string name, GenerateKind* kind, bool* outer) {
  const std::string suffix = "_outer";
  *outer = name.size() > suffix.size() && name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0;
  if (*outer) name.resize(name.size() - suffix.size());
  if (name == "explode") *kind = GenerateKind::kExplode;
  else if (name == "posexplode") *kind = GenerateKind::kPosExplode;
  else if (name == "inline") *kind = GenerateKind::kInline;
  else return false;
  return true;
}

}  // namespace

bool IsGeneratorCall(const ParsedExpression& e) {
  if (e.kind != ExprKind::kFunction) return false;
  const auto& f = e.As<FunctionExpression>();
  GenerateKind kind;
  bool outer = false;
  return !f.over && GeneratorOf(Lower(f.name), &kind, &outer);
}

Result<LogicalPtr> Binder::BindGenerate(LogicalPtr plan, const FunctionExpression& call, bool outer,
                                        const std::string& table, const std::vector<std::string>& names,
                                        Scope* scope, std::vector<size_t>* generated) {
  const std::string name = Lower(call.name);
  GenerateKind kind;
  bool outer_form = false;
  if (!GeneratorOf(name, &kind, &outer_form)) {
    return Status::Binder("LATERAL VIEW needs a generator function (explode, posexplode, inline or their _outer "
                          "forms), not " + name + "()");
  }
  if (call.args.size() != 1 || call.distinct || call.filter || call.over) {
    return Status::Binder(name + "() takes exactly one argument");
  }
  ExprContext ctx;
  ctx.scope = scope;
  ctx.clause = "a generator's argument";
  ASSIGN_OR_RETURN(expr::ExprPtr g, BindExpr(*call.args[0], ctx));
  bool correlated = false;
  expr::Visit(*g, [&](const expr::Expr& e) { correlated = correlated || IsOuterRef(e); });
  if (correlated) {
    return Status::NotSupported(name + "() of a column of an outer query is not supported");
  }
  // The generated columns.
  std::vector<columnar::Field> fields;
  const columnar::TypeId id = g->type->id();
  if (id == columnar::TypeId::kNull) {
    ASSIGN_OR_RETURN(g, expr::Cast(g, columnar::List(columnar::Int32())));
  }
  if (kind == GenerateKind::kInline) {
    if (g->type->id() != columnar::TypeId::kList || g->type->element()->id() != columnar::TypeId::kStruct) {
      return Status::Binder("inline() needs an ARRAY of STRUCTs, got " + g->type->ToString());
    }
    for (const auto& f : g->type->element()->children()) fields.push_back({f.name, f.type, true});
  } else {
    if (kind == GenerateKind::kPosExplode) fields.push_back({"pos", columnar::Int32(), true});
    if (g->type->id() == columnar::TypeId::kList) {
      fields.push_back({"col", g->type->element(), true});
    } else if (g->type->id() == columnar::TypeId::kMap) {
      fields.push_back({"key", g->type->key(), true});
      fields.push_back({"value", g->type->value(), true});
    } else {
      return Status::Binder(name + "() needs an ARRAY or a MAP, got " + g->type->ToString());
    }
  }
  if (!names.empty()) {
    if (names.size() != fields.size()) {
      return Status::Binder(name + "() makes " + std::to_string(fields.size()) + " columns, but " +
                            std::to_string(names.size()) + " names are given");
    }
    for (size_t i = 0; i < names.size(); ++i) fields[i].name = names[i];
  }
  auto op = std::make_unique<LogicalOperator>(LogicalKind::kGenerate);
  const int width = static_cast<int>(plan->columns.size());
  op->columns = plan->columns;
  for (const auto& f : fields) op->columns.push_back(f);
  op->generator = g;
  op->generate_kind = kind;
  op->generate_outer = outer || outer_form;
  op->children.push_back(std::move(plan));
  for (size_t i = 0; i < fields.size(); ++i) {
    generated->push_back(scope->columns.size());
    scope->columns.push_back({table, fields[i].name, width + static_cast<int>(i), fields[i].type, true, false});
  }
  return LogicalPtr(std::move(op));
}

}  // namespace shoal::sql
