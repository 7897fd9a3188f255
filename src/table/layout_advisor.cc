#include "table/layout_advisor.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

namespace shoal::table {

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

const ColumnStats* FindColumn(const TableStats& stats, const std::string& name) {
  std::string l = Lower(name);
  for (const ColumnStats& c : stats.columns) {
    if (Lower(c.name) == l) return &c;
  }
  return nullptr;
}

double Rows(const TableStats& stats) { return std::max<double>(1, static_cast<double>(stats.rows)); }

double Distinct(const TableStats& stats, const std::string& column) {
  const ColumnStats* c = FindColumn(stats, column);
  double d = c && c->distinct_estimate > 0 ? c->distinct_estimate : Rows(stats);
  return std::clamp(d, 1.0, Rows(stats));
}

double Granule(const TableStats& stats) {
  return std::clamp(static_cast<double>(std::max<int64_t>(1, stats.rows_per_granule)) / Rows(stats), 1e-12, 1.0);
}

// The term of `shape` on `column` that restricts most (lowest selectivity), or -1.
int TermOn(const QueryShape& shape, const std::vector<double>& sel, const std::string& column) {
  std::string l = Lower(column);
  int best = -1;
  for (size_t i = 0; i < shape.terms.size(); ++i) {
    if (Lower(shape.terms[i].column) != l) continue;
    if (best < 0 || sel[i] < sel[static_cast<size_t>(best)]) best = static_cast<int>(i);
  }
  return best;
}

// Single-term shapes' observed selectivity per (lowercased column, class).
std::map<std::string, double> SingleTermSelectivity(const QueryHistory& h) {
  std::map<std::string, double> out;
  for (const ShapeHistory& s : h.shapes) {
    if (s.shape.terms.size() == 1) out[s.shape.Key()] = s.avg_selectivity();
  }
  return out;
}

// Each term's selectivity: the single-term shape's when the history has it, else an even share
// of the shape's (sel^(1/n)).
std::vector<double> TermSelectivities(const ShapeHistory& s, const std::map<std::string, double>& single) {
  std::vector<double> out;
  double n = static_cast<double>(std::max<size_t>(1, s.shape.terms.size()));
  double even = std::pow(std::clamp(s.avg_selectivity(), 0.0, 1.0), 1.0 / n);
  for (const ShapeTerm& t : s.shape.terms) {
    QueryShape one;
    one.terms = {t};
    auto it = single.find(one.Key());
    out.push_back(std::clamp(it != single.end() ? it->second : even, 0.0, 1.0));
  }
  return out;
}

// Stats with distinct estimates filled in from equality filters (1 / selectivity) where the
// table statistics gave none.
TableStats WithHistoryDistincts(TableStats stats, const QueryHistory& h) {
  auto single = SingleTermSelectivity(h);
  for (ColumnStats& c : stats.columns) {
    if (c.distinct_estimate > 0) continue;
    QueryShape one;
    one.terms = {ShapeTerm{c.name, PredicateClass::kEq}};
    auto it = single.find(one.Key());
    if (it != single.end() && it->second > 0) c.distinct_estimate = std::min(Rows(stats), 1.0 / it->second);
  }
  return stats;
}

// Bytes a query of `s` would read scanning the current files whole: the observed bytes scaled up
// by the current files' read fraction, at most the table (or the observed bytes).
double BaselineBytes(const ShapeHistory& s, double current_fraction, const TableStats& stats) {
  double observed = s.avg_bytes_read();
  double table_bytes = static_cast<double>(std::max<int64_t>(0, stats.bytes));
  if (observed <= 0) return table_bytes;
  double base = observed / std::max(current_fraction, 1e-6);
  if (table_bytes > 0) base = std::min(base, std::max(table_bytes, observed));
  return std::max(base, observed);
}

struct Fraction {
  double value = 1;
  bool measured = false;
};

// The read fraction of `shape` with the files sorted by `key` (null: the current files):
// measured when `measure` can, else modelled (the current files as sorted by `current`).
Fraction ReadFractionOf(const SortKey* key, const SortKey& current, const QueryShape& shape,
                        const std::vector<double>& sel, const TableStats& stats, LayoutMeasure* measure) {
  if (measure) {
    if (auto m = measure->ReadFraction(key, shape, sel)) return {std::clamp(*m, 0.0, 1.0), true};
  }
  return {ModelReadFraction(key ? *key : current, shape, sel, stats), false};
}

// Scores `key` (null: the current files as they are) with table bytes scaled by storage_ratio.
KeyScore Score(const SortKey* key, const SortKey& current, const QueryHistory& history, const TableStats& stats,
               LayoutMeasure* measure, double storage_ratio) {
  KeyScore ks;
  ks.key = key ? *key : current;
  ks.current_order = key == nullptr;
  ks.storage_ratio = storage_ratio;
  auto single = SingleTermSelectivity(history);
  double unsorted = 0;
  for (const ShapeHistory& s : history.shapes) {
    std::vector<double> sel = TermSelectivities(s, single);
    double base = BaselineBytes(s, ReadFractionOf(nullptr, current, s.shape, sel, stats, measure).value, stats);
    Fraction f = ReadFractionOf(key, current, s.shape, sel, stats, measure);
    ShapeBenefit b;
    b.shape = s.shape.Key();
    b.count = s.count;
    b.selectivity = s.avg_selectivity();
    b.read_fraction = f.value;
    b.measured = f.measured;
    b.skipped_rows = static_cast<double>(std::max<int64_t>(0, stats.rows)) * (1 - b.read_fraction);
    b.skipped_bytes = base * (1 - b.read_fraction * storage_ratio);
    ks.score += s.count * b.skipped_bytes;
    unsorted += s.count * base;
    ks.shapes.push_back(std::move(b));
  }
  ks.skipped_fraction = unsorted > 0 ? ks.score / unsorted : 0;
  std::stable_sort(ks.shapes.begin(), ks.shapes.end(),
                   [](const ShapeBenefit& a, const ShapeBenefit& b) { return a.count > b.count; });
  return ks;
}

std::vector<std::vector<std::string>> Permutations(const std::vector<std::string>& cols, size_t k) {
  std::vector<std::vector<std::string>> out;
  std::vector<std::string> cur;
  std::vector<bool> used(cols.size(), false);
  auto rec = [&](auto&& self) -> void {
    if (cur.size() == k) {
      out.push_back(cur);
      return;
    }
    for (size_t i = 0; i < cols.size(); ++i) {
      if (used[i]) continue;
      used[i] = true;
      cur.push_back(cols[i]);
      self(self);
      cur.pop_back();
      used[i] = false;
    }
  };
  rec(rec);
  return out;
}

std::vector<std::vector<std::string>> Combinations(const std::vector<std::string>& cols, size_t k) {
  std::vector<std::vector<std::string>> out;
  for (auto& p : Permutations(cols, k)) {
    bool ordered = true;
    for (size_t i = 1; i < p.size(); ++i) {
      auto a = std::find(cols.begin(), cols.end(), p[i - 1]), b = std::find(cols.begin(), cols.end(), p[i]);
      if (a > b) ordered = false;
    }
    if (ordered) out.push_back(std::move(p));
  }
  return out;
}

}  // namespace

std::string SortKey::ToString() const {
  if (columns.empty()) return "none";
  std::string s = mode == LocalSortMode::kZOrder ? "zorder(" : "(";
  for (size_t i = 0; i < columns.size(); ++i) s += (i ? ", " : "") + columns[i];
  return s + ")";
}

double ModelReadFraction(const SortKey& key, const QueryShape& shape, const std::vector<double>& sel,
                         const TableStats& stats) {
  if (key.empty() || sel.size() != shape.terms.size()) return 1.0;
  const double g = Granule(stats);
  if (key.mode == LocalSortMode::kZOrder) {
    double cells = std::pow(1.0 / g, 1.0 / static_cast<double>(key.columns.size()));
    double read = 1;
    bool any = false;
    for (const std::string& c : key.columns) {
      int t = TermOn(shape, sel, c);
      if (t < 0) continue;
      any = true;
      read *= std::max(sel[static_cast<size_t>(t)], 1.0 / cells);
    }
    return any ? std::min(1.0, read + g) : 1.0;
  }
  // Lexicographic: F = share of rows selected so far, R = sorted runs of the next key column
  // inside the selection; each constrained column cuts every run into one piece.
  // A reader may stop using the key at any filtered column, so the best such prefix counts.
  double f = 1, runs = 1, best = 1;
  for (const std::string& c : key.columns) {
    double d = Distinct(stats, c);
    int t = TermOn(shape, sel, c);
    if (t >= 0) {
      double s = sel[static_cast<size_t>(t)];
      f *= s;
      best = std::min(best, f + runs * g);  // `runs` pieces, each costing a partial granule
      runs *= std::max(1.0, d * s);         // one run of the next column per selected value
    } else {
      runs *= d;
    }
    runs = std::min(runs, Rows(stats));
  }
  return std::min(1.0, best);
}

KeyScore ScoreKey(const SortKey& key, const QueryHistory& history, const TableStats& stats, const SortKey& current,
                  LayoutMeasure* measure) {
  return Score(&key, current, history, stats, measure, measure && !key.empty() ? measure->StorageRatio(key) : 1.0);
}

LayoutAdvice AdviseLayout(const QueryHistory& history, const TableStats& table_stats, const SortKey& current,
                          const AdvisorOptions& options, LayoutMeasure* measure) {
  LayoutAdvice advice;
  TableStats stats = WithHistoryDistincts(table_stats, history);
  advice.history_count = history.total_count;
  advice.measured = measure != nullptr;
  advice.current = Score(nullptr, current, history, stats, measure, 1.0);
  if (history.total_count < options.min_history) return advice;

  // Candidate columns by workload weight: count x baseline bytes x (1 - term selectivity).
  auto single = SingleTermSelectivity(history);
  std::map<std::string, std::pair<double, std::string>> weight;  // lower name -> (weight, name)
  for (const ShapeHistory& s : history.shapes) {
    std::vector<double> sel = TermSelectivities(s, single);
    double base = BaselineBytes(s, ReadFractionOf(nullptr, current, s.shape, sel, stats, measure).value, stats);
    for (size_t i = 0; i < s.shape.terms.size(); ++i) {
      const ColumnStats* c = FindColumn(stats, s.shape.terms[i].column);
      if (!c || !c->sortable || c->partition) continue;
      auto& w = weight[Lower(c->name)];
      w.first += s.count * std::max(base, 1.0) * (1 - sel[i]);
      w.second = c->name;
    }
  }
  std::vector<std::pair<double, std::string>> ranked_cols;
  for (auto& [l, w] : weight) {
    if (w.first > 0) ranked_cols.push_back(w);
  }
  std::stable_sort(ranked_cols.begin(), ranked_cols.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<std::string> cols;
  for (size_t i = 0; i < ranked_cols.size() && i < options.max_candidate_columns; ++i) cols.push_back(ranked_cols[i].second);
  if (cols.empty()) return advice;

  std::vector<SortKey> keys;
  std::vector<std::string> top4(cols.begin(), cols.begin() + std::min<size_t>(cols.size(), 4));
  for (size_t k = 1; k <= std::min<size_t>(options.max_key_columns, cols.size()); ++k) {
    for (auto& p : Permutations(k <= 2 ? cols : top4, k)) keys.push_back(SortKey{LocalSortMode::kLexicographic, p});
    if (k >= 2) {
      for (auto& c : Combinations(top4, k)) keys.push_back(SortKey{LocalSortMode::kZOrder, c});
    }
  }
  auto by_score = [](const KeyScore& a, const KeyScore& b) { return a.score > b.score; };
  for (const SortKey& k : keys) advice.ranked.push_back(Score(&k, current, history, stats, measure, 1.0));
  std::stable_sort(advice.ranked.begin(), advice.ranked.end(), by_score);
  if (measure) {
    // Storage is measured (a sample written out per key) only for the best keys on reads.
    advice.ranked.resize(std::min(advice.ranked.size(), std::max<size_t>(1, options.max_storage_measured)));
    for (KeyScore& k : advice.ranked) k = Score(&k.key, current, history, stats, measure, measure->StorageRatio(k.key));
    std::stable_sort(advice.ranked.begin(), advice.ranked.end(), by_score);
  }
  if (advice.ranked.empty() || advice.ranked[0].score <= 0) {
    advice.ranked.clear();
    return advice;
  }
  // Among (near-)ties prefer fewer columns, lexicographic order, then fewer distinct values in
  // front (runs of equal values compress better).
  double best = advice.ranked[0].score;
  auto simpler = [&](const KeyScore& a, const KeyScore& b) {
    if (a.key.columns.size() != b.key.columns.size()) return a.key.columns.size() < b.key.columns.size();
    if (a.key.mode != b.key.mode) return a.key.mode == LocalSortMode::kLexicographic;
    for (size_t i = 0; i < a.key.columns.size(); ++i) {
      double da = Distinct(stats, a.key.columns[i]), db = Distinct(stats, b.key.columns[i]);
      if (da != db) return da < db;
    }
    return false;
  };
  size_t tied = 0;
  while (tied < advice.ranked.size() && advice.ranked[tied].score >= best * (1 - options.tie_tolerance)) ++tied;
  std::stable_sort(advice.ranked.begin(), advice.ranked.begin() + static_cast<std::ptrdiff_t>(tied), simpler);
  return advice;
}

std::optional<KeyScore> ChooseKey(const LayoutAdvice& advice, const std::optional<SortKey>& persisted,
                                  const QueryHistory& history, const TableStats& table_stats,
                                  const AdvisorOptions& options, LayoutMeasure* measure) {
  if (advice.ranked.empty()) return std::nullopt;
  const KeyScore& best = advice.ranked[0];
  if (advice.measured && advice.current.score * options.switch_gain >= best.score) return advice.current;
  if (persisted && !persisted->empty()) {
    TableStats stats = WithHistoryDistincts(table_stats, history);
    KeyScore kept = ScoreKey(*persisted, history, stats, advice.current.key, measure);
    if (kept.score * options.switch_gain >= best.score) return kept;
  }
  return best;
}

}  // namespace shoal::table
