#include "targets/wine/wine_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "absl/strings/str_cat.h"
#include "targets/isolation/child_watch.h"

extern char** environ;

namespace atomfuzz::targets::wine {

bool IsExecutable(const std::string& path) {
  return !path.empty() && access(path.c_str(), X_OK) == 0;
}

std::string EnvOr(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::string(v) : fallback;
}

std::string OnPath(const std::string& name) {
  const std::string path = EnvOr("PATH", "/usr/bin:/bin");
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string::npos) end = path.size();
    const std::string candidate =
        absl::StrCat(path.substr(start, end - start), "/", name);
    if (IsExecutable(candidate)) return candidate;
    start = end + 1;
  }
  return "";
}

std::vector<std::string> Environment(const std::vector<std::string>& set,
                                     const std::vector<std::string>& unset) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool replaced = false;
    for (const std::string& s : set) replaced |= s.rfind(name + "=", 0) == 0;
    for (const std::string& u : unset) replaced |= u == name;
    if (!replaced) env.push_back(entry);
  }
  env.insert(env.end(), set.begin(), set.end());
  return env;
}

pid_t Spawn(const std::vector<std::string>& argv,
            const std::vector<std::string>& env, Fds fds) {
  std::vector<char*> args, envp;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  std::fflush(nullptr);  // the child must not repeat buffered output
  const pid_t pid = fork();
  if (pid != 0) {
    if (pid > 0) NoteOwnChild(pid);  // no orphan cleanup takes it
    return pid;
  }
  // The child: async-signal-safe calls only. It dies with its parent: a
  // campaign worker killed for a hang leaves no Xvfb or Wine behind.
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  const int null = open("/dev/null", O_RDWR);
  dup2(fds.in >= 0 ? fds.in : null, 0);
  dup2(fds.out >= 0 ? fds.out : null, 1);
  dup2(fds.err >= 0 ? fds.err : null, 2);
  if (fds.extra >= 0) dup2(fds.extra, 3);
  const int keep = fds.extra >= 0 ? 4 : 3;
  for (int fd = keep; fd < 1024; ++fd) close(fd);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, nullptr);
  execve(args[0], args.data(), envp.data());
  _exit(127);
}

int WaitFor(pid_t pid, double seconds) {
  const auto end =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (true) {
    int status = 0;
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) {
      ForgetOwnChild(pid);
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    }
    if (r < 0) return 128;
    if (std::chrono::steady_clock::now() > end) return -1;
    usleep(20000);
  }
}

void Kill(pid_t& pid) {
  if (pid <= 0) return;
  kill(-pid, SIGKILL);
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  ForgetOwnChild(pid);
  pid = -1;
}

void Close(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace atomfuzz::targets::wine
