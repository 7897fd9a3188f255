// Transaction's row tracking step of the commit (txn/row_tracking.h): ids for new adds, the
// high-water mark domain, and the backfill when this commit enables row tracking.
#include <string>
#include <vector>

#include "txn/row_tracking.h"
#include "txn/transaction.h"

namespace shoal::txn {

bool Transaction::BackfillsRowIds() const {
  return snapshot_ && RowTrackingEnabled(protocol_, metadata_) &&
         !RowTrackingEnabled(snapshot_->protocol(), snapshot_->metadata());
}

Status Transaction::TrackRows(int64_t version, std::vector<delta::Action>* actions) const {
  if (!RowTrackingSupported(protocol_)) return Status::OK();
  if (BackfillsRowIds()) {
    std::vector<std::string> touched;
    for (const auto& a : *actions) {
      if (const auto* add = std::get_if<delta::AddFile>(&a)) touched.push_back(add->path);
      if (const auto* rm = std::get_if<delta::RemoveFile>(&a)) touched.push_back(rm->path);
    }
    for (auto& add : BackfillAdds(snapshot_->files(), touched)) actions->push_back(std::move(add));
  }
  const std::vector<std::string> hidden = {MaterializedRowIdColumn(metadata_),
                                           MaterializedRowCommitVersionColumn(metadata_)};
  for (auto& a : *actions) {
    if (auto* add = std::get_if<delta::AddFile>(&a)) StripStatsOfColumns(add, hidden);
  }
  int64_t hwm = row_id_high_water_mark_;
  RETURN_NOT_OK(AssignRowIds(actions, version, &hwm));
  if (hwm != row_id_high_water_mark_) {
    std::erase_if(*actions, [](const delta::Action& a) {
      const auto* d = std::get_if<delta::DomainMetadata>(&a);
      return d && d->domain == kRowTrackingDomain;
    });
    actions->push_back(RowIdHighWaterMarkDomain(hwm));
  }
  return Status::OK();
}

}  // namespace shoal::txn
