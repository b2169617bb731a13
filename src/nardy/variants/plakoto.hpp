// Plakoto (docs/rules/plakoto.md): the second game of Greek tavli. Backgammon's board and
// directions, all fifteen checkers of a side on its 24-point (index 23), no hitting and no
// bar: a checker landing on a single opponent checker pins it there until every checker of
// the pinner has left the point; a pinned checker, or two checkers, close a point to the
// opponent. The "mother" rule ends the game when a side's last checker on its starting point
// is pinned there.
//
// Pins are stored as Shlem stores its prisoners, through variants/held.hpp: bit i of the held
// mask set = this side's single checker on its own index i is pinned. In side arrays a pinned
// checker is -1 on its index, as a prisoner is, so nardy._core.encode / decode, the text form
// and the pictures read them unchanged.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "nardy/movelist.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/variants/common.hpp"
#include "nardy/variants/held.hpp"
#include "nardy/variants/traits.hpp"

namespace nardy {

namespace plakoto {

inline constexpr int kStart = 23;  // every checker's starting point (the 24-point)

constexpr uint32_t pinned(const Side& s) noexcept { return held::mask(s); }
constexpr void set_pin(Side& s, int i) noexcept { held::set(s, i); }
constexpr void clear_pin(Side& s, int i) noexcept { held::clear(s, i); }

// Whose "mother" (the last checker on its own starting point) is pinned there.
constexpr bool mother_pinned(const Side& s) noexcept { return (pinned(s) >> kStart) & 1u; }

}  // namespace plakoto

struct PlakotoPolicy {
  static constexpr int to_mover(int j) noexcept { return 23 - j; }

  struct State {
    Position pos;
    uint32_t ours = 0;         // mover's occupied points, pinned checkers included
    uint32_t movable = 0;      // mover's points with a checker free to move
    uint32_t closed = 0;       // points the mover may not land on (mover coordinates)
    uint32_t their_blots = 0;  // single free opponent checkers (mover coordinates)
  };

  // Every step's legality depends on its source and target only (the points closed to the
  // mover do not change during its turn), as in backgammon: order never matters.
  static constexpr bool order_mattered() noexcept { return false; }
  static constexpr void reset_order_flag() noexcept {}

  explicit PlakotoPolicy(const Rules& r = {}) : pinned_bear_off_(r.plakoto_pinned_bear_off) {}

  int begin_turn(const Position& pos, int, int, State out[2]) const noexcept {
    State& s = out[0];
    s.pos = pos;
    const uint32_t us_pin = plakoto::pinned(pos.us);
    const uint32_t them1 = pos.them.occ1(), them2 = pos.them.occ2();
    s.ours = pos.us.occ1();
    s.movable = s.ours & ~us_pin;
    // Two opponent checkers close a point, and so does one pinning a checker of the mover.
    s.closed = reverse24(them2) | us_pin;
    s.their_blots = reverse24(them1 & ~them2 & ~plakoto::pinned(pos.them));
    return 1;
  }

  // Free checkers whose target is open; bearing off (race_sources) once every checker is home,
  // and under the default rule none of them pinned. A pinned checker counts as standing on
  // its point for the highest-point rule of bearing off.
  NARDY_HOT uint32_t sources(const State& s, int die) const noexcept {
    return sources_of(s.ours, s.movable, s.closed, die);
  }
  NARDY_HOT uint32_t sources_of(uint32_t ours, uint32_t movable, uint32_t closed,
                                int die) const noexcept {
    const bool may_bear_off = (ours & ~kHomeMask) == 0 && (pinned_bear_off_ || movable == ours);
    const uint32_t reach = may_bear_off ? race_sources(ours, die) : ours & ~((1u << die) - 1);
    return reach & movable & ~(closed << die);
  }

  // -- counting moves without making them (Enumerator::count, pick) ---------------------
  // One legal step per source, from i to i - die, order never matters, one start.
  static constexpr bool kExactLastSources = true;
  // A checker that lands on a lone opponent checker and goes on frees it again (it was the
  // only checker of its side there), so two paths of one checker through different points
  // always meet: every point is quiet.
  static constexpr uint32_t quiet_points(const State&) noexcept { return kBoardMask; }

  // sources() after one step from `from` with `die`, from the masks alone. (The pins the
  // step makes or undoes concern the opponent's checkers: they change no source.)
  NARDY_HOT uint32_t next_sources(const State& s, int from, int die, int next_die) const noexcept {
    const uint32_t left = (1u << from) & kBoardMask & (0u - uint32_t(s.pos.us.single(from)));
    const uint32_t landed = (1u << ((from - die) & 31)) & kBoardMask;
    return sources_of((s.ours & ~left) | landed, (s.movable & ~left) | landed, s.closed,
                      next_die);
  }

  template <class F>
  NARDY_HOT void for_each_step(const State& s, int from, int die, F&& f) const {
    const int to = from - die;
    State n = s;
    n.pos.us.move_down(from, die);
    if (n.pos.us.empty(from)) {
      const uint32_t from_bit = 1u << from;
      n.ours &= ~from_bit;
      n.movable &= ~from_bit;
      // The last checker off a point releases the opponent checker it pinned there.
      const int j = 23 - from;
      if ((plakoto::pinned(n.pos.them) >> j) & 1u) {
        plakoto::clear_pin(n.pos.them, j);
        n.their_blots |= from_bit;
      }
    }
    if (to >= 0) {
      const uint32_t bit = 1u << to;
      n.ours |= bit;
      n.movable |= bit;
      if (s.their_blots & bit) {
        plakoto::set_pin(n.pos.them, 23 - to);
        n.their_blots &= ~bit;
      }
      f(n, Step{int8_t(from), int8_t(to), 0});
    } else {
      f(n, Step{int8_t(from), int8_t(kBearOffTo), 0});
    }
  }

  bool final_ok(const State&) const noexcept { return true; }

 private:
  bool pinned_bear_off_;
};

struct Plakoto {
  static constexpr const char* kKey = "PLAKOTO";
  static constexpr VariantName kNames[] = {{"plakoto"}, {"πλακωτό"}};
  using Policies = PolicyList<PlakotoPolicy>;
  static constexpr int policy_index(const Rules&) noexcept { return 0; }
  static constexpr Rules step_rules(const Rules& r) noexcept { return r; }
  static constexpr bool kStepsMatchHit = false;
  static constexpr int kCheckers = 15;
  static constexpr bool kHeldCheckers = true;  // pinned checkers, -1 in rows
  static constexpr bool kHasBar = false;
  static constexpr int to_mover(int j) noexcept { return 23 - j; }

  static constexpr SideArray start() noexcept {
    SideArray s{};
    s[plakoto::kStart] = kCheckers;
    return s;
  }

  // Result kinds: a single win (the loser bore off a checker), a gammon (he bore off none),
  // the mother rule's win.
  static constexpr const char* kKinds[] = {"single", "gammon", "mother"};
  static constexpr int kMother = 2;

  // The mother rule, read after every move (docs/rules/plakoto.md M1-M3): a side whose
  // mother is pinned loses unless the pinner still has a checker on its own starting point;
  // both mothers pinned is a draw. 0: no end, 1: `a`'s side wins, 2: `b`'s side wins, 3: draw.
  static constexpr int mother_end(const Side& a, const Side& b) noexcept {
    const bool a_pinned = plakoto::mother_pinned(a), b_pinned = plakoto::mother_pinned(b);
    if (a_pinned && b_pinned) return 3;
    if (a_pinned && b.count(plakoto::kStart) == 0) return 2;
    if (b_pinned && a.count(plakoto::kStart) == 0) return 1;
    return 0;
  }

  static constexpr bool finished(const Position& p, const Rules& = {}) noexcept {
    return p.us.off() == kCheckers || p.them.off() == kCheckers || mother_end(p.us, p.them) != 0;
  }

  static bool game_end(const Position& pos, const Rules&, int on_roll, int,
                       Outcome& out) noexcept {
    const Side* loser = nullptr;
    if (pos.them.off() == kCheckers) {
      out.winner = 1 - on_roll;
      loser = &pos.us;
    } else if (pos.us.off() == kCheckers) {
      out.winner = on_roll;
      loser = &pos.them;
    }
    if (loser) {
      out.kind = loser->off() > 0 ? 0 : 1;
      out.points = out.kind + 1;
      return true;
    }
    switch (mother_end(pos.us, pos.them)) {
      case 1:
        out.winner = on_roll;
        break;
      case 2:
        out.winner = 1 - on_roll;
        break;
      case 3:
        out.winner = -1;
        out.kind = 0;
        out.points = 0;
        return true;
      default:
        return false;
    }
    out.kind = kMother;
    out.points = 2;
    return true;
  }

  static void status(const Position& pos, const Rules& rules, int passes,
                     StatusFields& out) noexcept {
    Outcome o;
    const bool over = game_end(pos, rules, 0, passes, o);
    out.flag("over", over);
    out.number("winner", !over || o.winner == -1 ? 0 : o.winner == 0 ? 1 : -1);
    out.word("kind", !over ? "" : o.winner == -1 ? "draw" : kKinds[o.kind]);
    out.number("points", over ? o.points : 0);
    out.number("us_pinned", std::popcount(plakoto::pinned(pos.us)));
    out.number("them_pinned", std::popcount(plakoto::pinned(pos.them)));
  }

  // pips(them) - pips(us) + 2 * off + 10 * (opponent checkers pinned) - 10 * (own pinned),
  // and a pinned mother of the opponent weighs like a won game.
  static int greedy_score(const Position& after) noexcept {
    const Side& us = after.us;
    const Side& them = after.them;
    int score = fast_pips(them) - fast_pips(us) + 2 * us.off();
    score += 10 * (std::popcount(plakoto::pinned(them)) - std::popcount(plakoto::pinned(us)));
    if (mother_end(us, them) == 1) score += 1000;
    return score;
  }

  // Counts 0..15 (-1: one pinned checker), fifteen a side, nothing on the bar; a point holds
  // both colours only as one pinned checker under one or more checkers of the other side.
  static std::string validate(const SideArray& us, const SideArray& them) {
    const SideArray* sides[2] = {&us, &them};
    const char* names[2] = {"mover", "opponent"};
    for (int s = 0; s < 2; ++s) {
      const SideArray& a = *sides[s];
      std::string err = check_side(
          a, names[s], kCheckers, [](int k) { return k < kPoints ? -1 : 0; },
          [](int k) { return k < kPoints ? " (-1 pinned, 0..15 allowed)" : " (0..15 allowed)"; },
          [](int) { return 1; });
      if (!err.empty()) return err;
      if (a[kBar] != 0)
        return std::string("plakoto has no bar, but the ") + names[s] + " has checkers on it";
    }
    for (int i = 0; i < kPoints; ++i) {
      const int a = us[i], b = them[23 - i];
      if (a == 0 || b == 0) {
        if (a < 0 || b < 0)
          return std::string(a < 0 ? "mover index " + std::to_string(i)
                                   : "opponent index " + std::to_string(23 - i)) +
                 " holds a pinned checker but no opponent checker pins it";
        continue;
      }
      if ((a < 0) == (b < 0))
        return "mover index " + std::to_string(i) + " and opponent index " +
               std::to_string(23 - i) +
               " are the same point and both hold checkers (only one pinned checker may share "
               "a point)";
    }
    return {};
  }

  static Side make_side(const SideArray& a) noexcept { return held::make_side(a); }
  static SideArray side_array(const Side& s) noexcept { return held::side_array(s); }

  // Pins need the checks of validate(): no fast path.
  static constexpr bool pack(const int8_t*, Position&) noexcept { return false; }
};

}  // namespace nardy
