// libFuzzer target for Delta log action lines: runs the add/remove fast path
// (TryParseFileActionLine) and the JSON DOM parser on the same line and aborts when they
// disagree — the fast path accepting a line the DOM rejects, or producing a different action —
// or when ParseActionLine's answer differs from the DOM's. Crashes and sanitizer reports are
// findings too.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "delta/action_line_parser.h"
#include "delta/actions.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace shoal::delta;
  std::string_view line(reinterpret_cast<const char*>(data), size);
  auto fast = TryParseFileActionLine(line);
  auto dom = ParseActionLineDom(line);
  if (fast) {
    if (!dom.ok() || !dom->has_value()) {
      std::fprintf(stderr, "fast path accepted a line the DOM rejects: %s\n",
                   dom.ok() ? "(no action)" : dom.status().ToString().c_str());
      std::abort();
    }
    if (!(*fast == **dom)) {
      std::fprintf(stderr, "fast path and DOM differ:\n%s\n%s\n", SerializeAction(*fast).c_str(),
                   SerializeAction(**dom).c_str());
      std::abort();
    }
  }
  auto combined = ParseActionLine(line);
  if (combined.ok() != dom.ok() ||
      (!dom.ok() && combined.status().ToString() != dom.status().ToString()) ||
      (dom.ok() && combined->has_value() != dom->has_value())) {
    std::fprintf(stderr, "ParseActionLine differs from the DOM parser\n");
    std::abort();
  }
  return 0;
}
