#include "targets/isolation/run_in_child.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "targets/isolation/child_watch.h"

namespace atomfuzz::targets {
namespace {

bool WriteAll(int fd, const std::string& bytes) {
  for (size_t at = 0; at < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + at, bytes.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

absl::StatusOr<std::string> RunInChild(const std::function<std::string()>& work,
                                       double timeout_seconds) {
  int fds[2];
  if (pipe(fds) != 0)
    return absl::InternalError(absl::StrCat("pipe: ", std::strerror(errno)));
  std::fflush(nullptr);  // the child must not repeat buffered output
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
  }
  if (pid == 0) {
    close(fds[0]);
    // _exit: no atexit handlers or static destructors of the parent's.
    _exit(WriteAll(fds[1], work()) ? 0 : 1);
  }
  NoteOwnChild(pid);
  close(fds[1]);
  std::string answer;
  char buffer[1 << 16];
  const auto deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(timeout_seconds));
  bool timed_out = false;
  for (;;) {
    if (timeout_seconds > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
          deadline - std::chrono::steady_clock::now());
      pollfd p{fds[0], POLLIN, 0};
      const int ready =
          left.count() > 0 ? poll(&p, 1, static_cast<int>(left.count())) : 0;
      if (ready < 0 && errno == EINTR) continue;
      if (ready == 0) {
        timed_out = true;
        kill(pid, SIGKILL);
        break;
      }
    }
    const ssize_t n = read(fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    answer.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ForgetOwnChild(pid);
  if (timed_out) {
    return absl::DeadlineExceededError(
        absl::StrCat("no answer within ", timeout_seconds, " s"));
  }
  if (WIFSIGNALED(status)) {
    return absl::AbortedError(absl::StrCat("killed by signal ",
                                           WTERMSIG(status), " (",
                                           strsignal(WTERMSIG(status)), ")"));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return absl::InternalError("the child process gave no answer");
  return answer;
}

}  // namespace atomfuzz::targets
