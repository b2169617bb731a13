// What one played game needs besides the moves: the counter-based random streams and the
// outcome record (rollout.hpp describes both for users). Separate from rollout.hpp so that the
// per-variant engine template (engine_impl.hpp) can play whole games without the thread pool.
#pragma once

#include <cstddef>
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

// The random policy's draws for one ply's move, from that ply's word w: the first choice is
// uniform_from_word(w, n), as for every one-roll move; a turn chosen in several steps (a dice
// sequence's groups, SequenceEnumerator::pick_groups) takes the j-th further one from the
// stream keyed by w: uniform_from_word(stream_draw(w, j - 1), n).
struct TurnDraw {
  uint64_t word;
  uint64_t used = 0;
  size_t operator()(size_t n) noexcept {
    const uint64_t x = used == 0 ? word : stream_draw(word, used - 1);
    ++used;
    return uniform_from_word(x, static_cast<uint32_t>(n));
  }
};

// Quasi-random dice (variance reduction): the rolls of the first `quasi` plies are stratified
// over the trial numbers. Write trial = block * 36^quasi + sum(d_p * 36^p). Ply p's roll is
// (d_p + shift_p) mod 36 in the order of dice_from_word, where shift_p is a draw keyed by the
// seed, p, the block and the lower digits d_0..d_{p-1} only. Given the earlier rolls, the
// roll of ply p runs through all 36 as d_p does, so every block (36^quasi consecutive trials
// from a multiple of 36^quasi) plays each sequence of first `quasi` rolls exactly once; and
// for any one trial, over seeds, the shifts are independent uniform draws, so its rolls are
// as random as plain ones and the estimate stays unbiased.
inline constexpr uint32_t kMaxQuasiPlies = 8;  // 36^8 ~ 2.8e12 trials make one full block

constexpr uint64_t kQuasiDomain = 0xD1B54A32D192ED03ull;

constexpr void quasi_dice(uint64_t seed, uint64_t trial, uint32_t ply, uint32_t quasi, int& d1,
                          int& d2) noexcept {
  uint64_t scale = 1;  // 36^ply
  for (uint32_t i = 0; i < ply; ++i) scale *= 36;
  uint64_t span = scale;  // 36^quasi
  for (uint32_t i = ply; i < quasi; ++i) span *= 36;
  const uint64_t digit = (trial / scale) % 36;
  const uint64_t lower = trial % scale;
  const uint64_t block = trial / span;
  const uint64_t word = splitmix_finalise(
      seed ^ kQuasiDomain ^
      splitmix_finalise(splitmix_finalise(block + kGolden) + lower * 64 + ply));
  const uint32_t q = static_cast<uint32_t>((digit + uniform_from_word(word, 36)) % 36);
  d1 = static_cast<int>(q / 6) + 1;
  d2 = static_cast<int>(q % 6) + 1;
}

// The dice of ply `ply` of trial `trial` (key = trial_key(seed, trial)).
constexpr void trial_dice(uint64_t key, uint64_t seed, uint64_t trial, uint32_t ply,
                          uint32_t quasi, int& d1, int& d2) noexcept {
  if (ply < quasi) {
    quasi_dice(seed, trial, ply, quasi, d1, d2);
  } else {
    dice_from_word(stream_draw(key, 2 * uint64_t{ply}), d1, d2);
  }
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
