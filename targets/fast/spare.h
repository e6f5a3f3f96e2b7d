// One object kept between runs for reuse: a campaign runs case after case on
// one worker, so the last run's buffers (a wave's registers, a compiled case)
// serve the next instead of being freed and allocated again. A run that needs
// more than one (several workers, runs at once) gets fresh ones.
#ifndef ATOMFUZZ_TARGETS_FAST_SPARE_H_
#define ATOMFUZZ_TARGETS_FAST_SPARE_H_

#include <memory>
#include <mutex>

namespace atomfuzz::targets::fast {

template <typename T>
class Spare {
 public:
  // The kept object, its contents left from the last run; or a new one.
  std::unique_ptr<T> Take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return spare_ ? std::move(spare_) : std::make_unique<T>();
  }
  void GiveBack(std::unique_ptr<T> t) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!spare_) spare_ = std::move(t);
  }

 private:
  std::mutex mutex_;
  std::unique_ptr<T> spare_;
};

}  // namespace atomfuzz::targets::fast

#endif  // ATOMFUZZ_TARGETS_FAST_SPARE_H_
