#include "cli/table_renderer.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "columnar/type.h"
#include "columnar/vector.h"

namespace shoal::cli {

namespace {

// Shrinking stops at the header name's width (up to kMaxHeaderKeep) and never goes below
// kMinColumnWidth; further width is won by hiding middle columns.
constexpr int kMinColumnWidth = 5;
constexpr int kMaxHeaderKeep = 16;
constexpr const char* kEllipsis = "…";

// Decodes one UTF-8 code point at s[*i], advancing *i; an invalid byte yields itself.
uint32_t NextCodePoint(std::string_view s, size_t* i) {
  auto b = static_cast<unsigned char>(s[*i]);
  int len = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (len == 0 || *i + len > s.size()) {
    ++*i;
    return b;
  }
  uint32_t cp = len == 1 ? b : len == 2 ? (b & 0x1F) : len == 3 ? (b & 0x0F) : (b & 0x07);
  for (int k = 1; k < len; ++k) {
    auto c = static_cast<unsigned char>(s[*i + k]);
    if ((c & 0xC0) != 0x80) {
      ++*i;
      return b;
    }
    cp = (cp << 6) | (c & 0x3F);
  }
  *i += len;
  return cp;
}

int CodePointWidth(uint32_t cp) {
  if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x200B && cp <= 0x200F) || cp == 0xFE0F) return 0;
  if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0xA4CF) ||
      (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) ||
      (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF00 && cp <= 0xFF60) ||
      (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
      (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD)) {
    return 2;
  }
  return 1;
}

// Replaces control characters so that a value stays on one table line.
std::string EscapeControls(std::string s) {
  bool any = false;
  for (char c : s) any |= static_cast<unsigned char>(c) < 0x20;
  if (!any) return s;
  std::string out;
  for (char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out;
}

enum class Align { kLeft, kRight, kCenter };

void AppendPadded(std::string_view text, int width, Align align, std::string* out) {
  std::string fitted = FitToWidth(text, width);
  int pad = std::max(0, width - DisplayWidth(fitted));
  int left = align == Align::kRight ? pad : align == Align::kCenter ? pad / 2 : 0;
  out->append(left, ' ');
  out->append(fitted);
  out->append(pad - left, ' ');
}

void AppendRepeated(std::string_view piece, int n, std::string* out) {
  for (int i = 0; i < n; ++i) out->append(piece);
}

struct Column {
  std::string name;
  std::string type;
  bool numeric = false;
  std::vector<std::string> cells;  // one per shown row
  int width = 1;
  int min_width = 1;
};

// A border line: `left` + per column "─"*(w+2) joined by `mid` + `right`.
void AppendBorder(const std::vector<Column>& cols, const char* left, const char* mid,
                  const char* right, std::string* out) {
  out->append(left);
  for (size_t c = 0; c < cols.size(); ++c) {
    if (c > 0) out->append(mid);
    AppendRepeated("─", cols[c].width + 2, out);
  }
  out->append(right);
  out->push_back('\n');
}

void AppendRow(const std::vector<Column>& cols, const std::vector<std::string_view>& texts,
               const std::vector<Align>& aligns, std::string* out) {
  out->append("│");
  for (size_t c = 0; c < cols.size(); ++c) {
    out->push_back(' ');
    AppendPadded(texts[c], cols[c].width, aligns[c], out);
    out->append(" │");
  }
  out->push_back('\n');
}

int TotalWidth(const std::vector<Column>& cols) {
  int w = 1;
  for (const Column& c : cols) w += c.width + 3;
  return w;
}

}  // namespace

int DisplayWidth(std::string_view utf8) {
  int w = 0;
  size_t i = 0;
  while (i < utf8.size()) w += CodePointWidth(NextCodePoint(utf8, &i));
  return w;
}

std::string FitToWidth(std::string_view utf8, int width) {
  if (DisplayWidth(utf8) <= width) return std::string(utf8);
  if (width <= 0) return "";
  std::string out;
  int w = 0;
  size_t i = 0;
  while (i < utf8.size()) {
    size_t start = i;
    int cw = CodePointWidth(NextCodePoint(utf8, &i));
    if (w + cw > width - 1) break;
    w += cw;
    out.append(utf8.substr(start, i - start));
  }
  out.append(kEllipsis);
  return out;
}

std::string RenderTable(const QueryResult& result, const TableLayout& layout) {
  const int ncols = result.num_columns();
  const int64_t nrows = result.num_rows();
  if (ncols == 0) return "";

  // Rows to show: all, or the first and last halves of max_rows.
  const int64_t max_rows = std::max(layout.max_rows, 2);
  const bool rows_elided = nrows > max_rows;
  std::vector<int64_t> shown;
  if (!rows_elided) {
    for (int64_t r = 0; r < nrows; ++r) shown.push_back(r);
  } else {
    int64_t top = max_rows / 2, bottom = max_rows - top;
    for (int64_t r = 0; r < top; ++r) shown.push_back(r);
    for (int64_t r = nrows - bottom; r < nrows; ++r) shown.push_back(r);
  }
  const size_t elide_at = rows_elided ? static_cast<size_t>(max_rows / 2) : shown.size();

  std::vector<Column> cols(ncols);
  for (int c = 0; c < ncols; ++c) {
    Column& col = cols[c];
    col.name = EscapeControls(result.column_name(c));
    col.type = result.column_type(c);
    col.numeric = result.schema()->fields[c].type->IsNumeric();
    col.width = std::max({1, DisplayWidth(col.name), DisplayWidth(col.type)});
    col.cells.reserve(shown.size());
    for (int64_t r : shown) {
      const bool null = layout.null_value && result.IsNull(r, c);
      col.cells.push_back(EscapeControls(null ? *layout.null_value : result.GetText(r, c)));
      col.width = std::max(col.width, DisplayWidth(col.cells.back()));
    }
    col.min_width = std::min(col.width, std::max(kMinColumnWidth, std::min(DisplayWidth(col.name), kMaxHeaderKeep)));
  }

  // Too wide: shrink the widest columns, then hide middle columns behind a "…" column.
  const int max_width = std::max(layout.max_width, 8);
  while (TotalWidth(cols) > max_width) {
    // The column with the most room above its minimum gives up one cell.
    auto widest = std::max_element(cols.begin(), cols.end(), [](const Column& a, const Column& b) {
      return a.width - a.min_width < b.width - b.min_width;
    });
    if (widest->width <= widest->min_width) break;
    --widest->width;
  }
  int hidden = 0;
  if (TotalWidth(cols) > max_width && cols.size() > 1) {
    Column dots;
    dots.name = kEllipsis;
    dots.cells.assign(shown.size(), kEllipsis);
    dots.width = 1;
    size_t mid = cols.size() / 2;
    cols.insert(cols.begin() + mid, std::move(dots));
    while (TotalWidth(cols) > max_width && cols.size() > 2) {
      // Remove alternately right and left of the "…" column.
      if (mid + 1 < cols.size() && (hidden % 2 == 0 || mid == 0)) {
        cols.erase(cols.begin() + mid + 1);
      } else if (mid > 0) {
        cols.erase(cols.begin() + mid - 1);
        --mid;
      } else {
        break;
      }
      ++hidden;
    }
    if (hidden == 0) cols.erase(cols.begin() + mid);
  }

  std::string footer;
  if (nrows == 0) {
    footer = "0 rows";
  } else if (rows_elided) {
    footer = std::to_string(nrows) + " rows (" + std::to_string(shown.size()) + " shown)";
  }
  if (hidden > 0) {
    if (!footer.empty()) footer += ", ";
    footer += std::to_string(ncols) + " columns (" + std::to_string(ncols - hidden) + " shown)";
  }
  if (!footer.empty()) {
    int inner = TotalWidth(cols) - 4;
    int need = DisplayWidth(footer);
    if (need > inner) cols.back().width += need - inner;
  }

  std::vector<Align> aligns, center(cols.size(), Align::kCenter);
  for (const Column& c : cols) aligns.push_back(c.numeric ? Align::kRight : Align::kLeft);
  std::vector<std::string_view> texts(cols.size());

  std::string out;
  AppendBorder(cols, "┌", "┬", "┐", &out);
  if (layout.headers) {
    for (size_t c = 0; c < cols.size(); ++c) texts[c] = cols[c].name;
    AppendRow(cols, texts, center, &out);
    for (size_t c = 0; c < cols.size(); ++c) texts[c] = cols[c].type;
    AppendRow(cols, texts, center, &out);
  }
  if (!shown.empty()) {
    if (layout.headers) AppendBorder(cols, "├", "┼", "┤", &out);
    for (size_t i = 0; i < shown.size(); ++i) {
      if (i == elide_at) {
        for (size_t c = 0; c < cols.size(); ++c) texts[c] = "·";
        for (int k = 0; k < 3; ++k) AppendRow(cols, texts, center, &out);
      }
      for (size_t c = 0; c < cols.size(); ++c) texts[c] = cols[c].cells[i];
      AppendRow(cols, texts, aligns, &out);
    }
  }
  if (footer.empty()) {
    AppendBorder(cols, "└", "┴", "┘", &out);
    return out;
  }
  AppendBorder(cols, "├", "┴", "┤", &out);
  out.append("│ ");
  AppendPadded(footer, TotalWidth(cols) - 4, Align::kCenter, &out);
  out.append(" │\n");
  AppendBorder(cols, "└", "─", "┘", &out);
  return out;
}

}  // namespace shoal::cli
