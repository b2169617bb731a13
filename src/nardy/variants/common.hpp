// Rules that several variant policies share word for word.
#pragma once

#include "nardy/movelist.hpp"
#include "nardy/position.hpp"

namespace nardy {

// Bearing off: every checker home and none waiting to enter; a die larger than needed only
// from the highest occupied point. `ours` is the side's occupancy mask.
NARDY_HOT bool may_bear_off(const Side& us, uint32_t ours, int from, int to) noexcept {
  if (us.bar() || (ours & ~kHomeMask)) return false;
  return to == kBearOffTo || (ours >> (from + 1)) == 0;
}

// Moves one checker of `side` between slots (kBar/kOff included) and keeps its occupancy
// mask `occ` right, without branches.
NARDY_HOT void move_checker(Side& side, uint32_t& occ, int from, int to) noexcept {
  side.remove(from);
  side.add(to);
  const uint32_t emptied = (1u << from) & kBoardMask & (0u - uint32_t(side.empty(from)));
  occ = (occ & ~emptied) | ((1u << to) & kBoardMask);
}

}  // namespace nardy
