// GROUP BY ROLLUP / CUBE / GROUPING SETS and grouping() / grouping_id().
//
// Plan: an Expand operator emits each input row once per grouping set, with the groups the
// set leaves out replaced by NULL and a set id column (set index << n | bitmask of the groups
// left out, Spark's grouping_id bit order: the first group is the highest bit). One hash
// aggregation then groups by all group columns plus the set id, so every set is aggregated in
// the same pass over the shared input and duplicate sets stay distinct (as SQL requires).
#include <strings.h>

#include <algorithm>
#include <cctype>

#include "sql/parser/token.h"
#include "sql/binder/binder.h"

namespace shoal::sql {

namespace {

constexpr size_t kMaxGroupingSets = 4096;

// Index of `e` in groups, appending it when new.
int GroupIndex(std::vector<expr::ExprPtr>* groups, const expr::ExprPtr& e) {
  for (size_t i = 0; i < groups->size(); ++i) {
    if ((*groups)[i]->Equals(*e)) return static_cast<int>(i);
  }
  groups->push_back(e);
  return static_cast<int>(groups->size() - 1);
}

std::vector<int> Union(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<int> out = a;
  for (int x : b) {
    if (std::find(out.begin(), out.end(), x) == out.end()) out.push_back(x);
  }
  return out;
}

}  // namespace

Status Binder::BindGroupingSets(const SelectNode& s, ExprContext& gctx, int input_width, AggregateState* agg) {
  std::vector<int> plain;
  for (size_t i = 0; i < agg->groups.size(); ++i) plain.push_back(static_cast<int>(i));
  std::vector<std::vector<int>> sets = {plain};
  for (const auto& element : s.grouping_elements) {
    std::vector<std::vector<int>> items;
    for (const auto& item : element.items) {
      std::vector<int> idx;
      for (const auto& e : item) {
        if (ContainsAggregate(*e)) return Status::Binder("GROUP BY clause cannot contain aggregates");
        ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*e, gctx));
        idx = Union(idx, {GroupIndex(&agg->groups, b)});
      }
      items.push_back(std::move(idx));
    }
    std::vector<std::vector<int>> element_sets;
    switch (element.kind) {
      case GroupingElement::Kind::kRollup:
        for (size_t k = items.size() + 1; k-- > 0;) {
          std::vector<int> set;
          for (size_t j = 0; j < k; ++j) set = Union(set, items[j]);
          element_sets.push_back(std::move(set));
        }
        break;
      case GroupingElement::Kind::kCube: {
        if (items.size() > 12) return Status::NotSupported("CUBE of more than 12 elements");
        const size_t n = items.size();
        // Largest sets first, as DuckDB and Spark list them.
        for (size_t m = (size_t{1} << n); m-- > 0;) {
          std::vector<int> set;
          for (size_t j = 0; j < n; ++j) {
            if (m & (size_t{1} << (n - 1 - j))) set = Union(set, items[j]);
          }
          element_sets.push_back(std::move(set));
        }
        break;
      }
      case GroupingElement::Kind::kGroupingSets: element_sets = std::move(items); break;
    }
    std::vector<std::vector<int>> product;
    for (const auto& a : sets) {
      for (const auto& b : element_sets) {
        product.push_back(Union(a, b));
        if (product.size() > kMaxGroupingSets) {
          return Status::NotSupported("more than " + std::to_string(kMaxGroupingSets) + " grouping sets");
        }
      }
    }
    sets = std::move(product);
  }
  const int n = static_cast<int>(agg->groups.size());
  int set_bits = 0;
  while ((size_t{1} << set_bits) < sets.size()) ++set_bits;
  if (n + set_bits > 62) return Status::NotSupported("too many GROUP BY expressions with grouping sets");
  for (auto& set : sets) std::sort(set.begin(), set.end());
  agg->grouping_sets = std::move(sets);
  agg->grouping_id = n;
  // Placeholder for the set id column: the Expand output column after the groups; no
  // expression over the input can equal it.
  agg->groups.push_back(expr::ColumnRef(input_width + n, columnar::Int64(), "__grouping_id", false));
  return Status::OK();
}

Result<expr::ExprPtr> Binder::BindGroupingFunction(const FunctionExpression& e, ExprContext& ctx) {
  std::string name = Lower(e.name);
  if (!ctx.agg) return Status::Binder(name + "() is only allowed in a query with GROUP BY");
  if (e.over || e.distinct) return Status::Binder(name + "() takes neither OVER nor DISTINCT");
  const AggregateState& agg = *ctx.agg;
  const int n = agg.grouping_id >= 0 ? agg.grouping_id : static_cast<int>(agg.groups.size());
  std::vector<int> idx;
  if (e.args.empty()) {
    if (name == "grouping") return Status::Binder("grouping() needs at least one argument");
    for (int i = 0; i < n; ++i) idx.push_back(i);
  }
  ExprContext plain;
  plain.scope = ctx.scope;
  plain.clause = "grouping() arguments";
  for (const auto& a : e.args) {
    ASSIGN_OR_RETURN(expr::ExprPtr b, BindExpr(*a, plain));
    int found = -1;
    for (int i = 0; i < n && found < 0; ++i) {
      if (agg.groups[i]->Equals(*b)) found = i;
    }
    if (found < 0) {
      return Status::Binder(name + "() argument " + a->ToString() + " is not a GROUP BY expression");
    }
    idx.push_back(found);
  }
  if (idx.size() > 62) return Status::NotSupported(name + "() of more than 62 arguments");
  if (agg.grouping_id < 0) return expr::Literal(columnar::Value::Int64(0));
  expr::ExprPtr id = expr::ColumnRef(agg.grouping_id, columnar::Int64(), "__grouping_id", false);
  expr::ExprPtr out;
  const int m = static_cast<int>(idx.size());
  for (int j = 0; j < m; ++j) {
    // bit of group idx[j] in the id, moved to bit m-1-j of the result
    auto pow2 = [](int k) { return expr::Literal(columnar::Value::Int64(int64_t{1} << k)); };
    ASSIGN_OR_RETURN(expr::ExprPtr shifted, expr::Call("//", {id, pow2(n - 1 - idx[j])}));
    ASSIGN_OR_RETURN(expr::ExprPtr bit, expr::Call("%", {shifted, pow2(1)}));
    if (m - 1 - j > 0) {
      ASSIGN_OR_RETURN(bit, expr::Call("*", {bit, pow2(m - 1 - j)}));
    }
    if (out) {
      ASSIGN_OR_RETURN(out, expr::Call("+", {out, bit}));
    } else {
      out = bit;
    }
  }
  return out;
}

Result<LogicalPtr> PlanGroupingSets(LogicalPtr plan, AggregateState* agg) {
  const int width = static_cast<int>(plan->columns.size());
  const int n = agg->grouping_id;
  auto expand = std::make_unique<LogicalOperator>(LogicalKind::kExpand);
  expand->columns = plan->columns;
  for (int i = 0; i < n; ++i) {
    const auto& g = agg->groups[i];
    expand->columns.push_back({"__group_" + std::to_string(i), g->type, true});
  }
  expand->columns.push_back({"__grouping_id", columnar::Int64(), false});
  for (size_t si = 0; si < agg->grouping_sets.size(); ++si) {
    const auto& set = agg->grouping_sets[si];
    std::vector<expr::ExprPtr> exprs;
    for (int c = 0; c < width; ++c) {
      const auto& f = plan->columns[c];
      exprs.push_back(expr::ColumnRef(c, f.type, f.name, f.nullable));
    }
    int64_t mask = 0;
    for (int i = 0; i < n; ++i) {
      bool in = std::find(set.begin(), set.end(), i) != set.end();
      if (in) {
        exprs.push_back(agg->groups[i]);
      } else {
        exprs.push_back(expr::Literal(columnar::Value::Null(agg->groups[i]->type)));
        mask |= int64_t{1} << (n - 1 - i);
      }
    }
    exprs.push_back(expr::Literal(columnar::Value::Int64((static_cast<int64_t>(si) << n) | mask)));
    expand->expand_sets.push_back(std::move(exprs));
  }
  expand->children.push_back(std::move(plan));

  auto a = std::make_unique<LogicalOperator>(LogicalKind::kAggregate);
  for (int i = 0; i <= n; ++i) {
    const auto& g = agg->groups[i];
    std::string name = g->kind == expr::ExprKind::kColumnRef ? g->name : g->ToString();
    a->columns.push_back({name, g->type, i < n});
    const auto& f = expand->columns[width + i];
    a->groups.push_back(expr::ColumnRef(width + i, f.type, f.name, f.nullable));
  }
  for (const auto& c : agg->aggregates) a->columns.push_back({c.display, c.binding.result_type, true});
  a->aggregates = std::move(agg->aggregates);
  a->children.push_back(std::move(expand));
  return LogicalPtr(std::move(a));
}

}  // namespace shoal::sql
