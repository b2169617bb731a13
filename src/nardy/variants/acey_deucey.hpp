// Acey-deucey (docs/rules/acey-deucey.md): backgammon's board, directions, hitting and bar,
// with every checker starting off the board. A checker not yet in play enters into the
// opponent's home board as a checker enters from the bar, but (unlike a hit checker) need not
// enter before others move. A roll of 1-2 is played, then the player names any double and
// plays it, then rolls again: the named double is part of the move (dice_choices), the roll
// after it is the same player's next ply (TurnMove::again).
//
// The checkers yet to enter are the side's reserve, kept in position.hpp's variant nibble 10
// (bits 40..43 of the high word). In side arrays they are a negative count in slot 25: a side
// that still has checkers to enter has borne none off (bearing off needs all fifteen home), so
// the slot is -reserve while any wait and the borne-off count after.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>

#include "nardy/enumerator.hpp"
#include "nardy/movelist.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/variants/common.hpp"
#include "nardy/variants/traits.hpp"

namespace nardy {

namespace acey {

inline constexpr uint64_t kReserveUnit = uint64_t{1} << kReserveShift;

constexpr int reserve(const Side& s) noexcept {
  return static_cast<int>((s.w[1] >> kReserveShift) & 0xF);
}

// Bit 24 (the entering source) when a checker waits on the bar or in the reserve: it also
// keeps race_sources() from bearing off, since a waiting checker is not home.
constexpr uint32_t waiting_bit(const Side& s) noexcept {
  return (s.bar() | reserve(s)) ? 1u << kBar : 0u;
}

}  // namespace acey

struct AceyDeuceyPolicy {
  static constexpr int to_mover(int j) noexcept { return 23 - j; }

  struct State {
    Position pos;
    uint32_t ours = 0;          // mover's occupied points, bit 24 while any checker waits
    uint32_t their_closed = 0;  // opponent points with >= 2 checkers, mover's coordinates
    uint32_t their_blots = 0;   // opponent points with exactly 1 checker, mover's coordinates
  };

  // Every rule is local to a step's source and target: order never matters. (Which checker
  // enters, a hit one first, changes nothing once both stand on the board.)
  static constexpr bool order_mattered() noexcept { return false; }
  static constexpr void reset_order_flag() noexcept {}

  explicit AceyDeuceyPolicy(const Rules& = {}) {}

  int begin_turn(const Position& pos, int, int, State out[2]) const noexcept {
    out[0].pos = pos;
    out[0].ours = pos.us.occ1() | acey::waiting_bit(pos.us);
    opposing_points(pos.them, out[0].their_closed, out[0].their_blots);
    return 1;
  }

  // A roll of 1-2: the 1-2, then each double the player may name (the naming applies once the
  // 1-2 is played in full; every die played, the same player rolls again). Any other roll is
  // played as it falls.
  int dice_choices(int d1, int d2, int, DiceChoice out[kMaxChoices]) const noexcept {
    if (!((d1 == 1 && d2 == 2) || (d1 == 2 && d2 == 1))) {
      out[0] = DiceChoice{};
      out[0].groups[0] = DiceGroup{d1, d2};
      return 1;
    }
    for (int d = 1; d <= 6; ++d) {
      DiceChoice& c = out[d - 1];
      c = DiceChoice{};
      c.groups[0] = DiceGroup{d1, d2};
      c.groups[1] = DiceGroup{d, d};
      c.n = 2;
      c.named = d;
      c.named_from = 1;
      c.again = true;
    }
    return 6;
  }

  // A hit checker enters before anything else moves; a checker of the reserve enters like any
  // other source (bit 24); bearing off once nothing waits and every checker is home.
  NARDY_HOT uint32_t sources(const State& s, int die) const noexcept {
    return entering_sources(s.ours, s.pos.us.bar() != 0, s.their_closed, die);
  }

  template <class F>
  NARDY_HOT void for_each_step(const State& s, int from, int die, F&& f) const {
    const int to = from - die;
    State n = s;
    if (to >= 0) {
      const uint32_t bit = 1u << to;
      if (from == kBar) {
        // the bar's checkers first, then the reserve's
        if (s.pos.us.bar()) {
          n.pos.us.move_down(kBar, die);
        } else {
          n.pos.us.w[1] -= acey::kReserveUnit;
          n.pos.us.add(to);
        }
        n.ours = (n.ours & ~(1u << kBar)) | acey::waiting_bit(n.pos.us) | bit;
      } else {
        move_checker(n.pos.us, n.ours, from, to, die);
      }
      const bool hit = (s.their_blots & bit) != 0;
      if (hit) {
        n.pos.them.remove(to_mover(to));
        n.pos.them.add(kBar);
        n.their_blots &= ~bit;
      }
      f(n, Step{int8_t(from), int8_t(to), uint8_t(hit)});
      return;
    }
    if (!may_bear_off(s.pos.us, s.ours, from, to)) return;
    move_checker(n.pos.us, n.ours, from, kOff, die);
    f(n, Step{int8_t(from), int8_t(kBearOffTo), 0});
  }

  // The last step of a move: the resulting position alone.
  static constexpr bool kLastStep = true;
  template <class F>
  NARDY_HOT void for_each_last_step(const State& s, int from, int die, F&& f) const {
    const int to = from - die;
    Position p = s.pos;
    if (to >= 0) {
      if (from == kBar && !s.pos.us.bar()) {
        p.us.w[1] -= acey::kReserveUnit;
        p.us.add(to);
      } else {
        p.us.move_down(from, die);
      }
      const bool hit = (s.their_blots >> to & 1u) != 0;
      if (hit) {
        p.them.remove(to_mover(to));
        p.them.add(kBar);
      }
      f(p, Step{int8_t(from), int8_t(to), uint8_t(hit)});
      return;
    }
    if (!may_bear_off(s.pos.us, s.ours, from, to)) return;
    p.us.move_down(from, die);
    f(p, Step{int8_t(from), int8_t(kBearOffTo), 0});
  }

  bool final_ok(const State&) const noexcept { return true; }

  // A checker on the bar against both entry points closed: the roll passes (a reserve need
  // not enter, so it never makes a pass alone).
  NARDY_HOT static bool must_pass(const Position& pos, int d1, int d2) noexcept {
    return pos.us.bar() != 0 && pos.them.count(d1 - 1) >= 2 && pos.them.count(d2 - 1) >= 2;
  }

  // -- counting moves without making them (Enumerator::count, pick) ---------------------
  // As backgammon: one legal step per source (the entering source's goes to 24 - die), order
  // never matters, one start.
  static constexpr bool kExactLastSources = true;
  uint32_t quiet_points(const State& s) const noexcept { return ~s.their_blots & kBoardMask; }

  NARDY_HOT uint32_t next_sources(const State& s, int from, int die, int next_die) const noexcept {
    const Side& us = s.pos.us;
    uint32_t ours = s.ours;
    bool on_bar = us.bar() != 0;
    if (from == kBar) {
      if (us.bar() + acey::reserve(us) == 1) ours &= ~(1u << kBar);
      on_bar = us.bar() > 1;
    } else if (us.single(from)) {
      ours &= ~(1u << from);
    }
    if (from - die >= 0) ours |= 1u << (from - die);
    return entering_sources(ours, on_bar, s.their_closed, next_die);
  }

  // Plain sources (PlainSources) while nothing is on the bar and a checker waits in the
  // reserve (it enters no further than the opponent's home board: no bear-off this turn) or two
  // checkers or more stand outside the home board. The reserve is slot 24's source, single
  // when one checker is left in it.
  NARDY_HOT bool plain_sources(const State& s, PlainSources& p) const noexcept {
    const Side& us = s.pos.us;
    const uint32_t outside = s.ours & ~kHomeMask;
    if (us.bar() || outside == 0) return false;
    if ((outside & (outside - 1)) == 0 && outside != 1u << kBar &&
        us.single(std::countr_zero(outside)))
      return false;
    p.ours = s.ours;
    p.singles = (s.ours & ~us.occ2() & kBoardMask) |
                (acey::reserve(us) == 1 ? 1u << kBar : 0u);
    p.blocked = s.their_closed;
    return true;
  }

  // The same for each of the next `steps` steps (3 or 4), with the stacks of two and three
  // (the reserve's as slot 24): at least `steps` checkers outside the home board, the
  // reserve's among them, so that no step before the last brings the last one home.
  NARDY_HOT bool plain_stacks(const State& s, int steps, PlainStacks& out) const noexcept {
    const Side& us = s.pos.us;
    if (us.bar()) return false;
    const int outside = board_stacks(us, s.ours, s.their_closed, out);
    const int reserve = acey::reserve(us);
    const uint32_t waiting = 1u << kBar;
    if (reserve == 1) out.plain.singles |= waiting;
    if (reserve == 2) out.twos |= waiting;
    if (reserve == 3) out.threes |= waiting;
    return std::min(reserve, 4) + outside >= steps;
  }
};

struct AceyDeucey : BearOffGame<AceyDeucey> {
  static constexpr const char* kKey = "ACEY_DEUCEY";
  static constexpr VariantName kNames[] = {
      {"acey-deucey"}, {"acey deucey"}, {"acey-ducey"}, {"acey ducey"}, {"aceydeucey"}};
  using Policies = PolicyList<AceyDeuceyPolicy>;

  static constexpr int kCheckers = 15;
  static constexpr bool kHasBar = true;
  static constexpr SpareBits kSpareBits = SpareBits::Reserve;
  static constexpr int to_mover(int j) noexcept { return 23 - j; }
  static constexpr uint32_t to_mover_mask(uint32_t m) noexcept { return reverse24(m); }

  // Every checker waits to enter: slot 25 holds -15 (the header comment).
  static constexpr SideArray start() noexcept {
    SideArray s{};
    s[kOff] = -kCheckers;
    return s;
  }

  // A loser who bore off nothing: a backgammon with a checker on the bar, still to enter or in
  // the winner's home board (the loser's indices 18..23), else a gammon. (A scoring without
  // gammons is the game layer's: it values every kind alike.)
  static constexpr const char* kKinds[] = {"single", "gammon", "backgammon"};
  static int loss_kind(const Side& loser) noexcept {
    return loser.bar() > 0 || acey::reserve(loser) > 0 || (loser.occ1() >> 18) != 0 ? 2 : 1;
  }

  // Backgammon's greedy score with the reserve counted as the bar (25 pips a checker).
  static int greedy_score(const Position& after) noexcept {
    const Side& us = after.us;
    const Side& them = after.them;
    int score = fast_pips(them) + 25 * acey::reserve(them) - fast_pips(us) -
                25 * acey::reserve(us) + 2 * us.off();
    const uint32_t ours1 = us.occ1(), ours2 = us.occ2();
    score += 3 * std::popcount(ours2 & 0xFFu);
    const uint32_t theirs = reverse24(them.occ1());
    uint32_t blots = ours1 & ~ours2;
    int exposed = 0;
    const bool them_waiting = them.bar() > 0 || acey::reserve(them) > 0;
    while (blots) {
      const int i = std::countr_zero(blots);
      blots &= blots - 1;
      const int lo = i > 12 ? i - 12 : 0;
      const uint32_t behind = theirs & ((1u << i) - 1) & ~((1u << lo) - 1);
      if (behind || (them_waiting && i <= 11)) ++exposed;
    }
    return score - 8 * exposed;
  }

  // Points and bar 0..15, slot 25 -15..15 (negative: checkers yet to enter), fifteen a side
  // counting the waiting ones, no point held by both.
  static std::string validate(const SideArray& us, const SideArray& them) {
    const SideArray* sides[2] = {&us, &them};
    const char* names[2] = {"mover", "opponent"};
    for (int s = 0; s < 2; ++s) {
      std::string err = check_side(
          *sides[s], names[s], kCheckers, [](int k) { return k == kOff ? -kCheckers : 0; },
          [](int k) {
            return k == kOff ? " (-15..-1 yet to enter, 0..15 borne off allowed)"
                             : " checkers (0..15 allowed)";
          },
          [](int n) { return -n; });
      if (!err.empty()) return err;
    }
    return check_points_apart(us, them, [](int j) { return to_mover(j); });
  }

  static Side make_side(const SideArray& a) noexcept {
    Side s;
    for (int k = 0; k < kSlots; ++k) s.set(k, a[k] < 0 ? 0 : a[k]);
    if (a[kOff] < 0) s.w[1] |= uint64_t(-a[kOff]) << kReserveShift;
    return s;
  }

  static SideArray side_array(const Side& s) noexcept {
    SideArray a = nardy::side_array(s);
    if (acey::reserve(s)) a[kOff] = -acey::reserve(s);
    return a;
  }
  // (BearOffGame::pack packs rows with nothing to enter; a negative slot 25 goes through
  // validate() and make_side().)
};

}  // namespace nardy
