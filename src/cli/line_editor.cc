#include "cli/line_editor.h"

#include <sys/select.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <clocale>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <editline/readline.h>  // libedit (BSD), readline-compatible API

namespace shoal::cli {

namespace {

constexpr int kHistoryEntries = 2000;

// The readline callback interface delivers the line through a plain function.
bool g_line_done = false;
char* g_line = nullptr;

void OnLine(char* line) {
  g_line_done = true;
  g_line = line;
  rl_callback_handler_remove();
}

// Completion state for libedit's plain-function hooks (one LineEditor at a time).
CompletionSource g_source;
std::function<std::string()> g_pending;
std::vector<std::string> g_matches;
size_t g_next_match = 0;
// Words end at these; '.', '/' and '-' stay inside (qualified names, paths).
char g_word_breaks[] = " \t\n'\"`(),;=<>+*|";

char* NextMatch(const char*, int state) {
  if (state == 0) g_next_match = 0;
  if (g_next_match >= g_matches.size()) return nullptr;
  return strdup(g_matches[g_next_match++].c_str());
}

char** AttemptCompletion(const char* text, int start, int end) {
  rl_attempted_completion_over = 1;  // no fallback to file names
  std::string line(rl_line_buffer ? rl_line_buffer : "");
  line.resize(std::min<size_t>(line.size(), static_cast<size_t>(std::max(end, 0))));
  std::string statement = g_pending ? g_pending() : "";
  if (!statement.empty()) statement.push_back('\n');
  statement += line;
  const bool in_quotes = InsideQuotes(statement);
  g_matches = Complete(text, statement, g_source, in_quotes);
  if (g_matches.empty()) return nullptr;
  const std::string& only = g_matches.front();
  const bool open_end = g_matches.size() == 1 && !only.empty() && (only.back() == '(' || only.back() == '/');
  rl_completion_append_character = in_quotes || open_end ? '\0' : ' ';
  return rl_completion_matches(text, NextMatch);
}

}  // namespace

LineEditor::LineEditor(std::string history_path, int interrupt_fd)
    : history_path_(std::move(history_path)), interrupt_fd_(interrupt_fd) {
  // libedit decodes the prompt with the C library's multibyte functions: under the default "C"
  // locale the continuation prompt's "‣" would not be shown. Take the user's locale, and UTF-8
  // when that is not a multibyte one.
  if (std::setlocale(LC_CTYPE, "") == nullptr || MB_CUR_MAX == 1) std::setlocale(LC_CTYPE, "C.UTF-8");
  rl_catch_signals = 0;  // SIGINT reaches SigintRouter, not readline's handler
  rl_readline_name = "shoal";
  rl_basic_word_break_characters = g_word_breaks;
  rl_attempted_completion_function = AttemptCompletion;
  using_history();
  stifle_history(kHistoryEntries);
  if (!history_path_.empty()) read_history(history_path_.c_str());
}

LineEditor::~LineEditor() {
  if (!history_path_.empty()) write_history(history_path_.c_str());
  g_source = {};
  g_pending = nullptr;
}

void LineEditor::SetCompletion(CompletionSource source, std::function<std::string()> pending) {
  g_source = std::move(source);
  g_pending = std::move(pending);
}

void LineEditor::AddHistory(const std::string& entry) {
  if (entry.empty()) return;
  HIST_ENTRY* last = history_length > 0 ? history_get(history_base + history_length - 1) : nullptr;
  if (last && last->line && entry == last->line) return;
  add_history(entry.c_str());
}

LineEditor::Event LineEditor::ReadLine(const std::string& prompt, std::string* line) {
  g_line_done = false;
  g_line = nullptr;
  rl_callback_handler_install(prompt.c_str(), OnLine);
  const int in_fd = fileno(rl_instream ? rl_instream : stdin);
  while (!g_line_done) {
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(in_fd, &fds);
    int max_fd = in_fd;
    if (interrupt_fd_ >= 0) {
      FD_SET(interrupt_fd_, &fds);
      if (interrupt_fd_ > max_fd) max_fd = interrupt_fd_;
    }
    int n = select(max_fd + 1, &fds, nullptr, nullptr, nullptr);
    if (n < 0) {
      if (errno == EINTR) continue;
      rl_callback_handler_remove();
      return Event::kEof;
    }
    if (interrupt_fd_ >= 0 && FD_ISSET(interrupt_fd_, &fds)) {
      char buf[64];
      while (read(interrupt_fd_, buf, sizeof buf) == static_cast<ssize_t>(sizeof buf)) {
      }
      // Echo ^C before removing the handler: restoring the terminal may emit a carriage return.
      FILE* out = rl_outstream ? rl_outstream : stdout;
      std::fputs("^C", out);
      std::fflush(out);
      rl_free_line_state();
      rl_replace_line("", 0);
      rl_callback_handler_remove();
      std::fputc('\n', out);
      std::fflush(out);
      return Event::kInterrupted;
    }
    if (FD_ISSET(in_fd, &fds)) rl_callback_read_char();
  }
  if (g_line == nullptr) {
    std::fputc('\n', rl_outstream ? rl_outstream : stdout);
    return Event::kEof;
  }
  line->assign(g_line);
  std::free(g_line);
  g_line = nullptr;
  return Event::kLine;
}

}  // namespace shoal::cli
