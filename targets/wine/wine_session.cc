#include "targets/wine/wine_session.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "absl/strings/str_cat.h"
#include "targets/isolation/frame_io.h"
#include "targets/wine/runner_wire.h"

extern char** environ;

namespace atomfuzz::targets::wine {
namespace {

#ifndef ATOMFUZZ_WINE_RUNNER_PATH
#define ATOMFUZZ_WINE_RUNNER_PATH ""
#endif

// What Wine prints on stderr kept per case: its err channels are short, a
// +d3d_shader trace (the GLSL of a shader) is longer.
constexpr size_t kMaxErrorText = 1 << 20;

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

// The process environment with `overrides` ("NAME=value", or "NAME=" with
// `unset` to drop it) in place.
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

struct Fds {
  int in = -1, out = -1, err = -1, extra = -1;  // extra becomes fd 3
};

// fork + exec with `fds` as 0, 1, 2 (and 3); /dev/null where -1. Its own
// process group, so that stopping it stops what it started (not a
// wineserver, which runs in a session of its own).
pid_t Spawn(const std::vector<std::string>& argv,
            const std::vector<std::string>& env, Fds fds) {
  std::vector<char*> args, envp;
  for (const std::string& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  for (const std::string& e : env) envp.push_back(const_cast<char*>(e.c_str()));
  envp.push_back(nullptr);
  const pid_t pid = fork();
  if (pid != 0) return pid;
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

// Waits for `pid` up to `seconds`; its exit status, or -1 if it still runs.
int WaitFor(pid_t pid, double seconds) {
  const auto end =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (true) {
    int status = 0;
    const pid_t r = waitpid(pid, &status, WNOHANG);
    if (r == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
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
  pid = -1;
}

void Close(int& fd) {
  if (fd >= 0) close(fd);
  fd = -1;
}

}  // namespace

absl::StatusOr<WineSetup> FindWineSetup() {
  WineSetup s;
  s.wine = EnvOr("ATOMFUZZ_WINE", "");
  if (s.wine.empty())
    s.wine = IsExecutable("/usr/lib/wine/wine64") ? "/usr/lib/wine/wine64"
                                                  : OnPath("wine64");
  if (!IsExecutable(s.wine)) {
    return absl::FailedPreconditionError(
        "no wine64 (install the Debian packages wine and wine64, or set "
        "ATOMFUZZ_WINE)");
  }
  s.runner = EnvOr("ATOMFUZZ_WINE_RUNNER", ATOMFUZZ_WINE_RUNNER_PATH);
  if (s.runner.empty() || access(s.runner.c_str(), R_OK) != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no d3d11_runner.exe (the build makes it when x86_64-w64-mingw32-gcc "
        "is installed: Debian package gcc-mingw-w64-x86-64; or set "
        "ATOMFUZZ_WINE_RUNNER)",
        s.runner.empty() ? "" : absl::StrCat("; looked at ", s.runner)));
  }
  s.prefix = EnvOr("ATOMFUZZ_WINE_PREFIX", "");
  if (s.prefix.empty()) {
    const std::string cache =
        EnvOr("XDG_CACHE_HOME", absl::StrCat(EnvOr("HOME", "/tmp"), "/.cache"));
    s.prefix = absl::StrCat(cache, "/atomfuzz/wine-prefix");
  }
  return s;
}

WineSession::WineSession(WineSetup setup, Renderer renderer,
                         double timeout_seconds)
    : setup_(std::move(setup)),
      renderer_(renderer),
      timeout_seconds_(timeout_seconds) {}

WineSession::~WineSession() {
  Stop();
  Kill(display_pid_);
}

absl::Status WineSession::StartDisplay() {
  if (display_pid_ > 0 && waitpid(display_pid_, nullptr, WNOHANG) == 0)
    return absl::OkStatus();
  display_pid_ = -1;
  const std::string xvfb = OnPath("Xvfb");
  if (xvfb.empty()) {
    return absl::FailedPreconditionError(
        "no Xvfb (install the Debian package xvfb): Wine's D3D needs an X "
        "display");
  }
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return absl::InternalError("pipe failed");
  Fds fds;
  fds.extra = pipe_fds[1];
  display_pid_ = Spawn({xvfb, "-displayfd", "3", "-screen", "0", "1024x768x24",
                        "-nolisten", "tcp"},
                       Environment({}, {}), fds);
  close(pipe_fds[1]);
  // Xvfb writes the display number it chose once it accepts clients.
  std::string number;
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (number.find('\n') == std::string::npos &&
         std::chrono::steady_clock::now() < end) {
    pollfd p{pipe_fds[0], POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    char buf[16];
    const ssize_t n = read(pipe_fds[0], buf, sizeof buf);
    if (n <= 0) break;
    number.append(buf, static_cast<size_t>(n));
  }
  close(pipe_fds[0]);
  if (number.find('\n') == std::string::npos) {
    Kill(display_pid_);
    return absl::FailedPreconditionError("Xvfb did not start a display");
  }
  display_ = absl::StrCat(":", number.substr(0, number.find('\n')));
  return absl::OkStatus();
}

absl::Status WineSession::EnsurePrefix() {
  const std::string ready = setup_.prefix + "/system.reg";
  if (access(ready.c_str(), R_OK) == 0) return absl::OkStatus();
  std::error_code ec;
  std::filesystem::create_directories(
      std::filesystem::path(setup_.prefix).parent_path(), ec);
  // Workers start together: one creates the prefix, the others wait.
  const std::string lock_path = setup_.prefix + ".lock";
  const int lock = open(lock_path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (lock < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot create ", lock_path));
  }
  flock(lock, LOCK_EX);
  absl::Status status = absl::OkStatus();
  if (access(ready.c_str(), R_OK) != 0) {
    const pid_t boot =
        Spawn({setup_.wine, "wineboot", "-i"},
              Environment({absl::StrCat("WINEPREFIX=", setup_.prefix),
                           absl::StrCat("DISPLAY=", display_), "WINEDEBUG=-all",
                           "WINEDLLOVERRIDES=mscoree,mshtml="},
                          {}),
              Fds{});
    int rc = WaitFor(boot, 300);
    if (rc == 0) {
      // The registry reaches the disk when the prefix's wineserver exits.
      const std::string server =
          std::filesystem::path(setup_.wine).parent_path() / "wineserver";
      const pid_t wait = Spawn(
          {IsExecutable(server) ? server : OnPath("wineserver"), "-w"},
          Environment({absl::StrCat("WINEPREFIX=", setup_.prefix)}, {}), Fds{});
      rc = WaitFor(wait, 120);
    }
    if (rc != 0) {
      pid_t p = boot;
      Kill(p);
      status = absl::FailedPreconditionError(absl::StrCat(
          "wineboot -i failed to create the prefix ", setup_.prefix,
          rc < 0 ? " (no end after 300 s)" : absl::StrCat(" (exit ", rc, ")")));
    }
  }
  flock(lock, LOCK_UN);
  close(lock);
  if (status.ok() && access(ready.c_str(), R_OK) != 0) {
    status = absl::FailedPreconditionError(
        absl::StrCat("the Wine prefix ", setup_.prefix, " has no system.reg"));
  }
  return status;
}

absl::Status WineSession::Start() {
  if (absl::Status s = StartDisplay(); !s.ok()) return s;
  if (absl::Status s = EnsurePrefix(); !s.ok()) return s;
  int pair[2], err[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0 ||
      pipe2(err, O_CLOEXEC) != 0) {
    return absl::InternalError("socketpair or pipe failed");
  }
  std::vector<std::string> set = {
      absl::StrCat("WINEPREFIX=", setup_.prefix),
      absl::StrCat("DISPLAY=", display_),
      // wined3d's errors, where a shader it failed to translate shows;
      // ATOMFUZZ_WINEDEBUG=+d3d_shader also prints the GLSL it generates.
      absl::StrCat("WINEDEBUG=",
                   EnvOr("ATOMFUZZ_WINEDEBUG", "-all,err+d3d,err+d3d_shader")),
      "WINEDLLOVERRIDES=mscoree,mshtml="};
  std::vector<std::string> unset;
  if (renderer_ == Renderer::kVulkan) {
    set.push_back("WINE_D3D_CONFIG=renderer=vulkan");
  } else {
    unset.push_back("WINE_D3D_CONFIG");
  }
  Fds fds;
  fds.in = fds.out = pair[1];
  fds.err = err[1];
  runner_pid_ =
      Spawn({setup_.wine, setup_.runner}, Environment(set, unset), fds);
  close(pair[1]);
  close(err[1]);
  socket_ = pair[0];
  errors_ = err[0];
  fcntl(errors_, F_SETFL, O_NONBLOCK);
  // The first start of a prefix's wineserver and the device take seconds.
  const Deadline deadline =
      std::chrono::steady_clock::now() + std::chrono::seconds(60);
  std::string frame;
  const FrameResult r =
      ReadFrame(socket_, ATOMFUZZ_WINE_MAX_FRAME, deadline, frame);
  DrainErrors();
  if (r != FrameResult::kOk) {
    Stop();
    return absl::FailedPreconditionError(
        absl::StrCat("the Wine runner sent no hello (", setup_.runner,
                     "): ", error_text_.substr(0, 2000)));
  }
  absl::StatusOr<Hello> hello = DecodeHello(frame);
  if (!hello.ok()) {
    Stop();
    return hello.status();
  }
  if (hello->feature_level == 0) {
    Stop();
    return absl::FailedPreconditionError(
        absl::StrCat("D3D11 on Wine has no device: ", hello->adapter));
  }
  hello_ = *std::move(hello);
  return absl::OkStatus();
}

void WineSession::Stop() {
  Kill(runner_pid_);
  Close(socket_);
  DrainErrors();
  Close(errors_);
}

void WineSession::DrainErrors() {
  if (errors_ < 0) return;
  char buf[4096];
  ssize_t n;
  while ((n = read(errors_, buf, sizeof buf)) > 0) {
    error_text_.append(buf, static_cast<size_t>(n));
    if (error_text_.size() > kMaxErrorText)
      error_text_.erase(0, error_text_.size() - kMaxErrorText);
  }
}

std::string WineSession::TakeErrors() {
  DrainErrors();
  std::string out;
  out.swap(error_text_);
  return out;
}

absl::StatusOr<std::string> WineSession::Exchange(absl::string_view request) {
  if (runner_pid_ < 0) {
    if (absl::Status s = Start(); !s.ok()) return s;
  }
  const Deadline deadline =
      std::chrono::steady_clock::now() +
      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
          std::chrono::duration<double>(timeout_seconds_));
  std::string reply;
  FrameResult r = WriteFrame(socket_, request, deadline);
  if (r == FrameResult::kOk)
    r = ReadFrame(socket_, ATOMFUZZ_WINE_MAX_FRAME, deadline, reply);
  DrainErrors();
  if (r == FrameResult::kOk) return reply;
  Stop();
  if (r == FrameResult::kTimedOut) {
    return absl::DeadlineExceededError(
        absl::StrCat("no reply within ", timeout_seconds_,
                     " s; the Wine runner was killed"));
  }
  return absl::UnavailableError(
      absl::StrCat("the Wine runner died: ", error_text_.substr(0, 2000)));
}

}  // namespace atomfuzz::targets::wine
