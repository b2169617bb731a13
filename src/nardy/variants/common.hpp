// Rules that several variant policies share word for word.
#pragma once

#include "nardy/movelist.hpp"
#include "nardy/position.hpp"

namespace nardy {

// Bearing off: every checker home and none waiting to enter; a die larger than needed only
// from the highest occupied point.
inline bool may_bear_off(const Side& us, int from, int to) noexcept {
  if (us.bar() || (us.occ1 & ~kHomeMask)) return false;
  return to == kBearOffTo || (us.occ1 >> (from + 1)) == 0;
}

}  // namespace nardy
