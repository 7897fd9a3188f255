// The `shoal` shell: opens a warehouse and runs statements from -c, -f, stdin or an interactive
// terminal, printing results in the chosen format, errors as one `<ErrorName>: <message>` line
// on stderr, and optional --stats lines and a progress bar.
//
// Thread-safety: not thread-safe; one Shell per process (it owns the terminal).
#pragma once

#include <cstdio>
#include <istream>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "cli/dot_command.h"
#include "cli/output_format.h"
#include "cli/progress_bar.h"
#include "cli/shell_options.h"
#include "cli/statement_reader.h"
#include "shoal/database.h"

namespace shoal::cli {

// Where the shell writes and what kind of streams they are.
struct ShellTerminal {
  FILE* out = stdout;
  FILE* err = stderr;
  bool stdin_tty = false;
  bool stdout_tty = false;
  bool stderr_tty = false;
  int width = 80;  // terminal columns for table output (80 when stdout is no terminal)

  // Inspects the process's stdin/stdout/stderr.
  static ShellTerminal Detect();
};

class Shell {
 public:
  // Opens the warehouse from `options` (not yet running anything).
  static Result<std::unique_ptr<Shell>> Open(const ShellOptions& options, ShellTerminal terminal);
  ~Shell();

  // Runs the whole invocation (inputs, stdin or interactive) and returns the exit status.
  int Run();

  // Runs SQL text (one or more statements); false after printing the first error.
  bool RunSql(std::string_view sql);
  // Runs lines from `in` (dot commands allowed); false at the first failure.
  bool RunLines(std::istream& in);
  // The interactive read-eval-print loop on a terminal; returns the exit status.
  int RunInteractive();

 private:
  Shell(const ShellOptions& options, ShellTerminal terminal);
  // Executes a dot command; *exit is set for .exit/.quit.
  bool RunDotCommand(std::string_view line, bool* exit);
  void PrintError(const Status& status);
  void OnProgress(double fraction, const std::string& what);
  void ClearProgress();
  bool ProgressWanted() const;

  ShellOptions options_;
  ShellTerminal terminal_;
  OutputFormat format_;
  bool timer_ = false;
  bool interactive_ = false;
  std::mutex progress_mu_;
  ProgressBar progress_;  // guarded by progress_mu_
  bool progress_active_ = false;  // guarded by progress_mu_
  // Declared last: destroyed first, while the progress state its callback uses still exists.
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

}  // namespace shoal::cli
