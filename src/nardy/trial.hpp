// What one played game needs besides the moves: the counter-based random streams and the
// outcome record (rollout.hpp describes both for users). Separate from rollout.hpp so that the
// per-variant engine template (engine_impl.hpp) can play whole games without the thread pool.
#pragma once

#include <cstdint>

namespace nardy {

// -- random numbers --------------------------------------------------------------------------
inline constexpr uint64_t kGolden = 0x9E3779B97F4A7C15ull;

constexpr uint64_t splitmix_finalise(uint64_t z) noexcept {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// The key of trial `trial` of a run seeded `seed`.
constexpr uint64_t trial_key(uint64_t seed, uint64_t trial) noexcept {
  return splitmix_finalise(seed ^ splitmix_finalise(trial + kGolden));
}

// Word number `counter` of the SplitMix64 stream started at `key`.
constexpr uint64_t stream_draw(uint64_t key, uint64_t counter) noexcept {
  return splitmix_finalise(key + (counter + 1) * kGolden);
}

constexpr void dice_from_word(uint64_t x, int& d1, int& d2) noexcept {
  const uint32_t q = static_cast<uint32_t>(((x >> 32) * 36) >> 32);
  d1 = static_cast<int>(q / 6) + 1;
  d2 = static_cast<int>(q % 6) + 1;
}

constexpr uint32_t uniform_from_word(uint64_t x, uint32_t n) noexcept {
  return static_cast<uint32_t>(((x >> 32) * n) >> 32);
}

// -- outcomes --------------------------------------------------------------------------------
inline constexpr int kMaxKinds = 3;

enum class RolloutPolicy : uint8_t { Random = 0, Greedy = 1 };

struct Outcome {
  int winner = -2;   // 0: the side on roll at the start, 1: the other, -1: draw, -2: unfinished
  int kind = 0;      // result kind of the win (see rollout.hpp's table)
  int points = 0;    // points won by the winner (>= 0)
  uint32_t plies = 0;
};

// A variant's view of where a game stands (Engine::status): named numbers, flags and words,
// as many as the variant reports (at most kMaxStatusFields).
inline constexpr int kMaxStatusFields = 12;

struct StatusField {
  const char* name;
  int value;         // the number, or 0/1 for a flag
  const char* word;  // a word instead of a number (nullptr when none)
  bool flag;         // value is true/false
};

struct StatusFields {
  StatusField field[kMaxStatusFields];
  int n = 0;
  void number(const char* name, int v) noexcept { put({name, v, nullptr, false}); }
  void flag(const char* name, bool v) noexcept { put({name, v ? 1 : 0, nullptr, true}); }
  void word(const char* name, const char* w) noexcept { put({name, 0, w, false}); }

 private:
  void put(const StatusField& f) noexcept {
    if (n < kMaxStatusFields) field[n++] = f;
  }
};

}  // namespace nardy
