// Test helpers for the scan layer: drain a FileSetScan (one or several threads) and render rows
// as JSON objects the way the golden expectations are written.
#pragma once

#include <algorithm>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "scan/file_set_scan.h"
#include "support/rows_json.h"

namespace shoal::scan::testing_support {

// Every batch of `scan`, read by `threads` workers, ordered by their order keys.
inline Result<std::vector<columnar::BatchPtr>> Drain(FileSetScan& scan, int threads = 1) {
  std::vector<std::vector<std::pair<uint64_t, columnar::BatchPtr>>> per(threads);
  std::vector<Status> errors(threads);
  auto work = [&](int t) {
    auto local = scan.MakeLocal();
    while (true) {
      columnar::BatchPtr b;
      uint64_t order = 0;
      auto r = scan.Next(local.get(), &b, &order);
      if (!r.ok()) {
        errors[t] = r.status();
        return;
      }
      if (!*r) return;
      per[t].emplace_back(order, std::move(b));
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work, t);
  work(0);
  for (auto& th : pool) th.join();
  for (const Status& s : errors) RETURN_NOT_OK(s);
  std::vector<std::pair<uint64_t, columnar::BatchPtr>> all;
  for (auto& v : per) all.insert(all.end(), v.begin(), v.end());
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<columnar::BatchPtr> out;
  for (auto& [k, b] : all) out.push_back(std::move(b));
  return out;
}

// One JSON object text per row (test/support/rows_json.h).
using ::shoal::testing::RowsAsJson;

inline int64_t CountRows(const std::vector<columnar::BatchPtr>& batches) {
  int64_t n = 0;
  for (const auto& b : batches) n += b->num_rows;
  return n;
}

}  // namespace shoal::scan::testing_support
