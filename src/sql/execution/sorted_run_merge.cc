#include "sql/execution/sorted_run_merge.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "columnar/value.h"
#include "expr/physical_type.h"

namespace shoal::sql {

using columnar::TypeId;
using columnar::Vector;

namespace {

template <typename T>
int Cmp(T a, T b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

int CmpDouble(double a, double b) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return Cmp(a, b);
}

int CmpValues(const Vector& a, int64_t i, const Vector& b, int64_t j) {
  const auto& t = *a.type();
  if (t.id() == TypeId::kNull) return 0;
  if (t.IsStringLike()) {
    const std::string_view x = a.GetString(i), y = b.GetString(j);
    const size_t common = std::min(x.size(), y.size());
    const int m = common == 0 ? 0 : std::memcmp(x.data(), y.data(), common);
    return m != 0 ? (m < 0 ? -1 : 1) : Cmp(x.size(), y.size());
  }
  if (t.IsNested()) return columnar::Value::FromVector(a, i).Compare(columnar::Value::FromVector(b, j));
  return expr::DispatchFixed(
      t,
      [&](auto tag) -> int {
        using T = decltype(tag);
        if constexpr (std::is_floating_point_v<T>) {
          return CmpDouble(a.Get<T>(i), b.Get<T>(j));
        } else {
          return Cmp(a.Get<T>(i), b.Get<T>(j));
        }
      },
      [] { return 0; });
}

}  // namespace

int CompareKeyRows(const Vector& a, int64_t i, const Vector& b, int64_t j, SortSpec spec) {
  const bool va = a.IsValid(i), vb = b.IsValid(j);
  if (!va || !vb) {
    if (va == vb) return 0;
    const int c = va ? 1 : -1;  // NULL before the value
    return spec.nulls_first ? c : -c;
  }
  const int c = CmpValues(a, i, b, j);
  return spec.descending ? -c : c;
}

Result<std::unique_ptr<SortedRunMerger>> SortedRunMerger::Open(std::vector<std::unique_ptr<SpillFile>> runs,
                                                               size_t key_from, std::vector<SortSpec> specs) {
  std::unique_ptr<SortedRunMerger> m(new SortedRunMerger());
  m->key_from_ = key_from;
  m->specs_ = std::move(specs);
  for (auto& f : runs) {
    Cursor c;
    c.file = std::move(f);
    ASSIGN_OR_RETURN(c.block, c.file->Next());
    while (c.block && c.block->num_rows == 0) {
      ASSIGN_OR_RETURN(c.block, c.file->Next());
    }
    if (!c.block) continue;  // an empty run: its file goes now
    m->cursors_.push_back(std::move(c));
  }
  for (size_t i = 0; i < m->cursors_.size(); ++i) m->heap_.push_back(static_cast<int>(i));
  auto after = [&m](int a, int b) { return m->Before(m->cursors_[b], m->cursors_[a]); };
  std::make_heap(m->heap_.begin(), m->heap_.end(), after);
  return m;
}

bool SortedRunMerger::Before(const Cursor& a, const Cursor& b) const {
  const auto& x = a.block->columns;
  const auto& y = b.block->columns;
  for (size_t k = 0; k < specs_.size(); ++k) {
    const int c = CompareKeyRows(*x[key_from_ + k], a.row, *y[key_from_ + k], b.row, specs_[k]);
    if (c != 0) return c < 0;
  }
  const size_t o = x.size() - 2;
  const auto ao = static_cast<uint64_t>(x[o]->Get<int64_t>(a.row));
  const auto bo = static_cast<uint64_t>(y[o]->Get<int64_t>(b.row));
  if (ao != bo) return ao < bo;
  return x[o + 1]->Get<int64_t>(a.row) < y[o + 1]->Get<int64_t>(b.row);
}

Result<bool> SortedRunMerger::Advance(Cursor* c) {
  if (++c->row < c->block->num_rows) return true;
  c->row = 0;
  do {
    ASSIGN_OR_RETURN(c->block, c->file->Next());
  } while (c->block && c->block->num_rows == 0);
  if (c->block) return true;
  c->file.reset();
  return false;
}

Result<columnar::BatchPtr> SortedRunMerger::Next(int64_t rows) {
  if (heap_.empty()) return columnar::BatchPtr();
  auto after = [this](int a, int b) { return Before(cursors_[b], cursors_[a]); };
  // The picked rows as spans of consecutive rows of one block, copied column by column.
  struct Span {
    columnar::BatchPtr block;
    int64_t from, length;
  };
  std::vector<Span> spans;
  int64_t n = 0;
  while (n < rows && !heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), after);
    Cursor& c = cursors_[heap_.back()];
    if (!spans.empty() && spans.back().block == c.block && spans.back().from + spans.back().length == c.row) {
      ++spans.back().length;
    } else {
      spans.push_back({c.block, c.row, 1});
    }
    ++n;
    ASSIGN_OR_RETURN(bool more, Advance(&c));
    if (more) {
      std::push_heap(heap_.begin(), heap_.end(), after);
    } else {
      heap_.pop_back();
    }
  }
  const auto& first = spans.front().block;
  std::vector<columnar::VectorPtr> cols;
  for (size_t col = 0; col < first->columns.size(); ++col) {
    auto v = Vector::Make(first->columns[col]->type(), n);
    for (const auto& s : spans) v->AppendFrom(*s.block->columns[col], s.from, s.length);
    cols.push_back(std::move(v));
  }
  return std::make_shared<columnar::RecordBatch>(first->schema, std::move(cols), n);
}

}  // namespace shoal::sql
