// Parses the shell's dot commands (.help, .tables, .exit/.quit, .mode F, .timer on|off).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "cli/output_format.h"
#include "shoal/status.h"

namespace shoal::cli {

struct DotCommand {
  enum class Kind { kHelp, kTables, kExit, kMode, kTimer };
  Kind kind = Kind::kHelp;
  OutputFormat format = OutputFormat::kTable;  // kMode
  bool timer = false;                          // kTimer
};

// Parses a line starting with '.'; InvalidArgument naming the command or argument otherwise.
Result<DotCommand> ParseDotCommand(std::string_view line);

std::string DotHelpText();

}  // namespace shoal::cli
