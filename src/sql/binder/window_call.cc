#include "sql/binder/window_call.h"

namespace shoal::sql {

namespace {

std::string BoundText(FrameBoundType t, double offset) {
  std::string n = std::to_string(offset);
  while (n.size() > 1 && n.back() == '0') n.pop_back();
  if (!n.empty() && n.back() == '.') n.pop_back();
  switch (t) {
    case FrameBoundType::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
    case FrameBoundType::kPreceding: return n + " PRECEDING";
    case FrameBoundType::kCurrentRow: return "CURRENT ROW";
    case FrameBoundType::kFollowing: return n + " FOLLOWING";
    case FrameBoundType::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
  }
  return "";
}

}  // namespace

std::string BoundFrame::ToString() const {
  return std::string(rows ? "ROWS" : "RANGE") + " BETWEEN " + BoundText(start, start_offset) + " AND " +
         BoundText(end, end_offset);
}

bool WindowCall::Equals(const WindowCall& o) const {
  if (function != o.function || !frame.Equals(o.frame) || args.size() != o.args.size()) return false;
  if (function == WindowFunction::kAggregate &&
      (binding.name != o.binding.name || binding.distinct != o.binding.distinct)) {
    return false;
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (!args[i]->Equals(*o.args[i])) return false;
  }
  return true;
}

}  // namespace shoal::sql
