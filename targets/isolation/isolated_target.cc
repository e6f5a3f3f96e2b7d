#include "targets/isolation/isolated_target.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "isa/case_file.h"
#include "targets/isolation/batch_wire.h"
#include "targets/isolation/child_watch.h"
#include "targets/isolation/crash_frames.h"
#include "targets/isolation/fork_child.h"
#include "targets/isolation/frame_io.h"
#include "targets/isolation/outcome_wire.h"

namespace atomfuzz::targets {
namespace {

void CloseCrashPipe(const int (&fds)[2]) {
  for (int fd : fds)
    if (fd >= 0) close(fd);
}

absl::string_view SignalName(int sig) {
  switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGABRT: return "SIGABRT";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGKILL: return "SIGKILL";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGTERM: return "SIGTERM";
    case SIGXCPU: return "SIGXCPU";
  }
  return "another signal";
}

// A status code sent by the child as one byte; anything odd is kInternal.
absl::StatusCode CodeFrom(char byte) {
  const int code = static_cast<unsigned char>(byte);
  if (code == 0 ||
      code > static_cast<int>(absl::StatusCode::kUnauthenticated)) {
    return absl::StatusCode::kInternal;
  }
  return static_cast<absl::StatusCode>(code);
}

class IsolatedTarget : public Target {
 public:
  IsolatedTarget(std::string name, TargetFactory factory,
                 IsolationOptions options, std::string description)
      : name_(std::move(name)),
        factory_(std::move(factory)),
        options_(options),
        description_(std::move(description)) {}
  ~IsolatedTarget() override {
    Kill();
    if (crash_fd_ >= 0) close(crash_fd_);
  }

  absl::string_view name() const override { return name_; }
  bool RunsStage(isa::Stage stage) const override {
    return stage == isa::Stage::kCompute || options_.runs_pixel;
  }
  std::string Describe() const override {
    return description_.empty() ? name_ : description_;
  }

  // Forks the child and waits for it to build its target. An error is the
  // factory's own; a child that dies while starting is kCrashed in `death`.
  absl::Status Start(std::string& death) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
      return absl::InternalError(
          absl::StrCat("socketpair: ", std::strerror(errno)));
    }
    // Where the child writes the frames of a crash (crash_frames.h).
    int crash[2] = {-1, -1};
    if (pipe2(crash, O_CLOEXEC) != 0) crash[0] = crash[1] = -1;
    const pid_t parent = getpid();
    // What the child leaves behind becomes ours to kill (child_watch.h).
    BecomeSubreaper();
    children_before_ = ChildrenNow();
    // A library that calls exit() in the child would otherwise write the
    // parent's buffered output again.
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
      close(fds[0]);
      close(fds[1]);
      CloseCrashPipe(crash);
      return absl::InternalError(absl::StrCat("fork: ", std::strerror(errno)));
    }
    if (pid == 0) {
      close(fds[0]);
      if (crash[0] >= 0) close(crash[0]);
      ServeChild(fds[1], parent, factory_, options_, crash[1]);
    }
    close(fds[1]);
    if (crash[1] >= 0) close(crash[1]);
    if (crash_fd_ >= 0) close(crash_fd_);
    crash_fd_ = crash[0];
    setpgid(pid, pid);  // as the child does; whichever runs first wins
    NoteOwnChild(pid);
    pid_ = pid;
    fd_ = fds[0];
    served_ = 0;
    std::string reply;
    switch (ReadFrame(fd_, kMaxWireMessage + 2, DeadlineFromNow(), reply)) {
      case FrameResult::kOk: break;
      case FrameResult::kTimedOut:
        Kill();
        death = absl::StrFormat("the child did not start within %g s",
                                options_.timeout_seconds);
        return absl::OkStatus();
      default: death = Reap(); return absl::OkStatus();
    }
    if (reply.size() >= 2 && reply[0] == kTagNoTarget) {
      Kill();
      return absl::Status(CodeFrom(reply[1]), reply.substr(2));
    }
    if (reply != std::string(1, kTagReady)) {
      Kill();
      death = "the child broke the protocol while starting";
    }
    return absl::OkStatus();
  }

  // A crash in a child that served earlier cases may be theirs: a case can
  // corrupt the child's heap without dying (lavapipe writing far out of a
  // g#, docs/findings.md #5) and leave it to fail later. Only a crash that a
  // fresh child repeats belongs to this case. (Not a hang: a second deadline
  // would outlast the campaign's watchdog, which allows one.)
  absl::StatusOr<isa::Outcome> Run(const isa::Case& c) override {
    const bool warm = pid_ >= 0 && served_ > 0;
    absl::StatusOr<isa::Outcome> o = RunOnce(c);
    if (warm && o.ok() && o->status == isa::RunStatus::kCrashed) {
      Kill();
      return RunOnce(c);
    }
    return o;
  }

  // The whole batch in one exchange with the child. A batch the child dies
  // on, hangs on or answers wrongly runs again case by case, each with its
  // own deadline (and child, after a death), so that the crash or timeout
  // is the outcome of the case that caused it.
  std::vector<absl::StatusOr<isa::Outcome>> RunBatch(
      absl::Span<const isa::Case> cases) override {
    if (cases.size() > 1 && cases.size() <= kMaxWireBatch) {
      if (auto results = TryBatch(cases)) return *std::move(results);
    }
    return Target::RunBatch(cases);
  }

 private:
  // One request and its reply within one deadline; counts what the child
  // answered.
  FrameResult Exchange(const std::string& request, std::string& reply) {
    const Deadline deadline = DeadlineFromNow();
    FrameResult r = WriteFrame(fd_, request, deadline);
    // A child that died while something it spawned holds the socket gives
    // no EOF: its death is seen at once all the same (child_watch.h).
    if (r == FrameResult::kOk) {
      const uint64_t rss_limit =
          kAddressSpaceCapWorks ? 0 : options_.memory_limit_bytes;
      switch (WaitForReplyOrDeath(fd_, pid_, deadline, rss_limit)) {
        case ChildWait::kReadable: break;
        case ChildWait::kDied: return FrameResult::kClosed;
        case ChildWait::kTimedOut: return FrameResult::kTimedOut;
        case ChildWait::kOverMemory:
          over_memory_ = true;  // killed: Reap says so
          return FrameResult::kClosed;
      }
      r = ReadFrame(fd_, options_.max_reply_bytes, deadline, reply);
    }
    if (r == FrameResult::kOk) ++served_;
    return r;
  }

  absl::StatusOr<isa::Outcome> RunOnce(const isa::Case& c) {
    if (pid_ < 0) {
      std::string death;
      if (absl::Status s = Start(death); !s.ok()) return s;
      if (pid_ < 0) return isa::Outcome::Ended(isa::RunStatus::kCrashed, death);
    }
    std::string reply;
    switch (Exchange(absl::StrCat(std::string(1, kTagCase), isa::PrintCase(c)),
                     reply)) {
      case FrameResult::kOk: break;
      case FrameResult::kTimedOut:
        Kill();
        return isa::Outcome::Ended(
            isa::RunStatus::kTimedOut,
            absl::StrFormat("no reply within %g s; the child was killed",
                            options_.timeout_seconds));
      case FrameResult::kClosed:
        return isa::Outcome::Ended(isa::RunStatus::kCrashed, Reap());
      case FrameResult::kTooLarge:
        Kill();
        return isa::Outcome::Ended(
            isa::RunStatus::kRejected,
            absl::StrCat("the child's reply is larger than ",
                         options_.max_reply_bytes, " bytes"));
    }
    if (!reply.empty() && reply[0] == kTagOutcome) {
      absl::StatusOr<isa::Outcome> o =
          DecodeOutcome(absl::string_view(reply).substr(1));
      if (!o.ok())
        return isa::Outcome::Ended(isa::RunStatus::kRejected,
                                   std::string(o.status().message()));
      return o;
    }
    if (reply.size() >= 2 && reply[0] == kTagError) {
      return absl::Status(CodeFrom(reply[1]),
                          absl::string_view(reply).substr(2, kMaxWireMessage));
    }
    Kill();
    return isa::Outcome::Ended(isa::RunStatus::kRejected,
                               "the child broke the protocol");
  }

  std::optional<std::vector<absl::StatusOr<isa::Outcome>>> TryBatch(
      absl::Span<const isa::Case> cases) {
    if (pid_ < 0) {
      std::string death;
      if (!Start(death).ok() || pid_ < 0) return std::nullopt;  // Run says why
    }
    // A batch shares one case's deadline: it costs less than its cases
    // alone, and a slow one is only run again.
    std::string reply;
    const FrameResult r = Exchange(
        absl::StrCat(std::string(1, kTagBatch), EncodeBatchRequest(cases)),
        reply);
    if (r == FrameResult::kClosed) {
      Reap();
      return std::nullopt;
    }
    if (r == FrameResult::kOk && !reply.empty() && reply[0] == kTagResults) {
      auto results =
          DecodeBatchResults(absl::string_view(reply).substr(1), cases.size());
      if (results.ok()) return *std::move(results);
    }
    Kill();
    return std::nullopt;
  }

  Deadline DeadlineFromNow() const {
    return std::chrono::steady_clock::now() +
           std::chrono::duration_cast<std::chrono::steady_clock::duration>(
               std::chrono::duration<double>(options_.timeout_seconds));
  }

  void Close() {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }

  // The child closed its end: wait a moment for it to finish dying, and say
  // how it died.
  std::string Reap() {
    Close();
    int status = 0;
    pid_t got = 0;
    for (int i = 0; i < 200 && got == 0; ++i) {
      got = waitpid(pid_, &status, WNOHANG);
      if (got == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (got == 0) {  // it closed the socket but lives on
      kill(-pid_, SIGKILL);
      kill(pid_, SIGKILL);
      got = waitpid(pid_, &status, 0);
    }
    kill(-pid_, SIGKILL);  // whatever it spawned goes with it
    ForgetOwnChild(pid_);
    KillNewChildren(children_before_);  // and what left its group
    pid_ = -1;
    if (got < 0) return "the child vanished";
    if (std::exchange(over_memory_, false)) {
      return absl::StrFormat(
          "out of memory (the child's resident set passed %d MiB)",
          options_.memory_limit_bytes >> 20);
    }
    if (WIFSIGNALED(status)) {
      std::string death =
          absl::StrFormat("killed by signal %d (%s)", WTERMSIG(status),
                          SignalName(WTERMSIG(status)));
      // Where it crashed, on a line of its own: signatures key crashes by
      // it (fuzz/triage/signature.h CauseOf).
      if (crash_fd_ >= 0) {
        const std::string frames = ReadCrashFrames(crash_fd_);
        if (!frames.empty()) absl::StrAppend(&death, "\nframes: ", frames);
      }
      return death;
    }
    if (WEXITSTATUS(status) == kOutOfMemoryExit) {
      return absl::StrFormat(
          "out of memory (the child's address space is capped at %d MiB)",
          options_.memory_limit_bytes >> 20);
    }
    return absl::StrFormat("exit status %d", WEXITSTATUS(status));
  }

  void Kill() {
    Close();
    if (pid_ <= 0) return;
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    while (waitpid(pid_, nullptr, 0) < 0 && errno == EINTR) {
    }
    ForgetOwnChild(pid_);
    KillNewChildren(children_before_);
    pid_ = -1;
  }

  // This process's children before the child was forked: the others,
  // after its death, are what it left behind.
  std::vector<pid_t> children_before_;
  bool over_memory_ = false;  // the resident-set watch killed the child
  const std::string name_;
  const TargetFactory factory_;
  const IsolationOptions options_;
  const std::string description_;
  pid_t pid_ = -1;
  int fd_ = -1;
  int crash_fd_ = -1;    // the read end of the child's crash-frames pipe
  uint64_t served_ = 0;  // exchanges the current child answered
};

}  // namespace

absl::StatusOr<std::unique_ptr<Target>> Isolate(std::string name,
                                                TargetFactory factory,
                                                IsolationOptions options,
                                                std::string description) {
  if (options.in_process) return factory();
  auto target = std::make_unique<IsolatedTarget>(
      std::move(name), std::move(factory), options, std::move(description));
  std::string death;
  if (absl::Status s = target->Start(death); !s.ok()) return s;
  if (!death.empty()) {
    return absl::UnavailableError(
        absl::StrCat("the isolated target died while starting: ", death));
  }
  return target;
}

IsolationOptions IsolationFor(const TargetOptions& options) {
  IsolationOptions isolation;
  isolation.timeout_seconds = options.timeout_seconds;
  isolation.memory_limit_bytes = options.memory_limit_mb << 20;
  isolation.in_process = options.in_process;
  return isolation;
}

}  // namespace atomfuzz::targets
