// Row tracking (PROTOCOL.md "Row Tracking"): fresh row ids for every add with new rows
// (baseRowId from the `delta.rowTracking` domain's rowIdHighWaterMark, defaultRowCommitVersion
// = the commit version), the high-water mark update in the same commit, and the backfill of a
// table's existing files when row tracking is enabled on it. The commit path applies these to
// each attempt's actions, so a rebase onto a winner's higher mark reassigns them.
//
// Thread-safety: pure functions over the caller's values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "delta/actions.h"
#include "shoal/status.h"

namespace shoal::txn {

inline constexpr const char* kRowTrackingDomain = "delta.rowTracking";
inline constexpr const char* kEnableRowTrackingKey = "delta.enableRowTracking";
inline constexpr const char* kMaterializedRowIdKey = "delta.rowTracking.materializedRowIdColumnName";
inline constexpr const char* kMaterializedRowCommitVersionKey =
    "delta.rowTracking.materializedRowCommitVersionColumnName";

// The protocol supports the rowTracking writer feature: writers must assign row ids.
bool RowTrackingSupported(const delta::Protocol& protocol);
// Supported and delta.enableRowTracking=true: every file has row ids (backfilled).
bool RowTrackingEnabled(const delta::Protocol& protocol, const delta::Metadata& metadata);

// The materialized column names of the table configuration ("" when not set).
std::string MaterializedRowIdColumn(const delta::Metadata& metadata);
std::string MaterializedRowCommitVersionColumn(const delta::Metadata& metadata);

// rowIdHighWaterMark of a `delta.rowTracking` domain configuration; Corruption naming the
// domain when malformed. -1 for a removed domain.
Result<int64_t> ParseRowIdHighWaterMark(const delta::DomainMetadata& domain);
// The domain action recording `high_water_mark`.
delta::DomainMetadata RowIdHighWaterMarkDomain(int64_t high_water_mark);
// The high-water mark among `domains` (-1 when no row id was ever assigned).
Result<int64_t> HighWaterMarkOf(const std::vector<delta::DomainMetadata>& domains, int64_t current);

// numRecords of an add's stats; InvalidArgument naming the file when absent (row ids cannot be
// assigned without it).
Result<int64_t> NumRecordsOf(const delta::AddFile& add);

// Gives every add of `actions` without a baseRowId the next free range after *high_water_mark
// and defaultRowCommitVersion = `version`, advancing *high_water_mark. Adds that keep their
// baseRowId (DV re-adds, backfilled files) are left alone.
Status AssignRowIds(std::vector<delta::Action>* actions, int64_t version, int64_t* high_water_mark);

// The backfill of an enabling commit: re-adds (dataChange=false) of every file of `files`
// without a baseRowId whose path is not in `touched` (files the commit itself removes or
// re-adds); AssignRowIds then gives them ids.
std::vector<delta::AddFile> BackfillAdds(const std::vector<delta::AddFile>& files,
                                         const std::vector<std::string>& touched);

// Removes the materialized row id columns `columns` from an add's stats (minValues, maxValues,
// nullCount): they are not table columns, and writers of rewrites collect stats on them.
void StripStatsOfColumns(delta::AddFile* add, const std::vector<std::string>& columns);

}  // namespace shoal::txn
