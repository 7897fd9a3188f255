// Test support for the pruning stack: random predicates over a file's columns (literals drawn
// from the data and next to it), and a brute-force check that RowGroupPruner never excludes
// a row the predicate accepts, with tallies of what it pruned so tests can require pruning.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "columnar/value.h"
#include "columnar/vector.h"
#include "expr/evaluate.h"
#include "expr/expr.h"
#include "parquet/file_reader.h"
#include "parquet/statistics.h"
#include "scan/row_group_pruner.h"

namespace shoal::scan::pruning_test {

using columnar::TypeId;
using columnar::Value;
using expr::ExprPtr;

// What the pruner did over many checks.
struct Tally {
  int64_t checks = 0;           // (predicate, row group) pairs
  int64_t row_groups_skipped = 0;
  int64_t rows_total = 0;
  int64_t rows_excluded = 0;    // by `rows` of row groups not skipped
  int64_t matches = 0;          // rows satisfying the predicate
  PruneCounters counters;
};

// Every row group of `reader` read back whole, shaped as the scan's output columns: file
// fields `fields` first, then one column per extra (constant broadcast or NULLs).
struct Extra {
  columnar::TypePtr type;
  std::optional<Value> constant;  // absent column when unset
};

inline std::vector<columnar::BatchPtr> ReadRowGroups(const parquet::ParquetReader& r, const std::vector<int>& fields,
                                                     const std::vector<Extra>& extras) {
  std::vector<columnar::BatchPtr> out;
  for (int g = 0; g < r.num_row_groups(); ++g) {
    auto rg = r.OpenRowGroup(g, fields);
    EXPECT_TRUE(rg.ok()) << rg.status().ToString();
    if (!rg.ok()) return {};
    std::vector<std::vector<columnar::VectorPtr>> parts(fields.size());
    while (true) {
      auto b = (*rg)->ReadBatch();
      EXPECT_TRUE(b.ok()) << b.status().ToString();
      if (!b.ok() || !*b) break;
      for (size_t i = 0; i < fields.size(); ++i) parts[i].push_back((*b)->columns[i]);
    }
    int64_t n = r.row_group_num_rows(g);
    auto schema = std::make_shared<columnar::Schema>();
    std::vector<columnar::VectorPtr> cols;
    for (size_t i = 0; i < fields.size(); ++i) {
      schema->fields.push_back(r.schema()->fields[fields[i]]);
      cols.push_back(parts[i].empty() ? columnar::Vector::Make(r.schema()->fields[fields[i]].type)
                                      : columnar::Concat(parts[i]));
    }
    for (size_t e = 0; e < extras.size(); ++e) {
      schema->fields.push_back({"extra" + std::to_string(e), extras[e].type, true});
      cols.push_back(extras[e].constant ? extras[e].constant->Broadcast(n)
                                        : columnar::Vector::MakeNull(extras[e].type, n));
    }
    out.push_back(std::make_shared<columnar::RecordBatch>(schema, cols, n));
  }
  return out;
}

// Random predicates over the columns of `sample` (a batch of the output shape).
class PredicateGenerator {
 public:
  PredicateGenerator(std::vector<columnar::BatchPtr> data, uint32_t seed) : data_(std::move(data)), rng_(seed) {}

  // 1..3 conjuncts, each an AND/OR/NOT tree of depth <= 2 over random atoms.
  std::vector<ExprPtr> Conjuncts() {
    std::vector<ExprPtr> out;
    int n = 1 + static_cast<int>(rng_() % 3);
    while (static_cast<int>(out.size()) < n) {
      ExprPtr e = Tree(static_cast<int>(rng_() % 3));
      if (e) out.push_back(e);
    }
    return out;
  }

  // An atom on column `c`, or null when none could be built.
  ExprPtr Atom(int c) {
    const columnar::TypePtr& type = Schema().fields[c].type;
    ExprPtr col = expr::ColumnRef(c, type, Schema().fields[c].name);
    Value v = Literal(c);
    int op = static_cast<int>(rng_() % 12);
    Result<ExprPtr> r = Status::Internal("none");
    static const char* kOps[] = {"=", "<>", "<", "<=", ">", ">="};
    switch (op) {
      case 0: case 1: case 2: case 3: case 4: case 5: {
        ExprPtr lhs = col;
        if (rng_() % 5 == 0 && type->IsInteger() && type->id() != TypeId::kInt64) {
          auto cast = expr::Cast(col, columnar::Int64());  // a widening cast in the predicate
          if (cast.ok() && !v.is_null()) {
            lhs = *cast;
            v = Value::Int64(v.GetInt());
          }
        }
        static const char* kFlipped[] = {"=", "<>", ">", ">=", "<", "<="};
        if (rng_() % 2) {
          r = expr::Call(kOps[op], {lhs, expr::Literal(v)});
        } else {
          r = expr::Call(kFlipped[op], {expr::Literal(v), lhs});  // literal first, same meaning
        }
        break;
      }
      case 6: {  // BETWEEN
        Value w = Literal(c);
        if (!v.is_null() && !w.is_null() && v.Compare(w) > 0) std::swap(v, w);
        auto lo = expr::Call(">=", {col, expr::Literal(v)});
        auto hi = expr::Call("<=", {col, expr::Literal(w)});
        if (lo.ok() && hi.ok()) r = expr::And({*lo, *hi});
        break;
      }
      case 7: {  // IN, sometimes with NULL, sometimes NOT IN
        std::vector<ExprPtr> items;
        int k = 1 + static_cast<int>(rng_() % 4);
        for (int i = 0; i < k; ++i) items.push_back(expr::Literal(i == 0 ? v : Literal(c)));
        if (rng_() % 6 == 0) items.push_back(expr::Literal(Value::Null(type)));
        r = expr::In(col, items, rng_() % 5 == 0);
        break;
      }
      case 8: r = expr::IsNull(col, false); break;
      case 9: r = expr::IsNull(col, true); break;
      case 10: {  // LIKE 'prefix%'
        if (type->id() != TypeId::kString || v.is_null()) {
          r = expr::IsNull(col, true);
          break;
        }
        std::string s = v.GetString();
        size_t len = s.empty() ? 0 : rng_() % (s.size() + 1);
        std::string pat = s.substr(0, len);
        if (pat.find_first_of("%_\\") != std::string::npos) pat.clear();
        r = expr::Like(col, expr::Literal(Value::String(pat + "%")), nullptr, false, rng_() % 6 == 0);
        break;
      }
      default:
        r = expr::Call("=", {col, expr::Literal(v)});
        break;
    }
    return r.ok() ? *r : nullptr;
  }

 private:
  const columnar::Schema& Schema() const { return *data_[0]->schema; }

  ExprPtr Tree(int depth) {
    if (depth == 0) return Atom(static_cast<int>(rng_() % Schema().fields.size()));
    int kind = static_cast<int>(rng_() % 4);
    if (kind == 3) {
      ExprPtr a = Tree(depth - 1);
      if (!a) return nullptr;
      auto n = expr::Not(a);
      return n.ok() ? *n : nullptr;
    }
    if (kind == 2) return Tree(depth - 1);
    std::vector<ExprPtr> args;
    int k = 2 + static_cast<int>(rng_() % 2);
    for (int i = 0; i < k; ++i) {
      ExprPtr a = Tree(depth - 1);
      if (!a) return nullptr;
      args.push_back(a);
    }
    auto e = kind == 0 ? expr::And(args) : expr::Or(args);
    return e.ok() ? *e : nullptr;
  }

  // A value of column c: one of the data (70%), or one next to one.
  Value Literal(int c) {
    const columnar::TypePtr& type = Schema().fields[c].type;
    for (int attempt = 0; attempt < 8; ++attempt) {
      const auto& b = data_[rng_() % data_.size()];
      if (b->num_rows == 0) continue;
      Value v = Value::FromVector(*b->columns[c], static_cast<int64_t>(rng_() % b->num_rows));
      if (v.is_null()) continue;
      if (rng_() % 10 < 7) return v;
      return Near(v);
    }
    return Value::Null(type);
  }

  Value Near(const Value& v) {
    const columnar::TypePtr& t = v.type();
    int64_t d = static_cast<int64_t>(rng_() % 3) - 1;
    switch (t->id()) {
      case TypeId::kInt8: return Value::Integer(t, std::clamp<int64_t>(v.GetInt() + d, -128, 127));
      case TypeId::kInt16: return Value::Integer(t, std::clamp<int64_t>(v.GetInt() + d, -32768, 32767));
      case TypeId::kInt32:
      case TypeId::kDate: return Value::Integer(t, std::clamp<int64_t>(v.GetInt() + d, INT32_MIN, INT32_MAX));
      case TypeId::kInt64:
      case TypeId::kTime:
      case TypeId::kTimestamp:
      case TypeId::kTimestampNtz:
        if (v.GetInt() > INT64_MIN + 2 && v.GetInt() < INT64_MAX - 2) return Value::Integer(t, v.GetInt() + d);
        return v;
      case TypeId::kFloat:
      case TypeId::kDouble: {
        double x = v.GetDouble();
        int k = static_cast<int>(rng_() % 5);
        double y = k == 0 ? NAN : k == 1 ? -0.0 : k == 2 ? 0.0 : x + (k == 3 ? 0.5 : -0.25);
        return t->id() == TypeId::kFloat ? Value::Float(static_cast<float>(y)) : Value::Double(y);
      }
      case TypeId::kDecimal: return Value::Decimal(t->precision(), t->scale(), v.GetDecimal() + d);
      case TypeId::kString:
      case TypeId::kBinary: {
        std::string s = v.GetString();
        int k = static_cast<int>(rng_() % 3);
        if (k == 0 && !s.empty()) s.pop_back();
        else if (k == 1) s += static_cast<char>('a' + rng_() % 26);
        else if (!s.empty()) s.back() = static_cast<char>(s.back() + 1);
        return t->id() == TypeId::kString ? Value::String(s) : Value::Binary(s);
      }
      case TypeId::kBoolean: return Value::Boolean(!v.GetBool());
      default: return v;
    }
  }

  std::vector<columnar::BatchPtr> data_;
  std::mt19937 rng_;
};

// Checks every row group of `reader` against the conjuncts: a skipped row group or a row
// outside `rows` must not satisfy their AND (brute force over `data`, one batch per group).
// Which single levels (stats, page index, dictionary, bloom) reproduce a wrong skip of group g.
inline std::string Culprits(const parquet::ParquetReader& reader, const std::vector<PrunerColumn>& columns,
                            const std::vector<ExprPtr>& conjuncts, int g) {
  std::string out;
  const char* names[] = {"stats", "page_index", "dictionary", "bloom"};
  for (int l = 0; l < 4; ++l) {
    PruneOptions o;
    o.stats = l == 0;
    o.page_index = l == 1;
    o.dictionary = l == 2;
    o.bloom = l == 3;
    auto v = RowGroupPruner(conjuncts, columns, o).Evaluate(reader, g);
    if (v.ok() && v->skip) out += std::string(" ") + names[l];
  }
  return out;
}

// The row-group statistics and the row's value of every column the filter reads.
inline std::string Describe(const parquet::ParquetReader& reader, const std::vector<PrunerColumn>& columns,
                            const columnar::RecordBatch& data, int g, int64_t row, const expr::Expr& filter) {
  std::string out;
  for (int c : expr::CollectColumns(filter)) {
    out += "\n  column " + std::to_string(c) + " value " + Value::FromVector(*data.columns[c], row).ToString();
    int leaf = columns[c].leaf;
    if (leaf < 0) continue;
    const auto* raw = reader.column_statistics(g, leaf);
    if (!raw) continue;
    const auto& lc = reader.parquet_schema().leaves()[leaf];
    std::optional<parquet::ColumnOrder> order;
    if (leaf < static_cast<int>(reader.metadata().column_orders.size())) order = reader.metadata().column_orders[leaf];
    auto d = parquet::DecodeStatistics(*raw, lc, reader.metadata().schema[lc.element_index], order);
    if (!d.ok()) continue;
    auto text = [&](const std::optional<Value>& v) -> std::string {
      if (!v) return "?";
      if (v->type()->id() == TypeId::kDecimal && lc.physical == parquet::PhysicalType::kInt64 &&
          lc.conversion == parquet::Conversion::kNone) {
        return std::to_string(v->GetInt()) + " (unscaled)";
      }
      return v->ToString();
    };
    out += " stats [" + text(d->min) + ", " + text(d->max) +
           "] nulls " + (d->null_count ? std::to_string(*d->null_count) : "?");
  }
  return out;
}

inline void CheckPruner(const parquet::ParquetReader& reader, const std::vector<PrunerColumn>& columns,
                        const std::vector<ExprPtr>& conjuncts, const std::vector<columnar::BatchPtr>& data,
                        const PruneOptions& options, Tally* tally) {
  RowGroupPruner pruner(conjuncts, columns, options);
  ExprPtr filter = conjuncts.size() == 1 ? conjuncts[0] : *expr::And(conjuncts);
  expr::EvalContext ctx;
  std::vector<uint32_t> sel;
  for (int g = 0; g < reader.num_row_groups(); ++g) {
    auto v = pruner.Evaluate(reader, g);
    ASSERT_TRUE(v.ok()) << v.status().ToString();
    auto n = expr::EvaluateFilter(*filter, *data[g], ctx, &sel);
    if (!n.ok()) continue;  // the predicate itself fails on these rows (e.g. a cast): nothing to check
    tally->checks++;
    tally->rows_total += data[g]->num_rows;
    tally->matches += *n;
    tally->counters += v->counters;
    if (v->skip) {
      tally->row_groups_skipped++;
      ASSERT_EQ(*n, 0) << reader.path() << " row group " << g << " skipped but " << *n << " rows match "
                       << filter->ToString() << "; first match row " << sel[0] << ": "
                       << Value::FromVector(*data[g]->columns[0], sel[0]).ToString()
                       << "; levels that skip alone:" << Culprits(reader, columns, conjuncts, g)
                       << Describe(reader, columns, *data[g], g, sel[0], *filter);
      continue;
    }
    tally->rows_excluded += data[g]->num_rows - v->rows.Count();
    for (uint32_t row : sel) {
      ASSERT_TRUE(v->rows.Contains(row)) << reader.path() << " row group " << g << " row " << row
                                         << " matches " << filter->ToString() << " but ranges are "
                                         << v->rows.ToString();
    }
  }
}

}  // namespace shoal::scan::pruning_test
