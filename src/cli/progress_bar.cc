#include "cli/progress_bar.h"

#include <algorithm>
#include <cmath>

#include "cli/table_renderer.h"

namespace shoal::cli {

void ProgressBar::Start(int64_t now_ms) {
  start_ms_ = now_ms;
  last_draw_ms_ = -1;
  last_percent_ = -1;
  drawn_ = false;
}

std::string ProgressBar::Update(double fraction, std::string_view what, int64_t now_ms) {
  if (!(fraction >= 0)) fraction = 0;  // also NaN
  fraction = std::min(fraction, 1.0);
  int percent = static_cast<int>(fraction * 100);
  if (now_ms - start_ms_ < kDelayMs) return "";
  if (last_draw_ms_ >= 0 && now_ms - last_draw_ms_ < kRedrawIntervalMs) return "";
  if (percent == last_percent_) return "";
  last_draw_ms_ = now_ms;
  last_percent_ = percent;
  drawn_ = true;
  std::string line = "\r";
  line += Render(fraction, what, width_ - 1);
  line += "\x1b[K";
  return line;
}

std::string ProgressBar::Clear() {
  if (!drawn_) return "";
  drawn_ = false;
  last_percent_ = -1;
  return "\r\x1b[K";
}

std::string ProgressBar::Render(double fraction, std::string_view what, int width) {
  if (!(fraction >= 0)) fraction = 0;
  fraction = std::min(fraction, 1.0);
  int percent = static_cast<int>(fraction * 100);
  std::string pct = std::to_string(percent) + "%";
  pct.insert(0, 4 - std::min<size_t>(4, pct.size()), ' ');
  // Label takes at most a third of the line; the bar gets what remains (at least 10 cells).
  std::string label = what.empty() ? "" : FitToWidth(what, std::max(0, width / 3)) + " ";
  int bar = width - DisplayWidth(label) - 2 - 1 - static_cast<int>(pct.size());
  if (bar < 10) {
    label.clear();
    bar = std::max(10, width - 3 - static_cast<int>(pct.size()));
  }
  // Eighth-block resolution.
  static const char* kPartial[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
  int eighths = static_cast<int>(std::floor(fraction * bar * 8));
  int full = eighths / 8, part = eighths % 8;
  std::string out = label + "[";
  for (int i = 0; i < full; ++i) out += "█";
  int used = full;
  if (part > 0 && used < bar) {
    out += kPartial[part];
    ++used;
  }
  out.append(bar - used, ' ');
  out += "] " + pct;
  return out;
}

}  // namespace shoal::cli
