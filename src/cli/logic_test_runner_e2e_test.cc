// Runs the built `shoal_sqllogictest` binary on small scripts and checks its exit codes and
// failure reports (the scripts use only table-free SQL).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "support/testdata.h"

namespace shoal::cli {
namespace {

namespace fs = std::filesystem;

class LogicTestRunner : public ::testing::Test {
 protected:
  void SetUp() override {
    binary_ = testing::BinaryDir() + "/shoal_sqllogictest";
    if (!fs::exists(binary_)) FAIL() << "runner not found at " << binary_ << " (build target shoal_sqllogictest)";
  }

  // Writes `script` to a file and runs the runner on it with `env` prefixed; returns the exit code.
  int RunScript(const std::string& script, std::string* out, const std::string& env = "") {
    std::string path = dir_.Join("case.test");
    std::ofstream(path) << script;
    return testing::RunCommand(env + " '" + binary_ + "' '" + path + "' 2>&1", out);
  }

  testing::TempDir dir_;
  std::string binary_;
};

TEST_F(LogicTestRunner, PassingScriptExitsZeroWithSummary) {
  std::string out;
  int code = RunScript("query I\nSELECT 1 + 1\n----\n2\n\nstatement error ParserException\nSELEC 1\n", &out);
  EXPECT_EQ(code, 0) << out;
  EXPECT_NE(out.find("2 passed, 0 failed"), std::string::npos) << out;
}

TEST_F(LogicTestRunner, FailureNamesFileLineSqlAndBothResults) {
  std::string out;
  int code = RunScript("\n\nquery I\nSELECT 1 + 1\n----\n3\n\nquery I\nSELECT 5\n----\n5\n", &out);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("case.test:3"), std::string::npos) << out;
  EXPECT_NE(out.find("SELECT 1 + 1"), std::string::npos) << out;
  EXPECT_NE(out.find("expected:\n    3"), std::string::npos) << out;
  EXPECT_NE(out.find("actual:\n    2"), std::string::npos) << out;
  EXPECT_NE(out.find("1 passed, 1 failed"), std::string::npos) << out;
}

TEST_F(LogicTestRunner, WrongErrorTextFails) {
  std::string out;
  int code = RunScript("statement error\nSELEC 1\n----\nBinderException\n", &out);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("ParserException"), std::string::npos) << out;
}

TEST_F(LogicTestRunner, UnexpectedSuccessFails) {
  std::string out;
  EXPECT_EQ(RunScript("statement error\nSELECT 1\n", &out), 1) << out;
}

TEST_F(LogicTestRunner, UnknownRequireSkipsWith77) {
  std::string out;
  int code = RunScript("require no_such_feature\n\nquery I\nSELECT 1\n----\n2\n", &out);
  EXPECT_EQ(code, 77) << out;
  EXPECT_NE(out.find("SKIP: "), std::string::npos) << out;
}

TEST_F(LogicTestRunner, MissingTestDataSkipsWith77) {
  std::string out;
  int code = RunScript("query I\nSELECT count(*) FROM '${TESTDATA}/x.parquet'\n----\n1\n", &out,
                       "SHOAL_TESTDATA=/nonexistent/shoal-testdata SHOAL_SOURCE_DIR=/nonexistent");
  EXPECT_EQ(code, 77) << out;
  EXPECT_NE(out.find("SKIP: "), std::string::npos) << out;
}

TEST_F(LogicTestRunner, MalformedScriptExitsOne) {
  std::string out;
  EXPECT_EQ(RunScript("bogus record\n", &out), 1) << out;
  EXPECT_NE(out.find("case.test:1"), std::string::npos) << out;
}

TEST_F(LogicTestRunner, SkippedRecordsAreCounted) {
  std::string out;
  EXPECT_EQ(RunScript("mode skip\n\nstatement ok\nNOT SQL\n\nmode unskip\n\nquery I\nSELECT 1\n----\n1\n", &out), 0)
      << out;
  EXPECT_NE(out.find("1 passed, 0 failed, 1 skipped"), std::string::npos) << out;
}

}  // namespace
}  // namespace shoal::cli
