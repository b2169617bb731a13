// Checkers held on their point by an opponent checker on top (Shlem's prisoners, Plakoto's
// pinned checkers), shared by the variants that have them. The mask lives in position.hpp's
// variant nibbles 10..15 of a Side's high word (slots 26..31, bits 40..63): bit i set = this
// side's single checker on its own index i is held. It is part of the packed key, so equality,
// hashing and deduplication see it. In side arrays a held checker is written -1 on its index.
#pragma once

#include <cstdint>

#include "nardy/position.hpp"

namespace nardy::held {

inline constexpr int kShift = 40;  // bit of index 0 in Side::w[1]

// (Forced inline: left to GCC, the large search functions call them out of line.)
NARDY_OCC constexpr uint32_t mask(const Side& s) noexcept {
  return static_cast<uint32_t>(s.w[1] >> kShift) & kBoardMask;
}
NARDY_OCC constexpr void set(Side& s, int i) noexcept {
  s.w[1] |= uint64_t{1} << (kShift + i);
}
NARDY_OCC constexpr void clear(Side& s, int i) noexcept {
  s.w[1] &= ~(uint64_t{1} << (kShift + i));
}

// A side array with -1 for a held checker, and back.
inline Side make_side(const SideArray& a) noexcept {
  Side s;
  for (int k = 0; k < kSlots; ++k) s.set(k, a[k] < 0 ? 1 : a[k]);
  for (int k = 0; k < kPoints; ++k)
    if (a[k] < 0) set(s, k);
  return s;
}
inline SideArray side_array(const Side& s) noexcept {
  SideArray a{};
  const uint32_t m = mask(s);
  for (int k = 0; k < kSlots; ++k) a[k] = (k < kPoints && (m >> k & 1u)) ? -1 : s.count(k);
  return a;
}

}  // namespace nardy::held
