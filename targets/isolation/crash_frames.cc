#include "targets/isolation/crash_frames.h"

#include <dlfcn.h>
#include <elf.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "targets/isolation/elf_symbols.h"

namespace atomfuzz::targets {
namespace {

int g_fd = -1;
// The thread writing the report. A driver's workers often run the same bad
// code at once: the second thread to fault must not end the process (the
// default action) while the first is half way through its report.
std::atomic<pid_t> g_reporter{0};
// Where the executable is loaded: dladdr's file name for it is argv[0],
// which need not name a file from here; /proc/self/exe does.
const void* g_executable_base = nullptr;
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

// "+0x1a2b": where `pc` is in a library without a symbol for it, so that
// two crash sites in one stripped library tell apart. No printf here.
void PutOffset(const void* pc, const void* base) {
  uintptr_t offset =
      reinterpret_cast<uintptr_t>(pc) - reinterpret_cast<uintptr_t>(base);
  char text[2 + 2 + 16 + 1] = "+0x";
  char digits[16];
  int n = 0;
  do {
    digits[n++] = "0123456789abcdef"[offset & 0xf];
    offset >>= 4;
  } while (offset != 0 && n < 16);
  int at = 3;
  while (n > 0) text[at++] = digits[--n];
  text[at] = '\0';
  Put(text);
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

// The stack pointer at the fault, where the kernel says it.
const uintptr_t* FaultSp(void* context) {
#if defined(__x86_64__)
  auto* uc = static_cast<ucontext_t*>(context);
  return reinterpret_cast<const uintptr_t*>(uc->uc_mcontext.gregs[REG_RSP]);
#else
  (void)context;
  return nullptr;
#endif
}

// The name of a function dladdr does not know (not exported: a static
// function, or a library linked into the executable) from the file's own
// symbol table, else its offset. A return address may be one past its
// function's last instruction (a call that does not return): looked up
// one byte back, unless it is the faulting pc itself.
void PutUnexported(const void* pc, const Dl_info& info, bool faulting) {
  const uintptr_t base = reinterpret_cast<uintptr_t>(info.dli_fbase);
  const uintptr_t offset = reinterpret_cast<uintptr_t>(pc) - base;
  const char* file =
      info.dli_fbase == g_executable_base ? "/proc/self/exe" : info.dli_fname;
  char name[256];
  if (file != nullptr && FunctionNameAt(file, faulting ? offset : offset - 1,
                                        base, name, sizeof name)) {
    Put(name);
  } else {
    PutOffset(pc, info.dli_fbase);
  }
}

// Writes "lib:symbol" for `pc` if a library holds it as code (not libc's
// when `skip_libc`: its addresses litter any stack).
bool PutCode(const void* pc, const char* prefix, bool skip_libc) {
  Dl_info info;
  void* extra = nullptr;
  // Not async-signal-safe on paper; the child dies next either way, and
  // glibc's dladdr takes no lock a crashing driver is likely to hold.
  if (dladdr1(pc, &info, &extra, RTLD_DL_SYMENT) == 0) return false;
  const auto* sym = static_cast<const ElfW(Sym)*>(extra);
  if (skip_libc && std::strncmp(BaseName(info.dli_fname), "libc.so", 7) == 0)
    return false;
  if (sym != nullptr && ELF64_ST_TYPE(sym->st_info) != STT_FUNC) return false;
  Put(prefix);
  Put(BaseName(info.dli_fname));
  Put(":");
  Put(info.dli_sname != nullptr ? info.dli_sname : "?");
  Put("\n");
  return true;
}

// Code without unwind information (a driver's JIT) ends the backtrace at
// its own frame. The stack above it still holds the return addresses of
// whoever called it: the words that point into a library's code, marked
// "~" as found by scanning (breakpad's fallback), not by unwinding.
void PutScannedCallers(void* context, int want) {
  const uintptr_t* sp = FaultSp(context);
  if (sp == nullptr) return;
  constexpr int kWords = 512;  // 4 KiB: a few frames, well inside a stack
  for (int i = 0; i < kWords && want > 0; ++i) {
    if (PutCode(reinterpret_cast<const void*>(sp[i]), "~", true)) --want;
  }
}

void OnFatalSignal(int sig, siginfo_t*, void* context) {
  pid_t reporter = 0;
  if (!g_reporter.compare_exchange_strong(reporter, gettid())) {
    if (reporter == gettid()) {  // another signal inside our own report
      signal(sig, SIG_DFL);
      raise(sig);
      return;
    }
    for (;;) pause();  // the reporter ends the process
  }
  void* frames[64];
  int n = backtrace(frames, 64);
  // Frames above the fault are this handler and the kernel's trampoline:
  // start at the faulting pc if it is there, else after those two.
  int first = n > 2 ? 2 : n;
  void* const fault = FaultPc(context);
  if (fault != nullptr) {
    first = -1;
    for (int i = 0; i < n && first < 0; ++i) {
      if (frames[i] == fault) first = i;
    }
    // The unwinder stopped at the trampoline (libc's __restore_rt), short of
    // code without unwind information (a driver's JIT, as under ASan's
    // unwinder): the faulting pc alone, its callers found by scanning.
    if (first < 0) {
      frames[0] = fault;
      n = 1;
      first = 0;
    }
  }
  // An abort or an assertion starts in libc (raise, abort,
  // __assert_fail): the frames that say who gave up come after them.
  for (int i = first; i < n; ++i) {
    Dl_info info;
    if (dladdr(frames[i], &info) == 0 ||
        std::strncmp(BaseName(info.dli_fname), "libc.so", 7) != 0) {
      first = i;
      break;
    }
  }
  // The thread's name says whose code crashed where no library does (a
  // driver's JIT code has no unwind information: one frame, "?:?").
  char thread[17] = {};
  prctl(PR_GET_NAME, thread, 0, 0, 0);
  Put("thread ");
  Put(thread);
  Put("\n");
  int written = 0;
  for (int i = first; i < n && written < kCrashFrames; ++i, ++written) {
    Dl_info info;
    if (dladdr(frames[i], &info) != 0) {
      Put(BaseName(info.dli_fname));
      Put(":");
      if (info.dli_sname != nullptr) {
        Put(info.dli_sname);
      } else {
        PutUnexported(frames[i], info, frames[i] == fault);
      }
      Put("\n");
      continue;
    }
    Put("?:?\n");  // JIT code, or a corrupt stack
    if (i + 1 >= n) PutScannedCallers(context, kCrashFrames - written - 1);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void ReportCrashFramesTo(int fd) {
  g_fd = fd;
  Dl_info executable;
  if (dladdr(reinterpret_cast<const void*>(getauxval(AT_ENTRY)), &executable) !=
      0) {
    g_executable_base = executable.dli_fbase;
  }
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
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
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
  std::string thread;
  if (!lines.empty() && absl::StartsWith(lines.front(), "thread ")) {
    thread = lines.front().substr(7);
    lines.erase(lines.begin());
  }
  if (lines.size() > kCrashFrames) lines.resize(kCrashFrames);
  std::string out = absl::StrJoin(lines, " < ");
  if (!thread.empty()) absl::StrAppend(&out, " (thread ", thread, ")");
  return out;
}

}  // namespace atomfuzz::targets
