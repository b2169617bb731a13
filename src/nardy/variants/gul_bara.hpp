// Gul bara (Rosespring, Bulgarian): long nardy's board, start and movement without its head
// and six-block limits, and the doubles cascade: from a given turn of each player on, a double
// is followed by every higher double up to 6-6, as far as each can be played in full
// (docs/rules/gul-bara.md).
#pragma once

#include "nardy/enumerator.hpp"
#include "nardy/variants/long_nardy.hpp"

namespace nardy {

// The steps of long nardy's board (no hitting, a single checker holds a point, bearing off
// from the home quarter) with no rule on the points held and no limit on the checkers leaving
// the start point, so every turn of one roll is counted rather than listed; the cascade as the
// turn's dice sequence.
struct GulBaraPolicy : LongBoardSteps<GulBaraPolicy> {
  static constexpr int kCheckers = 15;

  struct State {
    Position pos;
    uint32_t ours = 0;    // mover's occupied points
    uint32_t theirs = 0;  // points holding any opponent checker, mover's coordinates
  };

  explicit GulBaraPolicy(const Rules& rules = {})
      : cascade_from_(rules.cascade_from_turn), second_ahead_(rules.cascade_counts_rolls) {}

  static int begin_turn(const Position& pos, int, int, State out[2]) noexcept {
    out[0].pos = pos;
    out[0].ours = pos.us.occ1();
    out[0].theirs = rotate24_half(pos.them.occ1());
    return 1;
  }

  // LongBoardSteps' hooks: any number of checkers may leave the start point, any points may
  // be held.
  static constexpr int start_steps_left(const State&) noexcept { return kCheckers; }
  static constexpr int start_steps_after(const State&, int, uint32_t) noexcept {
    return kCheckers;
  }
  static constexpr void on_step(State&, int) noexcept {}
  static constexpr bool forbidden(uint32_t, const State&) noexcept { return false; }
  static constexpr bool checked_at_end(const State&) noexcept { return false; }
  static constexpr bool exact_start(const State&) noexcept { return true; }

  // At most how many dice of groups[0..n), played in order, a move from p can play (the
  // dice-sequence lookahead stops searching once a play reaches it). While the turn cannot
  // bear a checker off (too few pips to bring every checker home, or a checker behind a
  // prime), every die moves a checker its number of pips, so the dice played add up to no
  // more than the checkers can travel (a cascade against a prime stops where that runs out).
  int dice_bound(const Position& p, const DiceGroup* groups, int n) const noexcept {
    int dice = 0, pips = 0;
    unsigned values = 0;
    for (int k = 0; k < n; ++k) {
      dice += groups[k].size();
      pips += groups[k].size() * (groups[k].d1 + groups[k].d2) / 2;
      values |= 1u << groups[k].d1 | 1u << groups[k].d2;
    }
    if (!behind_a_prime(p) && pips_to_home(p) < pips) return dice;  // one might be borne off
    // (the walks depend only on the opponent's points, which stand still through the turn,
    // and on the dice values left: kept from one call to the next)
    const uint32_t open = ~rotate24_half(p.them.occ1()) & kBoardMask;
    if (open != walks_open_ || values != walks_values_) {
      lowest_points(open, values, walks_lowest_);
      walks_open_ = open;
      walks_values_ = values;
    }
    int left = travel_capacity(p, walks_lowest_);
    int played = 0;
    for (int k = 0; k < n; ++k) {
      const DiceGroup g = groups[k];
      const int lo = std::min(g.d1, g.d2), hi = std::max(g.d1, g.d2);
      for (int i = 0; i < g.size(); ++i) {
        const int die = g.d1 == g.d2 || i == 0 ? lo : hi;  // (a non-double's smaller die first)
        if (die > left) return played;
        left -= die;
        ++played;
      }
    }
    return played;
  }

  // Whether groups[0..n) (doubles) can be played in full from p, shown by one quick walk in
  // which each die moves the rearmost checker that can take it (false says nothing). Any
  // sequence of legal steps is a legal move here (no rule on the points held, no limit on
  // leaving the start), so a walk that plays every die proves the turn can; the lookahead
  // asks this before searching the groups' moves.
  static bool plays_in_full(const Position& p, const DiceGroup* groups, int n) noexcept {
    int count[kPoints];
    for (int x = 0; x < kPoints; ++x) count[x] = p.us.count(x);
    uint32_t ours = p.us.occ1() & kBoardMask;
    const uint32_t open = ~rotate24_half(p.them.occ1()) & kBoardMask;
    for (int k = 0; k < n; ++k) {
      const int d = groups[k].d1;
      if (groups[k].d2 != d) return false;
      for (int i = 0; i < 4; ++i) {
        const uint32_t movable = ours & (open << d) & kBoardMask;
        int from, to = -1;
        if (movable != 0) {
          from = 31 - std::countl_zero(movable);
          to = from - d;
        } else if ((ours & ~kHomeMask) == 0 && ours != 0) {  // all home: bear one off
          const int highest = 31 - std::countl_zero(ours);
          if ((ours >> (d - 1)) & 1u) {
            from = d - 1;
          } else if (highest < d - 1) {
            from = highest;
          } else {
            return false;
          }
        } else {
          return false;
        }
        if (--count[from] == 0) ours &= ~(1u << from);
        if (to >= 0 && count[to]++ == 0) ours |= 1u << to;
      }
    }
    return true;
  }

  // Whether one of the mover's checkers stands behind six points in a row that the opponent
  // holds: it cannot come home this turn, so none can be borne off.
  static bool behind_a_prime(const Position& p) noexcept {
    const uint32_t held = rotate24_half(p.them.occ1()) & kBoardMask;
    const uint32_t primes = held & held >> 1 & held >> 2 & held >> 3 & held >> 4 & held >> 5;
    if (primes == 0) return false;
    return (p.us.occ1() >> (std::countr_zero(primes) + 6)) != 0;
  }

  // Whether a play can lead from `from` to `to` (SequenceEnumerator::find prunes with it):
  // nothing hits, so the opponent stays as he is, and checkers only move towards home and
  // off, so at every point no more of the mover's checkers can stand from there back to the
  // start than do now.
  static bool may_lead_to(const Position& from, const Position& to) noexcept {
    if (!(from.them == to.them)) return false;
    int behind_from = 0, behind_to = 0;
    for (int x = kPoints - 1; x >= 0; --x) {
      behind_from += from.us.count(x);
      behind_to += to.us.count(x);
      if (behind_to > behind_from) return false;
    }
    return true;
  }

  // Counted over the game's rolls, the second player's turn t is the game's roll 2t, which
  // the rule reads as the first player's turn t + 1 (roll 2t + 1) does: after the game's first
  // 2 * cascade_from_ - 3 rolls every double cascades.
  int turn_at(int first_turn, int ply) const noexcept {
    return first_turn + (ply + (second_ahead_ ? 1 : 0)) / 2;
  }

  // A double from turn cascade_from_ on: that double, then each higher one up to 6-6.
  int dice_sequence(int d1, int d2, int turn, DiceGroup out[kMaxGroups]) const noexcept {
    out[0] = DiceGroup{d1, d2};
    if (d1 != d2 || cascade_from_ == 0 || turn < cascade_from_) return 1;
    int n = 1;
    for (int d = d1 + 1; d <= 6; ++d) out[n++] = DiceGroup{d, d};
    return n;
  }

 private:
  int cascade_from_;
  bool second_ahead_;
  // dice_bound()'s walks: lowest_points() for walks_open_ and walks_values_
  mutable uint32_t walks_open_ = 0;
  mutable unsigned walks_values_ = 0;
  mutable int8_t walks_lowest_[kPoints] = {};
};

struct GulBara : BearOffGame<GulBara> {
  static constexpr const char* kKey = "GUL_BARA";
  static constexpr VariantName kNames[] = {
      {"gul-bara"}, {"gul bara"}, {"rosespring"}, {"rosespring backgammon"},
      {"crazy narde"}, {"гюлбара"},
  };
  using Policies = PolicyList<GulBaraPolicy>;

  static constexpr int kCheckers = GulBaraPolicy::kCheckers;
  static constexpr bool kHasBar = false;
  static constexpr int to_mover(int j) noexcept { return LongNardy::to_mover(j); }
  static constexpr uint32_t to_mover_mask(uint32_t m) noexcept {
    return LongNardy::to_mover_mask(m);
  }
  static constexpr SideArray start() noexcept { return LongNardy::start(); }

  static constexpr const char* kKinds[] = {"single", "double"};
  static constexpr int loss_kind(const Side&) noexcept { return 1; }

  static int greedy_score(const Position& after) noexcept { return LongNardy::greedy_score(after); }
};

}  // namespace nardy
