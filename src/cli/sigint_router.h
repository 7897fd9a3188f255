// Routes Ctrl-C (SIGINT) in the interactive shell: while a statement runs, a watcher thread calls
// Connection::Interrupt(); while the shell waits for input, idle_fd() becomes readable so the
// line editor can clear the line. Uses a self-pipe, so the signal handler only write()s.
//
// Thread-safety: SetRunning may be called from any thread; at most one router exists at a time.
#pragma once

#include <atomic>
#include <memory>
#include <thread>

#include "shoal/database.h"
#include "shoal/status.h"

namespace shoal::cli {

class SigintRouter {
 public:
  // Installs the SIGINT handler and starts the watcher thread.
  static Result<std::unique_ptr<SigintRouter>> Install();
  // Restores the previous handler and stops the watcher.
  ~SigintRouter();
  SigintRouter(const SigintRouter&) = delete;
  SigintRouter& operator=(const SigintRouter&) = delete;

  // The connection whose statement Ctrl-C interrupts; nullptr while idle.
  void SetRunning(Connection* con);
  // Readable after a Ctrl-C while idle; DrainIdle() consumes it.
  int idle_fd() const { return idle_pipe_[0]; }
  void DrainIdle();

 private:
  SigintRouter() = default;
  void Watch();

  int signal_pipe_[2] = {-1, -1};
  int idle_pipe_[2] = {-1, -1};
  std::atomic<Connection*> running_{nullptr};
  std::thread watcher_;
};

}  // namespace shoal::cli
