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
      : cascade_from_(rules.cascade_from_turn),
        second_ahead_(rules.cascade_counts_rolls),
        carries_(rules.stopped_cascade_to_opponent) {}

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

  // PlainStacks for the next `steps` steps (3 or 4) of a double: with at least that many
  // checkers outside the home quarter no step before the last brings the last one home, so
  // none can be borne off, and with no rule on the points held or the start every step is
  // the plain one (the enumerator then counts those nodes from the masks).
  NARDY_HOT static bool plain_stacks(const State& s, int steps, PlainStacks& out) noexcept {
    return board_stacks(s.pos.us, s.ours, s.theirs, out) >= steps;
  }

  // At most how many dice of groups[0..n), played in order, a move from p can play (the
  // dice-sequence lookahead stops searching once a play reaches it), the smaller of two
  // bounds. Chains: the steps of one double's group are, for each checker, a chain of that
  // die from wherever the earlier groups' dice could have taken it through points the
  // opponent leaves open; a chain ends at the first landing he holds or with a bear-off (once
  // one may have happened, see below), so where the checkers can make fewer than four such
  // steps in all the turn ends in that group. Travel: until a checker may have been borne
  // off, every die moves a checker its number of pips, and the dice of groups 0..k move each
  // checker at most down to the lowest point a walk of those groups' values reaches, so the
  // dice played up to group k add up to no more than that room. Checkers never block each
  // other here, so each can be taken alone.
  int dice_bound(const Position& p, const DiceGroup* groups, int n) const noexcept {
    BoundTables& t = bound_tables(p, groups, n);
    // The first group by whose end a checker may have been borne off: all the checkers must
    // be home first, so the groups before it have too few pips to bring them there, or leave
    // one where no walk of their values takes it home (behind a prime, say).
    const CheckerCounts checkers = checker_counts(p);
    const uint32_t outside = checkers.points & ~kHomeMask;
    const int home_pips = pips_to_home(checkers);
    int first_bear = n;
    for (int k = 0, pips = 0; k < n; ++k) {
      pips += full_size(groups[k]) * (groups[k].d1 + groups[k].d2) / 2;
      if (pips <= home_pips) continue;
      lowest_after(t, groups, k);
      if ((outside & ~t.reaches_home[k]) == 0) {
        first_bear = k;
        break;
      }
    }
    const int chained = chain_bound(checkers, t, groups, first_bear);
    int used = 0, played = 0;
    for (int k = 0; k < first_bear && played < chained; ++k) {
      const int room = travel_capacity(checkers, lowest_after(t, groups, k));
      const DiceGroup g = groups[k];
      const int lo = std::min(g.d1, g.d2), hi = std::max(g.d1, g.d2);
      for (int i = 0; i < full_size(g); ++i) {
        const int die = g.d1 == g.d2 || i == 0 ? lo : hi;  // (a non-double's smaller die first)
        if (used + die > room) return std::min(played, chained);
        used += die;
        ++played;
      }
    }
    if (first_bear < n) return chained;  // (the room says nothing once one may be borne off)
    return std::min(played, chained);
  }

  // Whether groups[0..n) (doubles) can be played in full from p, shown by one quick walk in
  // which each die moves the rearmost checker that can take it (false says nothing). Any
  // sequence of legal steps is a legal move here (no rule on the points held, no limit on
  // leaving the start), so a walk that plays every die proves the turn can; the lookahead
  // asks this before searching the groups' moves.
  static bool plays_in_full(const Position& p, const DiceGroup* groups, int n) noexcept {
    int count[kPoints] = {};
    uint32_t ours = p.us.occ1() & kBoardMask;
    for (uint32_t m = ours; m != 0; m &= m - 1) {
      const int x = std::countr_zero(m);
      count[x] = p.us.count(x);
    }
    const uint32_t open = ~rotate24_half(p.them.occ1()) & kBoardMask;
    for (int k = 0; k < n; ++k) {
      const int d = groups[k].d1;
      if (groups[k].d2 != d) return false;
      for (int i = 0; i < 4; ++i) {
        const uint32_t movable = ours & (open << d) & kBoardMask;
        int from;
        if (movable != 0) {
          from = 31 - std::countl_zero(movable);
          ++count[from - d];
          ours |= 1u << (from - d);
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
        // (whether the point empties follows no pattern: a mask, not a branch)
        ours &= ~(static_cast<uint32_t>(--count[from] == 0) << from);
      }
    }
    return true;
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

  // A double from turn cascade_from_ on: that double, then each higher one up to 6-6. The
  // dice a stopped cascade left (carried_turn) go on the same way, whatever the turn.
  int dice_sequence(int d1, int d2, int turn, DiceGroup out[kMaxGroups]) const noexcept {
    out[0] = DiceGroup{d1, d2, carried_left(turn) ? 4 - carried_left(turn) : 0};
    if (!cascades(d1, d2, turn) && carried_left(turn) == 0) return 1;
    int n = 1;
    for (int d = d1 + 1; d <= 6; ++d) out[n++] = DiceGroup{d, d};
    return n;
  }

  // With stopped_cascade_to_opponent: the dice left of the double where a cascade turn that
  // played `played` dice stopped, when it played at least one (backgammon.js's reading of
  // Gul bara). A carried play leaves nothing: dice it cannot play are lost.
  DiceCarry carry(int d1, int d2, int turn, int played) const noexcept {
    if (!carries_ || played == 0 || !cascades(d1, d2, turn)) return {};
    for (int d = d1, before = 0; d <= 6; ++d, before += 4)
      if (played < before + 4) return {d, before + 4 - played};
    return {};
  }

 private:
  bool cascades(int d1, int d2, int turn) const noexcept {
    return d1 == d2 && cascade_from_ != 0 && turn >= cascade_from_;
  }

  int cascade_from_;
  bool second_ahead_;
  bool carries_;
  // dice_bound()'s tables, which depend only on the opponent's points (they stand still
  // through a turn) and the groups: kept from one call to the next, one set for each first
  // die of the groups (the lookahead asks for every suffix of a cascade in turn).
  struct BoundTables {
    uint64_t groups_key = 0;  // 0: not yet made
    uint32_t open = 0;
    int dice = 0;
    int n_doubles = 0;  // leading groups that are doubles (the chains stop at the first other)
    // lowest[k]: lowest_points() for the values of groups 0..k (made in order, when asked)
    int lowest_made = 0;
    int8_t lowest[kMaxGroups][kPoints] = {};
    uint32_t reaches_home[kMaxGroups] = {};  // points whose lowest[k] is in the home quarter
    // chains[b][k][t]: points from which a checker can make t + 1 steps of group k's die in a
    // row, after a walk of the earlier groups' dice; b: whether a chain may end in a bear-off
    std::array<std::array<std::array<uint32_t, 4>, kMaxGroups>, 2> chains{};
    unsigned chains_made[2] = {0, 0};  // groups whose chains are made (bit k: group k)
  };

  // A group's dice: the bounds are asked only of whole groups (SequenceEnumerator skips the
  // short group of a carried play), so the group's `missing` is not read here.
  static constexpr int full_size(const DiceGroup& g) noexcept { return g.d1 == g.d2 ? 4 : 2; }

  static uint64_t groups_key(const DiceGroup* groups, int n) noexcept {
    uint64_t key = uint64_t(n) << 56;
    for (int k = 0; k < n; ++k) key |= uint64_t(groups[k].d1 * 8 + groups[k].d2) << (6 * k);
    return key;
  }

  BoundTables& bound_tables(const Position& p, const DiceGroup* groups, int n) const noexcept {
    const uint32_t open = ~rotate24_half(p.them.occ1()) & kBoardMask;
    const uint64_t key = groups_key(groups, n);
    BoundTables& t = bound_tables_[groups[0].d1 & 7];
    if (t.groups_key == key && t.open == open) return t;
    t.groups_key = key;
    t.open = open;
    t.dice = 0;
    t.n_doubles = n;
    for (int k = 0; k < n; ++k) {
      t.dice += full_size(groups[k]);
      if (groups[k].d1 != groups[k].d2 && t.n_doubles == n) t.n_doubles = k;
    }
    t.lowest_made = 0;
    t.chains_made[0] = t.chains_made[1] = 0;
    return t;
  }

  static const int8_t* lowest_after(BoundTables& t, const DiceGroup* groups, int k) noexcept {
    for (; t.lowest_made <= k; ++t.lowest_made) {
      unsigned values = 0;
      for (int j = 0; j <= t.lowest_made; ++j) values |= 1u << groups[j].d1 | 1u << groups[j].d2;
      int8_t* low = t.lowest[t.lowest_made];
      lowest_points(t.open, values, low);
      uint32_t home = 0;
      for (int x = 0; x < kPoints; ++x) home |= uint32_t(low[x] < 6) << x;
      t.reaches_home[t.lowest_made] = home;
    }
    return t.lowest[k];
  }

  // Group k's chains, made when first asked (most lookups stop after a few groups, and the
  // opponent's points change every turn).
  static const std::array<uint32_t, 4>& chains(BoundTables& t, const DiceGroup* groups, int k,
                                               bool may_bear_off) noexcept {
    std::array<uint32_t, 4>& c = t.chains[may_bear_off][k];
    if ((t.chains_made[may_bear_off] >> k) & 1u) return c;
    unsigned earlier = 0;  // die values of the groups before
    for (int j = 0; j < k; ++j) earlier |= 1u << groups[j].d1;
    const int v = groups[k].d1;
    const uint32_t lands = (t.open << v) & kBoardMask;
    uint32_t chain = lands | (may_bear_off ? (1u << v) - 1 : 0u);
    for (int s = 0; s < 4; ++s) {
      c[s] = reachable_from(chain, t.open, earlier);
      chain = lands & (chain << v);
    }
    t.chains_made[may_bear_off] |= 1u << k;
    return c;
  }

  // The points from which a walk of steps of the values in `values`, each landing on an open
  // point, ends in `targets` (the targets themselves included).
  static uint32_t reachable_from(uint32_t targets, uint32_t open, unsigned values) noexcept {
    for (uint32_t seen = 0; seen != targets;) {
      seen = targets;
      for (unsigned v = values; v != 0; v &= v - 1)
        targets |= ((seen & open) << std::countr_zero(v)) & kBoardMask;
    }
    return targets;
  }

  // dice_bound()'s chain bound (see there).
  // A chain may end in a bear-off from group first_bear on.
  static int chain_bound(const CheckerCounts& checkers, BoundTables& t, const DiceGroup* groups,
                         int first_bear) noexcept {
    const uint32_t ours = checkers.points;
    int before = 0;
    for (int k = 0; k < t.n_doubles; ++k) {
      const std::array<uint32_t, 4>& c = chains(t, groups, k, k >= first_bear);
      int steps = 0;
      for (int s = 0; s < 4 && steps < 4; ++s) {
        uint32_t from = c[s] & ours;
        if (from == 0) break;
        for (; from != 0 && steps < 4; from &= from - 1)
          steps += checkers.count[std::countr_zero(from)];
      }
      if (steps < 4) return before + steps;
      before += 4;
    }
    return t.dice;
  }

  mutable std::array<BoundTables, 8> bound_tables_{};
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
