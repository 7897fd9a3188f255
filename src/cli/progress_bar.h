// Draws a throttled one-line progress bar for long statements (on stderr, by the shell): nothing
// for the first 2 s of a statement (DuckDB's delay), then at most one redraw per 100 ms and only
// when the shown percentage changes.
//
// Thread-safety: not thread-safe; the shell serializes Update calls from worker threads.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace shoal::cli {

class ProgressBar {
 public:
  static constexpr int64_t kDelayMs = 2000;
  static constexpr int64_t kRedrawIntervalMs = 100;

  explicit ProgressBar(int width = 80) : width_(width) {}

  // Starts a new statement at `now_ms` (a monotonic clock in milliseconds).
  void Start(int64_t now_ms);
  // The terminal text for this update ("\r" + bar + erase-to-end), or "" when throttled.
  std::string Update(double fraction, std::string_view what, int64_t now_ms);
  // Text that erases a drawn bar ("" when none is drawn).
  std::string Clear();

  // One line of `width` columns at most: "<what> [████▌    ]  42%".
  static std::string Render(double fraction, std::string_view what, int width);

 private:
  int width_;
  int64_t start_ms_ = 0;
  int64_t last_draw_ms_ = -1;
  int last_percent_ = -1;
  bool drawn_ = false;
};

}  // namespace shoal::cli
