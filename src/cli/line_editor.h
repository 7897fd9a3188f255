// Reads interactive input lines with libedit's readline-compatible API (editing, Tab completion
// by cli/completer.h, history in a file: a multi-line statement is one entry), waking up on
// Ctrl-C so the shell can clear the line instead of dying.
//
// Thread-safety: not thread-safe; the editor's state is process-global, so use one LineEditor
// at a time.
#pragma once

#include <functional>
#include <string>

#include "cli/completer.h"

namespace shoal::cli {

class LineEditor {
 public:
  // Loads history from `history_path` ("" = no history file); `interrupt_fd` becomes readable
  // on Ctrl-C (-1 = none).
  LineEditor(std::string history_path, int interrupt_fd);
  // Saves the history.
  ~LineEditor();
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;

  enum class Event { kLine, kEof, kInterrupted };
  // Shows `prompt` and reads one line into *line. kInterrupted: Ctrl-C cleared the line.
  Event ReadLine(const std::string& prompt, std::string* line);
  void AddHistory(const std::string& entry);
  // Completes with `source`; `pending` returns the earlier lines of the statement being typed.
  void SetCompletion(CompletionSource source, std::function<std::string()> pending);

 private:
  std::string history_path_;
  int interrupt_fd_;
};

}  // namespace shoal::cli
