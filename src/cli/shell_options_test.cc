#include "cli/shell_options.h"

#include <gtest/gtest.h>

namespace shoal::cli {
namespace {

TEST(ShellOptions, DefaultsToCurrentDirectoryAndTable) {
  auto o = ParseShellArgs({});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->warehouse_dir, ".");
  EXPECT_TRUE(o->inputs.empty());
  EXPECT_FALSE(o->format.has_value());
  EXPECT_FALSE(o->stats);
  EXPECT_EQ(o->threads, 0);
  EXPECT_EQ(o->memory_limit, 0);
}

TEST(ShellOptions, ParsesEveryOption) {
  auto o = ParseShellArgs({"-c", "SELECT 1", "--format", "jsonl", "-f", "x.sql", "--stats", "--threads",
                           "4", "/data/wh", "-cSELECT 2", "--format=csv"});
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  EXPECT_EQ(o->warehouse_dir, "/data/wh");
  ASSERT_EQ(o->inputs.size(), 3u);
  EXPECT_EQ(o->inputs[0].kind, ShellInput::Kind::kSql);
  EXPECT_EQ(o->inputs[0].text, "SELECT 1");
  EXPECT_EQ(o->inputs[1].kind, ShellInput::Kind::kFile);
  EXPECT_EQ(o->inputs[1].text, "x.sql");
  EXPECT_EQ(o->inputs[2].text, "SELECT 2");
  EXPECT_EQ(o->format, OutputFormat::kCsv);
  EXPECT_TRUE(o->stats);
  EXPECT_EQ(o->threads, 4);
  EXPECT_EQ(ParseShellArgs({"--memory-limit", "200MB"})->memory_limit, int64_t{200} << 20);
  EXPECT_EQ(ParseShellArgs({"--memory-limit=1.5GiB"})->memory_limit, int64_t{3} << 29);
}

TEST(ShellOptions, ParsesHelpAndVersion) {
  EXPECT_TRUE(ParseShellArgs({"--help"})->show_help);
  EXPECT_TRUE(ParseShellArgs({"-h"})->show_help);
  EXPECT_TRUE(ParseShellArgs({"--version"})->show_version);
  EXPECT_NE(UsageText().find("--threads N"), std::string::npos);
}

TEST(ShellOptions, DoubleDashEndsOptions) {
  auto o = ParseShellArgs({"--", "-weird-dir"});
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->warehouse_dir, "-weird-dir");
}

TEST(ShellOptions, RejectsBadArgumentsNamingThem) {
  struct Case {
    std::vector<std::string> args;
    std::string mention;
  } cases[] = {
      {{"--bogus"}, "--bogus"},
      {{"-x"}, "-x"},
      {{"-c"}, "-c"},
      {{"-f"}, "-f"},
      {{"--format"}, "--format"},
      {{"--format", "xml"}, "xml"},
      {{"--threads", "many"}, "many"},
      {{"--threads", "-1"}, "-1"},
      {{"--threads", "4x"}, "4x"},
      {{"--memory-limit", "12XB"}, "12XB"},
      {{"--memory-limit", "0"}, "--memory-limit"},
      {{"--memory-limit"}, "--memory-limit"},
      {{"--stats=yes"}, "--stats"},
      {{"a", "b"}, "'b'"},
  };
  for (const Case& c : cases) {
    auto o = ParseShellArgs(c.args);
    ASSERT_FALSE(o.ok()) << c.args[0];
    EXPECT_EQ(o.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(o.status().message().find(c.mention), std::string::npos) << o.status().message();
  }
}

}  // namespace
}  // namespace shoal::cli
