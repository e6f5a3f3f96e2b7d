// One object kept between runs for reuse: a campaign runs case after case on
// one worker, so the last run's buffers (a wave's registers, a compiled case)
// serve the next instead of being freed and allocated again. A run that needs
// more than one (several workers, runs at once) gets fresh ones.
#ifndef ATOMFUZZ_TARGETS_FAST_SPARE_H_
#define ATOMFUZZ_TARGETS_FAST_SPARE_H_

#include <atomic>
#include <memory>

namespace atomfuzz::targets::fast {

template <typename T>
class Spare {
 public:
  Spare() = default;
  Spare(const Spare&) = delete;
  Spare& operator=(const Spare&) = delete;
  ~Spare() { delete spare_.load(std::memory_order_acquire); }

  // The kept object, its contents left from the last run; or a new one.
  // One atomic exchange, not a mutex: a run takes and gives back twice.
  std::unique_ptr<T> Take() {
    T* t = spare_.exchange(nullptr, std::memory_order_acq_rel);
    return t != nullptr ? std::unique_ptr<T>(t) : std::make_unique<T>();
  }
  void GiveBack(std::unique_ptr<T> t) {
    T* expected = nullptr;
    // Kept only if none is; otherwise `t` is freed here.
    if (spare_.compare_exchange_strong(expected, t.get(),
                                       std::memory_order_acq_rel)) {
      t.release();
    }
  }

 private:
  std::atomic<T*> spare_{nullptr};
};

}  // namespace atomfuzz::targets::fast

#endif  // ATOMFUZZ_TARGETS_FAST_SPARE_H_
