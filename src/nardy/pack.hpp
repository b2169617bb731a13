// Packing a batch row (52 int8: mover's 26 slots, opponent's 26) of a bear-off game into a
// Position, with the checks of a valid row made on the way: the fast path of the numpy batch
// calls, used through the variant's traits (BearOffGame::pack).
#pragma once

#include <cstdint>

#include "nardy/platform.hpp"
#include "nardy/position.hpp"

namespace nardy {

// Packs the row when it is valid: counts 0..kCheckers, kCheckers a side, no point held by
// both (`to_mover_mask` maps the opponent's occupied points to the mover's), nothing on the
// bar without one. False sends the caller to the variant's validate() for the message.
template <int kCheckers, bool kHasBar, class ToMoverMask>
NARDY_HOT bool pack_bear_off(const int8_t* row, Position& out, ToMoverMask to_mover_mask) noexcept {
  static_assert(kCheckers >= 1 && kCheckers <= 15, "a slot is one nibble");
  uint64_t w[4] = {0, 0, 0, 0};
  uint32_t occ[2] = {0, 0};
#if NARDY_SSE2
  // A side is 26 bytes: slots 0..15 and 10..25 in two loads that stay inside it. Counts pack
  // into nibbles pairwise (even slot low, odd slot high: a 16-bit shift and an or), the
  // occupancy is one compare with zero, the total one sum of absolute differences.
  const __m128i zero = _mm_setzero_si128();
  const __m128i most = _mm_set1_epi8(kCheckers);
  const __m128i low_bytes = _mm_set1_epi16(0x00FF);
  auto nibbles = [&](__m128i x) {
    const __m128i pairs = _mm_and_si128(_mm_or_si128(x, _mm_srli_epi16(x, 4)), low_bytes);
    return static_cast<uint64_t>(_mm_cvtsi128_si64(_mm_packus_epi16(pairs, pairs)));
  };
  auto sum = [&](__m128i x) {
    const __m128i s = _mm_sad_epu8(x, zero);
    return _mm_cvtsi128_si32(s) + _mm_cvtsi128_si32(_mm_srli_si128(s, 8));
  };
  for (int s = 0; s < 2; ++s) {
    const int8_t* side = row + s * kSlots;
    const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(side));
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(side + 10));
    // signed compares: a negative count is out of range too
    auto out_of_range = [&](__m128i x) {
      return _mm_or_si128(_mm_cmpgt_epi8(x, most), _mm_cmplt_epi8(x, zero));
    };
    const __m128i bad = _mm_or_si128(out_of_range(a), out_of_range(b));
    if (_mm_movemask_epi8(bad)) return false;
    const __m128i c = _mm_srli_si128(b, 6);  // slots 16..25, then zeros
    if (sum(a) + sum(c) != kCheckers) return false;
    if (!kHasBar && side[kBar] != 0) return false;
    w[2 * s] = nibbles(a);
    w[2 * s + 1] = nibbles(c);
    const uint32_t empty_lo = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(a, zero)));
    const uint32_t empty_hi = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(c, zero)));
    occ[s] = (~(empty_lo | empty_hi << 16)) & kBoardMask;
  }
#else
  for (int s = 0; s < 2; ++s) {
    const int8_t* side = row + s * kSlots;
    int total = 0;
    uint64_t lo = 0, hi = 0;
    uint32_t o = 0;
    for (int k = 0; k < 16; ++k) {
      const int n = side[k];
      if (static_cast<unsigned>(n) > unsigned(kCheckers)) return false;
      total += n;
      lo |= uint64_t(n) << (4 * k);
      o |= uint32_t(n != 0) << k;
    }
    for (int k = 16; k < kSlots; ++k) {
      const int n = side[k];
      if (static_cast<unsigned>(n) > unsigned(kCheckers)) return false;
      total += n;
      hi |= uint64_t(n) << (4 * (k - 16));
      if (k < kPoints) o |= uint32_t(n != 0) << k;
    }
    if (total != kCheckers) return false;
    if (!kHasBar && side[kBar] != 0) return false;
    w[2 * s] = lo;
    w[2 * s + 1] = hi;
    occ[s] = o;
  }
#endif
  if (occ[0] & to_mover_mask(occ[1])) return false;
  out.us.w[0] = w[0];
  out.us.w[1] = w[1];
  out.them.w[0] = w[2];
  out.them.w[1] = w[3];
  return true;
}

}  // namespace nardy
