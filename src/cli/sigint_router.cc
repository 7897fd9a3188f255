#include "cli/sigint_router.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace shoal::cli {

namespace {

std::atomic<int> g_signal_fd{-1};
struct sigaction g_previous;

constexpr char kInterruptByte = 'i';
constexpr char kStopByte = 'q';

void OnSigint(int) {
  int saved = errno;
  int fd = g_signal_fd.load();
  if (fd >= 0) {
    char b = kInterruptByte;
    [[maybe_unused]] ssize_t n = write(fd, &b, 1);
  }
  errno = saved;
}

Status MakePipe(int fds[2]) {
  if (pipe(fds) != 0) return Status::IOError(std::string("pipe for Ctrl-C handling: ") + std::strerror(errno));
  for (int i = 0; i < 2; ++i) {
    fcntl(fds[i], F_SETFD, FD_CLOEXEC);
  }
  fcntl(fds[1], F_SETFL, O_NONBLOCK);
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<SigintRouter>> SigintRouter::Install() {
  std::unique_ptr<SigintRouter> r(new SigintRouter());
  RETURN_NOT_OK(MakePipe(r->signal_pipe_));
  RETURN_NOT_OK(MakePipe(r->idle_pipe_));
  fcntl(r->idle_pipe_[0], F_SETFL, O_NONBLOCK);
  g_signal_fd.store(r->signal_pipe_[1]);
  struct sigaction sa;
  std::memset(&sa, 0, sizeof sa);
  sa.sa_handler = OnSigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  if (sigaction(SIGINT, &sa, &g_previous) != 0) {
    return Status::IOError(std::string("installing the Ctrl-C handler: ") + std::strerror(errno));
  }
  r->watcher_ = std::thread([p = r.get()] { p->Watch(); });
  return r;
}

SigintRouter::~SigintRouter() {
  sigaction(SIGINT, &g_previous, nullptr);
  g_signal_fd.store(-1);
  if (watcher_.joinable()) {
    char b = kStopByte;
    [[maybe_unused]] ssize_t n = write(signal_pipe_[1], &b, 1);
    watcher_.join();
  }
  for (int fd : {signal_pipe_[0], signal_pipe_[1], idle_pipe_[0], idle_pipe_[1]}) {
    if (fd >= 0) close(fd);
  }
}

void SigintRouter::SetRunning(Connection* con) { running_.store(con); }

void SigintRouter::DrainIdle() {
  char buf[64];
  while (read(idle_pipe_[0], buf, sizeof buf) > 0) {
  }
}

void SigintRouter::Watch() {
  for (;;) {
    char b;
    ssize_t n = read(signal_pipe_[0], &b, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || b == kStopByte) return;
    if (Connection* con = running_.load()) {
      con->Interrupt();
    } else {
      char i = kInterruptByte;
      [[maybe_unused]] ssize_t w = write(idle_pipe_[1], &i, 1);
    }
  }
}

}  // namespace shoal::cli
