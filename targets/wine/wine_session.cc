#include "targets/wine/wine_session.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "targets/isolation/frame_io.h"
#include "targets/wine/runner_wire.h"
#include "targets/wine/wine_process.h"

namespace atomfuzz::targets::wine {
namespace {

#ifndef ATOMFUZZ_WINE_RUNNER_PATH
#define ATOMFUZZ_WINE_RUNNER_PATH ""
#endif
#ifndef ATOMFUZZ_WINE_VKD3D_PATH
#define ATOMFUZZ_WINE_VKD3D_PATH ""
#endif

// What Wine prints on stderr kept per case: its err channels are short, a
// +d3d_shader trace (the GLSL of a shader) is longer.
constexpr size_t kMaxErrorText = 1 << 20;

}  // namespace

absl::StatusOr<WineSetup> FindWineSetup(WineProgram program) {
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
  const bool d3d = program == WineProgram::kD3d11Runner;
  const char* variable = d3d ? "ATOMFUZZ_WINE_RUNNER" : "ATOMFUZZ_WINE_VKD3D";
  s.program = EnvOr(variable,
                    d3d ? ATOMFUZZ_WINE_RUNNER_PATH : ATOMFUZZ_WINE_VKD3D_PATH);
  if (s.program.empty() || access(s.program.c_str(), R_OK) != 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "no ", d3d ? "d3d11_runner.exe" : "vkd3d_compile_server.exe",
        " (the build makes it when x86_64-w64-mingw32-gcc is installed: "
        "Debian package gcc-mingw-w64-x86-64; or set ",
        variable, ")",
        s.program.empty() ? "" : absl::StrCat("; looked at ", s.program)));
  }
  s.prefix = EnvOr("ATOMFUZZ_WINE_PREFIX", "");
  if (s.prefix.empty()) {
    const std::string cache =
        EnvOr("XDG_CACHE_HOME", absl::StrCat(EnvOr("HOME", "/tmp"), "/.cache"));
    s.prefix = absl::StrCat(cache, "/atomfuzz/wine-prefix");
  }
  // A prefix has one wineserver, and its first program starts the desktop
  // with the graphics driver of its own environment: a compiler started
  // there with no display would leave every later D3D11 device without one
  // (D3D11CreateDevice 0x887a0004). So the compiler has a prefix of its own.
  if (!d3d) absl::StrAppend(&s.prefix, "-vkd3d");
  return s;
}

WineSession::WineSession(WineSetup setup, SessionConfig config,
                         double timeout_seconds)
    : setup_(std::move(setup)),
      config_(std::move(config)),
      timeout_seconds_(timeout_seconds) {}

WineSession::~WineSession() {
  Stop();
  Kill(display_pid_);
}

absl::Status WineSession::StartDisplay() {
  if (!config_.display) return absl::OkStatus();
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
  if (runner_pid_ > 0) return absl::OkStatus();
  if (absl::Status s = StartDisplay(); !s.ok()) return s;
  if (absl::Status s = EnsurePrefix(); !s.ok()) return s;
  int pair[2], err[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0 ||
      pipe2(err, O_CLOEXEC) != 0) {
    return absl::InternalError("socketpair or pipe failed");
  }
  std::vector<std::string> set = {absl::StrCat("WINEPREFIX=", setup_.prefix),
                                  "WINEDLLOVERRIDES=mscoree,mshtml="};
  std::vector<std::string> unset = config_.unset_env;
  if (display_.empty()) {
    unset.push_back("DISPLAY");
  } else {
    set.push_back(absl::StrCat("DISPLAY=", display_));
  }
  set.insert(set.end(), config_.set_env.begin(), config_.set_env.end());
  Fds fds;
  fds.in = fds.out = pair[1];
  fds.err = err[1];
  runner_pid_ =
      Spawn({setup_.wine, setup_.program}, Environment(set, unset), fds);
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
        absl::StrCat(config_.name, " sent no hello (", setup_.program,
                     "): ", error_text_.substr(0, 2000)));
  }
  if (config_.check_hello) {
    if (absl::Status s = config_.check_hello(frame); !s.ok()) {
      Stop();
      return s;
    }
  }
  hello_ = std::move(frame);
  return absl::OkStatus();
}

void WineSession::Stop() {
  Kill(runner_pid_);
  Close(socket_);
  DrainErrors();
  Close(errors_);
}

void WineSession::Abandon() {
  // The descriptors are this process's copies; the processes are the
  // parent's, and stay its.
  Close(socket_);
  Close(errors_);
  runner_pid_ = -1;
  display_pid_ = -1;
  display_.clear();
  error_text_.clear();
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
  if (absl::Status s = Start(); !s.ok()) return s;
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
        absl::StrCat("no reply within ", timeout_seconds_, " s; ", config_.name,
                     " was killed"));
  }
  return absl::UnavailableError(absl::StrCat(
      config_.name, " died: ",
      absl::StripTrailingAsciiWhitespace(error_text_.substr(0, 2000))));
}

}  // namespace atomfuzz::targets::wine
