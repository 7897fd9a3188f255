#include "table/layout_measure.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "io/memory_file_system.h"
#include "parquet/file_writer.h"
#include "table/local_sort_key.h"
#include "table/local_sort_zorder.h"

namespace shoal::table {

namespace {

constexpr int32_t kNoValue = -1;  // rank of NULL
constexpr size_t kMaxInValues = 64;
constexpr int kAnchorDraws = 64;

}  // namespace

// Dense ranks of one column's values (equal values, equal rank; order of the values), NULL = -1.
struct SampleLayoutMeasure::ColumnRanks {
  std::vector<int32_t> rank;    // per sample row
  std::vector<int64_t> below;   // below[r]: non-null rows with rank < r; size distinct + 1
  std::vector<uint32_t> nonnull_rows;
  int64_t nonnull() const { return below.empty() ? 0 : below.back(); }
  int64_t count(int32_t r) const { return below[static_cast<size_t>(r) + 1] - below[static_cast<size_t>(r)]; }
  // The rank at position p of the non-null values in sorted order.
  int32_t RankAt(int64_t p) const {
    return static_cast<int32_t>(std::upper_bound(below.begin(), below.end(), p) - below.begin()) - 1;
  }
};

struct SampleLayoutMeasure::Layout {
  bool ok = false;
  std::vector<uint32_t> order;   // sample rows in layout order
  std::vector<int64_t> bounds;   // granule g = order[bounds[g], bounds[g+1])
  struct Stat {
    int32_t min = std::numeric_limits<int32_t>::max();
    int32_t max = kNoValue;
    bool nulls = false;
  };
  std::map<int, std::vector<Stat>> stats;  // per column, per granule (filled on demand)
};

// One term of a synthetic query: a set of values, a closed range of ranks, or IS NULL.
struct SampleLayoutMeasure::Term {
  enum Kind { kValues, kRange, kNull } kind = kValues;
  int column = 0;
  std::vector<int32_t> values;
  int32_t lo = 0, hi = 0;
};

SampleLayoutMeasure::SampleLayoutMeasure(LayoutSample sample, const SampleMeasureOptions& options)
    : sample_(std::move(sample)), options_(options) {
  const int64_t n = std::max<int64_t>(1, sample_.rows.num_rows);
  const double table_rows = static_cast<double>(options_.table_rows > 0 ? options_.table_rows : n);
  const double scale = static_cast<double>(n) / std::max(1.0, table_rows);
  granule_rows_ = std::max<int64_t>(std::max<int64_t>(1, options_.min_granule_rows),
                                    std::llround(static_cast<double>(std::max<int64_t>(1, options_.rows_per_granule)) * scale));
  unit_rows_ = n;
  if (options_.rows_per_file > 0 && static_cast<double>(options_.rows_per_file) < table_rows) {
    unit_rows_ = std::max<int64_t>(granule_rows_, std::llround(static_cast<double>(options_.rows_per_file) * scale));
  }
}

SampleLayoutMeasure::~SampleLayoutMeasure() = default;

int SampleLayoutMeasure::Column(const std::string& name) const {
  const auto& fields = sample_.rows.schema->fields;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (SameColumnName(fields[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

const SampleLayoutMeasure::ColumnRanks& SampleLayoutMeasure::Ranks(int column) {
  auto& slot = ranks_[column];
  if (slot) return *slot;
  slot = std::make_unique<ColumnRanks>();
  ColumnRanks& cr = *slot;
  const int64_t n = sample_.rows.num_rows;
  const columnar::VectorPtr& v = sample_.rows.column(static_cast<size_t>(column));
  cr.rank.assign(static_cast<size_t>(n), kNoValue);
  cr.below.push_back(0);
  auto schema = std::make_shared<columnar::Schema>();
  schema->fields.push_back(sample_.rows.schema->fields[static_cast<size_t>(column)]);
  columnar::RecordBatch one(schema, {v}, n);
  auto enc = SortKeyEncoder::Make(*schema, {{0, false, true}});
  if (!enc.ok()) return cr;  // unsortable: every row unranked (as NULL)
  KeyRows keys = enc->Encode(one);
  std::vector<uint32_t> perm = SortKeyRows(keys);
  std::vector<int64_t> counts;  // per rank
  int64_t prev = -1;
  for (uint32_t row : perm) {
    if (v->IsNull(row)) continue;
    if (prev < 0 || CompareKeyRows(keys, prev, keys, row) != 0) counts.push_back(0);
    ++counts.back();
    cr.rank[row] = static_cast<int32_t>(counts.size()) - 1;
    prev = row;
  }
  for (int64_t c : counts) cr.below.push_back(cr.below.back() + c);
  for (int64_t i = 0; i < n; ++i) {
    if (cr.rank[static_cast<size_t>(i)] != kNoValue) cr.nonnull_rows.push_back(static_cast<uint32_t>(i));
  }
  return cr;
}

SampleLayoutMeasure::Layout* SampleLayoutMeasure::LayoutOf(const SortKey* key) {
  const std::string name = key ? key->ToString() : "";
  auto& slot = layouts_[name];
  if (slot) return slot->ok ? slot.get() : nullptr;
  slot = std::make_unique<Layout>();
  Layout& l = *slot;
  const int64_t n = sample_.rows.num_rows;
  if (!key) {
    // The current files: granules as the sample recorded them.
    for (int64_t i = 0; i < n; ++i) {
      l.order.push_back(static_cast<uint32_t>(i));
      if (i == 0 || sample_.granule[static_cast<size_t>(i)] != sample_.granule[static_cast<size_t>(i - 1)]) {
        l.bounds.push_back(i);
      }
    }
    l.bounds.push_back(n);
    l.ok = n > 0;
    return l.ok ? &l : nullptr;
  }
  // The key's columns as their own batch, as LocalSort's ExternalSorter sees them.
  auto key_schema = std::make_shared<columnar::Schema>();
  std::vector<columnar::VectorPtr> key_cols;
  std::vector<SortColumn> sort_cols;
  for (const std::string& c : key->columns) {
    int i = Column(c);
    if (i < 0) return nullptr;
    sort_cols.push_back(SortColumn{static_cast<int>(key_cols.size()), false, true});
    key_schema->fields.push_back(sample_.rows.schema->fields[static_cast<size_t>(i)]);
    key_cols.push_back(sample_.rows.column(static_cast<size_t>(i)));
  }
  if (sort_cols.empty()) return nullptr;
  columnar::RecordBatch keys(key_schema, std::move(key_cols), n);
  std::optional<SortKeyEncoder> lex;
  if (key->mode == LocalSortMode::kLexicographic) {
    auto e = SortKeyEncoder::Make(*key_schema, sort_cols);
    if (!e.ok()) return nullptr;
    lex.emplace(std::move(*e));
  }
  // Each file is sorted on its own; the z-order boundaries come from the file's rows.
  for (int64_t start = 0; start < n; start += unit_rows_) {
    const int64_t len = std::min(unit_rows_, n - start);
    columnar::BatchPtr unit = columnar::SliceBatch(keys, start, len);
    KeyRows rows;
    if (lex) {
      rows = lex->Encode(*unit);
    } else {
      auto z = ZOrderKeyEncoder::Make(*key_schema, sort_cols, *unit);
      if (!z.ok()) return nullptr;
      rows = z->Encode(*unit);
    }
    std::vector<uint32_t> perm = SortKeyRows(rows);
    for (int64_t g = 0; g < len; g += granule_rows_) l.bounds.push_back(start + g);
    for (uint32_t p : perm) l.order.push_back(static_cast<uint32_t>(start + p));
  }
  l.bounds.push_back(n);
  l.ok = n > 0;
  return l.ok ? &l : nullptr;
}

const std::vector<SampleLayoutMeasure::Trial>* SampleLayoutMeasure::Trials(const QueryShape& shape,
                                                                            const std::vector<double>& sel) {
  auto found = trials_.find(shape.Key());
  if (found != trials_.end()) return found->second.empty() ? nullptr : &found->second;
  std::vector<Trial>& out = trials_[shape.Key()];
  const int64_t n = sample_.rows.num_rows;
  if (n == 0 || sel.size() != shape.terms.size()) return nullptr;
  std::vector<int> cols;
  for (const ShapeTerm& t : shape.terms) {
    int c = Column(t.column);
    if (c < 0) return nullptr;
    cols.push_back(c);
  }
  std::mt19937_64 rng(options_.seed ^ std::hash<std::string>()(shape.Key()));
  auto uniform = [&](int64_t bound) {  // [0, bound)
    return bound <= 1 ? int64_t{0} : static_cast<int64_t>(rng() % static_cast<uint64_t>(bound));
  };
  for (int trial = 0; trial < options_.trials; ++trial) {
    // One anchor row, non-null in every valued term, so the conjunction has an answer.
    int64_t anchor = -1;
    for (int d = 0; d < kAnchorDraws && anchor < 0; ++d) {
      int64_t row = uniform(n);
      bool ok = true;
      for (size_t i = 0; i < shape.terms.size(); ++i) {
        if (shape.terms[i].op != PredicateClass::kIsNull && Ranks(cols[i]).rank[static_cast<size_t>(row)] == kNoValue) {
          ok = false;
        }
      }
      if (ok) anchor = row;
    }
    if (anchor < 0) continue;
    Trial t;
    for (size_t i = 0; i < shape.terms.size(); ++i) {
      const ColumnRanks& cr = Ranks(cols[i]);
      Term term;
      term.column = cols[i];
      const double target = std::clamp(sel[i], 0.0, 1.0) * static_cast<double>(n);
      switch (shape.terms[i].op) {
        case PredicateClass::kIsNull:
          term.kind = Term::kNull;
          break;
        case PredicateClass::kEq: {
          // The anchor's value, then further sampled values while the selectivity is not covered.
          term.kind = Term::kValues;
          int32_t r = cr.rank[static_cast<size_t>(anchor)];
          term.values.push_back(r);
          double covered = static_cast<double>(cr.count(r));
          // Bounded draws: the sample may hold fewer distinct values (or non-null rows) than the
          // recorded selectivity asks for.
          const size_t distinct = cr.below.size() - 1;
          for (int draws = 0; covered < 0.75 * target && term.values.size() < std::min(kMaxInValues, distinct) &&
                              !cr.nonnull_rows.empty() && draws < 16 * static_cast<int>(kMaxInValues);
               ++draws) {
            int32_t v = cr.rank[cr.nonnull_rows[static_cast<size_t>(uniform(static_cast<int64_t>(cr.nonnull_rows.size())))]];
            if (std::find(term.values.begin(), term.values.end(), v) != term.values.end()) continue;
            term.values.push_back(v);
            covered += static_cast<double>(cr.count(v));
          }
          break;
        }
        case PredicateClass::kRange:
        case PredicateClass::kPrefix: {
          // A window of the sorted values, `target` rows wide, containing the anchor's value.
          term.kind = Term::kRange;
          const int64_t nn = cr.nonnull();
          const int64_t w = std::clamp<int64_t>(std::llround(target), 1, std::max<int64_t>(1, nn));
          int32_t r = cr.rank[static_cast<size_t>(anchor)];
          int64_t pos = cr.below[static_cast<size_t>(r)] + uniform(cr.count(r));
          int64_t start = std::clamp<int64_t>(pos - uniform(w), 0, std::max<int64_t>(0, nn - w));
          term.lo = cr.RankAt(start);
          term.hi = cr.RankAt(std::min(nn - 1, start + w - 1));
          break;
        }
      }
      t.push_back(std::move(term));
    }
    out.push_back(std::move(t));
  }
  return out.empty() ? nullptr : &out;
}

double SampleLayoutMeasure::Evaluate(Layout& layout, const Trial& trial) {
  const size_t granules = layout.bounds.size() - 1;
  for (const Term& t : trial) {
    auto& stats = layout.stats[t.column];
    if (!stats.empty()) continue;
    const ColumnRanks& cr = Ranks(t.column);
    stats.resize(granules);
    for (size_t g = 0; g < granules; ++g) {
      Layout::Stat& s = stats[g];
      for (int64_t p = layout.bounds[g]; p < layout.bounds[g + 1]; ++p) {
        int32_t r = cr.rank[layout.order[static_cast<size_t>(p)]];
        if (r == kNoValue) {
          s.nulls = true;
        } else {
          s.min = std::min(s.min, r);
          s.max = std::max(s.max, r);
        }
      }
    }
  }
  int64_t read = 0;
  for (size_t g = 0; g < granules; ++g) {
    bool match = true;
    for (const Term& t : trial) {
      const Layout::Stat& s = layout.stats[t.column][g];
      bool may = false;
      switch (t.kind) {
        case Term::kNull:
          may = s.nulls;
          break;
        case Term::kValues:
          for (int32_t v : t.values) may = may || (s.min <= v && v <= s.max);
          break;
        case Term::kRange:
          may = s.min <= t.hi && t.lo <= s.max;
          break;
      }
      if (!may) {
        match = false;
        break;
      }
    }
    if (match) read += layout.bounds[g + 1] - layout.bounds[g];
  }
  return static_cast<double>(read) / static_cast<double>(std::max<int64_t>(1, sample_.rows.num_rows));
}

std::optional<double> SampleLayoutMeasure::ReadFraction(const SortKey* key, const QueryShape& shape,
                                                        const std::vector<double>& sel) {
  const std::string memo = (key ? key->ToString() : "") + '\n' + shape.Key();
  if (auto found = fractions_.find(memo); found != fractions_.end()) return found->second;
  std::optional<double>& out = fractions_[memo];
  out = MeasureReadFraction(key, shape, sel);
  return out;
}

std::optional<double> SampleLayoutMeasure::MeasureReadFraction(const SortKey* key, const QueryShape& shape,
                                                               const std::vector<double>& sel) {
  const std::vector<Trial>* trials = Trials(shape, sel);
  if (!trials) return std::nullopt;
  if (key && key->empty()) return std::nullopt;  // "unsorted" is not an order the sample can show
  Layout* layout = LayoutOf(key);
  if (!layout) return std::nullopt;
  double sum = 0;
  for (const Trial& t : *trials) sum += Evaluate(*layout, t);
  return sum / static_cast<double>(trials->size());
}

std::optional<int64_t> SampleLayoutMeasure::WrittenBytes(const std::vector<uint32_t>& order) {
  auto fs = std::make_shared<io::MemoryFileSystem>();
  parquet::WriterProperties::Builder b;
  b.compression(options_.codec).data_page_rows(granule_rows_).max_row_group_rows(std::max<int64_t>(1, unit_rows_));
  auto w = parquet::ParquetWriter::Open(fs, "/sample.parquet", *sample_.rows.schema, b.Build());
  if (!w.ok()) return std::nullopt;
  columnar::BatchPtr sorted = columnar::GatherBatch(sample_.rows, order.data(), static_cast<int64_t>(order.size()));
  if (!(*w)->WriteBatch(*sorted).ok() || !(*w)->Close().ok()) return std::nullopt;
  auto info = fs->Stat("/sample.parquet");
  if (!info.ok() || info->size <= 0) return std::nullopt;
  return info->size;
}

double SampleLayoutMeasure::StorageRatio(const SortKey& key) {
  if (key.empty()) return 1.0;
  auto found = storage_.find(key.ToString());
  if (found != storage_.end()) return found->second;
  double& ratio = storage_[key.ToString()];
  ratio = 1.0;
  if (!current_bytes_) {
    Layout* current = LayoutOf(nullptr);
    current_bytes_ = current ? WrittenBytes(current->order).value_or(0) : 0;
  }
  Layout* layout = LayoutOf(&key);
  if (!layout || *current_bytes_ <= 0) return ratio;
  if (auto bytes = WrittenBytes(layout->order)) ratio = static_cast<double>(*bytes) / static_cast<double>(*current_bytes_);
  return ratio;
}

}  // namespace shoal::table
