#include "cli/logic_test_expectation.h"

#include <algorithm>
#include <regex>

namespace shoal::cli {

namespace {

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    size_t tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return out;
    start = tab + 1;
  }
}

std::string Listing(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += "    " + l + "\n";
  if (lines.empty()) out = "    (no rows)\n";
  return out;
}

}  // namespace

std::vector<std::string> ResultLines(const QueryResult& result) {
  std::vector<std::string> lines;
  const int ncols = result.num_columns();
  const int64_t nrows = result.num_rows();
  lines.reserve(static_cast<size_t>(nrows));
  for (int64_t r = 0; r < nrows; ++r) {
    std::string line;
    for (int c = 0; c < ncols; ++c) {
      if (c > 0) line.push_back('\t');
      if (result.IsNull(r, c)) {
        line += "NULL";
        continue;
      }
      std::string v = result.GetText(r, c);
      line += v.empty() ? "(empty)" : v;
    }
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string CheckQueryResult(const LogicTestRecord& record, const QueryResult& result) {
  const int ncols = result.num_columns();
  if (static_cast<int>(record.types.size()) != ncols) {
    return "expected " + std::to_string(record.types.size()) + " column(s) (types '" + record.types +
           "'), the result has " + std::to_string(ncols);
  }
  std::vector<std::string> actual = ResultLines(result);
  std::vector<std::string> expected = record.expected;

  // "<REGEX>:pattern" as the only expected line matches the whole output (rows joined by '\n').
  static const std::string kRegex = "<REGEX>:";
  if (expected.size() == 1 && expected[0].rfind(kRegex, 0) == 0) {
    std::string all;
    for (const std::string& l : actual) all += l + "\n";
    std::regex re(expected[0].substr(kRegex.size()));
    // '.' does not match newlines in ECMAScript; match against a copy with newlines as spaces.
    std::string flat = all;
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    if (std::regex_match(flat, re)) return "";
    return "output does not match " + expected[0] + "\nactual:\n" + all;
  }

  // Expected values may also be written one per line (DuckDB allows it for multi-column results).
  bool one_value_per_line = ncols > 1 && expected.size() == actual.size() * ncols &&
                            std::none_of(expected.begin(), expected.end(),
                                         [](const std::string& l) { return l.find('\t') != std::string::npos; });
  if (record.sort == SortMode::kValueSort || one_value_per_line) {
    std::vector<std::string> a, e;
    for (const std::string& l : actual) {
      for (std::string& v : SplitTabs(l)) a.push_back(std::move(v));
    }
    for (const std::string& l : expected) {
      for (std::string& v : SplitTabs(l)) e.push_back(std::move(v));
    }
    if (record.sort == SortMode::kValueSort) {
      std::sort(a.begin(), a.end());
      std::sort(e.begin(), e.end());
    } else if (record.sort == SortMode::kRowSort) {
      std::sort(actual.begin(), actual.end());
      a.clear();
      for (const std::string& l : actual) {
        for (std::string& v : SplitTabs(l)) a.push_back(std::move(v));
      }
      // Rows of expected values: regroup by ncols and sort the rows.
      std::vector<std::string> rows;
      for (size_t k = 0; k + ncols <= e.size(); k += ncols) {
        std::string row;
        for (int c = 0; c < ncols; ++c) row += (c ? "\t" : "") + e[k + c];
        rows.push_back(row);
      }
      std::sort(rows.begin(), rows.end());
      e.clear();
      for (const std::string& l : rows) {
        for (std::string& v : SplitTabs(l)) e.push_back(std::move(v));
      }
    }
    if (a == e) return "";
    return "result values differ\n  expected:\n" + Listing(e) + "  actual:\n" + Listing(a);
  }

  if (record.sort == SortMode::kRowSort) {
    std::sort(actual.begin(), actual.end());
    std::sort(expected.begin(), expected.end());
  }
  if (actual == expected) return "";
  std::string msg = expected.size() != actual.size()
                        ? "expected " + std::to_string(expected.size()) + " row(s), got " +
                              std::to_string(actual.size())
                        : "result rows differ";
  for (size_t k = 0; k < std::min(actual.size(), expected.size()); ++k) {
    if (actual[k] != expected[k]) {
      msg += " (first difference at row " + std::to_string(k + 1) + ")";
      break;
    }
  }
  return msg + "\n  expected:\n" + Listing(expected) + "  actual:\n" + Listing(actual);
}

}  // namespace shoal::cli
