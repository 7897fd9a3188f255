// Bound expressions: typed, resolved trees the binder builds from the parsed AST and the
// executor evaluates on record batches (evaluate.h).
//
// Contract for the binder:
// - Build nodes only with the builders below; they resolve functions by name and argument
//   types (function_registry.h), insert implicit casts (coercion.h) and type the result.
// - Comparison and arithmetic are function calls named by their SQL operator
//   ("=", "<>", "<", "<=", ">", ">=", "+", "-", "*", "/", "//", "%", "||", unary "negate");
//   `Call` also turns the special forms if/iff, coalesce/ifnull/nvl, and nullif into CASE and
//   COALESCE nodes, so short-circuit evaluation applies to them.
// - BETWEEN is `a >= lo AND a <= hi` (the binder desugars it); NOT BETWEEN is its NOT.
//   CASE x WHEN v THEN ... is a searched CASE on `x = v`. EXTRACT(f FROM x) is
//   Call("date_part", {'f', x}); [a, b] is Call("array"); {'k': v} is StructPack; a[i] is
//   Subscript; -x is Call("negate"). Literal text is typed by coercion.h (IntegerLiteral, ...);
//   DATE '...' / TIMESTAMP '...' are Cast(string literal), which folds to a typed literal.
// - Aggregates are not expressions here: see aggregate_functions.h.
// - INTERVAL literals: `IntervalLiteral` builds a STRUCT<months: INT, days: INT, micros: BIGINT>
//   value (the INTERVAL type of this engine); `+`/`-` accept DATE/TIMESTAMP with it.
// - Column references index into the evaluated RecordBatch's columns.
//
// Trees are immutable and shared (ExprPtr is shared_ptr<const Expr>): rewriting builds new
// nodes and shares unchanged subtrees.
//
// Thread-safety: an Expr is immutable after construction; a tree may be evaluated by many
// threads at once (each with its own EvalContext).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "columnar/type.h"
#include "columnar/value.h"
#include "shoal/status.h"

namespace shoal::columnar {
class TimeZone;
}

namespace shoal::expr {

using columnar::TypePtr;
using columnar::Value;

struct Expr;
class InListCache;
struct InListSet;
using ExprPtr = std::shared_ptr<const Expr>;
struct KernelCall;
struct EvalContext;
// A vectorized scalar kernel (function_registry.h documents the calling convention).
using ScalarKernel = Status (*)(const KernelCall& call, columnar::VectorPtr* out);

enum class ExprKind : uint8_t {
  kColumnRef,       // column: index into the batch; name: for display
  kLiteral,         // value
  kFunction,        // name, kernel, args
  kCast,            // args[0] cast to type; try_cast
  kCase,            // args: when0, then0, when1, then1, ..., [else] (has_else)
  kAnd,             // args (n-ary, >= 2), three-valued
  kOr,              // args (n-ary, >= 2), three-valued
  kNot,             // args[0]
  kIsNull,          // args[0]; negated: IS NOT NULL
  kIsDistinctFrom,  // args[0], args[1]; negated: IS NOT DISTINCT FROM
  kIn,              // args[0] IN (args[1..]); negated: NOT IN
  kLike,            // args[0] LIKE args[1] [ESCAPE args[2]]; negated, case_insensitive (ILIKE)
  kCoalesce,        // args (first non-NULL, later args evaluated only where needed)
  kFieldAccess,     // args[0] is a STRUCT; field_index, name: the field
  kInSet,           // args[0] is in `in_set` (a runtime join filter's keys; no list); name: label
  // Lambdas (higher_order.h): a higher-order function call, its lambdas, their parameters.
  kHigherOrder,     // name: transform, filter, ...; args: the value inputs, then kLambda nodes
  kLambda,          // args[0]: body; column: slot of the first parameter; field_index: parameter
                    // count; name: the parameter names (display). Only as a kHigherOrder arg.
  kLambdaVariable,  // a lambda parameter: column: its slot (enclosing lambdas' slots come first)
};

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  TypePtr type;           // result type
  bool nullable = true;   // false only when the result can never be NULL
  std::vector<ExprPtr> args;

  int column = -1;        // kColumnRef
  std::string name;       // kColumnRef: display name; kFunction: canonical name; kFieldAccess: field
  Value value;            // kLiteral
  ScalarKernel kernel = nullptr;   // kFunction
  bool propagates_nulls = true;    // kFunction: any NULL argument gives NULL
  bool try_cast = false;  // kCast
  bool has_else = false;  // kCase
  bool negated = false;   // kIsNull, kIsDistinctFrom, kIn, kLike
  bool case_insensitive = false;  // kLike (ILIKE)
  int field_index = -1;   // kFieldAccess
  // kIn built by In(): its literal list hashed on first evaluation (copies share it; it is
  // rebuilt when the list's nodes change).
  std::shared_ptr<InListCache> in_list;
  std::shared_ptr<const InListSet> in_set;  // kInSet
  // kCast, kFunction: the session time zone when the node was built (ScopedTimeZone), which
  // TIMESTAMP casts and datetime functions read; null means UTC.
  const columnar::TimeZone* zone = nullptr;

  bool IsLiteral() const { return kind == ExprKind::kLiteral; }
  bool IsNullLiteral() const { return kind == ExprKind::kLiteral && value.is_null(); }

  // SQL-like text for EXPLAIN: `(a + 1)`, `CAST(x AS BIGINT)`, `lower(s)`, `col#2` is shown as
  // its name.
  std::string ToString() const;
  // Structural equality (types, values, kernels, children; column refs by index, not display
  // name) and a matching hash, so the planner can dedupe GROUP BY and projection expressions.
  bool Equals(const Expr& other) const;
  size_t Hash() const;
};

// Sets the session time zone that kCast and kFunction nodes built on this thread take while it
// lives (Spark resolves its time-zone-aware expressions when it binds them, so a statement's
// expressions see one zone wherever they are evaluated: folding, scans, operators). Nests.
class ScopedTimeZone {
 public:
  explicit ScopedTimeZone(const columnar::TimeZone* zone);
  ~ScopedTimeZone();
  ScopedTimeZone(const ScopedTimeZone&) = delete;
  ScopedTimeZone& operator=(const ScopedTimeZone&) = delete;
  // The zone in effect on this thread; null means UTC.
  static const columnar::TimeZone* Current();

 private:
  const columnar::TimeZone* saved_;
};

// ---- builders (all coercion happens here, so evaluation never sees mismatched types)

ExprPtr ColumnRef(int column, TypePtr type, std::string name, bool nullable = true);
ExprPtr Literal(Value value);
// Resolves `name` (case-insensitive) against the registry for the argument types, wrapping
// arguments in implicit casts. Errors: Binder "No function matches 'f(INT, STRING)'. ...".
Result<ExprPtr> Call(std::string_view name, std::vector<ExprPtr> args);
// CAST(child AS type) / TRY_CAST. Errors when the cast is never valid (e.g. DATE -> BOOLEAN).
// A cast to the child's own type returns the child.
Result<ExprPtr> Cast(ExprPtr child, TypePtr type, bool try_cast = false);
// Casts to `type` when the implicit rules allow it (coercion.h), else a Binder error.
Result<ExprPtr> ImplicitCast(ExprPtr child, const TypePtr& type);
// Searched CASE; branch results are coerced to their common type, conditions to BOOLEAN.
Result<ExprPtr> Case(std::vector<std::pair<ExprPtr, ExprPtr>> when_then, ExprPtr else_expr);
// AND / OR of >= 1 BOOLEAN args (one arg returns it); nested ANDs/ORs are flattened.
Result<ExprPtr> And(std::vector<ExprPtr> args);
Result<ExprPtr> Or(std::vector<ExprPtr> args);
Result<ExprPtr> Not(ExprPtr arg);
ExprPtr IsNull(ExprPtr arg, bool negated = false);
Result<ExprPtr> IsDistinctFrom(ExprPtr a, ExprPtr b, bool negated = false);
Result<ExprPtr> In(ExprPtr needle, std::vector<ExprPtr> list, bool negated = false);
// `needle` is in `set` (keys of the needle's type, e.g. a hash join's build keys); `label`
// describes the set for EXPLAIN. Statistics-based pruning treats it as unknown.
ExprPtr InSet(ExprPtr needle, std::shared_ptr<const InListSet> set, std::string label);
// `escape` may be null (no escape character); LIKE on a non-string casts it to STRING.
Result<ExprPtr> Like(ExprPtr value, ExprPtr pattern, ExprPtr escape, bool case_insensitive = false,
                     bool negated = false);
Result<ExprPtr> Coalesce(std::vector<ExprPtr> args);
// Field by name (case-insensitive) of a STRUCT expression.
Result<ExprPtr> FieldAccess(ExprPtr structure, std::string_view field);
// STRUCT with the given field names (struct_pack(a := x), named_struct('a', x)).
Result<ExprPtr> StructPack(std::vector<std::string> names, std::vector<ExprPtr> values);
// list[i] (0-based, [INVALID_ARRAY_INDEX] out of range, Spark) or map[key] (NULL when missing).
Result<ExprPtr> Subscript(ExprPtr container, ExprPtr index);
// INTERVAL 'text' UNIT as a literal: UNIT is YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND,
// MILLISECOND, MICROSECOND (plural accepted); empty unit means `text` holds "n unit [n unit...]".
Result<ExprPtr> IntervalLiteral(std::string_view text, std::string_view unit);
// The INTERVAL type: STRUCT<months: INT, days: INT, micros: BIGINT>.
TypePtr IntervalType();
bool IsIntervalType(const TypePtr& type);

// ---- tree utilities

// Calls `fn` on every node, children before parents.
void Visit(const Expr& expr, const std::function<void(const Expr&)>& fn);
// Sorted distinct column indices referenced by `expr`.
std::vector<int> CollectColumns(const Expr& expr);
// A copy whose column indices are mapped through `mapping` (new = mapping[old]); errors when
// an index is outside mapping or maps to -1 (projection pushdown).
Result<ExprPtr> RemapColumns(const ExprPtr& expr, const std::vector<int>& mapping);
// Evaluates constant subtrees once (defined in fold.cc). Subtrees whose evaluation fails
// (e.g. CAST('x' AS INT)) are kept so the error happens only if rows reach them.
// Also simplifies AND/OR with constant TRUE/FALSE operands. Argument-less functions
// (current_date, now) are folded only when `ctx` (the statement's context) is given.
ExprPtr Fold(const ExprPtr& expr, EvalContext* ctx = nullptr);

struct ExprPtrHash {
  size_t operator()(const ExprPtr& e) const { return e->Hash(); }
};
struct ExprPtrEqual {
  bool operator()(const ExprPtr& a, const ExprPtr& b) const { return a->Equals(*b); }
};

}  // namespace shoal::expr
