#include "targets/isolation/child_watch.h"

#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

namespace atomfuzz::targets {
namespace {

// The parent pid of `pid`, from /proc/PID/stat ("pid (comm) state ppid"),
// or -1. comm may hold spaces and parentheses: read after the last ')'.
pid_t ParentOf(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  FILE* f = std::fopen(path, "re");
  if (f == nullptr) return -1;
  char buf[512];
  const size_t n = std::fread(buf, 1, sizeof buf - 1, f);
  std::fclose(f);
  buf[n] = '\0';
  const char* close = std::strrchr(buf, ')');
  if (close == nullptr) return -1;
  char state;
  int ppid;
  if (std::sscanf(close + 1, " %c %d", &state, &ppid) != 2) return -1;
  return ppid;
}

// The resident set of `pid` from /proc/PID/statm (its second field, in
// pages), or 0 where it cannot be read.
uint64_t ResidentBytes(pid_t pid) {
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/statm", static_cast<int>(pid));
  FILE* f = std::fopen(path, "re");
  if (f == nullptr) return 0;
  unsigned long long size = 0, resident = 0;
  const int got = std::fscanf(f, "%llu %llu", &size, &resident);
  std::fclose(f);
  if (got != 2) return 0;
  return static_cast<uint64_t>(resident) *
         static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

int PidfdOpen(pid_t pid) {
#ifdef SYS_pidfd_open
  return static_cast<int>(syscall(SYS_pidfd_open, pid, 0));
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

}  // namespace

void BecomeSubreaper() { prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); }

std::vector<pid_t> ChildrenNow() {
  std::vector<pid_t> out;
  DIR* d = opendir("/proc");
  if (d == nullptr) return out;
  const pid_t self = getpid();
  while (dirent* e = readdir(d)) {
    char* end = nullptr;
    const long pid = std::strtol(e->d_name, &end, 10);
    if (end == e->d_name || *end != '\0') continue;
    if (ParentOf(static_cast<pid_t>(pid)) == self)
      out.push_back(static_cast<pid_t>(pid));
  }
  closedir(d);
  return out;
}

namespace {

std::mutex& OwnMutex() {
  static std::mutex* const m = new std::mutex;
  return *m;
}
std::vector<pid_t>& Own() {
  static std::vector<pid_t>* const own = new std::vector<pid_t>;
  return *own;
}

bool IsOwn(pid_t pid) {
  std::lock_guard<std::mutex> lock(OwnMutex());
  return std::find(Own().begin(), Own().end(), pid) != Own().end();
}

}  // namespace

void NoteOwnChild(pid_t pid) {
  std::lock_guard<std::mutex> lock(OwnMutex());
  Own().push_back(pid);
}

void ForgetOwnChild(pid_t pid) {
  std::lock_guard<std::mutex> lock(OwnMutex());
  Own().erase(std::remove(Own().begin(), Own().end(), pid), Own().end());
}

void KillNewChildren(const std::vector<pid_t>& before) {
  const pid_t our_group = getpgrp();
  for (pid_t pid : ChildrenNow()) {
    if (IsOwn(pid) ||
        std::find(before.begin(), before.end(), pid) != before.end())
      continue;
    // Still in our process group: forked here, not left by an isolated
    // child (which leads a group of its own; what setsid()s leaves every
    // group). ASan starts its symbolizer so, and a killed symbolizer is a
    // SIGPIPE at the next stack it prints: the fuzzer died of it.
    if (getpgid(pid) == our_group) continue;
    kill(pid, SIGKILL);
    while (waitpid(pid, nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

ChildWait WaitForReplyOrDeath(int fd, pid_t pid,
                              std::chrono::steady_clock::time_point deadline,
                              uint64_t rss_limit_bytes) {
  const int pidfd = PidfdOpen(pid);
  pollfd fds[2] = {{fd, POLLIN, 0}, {pidfd, POLLIN, 0}};
  ChildWait result = ChildWait::kTimedOut;
  // How often the resident set is looked at: a child allocating at full
  // speed gains a few hundred MiB between looks.
  const int64_t slice_ms = rss_limit_bytes > 0 ? 50 : 1000;
  for (;;) {
    if (rss_limit_bytes > 0 && ResidentBytes(pid) > rss_limit_bytes) {
      kill(pid, SIGKILL);
      result = ChildWait::kOverMemory;
      break;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    const int n =
        poll(fds, pidfd >= 0 ? 2 : 1,
             static_cast<int>(std::min<int64_t>(left.count(), slice_ms)));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    if (fds[0].revents != 0) {  // a reply, or EOF: the reader says which
      result = ChildWait::kReadable;
      break;
    }
    if (pidfd >= 0 && fds[1].revents != 0) {
      result = ChildWait::kDied;
      break;
    }
  }
  if (pidfd >= 0) close(pidfd);
  return result;
}

}  // namespace atomfuzz::targets
