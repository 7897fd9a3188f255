#include "cli/shell.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <vector>

#include "cli/error_pointer.h"
#include "cli/line_editor.h"
#include "cli/scan_summary.h"
#include "cli/sigint_router.h"
#include "cli/syntax_highlighter.h"
#include "expr/aggregate_functions.h"
#include "expr/function_registry.h"
#include "sql/functions/table_function.h"
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
      bail_(!interactive_),
      progress_(terminal.width) {}

Shell::~Shell() {
  con_.reset();
  db_.reset();
  if (output_) std::fclose(output_);
}

Result<std::unique_ptr<Shell>> Shell::Open(const ShellOptions& options, ShellTerminal terminal) {
  std::unique_ptr<Shell> shell(new Shell(options, terminal));
  DatabaseOptions& db_options = shell->db_options_;
  db_options.threads = options.threads;
  db_options.memory_limit = options.memory_limit;
  if (shell->ProgressWanted()) {
    Shell* s = shell.get();
    db_options.progress = [s](double fraction, const std::string& what) { s->OnProgress(fraction, what); };
  }
  RETURN_NOT_OK(shell->OpenWarehouse(options.warehouse_dir));
  return shell;
}

Status Shell::OpenWarehouse(const std::string& dir) {
  ASSIGN_OR_RETURN(std::unique_ptr<Database> db, Database::Open(dir, db_options_));
  con_.reset();
  db_ = std::move(db);
  con_ = db_->Connect();
  return Status::OK();
}

void Shell::Print(std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), out());
  std::fflush(out());
}

bool Shell::SetOutput(const std::string& path, bool once) {
  if (output_) std::fclose(output_);
  output_ = nullptr;
  output_once_ = false;
  if (path.empty()) return true;
  output_ = std::fopen(path.c_str(), "w");
  if (!output_) {
    PrintError(Status::IOError("cannot open " + path + " for writing"));
    return false;
  }
  output_once_ = once;
  return true;
}

bool Shell::ProgressWanted() const {
  return terminal_.stderr_tty && (interactive_ || terminal_.stdout_tty);
}

void Shell::OnProgress(double fraction, const std::string& what) {
  std::lock_guard<std::mutex> lock(progress_mu_);
  if (!progress_active_ || !progress_on_) return;
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

void Shell::PrintError(const Status& status, std::string_view sql) {
  ClearProgress();
  std::fflush(out());
  std::string line = OneLine(status.ToString()) + "\n";
  if (interactive_ && !sql.empty()) line += ErrorPointer(status, sql);
  std::fwrite(line.data(), 1, line.size(), terminal_.err);
  std::fflush(terminal_.err);
}

bool Shell::RunSql(std::string_view sql) {
  TableLayout layout = layout_;
  layout.max_width = max_width_ > 0 ? max_width_ : terminal_.width;
  FILE* const dest = out();
  Sink sink = [dest](std::string_view chunk) { std::fwrite(chunk.data(), 1, chunk.size(), dest); };
  if (echo_) Print(std::string(sql) + "\n");
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
    const std::string& type = result.statement_type();
    if (changes_ && (type == "INSERT" || type == "UPDATE" || type == "DELETE" || type == "MERGE") &&
        result.num_columns() > 0 && result.num_rows() > 0) {
      std::fprintf(dest, "changes: %s\n", result.GetText(0, 0).c_str());
    }
    if (timer_) {
      double secs = std::chrono::duration<double>(end - start).count();
      std::fprintf(dest, "Run Time (s): real %.3f\n", secs);
    }
    std::fflush(dest);
    const ScanMetrics& scanned = result.metrics();
    if (options_.summary && (scanned.files_total > 0 || scanned.row_groups_total > 0)) {
      std::string line = ScanSummaryLine(result.metrics()) + "\n";
      std::fwrite(line.data(), 1, line.size(), terminal_.err);
      std::fflush(terminal_.err);
    }
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
  if (output_once_) SetOutput("", false);
  if (!st.ok()) {
    PrintError(st, sql);
    return false;
  }
  return true;
}

namespace {

// `name` as a Spark identifier: backquoted unless plain.
std::string QuoteIdentifier(const std::string& name) {
  bool plain = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
  for (char c : name) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (plain) return name;
  std::string out = "`";
  for (char c : name) {
    if (c == '`') out.push_back('`');
    out.push_back(c);
  }
  return out + "`";
}

}  // namespace

std::vector<std::string> Shell::TableNames() {
  std::vector<std::string> names;
  auto shown = con_->Query("SHOW TABLES");
  if (!shown.ok()) return names;
  for (int64_t r = 0; r < shown->num_rows(); ++r) names.push_back(shown->GetText(r, 0));
  return names;
}

std::vector<std::pair<std::string, std::string>> Shell::TableColumns(const std::string& table, bool* partitions_follow,
                                                                     std::vector<std::string>* partitions) {
  std::vector<std::pair<std::string, std::string>> columns;
  auto described = con_->Query("DESCRIBE TABLE " + QuoteIdentifier(table));
  if (!described.ok()) {
    if (partitions_follow) PrintError(described.status());
    return columns;
  }
  if (partitions_follow) *partitions_follow = true;
  // Columns, then (after "# Partition Information" and a header row) the partition columns.
  bool in_partitions = false;
  for (int64_t r = 0; r < described->num_rows(); ++r) {
    std::string col = described->GetText(r, 0);
    if (col.rfind("#", 0) == 0) {
      in_partitions = col == "# Partition Information" || (in_partitions && col == "# col_name");
      continue;
    }
    if (col.empty()) {
      in_partitions = false;
      continue;
    }
    if (in_partitions) {
      if (partitions) partitions->push_back(col);
    } else {
      columns.emplace_back(col, described->GetText(r, 1));
    }
  }
  return columns;
}

CompletionSource Shell::MakeCompletionSource() {
  CompletionSource source;
  source.tables = [this] { return TableNames(); };
  source.columns = [this](const std::string& table) {
    std::vector<std::string> names;
    for (auto& [name, type] : TableColumns(table, nullptr, nullptr)) names.push_back(name);
    return names;
  };
  source.functions = expr::FunctionRegistry::Get().Names();
  for (const std::string& f : sql::TableFunctionRegistry::Get().Names()) source.functions.push_back(f);
  for (const char* agg : {"approx_count_distinct", "array_agg", "avg", "collect_list", "collect_set", "count",
                          "count_if", "first", "last", "max", "max_by", "median", "min", "min_by", "percentile",
                          "stddev", "string_agg", "sum", "variance"}) {
    if (expr::IsAggregateFunction(agg)) source.functions.push_back(agg);
  }
  return source;
}

bool Shell::RunSchema(const std::string& table) {
  std::vector<std::string> tables = table.empty() ? TableNames() : std::vector<std::string>{table};
  std::string text;
  for (const std::string& name : tables) {
    bool found = false;
    std::vector<std::string> partitions;
    std::vector<std::pair<std::string, std::string>> columns = TableColumns(name, &found, &partitions);
    if (!found) return false;
    text += "CREATE TABLE " + QuoteIdentifier(name) + " (";
    for (size_t i = 0; i < columns.size(); ++i) {
      text += (i ? ", " : "") + QuoteIdentifier(columns[i].first) + " " + columns[i].second;
    }
    text += ")";
    for (size_t i = 0; i < partitions.size(); ++i) {
      text += (i ? ", " : " PARTITIONED BY (") + QuoteIdentifier(partitions[i]);
    }
    text += partitions.empty() ? ";\n" : ");\n";
  }
  Print(text);
  return true;
}

bool Shell::RunFile(const std::string& path) {
  std::ifstream file(path);
  if (!file) {
    PrintError(Status::IOError("cannot open " + path));
    return false;
  }
  return RunLines(file);
}

bool Shell::RunDotCommand(std::string_view line, bool* exit) {
  auto parsed = ParseDotCommand(line);
  if (!parsed.ok()) {
    PrintError(parsed.status());
    return false;
  }
  const DotCommand& dc = *parsed;
  using K = DotCommand::Kind;
  switch (dc.kind) {
    case K::kHelp: Print(DotHelpText()); return true;
    case K::kTables: return RunSql("SHOW TABLES");
    case K::kExit: *exit = true; return true;
    case K::kMode: format_ = dc.format; return true;
    case K::kTimer: timer_ = dc.on; return true;
    case K::kBail: bail_ = dc.on; return true;
    case K::kEcho: echo_ = dc.on; return true;
    case K::kChanges: changes_ = dc.on; return true;
    case K::kHeaders: layout_.headers = dc.on; return true;
    case K::kNullValue: layout_.null_value = dc.text; return true;
    case K::kMaxRows: layout_.max_rows = static_cast<int>(std::min<int64_t>(dc.number, 1 << 30)); return true;
    case K::kMaxWidth: max_width_ = static_cast<int>(std::min<int64_t>(dc.number, 1 << 20)); return true;
    case K::kPrint: Print(dc.text + "\n"); return true;
    case K::kHighlight: highlight_ = dc.on; return true;
    case K::kProgress: {
      std::lock_guard<std::mutex> lock(progress_mu_);
      progress_on_ = dc.on;
      return true;
    }
    case K::kOutput: return SetOutput(dc.text, false);
    case K::kOnce: return SetOutput(dc.text, true);
    case K::kRead: return RunFile(dc.text);
    case K::kSchema: return RunSchema(dc.text);
    case K::kCd: {
      std::error_code ec;
      std::filesystem::current_path(dc.text, ec);
      if (ec) {
        PrintError(Status::IOError("cannot change directory to " + dc.text + ": " + ec.message()));
        return false;
      }
      return true;
    }
    case K::kOpen: {
      Status st = OpenWarehouse(dc.text);
      if (!st.ok()) {
        PrintError(st);
        return false;
      }
      return true;
    }
  }
  return true;
}

bool Shell::RunLines(std::istream& in) {
  StatementReader reader;
  std::string line;
  bool ok = true;
  while (std::getline(in, line)) {
    std::optional<InputUnit> unit = reader.AddLine(line);
    if (!unit) continue;
    bool unit_ok = true;
    if (unit->kind == InputUnit::Kind::kDotCommand) {
      bool exit = false;
      unit_ok = RunDotCommand(unit->text, &exit);
      if (exit) return ok && unit_ok;
    } else {
      unit_ok = RunSql(unit->text);
    }
    ok = ok && unit_ok;
    if (!unit_ok && bail_) return false;
  }
  if (std::optional<InputUnit> rest = reader.Finish()) ok = RunSql(rest->text) && ok;
  return ok;
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
  editor.SetCompletion(MakeCompletionSource(), [&reader] { return reader.pending(); });
  highlight_ = ColorWanted(terminal_.stdin_tty, terminal_.stdout_tty, std::getenv("TERM"), std::getenv("NO_COLOR"));
  editor.SetHighlighter([this, &reader](std::string_view line) -> std::string {
    if (!highlight_) return "";
    std::string before = reader.pending();
    if (!before.empty()) before.push_back('\n');
    return HighlightSql(line, before);
  });
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
    bool ok = true;
    if (unit->kind == InputUnit::Kind::kDotCommand) {
      bool exit = false;
      ok = RunDotCommand(unit->text, &exit);
      if (exit) {
        if (!ok) status = 1;
        break;
      }
    } else {
      (*router)->DrainIdle();
      (*router)->SetRunning(con_.get());
      ok = RunSql(unit->text);
      (*router)->SetRunning(nullptr);
    }
    if (!ok) {
      status = 1;
      if (bail_) break;
    }
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
      if (!RunFile(input.text)) return 1;
    }
    return 0;
  }
  if (interactive_) return RunInteractive();
  return RunLines(std::cin) ? 0 : 1;
}

}  // namespace shoal::cli
