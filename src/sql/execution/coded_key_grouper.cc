#include "sql/execution/coded_key_grouper.h"

namespace shoal::sql {

bool CodedKeyGrouper::Map(const std::vector<const columnar::Vector*>& keys, int64_t n, GroupHashTable* table,
                          uint32_t* ids) {
  if (keys.empty()) return false;
  int64_t combinations = 1;
  for (const columnar::Vector* k : keys) {
    if (!k->IsDictionary()) return false;
    combinations *= k->dictionary()->size() + 1;
    if (combinations > kMaxCombinations) return false;
  }
  bool same = table == table_ && dictionaries_.size() == keys.size();
  for (size_t k = 0; same && k < keys.size(); ++k) same = dictionaries_[k] == keys[k]->dictionary();
  if (!same) {
    table_ = table;
    dictionaries_.clear();
    strides_.clear();
    int64_t stride = 1;
    for (const columnar::Vector* k : keys) {
      dictionaries_.push_back(k->dictionary());
      strides_.push_back(stride);
      stride *= k->dictionary()->size() + 1;
    }
    group_of_.assign(static_cast<size_t>(combinations), -1);
  }
  combo_.assign(static_cast<size_t>(n), 0);
  int64_t* combo = combo_.data();
  for (size_t k = 0; k < keys.size(); ++k) {
    const columnar::Vector& v = *keys[k];
    const int32_t* codes = v.codes();
    const int64_t stride = strides_[k];
    if (v.MayHaveNulls()) {
      const int64_t null_code = v.dictionary()->size();
      for (int64_t i = 0; i < n; ++i) combo[i] += (v.IsNull(i) ? null_code : codes[i]) * stride;
    } else {
      for (int64_t i = 0; i < n; ++i) combo[i] += codes[i] * stride;
    }
  }
  // Combinations new to the table: their first rows, decoded, go to the hash table at once.
  first_rows_.clear();
  for (int64_t i = 0; i < n; ++i) {
    int64_t& g = group_of_[combo[i]];
    if (g == -1) {
      g = -2;  // pending: found once per batch
      first_rows_.push_back(static_cast<uint32_t>(i));
    }
  }
  if (!first_rows_.empty()) {
    const int64_t m = static_cast<int64_t>(first_rows_.size());
    std::vector<columnar::VectorPtr> decoded;
    std::vector<const columnar::Vector*> ptrs;
    for (const columnar::Vector* k : keys) {
      decoded.push_back(columnar::Decode(columnar::Gather(*k, first_rows_.data(), m)));
      ptrs.push_back(decoded.back().get());
    }
    new_ids_.resize(static_cast<size_t>(m));
    table->FindOrInsert(ptrs, m, new_ids_.data());
    for (int64_t j = 0; j < m; ++j) group_of_[combo[first_rows_[j]]] = new_ids_[j];
  }
  for (int64_t i = 0; i < n; ++i) ids[i] = static_cast<uint32_t>(group_of_[combo[i]]);
  return true;
}

}  // namespace shoal::sql
