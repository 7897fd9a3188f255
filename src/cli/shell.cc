#include "cli/shell.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>

#include "cli/line_editor.h"
#include "cli/sigint_router.h"
#include "io/routing_file_system.h"

namespace shoal::cli {

namespace {

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string OneLine(std::string s) {
  for (char& c : s) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return s;
}

std::string HistoryPath() {
  const char* home = std::getenv("HOME");
  if (!home || !*home) return "";
  return std::string(home) + "/.shoal_history";
}

}  // namespace

ShellTerminal ShellTerminal::Detect() {
  ShellTerminal t;
  t.stdin_tty = isatty(STDIN_FILENO);
  t.stdout_tty = isatty(STDOUT_FILENO);
  t.stderr_tty = isatty(STDERR_FILENO);
  t.width = 80;
  struct winsize ws;
  if (t.stdout_tty && ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) t.width = ws.ws_col;
  return t;
}

Shell::Shell(const ShellOptions& options, ShellTerminal terminal)
    : options_(options),
      terminal_(terminal),
      format_(options.format.value_or(OutputFormat::kTable)),
      interactive_(options.inputs.empty() && terminal.stdin_tty),
      progress_(terminal.width) {}

Shell::~Shell() {
  con_.reset();
  db_.reset();
}

Result<std::unique_ptr<Shell>> Shell::Open(const ShellOptions& options, ShellTerminal terminal) {
  std::unique_ptr<Shell> shell(new Shell(options, terminal));
  DatabaseOptions db_options;
  db_options.threads = options.threads;
  db_options.memory_limit = options.memory_limit;
  if (shell->ProgressWanted()) {
    Shell* s = shell.get();
    db_options.progress = [s](double fraction, const std::string& what) { s->OnProgress(fraction, what); };
  }
  ASSIGN_OR_RETURN(shell->db_, Database::Open(options.warehouse_dir, std::move(db_options)));
  shell->con_ = shell->db_->Connect();
  return shell;
}

bool Shell::ProgressWanted() const {
  return terminal_.stderr_tty && (interactive_ || terminal_.stdout_tty);
}

void Shell::OnProgress(double fraction, const std::string& what) {
  std::lock_guard<std::mutex> lock(progress_mu_);
  if (!progress_active_) return;
  std::string text = progress_.Update(fraction, what, NowMs());
  if (!text.empty()) {
    std::fwrite(text.data(), 1, text.size(), terminal_.err);
    std::fflush(terminal_.err);
  }
}

void Shell::ClearProgress() {
  std::lock_guard<std::mutex> lock(progress_mu_);
  std::string text = progress_.Clear();
  if (!text.empty()) {
    std::fwrite(text.data(), 1, text.size(), terminal_.err);
    std::fflush(terminal_.err);
  }
}

void Shell::PrintError(const Status& status) {
  ClearProgress();
  std::fflush(terminal_.out);
  std::string line = OneLine(status.ToString()) + "\n";
  std::fwrite(line.data(), 1, line.size(), terminal_.err);
  std::fflush(terminal_.err);
}

bool Shell::RunSql(std::string_view sql) {
  TableLayout layout;
  layout.max_width = terminal_.width;
  Sink sink = [this](std::string_view chunk) { std::fwrite(chunk.data(), 1, chunk.size(), terminal_.out); };
  auto start = std::chrono::steady_clock::now();
  {
    std::lock_guard<std::mutex> lock(progress_mu_);
    progress_.Start(NowMs());
    progress_active_ = true;
  }
  // S3 requests made by each statement (`s3_stats` line), when s3:// paths are in use.
  auto routing = std::dynamic_pointer_cast<io::RoutingFileSystem>(io::DefaultFileSystem());
  auto s3_stats_now = [&routing]() -> std::optional<io::S3Stats> {
    std::shared_ptr<io::S3FileSystem> s3 = routing ? routing->s3_if_used() : nullptr;
    if (!s3) return std::nullopt;
    return s3->stats();
  };
  io::S3Stats s3_before = s3_stats_now().value_or(io::S3Stats());
  Status st = con_->Execute(sql, [&](const std::string&, QueryResult& result) -> Status {
    auto end = std::chrono::steady_clock::now();
    ClearProgress();
    WriteResult(result, format_, layout, sink);
    if (timer_) {
      double secs = std::chrono::duration<double>(end - start).count();
      std::fprintf(terminal_.out, "Run Time (s): real %.3f\n", secs);
    }
    std::fflush(terminal_.out);
    if (options_.stats) {
      std::string line = "stats " + result.metrics().ToJson() + "\n";
      if (std::optional<io::S3Stats> s3_now = s3_stats_now()) {
        io::S3Stats used = s3_now->Since(s3_before);
        if (used.Requests() > 0) line += "s3_stats " + used.ToJson() + "\n";
        s3_before = *s3_now;
      }
      std::fwrite(line.data(), 1, line.size(), terminal_.err);
      std::fflush(terminal_.err);
    }
    std::lock_guard<std::mutex> lock(progress_mu_);
    progress_.Start(NowMs());
    start = std::chrono::steady_clock::now();
    return Status::OK();
  });
  {
    std::lock_guard<std::mutex> lock(progress_mu_);
    progress_active_ = false;
  }
  ClearProgress();
  if (!st.ok()) {
    PrintError(st);
    return false;
  }
  return true;
}

bool Shell::RunDotCommand(std::string_view line, bool* exit) {
  auto parsed = ParseDotCommand(line);
  if (!parsed.ok()) {
    PrintError(parsed.status());
    return false;
  }
  switch (parsed->kind) {
    case DotCommand::Kind::kHelp: {
      std::string help = DotHelpText();
      std::fwrite(help.data(), 1, help.size(), terminal_.out);
      std::fflush(terminal_.out);
      return true;
    }
    case DotCommand::Kind::kTables: return RunSql("SHOW TABLES");
    case DotCommand::Kind::kExit: *exit = true; return true;
    case DotCommand::Kind::kMode: format_ = parsed->format; return true;
    case DotCommand::Kind::kTimer: timer_ = parsed->timer; return true;
  }
  return true;
}

bool Shell::RunLines(std::istream& in) {
  StatementReader reader;
  std::string line;
  while (std::getline(in, line)) {
    std::optional<InputUnit> unit = reader.AddLine(line);
    if (!unit) continue;
    if (unit->kind == InputUnit::Kind::kDotCommand) {
      bool exit = false;
      if (!RunDotCommand(unit->text, &exit)) return false;
      if (exit) return true;
    } else if (!RunSql(unit->text)) {
      return false;
    }
  }
  if (std::optional<InputUnit> rest = reader.Finish()) return RunSql(rest->text);
  return true;
}

int Shell::RunInteractive() {
  auto router = SigintRouter::Install();
  if (!router.ok()) {
    PrintError(router.status());
    return 1;
  }
  std::fprintf(terminal_.out, "%s — enter .help for usage hints.\n", Version());
  std::fflush(terminal_.out);
  LineEditor editor(HistoryPath(), (*router)->idle_fd());
  StatementReader reader;
  int status = 0;
  for (;;) {
    std::string line;
    LineEditor::Event ev = editor.ReadLine(reader.in_statement() ? "   ‣ " : "shoal> ", &line);
    if (ev == LineEditor::Event::kEof) break;
    if (ev == LineEditor::Event::kInterrupted) {
      reader.Clear();
      continue;
    }
    std::optional<InputUnit> unit = reader.AddLine(line);
    if (!unit) continue;
    editor.AddHistory(unit->text);
    if (unit->kind == InputUnit::Kind::kDotCommand) {
      bool exit = false;
      if (!RunDotCommand(unit->text, &exit)) status = 1;
      if (exit) break;
      continue;
    }
    (*router)->DrainIdle();
    (*router)->SetRunning(con_.get());
    if (!RunSql(unit->text)) status = 1;
    (*router)->SetRunning(nullptr);
  }
  return status;
}

int Shell::Run() {
  if (!options_.inputs.empty()) {
    for (const ShellInput& input : options_.inputs) {
      if (input.kind == ShellInput::Kind::kSql) {
        if (!RunSql(input.text)) return 1;
        continue;
      }
      std::ifstream file(input.text);
      if (!file) {
        PrintError(Status::IOError("cannot open " + input.text));
        return 1;
      }
      if (!RunLines(file)) return 1;
    }
    return 0;
  }
  if (interactive_) return RunInteractive();
  return RunLines(std::cin) ? 0 : 1;
}

}  // namespace shoal::cli
