#include "cli/dot_command.h"

#include <vector>

namespace shoal::cli {

namespace {

std::vector<std::string> SplitWords(std::string_view line) {
  std::vector<std::string> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.emplace_back(line.substr(start, i - start));
  }
  return words;
}

}  // namespace

Result<DotCommand> ParseDotCommand(std::string_view line) {
  std::vector<std::string> w = SplitWords(line);
  if (w.empty() || w[0].empty() || w[0][0] != '.') {
    return Status::InvalidArgument("not a dot command: '" + std::string(line) + "'");
  }
  const std::string& cmd = w[0];
  auto expect_args = [&](size_t n) -> Status {
    if (w.size() != n + 1) {
      return Status::InvalidArgument(cmd + " takes " + std::to_string(n) + " argument" +
                                     (n == 1 ? "" : "s") + " (see .help)");
    }
    return Status::OK();
  };
  DotCommand dc;
  if (cmd == ".help") {
    dc.kind = DotCommand::Kind::kHelp;
  } else if (cmd == ".tables") {
    RETURN_NOT_OK(expect_args(0));
    dc.kind = DotCommand::Kind::kTables;
  } else if (cmd == ".exit" || cmd == ".quit") {
    dc.kind = DotCommand::Kind::kExit;
  } else if (cmd == ".mode") {
    RETURN_NOT_OK(expect_args(1));
    dc.kind = DotCommand::Kind::kMode;
    ASSIGN_OR_RETURN(dc.format, ParseOutputFormat(w[1]));
  } else if (cmd == ".timer") {
    RETURN_NOT_OK(expect_args(1));
    dc.kind = DotCommand::Kind::kTimer;
    if (w[1] == "on") dc.timer = true;
    else if (w[1] == "off") dc.timer = false;
    else return Status::InvalidArgument(".timer expects on or off, got '" + w[1] + "'");
  } else {
    return Status::InvalidArgument("unknown command '" + cmd + "' (see .help)");
  }
  return dc;
}

std::string DotHelpText() {
  return ".exit, .quit           leave the shell\n"
         ".help                  show this help\n"
         ".mode table|csv|json|jsonl  set the output format\n"
         ".tables                list the tables (SHOW TABLES)\n"
         ".timer on|off          print each statement's run time\n"
         "SQL statements end with ';' and may span lines; Ctrl-C cancels a running statement.\n";
}

}  // namespace shoal::cli
