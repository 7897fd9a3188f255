// Implicit type coercion rules, used by the binder and by function resolution:
// - numeric widening TINYINT < SMALLINT < INT < BIGINT < DECIMAL < DOUBLE; FLOAT with FLOAT
//   stays FLOAT, FLOAT with any other numeric is DOUBLE; an integer joins a DECIMAL as
//   DECIMAL(p,0) with p = 3/5/10/19/20 for TINYINT/SMALLINT/INT/BIGINT/UBIGINT; DECIMAL with a
//   floating type is DOUBLE; two DECIMALs widen to hold both (capped at 38 digits).
// - STRING meets DATE/TIMESTAMP/TIME/numbers/BOOLEAN as the other type (the string side is
//   cast, as DuckDB does for string literals); DATE meets TIMESTAMP as TIMESTAMP.
// - NULL coerces to anything; LIST/MAP/STRUCT coerce element-wise (STRUCTs need equal field
//   counts; names come from the left side).
//
// Thread-safety: pure functions.
#pragma once

#include <string_view>

#include "columnar/type.h"
#include "columnar/value.h"
#include "shoal/status.h"

namespace shoal::expr {

using columnar::TypePtr;

// The type both `a` and `b` implicitly convert to (CASE, COALESCE, IN, UNION, VALUES rows,
// comparisons). Binder error "Cannot find a common type for INT and DATE" otherwise.
Result<TypePtr> CommonType(const TypePtr& a, const TypePtr& b);

// Cost of implicitly casting `from` to `to` for function resolution: 0 when equal, larger
// for less natural casts, -1 when not allowed implicitly.
int ImplicitCastCost(const TypePtr& from, const TypePtr& to);
inline bool CanImplicitCast(const TypePtr& from, const TypePtr& to) {
  return ImplicitCastCost(from, to) >= 0;
}

// DECIMAL(p, 0) holding every value of an integer type (TINYINT 3, SMALLINT 5, INT 10,
// BIGINT 19, UBIGINT 20); the type itself for DECIMAL; null for other types.
TypePtr DecimalFor(const TypePtr& type);

// Spark's bounding of an exact DECIMAL result (allowPrecisionLoss): precision over 38 keeps
// the integer digits and reduces the scale, but not below min(scale, 6).
TypePtr BoundedDecimal(int precision, int scale);

// Literal typing: integer text -> INT if it fits, else BIGINT, else DECIMAL(38,0) (an error
// beyond 38 digits); decimal text "1.50" -> DECIMAL(3,2) exactly; text with an exponent
// ("1e3") -> DOUBLE. Errors are Conversion errors naming the text.
Result<columnar::Value> IntegerLiteral(std::string_view text);
Result<columnar::Value> DecimalLiteral(std::string_view text);
Result<columnar::Value> FloatLiteral(std::string_view text);

}  // namespace shoal::expr
