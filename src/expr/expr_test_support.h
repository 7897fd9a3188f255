// Test helpers for the expression layer: building batches from Values and evaluating
// expressions to Values. Tests only.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "columnar/value.h"
#include "expr/coercion.h"
#include "expr/evaluate.h"
#include "expr/expr.h"

namespace shoal::expr::testing {

using columnar::Value;

// A batch whose column i holds `columns[i]` (all of `types[i]`).
inline columnar::RecordBatch MakeBatch(const std::vector<columnar::TypePtr>& types,
                                       const std::vector<std::vector<Value>>& columns) {
  columnar::RecordBatch b;
  auto schema = std::make_shared<columnar::Schema>();
  for (size_t c = 0; c < types.size(); ++c) {
    schema->fields.push_back({std::string("c").append(std::to_string(c)), types[c], true});
    auto v = columnar::Vector::Make(types[c]);
    for (const auto& x : columns[c]) x.AppendTo(v.get());
    b.columns.push_back(v);
    b.num_rows = static_cast<int64_t>(columns[c].size());
  }
  b.schema = schema;
  return b;
}

inline std::vector<Value> ToValues(const columnar::Vector& v) {
  std::vector<Value> out;
  for (int64_t i = 0; i < v.size(); ++i) out.push_back(Value::FromVector(v, i));
  return out;
}

// Evaluates an expression without columns on a 1-row batch; returns its text ("NULL" for null)
// or "ERROR: <status>".
inline std::string EvalText(const Result<ExprPtr>& e) {
  if (!e.ok()) return "BIND ERROR: " + e.status().ToString();
  EvalContext ctx(0);
  columnar::RecordBatch b;
  b.num_rows = 1;
  auto v = Evaluate(**e, b, ctx);
  if (!v.ok()) return "ERROR: " + v.status().ToString();
  return Value::FromVector(**v, 0).ToString();
}

inline ExprPtr Lit(Value v) { return Literal(std::move(v)); }
inline ExprPtr I(int32_t v) { return Literal(Value::Int32(v)); }
inline ExprPtr L(int64_t v) { return Literal(Value::Int64(v)); }
inline ExprPtr D(double v) { return Literal(Value::Double(v)); }
inline ExprPtr S(std::string v) { return Literal(Value::String(std::move(v))); }
inline ExprPtr B(bool v) { return Literal(Value::Boolean(v)); }
inline ExprPtr Null(columnar::TypePtr t = columnar::NullType()) { return Literal(Value::Null(std::move(t))); }
inline ExprPtr Dec(const std::string& text) {
  auto v = DecimalLiteral(text);
  EXPECT_TRUE(v.ok()) << text;
  return Literal(v.ok() ? *v : Value());
}

// Call that must bind.
inline ExprPtr F(std::string_view name, std::vector<ExprPtr> args) {
  auto r = Call(name, std::move(args));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : Literal(Value());
}

}  // namespace shoal::expr::testing
