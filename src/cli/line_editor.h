// Reads interactive input lines with libedit's native API (histedit.h: editing, Tab completion
// by cli/completer.h, history in a file: a multi-line statement is one entry), one character at a
// time so that Ctrl-C wakes it up and the shell clears the line instead of dying. libedit draws
// plain text only; with a highlighter the editor repaints the line in colour after each key
// libedit has handled (the same characters, so libedit's idea of the screen stays true). Native,
// not the readline-compatible layer: that layer keeps rl_line_buffer / rl_point current only
// around completion, and its rl_copy_text drops the line's last character.
//
// Thread-safety: not thread-safe; the editor's state is process-global, so use one LineEditor
// at a time.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>

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
  // Colours the line being edited: `highlight` returns the line with colour codes (its visible
  // characters unchanged), or "" to leave it plain. Null = never. A line wider than the
  // terminal's row stays plain (the repaint draws one row, from column 0, between a saved and a
  // restored cursor: ESC 7 / ESC 8).
  void SetHighlighter(std::function<std::string(std::string_view line)> highlight);

 private:
  // Repaints prompt and line with the highlighter's colours; the cursor stays where libedit put it.
  void Repaint();

  struct Editor;  // libedit's EditLine and History
  std::string history_path_;
  int interrupt_fd_;
  std::unique_ptr<Editor> editor_;
  std::function<std::string(std::string_view line)> highlight_;
};

}  // namespace shoal::cli
