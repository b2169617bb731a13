// A transposition table for perft: (position, remaining depth) -> leaves, in a fixed amount of
// memory, shared by the threads of a count.
//
// Exact by construction: an entry keeps the whole position (its four words), so a hit is an
// equal position at the same depth, never a hash collision. Buckets of two entries: the first
// keeps the deeper subtree (more work saved), the second takes whatever the first turns away,
// so shallow nodes still find their recent transpositions. A bucket is guarded by a spin lock
// taken for a few loads and stores; with the handful of threads a count runs on, it is almost
// never contended, and it keeps readers from seeing half of another thread's entry.
//
// Counts depend on the variant, its rules and the roll weighting, none of which is in the key:
// bind() ties a table to one of each and refuses the others.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <thread>

#include "nardy/position.hpp"
#include "nardy/rules.hpp"

namespace nardy {

class PerftTable {
 public:
  struct Bucket {
    std::atomic<uint32_t> lock;
    uint8_t depth[2];  // 0: empty (depth 0 is never stored)
    uint64_t count[2];
    Position pos[2];
  };

  // A table in at most `bytes` bytes (at least one bucket). Throws std::bad_alloc. The
  // memory comes zeroed from calloc (all zeros is an empty bucket, unlocked): the pages are
  // then mapped as the count first touches them, so a big table costs nothing up front and
  // a shallow count with one stays as fast as without.
  explicit PerftTable(size_t bytes)
      : n_(bytes / sizeof(Bucket) ? bytes / sizeof(Bucket) : 1),
        buckets_(static_cast<Bucket*>(std::calloc(n_, sizeof(Bucket)))) {
    if (!buckets_) throw std::bad_alloc();
  }

  [[nodiscard]] size_t buckets() const noexcept { return n_; }
  [[nodiscard]] size_t bytes() const noexcept { return n_ * sizeof(Bucket); }
  [[nodiscard]] size_t entries() const noexcept { return 2 * n_; }

  // Ties the table to (variant, rules, ordered) on first use; throws std::invalid_argument
  // when it already holds counts of another.
  void bind(Variant variant, const Rules& rules, bool ordered) {
    Owner o{};
    o.variant = static_cast<uint8_t>(variant);
    o.ordered = ordered;
    std::memcpy(o.rules, &rules, sizeof rules);
    uint32_t expected = 0;
    if (bound_.compare_exchange_strong(expected, 1)) {
      owner_ = o;
      bound_.store(2, std::memory_order_release);
      return;
    }
    while (bound_.load(std::memory_order_acquire) != 2) std::this_thread::yield();
    if (std::memcmp(&owner_, &o, sizeof o) != 0)
      throw std::invalid_argument(
          "this perft table holds counts of another variant, rule set or roll weighting");
  }

  // The stored count of (pos, depth), if any.
  bool probe(const Position& pos, int depth, uint64_t& count) noexcept {
    Bucket& b = bucket(pos, depth);
    Guard g(b.lock);
    for (int k = 0; k < 2; ++k) {
      if (b.depth[k] == depth && b.pos[k] == pos) {
        count = b.count[k];
        return true;
      }
    }
    return false;
  }

  void store(const Position& pos, int depth, uint64_t count) noexcept {
    Bucket& b = bucket(pos, depth);
    Guard g(b.lock);
    if (b.depth[0] == depth && b.pos[0] == pos) return;
    if (depth >= b.depth[0]) {  // the deeper subtree takes the first entry, the old one moves
      b.depth[1] = b.depth[0];
      b.count[1] = b.count[0];
      b.pos[1] = b.pos[0];
      b.depth[0] = static_cast<uint8_t>(depth);
      b.count[0] = count;
      b.pos[0] = pos;
    } else {
      b.depth[1] = static_cast<uint8_t>(depth);
      b.count[1] = count;
      b.pos[1] = pos;
    }
  }

  // Starts the bucket's cache lines on their way (a probe follows a few nodes later).
  void prefetch(const Position& pos, int depth) const noexcept {
    nardy::prefetch(&bucket(pos, depth));
  }

 private:
  struct Owner {
    uint8_t variant;
    bool ordered;
    unsigned char rules[sizeof(Rules)];
  };

  class Guard {
   public:
    explicit Guard(std::atomic<uint32_t>& lock) noexcept : lock_(lock) {
      while (lock_.exchange(1, std::memory_order_acquire)) {
        // The holder may have lost its core (more threads than cores): let it run.
        while (lock_.load(std::memory_order_relaxed)) std::this_thread::yield();
      }
    }
    ~Guard() { lock_.store(0, std::memory_order_release); }
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    std::atomic<uint32_t>& lock_;
  };

  [[nodiscard]] Bucket& bucket(const Position& pos, int depth) const noexcept {
    uint64_t h = pos.hash() ^ (static_cast<uint64_t>(depth) * 0x9E3779B97F4A7C15ull);
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 27;
    // Multiply-shift maps the hash onto any bucket count, not only powers of two.
    const size_t i = static_cast<size_t>(mul_high(h, n_));
    return buckets_.get()[i];
  }

  struct Free {
    void operator()(Bucket* b) const noexcept { std::free(b); }
  };

  size_t n_;
  std::unique_ptr<Bucket, Free> buckets_;
  std::atomic<uint32_t> bound_{0};  // 0: free, 1: being bound, 2: bound to owner_
  Owner owner_{};
};

}  // namespace nardy
