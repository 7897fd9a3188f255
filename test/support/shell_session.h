// An interactive `shoal --format jsonl` process driven through pipes, for the tests that run
// many shells against one table (src/cli/history_e2e_test.cc, src/cli/soak_e2e_test.cc).
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/shell_text.h"

extern char** environ;

namespace shoal::testing {

// The last non-empty line of `text`.
inline std::string LastLine(const std::string& text) {
  std::stringstream ss(text);
  std::string line, last;
  while (std::getline(ss, line)) {
    if (!line.empty()) last = line;
  }
  return last;
}

// One statement's result as the client saw it.
struct StatementResult {
  enum class Status { kOk, kFailed, kLost } status = Status::kOk;  // kLost: timeout or killed
  std::vector<nlohmann::json> rows;
  std::string error;  // kFailed: the shell's last stderr line
};

// An interactive `shoal --format jsonl` process: each statement is followed by a marker SELECT,
// and its rows are the JSON lines before the marker. The shell exits after a failing statement.
// Thread-safety: one thread per session.
class ShellSession {
 public:
  // `extra_args` go before the warehouse (e.g. {"--memory-limit", "256MB"}).
  ShellSession(const std::string& binary, const std::string& warehouse, const std::string& stderr_path,
               const std::vector<std::string>& extra_args = {})
      : stderr_path_(stderr_path) {
    int in[2], out[2];
    if (pipe(in) != 0) return;
    if (pipe(out) != 0) {
      close(in[0]);
      close(in[1]);
      return;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addopen(&fa, 2, stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0644);
    posix_spawn_file_actions_addclose(&fa, in[1]);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    std::vector<std::string> args = {binary, "--format", "jsonl", "--threads", "1"};
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    args.push_back(warehouse);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    if (posix_spawn(&pid_, binary.c_str(), &fa, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&fa);
    close(in[0]);
    close(out[1]);
    in_ = in[1];
    out_ = out[0];
  }
  ~ShellSession() {
    Kill();
    if (in_ >= 0) close(in_);
    if (out_ >= 0) close(out_);
  }
  bool alive() const { return pid_ > 0; }
  // The process's peak resident set size so far (VmHWM), in KiB; 0 when it is gone.
  int64_t PeakRssKb() const {
    if (pid_ <= 0) return 0;
    std::ifstream in("/proc/" + std::to_string(pid_) + "/status");
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("VmHWM:", 0) == 0) return std::atoll(line.c_str() + 6);
    }
    return 0;
  }

  // Runs one statement (no trailing ';'); waits at most `timeout_ms` for its result.
  StatementResult Exec(const std::string& sql, int timeout_ms) {
    SendStatement(sql);
    return Await(timeout_ms);
  }
  // Sends a statement and its marker without waiting (see Await).
  void SendStatement(const std::string& sql) {
    ++marker_;
    std::string text = sql + ";\nSELECT '#" + std::to_string(marker_) + "' AS m;\n";
    size_t done = 0;
    while (done < text.size() && in_ >= 0) {
      ssize_t n = write(in_, text.data() + done, text.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
  }
  StatementResult Await(int timeout_ms) {
    StatementResult r;
    const std::string marker = "{\"m\":\"#" + std::to_string(marker_) + "\"}";
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      size_t nl;
      while ((nl = buffer_.find('\n')) != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        if (line == marker) return r;
        nlohmann::json row = nlohmann::json::parse(line, nullptr, false);
        if (row.is_discarded()) {
          r.status = StatementResult::Status::kFailed;
          r.error = "unparsable output line: " + line;
          Kill();
          return r;
        }
        r.rows.push_back(std::move(row));
      }
      int left = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                      deadline - std::chrono::steady_clock::now())
                                      .count());
      if (left <= 0 || pid_ <= 0) {
        Kill();
        r.status = StatementResult::Status::kLost;
        r.error = "timeout";
        return r;
      }
      pollfd p = {out_, POLLIN, 0};
      int ready = poll(&p, 1, left);
      if (ready <= 0) continue;
      char buf[65536];
      ssize_t n = read(out_, buf, sizeof buf);
      if (n > 0) {
        buffer_.append(buf, static_cast<size_t>(n));
        continue;
      }
      // EOF: the shell stopped after a failing statement.
      int status = 0;
      waitpid(pid_, &status, 0);
      pid_ = -1;
      r.status = StatementResult::Status::kFailed;
      r.error = LastLine(testing::ReadFileText(stderr_path_));
      if (r.error.empty())
        r.error = "shell exited (status " + std::to_string(status) + ") without an error";
      return r;
    }
  }
  void Kill() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
    pid_ = -1;
  }

 private:
  std::string stderr_path_;
  pid_t pid_ = -1;
  int in_ = -1, out_ = -1;
  int64_t marker_ = 0;
  std::string buffer_;
};


}  // namespace shoal::testing
