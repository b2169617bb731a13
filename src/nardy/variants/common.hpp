// Rules that several variant policies share word for word.
#pragma once

#include <bit>

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
  const uint32_t below_die = (1u << die) - 1;
  uint32_t src = ours & ~below_die;
  if (!(ours & ~kHomeMask)) {
    const uint32_t low = ours & below_die;
    const uint32_t exact = low & (1u << (die - 1));
    const uint32_t highest = src ? 0 : low ? 1u << (31 - std::countl_zero(low)) : 0;
    src |= exact | highest;
  }
  return src;
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

}  // namespace nardy
