#include "cli/shell_options.h"

#include <charconv>

#include "base/byte_size.h"

namespace shoal::cli {

namespace {

Status UsageError(const std::string& message) {
  return Status::InvalidArgument(message + " (see shoal --help)");
}

}  // namespace

std::string UsageText() {
  return "Usage: shoal [OPTIONS] [WAREHOUSE_DIR]\n"
         "\n"
         "Runs SQL on the Delta tables in WAREHOUSE_DIR (its subdirectories; default: the current\n"
         "directory; s3://bucket/prefix for S3, configured by the AWS_* environment variables).\n"
         "Without -c or -f, starts an interactive shell on a terminal, or runs the statements\n"
         "read from stdin.\n"
         "\n"
         "Options:\n"
         "  -c SQL         run one or more ';'-separated statements and exit (may repeat)\n"
         "  -f FILE        run the statements in FILE and exit (may repeat)\n"
         "  --format F     output format: table (default) | box | csv | json | jsonl | markdown | line\n"
         "  --stats        after each statement print `stats {...}` scan metrics to stderr (and\n"
         "                 `s3_stats {...}`: S3 requests and bytes per kind, when S3 was used)\n"
         "  --summary      after each statement that read files print one readable line of what its\n"
         "                 scans read and skipped to stderr\n"
         "  --threads N    worker threads (default: hardware concurrency)\n"
         "  --memory-limit SIZE\n"
         "                 memory for query execution, e.g. 4GB or 512MiB (default: 80% of\n"
         "                 physical memory; SET memory_limit changes it later)\n"
         "  --version      print the version and exit\n"
         "  --help         print this help and exit\n"
         "\n"
         "Exit status: 0 on success, 1 if a statement failed (later statements do not run).\n";
}

Result<ShellOptions> ParseShellArgs(const std::vector<std::string>& args) {
  ShellOptions opts;
  bool have_dir = false;
  bool only_positional = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    // Splits "--name=value" and fetches a value from the next argument otherwise.
    std::string name = a;
    std::optional<std::string> inline_value;
    if (!only_positional && a.rfind("--", 0) == 0) {
      size_t eq = a.find('=');
      if (eq != std::string::npos) {
        name = a.substr(0, eq);
        inline_value = a.substr(eq + 1);
      }
    } else if (!only_positional && a.size() > 2 && (a.rfind("-c", 0) == 0 || a.rfind("-f", 0) == 0)) {
      name = a.substr(0, 2);
      inline_value = a.substr(2);
    }
    auto value = [&]() -> Result<std::string> {
      if (inline_value) return *inline_value;
      if (i + 1 >= args.size()) return UsageError("option " + name + " needs a value");
      return args[++i];
    };
    auto no_value = [&]() -> Status {
      if (inline_value) return UsageError("option " + name + " takes no value");
      return Status::OK();
    };

    if (only_positional || a.empty() || a[0] != '-' || a == "-") {
      if (have_dir) return UsageError("unexpected argument '" + a + "': only one WAREHOUSE_DIR");
      opts.warehouse_dir = a;
      have_dir = true;
    } else if (a == "--") {
      only_positional = true;
    } else if (name == "-c") {
      ASSIGN_OR_RETURN(std::string sql, value());
      opts.inputs.push_back({ShellInput::Kind::kSql, std::move(sql)});
    } else if (name == "-f") {
      ASSIGN_OR_RETURN(std::string path, value());
      opts.inputs.push_back({ShellInput::Kind::kFile, std::move(path)});
    } else if (name == "--format") {
      ASSIGN_OR_RETURN(std::string f, value());
      auto parsed = ParseOutputFormat(f);
      if (!parsed.ok()) return UsageError(parsed.status().message());
      opts.format = *parsed;
    } else if (name == "--stats") {
      RETURN_NOT_OK(no_value());
      opts.stats = true;
    } else if (name == "--summary") {
      RETURN_NOT_OK(no_value());
      opts.summary = true;
    } else if (name == "--threads") {
      ASSIGN_OR_RETURN(std::string n, value());
      int v = -1;
      auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), v);
      if (ec != std::errc() || end != n.data() + n.size() || v < 0 || v > 4096) {
        return UsageError("--threads needs a number from 0 to 4096, got '" + n + "'");
      }
      opts.threads = v;
    } else if (name == "--memory-limit") {
      ASSIGN_OR_RETURN(std::string text, value());
      auto bytes = ParseByteSize(text);
      if (!bytes.ok() || *bytes <= 0) {
        return UsageError("--memory-limit needs a size such as 4GB or 512MiB, got '" + text + "'");
      }
      opts.memory_limit = *bytes;
    } else if (name == "--version") {
      RETURN_NOT_OK(no_value());
      opts.show_version = true;
    } else if (name == "--help" || name == "-h") {
      RETURN_NOT_OK(no_value());
      opts.show_help = true;
    } else {
      return UsageError("unknown option '" + a + "'");
    }
  }
  return opts;
}

}  // namespace shoal::cli
