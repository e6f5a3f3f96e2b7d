// One live Direct3D 11 device under Wine: an Xvfb display, a Wine prefix
// (created once per user and reused) and the Windows program
// (runner/d3d11_runner.c) reading request frames, each started here and
// stopped when the session ends. A campaign worker holds one; a crash or a
// hang of the program ends only the exchange in flight, and the next one
// starts it again.
#ifndef ATOMFUZZ_TARGETS_WINE_WINE_SESSION_H_
#define ATOMFUZZ_TARGETS_WINE_WINE_SESSION_H_

#include <sys/types.h>

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "targets/wine/wine_wire.h"

namespace atomfuzz::targets::wine {

enum class Renderer { kGl, kVulkan };

struct WineSetup {
  std::string wine;    // the wine64 loader
  std::string runner;  // d3d11_runner.exe
  std::string prefix;  // WINEPREFIX
};

// Where the pieces are: $ATOMFUZZ_WINE, else /usr/lib/wine/wine64 or
// wine64 on the PATH; $ATOMFUZZ_WINE_RUNNER, else the program the build
// made; $ATOMFUZZ_WINE_PREFIX, else ~/.cache/atomfuzz/wine-prefix.
// FailedPrecondition naming what is missing (and how to get it).
absl::StatusOr<WineSetup> FindWineSetup();

class WineSession {
 public:
  WineSession(WineSetup setup, Renderer renderer, double timeout_seconds);
  ~WineSession();
  WineSession(const WineSession&) = delete;
  WineSession& operator=(const WineSession&) = delete;

  // Sends one request and returns the reply frame. DeadlineExceeded when
  // the program does not answer in time, Unavailable when it died (both
  // stop it; the next call starts it again), FailedPrecondition when it
  // cannot be started at all.
  absl::StatusOr<std::string> Exchange(absl::string_view request);

  // The device the program opened (after the first successful start).
  const Hello& hello() const { return hello_; }
  // What the program and Wine wrote to stderr since the last call (Wine's
  // err channels: a shader wined3d failed to compile shows here).
  std::string TakeErrors();

 private:
  absl::Status Start();
  void Stop();
  absl::Status StartDisplay();
  absl::Status EnsurePrefix();
  void DrainErrors();

  WineSetup setup_;
  Renderer renderer_;
  double timeout_seconds_;
  pid_t display_pid_ = -1;
  std::string display_;  // ":N"
  pid_t runner_pid_ = -1;
  int socket_ = -1;  // the program's stdin and stdout
  int errors_ = -1;  // its stderr
  std::string error_text_;
  Hello hello_;
};

}  // namespace atomfuzz::targets::wine

#endif  // ATOMFUZZ_TARGETS_WINE_WINE_SESSION_H_
