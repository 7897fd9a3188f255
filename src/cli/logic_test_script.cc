#include "cli/logic_test_script.h"

#include <charconv>

namespace shoal::cli {

namespace {

constexpr int kMaxLoopIterations = 1000000;

std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string_view::npos ? text.size() : nl;
    std::string line(text.substr(start, end - start));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

std::vector<std::string> SplitWords(std::string_view line) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) words.emplace_back(line.substr(start, i - start));
  }
  return words;
}

bool IsBlank(std::string_view line) {
  for (char c : line) {
    if (c != ' ' && c != '\t') return false;
  }
  return true;
}

bool ParseInt(const std::string& s, int* out) {
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size();
}

// Substitutes ${var} in every text field of `r`.
LogicTestRecord WithLoopValue(const LogicTestRecord& r, const std::string& var, int value) {
  std::map<std::string, std::string> vars{{var, std::to_string(value)}};
  LogicTestRecord out = r;
  out.sql = SubstituteVariables(r.sql, vars);
  out.expected_error = SubstituteVariables(r.expected_error, vars);
  for (std::string& e : out.expected) e = SubstituteVariables(e, vars);
  return out;
}

struct OpenLoop {
  std::string var;
  int from = 0;
  int to = 0;
  size_t first_record = 0;
  int line = 0;
};

}  // namespace

std::string SubstituteVariables(std::string_view text, const std::map<std::string, std::string>& vars) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    size_t open = text.find("${", i);
    if (open == std::string_view::npos) break;
    size_t close = text.find('}', open + 2);
    if (close == std::string_view::npos) break;
    out.append(text.substr(i, open - i));
    auto it = vars.find(std::string(text.substr(open + 2, close - open - 2)));
    if (it != vars.end()) out.append(it->second);
    else out.append(text.substr(open, close + 1 - open));
    i = close + 1;
  }
  out.append(text.substr(i));
  return out;
}

Result<LogicTestScript> ParseLogicTest(std::string_view text, std::string_view path,
                                       const std::set<std::string>& features) {
  LogicTestScript script;
  std::vector<std::string> lines = SplitLines(text);
  std::vector<OpenLoop> loops;
  bool skipping = false;
  size_t i = 0;
  auto error = [&](size_t line_index, const std::string& message) {
    return Status::InvalidArgument(std::string(path) + ":" + std::to_string(line_index + 1) + ": " + message);
  };

  while (i < lines.size()) {
    const std::string& header = lines[i];
    if (IsBlank(header) || header[0] == '#') {
      ++i;
      continue;
    }
    const size_t header_index = i++;
    std::vector<std::string> w = SplitWords(header);
    const std::string& cmd = w[0];

    if (cmd == "halt") break;
    if (cmd == "mode") {
      if (w.size() != 2) return error(header_index, "mode needs one argument");
      if (w[1] == "skip") skipping = true;
      else if (w[1] == "unskip") skipping = false;
      else return error(header_index, "unknown mode '" + w[1] + "'");
      continue;
    }
    if (cmd == "require") {
      if (w.size() != 2) return error(header_index, "require needs one feature");
      if (!features.count(w[1])) {
        script.skip_reason = "require " + w[1] + ": feature not supported";
        script.records.clear();
        return script;
      }
      continue;
    }
    if (cmd == "loop") {
      OpenLoop loop;
      if (w.size() != 4 || !ParseInt(w[2], &loop.from) || !ParseInt(w[3], &loop.to)) {
        return error(header_index, "expected 'loop VAR FROM TO'");
      }
      if (loop.to - static_cast<int64_t>(loop.from) > kMaxLoopIterations) {
        return error(header_index, "loop has more than " + std::to_string(kMaxLoopIterations) + " iterations");
      }
      loop.var = w[1];
      loop.first_record = script.records.size();
      loop.line = static_cast<int>(header_index + 1);
      loops.push_back(loop);
      continue;
    }
    if (cmd == "endloop") {
      if (loops.empty()) return error(header_index, "endloop without loop");
      OpenLoop loop = loops.back();
      loops.pop_back();
      std::vector<LogicTestRecord> body(script.records.begin() + loop.first_record, script.records.end());
      script.records.resize(loop.first_record);
      for (int v = loop.from; v < loop.to; ++v) {
        for (const LogicTestRecord& r : body) script.records.push_back(WithLoopValue(r, loop.var, v));
      }
      continue;
    }
    if (cmd == "concurrentloop" || cmd == "load") {
      return error(header_index, "'" + cmd + "' is not supported");
    }

    LogicTestRecord rec;
    rec.line = static_cast<int>(header_index + 1);
    if (cmd == "restart") {
      rec.kind = LogicTestRecord::Kind::kRestart;
      if (!skipping) script.records.push_back(std::move(rec));
      else ++script.skipped;
      continue;
    }
    if (cmd == "statement") {
      if (w.size() < 2) return error(header_index, "expected 'statement ok' or 'statement error'");
      if (w[1] == "ok") {
        rec.kind = LogicTestRecord::Kind::kStatementOk;
        if (w.size() > 3) return error(header_index, "unexpected text after 'statement ok CONNECTION'");
        if (w.size() == 3) rec.connection = w[2];
      } else if (w[1] == "error") {
        rec.kind = LogicTestRecord::Kind::kStatementError;
        // "statement error con1" names a connection; "statement error SomeException[: text]" the error.
        if (w.size() == 3 && w[2].find("Exception") == std::string::npos && w[2].find(':') == std::string::npos) {
          rec.connection = w[2];
        } else if (w.size() >= 3) {
          size_t pos = header.find("error") + 5;
          while (pos < header.size() && (header[pos] == ' ' || header[pos] == '\t')) ++pos;
          rec.expected_error = header.substr(pos);
        }
      } else {
        return error(header_index, "unknown statement kind '" + w[1] + "'");
      }
    } else if (cmd == "query") {
      rec.kind = LogicTestRecord::Kind::kQuery;
      if (w.size() < 2) return error(header_index, "query needs its column types (e.g. 'query IT')");
      rec.types = w[1];
      for (size_t k = 2; k < w.size(); ++k) {
        if (w[k] == "rowsort") rec.sort = SortMode::kRowSort;
        else if (w[k] == "valuesort") rec.sort = SortMode::kValueSort;
        else if (w[k] == "nosort") rec.sort = SortMode::kNoSort;
        else if (k + 1 == w.size()) rec.connection = w[k];
        else return error(header_index, "unexpected '" + w[k] + "' in query header");
      }
    } else {
      return error(header_index, "unknown record '" + cmd + "'");
    }

    // SQL lines up to "----" or a blank line.
    std::string sql;
    while (i < lines.size() && !IsBlank(lines[i]) && lines[i] != "----") {
      if (!sql.empty()) sql.push_back('\n');
      sql += lines[i++];
    }
    if (sql.empty()) return error(header_index, "record has no SQL");
    rec.sql = std::move(sql);
    bool has_result = i < lines.size() && lines[i] == "----";
    if (has_result) {
      ++i;
      std::vector<std::string> result;
      while (i < lines.size() && !lines[i].empty()) result.push_back(lines[i++]);
      if (rec.kind == LogicTestRecord::Kind::kQuery) {
        rec.expected = std::move(result);
      } else if (rec.kind == LogicTestRecord::Kind::kStatementError) {
        std::string expected;
        for (const std::string& r : result) expected += (expected.empty() ? "" : "\n") + r;
        rec.expected_error = std::move(expected);
      } else {
        return error(header_index, "'statement ok' has no expected result ('----')");
      }
    } else if (rec.kind == LogicTestRecord::Kind::kQuery) {
      return error(header_index, "query without '----' and expected rows");
    }
    if (skipping) ++script.skipped;
    else script.records.push_back(std::move(rec));
  }
  if (!loops.empty()) {
    return Status::InvalidArgument(std::string(path) + ":" + std::to_string(loops.back().line) +
                                   ": loop without endloop");
  }
  return script;
}

}  // namespace shoal::cli
