// A bounded sample of a Delta table's rows for the layout advisor (layout_measure.h): rows
// drawn at random (Bernoulli, fixed seed) from row groups spread evenly over the data files and
// kept in arrival order, each tagged with the page-sized granule of the current files it came
// from. So one sample shows both the value distribution (what any sort order would make of the
// data) and how the current files already cluster it (a contiguous-chunk view: rows of one
// granule stay together).
//
// Thread-safety: plain values and a free function; separate calls are independent.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "columnar/vector.h"
#include "delta/snapshot.h"
#include "io/file_system.h"
#include "scan/delta_schema.h"
#include "shoal/status.h"

namespace shoal::table {

struct LayoutSampleOptions {
  int64_t max_rows = 64 * 1024;        // rows kept
  int64_t max_rows_scanned = 4 << 20;  // rows decoded: the row groups read are chosen to fit
  size_t max_files = 256;              // data files whose footers are opened (evenly spaced)
  size_t max_columns = 32;             // columns sampled, the required ones first
  int64_t rows_per_granule = 20000;    // the current files' page size in rows
  uint64_t seed = 0x5eed;
};

struct LayoutSample {
  columnar::RecordBatch rows;      // sampled columns (logical names), in arrival order
  std::vector<uint32_t> granule;   // per row: the current files' granule it came from (non-decreasing)
  int64_t rows_scanned = 0;        // rows of the row groups the sample was drawn from
};

// Column names compare case-insensitively (ASCII), as the query log records them.
bool SameColumnName(std::string_view a, std::string_view b);

// Samples the columns named in `required` (those that are data columns of a flat type; others
// are left out) plus further flat data columns, up to max_columns (for measuring storage).
// nullopt when there is nothing to sample: no files or no file could be read (files that fail to
// open, lack a column or store it with another type are skipped). Rows deleted by deletion
// vectors are sampled like live ones.
std::optional<LayoutSample> SampleTable(std::shared_ptr<io::FileSystem> fs, const delta::Snapshot& snapshot,
                                        const scan::TableSchema& schema, const std::vector<std::string>& required,
                                        const LayoutSampleOptions& options = {});

}  // namespace shoal::table
