// Long nardy: no hitting, one checker off the head a turn (with first-turn exceptions), and
// no six-point block in front of every opponent checker; and the steps of every game on its
// board (LongBoardSteps).
#pragma once

#include <algorithm>
#include <bit>

#include "nardy/movelist.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/variants/common.hpp"
#include "nardy/variants/traits.hpp"

namespace nardy {

// The steps of the games played on long nardy's board (long nardy, Fevga, Gul bara): both
// sides move the same way from diagonally opposite starts, no hitting (a point holding any
// opponent checker is closed), bearing off from the home quarter, a limit on the checkers
// leaving the start point, and a rule on the points the mover holds, checked after each step
// or at the end of the turn, that holding more points never lifts (long nardy's six-block,
// Fevga's primes). The variant D supplies, for its State (pos, ours, theirs and its own):
//   int start_steps_left(const State&) const     checkers that may still leave the start
//                                                 point (index 23) now; 0 closes it
//   int start_steps_after(const State&, int from, uint32_t ours) const
//                                                 the same after a step from `from` that
//                                                 leaves the points `ours` held
//   void on_step(State& next, int from) const     its bookkeeping of a step from `from`
//   bool forbidden(uint32_t ours, const State&) const   the rule on the points `ours`
//   bool checked_at_end(const State&) const       the rule is checked at the end of the turn
//                                                 only (else after every step)
//   bool exact_start(const State&) const          counting is allowed by its other rules
// Order matters only when the rule rejects a step checked after it (or a rule of D says so).
template <class D>
struct LongBoardSteps {
  static constexpr int kStart = 23;

  bool order_mattered() const noexcept { return order_flag_; }
  void reset_order_flag() const noexcept { order_flag_ = false; }

  template <class S>
  NARDY_HOT uint32_t sources(const S& s, int die) const noexcept {
    const uint32_t movable = s.ours & ~(uint32_t(d().start_steps_left(s) == 0) << kStart);
    // a target holding any opponent checker is out
    return race_sources(s.ours, die) & movable & ~(s.theirs << die);
  }

  template <class S, class F>
  NARDY_HOT void for_each_step(const S& s, int from, int die, F&& f) const {
    const int to = from - die;
    if (to >= 0) {
      const uint32_t bit = 1u << to;
      // (a target holding an opponent checker: sources() has left `from` out already)
      S n = s;
      move_checker(n.pos.us, n.ours, from, to, die);
      d().on_step(n, from);
      // A step onto a point already held cannot break the rule. Without branches until the
      // rare rejection: whether a step lands on a new point is as good as random, and a
      // mispredicted branch costs more than the test. (A mask, not a condition, or the
      // compiler branches on it to skip the test; no points held break no rule.)
      const uint32_t tested = 0u - uint32_t(!(s.ours & bit) & !d().checked_at_end(s));
      if (d().forbidden(n.ours & tested, s)) {
        order_flag_ = true;
        return;
      }
      f(n, Step{int8_t(from), int8_t(to), 0});
      return;
    }
    if (!may_bear_off(s.pos.us, s.ours, from, to)) return;
    S n = s;
    move_checker(n.pos.us, n.ours, from, kOff, die);
    d().on_step(n, from);
    f(n, Step{int8_t(from), int8_t(kBearOffTo), 0});
  }

  // The last step of a move: the resulting position, and the mover's points only as far as
  // the rule needs them (checked here whichever the moment: this is the end).
  static constexpr bool kLastStep = true;
  template <class S, class F>
  NARDY_HOT void for_each_last_step(const S& s, int from, int die, F&& f) const {
    const int to = from - die;
    const bool at_end = d().checked_at_end(s);
    Position p = s.pos;
    if (to >= 0) {
      const uint32_t bit = 1u << to;
      p.us.move_down(from, die);
      // First with the source still counted as held: holding more points never lifts the
      // rule, so only a (rare) yes needs the exact points.
      const uint32_t tested = 0u - uint32_t(!(s.ours & bit) | at_end);
      if (d().forbidden((s.ours | bit) & tested, s)) {
        if (d().forbidden(((s.ours & ~vacated(p.us, from)) | bit) & tested, s)) {
          order_flag_ |= !at_end;
          return;
        }
      }
      f(p, Step{int8_t(from), int8_t(to), 0});
      return;
    }
    if (!may_bear_off(s.pos.us, s.ours, from, to)) return;
    p.us.move_down(from, die);
    if (at_end && d().forbidden(s.ours & ~vacated(p.us, from), s)) return;
    f(p, Step{int8_t(from), int8_t(kBearOffTo), 0});
  }

  template <class S>
  bool final_ok(const S& s) const noexcept {
    return !d().checked_at_end(s) || !d().forbidden(s.ours, s);
  }

  // -- counting moves without making them (Enumerator::count, pick) ---------------------
  // Where the rule on the points held cannot bite, every source of sources() has its one
  // step and the order of steps never matters (the start limit only caps how many steps
  // leave the start). It can bite only where the points held plus every point a checker
  // could land on with the roll break it (a smaller set of points never breaks it when a
  // larger one does not): there the turn is listed, elsewhere its moves are counted.
  static constexpr bool kExactLastSources = true;
  template <class S>
  NARDY_HOT bool exact_turn(const S& s, int d1, int d2) const noexcept {
    const uint32_t o = s.ours;
    const uint32_t reach = d1 == d2 ? o >> d1 | o >> 2 * d1 | o >> 3 * d1 | o >> 4 * d1
                                    : o >> d1 | o >> d2 | o >> (d1 + d2);
    return d().exact_start(s) && !d().forbidden(o | (reach & ~s.theirs), s);
  }
  // No hitting: a landing has no side effect.
  template <class S>
  static constexpr uint32_t quiet_points(const S&) noexcept { return kBoardMask; }

  // sources() after one step from `from` with `die`, from the masks alone.
  template <class S>
  NARDY_HOT uint32_t next_sources(const S& s, int from, int die, int next_die) const noexcept {
    // (A step off lands on a bit above the board, masked out.)
    const uint32_t left = (1u << from) & (0u - uint32_t(s.pos.us.single(from)));
    const uint32_t landed = (1u << ((from - die) & 31)) & kBoardMask;
    const uint32_t ours = (s.ours & ~left) | landed;
    const bool start_closed = d().start_steps_after(s, from, ours) == 0;
    const uint32_t movable = ours & ~(uint32_t(start_closed) << kStart);
    return race_sources(ours, next_die) & movable & ~(s.theirs << next_die);
  }

  // The mover's checkers on the board, read from the position once for the bounds below
  // (each reads every stack, some once per group of the turn).
  struct CheckerCounts {
    uint32_t points = 0;         // points holding his checkers
    int8_t count[kPoints] = {};  // checkers on each (read at `points` only)
  };
  static CheckerCounts checker_counts(const Position& p) noexcept {
    CheckerCounts c;
    c.points = p.us.occ1() & kBoardMask;
    for (uint32_t m = c.points; m != 0; m &= m - 1) {
      const int x = std::countr_zero(m);
      c.count[x] = static_cast<int8_t>(p.us.count(x));
    }
    return c;
  }

  // How far the mover's checkers can travel in all with steps of the values in `values` (bit
  // v: a die v) while none is borne off: each checker at most down to the lowest point that
  // some walk from its point reaches, landing only on points free of opponent checkers (they
  // stand still through the turn: nothing is hit). Any play of such dice moves its checkers
  // no further, whatever else the variant's rules forbid. `lowest` is lowest_points()' table
  // for the opponent's points and those values.
  static int travel_capacity(const CheckerCounts& c, const int8_t lowest[kPoints]) noexcept {
    int total = 0;
    for (uint32_t m = c.points; m != 0; m &= m - 1) {
      const int x = std::countr_zero(m);
      total += c.count[x] * (x - lowest[x]);
    }
    return total;
  }
  // For each point, the lowest point a walk of steps of the values in `values` reaches from
  // it through the points in `open` (those free of opponent checkers).
  // (Six entries below point 0 read as unreachable, so that each step is a load and a min
  // with no branch: whether a step lands on an open point follows no pattern.)
  static void lowest_points(uint32_t open, unsigned values, int8_t lowest[kPoints]) noexcept {
    constexpr int kBelow = 6;
    int8_t low[kBelow + kPoints];
    for (int i = 0; i < kBelow; ++i) low[i] = kPoints;
    const uint64_t open_from_below = uint64_t{open} << kBelow;
    for (int x = 0; x < kPoints; ++x) {
      int best = x;
      for (unsigned v = values; v != 0; v &= v - 1) {
        const int y = x + kBelow - std::countr_zero(v);  // values are dice, 1..6
        const int closed = static_cast<int>(~(open_from_below >> y) & 1u);
        const int reached = int(low[y]) + closed * kPoints;
        best = std::min(best, reached);
      }
      low[x + kBelow] = static_cast<int8_t>(best);
      lowest[x] = static_cast<int8_t>(best);
    }
  }

  // The pips the mover's checkers outside the home quarter need to come home (a turn of no
  // more pips bears none off).
  static int pips_to_home(const CheckerCounts& c) noexcept {
    int total = 0;
    for (uint32_t out = c.points & ~kHomeMask; out != 0; out &= out - 1) {
      const int x = std::countr_zero(out);
      total += c.count[x] * (x - 5);
    }
    return total;
  }

  // Plain sources (PlainSources) while two checkers or more stand outside the home quarter:
  // then no bear-off is legal here or one step away. Two steps are left whenever this is
  // asked, so the start limit reads as: a closed start is no source, a start that one more
  // checker may leave is a source only once (as a single checker is), else it is free.
  template <class S>
  NARDY_HOT bool plain_sources(const S& s, PlainSources& p) const noexcept {
    const Side& us = s.pos.us;
    const uint32_t outside = s.ours & ~kHomeMask;
    if (outside == 0) return false;
    if ((outside & (outside - 1)) == 0 && us.single(std::countr_zero(outside))) return false;
    constexpr uint32_t start = 1u << kStart;
    const int left = d().start_steps_left(s);
    p.ours = s.ours & ~(start & (0u - uint32_t(left == 0)));
    p.singles = (s.ours & ~us.occ2()) | (start & (0u - uint32_t(left == 1)));
    p.blocked = s.theirs;
    return true;
  }

 protected:
  mutable bool order_flag_ = false;

 private:
  const D& d() const noexcept { return static_cast<const D&>(*this); }
};

// Long nardy: one checker off the head a turn (with first-turn exceptions), and no six-point
// block in front of every opponent checker.
struct LongNardyPolicy : LongBoardSteps<LongNardyPolicy> {
  static constexpr int kCheckers = 15;
  static constexpr int kHead = kStart;
  // The opponent's index j lies on the mover's index (j + 12) % 24, so the opponent's head is
  // the mover's index 11; the same map taken twice is the identity.
  static constexpr int kTheirHead = 11;

  struct State {
    Position pos;
    uint32_t ours = 0;    // mover's occupied points
    uint32_t theirs = 0;  // points holding any opponent checker, mover's coordinates
    // The same in the opponent's coordinates, for the six-block test: every bit set once an
    // opponent checker is off (that one is past any block). Constant through the turn.
    uint32_t their_path = 0;
    int heads_left = 1;   // checkers that may still leave the head this turn
  };

  explicit LongNardyPolicy(const Rules& rules = {}) : rules_(rules) {}

  int begin_turn(const Position& pos, int d1, int d2, State out[2]) const noexcept {
    out[0].pos = pos;
    out[0].ours = pos.us.occ1();
    out[0].theirs = rotate24_half(pos.them.occ1());
    out[0].their_path = pos.them.off() > 0 ? kBoardMask : pos.them.occ1();
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

  // LongBoardSteps' hooks
  static int start_steps_left(const State& s) noexcept { return s.heads_left; }
  static int start_steps_after(const State& s, int from, uint32_t) noexcept {
    return s.heads_left - int(from == kHead);
  }
  static void on_step(State& n, int from) noexcept { n.heads_left -= from == kHead; }
  NARDY_HOT static bool forbidden(uint32_t ours, const State& s) noexcept {
    return forbidden_block(ours, s.their_path);
  }
  bool checked_at_end(const State&) const noexcept { return rules_.block_check_at_end; }
  static constexpr bool exact_start(const State&) noexcept { return true; }

  NARDY_HOT static bool forbidden_block(const State& s) noexcept {
    return forbidden_block(s.ours, s.their_path);
  }

  // Six points in a row along the opponent's path with no opponent checker past them. The
  // mover-to-opponent map is a rotation by 12, its own inverse. `ours`: the mover's points in
  // its own coordinates; `their_path`: as State::their_path.
  NARDY_HOT static bool forbidden_block(uint32_t ours, uint32_t their_path) noexcept {
    const uint32_t m = rotate24_half(ours);  // mover's points in opponent coordinates
    const uint32_t pairs = m & (m >> 1);             // runs of 2 starting here
    const uint32_t fours = pairs & (pairs >> 2);      // runs of 4
    const uint32_t runs = fours & (pairs >> 4);       // runs of 6
    // Points before the lowest run start: the run the fewest opponent checkers are past.
    const uint32_t before_lowest = (runs & (0u - runs)) - 1;
    const bool someone_past = (their_path & before_lowest) != 0;
    return (runs != 0) & !someone_past;
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

// Long nardy's game (traits.hpp): 15 checkers on the head, no bar, the opponent's index j on
// the mover's (j + 12) % 24; oin 1 point, mars 2.
struct LongNardy : BearOffGame<LongNardy> {
  static constexpr const char* kKey = "LONG_NARDY";
  static constexpr VariantName kNames[] = {
      {"long-nardy"},
      {"long nardy"},
      {"длинные нарды"},
      {"long"},
      {"narde"},
      {"long-nardy-federation"},
      {"long-nardy-classic", [](Rules& r) { r.head_rule = HeadRule::Classic; }},
      {"long nardy classic", [](Rules& r) { r.head_rule = HeadRule::Classic; }},
      {"long-nardy-extended", [](Rules& r) { r.head_rule = HeadRule::Extended; }},
      {"long nardy extended", [](Rules& r) { r.head_rule = HeadRule::Extended; }},
  };
  using Policies = PolicyList<LongNardyPolicy>;
  // The head limit is a whole-turn rule: a single step may always leave the head.
  static constexpr Rules step_rules(Rules r) noexcept {
    r.head_rule = HeadRule::Extended;
    return r;
  }

  static constexpr int kCheckers = LongNardyPolicy::kCheckers;
  static constexpr bool kHasBar = false;
  static constexpr int to_mover(int j) noexcept { return (j + 12) % 24; }
  static constexpr uint32_t to_mover_mask(uint32_t m) noexcept { return rotate24_half(m); }
  static constexpr SideArray start() noexcept {
    SideArray s{};
    s[LongNardyPolicy::kHead] = kCheckers;
    return s;
  }

  static constexpr const char* kKinds[] = {"oin", "mars"};
  static constexpr int loss_kind(const Side&) noexcept { return 1; }

  // -4 * pips + 3 * points held + 4 * longest run (at most 6) + 8 * off - 2 * on the head.
  static int greedy_score(const Position& after) noexcept {
    const Side& us = after.us;
    const uint32_t ours = us.occ1();
    const int run = std::min(longest_run(ours), 6);
    return -4 * fast_pips(us) + 3 * std::popcount(ours) + 4 * run + 8 * us.off() -
           2 * us.count(LongNardyPolicy::kHead);
  }
};

}  // namespace nardy
