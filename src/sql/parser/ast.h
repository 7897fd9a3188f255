// Abstract syntax tree of shoal's SQL dialect (Spark SQL tables/DML, DuckDB-style table
// functions), produced by the parser and consumed by the binder.
//
// Conventions, shared by every node:
// - Nodes are plain structs owning their children through std::unique_ptr; a base struct
//   carries a `kind` to switch on, then `As<T>()` casts to the concrete struct.
// - `position` is the byte offset of the node's first token in the source text
//   (LocateOffset() in lexer.h turns it into line/column).
// - Identifiers keep the case they were written in (quotes removed); the binder matches names
//   case-insensitively. Keywords stored as strings (type names, EXTRACT fields, interval units)
//   are canonical upper case.
// - Numbers stay text so the binder picks the type (INT/BIGINT/DECIMAL/DOUBLE).
// - `height` is the subtree height (a leaf is 1); the parser rejects trees higher than
//   kMaxNestingDepth, so recursive walkers may recurse without overflowing the stack.
// - ToString() prints a node back as SQL that parses to an equal tree (keywords upper case,
//   every operator parenthesized, identifiers back-quoted when needed).
//
// Thread-safety: AST nodes are plain data; distinct trees may be used from distinct threads,
// one tree is not synchronized.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace shoal::columnar {
class Value;  // columnar/value.h
}  // namespace shoal::columnar

namespace shoal::sql {

// The deepest tree (and parenthesis/operator nesting) the parser accepts.
inline constexpr int kMaxNestingDepth = 1000;

struct TypeName;
struct ParsedExpression;
struct QueryNode;
struct TableRef;
struct Statement;
struct FunctionExpression;
struct WindowSpec;
using ExprPtr = std::unique_ptr<ParsedExpression>;
using QueryPtr = std::unique_ptr<QueryNode>;
using TableRefPtr = std::unique_ptr<TableRef>;
using StatementPtr = std::unique_ptr<Statement>;

// Recompute `height` of a node from its direct children's heights (the parser calls these
// as it builds; code that builds or rewrites trees should too).
void UpdateHeight(TypeName& type);
void UpdateHeight(ParsedExpression& expr);
void UpdateHeight(QueryNode& query);
void UpdateHeight(TableRef& ref);
void UpdateHeight(WindowSpec& spec);

// Prints an identifier, back-quoting it unless it is a plain non-reserved word.
std::string QuoteIdentifier(const std::string& name);
// Prints a string literal with '' escaping.
std::string QuoteString(const std::string& value);
// Prints dotted name parts, each quoted as needed.
std::string JoinNameParts(const std::vector<std::string>& parts);

// ---------------------------------------------------------------------------------------------
// Types

// Names a SQL type as written, canonicalized: `name` is one of BOOLEAN, TINYINT, SMALLINT,
// INT, BIGINT, FLOAT, DOUBLE, DECIMAL, STRING, BINARY, DATE, TIMESTAMP, TIMESTAMP_NTZ, ARRAY,
// STRUCT, MAP (aliases BYTE, SHORT, INTEGER, LONG, REAL, NUMERIC, DEC, VARCHAR, CHAR,
// CHARACTER [VARYING], TEXT, BLOB map onto these). The binder maps it to a columnar type.
struct TypeName {
  std::string name;
  // DECIMAL: {precision, scale}, always both (default {10, 0}; 1 <= p <= 38, 0 <= s <= p).
  // STRING: {max_length} when written VARCHAR(n)/CHAR(n)/STRING(n), else empty (not enforced).
  std::vector<int64_t> params;
  // ARRAY: {element}; MAP: {key, value}; STRUCT: the field types, named by field_names.
  std::vector<TypeName> children;
  std::vector<std::string> field_names;  // STRUCT only, parallel to children
  size_t position = 0;
  int height = 1;

  std::string ToString() const;
};

// ---------------------------------------------------------------------------------------------
// Expressions

enum class ExprKind : uint8_t {
  kConstant,     // ConstantExpression
  kColumnRef,    // ColumnRefExpression
  kStar,         // StarExpression
  kFunction,     // FunctionExpression
  kCast,         // CastExpression
  kUnary,        // UnaryExpression
  kBinary,       // BinaryExpression
  kIsNull,       // IsNullExpression
  kBetween,      // BetweenExpression
  kIn,           // InExpression
  kLike,         // LikeExpression
  kCase,         // CaseExpression
  kSubquery,     // SubqueryExpression (scalar)
  kExists,       // ExistsExpression
  kList,         // ListExpression  [a, b]
  kStruct,       // StructExpression {'a': x}
  kSubscript,    // SubscriptExpression a[i]
  kFieldAccess,  // FieldAccessExpression (expr).field
  kExtract,      // ExtractExpression EXTRACT(field FROM x)
  kLambda,       // LambdaExpression x -> body (only as a function argument)
};

struct ParsedExpression {
  ParsedExpression(ExprKind k, size_t pos) : kind(k), position(pos) {}
  virtual ~ParsedExpression() = default;
  ParsedExpression(const ParsedExpression&) = delete;
  ParsedExpression& operator=(const ParsedExpression&) = delete;

  const ExprKind kind;
  size_t position;
  int height = 1;

  std::string ToString() const;
  template <typename T>
  T& As() { return static_cast<T&>(*this); }
  template <typename T>
  const T& As() const { return static_cast<const T&>(*this); }
};

enum class LiteralKind : uint8_t {
  kNull,
  kBoolean,       // text "true" or "false"
  kInteger,       // text: [-]digits, any length
  kDecimal,       // text: [-]digits.digits as written (1.5, .5, 1.)
  kFloat,         // text: number with exponent as written (1e3, -2.5E-1)
  kString,        // text: the unescaped contents
  kBinary,        // X'4142': text is the hex digits as written (even count, validated)
  kDate,          // DATE '...': text is the string contents, unvalidated
  kTimestamp,     // TIMESTAMP '...'
  kTimestampNtz,  // TIMESTAMP_NTZ '...'
  kInterval,      // INTERVAL '1' DAY / INTERVAL 3 DAYS: text is the value, interval_unit the unit
  kDefault,       // DEFAULT: the column's default, only in INSERT VALUES and UPDATE/MERGE SET
  kParameter,     // ? or $N of a prepared statement: text is N (1-based); `parameters` holds values
  kValue,         // only as a bound parameter: a typed value (ParameterValues::Bound::value)
};

// The values bound to a statement's parameters, shared by the statement and its parameter
// literals: a bound parameter is bound (and printed) as the literal `kind` / `text`. A value no
// literal spells (a nested value, a NaN or infinite double) is kind kValue: bound as `value`,
// printed as `text`, its SQL literal.
struct ParameterValues {
  struct Bound {
    LiteralKind kind = LiteralKind::kNull;  // never kParameter, kDefault or kInterval
    std::string text;
    std::shared_ptr<const columnar::Value> value;  // kValue only
  };
  std::vector<std::optional<Bound>> values;  // [N - 1] for $N
};

struct ConstantExpression : ParsedExpression {
  explicit ConstantExpression(size_t pos) : ParsedExpression(ExprKind::kConstant, pos) {}
  LiteralKind literal_kind = LiteralKind::kNull;
  std::string text;
  // kInteger / kDecimal / kFloat: the type suffix as written in upper case (10L, 1.5D, 2BD; the
  // lexer's Token::suffix), or empty.
  std::string number_suffix;
  // kInterval: singular upper case YEAR, MONTH, WEEK, DAY, HOUR, MINUTE, SECOND, MILLISECOND,
  // MICROSECOND; empty when the unit is inside the string (INTERVAL '1 day').
  std::string interval_unit;
  std::shared_ptr<ParameterValues> parameters;  // kParameter only
};

// A possibly qualified column: c, t.c, s.t.c, or t.c.field (the binder decides which parts
// name the table and which name struct fields).
struct ColumnRefExpression : ParsedExpression {
  explicit ColumnRefExpression(size_t pos) : ParsedExpression(ExprKind::kColumnRef, pos) {}
  std::vector<std::string> parts;
};

// `*` or `t.*` in a select list, or the `*` of count(*).
struct StarExpression : ParsedExpression {
  explicit StarExpression(size_t pos) : ParsedExpression(ExprKind::kStar, pos) {}
  std::vector<std::string> qualifier;  // empty for a bare *
  std::vector<std::string> except;     // * EXCEPT (a, b): the columns left out
};

// f(args), f(DISTINCT args), also array(...), struct(...), named_struct(...), map(...),
// position(a IN b) (as position(a, b)), and
// table functions (read_parquet('x', union_by_name => true)).
struct FunctionExpression : ParsedExpression {
  explicit FunctionExpression(size_t pos) : ParsedExpression(ExprKind::kFunction, pos) {}
  std::string name;  // as written
  std::vector<ExprPtr> args;
  // Parallel to args: "" for a positional argument, else the name of a `name => v` or
  // `name = v` argument (the latter only in table function calls).
  std::vector<std::string> arg_names;
  bool distinct = false;
  ExprPtr filter;                    // agg(...) FILTER (WHERE filter); else null
  // percentile_cont(p) WITHIN GROUP (ORDER BY within_group [DESC]); else null.
  ExprPtr within_group;
  bool within_group_descending = false;
  std::unique_ptr<WindowSpec> over;  // f(...) OVER (...): a window function; else null
};

// CAST(x AS t), TRY_CAST(x AS t), x::t.
struct CastExpression : ParsedExpression {
  explicit CastExpression(size_t pos) : ParsedExpression(ExprKind::kCast, pos) {}
  ExprPtr child;
  TypeName type;
  bool try_cast = false;
};

enum class UnaryOp : uint8_t { kNot, kNegate, kPlus };

// NOT x, -x, +x. A minus directly before a number literal is folded into the literal's text.
struct UnaryExpression : ParsedExpression {
  explicit UnaryExpression(size_t pos) : ParsedExpression(ExprKind::kUnary, pos) {}
  UnaryOp op = UnaryOp::kNot;
  ExprPtr child;
};

enum class BinaryOp : uint8_t {
  kOr, kAnd,
  kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual,
  kDistinctFrom,     // IS DISTINCT FROM (also x IS NOT TRUE/FALSE, with TRUE/FALSE on the right)
  kNotDistinctFrom,  // IS NOT DISTINCT FROM (also x IS TRUE/FALSE)
  kConcat,           // ||
  kAdd, kSubtract, kMultiply, kDivide, kModulo,
  kIntegerDivide,  // //
};
const char* BinaryOpSql(BinaryOp op);

struct BinaryExpression : ParsedExpression {
  explicit BinaryExpression(size_t pos) : ParsedExpression(ExprKind::kBinary, pos), op_position(pos) {}
  BinaryOp op = BinaryOp::kAnd;
  size_t op_position;  // byte offset of the operator's first token (where type errors point)
  ExprPtr left;
  ExprPtr right;
};

// x IS [NOT] NULL.
struct IsNullExpression : ParsedExpression {
  explicit IsNullExpression(size_t pos) : ParsedExpression(ExprKind::kIsNull, pos) {}
  ExprPtr child;
  bool negated = false;
};

// x [NOT] BETWEEN lower AND upper.
struct BetweenExpression : ParsedExpression {
  explicit BetweenExpression(size_t pos) : ParsedExpression(ExprKind::kBetween, pos) {}
  ExprPtr input;
  ExprPtr lower;
  ExprPtr upper;
  bool negated = false;
};

// x [NOT] IN (v, ...) or x [NOT] IN (query): exactly one of values / subquery is set.
// x [NOT] IN (list | subquery); also `x op ANY|SOME|ALL (subquery)` (quantifier set).
struct InExpression : ParsedExpression {
  explicit InExpression(size_t pos) : ParsedExpression(ExprKind::kIn, pos) {}
  ExprPtr input;
  std::vector<ExprPtr> values;
  QueryPtr subquery;
  bool negated = false;
  std::string quantifier;    // "" (IN), "ANY" or "ALL"
  std::string compare = "=";  // with a quantifier: the comparison operator
};

// x [NOT] LIKE|ILIKE pattern [ESCAPE e].
struct LikeExpression : ParsedExpression {
  explicit LikeExpression(size_t pos) : ParsedExpression(ExprKind::kLike, pos) {}
  ExprPtr input;
  ExprPtr pattern;
  ExprPtr escape;  // null when absent
  bool negated = false;
  bool case_insensitive = false;  // ILIKE
};

// CASE [operand] WHEN w THEN t ... [ELSE e] END.
struct CaseExpression : ParsedExpression {
  explicit CaseExpression(size_t pos) : ParsedExpression(ExprKind::kCase, pos) {}
  struct When {
    ExprPtr when;
    ExprPtr then;
  };
  ExprPtr operand;  // null for a searched CASE
  std::vector<When> whens;
  ExprPtr else_expr;  // null when absent
};

// (SELECT ...) used as a value.
struct SubqueryExpression : ParsedExpression {
  explicit SubqueryExpression(size_t pos) : ParsedExpression(ExprKind::kSubquery, pos) {}
  QueryPtr query;
};

// EXISTS (SELECT ...); NOT EXISTS is a UnaryExpression kNot around it.
struct ExistsExpression : ParsedExpression {
  explicit ExistsExpression(size_t pos) : ParsedExpression(ExprKind::kExists, pos) {}
  QueryPtr query;
};

// [a, b, ...].
struct ListExpression : ParsedExpression {
  explicit ListExpression(size_t pos) : ParsedExpression(ExprKind::kList, pos) {}
  std::vector<ExprPtr> elements;
};

// {'a': x, 'b': y}.
struct StructExpression : ParsedExpression {
  explicit StructExpression(size_t pos) : ParsedExpression(ExprKind::kStruct, pos) {}
  std::vector<std::string> names;
  std::vector<ExprPtr> values;  // parallel to names
};

// base[index].
struct SubscriptExpression : ParsedExpression {
  explicit SubscriptExpression(size_t pos) : ParsedExpression(ExprKind::kSubscript, pos) {}
  ExprPtr base;
  ExprPtr index;
};

// base.field where base is not a plain column reference (a[1].f, (x).f, f(x).g).
struct FieldAccessExpression : ParsedExpression {
  explicit FieldAccessExpression(size_t pos) : ParsedExpression(ExprKind::kFieldAccess, pos) {}
  ExprPtr base;
  std::string field;
};

// EXTRACT(field FROM source); field is upper case as written (YEAR, MONTH, DAY, ...).
struct ExtractExpression : ParsedExpression {
  explicit ExtractExpression(size_t pos) : ParsedExpression(ExprKind::kExtract, pos) {}
  std::string field;
  ExprPtr source;
};

// x -> body, (x, i) -> body: an argument of a higher-order function (transform, filter, ...).
struct LambdaExpression : ParsedExpression {
  explicit LambdaExpression(size_t pos) : ParsedExpression(ExprKind::kLambda, pos) {}
  std::vector<std::string> params;  // as written, >= 1
  ExprPtr body;
};

// ---------------------------------------------------------------------------------------------
// Queries

enum class QueryKind : uint8_t { kSelect, kSetOperation, kValues };
enum class NullsOrder : uint8_t { kDefault, kFirst, kLast };

struct OrderByItem {
  ExprPtr expr;
  bool descending = false;
  NullsOrder nulls = NullsOrder::kDefault;
  // ORDER BY ALL (the only item; `expr` is then the column reference `all`, which it means
  // when the select list has a column of that name): every select column, left to right.
  bool all = false;
};

// ---------------------------------------------------------------------------------------------
// Windows (OVER clauses, WINDOW definitions)

enum class FrameUnit : uint8_t { kRows, kRange };
enum class FrameBoundKind : uint8_t {
  kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing,
};

// One end of a frame; `offset` is set for kPreceding / kFollowing only.
struct FrameBound {
  FrameBoundKind kind = FrameBoundKind::kCurrentRow;
  ExprPtr offset;
};

// ROWS|RANGE BETWEEN start AND end (a single bound `ROWS start` has end CURRENT ROW).
struct WindowFrame {
  FrameUnit unit = FrameUnit::kRange;
  FrameBound start;
  FrameBound end;
};

// OVER (...) or the body of WINDOW name AS (...). `base` names a WINDOW definition this one
// extends (OVER w, OVER (w ORDER BY x)); empty when none.
struct WindowSpec {
  std::string base;
  std::vector<ExprPtr> partition_by;
  std::vector<OrderByItem> order_by;
  std::optional<WindowFrame> frame;
  int height = 1;

  std::string ToString() const;  // "(...)", or the bare name for OVER w
};

// A GROUP BY element that expands to several grouping sets: ROLLUP (a, (b, c)), CUBE (...),
// GROUPING SETS ((a, b), a, ()). `items` are ROLLUP's / CUBE's arguments (each a list of
// expressions) or the grouping sets themselves.
struct GroupingElement {
  enum class Kind : uint8_t { kRollup, kCube, kGroupingSets };
  Kind kind = Kind::kRollup;
  std::vector<std::vector<ExprPtr>> items;
  std::string ToString() const;
};

// WITH [RECURSIVE] name [(columns)] AS (query).
struct CommonTableExpr {
  std::string name;
  // Written in a WITH RECURSIVE list (every entry of that list): the query may name the CTE
  // itself on the right of a top-level UNION [ALL].
  bool recursive = false;
  std::vector<std::string> columns;  // empty when not written
  QueryPtr query;
  size_t position = 0;
};

// A query: SELECT, set operation or VALUES. The WITH list, ORDER BY, LIMIT and OFFSET apply
// to the result of this node as a whole (for a set operation: to the combined result).
struct QueryNode {
  QueryNode(QueryKind k, size_t pos) : kind(k), position(pos) {}
  virtual ~QueryNode() = default;
  QueryNode(const QueryNode&) = delete;
  QueryNode& operator=(const QueryNode&) = delete;

  const QueryKind kind;
  size_t position;
  int height = 1;
  std::vector<CommonTableExpr> ctes;
  std::vector<OrderByItem> order_by;
  ExprPtr limit;   // null when absent
  ExprPtr offset;  // null when absent

  std::string ToString() const;
  // True when ctes, order_by, limit or offset is set (printing then needs parentheses).
  bool HasModifiers() const { return !ctes.empty() || !order_by.empty() || limit || offset; }
  template <typename T>
  T& As() { return static_cast<T&>(*this); }
  template <typename T>
  const T& As() const { return static_cast<const T&>(*this); }
};

// One select-list entry: expr [AS alias].
struct SelectItem {
  ExprPtr expr;
  std::string alias;                 // empty when not written
  std::vector<std::string> aliases;  // AS (a, b): a generator's column names (Spark)
};

// LATERAL VIEW [OUTER] generator(args) [table_alias] [AS col, ...] after FROM (Spark): each
// row of the FROM relation joined with the rows its generator call produces.
struct LateralView {
  ExprPtr call;  // a FunctionExpression: explode, posexplode, inline (or their _outer forms)
  bool outer = false;
  std::string table_alias;            // empty when not written
  std::vector<std::string> columns;   // the generated columns' names; empty: the defaults
};

// FROM ... PIVOT (agg [AS a], ... FOR col | (cols) IN (v [AS n] | (vs) [AS n], ...)) (Spark):
// groups by the FROM relation's other columns, one column per value (and aggregate).
struct PivotClause {
  std::vector<SelectItem> aggregates;  // aggregate calls, each with an optional alias
  std::vector<ExprPtr> for_columns;
  struct Value {
    std::vector<ExprPtr> exprs;  // one per FOR column
    std::string alias;           // empty when not written
  };
  std::vector<Value> values;
  std::string ToString() const;
};

// FROM ... UNPIVOT [INCLUDE | EXCLUDE NULLS] (v | (vs) FOR name IN (c [AS n] | (cs) [AS n], ...)):
// one row per IN item, with the other columns, the item's name and its values.
struct UnpivotClause {
  bool include_nulls = false;
  std::vector<std::string> value_columns;
  std::string name_column;
  struct Item {
    std::vector<std::string> columns;  // one per value column
    std::string alias;                 // empty: the column names joined by '_'
  };
  std::vector<Item> items;
  std::string ToString() const;
};

struct SelectNode : QueryNode {
  explicit SelectNode(size_t pos) : QueryNode(QueryKind::kSelect, pos) {}
  bool distinct = false;
  std::vector<SelectItem> select_list;
  TableRefPtr from;  // null for SELECT without FROM
  std::vector<LateralView> lateral_views;  // after FROM, in order
  std::shared_ptr<PivotClause> pivot;      // after FROM and its lateral views, else null
  std::shared_ptr<UnpivotClause> unpivot;  // likewise
  std::string pivot_alias;                 // PIVOT (...) [AS] alias / UNPIVOT (...) [AS] alias
  ExprPtr where;
  std::vector<ExprPtr> group_by;
  bool group_by_all = false;  // GROUP BY ALL: every select item without an aggregate
  // ROLLUP / CUBE / GROUPING SETS of the GROUP BY (after its plain expressions).
  std::vector<GroupingElement> grouping_elements;
  ExprPtr having;
  std::vector<std::pair<std::string, WindowSpec>> windows;  // WINDOW name AS (...), ...
  ExprPtr qualify;                                          // QUALIFY predicate, else null
};

enum class SetOpKind : uint8_t { kUnion, kExcept, kIntersect };

// left UNION|EXCEPT|INTERSECT [ALL] right; chains are left-associative, all three operators
// with equal precedence.
struct SetOperationNode : QueryNode {
  explicit SetOperationNode(size_t pos) : QueryNode(QueryKind::kSetOperation, pos) {}
  SetOpKind op = SetOpKind::kUnion;
  bool all = false;
  QueryPtr left;
  QueryPtr right;
};

// VALUES (a, b), (c, d): every row has the same, non-zero number of values.
struct ValuesNode : QueryNode {
  explicit ValuesNode(size_t pos) : QueryNode(QueryKind::kValues, pos) {}
  std::vector<std::vector<ExprPtr>> rows;
};

// ---------------------------------------------------------------------------------------------
// Table references

// A table named by dotted parts (t, schema.t) or, for delta.`/path` (schema `delta`
// case-insensitive, table name quoted), by path.
struct TableName {
  std::vector<std::string> parts;  // empty for a path table
  std::string path;                // non-empty for delta.`/path/to/table`
  size_t position = 0;

  bool IsPath() const { return !path.empty(); }
  std::string ToString() const;
};

// VERSION AS OF n / TIMESTAMP AS OF 'ts' (time travel, also the target of RESTORE).
struct TimeTravel {
  enum class Kind : uint8_t { kVersion, kTimestamp };
  Kind kind = Kind::kVersion;
  ExprPtr value;  // kVersion: an integer literal; kTimestamp: any expression (usually a string)
  std::string ToString() const;
};

enum class TableRefKind : uint8_t { kBaseTable, kTableFunction, kSubquery, kJoin };

// TABLESAMPLE (p PERCENT | n ROWS | BUCKET x OUT OF y) [REPEATABLE (seed)] after a table name
// or a parenthesized query (Spark / Databricks).
struct TableSample {
  enum class Kind : uint8_t { kPercent, kRows, kBucket };
  Kind kind = Kind::kPercent;
  std::string percent;       // kPercent: the number as written (0 to 100)
  int64_t rows = 0;          // kRows
  int64_t bucket = 0;        // kBucket: x of "x OUT OF y"
  int64_t buckets = 0;       // kBucket: y
  std::optional<int64_t> seed;  // REPEATABLE (seed)
  std::string ToString() const;
};

struct TableRef {
  TableRef(TableRefKind k, size_t pos) : kind(k), position(pos) {}
  virtual ~TableRef() = default;
  TableRef(const TableRef&) = delete;
  TableRef& operator=(const TableRef&) = delete;

  const TableRefKind kind;
  size_t position;
  int height = 1;
  std::string alias;                        // empty when not written (always empty for a join)
  std::vector<std::string> column_aliases;  // AS t(a, b)
  std::optional<TableSample> sample;        // base tables and subqueries only

  std::string ToString() const;
  template <typename T>
  T& As() { return static_cast<T&>(*this); }
  template <typename T>
  const T& As() const { return static_cast<const T&>(*this); }
};

struct BaseTableRef : TableRef {
  explicit BaseTableRef(size_t pos) : TableRef(TableRefKind::kBaseTable, pos) {}
  TableName name;
  std::optional<TimeTravel> time_travel;
};

// range(10), read_parquet('glob', union_by_name => true), parquet_metadata('f').
struct TableFunctionRef : TableRef {
  explicit TableFunctionRef(size_t pos) : TableRef(TableRefKind::kTableFunction, pos) {}
  std::unique_ptr<FunctionExpression> call;
};

// (query) or (VALUES ...) in FROM.
struct SubqueryRef : TableRef {
  explicit SubqueryRef(size_t pos) : TableRef(TableRefKind::kSubquery, pos) {}
  QueryPtr query;
  bool lateral = false;  // LATERAL (SELECT ...): may name columns of the tables left of it
};

// kCross also represents comma joins; the others have at most one of condition (ON) or
// using_columns (USING), none when natural; only kInner may have neither (Spark's JOIN without
// a condition). kSemi/kAnti ([LEFT] SEMI|ANTI JOIN) output the left columns only.
enum class JoinType : uint8_t { kInner, kLeft, kRight, kFull, kCross, kSemi, kAnti };

struct JoinRef : TableRef {
  explicit JoinRef(size_t pos) : TableRef(TableRefKind::kJoin, pos) {}
  JoinType type = JoinType::kInner;
  bool natural = false;  // NATURAL: USING the columns both sides have (binder)
  TableRefPtr left;
  TableRefPtr right;
  ExprPtr condition;
  std::vector<std::string> using_columns;
};

// ---------------------------------------------------------------------------------------------
// Statements

enum class StatementKind : uint8_t {
  kSelect, kExplain, kCreateTable, kDropTable, kShowTables, kDescribe, kInsert, kDelete,
  kUpdate, kMerge, kOptimize, kReorg, kVacuum, kRestore, kAlterTable, kTransaction, kSet,
  kReset, kCopy, kCreateView, kDropView, kShowSetting, kCheckpoint,
};

struct Statement {
  Statement(StatementKind k, size_t pos) : kind(k), position(pos) {}
  virtual ~Statement() = default;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  const StatementKind kind;
  size_t position;
  // The values of its parameters (? / $N); null when it has none.
  std::shared_ptr<ParameterValues> parameters;

  std::string ToString() const;  // without a trailing ';'
  template <typename T>
  T& As() { return static_cast<T&>(*this); }
  template <typename T>
  const T& As() const { return static_cast<const T&>(*this); }
};

// A literal-ish value of SET and of COPY options: 'str', 123, -1.5, true, or a bare word.
struct OptionValue {
  enum class Kind : uint8_t { kNone, kString, kNumber, kBoolean, kWord };
  Kind kind = Kind::kNone;  // kNone: an option written without a value
  std::string text;         // unescaped string, number text, "true"/"false", or the word
  std::string ToString() const;
};

// 'key' = 'value' pairs of TBLPROPERTIES; unquoted keys/values are kept as written
// (booleans lower case).
using Properties = std::vector<std::pair<std::string, std::string>>;

struct SelectStatement : Statement {
  explicit SelectStatement(size_t pos) : Statement(StatementKind::kSelect, pos) {}
  QueryPtr query;
};

struct ExplainStatement : Statement {
  explicit ExplainStatement(size_t pos) : Statement(StatementKind::kExplain, pos) {}
  bool analyze = false;
  StatementPtr statement;
};

// GENERATED ALWAYS|BY DEFAULT AS IDENTITY [(START WITH s INCREMENT BY i)].
struct IdentitySpec {
  bool always = true;             // false: BY DEFAULT
  std::optional<int64_t> start;   // unset: not written (Delta's default is 1)
  std::optional<int64_t> increment;
};

// A column of CREATE TABLE / ALTER TABLE ADD COLUMNS.
struct ColumnDefinition {
  std::string name;
  TypeName type;
  bool not_null = false;
  ExprPtr generated;                    // GENERATED ALWAYS AS (expr), else null
  ExprPtr default_value;                // DEFAULT expr, else null
  std::optional<IdentitySpec> identity;
  std::optional<std::string> comment;
  size_t position = 0;
  std::string ToString() const;
};

// An informational key constraint, as Databricks keeps them (NOT ENFORCED): PRIMARY KEY,
// UNIQUE or FOREIGN KEY ... REFERENCES, at table level or on one column.
struct KeyConstraint {
  enum class Kind : uint8_t { kPrimaryKey, kUnique, kForeignKey };
  Kind kind = Kind::kPrimaryKey;
  std::string name;  // CONSTRAINT name, else empty
  std::vector<std::string> columns;
  TableName references;                         // FOREIGN KEY only
  std::vector<std::string> referenced_columns;  // FOREIGN KEY; empty: the referenced primary key
  bool rely = false;                            // RELY: the optimizer may trust it
  size_t position = 0;
  // e.g. "PRIMARY KEY (a, b) NOT ENFORCED RELY" (without the CONSTRAINT name).
  std::string ToString() const;
};

// CONSTRAINT name CHECK (expr).
struct CheckConstraint {
  std::string name;
  ExprPtr expr;
  size_t position = 0;
  std::string ToString() const;
};

// CREATE [OR REPLACE] TABLE [IF NOT EXISTS] name [(columns, constraints)] [USING fmt]
// [PARTITIONED BY (cols)] [LOCATION 'p'] [COMMENT 'c'] [TBLPROPERTIES (...)] [AS query].
// Both columns and as_query may be empty (CREATE TABLE t USING DELTA LOCATION '/p' registers
// an existing table).
struct CreateTableStatement : Statement {
  explicit CreateTableStatement(size_t pos) : Statement(StatementKind::kCreateTable, pos) {}
  bool or_replace = false;
  bool if_not_exists = false;
  TableName name;
  std::vector<ColumnDefinition> columns;
  std::vector<CheckConstraint> constraints;
  std::vector<KeyConstraint> key_constraints;  // table- and column-level, in order written
  std::string using_format;  // as written (e.g. "DELTA"), empty when absent
  std::vector<std::string> partitioned_by;
  std::optional<std::string> location;
  std::optional<std::string> comment;
  Properties properties;
  QueryPtr as_query;  // CTAS, else null
};

struct DropTableStatement : Statement {
  explicit DropTableStatement(size_t pos) : Statement(StatementKind::kDropTable, pos) {}
  bool if_exists = false;
  TableName name;
};

struct ShowTablesStatement : Statement {
  explicit ShowTablesStatement(size_t pos) : Statement(StatementKind::kShowTables, pos) {}
};

// SHOW key: a setting's current value; key is dotted as written (shoal.txn.appId).
struct ShowSettingStatement : Statement {
  explicit ShowSettingStatement(size_t pos) : Statement(StatementKind::kShowSetting, pos) {}
  std::string key;
};

// DESCRIBE [TABLE] [EXTENDED | FORMATTED] t | DESCRIBE HISTORY t [LIMIT n] | DESCRIBE DETAIL t |
// DESCRIBE LAYOUT t.
struct DescribeStatement : Statement {
  enum class Kind : uint8_t { kTable, kHistory, kDetail, kLayout };
  explicit DescribeStatement(size_t pos) : Statement(StatementKind::kDescribe, pos) {}
  Kind describe_kind = Kind::kTable;
  bool extended = false;  // kTable: EXTENDED or FORMATTED (the same in Spark)
  TableName name;
  std::optional<int64_t> limit;  // HISTORY only
};

// INSERT INTO|OVERWRITE [TABLE] t [(cols)] [REPLACE WHERE pred] query. A VALUES list is a
// ValuesNode query.
struct InsertStatement : Statement {
  explicit InsertStatement(size_t pos) : Statement(StatementKind::kInsert, pos) {}
  TableName table;
  std::vector<std::string> columns;  // empty when not written
  bool overwrite = false;
  ExprPtr replace_where;  // null when absent
  QueryPtr query;
};

struct DeleteStatement : Statement {
  explicit DeleteStatement(size_t pos) : Statement(StatementKind::kDelete, pos) {}
  TableName table;
  std::string alias;
  ExprPtr where;  // null: delete all rows
};

// column = value in UPDATE and MERGE; the column may be qualified (t.c) or nested.
struct Assignment {
  std::vector<std::string> column;
  ExprPtr value;
  size_t position = 0;
  std::string ToString() const;
};

struct UpdateStatement : Statement {
  explicit UpdateStatement(size_t pos) : Statement(StatementKind::kUpdate, pos) {}
  TableName table;
  std::string alias;
  std::vector<Assignment> assignments;
  ExprPtr where;
};

enum class MergeMatch : uint8_t {
  kMatched,             // WHEN MATCHED
  kNotMatchedByTarget,  // WHEN NOT MATCHED [BY TARGET]
  kNotMatchedBySource,  // WHEN NOT MATCHED BY SOURCE
};
enum class MergeAction : uint8_t { kUpdate, kUpdateStar, kDelete, kInsert, kInsertStar };

struct MergeClause {
  MergeMatch match = MergeMatch::kMatched;
  ExprPtr condition;  // AND cond, null when absent
  MergeAction action = MergeAction::kDelete;
  std::vector<Assignment> assignments;     // kUpdate
  std::vector<std::string> insert_columns;  // kInsert, empty when not written
  std::vector<ExprPtr> insert_values;      // kInsert
  size_t position = 0;
  std::string ToString() const;
};

// MERGE INTO target [AS t] USING source [AS s] ON cond WHEN ... (clauses in written order).
// Matched/not-matched-by-source clauses allow only UPDATE/DELETE, not-matched only INSERT.
struct MergeStatement : Statement {
  explicit MergeStatement(size_t pos) : Statement(StatementKind::kMerge, pos) {}
  TableName target;
  std::string target_alias;
  TableRefPtr source;  // base table, table function or subquery, with its alias
  ExprPtr on;
  std::vector<MergeClause> clauses;
};

struct OptimizeStatement : Statement {
  explicit OptimizeStatement(size_t pos) : Statement(StatementKind::kOptimize, pos) {}
  TableName table;
  ExprPtr where;
  std::vector<std::string> zorder_by;  // empty: bin-packing only
  // OPTIMIZE t COMPACT LOG [FROM VERSION x] [TO VERSION y] (shoal's own): writes a log
  // compaction file instead of rewriting data files.
  bool compact_log = false;
  std::optional<int64_t> log_from, log_to;
};

// REORG TABLE t [WHERE pred] APPLY (PURGE).
struct ReorgStatement : Statement {
  explicit ReorgStatement(size_t pos) : Statement(StatementKind::kReorg, pos) {}
  TableName table;
  ExprPtr where;
};

struct VacuumStatement : Statement {
  explicit VacuumStatement(size_t pos) : Statement(StatementKind::kVacuum, pos) {}
  TableName table;
  std::optional<std::string> retain_hours;  // number text as written (RETAIN 168 HOURS)
  bool dry_run = false;
};

// CHECKPOINT [TABLE] t (shoal's own, named after DuckDB's): writes the checkpoint of t's latest
// version as the automatic checkpoint at commit would.
struct CheckpointStatement : Statement {
  explicit CheckpointStatement(size_t pos) : Statement(StatementKind::kCheckpoint, pos) {}
  TableName table;
};

// RESTORE [TABLE] t TO VERSION AS OF n | TO TIMESTAMP AS OF 'ts'.
struct RestoreStatement : Statement {
  explicit RestoreStatement(size_t pos) : Statement(StatementKind::kRestore, pos) {}
  TableName table;
  TimeTravel target;
};

// ALTER TABLE t <action>; which fields are set depends on action (see each enumerator).
struct AlterTableStatement : Statement {
  enum class Action : uint8_t {
    kAddColumns,        // add_columns
    kRenameColumn,      // column -> new_name
    kDropColumns,       // columns, if_exists
    kSetProperties,     // properties
    kUnsetProperties,   // property_keys, if_exists
    kSetNotNull,        // column (ALTER|CHANGE COLUMN c SET NOT NULL)
    kDropNotNull,       // column (ALTER|CHANGE COLUMN c DROP NOT NULL)
    kAddConstraint,     // constraint
    kDropConstraint,    // constraint_name, if_exists
    kSetDefault,        // column, default_value (ALTER COLUMN c SET DEFAULT expr)
    kDropDefault,       // column (ALTER COLUMN c DROP DEFAULT)
    kAddKeyConstraint,  // key_constraint (ADD [CONSTRAINT name] PRIMARY KEY | UNIQUE | FOREIGN KEY ...)
    kDropPrimaryKey,    // if_exists (DROP PRIMARY KEY [IF EXISTS])
  };
  explicit AlterTableStatement(size_t pos) : Statement(StatementKind::kAlterTable, pos) {}
  TableName table;
  Action action = Action::kAddColumns;
  std::vector<ColumnDefinition> add_columns;
  std::string column;
  std::string new_name;
  std::vector<std::string> columns;
  bool if_exists = false;
  Properties properties;
  std::vector<std::string> property_keys;
  CheckConstraint constraint;
  KeyConstraint key_constraint;
  std::string constraint_name;
  ExprPtr default_value;
};

struct TransactionStatement : Statement {
  enum class Kind : uint8_t {
    kBegin,             // BEGIN [TRANSACTION], START TRANSACTION
    kCommit,            // COMMIT
    kRollback,          // ROLLBACK
    kPrepare,           // PREPARE TRANSACTION 'id'
    kCommitPrepared,    // COMMIT PREPARED 'id'
    kRollbackPrepared,  // ROLLBACK PREPARED 'id'
  };
  explicit TransactionStatement(size_t pos) : Statement(StatementKind::kTransaction, pos) {}
  Kind transaction_kind = Kind::kBegin;
  std::string transaction_id;  // the prepared-transaction kinds only
};

// The setting SET TIME ZONE sets (Spark's configuration name).
inline constexpr char kSessionTimeZoneKey[] = "spark.sql.session.timeZone";

// SET key = value; key is dotted as written (shoal.txn.appId).
struct SetStatement : Statement {
  explicit SetStatement(size_t pos) : Statement(StatementKind::kSet, pos) {}
  std::string key;
  OptionValue value;
};

struct ResetStatement : Statement {
  explicit ResetStatement(size_t pos) : Statement(StatementKind::kReset, pos) {}
  std::string key;
};

// COPY (query) TO 'file' [(NAME value, ...)] or COPY table TO ...
struct CopyStatement : Statement {
  explicit CopyStatement(size_t pos) : Statement(StatementKind::kCopy, pos) {}
  QueryPtr query;   // null when copying a table
  TableName table;  // when query is null
  std::string file;
  std::vector<std::pair<std::string, OptionValue>> options;  // names upper case
};

}  // namespace shoal::sql

#include "sql/parser/ast_view.h"  // IWYU pragma: export
