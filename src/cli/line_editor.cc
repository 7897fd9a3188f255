#include "cli/line_editor.h"

#include <histedit.h>  // libedit (BSD), its native API
#include <sys/ioctl.h>
#include <sys/select.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <clocale>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cli/table_renderer.h"

namespace shoal::cli {

namespace {

constexpr int kHistoryEntries = 2000;
// Words end at these; '.', '/' and '-' stay inside (qualified names, paths).
constexpr char kWordBreaks[] = " \t\n'\"`(),;=<>+*|";

// The editor's state for libedit's plain-function hooks (one LineEditor at a time).
struct EditorState {
  std::string prompt;
  CompletionSource source;
  std::function<std::string()> pending;
};
EditorState* g_state = nullptr;

char* Prompt(EditLine*) { return g_state ? g_state->prompt.data() : const_cast<char*>(""); }

std::string CommonPrefix(const std::vector<std::string>& words) {
  std::string prefix = words.front();
  for (const std::string& w : words) {
    size_t n = 0;
    while (n < prefix.size() && n < w.size() && prefix[n] == w[n]) ++n;
    prefix.resize(n);
  }
  return prefix;
}

// Tab: completes the word before the cursor (cli/completer.h): one candidate replaces it (with
// a space after, except for a path, a quoted text or a function's "("), several replace it with
// their common prefix, or are listed when that adds nothing.
unsigned char CompleteKey(EditLine* el, int) {
  if (!g_state) return CC_ERROR;
  const LineInfo* li = el_line(el);
  const std::string before(li->buffer, li->cursor);
  const size_t start = before.find_last_of(kWordBreaks);
  const std::string word = start == std::string::npos ? before : before.substr(start + 1);
  std::string statement = g_state->pending ? g_state->pending() : "";
  if (!statement.empty()) statement.push_back('\n');
  statement += before;
  const bool in_quotes = InsideQuotes(statement);
  std::vector<std::string> matches = Complete(word, statement, g_state->source, in_quotes);
  if (matches.empty()) return CC_REFRESH_BEEP;
  std::string replacement;
  if (matches.size() == 1) {
    replacement = matches.front();
    const bool open_end = !replacement.empty() && (replacement.back() == '(' || replacement.back() == '/');
    if (!in_quotes && !open_end) replacement.push_back(' ');
  } else {
    replacement = CommonPrefix(matches);
    if (replacement.size() <= word.size()) {
      FILE* out = stdout;
      std::fputc('\n', out);
      for (const std::string& m : matches) std::fprintf(out, "%s  ", m.c_str());
      std::fputc('\n', out);
      std::fflush(out);
      return CC_REDISPLAY;
    }
  }
  el_deletestr(el, static_cast<int>(word.size()));
  if (el_insertstr(el, replacement.c_str()) != 0) return CC_ERROR;
  return CC_REFRESH;
}

// The terminal's end-of-file character (Ctrl-D unless stty says otherwise).
char EofChar() {
  struct termios t {};
  if (tcgetattr(STDIN_FILENO, &t) == 0 && t.c_cc[VEOF] != 0) return static_cast<char>(t.c_cc[VEOF]);
  return '\x04';
}

}  // namespace

struct LineEditor::Editor {
  EditLine* el = nullptr;
  History* history = nullptr;
  EditorState state;
};

LineEditor::LineEditor(std::string history_path, int interrupt_fd)
    : history_path_(std::move(history_path)), interrupt_fd_(interrupt_fd), editor_(std::make_unique<Editor>()) {
  // libedit decodes the prompt with the C library's multibyte functions: under the default "C"
  // locale the continuation prompt's "‣" would not be shown. Take the user's locale, and UTF-8
  // when that is not a multibyte one.
  if (std::setlocale(LC_CTYPE, "") == nullptr || MB_CUR_MAX == 1) std::setlocale(LC_CTYPE, "C.UTF-8");
  g_state = &editor_->state;
  HistEvent ev;
  editor_->history = history_init();
  history(editor_->history, &ev, H_SETSIZE, kHistoryEntries);
  if (!history_path_.empty()) history(editor_->history, &ev, H_LOAD, history_path_.c_str());
  EditLine* el = el_init("shoal", stdin, stdout, stderr);
  editor_->el = el;
  if (!el) return;
  el_set(el, EL_SIGNAL, 0);  // SIGINT reaches SigintRouter, not libedit's handler
  el_set(el, EL_EDITOR, "emacs");
  el_set(el, EL_PROMPT, Prompt);
  el_set(el, EL_HIST, history, editor_->history);
  // The wide call: the narrow EL_ADDFN copies name and help with wcsdup and never frees them
  // (LeakSanitizer reports it); libedit keeps these static strings' addresses instead.
  el_wset(el, EL_ADDFN, L"shoal-complete", L"complete SQL, names and paths", CompleteKey);
  el_set(el, EL_BIND, "^I", "shoal-complete", nullptr);
  // readline's keys that emacs mode lacks: incremental search, Home / End / Delete, word moves.
  el_set(el, EL_BIND, "^R", "em-inc-search-prev", nullptr);
  for (const char* home : {"\\e[1~", "\\e[7~", "\\e[H"}) el_set(el, EL_BIND, home, "ed-move-to-beg", nullptr);
  for (const char* end : {"\\e[4~", "\\e[8~", "\\e[F"}) el_set(el, EL_BIND, end, "ed-move-to-end", nullptr);
  el_set(el, EL_BIND, "\\e[3~", "ed-delete-next-char", nullptr);
  el_set(el, EL_BIND, "\\e[1;5C", "em-next-word", nullptr);
  el_set(el, EL_BIND, "\\e[1;5D", "ed-prev-word", nullptr);
  el_source(el, nullptr);  // ~/.editrc
}

LineEditor::~LineEditor() {
  HistEvent ev;
  if (!history_path_.empty()) history(editor_->history, &ev, H_SAVE, history_path_.c_str());
  if (editor_->el) el_end(editor_->el);
  history_end(editor_->history);
  g_state = nullptr;
}

void LineEditor::SetCompletion(CompletionSource source, std::function<std::string()> pending) {
  editor_->state.source = std::move(source);
  editor_->state.pending = std::move(pending);
}

void LineEditor::SetHighlighter(std::function<std::string(std::string_view line)> highlight) {
  highlight_ = std::move(highlight);
}

void LineEditor::AddHistory(const std::string& entry) {
  if (entry.empty()) return;
  HistEvent ev;
  if (history(editor_->history, &ev, H_FIRST) == 0 && ev.str && entry == ev.str) return;  // the latest
  history(editor_->history, &ev, H_ENTER, entry.c_str());
}

void LineEditor::Repaint() {
  if (!highlight_ || !editor_->el) return;
  const LineInfo* li = el_line(editor_->el);
  const std::string line(li->buffer, li->lastchar);
  FILE* out = stdout;
  struct winsize ws {};
  const int columns = ioctl(fileno(out), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 80;
  const std::string& prompt = editor_->state.prompt;
  if (line.find('\n') != std::string::npos || DisplayWidth(prompt) + DisplayWidth(line) >= columns) {
    return;  // more than one row: libedit's plain drawing stays
  }
  const std::string coloured = highlight_(line);
  if (coloured.empty()) return;
  // From column 0 of the row, between a saved and a restored cursor (ESC 7 / ESC 8): the same
  // characters as libedit drew, so its idea of the screen stays true.
  const std::string text = "\x1b" "7\r" + prompt + coloured + "\x1b" "8";
  std::fwrite(text.data(), 1, text.size(), out);
  std::fflush(out);
}

LineEditor::Event LineEditor::ReadLine(const std::string& prompt, std::string* line) {
  EditLine* el = editor_->el;
  if (!el) return Event::kEof;
  editor_->state.prompt = prompt;
  // One character per el_gets from here on; setting it draws the prompt and takes the terminal.
  el_set(el, EL_UNBUFFERED, 1);
  const char eof = EofChar();
  for (;;) {
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(STDIN_FILENO, &fds);
    int max_fd = STDIN_FILENO;
    if (interrupt_fd_ >= 0) {
      FD_SET(interrupt_fd_, &fds);
      max_fd = std::max(max_fd, interrupt_fd_);
    }
    int n = select(max_fd + 1, &fds, nullptr, nullptr, nullptr);
    if (n < 0) {
      if (errno == EINTR) continue;
      el_set(el, EL_UNBUFFERED, 0);
      return Event::kEof;
    }
    if (interrupt_fd_ >= 0 && FD_ISSET(interrupt_fd_, &fds)) {
      char buf[64];
      while (read(interrupt_fd_, buf, sizeof buf) == static_cast<ssize_t>(sizeof buf)) {
      }
      // Echo ^C before giving the terminal back: restoring it may emit a carriage return.
      std::fputs("^C", stdout);
      std::fflush(stdout);
      const LineInfo* li = el_line(el);
      el_cursor(el, static_cast<int>(li->lastchar - li->cursor));
      el_deletestr(el, static_cast<int>(li->lastchar - li->buffer));
      el_set(el, EL_UNBUFFERED, 0);
      std::fputc('\n', stdout);
      std::fflush(stdout);
      return Event::kInterrupted;
    }
    if (!FD_ISSET(STDIN_FILENO, &fds)) continue;
    int count = 0;
    const char* buf = el_gets(el, &count);
    if (buf == nullptr) {  // end of input or a read error
      el_set(el, EL_UNBUFFERED, 0);
      std::fputc('\n', stdout);
      return Event::kEof;
    }
    if (count == 1 && buf[0] == eof) {  // Ctrl-D on an empty line
      el_set(el, EL_UNBUFFERED, 0);
      std::fputc('\n', stdout);
      return Event::kEof;
    }
    if (count > 0 && (buf[count - 1] == '\n' || buf[count - 1] == '\r')) {
      line->assign(buf, static_cast<size_t>(count - 1));
      el_set(el, EL_UNBUFFERED, 0);
      return Event::kLine;
    }
    Repaint();
  }
}

}  // namespace shoal::cli
