#include "targets/vulkan/stderr_capture.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>

namespace atomfuzz::targets::vulkan {

StderrCapture::StderrCapture() {
  std::fflush(stderr);
  capture_ = memfd_create("atomfuzz-stderr", MFD_CLOEXEC);
  if (capture_ < 0) return;
  saved_ = dup(STDERR_FILENO);
  if (saved_ < 0 || dup2(capture_, STDERR_FILENO) < 0) {
    if (saved_ >= 0) close(saved_);
    close(capture_);
    saved_ = capture_ = -1;
  }
}

StderrCapture::~StderrCapture() { Take(); }

std::string StderrCapture::Take() {
  if (capture_ < 0) return "";
  std::fflush(stderr);
  dup2(saved_, STDERR_FILENO);
  close(saved_);
  std::string out(kMaxBytes, '\0');
  const ssize_t n = pread(capture_, out.data(), out.size(), 0);
  close(capture_);
  saved_ = capture_ = -1;
  out.resize(n > 0 ? static_cast<size_t>(n) : 0);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
    out.pop_back();
  return out;
}

}  // namespace atomfuzz::targets::vulkan
