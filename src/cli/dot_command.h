// Parses the shell's dot commands (.help lists them; README's shell section matches) into a
// kind and its argument; an unknown command is an error naming the closest known one.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "cli/output_format.h"
#include "shoal/status.h"

namespace shoal::cli {

struct DotCommand {
  enum class Kind {
    kBail, kCd, kChanges, kEcho, kExit, kHeaders, kHelp, kMaxRows, kMaxWidth, kMode, kNullValue,
    kHighlight, kOnce, kOpen, kOutput, kPrint, kProgress, kRead, kSchema, kTables, kTimer,
  };
  Kind kind = Kind::kHelp;
  OutputFormat format = OutputFormat::kTable;  // kMode
  bool on = false;                             // on|off commands
  int64_t number = 0;                          // kMaxRows, kMaxWidth
  std::string text;                            // path, table name, text; "" when absent
};

// Parses a line starting with '.'; InvalidArgument naming the command or argument otherwise
// (for an unknown command, with the closest known name).
Result<DotCommand> ParseDotCommand(std::string_view line);

// One line per command: usage and what it does.
std::string DotHelpText();

}  // namespace shoal::cli
