// Parses the `shoal` command line (see UsageText()) into ShellOptions.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/output_format.h"
#include "shoal/status.h"

namespace shoal::cli {

// One -c or -f argument, kept in command-line order.
struct ShellInput {
  enum class Kind { kSql, kFile };
  Kind kind = Kind::kSql;
  std::string text;  // SQL for kSql, a path for kFile
};

struct ShellOptions {
  // Directory whose subdirectories are tables.
  std::string warehouse_dir = ".";
  // -c / -f in order; empty = interactive (stdin a terminal) or statements from stdin.
  std::vector<ShellInput> inputs;
  // --format; unset = table.
  std::optional<OutputFormat> format;
  // --stats: print each statement's scan metrics to stderr.
  bool stats = false;
  // --summary: print one readable line of the scan metrics of each statement that read files
  // to stderr.
  bool summary = false;
  // --threads; 0 = hardware concurrency.
  int threads = 0;
  // --memory-limit in bytes (DatabaseOptions::memory_limit); 0 = 80% of physical memory.
  int64_t memory_limit = 0;
  bool show_help = false;
  bool show_version = false;
};

// Parses argv[1..argc). Accepts "-c SQL", "-cSQL", "--format F", "--format=F", "--threads N",
// "--threads=N", "--memory-limit SIZE" ('4GB', as SET memory_limit), "--" (then only the
// warehouse directory). InvalidArgument naming the option
// for unknown options, missing or bad values, or more than one directory.
Result<ShellOptions> ParseShellArgs(const std::vector<std::string>& args);

std::string UsageText();

}  // namespace shoal::cli
