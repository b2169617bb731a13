#include "nardy/features.hpp"

#include <bit>
#include <cstring>

namespace nardy {

namespace {

// Per-count unit tables (counts 0..15), four floats each.
struct Tables {
  float thermo2[16][4];   // n>=1, n>=2, n>=3, (n-3)/2     TD-Gammon points, gnubg bar
  float gnubg[16][4];     // n==1, n==2, n>=3, (n-3)/2     gnubg points
  float thermo4[16][4];   // n>=1, n>=2, n>=3, (n-3)/4     long nardy points
  float shlem[16][4];     // f>=1, f>=2, (f-2)/4, 0        Shlem free checkers
  constexpr Tables() : thermo2{}, gnubg{}, thermo4{}, shlem{} {
    for (int n = 0; n < 16; ++n) {
      const float ge1 = n >= 1, ge2 = n >= 2, ge3 = n >= 3;
      const float over3 = n > 3 ? static_cast<float>(n - 3) : 0.0f;
      thermo2[n][0] = ge1;
      thermo2[n][1] = ge2;
      thermo2[n][2] = ge3;
      thermo2[n][3] = over3 / 2.0f;
      gnubg[n][0] = n == 1;
      gnubg[n][1] = n == 2;
      gnubg[n][2] = ge3;
      gnubg[n][3] = over3 / 2.0f;
      thermo4[n][0] = ge1;
      thermo4[n][1] = ge2;
      thermo4[n][2] = ge3;
      thermo4[n][3] = over3 / 4.0f;
      shlem[n][0] = ge1;
      shlem[n][1] = ge2;
      shlem[n][2] = n > 2 ? static_cast<float>(n - 2) / 4.0f : 0.0f;
      shlem[n][3] = 0.0f;
    }
  }
};

constexpr Tables kTables{};

inline void put4(float* dst, const float (&src)[4]) noexcept { std::memcpy(dst, src, 16); }

// Checkers on a point as the encodings without a unit for a held checker see them: -1 (one
// checker held prisoner or pinned there) counts as one checker of its owner.
constexpr int on_point(int8_t n) noexcept { return n < 0 ? 1 : n; }

// A negative borne-off slot counts checkers still to enter (variants whose checkers start off
// the board): the encodings see them as on the bar, waiting to enter as hit checkers do.
constexpr int on_bar(const int8_t* side) noexcept {
  return side[kBar] + (side[kOff] < 0 ? -side[kOff] : 0);
}
constexpr int borne_off(const int8_t* side) noexcept { return side[kOff] < 0 ? 0 : side[kOff]; }

void tdgammon(const int8_t* row, int on_roll, float* out) noexcept {
  for (int s = 0; s < 2; ++s) {
    const int8_t* side = row + s * kSlots;
    float* o = out + 98 * s;
    for (int i = 0; i < kPoints; ++i) put4(o + 4 * i, kTables.thermo2[on_point(side[i]) & 0xF]);
    o[96] = on_bar(side) / 2.0f;
    o[97] = borne_off(side) / 15.0f;
  }
  out[196] = on_roll == 0;
  out[197] = on_roll == 1;
}

void gnubg(const int8_t* row, int on_roll, float* out) noexcept {
  for (int j = 0; j < 2; ++j) {
    // anBoard[0] = the side not on roll, anBoard[1] = the side on roll
    const int8_t* side = row + (j == 1 ? on_roll : 1 - on_roll) * kSlots;
    float* o = out + 100 * j;
    for (int i = 0; i < kPoints; ++i) put4(o + 4 * i, kTables.gnubg[on_point(side[i]) & 0xF]);
    put4(o + 96, kTables.thermo2[on_bar(side) & 0xF]);
  }
}

void long_nardy(const int8_t* row, int on_roll, float* out) noexcept {
  for (int s = 0; s < 2; ++s) {
    const int8_t* side = row + s * kSlots;
    float* o = out + 98 * s;
    int pips = 0;
    for (int i = 0; i < kPoints; ++i) {
      const int n = on_point(side[i]);
      put4(o + 4 * i, kTables.thermo4[n & 0xF]);
      pips += (i + 1) * n;
    }
    o[96] = side[kOff] / 15.0f;
    o[97] = static_cast<float>(pips) / 360.0f;
  }
  out[196] = on_roll == 0;
  out[197] = on_roll == 1;
}

void shlem_rows(const int8_t* row, int on_roll, float* out) noexcept {
  for (int s = 0; s < 2; ++s) {
    const int8_t* side = row + s * kSlots;
    float* o = out + 100 * s;
    uint32_t closed = 0;
    for (int i = 0; i < kPoints; ++i) {
      const int n = side[i];
      if (n < 0) {
        o[4 * i] = o[4 * i + 1] = o[4 * i + 2] = 0.0f;
        o[4 * i + 3] = 1.0f;
      } else {
        put4(o + 4 * i, kTables.shlem[n & 0xF]);
        if (n >= 2) closed |= 1u << i;
      }
    }
    uint32_t line = closed >> 12;
    int run = 0;
    for (uint32_t m = line; m; m &= m >> 1) ++run;
    o[96] = side[kBar] / 3.0f;
    o[97] = side[kOff] / 15.0f;
    o[98] = static_cast<float>(run) / 12.0f;
    o[99] = static_cast<float>(std::popcount(line)) / 12.0f;
  }
  out[200] = on_roll == 0;
  out[201] = on_roll == 1;
}

void plakoto_rows(const int8_t* row, int on_roll, float* out) noexcept {
  for (int s = 0; s < 2; ++s) {
    const int8_t* side = row + s * kSlots;
    float* o = out + 121 * s;
    for (int i = 0; i < kPoints; ++i) {
      const int n = side[i];
      put4(o + 4 * i, kTables.thermo2[n < 0 ? 0 : n & 0xF]);
      o[96 + i] = n < 0 ? 1.0f : 0.0f;
    }
    o[120] = side[kOff] / 15.0f;
  }
  out[242] = on_roll == 0;
  out[243] = on_roll == 1;
}

}  // namespace

long check_rows(const int8_t* rows, size_t n, bool prisoners) noexcept {
  const int lo = prisoners ? -1 : 0;
  for (size_t r = 0; r < n; ++r) {
    const int8_t* row = rows + r * kRowBytes;
    for (int k = 0; k < kRowBytes; ++k) {
      const int v = row[k];
      if (v < lo || v > kMaxCount || (v < 0 && (k % kSlots) >= kPoints))
        return static_cast<long>(r);
    }
  }
  return -1;
}

void encode_row(Encoding e, const int8_t* row, int on_roll, float* out) noexcept {
  switch (e) {
    case Encoding::TDGammon:
      tdgammon(row, on_roll, out);
      return;
    case Encoding::Gnubg:
      gnubg(row, on_roll, out);
      return;
    case Encoding::Long:
      long_nardy(row, on_roll, out);
      return;
    case Encoding::Shlem:
      shlem_rows(row, on_roll, out);
      return;
    case Encoding::Plakoto:
      plakoto_rows(row, on_roll, out);
      return;
  }
}

void encode_rows(Encoding e, const int8_t* rows, size_t n, const uint8_t* on_roll,
                 int on_roll_all, float* out) noexcept {
  const size_t w = static_cast<size_t>(encoding_width(e));
  for (size_t r = 0; r < n; ++r)
    encode_row(e, rows + r * kRowBytes, on_roll ? on_roll[r] : on_roll_all, out + r * w);
}

}  // namespace nardy
