#include "targets/isolation/isolated_target.h"

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "targets/isolation/child_watch.h"

namespace atomfuzz::targets {
namespace {

// A crash site of its own function (exported by no one: its name comes from
// the test's symbol table).
[[gnu::noinline]] void WriteThroughNull() {
  volatile int* volatile nowhere = nullptr;
  *nowhere = 1;
}

// Code without unwind information in no module, as a driver's JIT emits:
// a write through null. x86-64 only.
[[gnu::noinline]] void FaultInGeneratedCode() {
  void* page = mmap(nullptr, 4096, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (page == MAP_FAILED) return;
  // mov %eax, 0x0 ; ret
  const unsigned char code[] = {0x89, 0x04, 0x25, 0, 0, 0, 0, 0xc3};
  std::memcpy(page, code, sizeof code);
  if (mprotect(page, 4096, PROT_READ | PROT_EXEC) != 0) return;
  reinterpret_cast<void (*)()>(page)();
}

// Misbehaves by the dispatch's x size: 2 crashes (raise), 8 crashes (a
// write through null), 10 crashes in 16 threads at once, 11 in generated
// code, 3 hangs, 4 allocates
// without bound, 6 poisons the child (answers, but the next 7 crashes),
// anything else answers with the child's pid.
class Misbehaving : public Target {
 public:
  absl::string_view name() const override { return "misbehaving"; }
  absl::StatusOr<isa::Outcome> Run(const isa::Case& c) override {
    switch (c.groups[0]) {
      case 2: std::raise(SIGSEGV); break;
      case 3:
        for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
      case 4: {
        // Untouched (make_unique_for_overwrite): the address-space limit
        // stops it at once, where zeroing 512 MiB first could outlast the
        // 1 s deadline on a loaded machine.
        std::vector<std::unique_ptr<char[]>> hoard;
        for (;;)
          hoard.push_back(
              std::make_unique_for_overwrite<char[]>(size_t{64} << 20));
      }
      case 5: return absl::NotFoundError("no such thing");
      case 8: WriteThroughNull(); break;
      case 11: FaultInGeneratedCode(); break;
      case 9: {
        // Leaves a grandchild in a session of its own, holding the socket
        // (its fds are the child's), then dies. Its pid goes to the file
        // the test names in ATOMFUZZ_TEST_GRANDCHILD.
        const pid_t g = fork();
        if (g == 0) {
          setsid();
          for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
        }
        if (const char* path = std::getenv("ATOMFUZZ_TEST_GRANDCHILD")) {
          if (FILE* f = std::fopen(path, "w")) {
            std::fprintf(f, "%d\n", static_cast<int>(g));
            std::fclose(f);
          }
        }
        std::raise(SIGSEGV);
        break;
      }
      case 10: {
        // As a driver's workers running one bad shader do.
        std::atomic<int> ready{0};
        std::vector<std::thread> workers;
        for (int i = 0; i < 16; ++i) {
          workers.emplace_back([&ready] {
            ready.fetch_add(1);
            while (ready.load() < 16) {
            }
            volatile int* volatile nowhere = nullptr;
            *nowhere = 1;
          });
        }
        for (std::thread& w : workers) w.join();
        break;
      }
      case 6: poisoned_ = true; break;
      case 7:
        if (poisoned_) std::raise(SIGSEGV);
        break;
    }
    isa::Outcome o;
    o.message = absl::StrCat(getpid());
    return o;
  }
  // Marks what ran through a batch in the child.
  std::vector<absl::StatusOr<isa::Outcome>> RunBatch(
      absl::Span<const isa::Case> cases) override {
    std::vector<absl::StatusOr<isa::Outcome>> out = Target::RunBatch(cases);
    for (auto& o : out) {
      if (o.ok()) o->message += " batch";
    }
    return out;
  }

 private:
  bool poisoned_ = false;
};

isa::Case WithGroups(uint32_t x) {
  isa::Case c;
  c.groups = {x, 1, 1};
  isa::Instruction ret;
  ret.op = isa::Op::kRet;
  c.shader.instructions.push_back(ret);
  return c;
}

std::unique_ptr<Target> Make(IsolationOptions options = {}) {
  options.timeout_seconds = 1;
  auto t = Isolate(
      "misbehaving", [] { return std::make_unique<Misbehaving>(); }, options);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : nullptr;
}

// The first answer comes from a child, not from this process.
TEST(IsolatedTarget, RunsInAChild) {
  auto t = Make();
  absl::StatusOr<isa::Outcome> o = t->Run(WithGroups(1));
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->status, isa::RunStatus::kOk);
  EXPECT_NE(o->message, absl::StrCat(getpid()));
  EXPECT_EQ(t->Run(WithGroups(1))->message, o->message);  // the same child
}

// The child reports where it crashed, so that two crashes of one signal in
// different places tell apart (signatures key crashes by the frames).
TEST(IsolatedTarget, ACrashSaysWhereItHappened) {
  auto t = Make();
  absl::StatusOr<isa::Outcome> raised = t->Run(WithGroups(2));
  absl::StatusOr<isa::Outcome> wrote = t->Run(WithGroups(8));
  ASSERT_TRUE(raised.ok() && wrote.ok());
  for (const isa::Outcome* o : {&*raised, &*wrote}) {
    EXPECT_EQ(o->status, isa::RunStatus::kCrashed);
    EXPECT_TRUE(absl::StrContains(o->message, "\nframes: ")) << o->message;
  }
  // raise() dies inside libc, the null write in this test's own code: the
  // frames start at the code that gave up (libc's raise and abort are
  // skipped), each named from the test's symbol table (nothing here is
  // exported).
  for (const isa::Outcome* o : {&*raised, &*wrote}) {
    EXPECT_FALSE(absl::StrContains(o->message, "frames: libc.so"))
        << o->message;
    EXPECT_TRUE(absl::StrContains(o->message, "targets_isolation_test:"))
        << o->message;
  }
  EXPECT_TRUE(absl::StrContains(wrote->message,
                                "frames: targets_isolation_test:_ZN8atomfuzz7"
                                "targets12_GLOBAL__N_116WriteThroughNullEv < "))
      << wrote->message;
  EXPECT_NE(raised->message, wrote->message);
}

// Threads that fault together leave one whole report: the first writes
// it while the others wait, instead of the second ending the process (the
// default action) half way through it.
TEST(IsolatedTarget, ThreadsCrashingAtOnceLeaveOneWholeReport) {
  auto t = Make();
  for (int round = 0; round < 5; ++round) {
    absl::StatusOr<isa::Outcome> o = t->Run(WithGroups(10));
    ASSERT_TRUE(o.ok()) << o.status();
    EXPECT_EQ(o->status, isa::RunStatus::kCrashed);
    EXPECT_TRUE(
        absl::StrContains(o->message, "frames: targets_isolation_test:"))
        << o->message;
    EXPECT_TRUE(absl::StrContains(o->message, "(thread ")) << o->message;
  }
}

// A crash in code of no module (a JIT's) is "?:?", with the callers found
// by scanning the stack, whether or not the unwinder gets past the signal
// trampoline (ASan's does not): never libc's __restore_rt.
#if defined(__x86_64__)
TEST(IsolatedTarget, ACrashInGeneratedCodeStartsAtItsPc) {
  auto t = Make();
  absl::StatusOr<isa::Outcome> o = t->Run(WithGroups(11));
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->status, isa::RunStatus::kCrashed);
  EXPECT_TRUE(absl::StrContains(o->message, "\nframes: ?:? < ~")) << o->message;
  EXPECT_FALSE(absl::StrContains(o->message, "libc.so")) << o->message;
}
#endif

// The cleanup after a dead child takes what it left (another process
// group), never what this process forked itself: ASan's symbolizer is such a
// child, and killing it made the next stack ASan printed a SIGPIPE.
TEST(ChildWatch, KillNewChildrenSparesWhatThisProcessForked) {
  const std::vector<pid_t> before = ChildrenNow();
  const pid_t ours = fork();
  if (ours == 0) {
    pause();
    _exit(0);
  }
  const pid_t left = fork();
  if (left == 0) {
    setpgid(0, 0);  // as an isolated child's descendants are
    pause();
    _exit(0);
  }
  setpgid(left, left);  // whichever runs first
  ASSERT_GT(ours, 0);
  ASSERT_GT(left, 0);
  KillNewChildren(before);
  EXPECT_EQ(kill(ours, 0), 0) << "our own child was killed";
  EXPECT_EQ(waitpid(left, nullptr, WNOHANG), -1) << "the left one survives";
  kill(ours, SIGKILL);
  waitpid(ours, nullptr, 0);
}

// A child that dies while a setsid() grandchild holds its socket is seen
// dead at once (a crash, not a timeout at the deadline), and the
// grandchild does not outlive it (issue 21).
TEST(IsolatedTarget, ASetsidGrandchildNeitherHidesTheCrashNorSurvives) {
  const std::string path = ::testing::TempDir() + "/grandchild.pid";
  std::remove(path.c_str());
  setenv("ATOMFUZZ_TEST_GRANDCHILD", path.c_str(), 1);
  IsolationOptions options;
  options.timeout_seconds = 5;
  auto t = Isolate(
      "misbehaving", [] { return std::make_unique<Misbehaving>(); }, options);
  ASSERT_TRUE(t.ok()) << t.status();
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<isa::Outcome> o = (*t)->Run(WithGroups(9));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->status, isa::RunStatus::kCrashed) << o->message;
  EXPECT_LT(seconds, 4.0) << "the death was seen only at the deadline";
  FILE* f = std::fopen(path.c_str(), "r");
  ASSERT_NE(f, nullptr);
  int grandchild = 0;
  ASSERT_EQ(std::fscanf(f, "%d", &grandchild), 1);
  std::fclose(f);
  ASSERT_GT(grandchild, 0);
  EXPECT_NE(kill(grandchild, 0), 0) << "the grandchild lives on";
  unsetenv("ATOMFUZZ_TEST_GRANDCHILD");
}

TEST(IsolatedTarget, CrashIsAnOutcomeAndTheNextRunWorks) {
  auto t = Make();
  const std::string first = t->Run(WithGroups(1))->message;
  absl::StatusOr<isa::Outcome> o = t->Run(WithGroups(2));
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->status, isa::RunStatus::kCrashed);
  EXPECT_TRUE(absl::StartsWith(o->message, "killed by signal 11 (SIGSEGV)"))
      << o->message;
  absl::StatusOr<isa::Outcome> again = t->Run(WithGroups(1));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->status, isa::RunStatus::kOk);
  EXPECT_NE(again->message, first);  // a new child
}

// A crash of a child that served earlier cases is checked in a fresh one:
// an earlier case may have broken the child (a heap it corrupted).
TEST(IsolatedTarget, AFaultAnEarlierCaseCausedIsNotThisCasesFinding) {
  auto t = Make();
  ASSERT_EQ(t->Run(WithGroups(6))->status, isa::RunStatus::kOk);
  absl::StatusOr<isa::Outcome> o = t->Run(WithGroups(7));
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->status, isa::RunStatus::kOk) << o->message;
  // A case that crashes a fresh child too is still a crash.
  ASSERT_EQ(t->Run(WithGroups(1))->status, isa::RunStatus::kOk);
  EXPECT_EQ(t->Run(WithGroups(2))->status, isa::RunStatus::kCrashed);
}

TEST(IsolatedTarget, HangTimesOutAndTheNextRunWorks) {
  auto t = Make();
  absl::StatusOr<isa::Outcome> o = t->Run(WithGroups(3));
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->status, isa::RunStatus::kTimedOut);
  EXPECT_EQ(t->Run(WithGroups(1))->status, isa::RunStatus::kOk);
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ATOMFUZZ_ASAN 1
#endif
#endif

TEST(IsolatedTarget, OutOfMemoryIsACrash) {
#ifdef ATOMFUZZ_ASAN
  GTEST_SKIP() << "ASan's shadow memory does not fit an address-space limit";
#endif
  IsolationOptions options;
  options.memory_limit_bytes = uint64_t{512} << 20;
  auto t = Make(options);
  absl::StatusOr<isa::Outcome> o = t->Run(WithGroups(4));
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->status, isa::RunStatus::kCrashed);
  EXPECT_NE(o->message.find("out of memory"), std::string::npos) << o->message;
  EXPECT_EQ(t->Run(WithGroups(1))->status, isa::RunStatus::kOk);
}

TEST(IsolatedTarget, ErrorsKeepTheirCode) {
  auto t = Make();
  absl::StatusOr<isa::Outcome> o = t->Run(WithGroups(5));
  EXPECT_EQ(o.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(o.status().message(), "no such thing");
}

TEST(IsolatedTarget, BatchRunsInOneChildAndKeepsErrors) {
  auto t = Make();
  const std::vector<isa::Case> cases = {WithGroups(1), WithGroups(5),
                                        WithGroups(1)};
  std::vector<absl::StatusOr<isa::Outcome>> out = t->RunBatch(cases);
  ASSERT_EQ(out.size(), 3u);
  ASSERT_TRUE(out[0].ok()) << out[0].status();
  EXPECT_EQ(out[0]->message,
            absl::StrCat(t->Run(WithGroups(1))->message, " batch"));
  EXPECT_EQ(out[1].status().code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(out[2].ok()) << out[2].status();
  EXPECT_EQ(out[2]->message, out[0]->message);
}

// A batch the child dies or hangs on runs again case by case: the crash
// and the timeout belong to the cases that caused them.
TEST(IsolatedTarget, BatchCrashOrHangIsRetriedCaseByCase) {
  auto t = Make();
  const std::vector<isa::Case> cases = {WithGroups(1), WithGroups(2),
                                        WithGroups(1), WithGroups(3),
                                        WithGroups(1)};
  std::vector<absl::StatusOr<isa::Outcome>> out = t->RunBatch(cases);
  ASSERT_EQ(out.size(), 5u);
  for (const auto& o : out) ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(out[0]->status, isa::RunStatus::kOk);
  EXPECT_EQ(out[0]->message.find(" batch"), std::string::npos);  // run alone
  EXPECT_EQ(out[1]->status, isa::RunStatus::kCrashed);
  EXPECT_TRUE(
      absl::StartsWith(out[1]->message, "killed by signal 11 (SIGSEGV)"))
      << out[1]->message;
  EXPECT_EQ(out[2]->status, isa::RunStatus::kOk);
  EXPECT_EQ(out[3]->status, isa::RunStatus::kTimedOut);
  EXPECT_EQ(out[4]->status, isa::RunStatus::kOk);
  // And the next batch runs in a child again.
  out = t->RunBatch({WithGroups(1), WithGroups(1)});
  ASSERT_TRUE(out[1].ok()) << out[1].status();
  EXPECT_NE(out[1]->message.find(" batch"), std::string::npos);
}

TEST(IsolatedTarget, FactoryErrorIsReturnedByIsolate) {
  auto t = Isolate("broken",
                   []() -> absl::StatusOr<std::unique_ptr<Target>> {
                     return absl::InvalidArgumentError("no device");
                   },
                   {});
  EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(t.status().message(), "no device");
}

}  // namespace
}  // namespace atomfuzz::targets
