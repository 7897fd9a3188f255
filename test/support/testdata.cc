#include "support/testdata.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace shoal::testing {

namespace fs = std::filesystem;

std::string SourceDir() {
  const char* env = std::getenv("SHOAL_SOURCE_DIR");
  return env && *env ? env : SHOAL_SOURCE_DIR;
}

std::string BinaryDir() {
  const char* env = std::getenv("SHOAL_BINARY_DIR");
  return env && *env ? env : SHOAL_BINARY_DIR;
}

std::string TestDataDir() {
  const char* env = std::getenv("SHOAL_TESTDATA");
  std::string dir = env && *env ? std::string(env) : SourceDir() + "/../shared/testdata";
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return "";
  return fs::canonical(dir, ec).string();
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  fs::path base = fs::path(BinaryDir()) / "tmp";
  fs::create_directories(base);
  for (;;) {
    std::string name = "t";
    name += std::to_string(getpid());
    name += '_';
    name += std::to_string(counter++);
    fs::path p = base / name;
    std::error_code ec;
    if (fs::create_directory(p, ec)) {
      path_ = p.string();
      return;
    }
  }
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!std::getenv("SHOAL_KEEP_TMP")) fs::remove_all(path_, ec);
}

std::string DuckDbCommand() {
  // The project's own npm install (scripts/install-deps.sh) lives in <source>/build/duckdb.
  for (const std::string& dir : {SourceDir() + "/build/duckdb", BinaryDir() + "/../duckdb"}) {
    std::error_code ec;
    if (fs::exists(dir + "/node_modules/@duckdb/node-api", ec) && fs::exists(dir + "/duckq.mjs", ec))
      return "node " + dir + "/duckq.mjs";
  }
  return "";
}

int RunCommand(const std::string& command, std::string* stdout_text) {
  FILE* p = popen(command.c_str(), "r");
  if (!p) return -1;
  std::array<char, 65536> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) {
    if (stdout_text) stdout_text->append(buf.data(), n);
  }
  int rc = pclose(p);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

double TimingScale() {
#ifdef SHOAL_SANITIZED
  double scale = 20.0;
#else
  double scale = 1.0;
#endif
  if (const char* env = std::getenv("SHOAL_TIMING_SCALE")) {
    double f = std::atof(env);
    if (f > 0) scale *= f;
  }
  return scale;
}

}  // namespace shoal::testing
