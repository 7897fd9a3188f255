// The row-level stress workload shared by the multi-process (src/cli/stress_e2e_test.cc) and
// in-process (src/sql/session/stress_mt_test.cc) stress tests: DML statements on disjoint rows of the
// same files, each with the oracle change it makes when acknowledged.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace shoal::testing {

constexpr int kDmlWorkers = 4;
constexpr int64_t kFiles = 4, kRowsPerFile = 250;

// One DML statement of a row-level worker; applied to the oracle when acknowledged.
struct RowOp {
  enum class Kind { kUpdate, kDelete, kMerge } kind = Kind::kUpdate;
  std::vector<int64_t> ids;     // rows named by the statement (merge: its source ids)
  std::vector<int64_t> values;  // merge: the source v per id
  int64_t delta = 0;            // update: v = v + delta

  std::string Sql() const {
    std::string list;
    for (int64_t id : ids) list += (list.empty() ? "" : ", ") + std::to_string(id);
    switch (kind) {
      case Kind::kUpdate:
        return "UPDATE t SET v = v + " + std::to_string(delta) + " WHERE id IN (" + list + ")";
      case Kind::kDelete:
        return "DELETE FROM t WHERE id IN (" + list + ")";
      case Kind::kMerge: {
        std::string rows;
        for (size_t i = 0; i < ids.size(); ++i) {
          rows +=
              (i ? ", (" : "(") + std::to_string(ids[i]) + ", " + std::to_string(values[i]) + ")";
        }
        // The target-only conjunct keeps the read set to these rows (doc/concurrency.md).
        return "MERGE INTO t USING (VALUES " + rows + ") AS s(id, v) ON t.id = s.id AND t.id IN (" +
               list +
               ") WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT (id, v) VALUES "
               "(s.id, s.v)";
      }
    }
    return "";
  }

  void Apply(std::map<int64_t, int64_t>* table) const {
    for (size_t i = 0; i < ids.size(); ++i) {
      auto it = table->find(ids[i]);
      switch (kind) {
        case Kind::kUpdate:
          if (it != table->end()) it->second += delta;
          break;
        case Kind::kDelete:
          if (it != table->end()) table->erase(it);
          break;
        case Kind::kMerge:
          (*table)[ids[i]] = values[i];
          break;
      }
    }
  }
};

inline std::map<int64_t, int64_t> InitialRows() {
  std::map<int64_t, int64_t> rows;
  for (int64_t id = 0; id < kFiles * kRowsPerFile; ++id) rows[id] = id;
  return rows;
}

// Worker `w` owns the ids congruent to w mod kDmlWorkers: ops on random sets of its live rows,
// chosen as if every earlier op committed.
inline std::vector<RowOp> GenerateOps(int w, int count) {
  std::mt19937_64 rng(777 + w);
  std::vector<int64_t> live;
  for (int64_t id = w; id < kFiles * kRowsPerFile; id += kDmlWorkers) live.push_back(id);
  int64_t next_new = kFiles * kRowsPerFile * 10 + w;
  auto take = [&](size_t n, bool remove) {
    std::vector<int64_t> ids;
    for (size_t i = 0; i < n && !live.empty(); ++i) {
      size_t at = rng() % live.size();
      ids.push_back(live[at]);
      if (remove) {
        live[at] = live.back();
        live.pop_back();
      } else {
        std::swap(live[at], live.back());  // not picked twice in one op
        live.pop_back();
      }
    }
    if (!remove) live.insert(live.end(), ids.begin(), ids.end());
    return ids;
  };
  std::vector<RowOp> ops;
  for (int i = 0; i < count; ++i) {
    RowOp op;
    switch (rng() % 3) {
      case 0:
        op.kind = RowOp::Kind::kUpdate;
        op.ids = take(1 + rng() % 3, false);
        op.delta = 1 + static_cast<int64_t>(rng() % 100);
        break;
      case 1:
        op.kind = RowOp::Kind::kDelete;
        op.ids = take(1 + rng() % 2, true);
        break;
      default:
        op.kind = RowOp::Kind::kMerge;
        op.ids = take(1, false);
        op.ids.push_back(next_new);
        live.push_back(next_new);
        next_new += kDmlWorkers;
        for (size_t j = 0; j < op.ids.size(); ++j)
          op.values.push_back(-static_cast<int64_t>(rng() % 100000));
        break;
    }
    if (op.ids.empty()) continue;
    ops.push_back(std::move(op));
  }
  return ops;
}

}  // namespace shoal::testing
