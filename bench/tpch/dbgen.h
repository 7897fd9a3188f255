// A TPC-H data generator written from the TPC-H specification (clause 4.2): the eight tables
// with the specification's columns, key relationships and value distributions, written as
// Parquet by shoal's own writer. Deterministic: every value is drawn from a random stream seeded
// by (table, column, row), so a scale factor gives the same rows on every run and in any batch
// size. Not byte-identical to the reference dbgen (doc/tpch.md lists the differences).
//
// Thread-safety: GenerateTpch may run on several threads for different output directories.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "shoal/status.h"

namespace shoal::tpch {

struct DbgenOptions {
  // The scale factor: 1 is about 1 GB of CSV (6M lineitem rows); fractions are allowed.
  double scale_factor = 1.0;
  // Output root: <out_dir>/<table>/<table>-<n>.parquet, n from 0. Created if absent.
  std::string out_dir;
  // A table's file is closed and the next one begun after this many rows (default 16 Mi).
  int64_t max_rows_per_file = int64_t{16} << 20;
  // Rows generated and handed to the writer at a time (default 64 Ki); bounds memory.
  int64_t batch_rows = 65536;
  // Tables to generate (default: all eight). Lineitem and orders are generated together.
  std::vector<std::string> tables;
};

// The eight table names, in the specification's order.
const std::vector<std::string>& TableNames();

// Rows the specification defines for `table` at `scale_factor` (lineitem: -1, it is 1..7 lines
// per order, about 4 x orders). Fractional scale factors round to the nearest row, at least 1.
int64_t SpecRowCount(const std::string& table, double scale_factor);

// Writes the tables; returns the rows written per table.
Result<std::map<std::string, int64_t>> GenerateTpch(const DbgenOptions& options);

}  // namespace shoal::tpch
