// Rules that several variant policies share word for word.
#pragma once

#include <bit>
#include <string>

#include "nardy/movelist.hpp"
#include "nardy/position.hpp"

namespace nardy {

// Bearing off: every checker home and none waiting to enter; a die larger than needed only
// from the highest occupied point. `ours` is the side's occupancy mask.
NARDY_HOT bool may_bear_off(const Side& us, uint32_t ours, int from, int to) noexcept {
  if (us.bar() || (ours & ~kHomeMask)) return false;
  return to == kBearOffTo || (ours >> (from + 1)) == 0;
}

// Sources for a die in a race to a six-point home at indices 0..5: every occupied point at
// least `die` away, and once all checkers are home, the exact point and (overshooting) the
// highest point when nothing stands at or above the die. The rules that depend on the target
// point are the caller's.
NARDY_HOT uint32_t race_sources(uint32_t ours, int die) noexcept {
  if (ours & ~kHomeMask) return ours & ~((1u << die) - 1);
  // All home: the points at or above the exact one (index die - 1), or else the highest.
  const uint32_t src = ours & (~0u << (die - 1));
  return src ? src : (0x80000000u >> std::countl_zero(ours | 1u)) & ours;
}

// -- backgammon's geometry: the opponent's index j on the mover's 23 - j, checkers entering
// from slot 24 into the opponent's home board, blots hit --------------------------------

// The opponent's closed points (two checkers or more) and blots in the mover's coordinates.
NARDY_HOT void opposing_points(const Side& them, uint32_t& closed, uint32_t& blots) noexcept {
  uint32_t them1, them2;
  them.reversed_points(them1, them2);
  closed = them2;
  blots = them1 & ~them2;
}

// Sources for a die: while a checker waits on the bar, slot 24 alone (when its entry point,
// index 24 - die, is not closed); else race_sources() less the points whose target is closed.
// Bit 24 of `ours` stands for checkers that may enter without having to (a reserve).
NARDY_HOT uint32_t entering_sources(uint32_t ours, bool on_bar, uint32_t their_closed,
                                    int die) noexcept {
  if (on_bar) return (their_closed >> (kBar - die) & 1u) ? 0 : 1u << kBar;
  return race_sources(ours, die) & ~(their_closed << die);
}

// PlainStacks of a side's board points (`ours` may hold more bits, kept in its `ours`), and
// its checkers outside the home board with each point counted up to four: a step can bring
// the last one home only once fewer than two are out, so `steps` steps with at least `steps`
// out never make a bear-off legal before the last.
NARDY_HOT int board_stacks(const Side& us, uint32_t ours, uint32_t their_closed,
                           PlainStacks& out) noexcept {
  const uint32_t board = ours & kBoardMask, outside = board & ~kHomeMask;
  const uint32_t occ2 = us.occ2(), twos = us.points_holding(2), threes = us.points_holding(3);
  const uint32_t occ3 = occ2 & ~twos;
  out.plain = PlainSources{ours, board & ~occ2, their_closed};
  out.twos = twos;
  out.threes = threes;
  return count_bits(outside) + count_bits(outside & occ2) + count_bits(outside & occ3) +
         count_bits(outside & occ3 & ~threes);
}

// The board bit of `from` when a checker has just left it and none is left there, else 0
// (without a branch).
NARDY_HOT uint32_t vacated(const Side& side, int from) noexcept {
  return (1u << from) & kBoardMask & (0u - uint32_t(side.empty(from)));
}

// Moves one checker of `side` `die` pips down from `from` (kBar included) to `to` (from - die,
// or kOff when that is below 0) and keeps its occupancy mask `occ` right, without branches.
NARDY_HOT void move_checker(Side& side, uint32_t& occ, int from, int to, int die) noexcept {
  side.move_down(from, die);
  occ = (occ & ~vacated(side, from)) | ((1u << to) & kBoardMask);
}

// -- validate(): the checks that the variants' side arrays share -------------------------

// Slot k of side `a` (called `name` in the error) holds low(k)..most checkers (else the
// error, note(k) saying what is allowed), and the side has exactly `most` checkers, a
// negative slot counting as negative(n) of them (a held checker, checkers still to enter).
// Empty when valid.
template <class Low, class Note, class Negative>
std::string check_side(const SideArray& a, const char* name, int most, Low&& low, Note&& note,
                       Negative&& negative) {
  int total = 0;
  for (int k = 0; k < kSlots; ++k) {
    const int n = a[k];
    if (n < low(k) || n > most)
      return std::string(name) + " slot " + std::to_string(k) + " holds " + std::to_string(n) +
             note(k);
    total += n < 0 ? negative(n) : n;
  }
  if (total != most)
    return std::string(name) + " has " + std::to_string(total) + " checkers, must have exactly " +
           std::to_string(most);
  return {};
}

// No point holds checkers of both sides (to_mover(j): the mover's index of opponent index j).
template <class ToMover>
std::string check_points_apart(const SideArray& us, const SideArray& them, ToMover&& to_mover) {
  for (int j = 0; j < kPoints; ++j) {
    if (them[j] == 0) continue;
    const int i = to_mover(j);
    if (us[i] != 0)
      return "mover index " + std::to_string(i) + " and opponent index " + std::to_string(j) +
             " are the same point and both hold checkers";
  }
  return {};
}

// Longest run of set bits in a 24-bit mask.
inline int longest_run(uint32_t m) noexcept {
  int n = 0;
  while (m) {
    m &= m >> 1;
    ++n;
  }
  return n;
}

// Pips of a side (slots 0..24, slot s weighing s + 1), by table: byte b of word w holds slots
// 16 w + 2 b and 16 w + 2 b + 1.
struct PipTable {
  uint16_t t[13][256];
  constexpr PipTable() : t{} {
    for (int byte = 0; byte < 13; ++byte)
      for (int v = 0; v < 256; ++v) {
        const int s0 = (byte < 8 ? 2 * byte : 16 + 2 * (byte - 8));
        const int w0 = s0 <= kBar ? s0 + 1 : 0, w1 = s0 + 1 <= kBar ? s0 + 2 : 0;
        t[byte][v] = static_cast<uint16_t>((v & 0xF) * w0 + (v >> 4) * w1);
      }
  }
};
inline constexpr PipTable kPips{};

inline int fast_pips(const Side& s) noexcept {
  int n = 0;
  for (int b = 0; b < 8; ++b) n += kPips.t[b][(s.w[0] >> (8 * b)) & 0xFF];
  for (int b = 0; b < 5; ++b) n += kPips.t[8 + b][(s.w[1] >> (8 * b)) & 0xFF];
  return n;
}

}  // namespace nardy
