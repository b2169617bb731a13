// Backgammon (short nardy): hitting, the bar, points closed by two checkers.
#pragma once

#include <array>
#include <bit>

#include "nardy/movelist.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/variants/common.hpp"
#include "nardy/variants/traits.hpp"

namespace nardy {

// The per-checker rules are selected at compile time: they add bookkeeping to every step,
// which the standard game should not pay for. kNoHitAndHide: the seed-002 house rule (a
// hitter may not go on to a point holding an own checker). kHomeHitStops: Tavla's rule
// against hit-and-run in the home board (a checker that hits on one of the mover's points
// 0..5 moves no further in that turn).
template <bool kNoHitAndHide, bool kHomeHitStops = false>
struct BasicBackgammonPolicy {
  static constexpr bool kTracksCheckers = kNoHitAndHide || kHomeHitStops;

  // The opponent's index j lies on the mover's index 23 - j.
  static constexpr int to_mover(int j) noexcept { return 23 - j; }

  struct State {
    Position pos;
    uint32_t ours = 0;          // mover's occupied points
    uint32_t their_closed = 0;  // opponent points with >= 2 checkers, mover's coordinates
    uint32_t their_blots = 0;   // opponent points with exactly 1 checker, mover's coordinates
    uint32_t hitters = 0;       // points where a checker stands that hit this turn
    uint32_t stopped = 0;       // points where a checker stands that hit in the home board
                                // this turn (kHomeHitStops: it may not move again)
  };

  // The standard rules are local to a step's source and target: order never matters. The
  // per-checker rules follow individual checkers through the turn, so under them the
  // enumerator must try every order (and tell states apart by their marks, state_tag()).
  static constexpr bool order_mattered() noexcept { return kTracksCheckers; }
  static constexpr bool kCommutativeDoubles = !kTracksCheckers;
  static constexpr void reset_order_flag() noexcept {}
  // (stopped marks lie on points 0..5, shifted above the hitters' 24 bits)
  uint32_t state_tag(const State& s) const noexcept { return s.hitters | s.stopped << 24; }

  explicit BasicBackgammonPolicy(const Rules& = {}) {}

  int begin_turn(const Position& pos, int, int, State out[2]) const noexcept {
    out[0].pos = pos;
    const uint32_t ours = pos.us.occ1();
    out[0].ours = ours;
    // Past contact (no checker of ours on the bar, none of theirs on their bar or on a point
    // below our highest checker in our coordinates) no step can land on or hit an opponent
    // checker: the opponent's masks are empty as far as any step can see, and are not built.
    if (pos.us.bar() == 0 && no_opponent_from(pos.them, ours)) {
      out[0].their_closed = 0;
      out[0].their_blots = 0;
    } else {
      opposing_points(pos.them, out[0].their_closed, out[0].their_blots);
    }
    return 1;
  }

  // A checker on the bar against both entry points closed (the opponent's index d - 1 holds
  // two or more for each die): the roll passes, found without the turn's masks.
  // (The entry points are the opponent's indices 0..5, all in the first word: count() would
  // test which word holds the slot, since it cannot know that a die is at most 6.)
  NARDY_HOT static bool must_pass(const Position& pos, int d1, int d2) noexcept {
    const uint64_t w = pos.them.w[0];
    return pos.us.bar() != 0 && (w >> (4 * d1 - 4) & 0xE) != 0 && (w >> (4 * d2 - 4) & 0xE) != 0;
  }

  // Sources with a legal step for the die, as bit operations: everything on the bar enters
  // first; a point is out when its target is closed; low points bear off only when all
  // checkers are home, exactly or (overshooting) from the highest point.
  NARDY_HOT uint32_t sources(const State& s, int die) const noexcept {
    return entering_sources(s.ours, s.pos.us.bar() != 0, s.their_closed, die);
  }

  template <class F>
  NARDY_HOT void for_each_step(const State& s, int from, int die, F&& f) const {
    const int to = from - die;
    if (to >= 0) {
      const uint32_t bit = 1u << to;
      // (a closed target: sources() has left `from` out already)
      State n = s;
      move_checker(n.pos.us, n.ours, from, to, die);
      const bool hit = (s.their_blots & bit) != 0;
      n.their_blots &= ~bit;
      send_to_bar(n.pos.them, to, hit);
      const Step step{int8_t(from), int8_t(to), uint8_t(hit)};
      if constexpr (!kTracksCheckers) {
        f(n, step);
      } else {
        // Which checker left `from`? Another one: the marked checker (at most one stands on a
        // point: it hit there, so none of ours stood there) stays where it is. The marked
        // checker itself: not after a hit in the home board, and under the house rule not
        // onto a point among its own checkers.
        const uint32_t from_bit = (1u << from) & kBoardMask;
        const bool marked_there = (s.hitters | s.stopped) & from_bit;
        const bool others_there = from == kBar || s.pos.us.count(from) > 1 || !marked_there;
        const uint32_t hit_mark = kNoHitAndHide && hit ? bit : 0u;
        const uint32_t stop_mark = kHomeHitStops && hit && to < 6 ? bit : 0u;
        if (others_there) {
          n.hitters = s.hitters | hit_mark;
          n.stopped = s.stopped | stop_mark;
          f(n, step);
        }
        const bool marked_may_move =
            marked_there && !(s.stopped & from_bit) && !(s.ours & bit);
        if (marked_may_move) {
          n.hitters = (s.hitters & ~from_bit) | bit;
          n.stopped = s.stopped | stop_mark;
          f(n, step);
        }
      }
      return;
    }
    if (!may_bear_off(s.pos.us, s.ours, from, to)) return;
    // A checker stopped by its hit may not bear off either.
    if (kHomeHitStops && (s.stopped >> from & 1u) && s.pos.us.count(from) == 1) return;
    State n = s;
    move_checker(n.pos.us, n.ours, from, kOff, die);
    // A hitter may bear off; if it was alone its mark goes with it.
    if (kNoHitAndHide && s.pos.us.count(from) == 1) n.hitters &= ~(1u << from);
    f(n, Step{int8_t(from), int8_t(kBearOffTo), 0});
  }

  // The last step of a move: the resulting position alone, none of the masks a further step
  // would need (most steps of a search are last steps). Under the per-checker rules the
  // marks decide which checker moves, so the general step stands in.
  static constexpr bool kLastStep = !kTracksCheckers;
  template <class F>
  NARDY_HOT void for_each_last_step(const State& s, int from, int die, F&& f) const {
    const int to = from - die;
    Position p = s.pos;
    if (to >= 0) {
      const uint32_t bit = 1u << to;
      // (a closed target: sources() has left `from` out already)
      p.us.move_down(from, die);
      const bool hit = (s.their_blots & bit) != 0;
      send_to_bar(p.them, to, hit);
      f(p, Step{int8_t(from), int8_t(to), uint8_t(hit)});
      return;
    }
    if (!may_bear_off(s.pos.us, s.ours, from, to)) return;
    p.us.move_down(from, die);
    f(p, Step{int8_t(from), int8_t(kBearOffTo), 0});
  }

  bool final_ok(const State&) const noexcept { return true; }

  // -- counting moves without making them (Enumerator::count, pick) ---------------------
  // sources() leaves out closed targets and keeps bear-offs to the exact point and the highest
  // one once all are home, which is all a step checks: one legal step per source. (Under the
  // per-checker rules the marks decide which checker moves: the moves are listed.)
  static constexpr bool kExactLastSources = !kTracksCheckers;
  // A checker landing where no opponent blot stands changes nothing but the counts.
  uint32_t quiet_points(const State& s) const noexcept { return ~s.their_blots & kBoardMask; }

  // sources() after one step from `from` with `die`, from the masks alone (the state that step
  // would make is not needed when its moves are only counted).
  NARDY_HOT uint32_t next_sources(const State& s, int from, int die, int next_die) const noexcept {
    // (Without branches: whether the point empties is as good as random. A step off lands on
    // a bit above the board, masked out.)
    const Side& us = s.pos.us;
    const uint32_t left = (1u << from) & kBoardMask & (0u - uint32_t(us.single(from)));
    const uint32_t landed = (1u << ((from - die) & 31)) & kBoardMask;
    return entering_sources((s.ours & ~left) | landed, us.bar() > int(from == kBar),
                            s.their_closed, next_die);
  }

  // Plain sources (see PlainSources) while nothing is on the bar and two checkers or more
  // stand outside the home board: then no step of one die can bring the last one home, so
  // no bear-off is legal here or one step away.
  NARDY_HOT bool plain_sources(const State& s, PlainSources& p) const noexcept {
    const Side& us = s.pos.us;
    const uint32_t outside = s.ours & ~kHomeMask;
    if (us.bar() || outside == 0) return false;
    if ((outside & (outside - 1)) == 0 && us.single(std::countr_zero(outside))) return false;
    p.ours = s.ours;
    p.singles = s.ours & ~us.occ2();
    p.blocked = s.their_closed;
    return true;
  }

  // The same for each of the next `steps` steps (3 or 4), with the stacks of two and three:
  // at least `steps` checkers outside the home board, so that no step before the last brings
  // the last one home.
  NARDY_HOT bool plain_stacks(const State& s, int steps, PlainStacks& out) const noexcept {
    return s.pos.us.bar() == 0 && board_stacks(s.pos.us, s.ours, s.their_closed, out) >= steps;
  }

 private:
  // True when `them` has no checker on their bar or on a point that lies below the mover's
  // highest occupied point (in the mover's coordinates: their index j > 23 - highest).
  // (A mover without checkers on the board has none to meet.)
  NARDY_HOT static bool no_opponent_from(const Side& them, uint32_t ours) noexcept {
    const int k = 23 - (31 ^ std::countl_zero(ours | 1u));
    return ((them.w[0] & kNibblesAbove[k].w0) | (them.w[1] & kNibblesAbove[k].w1)) == 0;
  }
  // The count nibbles of the slots k + 1 .. 24 (the points above k and the bar).
  static constexpr std::array<SlotUnit, 24> kNibblesAbove = [] {
    std::array<SlotUnit, 24> t{};
    for (int k = 0; k < 24; ++k)
      for (int slot = k + 1; slot <= kBar; ++slot) {
        t[k].w0 |= kSlotNibble[slot].w0;
        t[k].w1 |= kSlotNibble[slot].w1;
      }
    return t;
  }();

  // The opponent's blot on the mover's point `to` goes to the bar when `hit`, without a
  // branch: whether a step hits is as good as random, and a mispredicted branch costs more
  // than the masked table delta (wrapping arithmetic, as Side::move_down).
  static constexpr std::array<SlotUnit, 24> kToBar = [] {
    std::array<SlotUnit, 24> t{};
    for (int to = 0; to < 24; ++to) {
      const int j = to_mover(to);  // to_mover is its own inverse
      t[to] = {kSlotUnit[kBar].w0 - kSlotUnit[j].w0, kSlotUnit[kBar].w1 - kSlotUnit[j].w1};
    }
    return t;
  }();
  NARDY_HOT static void send_to_bar(Side& them, int to, bool hit) noexcept {
    const uint64_t mask = 0 - uint64_t(hit);
    them.w[0] += kToBar[to].w0 & mask;
    them.w[1] += kToBar[to].w1 & mask;
  }
};

using BackgammonPolicy = BasicBackgammonPolicy<false>;
using BackgammonNoHitAndHidePolicy = BasicBackgammonPolicy<true>;

// Everything of backgammon but the setup and the number of checkers, for the games played
// with its movement (traits.hpp). Self gives kKey, kNames, kCheckers and start().
template <class Self>
struct BackgammonGame : BearOffGame<Self> {
  using Policies = PolicyList<BackgammonPolicy, BackgammonNoHitAndHidePolicy>;
  static constexpr int policy_index(const Rules& r) noexcept { return r.no_hit_and_hide ? 1 : 0; }

  static constexpr bool kHasBar = true;
  static constexpr int to_mover(int j) noexcept { return BackgammonPolicy::to_mover(j); }
  static constexpr uint32_t to_mover_mask(uint32_t m) noexcept { return reverse24(m); }

  // A loser who bore off nothing: a backgammon with a checker on the bar or in the winner's
  // home board (the loser's indices 18..23), else a gammon.
  static constexpr const char* kKinds[] = {"single", "gammon", "backgammon"};
  static int loss_kind(const Side& loser) noexcept {
    return loser.bar() > 0 || (loser.occ1() >> 18) != 0 ? 2 : 1;
  }

  // pips(them) - pips(us) + 2 * off - 8 * exposed blots + 3 * made points on indices 0..7
  // (rollout.hpp has the whole description).
  static int greedy_score(const Position& after) noexcept {
    const Side& us = after.us;
    const Side& them = after.them;
    int score = fast_pips(them) - fast_pips(us) + 2 * us.off();
    const uint32_t ours1 = us.occ1(), ours2 = us.occ2();
    score += 3 * std::popcount(ours2 & 0xFFu);
    // Opponent checkers in our coordinates: their index j is our 23 - j; they move towards
    // our higher indices, so a checker on our index k threatens blots above k.
    const uint32_t theirs = reverse24(them.occ1());
    uint32_t blots = ours1 & ~ours2;
    int exposed = 0;
    while (blots) {
      const int i = std::countr_zero(blots);
      blots &= blots - 1;
      const int lo = i > 12 ? i - 12 : 0;
      const uint32_t behind = theirs & ((1u << i) - 1) & ~((1u << lo) - 1);
      if (behind || (them.bar() > 0 && i <= 11)) ++exposed;
    }
    return score - 8 * exposed;
  }
};

struct Backgammon : BackgammonGame<Backgammon> {
  static constexpr const char* kKey = "BACKGAMMON";
  static constexpr VariantName kNames[] = {
      {"backgammon"}, {"short nardy"}, {"короткие нарды"}, {"bg"}, {"nardegammon"}};
  static constexpr int kCheckers = 15;
  // 2 on the 24-point, 5 on the 13, 3 on the 8, 5 on the 6.
  static constexpr SideArray start() noexcept {
    SideArray s{};
    s[23] = 2;
    s[12] = 5;
    s[7] = 3;
    s[5] = 5;
    return s;
  }
};

}  // namespace nardy
