// Packed positions shared by every variant.
//
// A position is stored from the point of view of the player on roll (the "mover"). Each side
// is kept in its OWN coordinates: point index i (0..23) holds checkers that need i+1 pips to
// bear off, index 23 is the farthest point (backgammon 24-point, long-nardy head). Which mover
// index an opponent index lies on is the variant's business (see the policies), never this
// file's.
//
// Layout of one side, 26 nibbles in two 64-bit words (4 bits a slot, counts 0..15):
//   w[0]: nibble k      = checkers on point k,        k = 0..15
//   w[1]: nibble k      = checkers on point 16 + k,   k = 0..7
//         nibble 8      = checkers waiting to enter (backgammon bar)          (slot 24)
//         nibble 9      = checkers borne off                                 (slot 25)
//         nibbles 10-15 = zero (reserved for variant state)
// Occupancy masks (24 bits, own coordinates) come from the words with a handful of bit
// operations: occ1() bit i = point i holds >= 1 checker, occ2() = >= 2 checkers. The move
// enumerator keeps the masks it needs up to date in its search state, so a Position is just
// the four count words: equality is four word compares, the hash mixes four words.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "nardy/platform.hpp"

namespace nardy {

inline constexpr int kPoints = 24;
inline constexpr int kBar = 24;      // slot of checkers waiting to enter
inline constexpr int kOff = 25;      // slot of borne-off checkers
inline constexpr int kSlots = 26;
// The most checkers one slot holds (a nibble). How many a side has is the variant's
// (traits.hpp: kCheckers).
inline constexpr int kMaxCount = 15;
inline constexpr uint32_t kBoardMask = (1u << kPoints) - 1;
inline constexpr uint32_t kHomeMask = 0x3Fu;  // indices 0..5

// What a variant keeps in nibbles 10-15 of a side's w[1] (bits 40..63), as its traits say
// (traits.hpp: kSpareBits), for the code that writes side arrays without the traits (batch
// rows, features.hpp's unpack_row).
enum class SpareBits : uint8_t {
  Held = 0,     // a mask of the side's checkers held by the opponent (bits 40 + i, point i),
                // -1 in side arrays (Shlem's prisoners, Plakoto's pins); zero elsewhere
  Reserve = 1,  // nibble 10: checkers still to enter, -n in slot 25 (none is borne off then)
};
inline constexpr int kReserveShift = 40;  // bit of the reserve nibble (SpareBits::Reserve)

// Gathers the flags at bits 0, 4, 8, ..., 60 of x into bits 0..15.
constexpr uint32_t gather_nibble_flags(uint64_t x) noexcept {
  x = (x | (x >> 3)) & 0x0303030303030303ull;
  x = (x | (x >> 6)) & 0x000F000F000F000Full;
  x = (x | (x >> 12)) & 0x000000FF000000FFull;
  x = (x | (x >> 24)) & 0xFFFFull;
  return static_cast<uint32_t>(x);
}

inline constexpr uint64_t kNibbleLowBits = 0x1111111111111111ull;

// Set bits of a 32-bit mask. Portable builds (no -mpopcnt) compile std::popcount to a call
// into libgcc; these dozen inline operations are cheaper than that call, and GCC turns them
// into one popcnt instruction inside a function built for it (NARDY_POPCNT_CLONES).
constexpr int count_bits(uint32_t x) noexcept {
#if defined(__POPCNT__)
  return std::popcount(x);
#else
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  x = (x + (x >> 4)) & 0x0F0F0F0Fu;
  return static_cast<int>((x * 0x01010101u) >> 24);
#endif
}

// One checker in each slot, as the two words of a side.
struct SlotUnit {
  uint64_t w0, w1;
};
inline constexpr std::array<SlotUnit, 32> kSlotUnit = [] {
  std::array<SlotUnit, 32> t{};
  for (int slot = 0; slot < 26; ++slot) {
    const uint64_t one = uint64_t{1} << ((slot & 15) * 4);
    t[slot] = slot < 16 ? SlotUnit{one, 0} : SlotUnit{0, one};
  }
  return t;
}();

// The four bits of each slot, as the two words of a side.
inline constexpr std::array<SlotUnit, 32> kSlotNibble = [] {
  std::array<SlotUnit, 32> t{};
  for (int slot = 0; slot < 32; ++slot)
    t[slot] = {kSlotUnit[slot].w0 * 0xF, kSlotUnit[slot].w1 * 0xF};
  return t;
}();

// One checker moved `die` pips down from `slot` (borne off below index 0), as the change of
// the two words: one table entry instead of two. Wrapping arithmetic keeps it exact, since the
// counts before and after are both valid.
inline constexpr std::array<std::array<SlotUnit, 8>, 32> kStepDelta = [] {
  std::array<std::array<SlotUnit, 8>, 32> t{};
  for (int from = 0; from < 26; ++from) {
    for (int die = 1; die <= 6; ++die) {
      const int to = from - die >= 0 ? from - die : kOff;
      t[from][die] = {kSlotUnit[to].w0 - kSlotUnit[from].w0,
                      kSlotUnit[to].w1 - kSlotUnit[from].w1};
    }
  }
  return t;
}();

// Bits of each byte in reverse order.
inline constexpr std::array<uint8_t, 256> kReversedByte = [] {
  std::array<uint8_t, 256> t{};
  for (int v = 0; v < 256; ++v) {
    int r = 0;
    for (int b = 0; b < 8; ++b) r |= ((v >> b) & 1) << (7 - b);
    t[v] = static_cast<uint8_t>(r);
  }
  return t;
}();

// Reverses the 24 low bits: backgammon maps the opponent's index j to the mover's 23 - j.
// (Three byte lookups: the shift-and-mask ladder cost a pass a third of its instructions.)
constexpr uint32_t reverse24(uint32_t x) noexcept {
  return uint32_t{kReversedByte[x & 0xFF]} << 16 | uint32_t{kReversedByte[(x >> 8) & 0xFF]} << 8 |
         uint32_t{kReversedByte[(x >> 16) & 0xFF]};
}

struct Side {
  uint64_t w[2] = {0, 0};

  [[nodiscard]] constexpr int count(int slot) const noexcept {
    return static_cast<int>(((slot < 16 ? w[0] : w[1]) >> ((slot & 15) * 4)) & 0xF);
  }
  [[nodiscard]] constexpr int bar() const noexcept { return static_cast<int>((w[1] >> 32) & 0xF); }
  [[nodiscard]] constexpr int off() const noexcept { return static_cast<int>((w[1] >> 36) & 0xF); }

  // Both words are updated from a table of per-slot units: indexing w[slot >> 4] would keep
  // the side in memory through the whole move search, and a shift plus select costs more.
  constexpr void add(int slot) noexcept {
    w[0] += kSlotUnit[slot].w0;
    w[1] += kSlotUnit[slot].w1;
  }
  constexpr void remove(int slot) noexcept {
    w[0] -= kSlotUnit[slot].w0;
    w[1] -= kSlotUnit[slot].w1;
  }
  // One checker `die` pips down from `slot`, or off when that is below index 0.
  constexpr void move_down(int slot, int die) noexcept { add_words(kStepDelta[slot][die]); }
  // Adds a two-word delta (wrapping). With SSE2 the side stays one vector: built in two general
  // registers and stored as two words, a result is then read back whole (copied, compared),
  // and that load waits for both stores to retire (no store forwarding): a stall a move.
  constexpr void add_words(const SlotUnit& d) noexcept {
#if NARDY_SSE2
    if (!std::is_constant_evaluated()) {
      const __m128i v = _mm_add_epi64(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w)),
                                      _mm_loadu_si128(reinterpret_cast<const __m128i*>(&d)));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(w), v);
      return;
    }
#endif
    w[0] += d.w0;
    w[1] += d.w1;
  }
  // True when the slot holds no checker.
  [[nodiscard]] constexpr bool empty(int slot) const noexcept {
    return ((w[0] & kSlotNibble[slot].w0) | (w[1] & kSlotNibble[slot].w1)) == 0;
  }
  // True when the slot holds exactly one checker (the word picked arithmetically: a branch on
  // which word it is would be as good as random).
  [[nodiscard]] constexpr bool single(int slot) const noexcept {
    uint64_t second = 0 - uint64_t(slot >= 16);
    opaque(second);  // left alone, GCC branches
    const uint64_t word = w[0] ^ ((w[0] ^ w[1]) & second);
    return ((word >> ((slot & 15) * 4)) & 0xF) == 1;
  }
  constexpr void set(int slot, int n) noexcept {
    const int shift = (slot & 15) * 4;
    w[slot >> 4] = (w[slot >> 4] & ~(uint64_t{0xF} << shift)) | (uint64_t(n & 0xF) << shift);
  }

  // Points holding at least one checker.
  [[nodiscard]] NARDY_OCC uint32_t occ1() const noexcept { return points_above(0); }
  // Points holding at least two checkers.
  [[nodiscard]] NARDY_OCC uint32_t occ2() const noexcept { return points_above(1); }

  // Points holding exactly n checkers (n < 16): the nibbles equal to n, found as the zero
  // nibbles of the words xor n in every nibble.
  [[nodiscard]] NARDY_OCC constexpr uint32_t points_holding(int n) const noexcept {
    const uint64_t pattern = kNibbleLowBits * static_cast<uint64_t>(n);
    const auto zeros = [](uint64_t x) {
      return ~(x | x >> 1 | x >> 2 | x >> 3) & kNibbleLowBits;
    };
    return gather_nibble_flags(zeros(w[0] ^ pattern)) |
           (gather_nibble_flags(zeros(w[1] ^ pattern)) & 0xFFu) << 16;
  }

  // Bit i set when point i holds more than k checkers (k = 0 or 1).
  [[nodiscard]] NARDY_OCC uint32_t points_above(int k) const noexcept {
#if NARDY_SSE2
    // The 24 point counts as bytes (even and odd nibbles interleaved), one compare, one mask.
    const __m128i low4 = _mm_set1_epi8(0x0F);
    const __m128i v = _mm_set_epi64x(static_cast<long long>(w[1]), static_cast<long long>(w[0]));
    const __m128i even = _mm_and_si128(v, low4);
    const __m128i odd = _mm_and_si128(_mm_srli_epi64(v, 4), low4);
    const __m128i kk = _mm_set1_epi8(static_cast<char>(k));
    const uint32_t lo = static_cast<uint32_t>(
        _mm_movemask_epi8(_mm_cmpgt_epi8(_mm_unpacklo_epi8(even, odd), kk)));
    const uint32_t hi = static_cast<uint32_t>(
        _mm_movemask_epi8(_mm_cmpgt_epi8(_mm_unpackhi_epi8(even, odd), kk)));
    return (lo | hi << 16) & kBoardMask;
#else
    // Nibble-wise "any of bits k.. set" (k is 0 or 1 here), then the flags gathered.
    const auto flags = [k](uint64_t x) {
      return ((k == 0 ? x : 0) | x >> 1 | x >> 2 | x >> 3) & kNibbleLowBits;
    };
    return gather_nibble_flags(flags(w[0])) | (gather_nibble_flags(flags(w[1])) & 0xFFu) << 16;
#endif
  }

  // points_above(0) and points_above(1) seen from the other end of the board (bit i for point
  // 23 - i): the opponent in backgammon's mover coordinates, the count bytes reversed once
  // instead of two masks bit by bit.
  NARDY_OCC void reversed_points(uint32_t& above0, uint32_t& above1) const noexcept {
#if NARDY_SSE2
    const auto reverse_bytes = [](__m128i x) {
      x = _mm_or_si128(_mm_slli_epi16(x, 8), _mm_srli_epi16(x, 8));
      x = _mm_shufflehi_epi16(_mm_shufflelo_epi16(x, 0x1B), 0x1B);
      return _mm_shuffle_epi32(x, 0x4E);
    };
    const __m128i low4 = _mm_set1_epi8(0x0F);
    const __m128i v = _mm_set_epi64x(static_cast<long long>(w[1]), static_cast<long long>(w[0]));
    const __m128i even = _mm_and_si128(v, low4);
    const __m128i odd = _mm_and_si128(_mm_srli_epi64(v, 4), low4);
    const __m128i lo = reverse_bytes(_mm_unpacklo_epi8(even, odd));  // byte b: point 15 - b
    const __m128i hi = reverse_bytes(_mm_unpackhi_epi8(even, odd));  // byte b: slot 31 - b
    const auto above = [&](int k) {
      const __m128i kk = _mm_set1_epi8(static_cast<char>(k));
      const uint32_t l = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpgt_epi8(lo, kk)));
      const uint32_t h = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpgt_epi8(hi, kk)));
      return (h >> 8 | l << 8) & kBoardMask;
    };
    above0 = above(0);
    above1 = above(1);
#else
    above0 = reverse24(points_above(0));
    above1 = reverse24(points_above(1));
#endif
  }

  // Checkers on the board, on the bar and off, summed nibble-wise.
  [[nodiscard]] constexpr int total() const noexcept {
    int n = 0;
    for (int s = 0; s < kSlots; ++s) n += count(s);
    return n;
  }
  // Pips needed to bear everything off in the side's own coordinates (bar counts as 25).
  [[nodiscard]] constexpr int pips() const noexcept {
    int n = 0;
    for (int s = 0; s <= kBar; ++s) n += (s + 1) * count(s);
    return n;
  }

  friend constexpr bool operator==(const Side& a, const Side& b) noexcept {
    return a.w[0] == b.w[0] && a.w[1] == b.w[1];
  }
};

struct Position {
  Side us;    // the player on roll
  Side them;  // the opponent, in the opponent's own coordinates

  [[nodiscard]] constexpr Position swapped() const noexcept { return Position{them, us}; }

  NARDY_OCC friend constexpr bool operator==(const Position& a, const Position& b) noexcept {
    return a.us == b.us && a.them == b.them;
  }

  [[nodiscard]] NARDY_OCC uint64_t hash() const noexcept {
    // One multiply per word, folded: the four words differ in few nibbles, the odd
    // multipliers spread each nibble over the high bits, the fold brings them down.
    const uint64_t h = us.w[0] * 0x9E3779B97F4A7C15ull ^ us.w[1] * 0xC2B2AE3D27D4EB4Full ^
                       them.w[0] * 0x165667B19E3779F9ull ^ them.w[1] * 0xD6E8FEB86659FD93ull;
    return h ^ (h >> 29) ^ (h >> 47);
  }
};

using SideArray = std::array<int, kSlots>;

// Builds a side from slot counts; the caller validates the counts.
inline Side make_side(const SideArray& a) noexcept {
  Side s;
  for (int k = 0; k < kSlots; ++k) s.set(k, a[k]);
  return s;
}

inline SideArray side_array(const Side& s) noexcept {
  SideArray a{};
  for (int k = 0; k < kSlots; ++k) a[k] = s.count(k);
  return a;
}

// Rotates the 24 low bits left by 12: long nardy maps opponent index j to mover (j + 12) % 24.
constexpr uint32_t rotate24_half(uint32_t x) noexcept {
  return ((x << 12) | (x >> 12)) & kBoardMask;
}

}  // namespace nardy
