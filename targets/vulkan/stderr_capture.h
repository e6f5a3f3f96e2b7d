// What a library prints to stderr while an object of this class lives:
// vkd3d-shader 1.2 says why it refuses a shader only there ("fixme:
// Unrecognized opcode 0x52"), not in the message log its API returns. The
// words are a finding's evidence, and a campaign's stderr stays quiet.
// Process-wide (it moves fd 2): for one thread at a time.
#ifndef ATOMFUZZ_TARGETS_VULKAN_STDERR_CAPTURE_H_
#define ATOMFUZZ_TARGETS_VULKAN_STDERR_CAPTURE_H_

#include <string>

namespace atomfuzz::targets::vulkan {

class StderrCapture {
 public:
  StderrCapture();  // if fd 2 cannot be moved, captures nothing
  ~StderrCapture();
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;

  // Puts stderr back and returns what was written meanwhile (at most
  // kMaxBytes, trimmed of trailing newlines).
  std::string Take();
  static constexpr size_t kMaxBytes = 4096;

 private:
  int saved_ = -1;    // the real stderr
  int capture_ = -1;  // where fd 2 points meanwhile
};

}  // namespace atomfuzz::targets::vulkan

#endif  // ATOMFUZZ_TARGETS_VULKAN_STDERR_CAPTURE_H_
