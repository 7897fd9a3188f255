#include "cli/dot_command.h"

#include <algorithm>
#include <charconv>
#include <vector>

namespace shoal::cli {

namespace {

enum class Args { kNone, kOnOff, kNumber, kWord, kOptionalWord, kRest };

struct CommandDef {
  const char* name;
  DotCommand::Kind kind;
  Args args;
  const char* usage;
  const char* help;
};

const std::vector<CommandDef>& Commands() {
  using K = DotCommand::Kind;
  static const std::vector<CommandDef> defs = {
      {".bail", K::kBail, Args::kOnOff, ".bail on|off", "stop at the first error (default: on for files and pipes)"},
      {".cd", K::kCd, Args::kWord, ".cd DIR", "change the working directory"},
      {".changes", K::kChanges, Args::kOnOff, ".changes on|off", "print the rows each INSERT/UPDATE/DELETE/MERGE changed"},
      {".echo", K::kEcho, Args::kOnOff, ".echo on|off", "print each statement before running it"},
      {".exit", K::kExit, Args::kNone, ".exit, .quit", "leave the shell"},
      {".headers", K::kHeaders, Args::kOnOff, ".headers on|off", "show column names (table, box, csv, markdown)"},
      {".help", K::kHelp, Args::kNone, ".help", "show this help"},
      {".highlight", K::kHighlight, Args::kOnOff, ".highlight on|off", "colour SQL as it is typed (on when the terminal has colour)"},
      {".maxrows", K::kMaxRows, Args::kNumber, ".maxrows N", "rows a table shows before eliding the middle (40)"},
      {".maxwidth", K::kMaxWidth, Args::kNumber, ".maxwidth N", "columns a table may take (0: the terminal's)"},
      {".mode", K::kMode, Args::kWord, ".mode FORMAT", "table, box, csv, json, jsonl, markdown or line"},
      {".nullvalue", K::kNullValue, Args::kRest, ".nullvalue TEXT", "show NULL as TEXT (default NULL; empty in csv)"},
      {".once", K::kOnce, Args::kWord, ".once FILE", "write the next statement's result to FILE"},
      {".open", K::kOpen, Args::kWord, ".open DIR", "close this warehouse and open the one in DIR"},
      {".output", K::kOutput, Args::kOptionalWord, ".output [FILE]", "write results to FILE (no FILE: the terminal)"},
      {".print", K::kPrint, Args::kRest, ".print TEXT", "print TEXT"},
      {".progress", K::kProgress, Args::kOnOff, ".progress on|off", "progress bar for statements over 2 s (terminal only)"},
      {".quit", K::kExit, Args::kNone, nullptr, nullptr},
      {".read", K::kRead, Args::kWord, ".read FILE", "run the statements and dot commands in FILE"},
      {".schema", K::kSchema, Args::kOptionalWord, ".schema [TABLE]", "the columns of TABLE, or of every table"},
      {".tables", K::kTables, Args::kNone, ".tables", "list the tables (SHOW TABLES)"},
      {".timer", K::kTimer, Args::kOnOff, ".timer on|off", "print each statement's run time"},
  };
  return defs;
}

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\r'; }

// The first word (the command) and the rest of the line, trimmed.
std::pair<std::string, std::string> SplitCommand(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && IsSpace(line[i])) ++i;
  size_t start = i;
  while (i < line.size() && !IsSpace(line[i])) ++i;
  std::string cmd(line.substr(start, i - start));
  while (i < line.size() && IsSpace(line[i])) ++i;
  size_t end = line.size();
  while (end > i && IsSpace(line[end - 1])) --end;
  return {cmd, std::string(line.substr(i, end - i))};
}

// An argument that may be quoted ('a b' or "a b"); unquoted, it must be one word.
Result<std::string> OneWord(const std::string& cmd, const std::string& rest) {
  if (rest.size() >= 2 && (rest.front() == '\'' || rest.front() == '"') && rest.back() == rest.front()) {
    return rest.substr(1, rest.size() - 2);
  }
  if (std::any_of(rest.begin(), rest.end(), IsSpace)) {
    return Status::InvalidArgument(cmd + " takes one argument (quote it if it has spaces)");
  }
  return rest;
}

}  // namespace

Result<DotCommand> ParseDotCommand(std::string_view line) {
  auto [cmd, rest] = SplitCommand(line);
  if (cmd.empty() || cmd[0] != '.') {
    return Status::InvalidArgument("not a dot command: '" + std::string(line) + "'");
  }
  const CommandDef* def = nullptr;
  for (const CommandDef& d : Commands()) {
    if (cmd == d.name) def = &d;
  }
  if (!def) {
    const CommandDef* best = nullptr;
    size_t best_distance = 0;
    for (const CommandDef& d : Commands()) {
      size_t distance = EditDistance(cmd, d.name);
      if (!best || distance < best_distance) {
        best = &d;
        best_distance = distance;
      }
    }
    return Status::InvalidArgument("unknown command '" + cmd + "'; did you mean " + best->name + "? (see .help)");
  }
  DotCommand dc;
  dc.kind = def->kind;
  const std::string usage = def->usage ? def->usage : def->name;
  auto usage_error = [&] { return Status::InvalidArgument("usage: " + usage); };
  switch (def->args) {
    case Args::kNone:
      if (!rest.empty()) return usage_error();
      break;
    case Args::kOnOff:
      if (rest == "on") {
        dc.on = true;
      } else if (rest != "off") {
        return Status::InvalidArgument(cmd + " expects on or off, got '" + rest + "'");
      }
      break;
    case Args::kNumber: {
      auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), dc.number);
      if (rest.empty() || ec != std::errc() || end != rest.data() + rest.size() || dc.number < 0) {
        return Status::InvalidArgument(cmd + " expects a number >= 0, got '" + rest + "'");
      }
      break;
    }
    case Args::kWord: {
      if (rest.empty()) return usage_error();
      ASSIGN_OR_RETURN(dc.text, OneWord(cmd, rest));
      break;
    }
    case Args::kOptionalWord: {
      if (!rest.empty()) {
        ASSIGN_OR_RETURN(dc.text, OneWord(cmd, rest));
      }
      break;
    }
    case Args::kRest:
      dc.text = rest;
      break;
  }
  if (dc.kind == DotCommand::Kind::kMode) {
    ASSIGN_OR_RETURN(dc.format, ParseOutputFormat(dc.text));
  }
  return dc;
}

std::string DotHelpText() {
  std::string out;
  for (const CommandDef& d : Commands()) {
    if (!d.usage) continue;
    std::string usage = d.usage;
    usage.resize(std::max<size_t>(usage.size() + 2, 20), ' ');
    out += usage + d.help + "\n";
  }
  out += "SQL statements end with ';' and may span lines; Tab completes keywords, tables, columns,\n"
         "functions and quoted file paths; Ctrl-C cancels a running statement.\n"
         "SET enable_progress_bar = false turns the progress bar off as .progress off does.\n";
  return out;
}

}  // namespace shoal::cli
