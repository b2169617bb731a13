// Long nardy: no hitting, one checker off the head a turn (with first-turn exceptions), and
// no six-point block in front of every opponent checker.
#pragma once

#include <bit>

#include "nardy/movelist.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/variants/common.hpp"

namespace nardy {

struct LongNardyPolicy {
  static constexpr int kHead = 23;
  // The opponent's index j lies on the mover's index (j + 12) % 24, so the opponent's head is
  // the mover's index 11; the same map taken twice is the identity.
  static constexpr int kTheirHead = 11;

  struct State {
    Position pos;
    uint32_t theirs = 0;  // points holding any opponent checker, mover's coordinates
    int heads_left = 1;   // checkers that may still leave the head this turn
  };

  // A rule checked after every step makes the order of same-die steps matter.
  static constexpr bool kCommutativeDoubles = false;

  explicit LongNardyPolicy(const Rules& rules = {}) : rules_(rules) {}

  int begin_turn(const Position& pos, int d1, int d2, State out[2]) const noexcept {
    out[0].pos = pos;
    out[0].theirs = rotate24_half(pos.them.occ1);
    out[0].heads_left = 1;
    if (pos.us.count(kHead) != kCheckers) return 1;  // not the player's first turn
    switch (rules_.head_rule) {
      case HeadRule::Classic:
        if (d1 == d2 && (d1 == 3 || d1 == 4 || d1 == 6)) out[0].heads_left = 2;
        return 1;
      case HeadRule::Federation:
        if (d1 == d2 && (d1 == 3 || d1 == 4 || d1 == 6) && stopped_by_their_head(out[0], d1))
          out[0].heads_left = 2;
        return 1;
      case HeadRule::Extended:
        out[1] = out[0];
        out[1].heads_left = 2;
        return 2;
    }
    return 1;
  }

  uint32_t sources(const State& s) const noexcept {
    return s.heads_left ? s.pos.us.occ1 : s.pos.us.occ1 & ~(1u << kHead);
  }

  template <class F>
  void for_each_step(const State& s, int from, int die, F&& f) const {
    const int to = from - die;
    if (to >= 0) {
      const uint32_t bit = 1u << to;
      if (s.theirs & bit) return;
      State n = s;
      n.pos.us.remove(from);
      n.pos.us.add(to);
      n.heads_left -= from == kHead;
      const bool newly_held = !(s.pos.us.occ1 & bit);
      if (newly_held && !rules_.block_check_at_end && forbidden_block(n.pos)) return;
      f(n, Step{int8_t(from), int8_t(to), 0});
      return;
    }
    if (!may_bear_off(s.pos.us, from, to)) return;
    State n = s;
    n.pos.us.remove(from);
    n.pos.us.add(kOff);
    f(n, Step{int8_t(from), int8_t(kBearOffTo), 0});
  }

  bool final_ok(const State& s) const noexcept {
    return !rules_.block_check_at_end || !forbidden_block(s.pos);
  }

  // Six points in a row along the opponent's path with no opponent checker past them.
  static bool forbidden_block(const Position& p) noexcept {
    const uint32_t m = rotate24_half(p.us.occ1);  // mover's points in opponent coordinates
    const uint32_t runs = m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4) & (m >> 5);
    if (!runs) return false;
    const int lowest_start = std::countr_zero(runs);  // the run the fewest checkers are past
    const bool someone_past =
        p.them.off() > 0 || (p.them.occ1 & ((1u << lowest_start) - 1)) != 0;
    return !someone_past;
  }

 private:
  // Federation reading of the first-turn exception: a lone checker walking from the head with
  // the double is stopped by the opponent's head, not earlier by another checker.
  static bool stopped_by_their_head(const State& s, int die) noexcept {
    for (int k = 1, p = kHead - die; k <= 4 && p >= 0; ++k, p -= die) {
      if (s.theirs & (1u << p)) return p == kTheirHead;
    }
    return false;
  }

  Rules rules_;
};

}  // namespace nardy
