#include "targets/isolation/fork_child.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <new>
#include <string>

#include "absl/strings/str_cat.h"
#include "isa/case_file.h"
#include "targets/isolation/batch_wire.h"
#include "targets/isolation/child_watch.h"
#include "targets/isolation/crash_frames.h"
#include "targets/isolation/frame_io.h"
#include "targets/isolation/outcome_wire.h"

namespace atomfuzz::targets {
namespace {

void OutOfMemory() { _exit(kOutOfMemoryExit); }

void Send(int fd, char tag, absl::string_view body) {
  std::string frame(1, tag);
  frame.append(body.data(), body.size());
  if (WriteFrame(fd, frame, NoDeadline()) != FrameResult::kOk) _exit(0);
}

void SendError(int fd, const absl::Status& s) {
  Send(fd, kTagError,
       absl::StrCat(std::string(1, static_cast<char>(s.code())), s.message()));
}

// A sanitizer runtime's hook, present in sanitized builds only.
extern "C" void __sanitizer_set_death_callback(void (*callback)())
    __attribute__((weak));

// Parent-process state the child must not keep: signal handlers that
// would act on the campaign's behalf, stdout that belongs to the command,
// and a fuzzing engine's death callback: libFuzzer's wrote its current
// input as a crash-* artifact each time a driver corrupted the child's
// heap and ASan's checks ended it.
void Detach(pid_t parent, const IsolationOptions& options) {
  setpgid(0, 0);  // its own group, so a timeout kills whatever it spawned
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (getppid() != parent) _exit(0);  // the parent died before prctl
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGCHLD, SIGPIPE})
    signal(sig, SIG_DFL);
  if (__sanitizer_set_death_callback != nullptr)
    __sanitizer_set_death_callback(nullptr);
  dup2(STDERR_FILENO, STDOUT_FILENO);  // a chatty library must not mix in
  // (A sanitized build's parent watches the resident set instead:
  // child_watch.h.)
  if (options.memory_limit_bytes > 0 && kAddressSpaceCapWorks) {
    const rlimit limit{options.memory_limit_bytes, options.memory_limit_bytes};
    setrlimit(RLIMIT_AS, &limit);
  }
  std::set_new_handler(OutOfMemory);
}

// Runs a batch request: the cases that parse go to the target's RunBatch
// together; one that does not gets its parse error in its place.
void ServeBatch(int fd, Target& target, absl::string_view request) {
  absl::StatusOr<std::vector<std::string>> texts = DecodeBatchRequest(request);
  if (!texts.ok()) {
    SendError(fd, texts.status());
    return;
  }
  std::vector<absl::StatusOr<isa::Outcome>> results;
  std::vector<isa::Case> cases;
  std::vector<size_t> where;
  for (const std::string& text : *texts) {
    absl::StatusOr<isa::Case> c = isa::ParseCase(text, "<isolated case>");
    if (c.ok()) {
      where.push_back(results.size());
      cases.push_back(*std::move(c));
      results.push_back(absl::InternalError("not run"));
    } else {
      results.push_back(c.status());
    }
  }
  std::vector<absl::StatusOr<isa::Outcome>> ran = target.RunBatch(cases);
  for (size_t k = 0; k < ran.size() && k < where.size(); ++k)
    results[where[k]] = std::move(ran[k]);
  Send(fd, kTagResults, EncodeBatchResults(results));
}

}  // namespace

void ServeChild(int fd, pid_t parent, const TargetFactory& factory,
                const IsolationOptions& options, int crash_fd) {
  Detach(parent, options);
  if (crash_fd >= 0) ReportCrashFramesTo(crash_fd);
  absl::StatusOr<std::unique_ptr<Target>> target = factory();
  if (!target.ok()) {
    Send(fd, kTagNoTarget,
         absl::StrCat(std::string(1, static_cast<char>(target.status().code())),
                      target.status().message()));
    _exit(0);
  }
  Send(fd, kTagReady, "");
  std::string request;
  for (;;) {
    RearmCrashFrames();
    if (ReadFrame(fd, kMaxRequestBytes, NoDeadline(), request) !=
            FrameResult::kOk ||
        request.empty() ||
        (request[0] != kTagCase && request[0] != kTagBatch)) {
      // The parent closed the socket (or broke the protocol): let the target
      // release what it holds (a device, a library's handle), then leave
      // without the parent's atexit handlers.
      target->reset();
      _exit(0);
    }
    if (request[0] == kTagBatch) {
      ServeBatch(fd, **target, absl::string_view(request).substr(1));
      continue;
    }
    absl::StatusOr<isa::Case> c =
        isa::ParseCase(absl::string_view(request).substr(1), "<isolated case>");
    if (!c.ok()) {
      SendError(fd, c.status());
      continue;
    }
    absl::StatusOr<isa::Outcome> outcome = (*target)->Run(*c);
    if (!outcome.ok()) {
      SendError(fd, outcome.status());
      continue;
    }
    Send(fd, kTagOutcome, EncodeOutcome(*outcome));
  }
}

}  // namespace atomfuzz::targets
