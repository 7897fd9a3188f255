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
#include <utility>
#include <vector>

#include "cli/completer.h"
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
  // Runs lines from `in` (dot commands allowed); false at the first failure when .bail is on
  // (the default off a terminal), else false when any unit failed.
  bool RunLines(std::istream& in);
  // The interactive read-eval-print loop on a terminal; returns the exit status.
  int RunInteractive();

 private:
  Shell(const ShellOptions& options, ShellTerminal terminal);
  // Executes a dot command; *exit is set for .exit/.quit.
  bool RunDotCommand(std::string_view line, bool* exit);
  // Opens the warehouse in `dir` (closing the current one).
  Status OpenWarehouse(const std::string& dir);
  // .schema: a CREATE TABLE line per table (all when `table` is empty).
  bool RunSchema(const std::string& table);
  std::vector<std::string> TableNames();
  // (name, type) of `table`'s columns and its partition columns into *partitions; errors are
  // printed when `found` is given (set when the table was described), else ignored.
  std::vector<std::pair<std::string, std::string>> TableColumns(const std::string& table, bool* found,
                                                                std::vector<std::string>* partitions);
  CompletionSource MakeCompletionSource();
  bool RunFile(const std::string& path);
  // Redirects results to `path` ("" = back to the terminal); `once`: for the next statement.
  bool SetOutput(const std::string& path, bool once);
  // Where results go: the .output file or the terminal's stdout.
  FILE* out() const { return output_ ? output_ : terminal_.out; }
  void Print(std::string_view text);
  // The error on one line; in the interactive shell, with the line of `sql` it points at and a
  // caret under the offending token when the error locates one.
  void PrintError(const Status& status, std::string_view sql = {});
  void OnProgress(double fraction, const std::string& what);
  void ClearProgress();
  bool ProgressWanted() const;

  ShellOptions options_;
  ShellTerminal terminal_;
  OutputFormat format_;
  TableLayout layout_;
  int max_width_ = 0;       // .maxwidth; 0 = the terminal's width
  bool timer_ = false;
  bool interactive_ = false;
  bool bail_ = true;        // .bail; off in the interactive shell
  bool echo_ = false;       // .echo
  bool changes_ = false;    // .changes
  bool highlight_ = false;  // .highlight; default: the terminal has colour (ColorWanted)
  FILE* output_ = nullptr;  // .output / .once file; null = terminal_.out
  bool output_once_ = false;
  DatabaseOptions db_options_;
  std::mutex progress_mu_;
  ProgressBar progress_;  // guarded by progress_mu_
  bool progress_active_ = false;  // guarded by progress_mu_
  bool progress_on_ = true;       // .progress; guarded by progress_mu_
  // Declared last: destroyed first, while the progress state its callback uses still exists.
  std::unique_ptr<Database> db_;
  std::unique_ptr<Connection> con_;
};

}  // namespace shoal::cli
