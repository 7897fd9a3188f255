// Drives the built `shoal` binary's interactive mode through a pseudo-terminal: prompts,
// multi-line statements, dot commands, Ctrl-C clearing the line, .exit, and the history file.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "cli/syntax_highlighter.h"
#include "support/testdata.h"

namespace shoal::cli {
namespace {

namespace fs = std::filesystem;

// libedit's history file holds one entry per line, vis(3)-encoded: a space is "\\040".
std::string DecodeHistoryFile(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '3') {
      out.push_back(static_cast<char>((text[i + 1] - '0') * 64 + (text[i + 2] - '0') * 8 + (text[i + 3] - '0')));
      i += 3;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

class ShellInteractive : public ::testing::Test {
 protected:
  void SetUp() override { Spawn(); }

  // Starts the shell on the test's warehouse and home directory (again after an exit, or
  // replacing the running one), with TERM=`term` and NO_COLOR=`no_color` when not null.
  void Spawn(const char* term = "dumb", const char* no_color = nullptr) {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    std::string binary = testing::BinaryDir() + "/shoal";
    if (!fs::exists(binary)) FAIL() << "shoal binary not found at " << binary << " (build target shoal)";
    std::string home = dir_.Join("home");
    std::string wh = dir_.Join("wh");
    fs::create_directories(home);
    fs::create_directories(wh);
    if (master_ >= 0) close(master_);
    screen_.clear();
    consumed_ = 0;
    exited_ = false;
    struct winsize ws = {};
    ws.ws_row = 40;
    ws.ws_col = 100;
    pid_ = forkpty(&master_, nullptr, nullptr, &ws);
    ASSERT_GE(pid_, 0);
    if (pid_ == 0) {
      setenv("HOME", home.c_str(), 1);
      setenv("TERM", term, 1);
      if (no_color) {
        setenv("NO_COLOR", no_color, 1);
      } else {
        unsetenv("NO_COLOR");
      }
      execl(binary.c_str(), binary.c_str(), wh.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
  }

  void TearDown() override {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) close(master_);
  }

  void Type(const std::string& text) { ASSERT_EQ(write(master_, text.data(), text.size()), (ssize_t)text.size()); }

  // Reads terminal output until `needle` appears after what was consumed before; false on timeout.
  bool WaitFor(const std::string& needle, int timeout_ms = 10000) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      size_t at = screen_.find(needle, consumed_);
      if (at != std::string::npos) {
        consumed_ = at + needle.size();
        return true;
      }
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return false;
      struct pollfd p = {master_, POLLIN, 0};
      if (poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
      char buf[4096];
      ssize_t n = read(master_, buf, sizeof buf);
      if (n <= 0) return screen_.find(needle, consumed_) != std::string::npos;
      screen_.append(buf, n);
    }
  }

  // Waits up to 10 s for the shell to exit (draining its output); its exit code, or -2.
  int WaitExit() {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      char buf[4096];
      struct pollfd p = {master_, POLLIN, 0};
      if (poll(&p, 1, 0) > 0 && (p.revents & POLLIN)) {
        ssize_t n = read(master_, buf, sizeof buf);
        if (n > 0) screen_.append(buf, n);
      }
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      usleep(10000);
    }
    return -2;
  }

  std::string History() {
    std::ifstream history(dir_.Join("home") + "/.shoal_history");
    std::stringstream ss;
    ss << history.rdbuf();
    return DecodeHistoryFile(ss.str());
  }

  testing::TempDir dir_;
  int master_ = -1;
  pid_t pid_ = -1;
  bool exited_ = false;
  std::string screen_;
  size_t consumed_ = 0;
};

TEST_F(ShellInteractive, RunsMultiLineStatementsDotCommandsAndExits) {
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("SELECT 40 +\r");
  ASSERT_TRUE(WaitFor("‣ ")) << screen_;
  Type("2 AS answer;\r");
  ASSERT_TRUE(WaitFor("answer")) << screen_;
  ASSERT_TRUE(WaitFor("42 │")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type(".mode csv\r");
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("SELECT 'x' AS s;\r");
  ASSERT_TRUE(WaitFor("s\r\nx\r\n")) << screen_;
  Type("SELECT nope;\r");
  ASSERT_TRUE(WaitFor("BinderException: ")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type(".exit\r");
  EXPECT_EQ(WaitExit(), 1);  // a statement failed during the session
  std::ifstream history(dir_.Join("home") + "/.shoal_history");
  std::stringstream ss;
  ss << history.rdbuf();
  EXPECT_NE(DecodeHistoryFile(ss.str()).find("SELECT 'x' AS s;"), std::string::npos) << ss.str();
}

TEST_F(ShellInteractive, CtrlCClearsThePartialStatement) {
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("SELECT 'never");
  ASSERT_TRUE(WaitFor("never")) << screen_;
  Type("\x03");
  ASSERT_TRUE(WaitFor("^C")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type(".mode jsonl\r");
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("SELECT 7 AS n;\r");
  ASSERT_TRUE(WaitFor("{\"n\":7}")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("\x04");  // Ctrl-D at an empty prompt ends the session
  EXPECT_EQ(WaitExit(), 0) << screen_;
}

TEST_F(ShellInteractive, TabCompletesKeywordTableAndColumn) {
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("CREATE TABLE events AS SELECT 41 AS amount, 7 AS user_id;\r");
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type(".mode csv\r");
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  // Each word is typed only in part: the statement runs only if Tab completed all three.
  Type("SEL\t");
  ASSERT_TRUE(WaitFor("SELECT")) << screen_;
  Type("amount + 1 AS a FROM ev\t");
  ASSERT_TRUE(WaitFor("events")) << screen_;
  Type("WHERE user_\t= 7 AND amo\t= 41;\r");
  ASSERT_TRUE(WaitFor("a\r\n42\r\n")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type(".exit\r");
  EXPECT_EQ(WaitExit(), 0) << screen_;
}

TEST_F(ShellInteractive, MultiLineHistoryEntrySurvivesARestart) {
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type(".mode csv\r");
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("SELECT 40 +\r");
  ASSERT_TRUE(WaitFor("‣ ")) << screen_;
  Type("2 AS answer;\r");
  ASSERT_TRUE(WaitFor("answer\r\n42\r\n")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type(".exit\r");
  ASSERT_EQ(WaitExit(), 0) << screen_;
  EXPECT_NE(History().find("SELECT 40 +\n2 AS answer;"), std::string::npos) << History();

  Spawn();
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("\x10");  // Ctrl-P: the previous entry (.exit)
  Type("\x10");  // and the one before: the whole two-line statement
  Type("\r");
  ASSERT_TRUE(WaitFor("42")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("\x04");
  EXPECT_EQ(WaitExit(), 0) << screen_;
}

TEST_F(ShellInteractive, DotCommandsChangeOutputAndUnknownOnesSuggest) {
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type(".shema\r");
  ASSERT_TRUE(WaitFor("did you mean .schema?")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type(".mode line\r");
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("SELECT 1 AS one, NULL AS nothing;\r");
  ASSERT_TRUE(WaitFor("    one = 1\r\nnothing = NULL\r\n")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("SELECT nope;\r");
  // The error, then the statement's line with a caret under the unknown column.
  ASSERT_TRUE(WaitFor("BinderException: ")) << screen_;
  ASSERT_TRUE(WaitFor("LINE 1: SELECT nope;\r\n               ^")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type(".exit\r");
  EXPECT_EQ(WaitExit(), 1) << screen_;
}

// Ctrl-C stops a scan, a join build, a sort (collecting its rows, and in its final phase), an
// aggregation and a large INSERT within 200 ms, timed from the moment SIGINT is sent (the ^C
// written to the terminal) to the prompt's return (the median of 5 attempts each, measured again
// once when over); the INSERT commits nothing. The bound holds on the 2-core machine while builds run beside it: what
// remains after the flag is seen (unwinding, freeing the statement's rows) is kept short.
TEST_F(ShellInteractive, CtrlCStopsRunningStatementsPromptlyAndCommitsNothing) {
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type(".mode csv\r");
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("CREATE TABLE t AS SELECT 1 AS id;\r");
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  struct Case {
    const char* what;
    const char* sql;
    int delay_ms;  // from Enter to Ctrl-C
  };
  const Case cases[] = {
      {"scan", "SELECT count(*) FROM range(0, 5000000000) WHERE id % 7 = 3;", 800},
      // The build side (the smaller one) takes far longer than the 0.8 s before Ctrl-C to
      // collect: it lands in the build, which by then holds about a gigabyte of batches (it
      // crosses its share of the limit by estimate and partitions them). The prompt does not
      // wait for them to be freed: a pool worker frees them (doc/execution.md "Cancellation").
      {"join build",
       "SELECT count(*) FROM range(0, 5000000000) AS a JOIN (SELECT id FROM range(0, 4000000000)) AS b ON a.id = b.id;",
       800},
      {"sort, collecting rows", "SELECT id FROM range(0, 5000000000) ORDER BY id DESC;", 800},
      // 40M rows are collected in well under a second even under load, and sorting them by a
      // random key takes several: Ctrl-C lands in the sort's final phase (key normalization,
      // run sorts, merges; bench_interrupt_bench shows where each point falls).
      {"sort, final phase", "SELECT id FROM range(0, 40000000) ORDER BY hash(id);", 1500},
      {"aggregation", "SELECT id % 1000003 AS k, count(*) FROM range(0, 5000000000) GROUP BY k;", 800},
      {"INSERT", "INSERT INTO t SELECT id FROM range(0, 5000000000) WHERE id % 3 = 0;", 800},
  };
  for (const Case& c : cases) {
    // A median over the bound is measured once more: other tests of `make test -j2` (the soak's
    // 13 processes) can hold both cores for seconds; a real regression misses it twice.
    long long median = 0;
    for (int round = 0; round < 2; ++round) {
      std::vector<long long> ms;
      for (int attempt = 0; attempt < 5; ++attempt) {
        Type(std::string(c.sql) + "\r");
        usleep(c.delay_ms * 1000);
        auto sent = std::chrono::steady_clock::now();
        Type("\x03");
        ASSERT_TRUE(WaitFor("InterruptException", 10000)) << c.sql << "\n" << screen_;
        ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
        ms.push_back(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - sent).count());
      }
      std::sort(ms.begin(), ms.end());
      median = ms[2];
      std::printf("Ctrl-C to the prompt, %s: %lld, %lld, %lld, %lld, %lld ms (median %lld)\n", c.what, ms[0], ms[1],
                  ms[2], ms[3], ms[4], ms[2]);
      if (median <= 200) break;
    }
    EXPECT_LE(median, 200) << c.what << ": " << c.sql;
  }
  Type("SELECT count(*) AS n FROM t;\r");
  ASSERT_TRUE(WaitFor("n\r\n1\r\n")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("\x04");
  EXPECT_EQ(WaitExit(), 1) << screen_;
  int commits = 0;
  for (const auto& e : fs::directory_iterator(dir_.Join("wh/t/_delta_log"))) {
    commits += e.path().extension() == ".json";
  }
  EXPECT_EQ(commits, 1);  // version 0 only
}

// A statement running over 2 s draws the bar on the terminal; it is erased before the result.
// The scan's size is calibrated on this machine (a first run of a 20M-row scan) to take about
// 5 s, and doubled while it still ends before the bar's delay is well past, so the bar's check
// always runs.
TEST_F(ShellInteractive, ProgressBarAfterTheDelayIsGoneBeforeTheResult) {
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  // id % 7 = 3 holds for 3, 10, 17, ... below n.
  auto hits = [](int64_t n) { return n > 3 ? (n - 4) / 7 + 1 : 0; };
  auto run = [&](int64_t n) {
    screen_.clear();
    consumed_ = 0;
    auto start = std::chrono::steady_clock::now();
    Type("SELECT count(*) AS hits FROM range(0, " + std::to_string(n) + ") WHERE id % 7 = 3;\r");
    EXPECT_TRUE(WaitFor(std::to_string(hits(n)) + " ", 300000)) << screen_;
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    EXPECT_TRUE(WaitFor("shoal> ")) << screen_;
    return secs;
  };
  const int64_t probe = 20000000;
  const double probe_secs = run(probe);
  int64_t n = std::clamp<int64_t>(static_cast<int64_t>(probe * 5.0 / std::max(probe_secs, 0.01)), probe,
                                  int64_t{1} << 40);
  double secs = run(n);
  for (int grow = 0; secs < 2.6 && grow < 3; ++grow) secs = run(n *= 2);
  ASSERT_GE(secs, 2.6) << "the scan never ran past the bar's 2 s delay; last: " << n << " rows";
  std::printf("progress bar: %lld rows in %.2f s (calibrated on %lld rows in %.2f s)\n", static_cast<long long>(n),
              secs, static_cast<long long>(probe), probe_secs);
  const size_t bar = screen_.rfind("%\x1b[K");
  ASSERT_NE(bar, std::string::npos) << "no progress bar drawn in " << secs << " s";
  const size_t clear = screen_.find("\r\x1b[K", bar);
  const size_t table = screen_.find("┌");
  ASSERT_NE(clear, std::string::npos);
  ASSERT_NE(table, std::string::npos);
  EXPECT_LT(bar, clear);
  EXPECT_LT(clear, table);
  EXPECT_EQ(screen_.find("%", table), std::string::npos) << "bar drawn after the result";
  Type(".exit\r");
  EXPECT_EQ(WaitExit(), 0) << screen_;
}

// On a terminal with colour, what is typed is coloured as it is typed; .highlight off and
// NO_COLOR leave it plain.
TEST_F(ShellInteractive, HighlightsSqlWhileTypingOnAColourTerminal) {
  const std::string keyword = std::string(kKeywordColor) + "SELECT" + std::string(kResetColor);
  const std::string string = std::string(kStringColor) + "'abc'" + std::string(kResetColor);
  const std::string number = std::string(kNumberColor) + "42" + std::string(kResetColor);
  Spawn("xterm-256color");
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("SELECT 'abc' AS s, 42");  // not yet run: coloured while on the line
  ASSERT_TRUE(WaitFor(keyword + " " + string + " ")) << screen_;
  ASSERT_TRUE(WaitFor(number)) << screen_;
  Type(" AS n;\r");
  ASSERT_TRUE(WaitFor("abc")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type(".highlight off\r");
  // Repaints carry the prompt too: wait for a line only the shell prints, after which nothing
  // of the coloured statement can still arrive.
  Type(".print plain-from-here\r");
  ASSERT_TRUE(WaitFor("\r\nplain-from-here\r\n")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  const size_t from = screen_.size();
  Type("SELECT 'plain'");
  ASSERT_TRUE(WaitFor("'plain'")) << screen_;
  EXPECT_EQ(screen_.find(kKeywordColor, from), std::string::npos) << screen_.substr(from);
  EXPECT_EQ(screen_.find(kStringColor, from), std::string::npos) << screen_.substr(from);

  Spawn("xterm-256color", "1");
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  Type("SELECT 'no colour', 7;\r");
  ASSERT_TRUE(WaitFor("no colour")) << screen_;
  ASSERT_TRUE(WaitFor("shoal> ")) << screen_;
  EXPECT_EQ(screen_.find(kKeywordColor), std::string::npos) << screen_;
  Type(".exit\r");
  EXPECT_EQ(WaitExit(), 0) << screen_;
}

}  // namespace
}  // namespace shoal::cli
