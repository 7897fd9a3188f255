#include "scan/row_group_pruner.h"

#include <algorithm>
#include <map>

#include "expr/can_match.h"
#include "expr/cast.h"
#include "expr/evaluate.h"
#include "parquet/bloom_probe.h"
#include "parquet/dictionary_probe.h"
#include "parquet/statistics.h"
#include "scan/column_adapter.h"
#include "scan/file_stats.h"

namespace shoal::scan {

using columnar::TypeId;
using columnar::Value;
using expr::Expr;
using expr::ExprKind;
using expr::ExprPtr;

PruneCounters& PruneCounters::operator+=(const PruneCounters& o) {
  row_groups_pruned_stats += o.row_groups_pruned_stats;
  row_groups_pruned_page_index += o.row_groups_pruned_page_index;
  row_groups_pruned_dictionary += o.row_groups_pruned_dictionary;
  row_groups_pruned_bloom += o.row_groups_pruned_bloom;
  pages_total += o.pages_total;
  pages_pruned_index += o.pages_pruned_index;
  rows_pruned_index += o.rows_pruned_index;
  bytes_read += o.bytes_read;
  return *this;
}

// What the constructor learned about one conjunct.
struct RowGroupPruner::Conjunct {
  std::vector<int> columns;  // output columns it reads
  ExprPtr on_single;         // when it reads one column: the conjunct over batch column 0
  // Bloom: `column = v` or `column IN (v...)` (column possibly under injective casts, undone
  // on the values here); values typed as the output column. bloom_column < 0: not of this form.
  int bloom_column = -1;
  std::vector<Value> bloom_values;
};

namespace {

// Functions whose result differs between calls; a dictionary verdict on them means nothing.
bool IsVolatile(const Expr& e) {
  bool v = false;
  expr::Visit(e, [&](const Expr& n) {
    if (n.kind != ExprKind::kFunction) return;
    const std::string& f = n.name;
    if (f == "random" || f == "rand" || f == "uuid" || f == "gen_random_uuid" || f == "setseed") v = true;
  });
  return v;
}

// Whether CAST(from -> to) maps distinct values to distinct values and can be undone exactly.
bool InjectiveCast(const columnar::TypePtr& from, const columnar::TypePtr& to) {
  TypeId f = from->id(), t = to->id();
  if (from->IsInteger() && (to->IsInteger() || t == TypeId::kDecimal)) return true;
  if (f == TypeId::kFloat && t == TypeId::kDouble) return true;
  if (f == TypeId::kDate && (t == TypeId::kTimestamp || t == TypeId::kTimestampNtz)) return true;
  return false;
}

// Peels injective casts off `e` down to a column reference; `casts` gets the cast nodes,
// outermost first. False when `e` is not of that form.
bool PeelToColumn(const Expr& e, const Expr** column, std::vector<const Expr*>* casts) {
  const Expr* cur = &e;
  while (cur->kind == ExprKind::kCast && !cur->try_cast) {
    if (!InjectiveCast(cur->args[0]->type, cur->type)) return false;
    casts->push_back(cur);
    cur = cur->args[0].get();
  }
  if (cur->kind != ExprKind::kColumnRef) return false;
  *column = cur;
  return true;
}

// The value of the column's type whose casts equal `v`; nullopt when none does exactly.
std::optional<Value> UndoCasts(const Value& v, const std::vector<const Expr*>& casts) {
  Value cur = v;
  for (const Expr* c : casts) {  // outermost first
    const columnar::TypePtr& from = c->args[0]->type;
    auto back = expr::CastValue(cur, from, false, c->zone);  // DATE <-> TIMESTAMP in the cast's zone
    if (!back.ok()) return std::nullopt;
    auto again = expr::CastValue(*back, c->type, false, c->zone);
    if (!again.ok() || !(*again == cur)) return std::nullopt;
    cur = *back;
  }
  return cur;
}

// A decoded bound in the form Value::Compare expects. parquet::DecodeBound returns DECIMAL on
// INT64 with precision <= 18 (Conversion::kNone) in integer storage, which compares wrongly
// against decimal literals; rebuild it as a decimal.
// The statistics of a column chunk as CanMatch bounds in the table column's type.
std::optional<expr::ColumnStats> ChunkStats(const parquet::ParquetReader& r, int rg, int leaf_index,
                                            const columnar::TypePtr& type) {
  const parquet::LeafColumn& leaf = r.parquet_schema().leaves()[leaf_index];
  const parquet::Statistics* raw = r.column_statistics(rg, leaf_index);
  if (!raw) return std::nullopt;
  std::optional<parquet::ColumnOrder> order;
  if (leaf.index < static_cast<int>(r.metadata().column_orders.size())) order = r.metadata().column_orders[leaf.index];
  auto decoded = parquet::DecodeStatistics(*raw, leaf, r.metadata().schema[leaf.element_index], order);
  if (!decoded.ok()) return std::nullopt;  // unusable statistics never prune
  expr::ColumnStats cs;
  cs.row_count = r.row_group_num_rows(rg);
  cs.null_count = decoded->null_count;
  if (decoded->min && decoded->max) {
    cs.min = AdaptBound(*decoded->min, type);
    cs.max = AdaptBound(*decoded->max, type);
    if (!cs.min || !cs.max) cs.min.reset(), cs.max.reset();
  }
  if (decoded->nan_count && *decoded->nan_count == 0) cs.may_have_nan = false;
  return cs;
}

// CanMatch statistics by output column through pointers, so a segment of the page index
// swaps one column's page without copying bounds.
class PointerStatsProvider final : public expr::ColumnStatsProvider {
 public:
  explicit PointerStatsProvider(size_t n) : stats_(n, nullptr) {}
  const expr::ColumnStats* Stats(int column) const override {
    if (column < 0 || column >= static_cast<int>(stats_.size())) return nullptr;
    return stats_[column];
  }
  void Set(int column, const expr::ColumnStats* s) { stats_[column] = s; }

 private:
  std::vector<const expr::ColumnStats*> stats_;
};

// The page index of one filter column in one row group, as per-page CanMatch statistics.
struct ColumnPages {
  int column = -1;
  std::vector<int64_t> first_row;  // per page, strictly increasing from 0
  std::vector<expr::ColumnStats> stats;
};

// Loads and decodes the page index of output column `j` (leaf `leaf_index`); nullopt when the
// chunk has none or it is unusable.
std::optional<ColumnPages> LoadColumnPages(const parquet::ParquetReader& r, int rg, int j, int leaf_index,
                                           const columnar::TypePtr& type, parquet::ReadStats* io) {
  const parquet::LeafColumn& leaf = r.parquet_schema().leaves()[leaf_index];
  if (leaf.max_rep > 0) return std::nullopt;  // pages of repeated leaves do not split rows alone
  auto oi = r.ReadOffsetIndex(rg, leaf_index, io);
  if (!oi.ok() || !oi->has_value()) return std::nullopt;
  auto ci = r.ReadColumnIndex(rg, leaf_index, io);
  if (!ci.ok() || !ci->has_value()) return std::nullopt;
  const parquet::OffsetIndex& offsets = **oi;
  const parquet::ColumnIndex& index = **ci;
  size_t n = offsets.page_locations.size();
  int64_t rows = r.row_group_num_rows(rg);
  if (n == 0 || index.null_pages.size() != n || index.min_values.size() != n || index.max_values.size() != n ||
      (index.null_counts && index.null_counts->size() != n) || (index.nan_counts && index.nan_counts->size() != n)) {
    return std::nullopt;
  }
  ColumnPages out;
  out.column = j;
  int64_t prev = -1;
  for (size_t i = 0; i < n; ++i) {
    int64_t f = offsets.page_locations[i].first_row_index;
    if ((i == 0 && f != 0) || f <= prev || f >= rows) return std::nullopt;
    out.first_row.push_back(f);
    prev = f;
  }
  std::optional<parquet::ColumnOrder> order;
  if (leaf.index < static_cast<int>(r.metadata().column_orders.size())) order = r.metadata().column_orders[leaf.index];
  const parquet::SchemaElement& element = r.metadata().schema[leaf.element_index];
  out.stats.resize(n);
  for (size_t i = 0; i < n; ++i) {
    expr::ColumnStats& cs = out.stats[i];
    int64_t page_rows = (i + 1 < n ? out.first_row[i + 1] : rows) - out.first_row[i];
    cs.row_count = page_rows;
    if (index.null_counts) {
      int64_t nc = (*index.null_counts)[i];
      if (nc >= 0 && nc <= page_rows) cs.null_count = nc;
    }
    if (index.null_pages[i]) {
      cs.null_count = page_rows;
      continue;
    }
    if (cs.null_count && *cs.null_count >= page_rows) cs.null_count.reset();  // contradicts null_pages
    parquet::Statistics s;
    s.min_value = index.min_values[i];
    s.max_value = index.max_values[i];
    auto decoded = parquet::DecodeStatistics(s, leaf, element, order);
    if (decoded.ok() && decoded->min && decoded->max) {
      cs.min = AdaptBound(*decoded->min, type);
      cs.max = AdaptBound(*decoded->max, type);
      if (!cs.min || !cs.max) cs.min.reset(), cs.max.reset();
    }
    if (index.nan_counts && (*index.nan_counts)[i] == 0) cs.may_have_nan = false;
  }
  return out;
}

// Sets *bloom_column and *bloom_values when `e` is `column = literal` or
// `column IN (literals)`; leaves them alone otherwise.
void FillBloom(const Expr& e, int* bloom_column, std::vector<Value>* bloom_values) {
  std::vector<const Expr*> casts;
  const Expr* column = nullptr;
  std::vector<Value> literals;
  if (e.kind == ExprKind::kFunction && e.name == "=" && e.args.size() == 2) {
    const Expr* a = e.args[0].get();
    const Expr* b = e.args[1].get();
    if (a->IsLiteral()) std::swap(a, b);
    if (!b->IsLiteral() || !PeelToColumn(*a, &column, &casts)) return;
    literals.push_back(b->value);
  } else if (e.kind == ExprKind::kIn && !e.negated) {
    if (!PeelToColumn(*e.args[0], &column, &casts)) return;
    for (size_t i = 1; i < e.args.size(); ++i) {
      if (!e.args[i]->IsLiteral()) return;
      literals.push_back(e.args[i]->value);
    }
  } else {
    return;
  }
  std::vector<Value> values;
  for (const Value& lit : literals) {
    if (lit.is_null()) continue;  // `= NULL` is never TRUE
    const Expr* outer = casts.empty() ? column : casts.front();
    if (!lit.type()->Equals(*outer->type)) return;
    auto v = UndoCasts(lit, casts);
    if (!v) return;  // not exactly representable: leave it to the other levels
    values.push_back(std::move(*v));
  }
  *bloom_column = column->column;
  *bloom_values = std::move(values);
}

}  // namespace

RowGroupPruner::RowGroupPruner(std::vector<ExprPtr> conjuncts, std::vector<PrunerColumn> columns,
                               PruneOptions options)
    : conjuncts_(std::move(conjuncts)), columns_(std::move(columns)), options_(options) {
  if (conjuncts_.size() == 1) {
    filter_ = conjuncts_[0];
  } else if (conjuncts_.size() > 1) {
    auto a = expr::And(conjuncts_);
    if (a.ok()) filter_ = *a;
  }
  for (const ExprPtr& c : conjuncts_) {
    Conjunct a;
    a.columns = expr::CollectColumns(*c);
    bool in_range = true;
    for (int col : a.columns) {
      if (col < 0 || col >= static_cast<int>(columns_.size())) in_range = false;
    }
    if (!in_range) a.columns.clear();
    if (in_range && a.columns.size() == 1 && !IsVolatile(*c)) {
      std::vector<int> mapping(columns_.size(), -1);
      mapping[a.columns[0]] = 0;
      auto remapped = expr::RemapColumns(c, mapping);
      if (remapped.ok()) a.on_single = *remapped;
    }
    if (in_range) FillBloom(*c, &a.bloom_column, &a.bloom_values);
    for (int col : a.columns) {
      if (std::find(filter_columns_.begin(), filter_columns_.end(), col) == filter_columns_.end()) {
        filter_columns_.push_back(col);
      }
    }
    analyzed_.push_back(std::move(a));
  }
  std::sort(filter_columns_.begin(), filter_columns_.end());
}

RowGroupPruner::~RowGroupPruner() = default;

Result<RowGroupVerdict> RowGroupPruner::Evaluate(const parquet::ParquetReader& reader, int rg) const {
  if (rg < 0 || rg >= reader.num_row_groups()) {
    return Status::InvalidArgument(reader.path() + ": no row group " + std::to_string(rg));
  }
  RowGroupVerdict v;
  const int64_t rows = reader.row_group_num_rows(rg);
  v.rows = parquet::RowRanges::All(rows);
  if (!filter_) return v;
  const int num_leaves = reader.parquet_schema().num_leaves();
  auto leaf_of = [&](int j) -> int {
    const PrunerColumn& c = columns_[j];
    if (c.constant || c.absent || c.leaf < 0 || c.leaf >= num_leaves) return -1;
    const parquet::LeafColumn& leaf = reader.parquet_schema().leaves()[c.leaf];
    if (leaf.path.size() != 1 || leaf.max_rep > 0) return -1;  // only top-level primitives
    return c.leaf;
  };

  // Level 3: row-group statistics (also the fallback bounds for the page index).
  std::vector<std::optional<expr::ColumnStats>> chunk(columns_.size());
  for (int j : filter_columns_) {
    const PrunerColumn& c = columns_[j];
    expr::ColumnStats cs;
    cs.row_count = rows;
    if (c.constant) {
      cs.null_count = c.constant->is_null() ? rows : 0;
      if (!c.constant->is_null()) cs.min = cs.max = *c.constant;
      cs.may_have_nan = false;
      chunk[j] = std::move(cs);
    } else if (c.absent) {
      cs.null_count = rows;
      chunk[j] = std::move(cs);
    } else if (leaf_of(j) >= 0 && options_.stats) {
      chunk[j] = ChunkStats(reader, rg, c.leaf, c.type);
    }
  }
  if (options_.stats || rows == 0) {
    VectorStatsProvider provider(chunk);
    if (rows == 0 || expr::CanMatch(*filter_, provider) == expr::TriState::kFalse) {
      v.skip = true;
      v.rows = {};
      v.counters.row_groups_pruned_stats = 1;
      return v;
    }
  }

  parquet::ReadStats io;
  auto finish = [&](RowGroupVerdict* out) {
    out->counters.bytes_read = io.bytes_read;
    if (out->skip) out->rows = {};
  };

  // Level 4: page index. Elementary segments between every page boundary of every indexed
  // filter column; a segment survives when the filter can match with each column's page stats.
  if (options_.page_index) {
    std::vector<ColumnPages> pages;
    for (int j : filter_columns_) {
      int leaf = leaf_of(j);
      if (leaf < 0) continue;
      auto p = LoadColumnPages(reader, rg, j, leaf, columns_[j].type, &io);
      if (p) pages.push_back(std::move(*p));
    }
    if (!pages.empty()) {
      std::vector<int64_t> bounds;
      for (const ColumnPages& p : pages) bounds.insert(bounds.end(), p.first_row.begin(), p.first_row.end());
      std::sort(bounds.begin(), bounds.end());
      bounds.erase(std::unique(bounds.begin(), bounds.end()), bounds.end());
      PointerStatsProvider provider(columns_.size());
      for (int j : filter_columns_) provider.Set(j, chunk[j] ? &*chunk[j] : nullptr);
      std::vector<size_t> cursor(pages.size(), 0);
      std::vector<std::vector<bool>> page_kept(pages.size());
      for (size_t k = 0; k < pages.size(); ++k) page_kept[k].assign(pages[k].first_row.size(), false);
      std::vector<parquet::RowRange> kept;
      for (size_t b = 0; b < bounds.size(); ++b) {
        int64_t begin = bounds[b], end = b + 1 < bounds.size() ? bounds[b + 1] : rows;
        for (size_t k = 0; k < pages.size(); ++k) {
          const ColumnPages& p = pages[k];
          while (cursor[k] + 1 < p.first_row.size() && p.first_row[cursor[k] + 1] <= begin) ++cursor[k];
          provider.Set(p.column, &p.stats[cursor[k]]);
        }
        if (expr::CanMatch(*filter_, provider) == expr::TriState::kFalse) continue;
        kept.push_back({begin, end});
        for (size_t k = 0; k < pages.size(); ++k) page_kept[k][cursor[k]] = true;
      }
      v.rows = parquet::RowRanges::FromIntervals(std::move(kept));
      for (size_t k = 0; k < pages.size(); ++k) {
        v.counters.pages_total += static_cast<int64_t>(page_kept[k].size());
        v.counters.pages_pruned_index += std::count(page_kept[k].begin(), page_kept[k].end(), false);
      }
      v.counters.rows_pruned_index = rows - v.rows.Count();
      if (v.rows.empty()) {
        v.skip = true;
        v.counters.row_groups_pruned_page_index = 1;
        finish(&v);
        return v;
      }
    }
  }

  // Level 5: dictionaries. A conjunct on one column that neither any dictionary entry nor
  // (where the chunk has NULLs) NULL satisfies rules the row group out.
  if (options_.dictionary) {
    std::map<int, std::optional<parquet::ChunkDictionary>> dicts;  // by leaf
    expr::EvalContext ctx;
    std::vector<uint32_t> sel;
    for (const Conjunct& c : analyzed_) {
      if (!c.on_single) continue;
      int j = c.columns[0];
      int leaf = leaf_of(j);
      if (leaf < 0) continue;
      auto it = dicts.find(leaf);
      if (it == dicts.end()) {
        auto d = parquet::ReadChunkDictionary(reader, rg, leaf, &io, options_.max_dictionary_bytes);
        it = dicts.emplace(leaf, d.ok() ? std::move(*d) : std::nullopt).first;
      }
      if (!it->second) continue;
      const parquet::ChunkDictionary& d = *it->second;
      if (d.values->size() > options_.max_dictionary_entries) continue;
      TableColumn tc;
      tc.type = columns_[j].type;
      // AdaptColumn may consume its input, and the dictionary may serve several conjuncts.
      auto adapted = AdaptColumn(d.values->Slice(0, d.values->size()), tc);
      if (!adapted.ok()) continue;
      columnar::VectorPtr vec = *adapted;
      if (d.may_have_nulls) vec->AppendNull();
      auto schema = std::make_shared<columnar::Schema>();
      schema->fields.push_back({"v", columns_[j].type, true});
      columnar::RecordBatch batch(schema, {vec}, vec->size());
      auto n = expr::EvaluateFilter(*c.on_single, batch, ctx, &sel);
      if (!n.ok()) continue;  // an error on some entry proves nothing
      if (*n == 0) {
        v.skip = true;
        v.counters.row_groups_pruned_dictionary = 1;
        finish(&v);
        return v;
      }
    }
  }

  // Level 6: Bloom filters for `=` / `IN`.
  if (options_.bloom) {
    std::map<int, std::optional<parquet::BloomFilter>> blooms;  // by leaf
    for (const Conjunct& c : analyzed_) {
      if (c.bloom_column < 0) continue;
      int j = c.bloom_column;
      int leaf_index = leaf_of(j);
      if (leaf_index < 0) continue;
      const parquet::LeafColumn& leaf = reader.parquet_schema().leaves()[leaf_index];
      // Every value in the file's type, exactly; else this conjunct cannot use the filter.
      std::vector<uint64_t> hashes;
      bool usable = true;
      for (const Value& val : c.bloom_values) {
        std::optional<Value> in_file;
        bool ts = [](TypeId a, TypeId b) {
          return (a == TypeId::kTimestamp || a == TypeId::kTimestampNtz) &&
                 (b == TypeId::kTimestamp || b == TypeId::kTimestampNtz);
        }(val.type()->id(), leaf.type->id());
        if (val.type()->Equals(*leaf.type)) {
          in_file = val;
        } else if (ts) {
          in_file = Value::Integer(leaf.type, val.GetInt());
        } else {
          auto cast = expr::CastValue(val, leaf.type);
          if (cast.ok()) {
            auto back = AdaptBound(*cast, val.type());
            if (back && *back == val) in_file = *cast;
          }
        }
        if (!in_file) {
          usable = false;
          break;
        }
        auto h = parquet::BloomHashesForValue(*in_file, leaf);
        if (!h) {
          usable = false;
          break;
        }
        hashes.insert(hashes.end(), h->begin(), h->end());
      }
      if (!usable) continue;
      auto it = blooms.find(leaf_index);
      if (it == blooms.end()) {
        auto f = parquet::ReadChunkBloomFilter(reader, rg, leaf_index, &io);
        it = blooms.emplace(leaf_index, f.ok() ? std::move(*f) : std::nullopt).first;
      }
      if (!it->second) continue;
      bool any = false;
      for (uint64_t h : hashes) {
        if (it->second->Check(h)) {
          any = true;
          break;
        }
      }
      if (!any) {
        v.skip = true;
        v.counters.row_groups_pruned_bloom = 1;
        finish(&v);
        return v;
      }
    }
  }
  finish(&v);
  return v;
}

}  // namespace shoal::scan
