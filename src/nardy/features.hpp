// Neural-net input encodings computed on rows of side arrays (float32 out).
//
// A row is 52 int8: side 0's 26 slots then side 1's 26 slots, each in that side's OWN
// coordinates (docs/coordinates.md: 0..23 points by distance, 24 bar / Shlem reserves,
// 25 borne off / Shlem hit out; Shlem writes a prisoner as -1). A position (mover on roll) is
// the row (mover, opponent); an afterstate as the batch calls return it is (player who just
// moved, player to roll next), i.e. side 1 on roll. `on_roll` (0 or 1) says which side of the
// row is to roll next.
//
// TDGammon (198 floats), after Tesauro's description (Sutton & Barto, ch. 16.1):
//   for side s = 0, 1, block of 98 starting at 98 * s:
//     [4 i + 0 .. 4 i + 3] for point index i = 0..23 with n checkers:
//         n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3 else 0
//     [96] bar / 2        [97] borne off / 15
//   [196] 1 if side 0 is on roll, [197] 1 if side 1 is on roll.
//   Each side's points are in its own coordinates (index i = i + 1 pips from bearing off), the
//   row's side 0 playing TD-Gammon's "white".
// Gnubg (200 floats): gnubg's base inputs (lib/inputs.c baseInputs), the first 200 of its
//   contact/crashed nets, on gnubg's board anBoard[2][25] where anBoard[1] is the side on roll:
//   for j = 0 (the side NOT on roll), 1 (the side on roll), block of 100 at 100 * j:
//     [4 i .. 4 i + 3], points i = 0..23, n checkers: n == 1, n == 2, n >= 3,
//         (n - 3) / 2 if n > 3 else 0
//     [96 .. 99] the bar, as a thermometer: n >= 1, n >= 2, n >= 3, (n - 3) / 2 if n > 3
//   No side-to-move units (gnubg always evaluates from the side on roll).
// Long (198 floats), long nardy (no bar, no hitting; blocks and the race matter):
//   for side s, block of 98 at 98 * s:
//     [4 i .. 4 i + 3], points i = 0..23 (i = 23 the head): n >= 1, n >= 2, n >= 3,
//         (n - 3) / 4 if n > 3 else 0 (the head's 15 gives 3.0)
//     [96] borne off / 15      [97] pips / 360 (pips = sum (i + 1) n_i; 360 at the start)
//   [196] 1 if side 0 is on roll, [197] 1 if side 1 is on roll.
// Shlem (202 floats):
//   for side s, block of 100 at 100 * s:
//     [4 i .. 4 i + 3], indices i = 0..23 (0..11 own line, 12..23 the opponent's territory),
//         f = the side's free checkers there (0 if a prisoner):
//         f >= 1, f >= 2, (f - 2) / 4 if f > 2 else 0, 1 if the side's checker there is held
//         prisoner
//     [96] reserves / 3   [97] hit out / 15   [98] longest run of closed points (>= 2 own
//     checkers) on indices 12..23 / 12   [99] closed points on indices 12..23 / 12
//   [200] 1 if side 0 is on roll, [201] 1 if side 1 is on roll.
// Plakoto (244 floats), pinned checkers as their own plane:
//   for side s, block of 121 at 121 * s:
//     [4 i .. 4 i + 3], points i = 0..23, f = the side's free checkers there (0 where its
//         checker is pinned): f >= 1, f >= 2, f >= 3, (f - 3) / 2 if f > 3 else 0
//     [96 + i], i = 0..23: 1 if the side's checker on index i is pinned (i = 23: the mother)
//     [120] borne off / 15
//   [242] 1 if side 0 is on roll, [243] 1 if side 1 is on roll.
//
// Which rows are valid is a request to the variant's engine (EngineCore::encode): a held
// checker (-1) is allowed where the variant has one, or where the encoding has a unit for it.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "nardy/platform.hpp"

#include "nardy/position.hpp"

namespace nardy {

enum class Encoding : uint8_t { TDGammon = 0, Gnubg = 1, Long = 2, Shlem = 3, Plakoto = 4 };
inline constexpr int kEncodings = 5;

inline constexpr int kRowBytes = 2 * kSlots;

constexpr int encoding_width(Encoding e) noexcept {
  switch (e) {
    case Encoding::TDGammon:
      return 198;
    case Encoding::Gnubg:
      return 200;
    case Encoding::Long:
      return 198;
    case Encoding::Shlem:
      return 202;
    case Encoding::Plakoto:
      return 244;
  }
  return 0;
}

// The encoding has a unit for a held checker (a Shlem prisoner, a Plakoto pin), so it reads a
// -1 in any row; the others count a held checker as one of its owner's.
constexpr bool reads_held(Encoding e) noexcept {
  return e == Encoding::Shlem || e == Encoding::Plakoto;
}

// Writes the 52 int8 of a packed position: side arrays of us then them, with the variant's
// spare bits (position.hpp) as its side arrays show them: a held checker as -1 on its point,
// or checkers still to enter as -n in slot 25. Zero spare bits cost one test.
inline void unpack_row(const Position& p, int8_t* row, SpareBits spare) noexcept {
#if NARDY_SSE2
  // Even and odd nibbles of a word, interleaved bytewise: 16 counts in one unpack.
  const __m128i low4 = _mm_set1_epi8(0x0F);
  auto spread = [&](uint64_t w) {
    const __m128i v = _mm_cvtsi64_si128(static_cast<long long>(w));
    return _mm_unpacklo_epi8(_mm_and_si128(v, low4), _mm_and_si128(_mm_srli_epi64(v, 4), low4));
  };
  // Straight into the row, four 16-byte stores inside its 52 bytes: slots 0..15 and 10..25 of
  // each side (the overlap is written twice with the same counts). A staging buffer copied
  // out afterwards would stall every row on store forwarding.
  auto slots_10_to_25 = [](__m128i lo, __m128i hi) {
    return _mm_or_si128(_mm_srli_si128(lo, 10), _mm_slli_si128(hi, 6));
  };
  const __m128i us0 = spread(p.us.w[0]), us1 = spread(p.us.w[1]);
  const __m128i them0 = spread(p.them.w[0]), them1 = spread(p.them.w[1]);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(row), us0);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(row + 10), slots_10_to_25(us0, us1));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(row + kSlots), them0);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(row + kSlots + 10), slots_10_to_25(them0, them1));
#else
  const Side* sides[2] = {&p.us, &p.them};
  for (int s = 0; s < 2; ++s) {
    const uint64_t lo = sides[s]->w[0], hi = sides[s]->w[1];
    int8_t* dst = row + s * kSlots;
    for (int k = 0; k < 16; ++k) dst[k] = static_cast<int8_t>((lo >> (4 * k)) & 0xF);
    for (int k = 0; k < 10; ++k) dst[16 + k] = static_cast<int8_t>((hi >> (4 * k)) & 0xF);
  }
#endif
  if ((p.us.w[1] | p.them.w[1]) >> kReserveShift) {
    const Side* sides[2] = {&p.us, &p.them};
    for (int s = 0; s < 2; ++s) {
      const uint64_t spare_bits = sides[s]->w[1] >> kReserveShift;
      if (spare == SpareBits::Reserve) {
        if (spare_bits & 0xF) row[s * kSlots + kOff] = static_cast<int8_t>(-(spare_bits & 0xF));
        continue;
      }
      uint32_t held = static_cast<uint32_t>(spare_bits) & kBoardMask;
      while (held) {
        row[s * kSlots + std::countr_zero(held)] = -1;
        held &= held - 1;
      }
    }
  }
}

// Checks that every value of the rows is a count 0..15 (-1 allowed when `prisoners`); returns
// the index of the first bad row or -1.
long check_rows(const int8_t* rows, size_t n, bool prisoners) noexcept;

// Encodes n rows into out (n x encoding_width(e), row-major). on_roll: one 0/1 per row, or
// nullptr to use `on_roll_all` for every row. Values are not checked (see check_rows).
void encode_rows(Encoding e, const int8_t* rows, size_t n, const uint8_t* on_roll,
                 int on_roll_all, float* out) noexcept;

// One row.
void encode_row(Encoding e, const int8_t* row, int on_roll, float* out) noexcept;

}  // namespace nardy
