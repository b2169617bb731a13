// Backgammon (short nardy): hitting, the bar, points closed by two checkers.
#pragma once

#include <bit>

#include "nardy/movelist.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/variants/common.hpp"

namespace nardy {

struct BackgammonPolicy {
  // The opponent's index j lies on the mover's index 23 - j.
  static constexpr int to_mover(int j) noexcept { return 23 - j; }

  struct State {
    Position pos;
    uint32_t their_closed = 0;  // opponent points with >= 2 checkers, mover's coordinates
    uint32_t their_blots = 0;   // opponent points with exactly 1 checker, mover's coordinates
  };

  static constexpr bool kCommutativeDoubles = true;

  explicit BackgammonPolicy(const Rules& = {}) {}

  int begin_turn(const Position& pos, int, int, State out[2]) const noexcept {
    out[0].pos = pos;
    out[0].their_closed = reverse24(pos.them.occ2);
    out[0].their_blots = reverse24(pos.them.occ1 & ~pos.them.occ2);
    return 1;
  }

  // Everything on the bar must enter before any other checker moves.
  uint32_t sources(const State& s) const noexcept {
    return s.pos.us.bar() ? 1u << kBar : s.pos.us.occ1;
  }

  template <class F>
  void for_each_step(const State& s, int from, int die, F&& f) const {
    const int to = from - die;
    if (to >= 0) {
      const uint32_t bit = 1u << to;
      if (s.their_closed & bit) return;
      State n = s;
      n.pos.us.remove(from);
      n.pos.us.add(to);
      const bool hit = (s.their_blots & bit) != 0;
      if (hit) {
        n.their_blots &= ~bit;
        n.pos.them.remove(to_mover(to));  // to_mover is its own inverse
        n.pos.them.add(kBar);
      }
      f(n, Step{int8_t(from), int8_t(to), uint8_t(hit)});
      return;
    }
    if (!may_bear_off(s.pos.us, from, to)) return;
    State n = s;
    n.pos.us.remove(from);
    n.pos.us.add(kOff);
    f(n, Step{int8_t(from), int8_t(kBearOffTo), 0});
  }

  bool final_ok(const State&) const noexcept { return true; }
};

}  // namespace nardy
