// The Unix processes around a Wine session (wine_session.h): finding
// programs, spawning one with its stdio on our descriptors, waiting and
// stopping. Its own process group and PR_SET_PDEATHSIG, so that a killed
// campaign worker leaves no Wine program or Xvfb behind.
#ifndef ATOMFUZZ_TARGETS_WINE_WINE_PROCESS_H_
#define ATOMFUZZ_TARGETS_WINE_WINE_PROCESS_H_

#include <sys/types.h>

#include <string>
#include <vector>

namespace atomfuzz::targets::wine {

bool IsExecutable(const std::string& path);

// $name, or `fallback` when it is unset or empty.
std::string EnvOr(const char* name, const std::string& fallback);

// `name` found on $PATH, or "".
std::string OnPath(const std::string& name);

// The process environment with `set` ("NAME=value") in place and the
// variables named in `unset` dropped.
std::vector<std::string> Environment(const std::vector<std::string>& set,
                                     const std::vector<std::string>& unset);

struct Fds {
  int in = -1, out = -1, err = -1, extra = -1;  // extra becomes fd 3
};

// fork + exec with `fds` as 0, 1, 2 (and 3); /dev/null where -1. Its own
// process group, so that stopping it stops what it started (not a
// wineserver, which runs in a session of its own).
pid_t Spawn(const std::vector<std::string>& argv,
            const std::vector<std::string>& env, Fds fds);

// Waits for `pid` up to `seconds`; its exit status, or -1 if it still runs.
int WaitFor(pid_t pid, double seconds);

// Kills `pid`'s process group, reaps it and sets `pid` to -1.
void Kill(pid_t& pid);

// Closes `fd` if open and sets it to -1.
void Close(int& fd);

}  // namespace atomfuzz::targets::wine

#endif  // ATOMFUZZ_TARGETS_WINE_WINE_PROCESS_H_
