// libFuzzer target for per-file stats JSON: runs the planner's scan (ParseStatsJsonFor, on a
// few wanted paths) and the document route (ParseStatsJson) on the same text and aborts when
// they disagree — one accepting what the other rejects, or different entries for a wanted
// path. Crashes and sanitizer reports are findings too.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "delta/stats_scan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shoal::delta;
  static const std::vector<ColumnPath> kWanted = {{"id"}, {"a"}, {"value"}, {"s", "x"}, {"s"}, {"\xc3\xa9"}};
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto doc = ParseStatsJson(text);
  auto fast = ParseStatsJsonFor(text, kWanted);
  if (doc.ok() != fast.ok()) {
    std::fprintf(stderr, "routes disagree on validity: document %s, scan %s\n", doc.status().ToString().c_str(),
                 fast.status().ToString().c_str());
    std::abort();
  }
  if (!doc.ok()) return 0;
  bool same = doc->num_records == fast->num_records && doc->tight_bounds == fast->tight_bounds;
  for (const ColumnPath& p : kWanted) {
    const Json* a = doc->Min(p);
    const Json* b = fast->Min(p);
    const Json* c = doc->Max(p);
    const Json* d = fast->Max(p);
    same = same && (a == nullptr) == (b == nullptr) && (!a || *a == *b) && (c == nullptr) == (d == nullptr) &&
           (!c || *c == *d) && doc->NullCount(p) == fast->NullCount(p);
  }
  if (!same) {
    std::fprintf(stderr, "routes disagree on the entries of a wanted path\n");
    std::abort();
  }
  return 0;
}
