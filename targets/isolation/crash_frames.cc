#include "targets/isolation/crash_frames.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstring>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace atomfuzz::targets {
namespace {

int g_fd = -1;
constexpr size_t kAltStackBytes = 64 * 1024;
alignas(16) char g_alt_stack[kAltStackBytes];

// write(2) of a NUL-terminated string: what a signal handler may do.
void Put(const char* s) {
  if (s == nullptr) return;
  size_t n = std::strlen(s);
  while (n > 0) {
    const ssize_t w = write(g_fd, s, n);
    if (w <= 0) return;
    s += w;
    n -= static_cast<size_t>(w);
  }
}

const char* BaseName(const char* path) {
  if (path == nullptr) return "?";
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

// The faulting instruction's address, where the kernel says it.
void* FaultPc(void* context) {
#if defined(__x86_64__)
  auto* uc = static_cast<ucontext_t*>(context);
  return reinterpret_cast<void*>(uc->uc_mcontext.gregs[REG_RIP]);
#else
  (void)context;
  return nullptr;
#endif
}

void OnFatalSignal(int sig, siginfo_t*, void* context) {
  void* frames[64];
  const int n = backtrace(frames, 64);
  // Frames above the fault are this handler and the kernel's trampoline:
  // start at the faulting pc if it is there, else after those two.
  int first = n > 2 ? 2 : n;
  if (void* pc = FaultPc(context)) {
    for (int i = 0; i < n; ++i) {
      if (frames[i] == pc) {
        first = i;
        break;
      }
    }
  }
  int written = 0;
  for (int i = first; i < n && written < kCrashFrames; ++i, ++written) {
    Dl_info info;
    // Not async-signal-safe on paper; the child dies next either way, and
    // glibc's dladdr takes no lock a crashing driver is likely to hold.
    if (dladdr(frames[i], &info) != 0) {
      Put(BaseName(info.dli_fname));
      Put(":");
      Put(info.dli_sname != nullptr ? info.dli_sname : "?");
    } else {
      Put("?:?");  // JIT code, or a corrupt stack
    }
    Put("\n");
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void ReportCrashFramesTo(int fd) {
  g_fd = fd;
  // backtrace() loads libgcc_s on first use: not inside the handler.
  void* warm[1];
  backtrace(warm, 1);
  stack_t ss{};
  ss.ss_sp = g_alt_stack;
  ss.ss_size = kAltStackBytes;
  sigaltstack(&ss, nullptr);
  RearmCrashFrames();
}

void RearmCrashFrames() {
  if (g_fd < 0) return;
  struct sigaction sa {};
  sa.sa_sigaction = OnFatalSignal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
    sigaction(sig, &sa, nullptr);
}

std::string ReadCrashFrames(int fd) {
  std::string text;
  const int flags = fcntl(fd, F_GETFL);
  fcntl(fd, F_SETFL, flags | O_NONBLOCK);
  char buf[4096];
  for (;;) {
    const ssize_t r = read(fd, buf, sizeof buf);
    if (r <= 0 || text.size() > 16 * 1024) break;
    text.append(buf, static_cast<size_t>(r));
  }
  std::vector<std::string> lines =
      absl::StrSplit(text, '\n', absl::SkipWhitespace());
  if (lines.size() > kCrashFrames) lines.resize(kCrashFrames);
  return absl::StrJoin(lines, " < ");
}

}  // namespace atomfuzz::targets
