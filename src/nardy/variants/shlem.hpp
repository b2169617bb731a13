// Shlem (Шлем, seed 003): a short-nardy variant whose goal is a blockade on the opponent's
// territory. Rules as read in docs/rules/shlem.md.
//
// Coordinates (each side its own, like every variant; docs/rules/shlem.md has the table):
//   0..11   the side's own line (its territory) in line order: white 11..16 21..26,
//           black 41..46 31..36. Own index i stands on point number i % 6 + 1.
//   12..23  the facing points on the opponent's territory, 12 + i facing own index i: white
//           41..46 31..36, black 11..16 21..26 (1k faces 4k, 2k faces 3k). These twelve are
//           the opponent's line in its order, so a step along it is also +-die.
//   24      reserve checkers not yet entered (0..3)
//   25      checkers hit out of the game (stage 2)
// The opponent's index j lies on the mover's index (j + 12) % 24 (a rotation, its own
// inverse): the opponent's own line is the mover's 12..23 and vice versa.
//
// Prisoners: a point may hold checkers of both colours only as ONE prisoner under one or more
// capturers. Which of the two is the prisoner (1 against 1 is ambiguous) is stored explicitly:
// nibbles 10..15 of the high word of a Side (slots 26..31, "reserved for variant state" in
// position.hpp) form a 24-bit mask, bit i set = this side's single checker on its own index i
// is a prisoner. The mask is part of the packed key, so equality and hashing see it. In side
// arrays (Python, numpy batches) a prisoner is written as -1 on its index.
//
// Stage 2 (hitting allowed) is derived, never stored: either player has no reserves left
// (Rules::shlem_stage == Either) or the mover has none (PerPlayer). It is evaluated at every
// step, so a checker entered earlier in the same turn counts.
#pragma once

#include <bit>
#include <cstdint>
#include <string>

#include "nardy/movelist.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/variants/held.hpp"
#include "nardy/variants/traits.hpp"

namespace nardy {

namespace shlem {

inline constexpr int kReserve = kBar;  // slot 24: reserves not yet entered
inline constexpr int kHitOut = kOff;   // slot 25: checkers hit out of the game
inline constexpr int kReserves = 3;
inline constexpr int kCheckers = 15;  // 12 on the board at the start + 3 reserves
inline constexpr int kPrisonerSlot = 26;  // slots 26..31 = prisoner mask, 4 bits a slot
inline constexpr uint32_t kOwnLine = 0xFFFu;        // indices 0..11
inline constexpr uint32_t kTheirLine = 0xFFF000u;   // indices 12..23

// The opponent's index j lies on the mover's index to_mover(j); to_mover(to_mover(j)) == j.
// (Forced inline, like the step helpers below: the search functions are large enough that
// GCC's growth limits leave small calls out of line, a call each.)
NARDY_OCC constexpr int to_mover(int j) noexcept { return j < 12 ? j + 12 : j - 12; }
constexpr uint32_t to_mover_mask(uint32_t m) noexcept { return rotate24_half(m); }

// One checker of `s` from slot `from` to slot `to`, as one change of the side's two words.
// (Side::add_words, inlined: the side stays one vector, see there.)
NARDY_HOT void move_checker(Side& s, int from, int to) noexcept {
#if NARDY_SSE2
  const __m128i d = _mm_sub_epi64(
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(&kSlotUnit[to])),
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(&kSlotUnit[from])));
  __m128i* w = reinterpret_cast<__m128i*>(s.w);
  _mm_storeu_si128(w, _mm_add_epi64(_mm_loadu_si128(w), d));
#else
  s.w[0] += kSlotUnit[to].w0 - kSlotUnit[from].w0;
  s.w[1] += kSlotUnit[to].w1 - kSlotUnit[from].w1;
#endif
}
// One checker of `s` moved from `slot` to the hit-out slot.
NARDY_HOT void hit_out(Side& s, int slot) noexcept { move_checker(s, slot, kHitOut); }
// True when the slot holds exactly one checker (Side::single, inlined).
NARDY_HOT bool single(const Side& s, int slot) noexcept {
  uint64_t second = 0 - uint64_t(slot >= 16);
  opaque(second);
  const uint64_t word = s.w[0] ^ ((s.w[0] ^ s.w[1]) & second);
  return ((word >> ((slot & 15) * 4)) & 0xF) == 1;
}

// The checkers on a slot (Side::count, inlined like single()).
NARDY_HOT int count(const Side& s, int slot) noexcept {
  uint64_t second = 0 - uint64_t(slot >= 16);
  opaque(second);
  const uint64_t word = s.w[0] ^ ((s.w[0] ^ s.w[1]) & second);
  return static_cast<int>((word >> ((slot & 15) * 4)) & 0xF);
}

// Point number 1..6 of an index (the die that jumps from an own index).
constexpr int point_number(int i) noexcept { return i % 6 + 1; }

// The side's prisoner mask (bit i: its checker on index i is held prisoner), stored as every
// variant with held checkers stores them (held.hpp).
constexpr uint32_t prisoners(const Side& s) noexcept { return held::mask(s); }
constexpr void set_prisoner(Side& s, int i) noexcept { held::set(s, i); }
constexpr void clear_prisoner(Side& s, int i) noexcept { held::clear(s, i); }

// Longest run of consecutive closed points (>= 2 own checkers) along the opponent's line,
// i.e. the side's indices 12..23 in order. A blockade is a run of length >= 2.
inline int longest_blockade(const Side& s) noexcept {
  uint32_t m = (s.occ2() >> 12) & 0xFFFu;
  int n = 0;
  while (m) {
    m &= m >> 1;
    ++n;
  }
  return n;
}

// Closed points on the opponent's territory (what decides a game ended without a blockade).
inline int closed_on_their_territory(const Side& s) noexcept {
  return std::popcount(s.occ2() & kTheirLine);
}

// Checkers that can still take part in a blockade: not hit out, not held prisoner (reserves
// and checkers on the own territory can still reach the opponent's territory by a jump).
inline int free_checkers(const Side& s) noexcept {
  return kCheckers - s.count(kHitOut) - std::popcount(prisoners(s));
}

// Every checker has left the starting points: none on the own territory (prisoners there
// included), no reserves.
inline bool left_start(const Side& s) noexcept {
  return (s.occ1() & kOwnLine) == 0 && s.count(kReserve) == 0;
}

enum class EndReason : uint8_t {
  None = 0,
  Blockade = 1,    // a player holds a blockade (shlem)
  NoMaterial = 2,  // neither player has four free checkers left
  LeftStart = 3,   // all of one player's checkers left its starting points
  Passes = 4,      // both players passed twice in a row (history: given by the caller)
};

struct Status {
  bool over = false;
  int winner = 0;  // +1 the player on roll, -1 the other player, 0 draw (or not over)
  int value = 0;   // points won: blockade length squared, 1 for more closed points, 0 draw
  EndReason reason = EndReason::None;
  int us_blockade = 0;    // longest run of the player on roll (blockade when >= 2)
  int them_blockade = 0;  // longest run of the other player
  bool claimable = false;  // ShlemEnd::Claim: the player on roll may claim its blockade now
};

// The state of the game in a position with `pos.us` on roll, i.e. after the other player's
// move. `passes` is the number of consecutive passed turns just before (the only end rule
// needing history; perft and rollouts that do not track it pass 0). Cheap: a few dozen bit
// operations, for rollouts.
inline Status status(const Position& pos, const Rules& rules, int passes = 0) noexcept {
  Status st;
  st.us_blockade = longest_blockade(pos.us);
  st.them_blockade = longest_blockade(pos.them);
  const bool us_b = st.us_blockade >= 2, them_b = st.them_blockade >= 2;
  auto blockade_win = [&](int winner, int len) {
    st.over = true;
    st.winner = winner;
    st.value = len * len;
    st.reason = EndReason::Blockade;
  };
  if (rules.shlem_end == ShlemEnd::Move) {
    // The player who just moved completed it; a player on roll holding one can only come
    // from a set-up position, where it ends the game too.
    if (them_b) {
      blockade_win(-1, st.them_blockade);
    } else if (us_b) {
      blockade_win(+1, st.us_blockade);
    }
    if (st.over) return st;
  } else {
    st.claimable = us_b;
  }
  EndReason why = EndReason::None;
  if (left_start(pos.us) || left_start(pos.them)) {
    why = EndReason::LeftStart;
  } else if (free_checkers(pos.us) < 4 && free_checkers(pos.them) < 4) {
    why = EndReason::NoMaterial;
  } else if (rules.shlem_pass_limit > 0 && passes >= rules.shlem_pass_limit) {
    why = EndReason::Passes;
  }
  if (why == EndReason::None) return st;
  if (us_b || them_b) {  // claim mode: an unclaimed blockade still wins, the longer first
    if (st.us_blockade >= st.them_blockade) {
      blockade_win(+1, st.us_blockade);
    } else {
      blockade_win(-1, st.them_blockade);
    }
    return st;
  }
  st.over = true;
  st.reason = why;
  const int a = closed_on_their_territory(pos.us), b = closed_on_their_territory(pos.them);
  st.winner = a > b ? +1 : a < b ? -1 : 0;
  st.value = a == b ? 0 : 1;
  return st;
}

}  // namespace shlem

struct ShlemPolicy {
  static constexpr int to_mover(int j) noexcept { return shlem::to_mover(j); }

  struct State {
    Position pos;
    uint32_t ours = 0;        // mover's occupied points
    uint32_t my_pris = 0;     // mover's checkers held prisoner (cannot move; nobody of the
                              // mover may land there: the opponent's prisoner points)
    uint32_t theirs1 = 0;     // opponent points with >= 1 checker, mover's coordinates
    uint32_t theirs2 = 0;     // opponent points with >= 2 checkers (closed), mover's coords
    uint32_t their_pris = 0;  // opponent checkers the mover holds prisoner, mover's coords
  };

  // Checkers move both ways and a step may free a prisoner, end stage 1 or open a point for
  // entering, so step order can matter. Doubles always take the any-order search. A
  // non-double's search in the smaller-die-first order skips a larger-die step from a source
  // that had one at the start (other than the checker just moved): made first, it reaches the
  // same result, unless the smaller die's first step changed what that step does. So
  // for_each_step raises the flag only for such a first step that a skipped step could
  // depend on: it freed a prisoner where a larger-die step of another checker lands, it took
  // a checker on a point where the larger die enters while reserves remain, or it entered the
  // last reserve while hitting was still barred.
  static constexpr bool kCommutativeDoubles = false;  // for enumerators that read the trait
  bool order_mattered() const noexcept { return double_turn_ || order_flag_; }
  void reset_order_flag() const noexcept { order_flag_ = false; }

  explicit ShlemPolicy(const Rules& rules = {})
      : per_player_(rules.shlem_stage == ShlemStage::PerPlayer) {}

  int begin_turn(const Position& pos, int d1, int d2, State out[2]) const noexcept {
    double_turn_ = d1 == d2;
    lo_ = d1 == d2 ? 0 : d1 < d2 ? d1 : d2;  // (0: no step is watched in a double)
    hi_ = d1 < d2 ? d2 : d1;
    State& s = out[0];
    s.pos = pos;
    s.ours = pos.us.occ1();
    s.my_pris = shlem::prisoners(pos.us);
    s.theirs1 = shlem::to_mover_mask(pos.them.occ1());
    s.theirs2 = shlem::to_mover_mask(pos.them.occ2());
    s.their_pris = shlem::to_mover_mask(shlem::prisoners(pos.them));
    return 1;
  }

  // Where a step may land: not on the opponent's closed points, nor where he holds a prisoner.
  NARDY_OCC static uint32_t landable(const State& s) noexcept { return ~(s.my_pris | s.theirs2); }

  // The checkers with a legal step of `die` (bit 24: a reserve can enter), from the state's
  // masks in one go: a checker whose every target is barred is then never tried.
  NARDY_HOT uint32_t sources(const State& s, int die) const noexcept {
    const uint32_t mine = s.ours & ~s.my_pris;
    const uint32_t open = landable(s);
    const uint32_t own = mine & shlem::kOwnLine, far = mine & shlem::kTheirLine;
    const uint32_t open_own = open & shlem::kOwnLine, open_far = open & shlem::kTheirLine;
    const uint32_t jumps = (1u << (die - 1)) | (1u << (die + 5));  // point number == die
    uint32_t src = (own & ((open_own >> die) | (open_own << die) | (jumps & (open >> 12)))) |
                   (far & ((open_far >> die) | (open_far << die)));
    // a reserve enters on an own point the opponent holds no free checker on
    if (s.pos.us.bar() && (jumps & ~(s.my_pris | (s.theirs1 & ~s.their_pris))))
      src |= 1u << kBar;
    return src;
  }

  // Every step of a checker from `from` with `die` whose target is in `targets`: f(next state,
  // step).
  template <class F>
  NARDY_HOT void for_each_step(const State& s, int from, int die, F&& f,
                               uint32_t targets = ~0u) const {
    steps<false>(s, from, die, f, targets);
  }

  // The same for a move's last step: f(resulting position, step), without the state's masks.
  static constexpr bool kLastStep = true;
  template <class F>
  NARDY_HOT void for_each_last_step(const State& s, int from, int die, F&& f,
                                    uint32_t targets = ~0u) const {
    steps<true>(s, from, die, f, targets);
  }

  bool final_ok(const State&) const noexcept { return true; }

  // Which steps of a double commute (the orders the search may skip). A step `later` from a
  // point w above the point x that `earlier` left for y can be made first, to the same state,
  // unless it goes on from y, lands on x where `earlier` freed a prisoner (it then takes that
  // checker, or hits it), or enters on y (a capture there barred the entry before). All else a
  // step does concerns its own two points, and the stage is the same for `earlier` in both
  // orders (only entering changes it, and a capture stays legal in stage 2).
  //
  // A step from y itself commutes too when `earlier` joined a checker of the mover there: that
  // checker stepping first, then `earlier` landing on y, reaches the same state (if it freed a
  // prisoner under it, `earlier` takes it again). And the step back from y to x, when
  // `earlier` took, hit and freed nothing, returns to the state before it, which a checker
  // above x stepping and coming back (tried before `earlier`) reached already.
  NARDY_OCC static uint32_t unswapped_targets(const State& s, Step earlier, int from) noexcept {
    if (from == kBar) return 1u << earlier.to;
    if (from == earlier.to && !joined(s, earlier)) return ~undone_earlier(s, earlier);
    return (1u << earlier.from) & s.theirs1 & ~s.ours;
  }

  // The sources above earlier.from that unswapped_targets() leaves a target: the checker
  // that moved when it landed alone, a reserve, and any only when `earlier` left a point a
  // step may take from.
  NARDY_OCC static uint32_t unswapped_sources(const State& s, Step earlier) noexcept {
    const bool freed = (1u << earlier.from) & s.theirs1 & ~s.ours;
    return (joined(s, earlier) ? 0u : 1u << earlier.to) | (1u << kBar) | (freed ? ~0u : 0u);
  }

  // Two steps of a non-double, neither entering, that share no point (neither starts where
  // the other lands) reach a result no other pair of steps of the two dice reaches but the
  // same two in the other order: equal results need equal changes of the mover's counts, and
  // along Shlem's lines (the jump included) two different pairs of the two dice never give
  // the same ones. Two entries of one die land 6 apart, as do the steps of 3 from one point
  // either way, so pairs with an entry may meet.
  NARDY_OCC static constexpr bool pairs_may_meet(Step a, Step b) noexcept {
    return a.to == b.from || b.to == a.from || a.from == kBar || b.from == kBar;
  }

  // Stage 2 (hitting allowed) in the position as it stands.
  bool stage2(const Position& p) const noexcept {
    return p.us.bar() == 0 || (!per_player_ && p.them.bar() == 0);
  }

 private:
  // `earlier` (the step just made) landed on a point that held a checker of the mover already.
  NARDY_OCC static bool joined(const State& s, Step earlier) noexcept {
    return earlier.to < kPoints && shlem::count(s.pos.us, earlier.to) >= 2;
  }

  // The target earlier.from of the step back from earlier.to when it undoes `earlier` (a
  // step up along a line that took, hit and freed nothing) and another checker above
  // earlier.from can step to a point free of the opponent's checkers and back (0 otherwise).
  // (Points earlier touched are left out, so the state's masks stand for the state before it.)
  NARDY_OCC static uint32_t undone_earlier(const State& s, Step e) noexcept {
    const int x = e.from, y = e.to, d = y - x;
    if (x >= kPoints || d <= 0 || (x < 12) != (y < 12) || e.hit) return 0;
    const uint32_t xb = 1u << x, yb = 1u << y;
    if ((s.their_pris & yb) || (xb & s.theirs1 & ~s.ours)) return 0;  // took or freed one
    const uint32_t movers = s.ours & ~(s.my_pris | s.their_pris | yb) & ~((2u << x) - 1);
    const uint32_t open = ~(s.theirs1 | s.my_pris | xb | yb);
    const uint32_t own = movers & shlem::kOwnLine, far = movers & shlem::kTheirLine;
    const uint32_t there = (((own << d) | (own >> d)) & shlem::kOwnLine) |
                           (((far << d) | (far >> d)) & shlem::kTheirLine);
    return (there & open) ? xb : 0u;
  }

  // The sources a step of `die` lands on `to` from (the geometry alone, no rule checked).
  static constexpr uint32_t reaching(int die, int to) noexcept {
    if (to < 12) {
      return ((to - die >= 0 ? 1u << (to - die) : 0u) | (to + die <= 11 ? 1u << (to + die) : 0u));
    }
    uint32_t m = (to - die >= 12 ? 1u << (to - die) : 0u) | (to + die <= 23 ? 1u << (to + die) : 0u);
    if (shlem::point_number(to - 12) == die) m |= 1u << (to - 12);
    return m;
  }

  template <bool kLast, class F>
  NARDY_HOT void steps(const State& s, int from, int die, F&& f, uint32_t targets) const {
    if (from == kBar) {  // enter on the own point k (index die-1) or 2k/3k (index die+5)
      if (targets >> (die - 1) & 1u) enter<kLast>(s, die - 1, die, f);
      if (targets >> (die + 5) & 1u) enter<kLast>(s, die + 5, die, f);
      return;
    }
    targets &= landable(s);
    auto to = [&](int t) NARDY_LAMBDA {
      if (targets >> t & 1u) land<kLast>(s, from, t, die, f);
    };
    if (from < 12) {  // own territory: along the own line, or the jump to the facing point
      if (from + die <= 11) to(from + die);
      if (from - die >= 0) to(from - die);
      if (from == die - 1 || from == die + 5) to(from + 12);  // point number == die, no division
    } else {  // the opponent's territory: along its line only, never back
      if (from + die <= 23) to(from + die);
      if (from - die >= 12) to(from - die);
    }
  }

  // A first step of a non-double's smaller-die-first search (see order_mattered()): every
  // step for_each_step makes is a first one there (the second is a last step).
  template <bool kLast>
  bool watched(int die) const noexcept {
    return !kLast && die == lo_;
  }

  // A reserve checker enters on an empty point or one the mover holds (with or without a
  // prisoner under it); never captures or hits.
  template <bool kLast, class F>
  NARDY_HOT void enter(const State& s, int to, int die, F&& f) const {
    const uint32_t bit = 1u << to;
    if ((s.my_pris | (s.theirs1 & ~s.their_pris)) & bit) return;
    // Entering the last reserve starts stage 2 (or the mover's stage 2): later steps may hit.
    if (watched<kLast>(die) && s.pos.us.bar() == 1 && !stage2(s.pos)) order_flag_ = true;
    const Step st{int8_t(kBar), int8_t(to), 0};
    if constexpr (kLast) {
      Position p = s.pos;
      shlem::move_checker(p.us, kBar, to);
      f(p, st);
    } else {
      State n = s;
      shlem::move_checker(n.pos.us, kBar, to);
      n.ours |= bit;
      f(n, st);
    }
  }

  template <bool kLast, class F>
  NARDY_HOT void land(const State& s, int from, int to, int die, F&& f) const {
    // (steps() passes only landable() targets)
    const uint32_t bit = 1u << to;
    const uint32_t from_bit = 1u << from;
    // The last capturer leaving frees the prisoner under it.
    const bool frees = (s.their_pris & from_bit) && shlem::single(s.pos.us, from);
    const bool takes = s.theirs1 & ~s.their_pris & bit;  // a free single opponent checker
    if (watched<kLast>(die)) {
      // Another checker landing with the larger die on the freed point would take it.
      if (frees && (reaching(hi_, from) & s.ours & ~s.my_pris & ~bit)) order_flag_ = true;
      // Taking one on the own territory opens the point for entering.
      if (takes && to < 12 && s.pos.us.bar() && (to == hi_ - 1 || to == hi_ + 5))
        order_flag_ = true;
    }
    const bool may_hit = takes && stage2(s.pos);
    const int j = shlem::to_mover(to);
    if constexpr (kLast) {
      Position p = s.pos;
      shlem::move_checker(p.us, from, to);
      if (frees) shlem::clear_prisoner(p.them, shlem::to_mover(from));
      if (!takes) {
        f(p, Step{int8_t(from), int8_t(to), 0});
        return;
      }
      Position h = p;
      shlem::set_prisoner(p.them, j);
      f(p, Step{int8_t(from), int8_t(to), 0});
      if (!may_hit) return;
      shlem::hit_out(h.them, j);
      f(h, Step{int8_t(from), int8_t(to), 1});
    } else {
      State n = s;
      shlem::move_checker(n.pos.us, from, to);
      n.ours |= bit;
      if (shlem::single(s.pos.us, from)) n.ours &= ~from_bit;
      if (frees) {
        n.their_pris &= ~from_bit;
        shlem::clear_prisoner(n.pos.them, shlem::to_mover(from));
      }
      if (!takes) {
        f(n, Step{int8_t(from), int8_t(to), 0});
        return;
      }
      State h;
      if (may_hit) h = n;
      n.their_pris |= bit;
      shlem::set_prisoner(n.pos.them, j);
      f(n, Step{int8_t(from), int8_t(to), 0});
      if (!may_hit) return;
      shlem::hit_out(h.pos.them, j);
      h.theirs1 &= ~bit;
      f(h, Step{int8_t(from), int8_t(to), 1});
    }
  }

  bool per_player_;
  mutable int lo_ = 0, hi_ = 0;  // the turn's dice, smaller and larger
  mutable bool double_turn_ = false;
  mutable bool order_flag_ = false;
};

// Shlem's game (traits.hpp): one checker on each point of the own line and three reserves,
// the end rules of shlem::status, prisoners written -1 in side arrays.
struct Shlem {
  static constexpr const char* kKey = "SHLEM";
  static constexpr VariantName kNames[] = {{"shlem"}, {"шлем"}, {"shlem nardy"}, {"helmet"}};
  using Policies = PolicyList<ShlemPolicy>;
  static constexpr int policy_index(const Rules&) noexcept { return 0; }
  static constexpr Rules step_rules(const Rules& r) noexcept { return r; }
  // The same (from, to) may take a prisoner or hit out: Step::hit says which.
  static constexpr bool kStepsMatchHit = true;

  static constexpr int kCheckers = shlem::kCheckers;
  static constexpr bool kHasBar = true;  // slot 24 holds the reserves
  static constexpr bool kHeldCheckers = true;  // prisoners, -1 in rows
  static constexpr int to_mover(int j) noexcept { return shlem::to_mover(j); }
  static constexpr SideArray start() noexcept {
    SideArray s{};
    for (int i = 0; i < 12; ++i) s[i] = 1;
    s[shlem::kReserve] = shlem::kReserves;
    return s;
  }

  // Without the pass rule, which needs history.
  static bool finished(const Position& pos, const Rules& rules) noexcept {
    return shlem::status(pos, rules).over;
  }

  // blockade (L * L points), closed_points (1), or a draw; in claim mode every policy claims
  // its blockade at the first chance.
  static constexpr const char* kKinds[] = {"blockade", "closed_points"};
  static bool game_end(const Position& pos, const Rules& rules, int on_roll, int passes,
                       Outcome& out) noexcept {
    const shlem::Status st = shlem::status(pos, rules, passes);
    if (st.over) {
      if (st.winner == 0) {
        out.winner = -1;
        out.kind = 0;
        out.points = 0;
        return true;
      }
      out.winner = st.winner > 0 ? on_roll : 1 - on_roll;
      out.kind = st.reason == shlem::EndReason::Blockade ? 0 : 1;
      out.points = st.value;
      return true;
    }
    if (st.claimable) {
      out.winner = on_roll;
      out.kind = 0;
      out.points = st.us_blockade * st.us_blockade;
      return true;
    }
    return false;
  }

  // +64 * longest blockade + 6 * closed points on the opponent's territory + 4 * opponent
  // checkers held prisoner or hit out - 4 * own prisoners + own checkers over there.
  static int greedy_score(const Position& after) noexcept {
    const Side& us = after.us;
    const Side& them = after.them;
    const uint32_t their_pris = shlem::prisoners(them);
    const uint32_t our_pris = shlem::prisoners(us);
    int on_their_territory = 0;
    for (uint32_t m = us.occ1() & shlem::kTheirLine; m; m &= m - 1)
      on_their_territory += us.count(std::countr_zero(m));
    return 64 * shlem::longest_blockade(us) + 6 * shlem::closed_on_their_territory(us) +
           4 * (std::popcount(their_pris) + them.count(shlem::kHitOut)) -
           4 * std::popcount(our_pris) + on_their_territory;
  }

  // 15 checkers a side (a prisoner, -1, counts one), at most 3 reserves; a point holds both
  // colours only as one prisoner under one or more capturers.
  static std::string validate(const SideArray& us, const SideArray& them) {
    const SideArray* sides[2] = {&us, &them};
    const char* names[2] = {"mover", "opponent"};
    for (int s = 0; s < 2; ++s) {
      const SideArray& a = *sides[s];
      std::string err = check_side(
          a, names[s], kCheckers, [](int k) { return k < kPoints ? -1 : 0; },
          [](int k) {
            return k < kPoints ? " (-1 = a prisoner, 0..15 allowed)" : " checkers (0..15 allowed)";
          },
          [](int) { return 1; });
      if (!err.empty()) return err;
      if (a[shlem::kReserve] > shlem::kReserves)
        return std::string(names[s]) + " has " + std::to_string(a[shlem::kReserve]) +
               " reserve checkers, at most 3";
    }
    for (int i = 0; i < kPoints; ++i) {
      const int j = shlem::to_mover(i);
      const int a = us[i], b = them[j];
      const std::string where =
          "mover index " + std::to_string(i) + " (opponent index " + std::to_string(j) + ")";
      if (a < 0 && b < 0) return where + ": both checkers marked prisoner";
      if (a < 0 && b == 0) return where + ": a prisoner of the mover with no capturer on it";
      if (b < 0 && a == 0) return where + ": a prisoner of the opponent with no capturer on it";
      if (a > 0 && b > 0)
        return where + ": both sides hold checkers and neither is a prisoner (mark it -1)";
    }
    return {};
  }

  static Side make_side(const SideArray& a) noexcept { return held::make_side(a); }
  static SideArray side_array(const Side& s) noexcept { return held::side_array(s); }

  // shlem::status's fields; `reason` is '', 'blockade', 'no_material', 'left_start' or
  // 'passes', the blockades are the longest runs of closed points on the opponent's line.
  static void status(const Position& pos, const Rules& rules, int passes,
                     StatusFields& out) noexcept {
    static constexpr const char* kReasons[] = {"", "blockade", "no_material", "left_start",
                                               "passes"};
    const shlem::Status st = shlem::status(pos, rules, passes);
    out.flag("over", st.over);
    out.number("winner", st.winner);
    out.number("value", st.value);
    out.word("reason", kReasons[static_cast<int>(st.reason)]);
    out.number("us_blockade", st.us_blockade);
    out.number("them_blockade", st.them_blockade);
    out.flag("claimable", st.claimable);
  }

  // Prisoners need the checks of validate(): no fast path.
  static constexpr bool pack(const int8_t*, Position&) noexcept { return false; }
};

}  // namespace nardy
