// One live Windows program under Wine, serving frames on its stdin and
// stdout: the Direct3D 11 runner of the Wine targets
// (runner/d3d11_runner.c) or the vkd3d-shader compiler of --vkd3d=wine
// (runner/vkd3d_compile_server.c). The Wine prefix is created once per user
// and reused; an Xvfb display is started for the programs that need one.
// Both are started here and stopped when the session ends. A crash or a
// hang of the program ends only the exchange in flight, and the next one
// starts it again.
#ifndef ATOMFUZZ_TARGETS_WINE_WINE_SESSION_H_
#define ATOMFUZZ_TARGETS_WINE_WINE_SESSION_H_

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace atomfuzz::targets::wine {

// The Windows programs the build makes with mingw-w64.
enum class WineProgram { kD3d11Runner, kVkd3dCompiler };

struct WineSetup {
  std::string wine;     // the wine64 loader
  std::string program;  // the .exe
  std::string prefix;   // WINEPREFIX
};

// Where the pieces are: $ATOMFUZZ_WINE, else /usr/lib/wine/wine64 or
// wine64 on the PATH; $ATOMFUZZ_WINE_RUNNER (the D3D11 runner) or
// $ATOMFUZZ_WINE_VKD3D (the compiler), else the program the build made;
// $ATOMFUZZ_WINE_PREFIX, else ~/.cache/atomfuzz/wine-prefix; "-vkd3d"
// appended for the compiler, which must not share the runner's wineserver.
// FailedPrecondition naming what is missing (and how to get it).
absl::StatusOr<WineSetup> FindWineSetup(
    WineProgram program = WineProgram::kD3d11Runner);

// How a session runs its program.
struct SessionConfig {
  std::string name;      // in messages, e.g. "the Wine runner"
  bool display = false;  // D3D needs an X display; a compiler does not
  std::vector<std::string> set_env;    // "NAME=value"
  std::vector<std::string> unset_env;  // names
  // Judges the program's first frame; an error stops the program and is
  // what Exchange returns.
  std::function<absl::Status(absl::string_view hello)> check_hello;
};

class WineSession {
 public:
  WineSession(WineSetup setup, SessionConfig config, double timeout_seconds);
  ~WineSession();
  WineSession(const WineSession&) = delete;
  WineSession& operator=(const WineSession&) = delete;

  // Sends one request and returns the reply frame. DeadlineExceeded when
  // the program does not answer in time, Unavailable when it died (both
  // stop it; the next call starts it again), FailedPrecondition when it
  // cannot be started at all.
  absl::StatusOr<std::string> Exchange(absl::string_view request);

  // Starts the program now, if it is not running.
  absl::Status Start();

  // The program's first frame (after the first successful start).
  const std::string& hello() const { return hello_; }
  // What the program and Wine wrote to stderr since the last call (Wine's
  // err channels: a shader wined3d failed to compile shows here).
  std::string TakeErrors();

  // In a child of fork(): lets go of the parent's program and display
  // without stopping them; the next Exchange starts the child's own.
  void Abandon();

 private:
  void Stop();
  absl::Status StartDisplay();
  absl::Status EnsurePrefix();
  void DrainErrors();

  WineSetup setup_;
  SessionConfig config_;
  double timeout_seconds_;
  pid_t display_pid_ = -1;
  std::string display_;  // ":N", or "" without one
  pid_t runner_pid_ = -1;
  int socket_ = -1;  // the program's stdin and stdout
  int errors_ = -1;  // its stderr
  std::string error_text_;
  std::string hello_;
};

}  // namespace atomfuzz::targets::wine

#endif  // ATOMFUZZ_TARGETS_WINE_WINE_SESSION_H_
