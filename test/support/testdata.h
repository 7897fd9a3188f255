// Locations of shared test data and the DuckDB oracle, for tests.
#pragma once

#include <string>

namespace shoal::testing {

// $SHOAL_TESTDATA, else <source>/../shared/testdata; "" when that folder does not exist.
std::string TestDataDir();
// Skips the current GoogleTest test (with the reason) when the shared test data is absent.
#define SHOAL_REQUIRE_TESTDATA()                                                            \
  do {                                                                                      \
    if (::shoal::testing::TestDataDir().empty())                                            \
      GTEST_SKIP() << "shared test data not found: set SHOAL_TESTDATA (default ../shared/testdata)"; \
  } while (0)

// Factor for wall-clock bounds in tests: 1 in normal builds, 20 under sanitizers (which slow
// code down 5-20x), times $SHOAL_TIMING_SCALE when set (a loaded machine).
double TimingScale();

// A fresh empty directory under the build tree, removed by the destructor.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string Join(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Command prefix that runs DuckDB's duckq.mjs (e.g. "node /x/build/duckdb/duckq.mjs"), or ""
// when DuckDB was not installed (tests then skip with that reason).
std::string DuckDbCommand();

// Runs a shell command, returning its exit code and capturing stdout.
int RunCommand(const std::string& command, std::string* stdout_text);

std::string SourceDir();
std::string BinaryDir();

}  // namespace shoal::testing
