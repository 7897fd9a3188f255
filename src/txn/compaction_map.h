// The `shoal.compactedFrom` tag of OPTIMIZE outputs and the row-position translation it
// enables (doc/concurrency.md "Rebase"): plain OPTIMIZE packs each source file's live rows
// contiguously and in order, so a concurrent deletion in a source maps onto the output file.
//
// Tag value: a JSON array, in output order, of {"path": source add path, "dvId": the source's
// DV unique id at compaction ("" without DV), "liveRows": live rows packed}.
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "delta/actions.h"
#include "delta/deletion_vector.h"
#include "shoal/status.h"

namespace shoal::txn {

inline constexpr const char* kCompactedFromTag = "shoal.compactedFrom";

struct CompactionSource {
  std::string path;
  std::string dv_id;
  int64_t live_rows = 0;
  bool operator==(const CompactionSource&) const = default;
};

std::string SerializeCompactedFrom(const std::vector<CompactionSource>& sources);
// Corruption naming the tag on malformed text.
Result<std::vector<CompactionSource>> ParseCompactedFrom(std::string_view text);

// Where one source file's rows went.
struct CompactionPlacement {
  delta::AddFile output;     // the output file's add action
  CompactionSource source;   // the entry for the source
  int64_t out_start = 0;     // position of the source's first live row in the output
};

// Finds `source_path` in the compactedFrom tags of `outputs`; nullopt when no output names it.
Result<std::optional<CompactionPlacement>> FindCompactionPlacement(
    const std::vector<delta::AddFile>& outputs, const std::string& source_path);

// Maps positions `rows` of a source file onto the output: p -> out_start + p - |{d in
// dv_at_compaction : d < p}|. InvalidArgument when a row was already deleted at compaction or
// lies past the source's live rows.
Result<delta::DeletionVector> TranslateThroughCompaction(const delta::DeletionVector& rows,
                                                         const delta::DeletionVector& dv_at_compaction,
                                                         const CompactionPlacement& placement);

}  // namespace shoal::txn
