// The `shoal` command-line shell; see cli/shell_options.h for the contract.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/shell.h"
#include "cli/shell_options.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  auto options = shoal::cli::ParseShellArgs(args);
  if (!options.ok()) {
    std::fprintf(stderr, "%s\n", options.status().ToString().c_str());
    return 1;
  }
  if (options->show_help) {
    std::fputs(shoal::cli::UsageText().c_str(), stdout);
    return 0;
  }
  if (options->show_version) {
    std::printf("%s\n", shoal::Version());
    return 0;
  }
  auto shell = shoal::cli::Shell::Open(*options, shoal::cli::ShellTerminal::Detect());
  if (!shell.ok()) {
    std::fprintf(stderr, "%s\n", shell.status().ToString().c_str());
    return 1;
  }
  return (*shell)->Run();
}
