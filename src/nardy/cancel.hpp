// Cooperative cancellation of long calls (perft, divide, rollouts, big batches).
//
// One Cancel is shared by every thread of a call: an atomic flag any thread may set, and an
// optional check run only on the calling thread (the Python bindings re-take the GIL there
// to look for Ctrl-C). Each thread polls through its own CancelPoll: a counter bumped per
// unit of work and, every `stride` units, a look at the flag and, at most every few
// milliseconds, the check. A cancelled poll throws Cancelled; the loops hold their results in
// locals, so unwinding leaves nothing half-written.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <exception>

namespace nardy {

struct Cancelled : std::exception {
  [[nodiscard]] const char* what() const noexcept override { return "cancelled"; }
};

struct Cancel {
  // true: stop now. Called on the calling thread only, at most every kCheckInterval.
  using Check = bool (*)(void* context);

  std::atomic<bool> flag{false};
  Check check = nullptr;
  void* context = nullptr;

  void request() noexcept { flag.store(true, std::memory_order_relaxed); }
  [[nodiscard]] bool requested() const noexcept { return flag.load(std::memory_order_relaxed); }
};

class CancelPoll {
 public:
  static constexpr std::chrono::milliseconds kCheckInterval{5};

  CancelPoll() = default;  // never cancels
  // `caller`: this thread is the one that made the call (it runs cancel->check).
  CancelPoll(Cancel* cancel, bool caller, uint32_t stride) noexcept
      : cancel_(cancel), caller_(caller && cancel && cancel->check), stride_(stride ? stride : 1) {}

  // One unit of work done; throws Cancelled when the call is cancelled.
  void operator()() {
    if (++count_ >= stride_) slow();
  }

  // The same, for loops that would rather stop than throw: true = stop now.
  [[nodiscard]] bool stop() {
    if (++count_ < stride_) return false;
    try {
      slow();
    } catch (const Cancelled&) {
      return true;
    }
    return false;
  }

 private:
  void slow() {
    count_ = 0;
    if (!cancel_) return;
    if (cancel_->requested()) throw Cancelled{};
    if (!caller_) return;
    const auto now = std::chrono::steady_clock::now();
    if (now - last_ < kCheckInterval) return;
    last_ = now;
    if (cancel_->check(cancel_->context)) {
      cancel_->request();  // the other threads stop at their next poll
      throw Cancelled{};
    }
  }

  Cancel* cancel_ = nullptr;
  bool caller_ = false;
  uint32_t stride_ = 1;
  uint32_t count_ = 0;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

}  // namespace nardy
