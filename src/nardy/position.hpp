// Packed positions shared by every variant.
//
// A position is stored from the point of view of the player on roll (the "mover"). Each side
// is kept in its OWN coordinates: point index i (0..23) holds checkers that need i+1 pips to
// bear off, index 23 is the farthest point (backgammon 24-point, long-nardy head). Which mover
// index an opponent index lies on is the variant's business (see the policies), never this
// file's.
//
// Layout of one side, 26 nibbles in two 64-bit words (4 bits a slot, counts 0..15):
//   lo: nibble k      = checkers on point k,        k = 0..15
//   hi: nibble k      = checkers on point 16 + k,   k = 0..7
//       nibble 8      = checkers waiting to enter (backgammon bar)          (slot 24)
//       nibble 9      = checkers borne off                                 (slot 25)
//       nibbles 10-15 = zero (reserved for variant state)
// Alongside the counts each side keeps two 24-bit occupancy masks in its own coordinates:
//   occ1 bit i = point i holds >= 1 checker, occ2 bit i = point i holds >= 2 checkers.
// The masks are derived data: equality and hashing look at the four count words only.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace nardy {

inline constexpr int kPoints = 24;
inline constexpr int kBar = 24;      // slot of checkers waiting to enter
inline constexpr int kOff = 25;      // slot of borne-off checkers
inline constexpr int kSlots = 26;
inline constexpr int kCheckers = 15;
inline constexpr uint32_t kBoardMask = (1u << kPoints) - 1;
inline constexpr uint32_t kHomeMask = 0x3Fu;  // indices 0..5

struct Side {
  uint64_t lo = 0;
  uint64_t hi = 0;
  uint32_t occ1 = 0;
  uint32_t occ2 = 0;

  [[nodiscard]] constexpr int count(int slot) const noexcept {
    const uint64_t w = slot < 16 ? lo : hi;
    return static_cast<int>((w >> ((slot & 15) * 4)) & 0xF);
  }
  [[nodiscard]] constexpr int bar() const noexcept { return static_cast<int>((hi >> 32) & 0xF); }
  [[nodiscard]] constexpr int off() const noexcept { return static_cast<int>((hi >> 36) & 0xF); }

  constexpr void add(int slot) noexcept {
    const int before = count(slot);
    (slot < 16 ? lo : hi) += uint64_t{1} << ((slot & 15) * 4);
    if (slot < kPoints) {
      occ1 |= 1u << slot;
      if (before >= 1) occ2 |= 1u << slot;
    }
  }
  constexpr void remove(int slot) noexcept {
    const int before = count(slot);
    (slot < 16 ? lo : hi) -= uint64_t{1} << ((slot & 15) * 4);
    if (slot < kPoints) {
      if (before == 1) occ1 &= ~(1u << slot);
      if (before == 2) occ2 &= ~(1u << slot);
    }
  }
  constexpr void set(int slot, int n) noexcept {
    uint64_t& w = slot < 16 ? lo : hi;
    const int shift = (slot & 15) * 4;
    w = (w & ~(uint64_t{0xF} << shift)) | (uint64_t(n & 0xF) << shift);
    if (slot < kPoints) {
      const uint32_t bit = 1u << slot;
      occ1 = n >= 1 ? occ1 | bit : occ1 & ~bit;
      occ2 = n >= 2 ? occ2 | bit : occ2 & ~bit;
    }
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
    return a.lo == b.lo && a.hi == b.hi;
  }
};

struct Position {
  Side us;    // the player on roll
  Side them;  // the opponent, in the opponent's own coordinates

  [[nodiscard]] constexpr Position swapped() const noexcept { return Position{them, us}; }

  friend constexpr bool operator==(const Position& a, const Position& b) noexcept {
    return a.us == b.us && a.them == b.them;
  }

  [[nodiscard]] uint64_t hash() const noexcept {
    // Two rounds of multiply-xorshift over the four count words; cheap and well mixed.
    uint64_t h = us.lo * 0x9E3779B97F4A7C15ull;
    h ^= (us.hi + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h = (h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ull;
    h ^= (them.lo + 0x94D049BB133111EBull) * 0x9E3779B97F4A7C15ull;
    h ^= (them.hi + 0x2545F4914F6CDD1Dull) * 0xC2B2AE3D27D4EB4Full;
    return h ^ (h >> 31);
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

// Reverses the 24 low bits: backgammon maps the opponent's index j to the mover's 23 - j.
constexpr uint32_t reverse24(uint32_t x) noexcept {
  x = ((x >> 1) & 0x555555u) | ((x & 0x555555u) << 1);
  x = ((x >> 2) & 0x333333u) | ((x & 0x333333u) << 2);
  x = ((x >> 4) & 0x0F0F0Fu) | ((x & 0x0F0F0Fu) << 4);
  // bytes b0 b1 b2 -> b2 b1 b0
  return ((x & 0xFFu) << 16) | (x & 0xFF00u) | ((x >> 16) & 0xFFu);
}

// Rotates the 24 low bits left by 12: long nardy maps opponent index j to mover (j + 12) % 24.
constexpr uint32_t rotate24_half(uint32_t x) noexcept {
  return ((x << 12) | (x >> 12)) & kBoardMask;
}

}  // namespace nardy
