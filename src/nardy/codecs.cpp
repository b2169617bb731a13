#include "nardy/codecs.hpp"

#include <array>
#include <bit>
#include <cstring>

namespace nardy::codecs {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// 6-bit value of each byte, 64 for bytes outside the alphabet.
constexpr std::array<uint8_t, 256> kValue = [] {
  std::array<uint8_t, 256> t{};
  for (auto& v : t) v = 64;
  for (int i = 0; i < 64; ++i) t[static_cast<uint8_t>(kAlphabet[i])] = static_cast<uint8_t>(i);
  return t;
}();

// An 80-bit key in two words, bit k of the key at bit k of lo:hi.
struct Key80 {
  uint64_t lo = 0, hi = 0;
};

// n (0..15) one bits at `pos`, then the zero bit that ends the slot.
inline void put_run(Key80& k, int& pos, int n) noexcept {
  const uint64_t ones = (uint64_t{1} << n) - 1;
  if (pos < 64) {
    k.lo |= ones << pos;
    if (pos + n > 64) k.hi |= ones >> (64 - pos);
  } else {
    k.hi |= ones << (pos - 64);
  }
  pos += n + 1;
}

inline void shift_right(Key80& k, int s) noexcept {
  if (s >= 64) {
    k.lo = k.hi >> (s - 64);
    k.hi = 0;
  } else if (s > 0) {
    k.lo = (k.lo >> s) | (k.hi << (64 - s));
    k.hi >>= s;
  }
}

}  // namespace

std::string quote(const char* s, size_t len) {
  std::string out = "'";
  for (size_t i = 0; i < len; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\'' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else {
      static const char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out + "'";
}

namespace {

const char* const kWho[2] = {"opponent (player not on roll)", "mover (player on roll)"};

}  // namespace

std::string describe(const IdResult& r, const char* id, size_t len, int checkers) {
  const std::string q = "Position ID " + quote(id, len);
  switch (r.error) {
    case IdError::kOk:
      return {};
    case IdError::kLength:
      return "a Position ID has 14 characters, got " + std::to_string(len) + ": " + quote(id, len);
    case IdError::kAlphabet:
      return "character " + quote(id + r.where, 1) + " at offset " + std::to_string(r.where) +
             " of " + q + " is not in the base64 alphabet";
    case IdError::kTrailingBits:
      return q + ": its last character " + quote(id + len - 1, 1) +
             " sets bits past the 80-bit key";
    case IdError::kTruncated:
      return q + ": the key ends before the " + kWho[r.where] +
             " is complete (too many checkers)";
    case IdError::kTooMany:
      return q + ": the " + kWho[r.where] + " has more than " + std::to_string(checkers) +
             " checkers on points and bar";
    case IdError::kExtraBits:
      return q + ": nonzero bits after the last side";
    case IdError::kBothSides:
      return q + ": the mover's point " + std::to_string(r.where + 1) + " is held by both sides";
  }
  return q + ": invalid";
}

void encode_position_id(const int8_t* mover, const int8_t* opponent, char* out) noexcept {
  Key80 k;
  int pos = 0;
  for (int s = 0; s < 25; ++s) put_run(k, pos, opponent[s]);  // gnubg: not on roll first
  for (int s = 0; s < 25; ++s) put_run(k, pos, mover[s]);
  uint8_t b[12] = {};
  for (int i = 0; i < 8; ++i) b[i] = static_cast<uint8_t>(k.lo >> (8 * i));
  b[8] = static_cast<uint8_t>(k.hi);
  b[9] = static_cast<uint8_t>(k.hi >> 8);
  // Standard base64, three bytes to four characters; the last group holds one byte.
  for (int g = 0; g < 4; ++g) {
    const uint32_t v = uint32_t(b[3 * g]) << 16 | uint32_t(b[3 * g + 1]) << 8 | b[3 * g + 2];
    char* o = out + 4 * g;
    o[0] = kAlphabet[v >> 18];
    o[1] = kAlphabet[(v >> 12) & 63];
    if (g == 3) break;
    o[2] = kAlphabet[(v >> 6) & 63];
    o[3] = kAlphabet[v & 63];
  }
}

IdResult decode_position_id(const char* id, size_t len, int checkers, int8_t* mover,
                            int8_t* opponent) noexcept {
  if (len != kPositionIdChars) return {IdError::kLength, 0};
  uint8_t v[16];
  for (int i = 0; i < kPositionIdChars; ++i) {
    v[i] = kValue[static_cast<uint8_t>(id[i])];
    if (v[i] == 64) return {IdError::kAlphabet, i};
  }
  if (v[13] & 0xF) return {IdError::kTrailingBits, 0};
  uint8_t b[12];
  for (int g = 0; g < 4; ++g) {
    const uint32_t x = uint32_t(v[4 * g]) << 18 | uint32_t(v[4 * g + 1]) << 12 |
                       (g < 3 ? uint32_t(v[4 * g + 2]) << 6 | v[4 * g + 3] : 0);
    b[3 * g] = static_cast<uint8_t>(x >> 16);
    b[3 * g + 1] = static_cast<uint8_t>(x >> 8);
    b[3 * g + 2] = static_cast<uint8_t>(x);
  }
  Key80 k;
  for (int i = 0; i < 8; ++i) k.lo |= uint64_t(b[i]) << (8 * i);
  k.hi = uint64_t(b[8]) | uint64_t(b[9]) << 8;
  int consumed = 0;  // key bits read so far
  int8_t* sides[2] = {opponent, mover};
  for (int s = 0; s < 2; ++s) {
    int8_t* side = sides[s];
    int total = 0;
    for (int slot = 0; slot < 25; ++slot) {
      int n = std::countr_one(k.lo);
      if (n == 64) n += std::countr_one(k.hi);
      // the slot's closing zero must lie inside the 80 bits
      if (consumed + n >= 80) return {IdError::kTruncated, s};
      total += n;
      if (total > checkers) return {IdError::kTooMany, s};
      side[slot] = static_cast<int8_t>(n);
      consumed += n + 1;
      shift_right(k, n + 1);
    }
    side[25] = static_cast<int8_t>(checkers - total);
  }
  if (k.lo | k.hi) return {IdError::kExtraBits, 0};
  for (int i = 0; i < 24; ++i)
    if (mover[i] && opponent[23 - i]) return {IdError::kBothSides, i};
  return {};
}

namespace {

char* put_int(char* o, int v) noexcept {
  if (v < 0) {
    *o++ = '-';
    v = -v;
  }
  char tmp[12];
  int n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *o++ = tmp[--n];
  return o;
}

// A field of 1..6 digits, with a leading '-' when `sign`; false when it is not one.
bool read_int(const char* s, size_t len, bool sign, int& out) noexcept {
  size_t i = 0;
  bool neg = false;
  if (sign && len && s[0] == '-') {
    neg = true;
    i = 1;
  }
  if (len - i < 1 || len - i > 6) return false;
  int v = 0;
  for (; i < len; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  out = neg ? -v : v;
  return true;
}

std::string field_text(const char* s, size_t len) { return quote(s, len); }

}  // namespace

size_t encode_xgid(const int8_t* mover, const int8_t* opponent, const XgidFields& f,
                   char* out) noexcept {
  const int8_t* x = f.turn == 1 ? mover : opponent;  // bottom player, upper case
  const int8_t* o = f.turn == 1 ? opponent : mover;  // top player, lower case
  char* p = out;
  std::memcpy(p, "XGID=", 5);
  p += 5;
  p[0] = o[24] ? static_cast<char>('a' + o[24] - 1) : '-';
  p[25] = x[24] ? static_cast<char>('A' + x[24] - 1) : '-';
  for (int i = 0; i < 24; ++i) {
    char c = '-';
    if (x[i]) {
      c = static_cast<char>('A' + x[i] - 1);
    } else if (o[23 - i]) {
      c = static_cast<char>('a' + o[23 - i] - 1);
    }
    p[i + 1] = c;
  }
  p += 26;
  *p++ = ':';
  p = put_int(p, f.cube_exp);
  *p++ = ':';
  p = put_int(p, f.cube_position);
  *p++ = ':';
  p = put_int(p, f.turn);
  *p++ = ':';
  if (f.action) {
    *p++ = f.action;
  } else {
    *p++ = static_cast<char>('0' + f.d1);
    *p++ = static_cast<char>('0' + f.d2);
  }
  const int tail[5] = {f.score_bottom, f.score_top, f.rules, f.match_length, f.max_cube_exp};
  for (const int v : tail) {
    *p++ = ':';
    p = put_int(p, v);
  }
  return static_cast<size_t>(p - out);
}

std::string decode_xgid(const char* s, size_t len, int checkers, int8_t* mover,
                        int8_t* opponent, XgidFields& f) {
  if (len >= 5 && std::memcmp(s, "XGID=", 5) == 0) {
    s += 5;
    len -= 5;
  }
  const char* field[10];
  size_t flen[10];
  int nf = 0;
  size_t start = 0;
  for (size_t i = 0; i <= len; ++i) {
    if (i == len || s[i] == ':') {
      if (nf < 10) {
        field[nf] = s + start;
        flen[nf] = i - start;
      }
      ++nf;
      start = i + 1;
    }
  }
  if (nf != 10)
    return "expected a position and 9 fields separated by ':', got " + std::to_string(nf) +
           " fields";
  if (flen[0] != 26)
    return "the position has " + std::to_string(flen[0]) + " characters, not 26";
  int8_t x[26] = {}, o[26] = {};
  for (int k = 0; k < 26; ++k) {
    const char c = field[0][k];
    if (c == '-') continue;
    if (c >= 'A' && c <= 'P') {
      if (k == 0) return "upper-case (bottom player) checkers on the top player's bar";
      x[k == 25 ? 24 : k - 1] = static_cast<int8_t>(c - 'A' + 1);
    } else if (c >= 'a' && c <= 'p') {
      if (k == 25) return "lower-case (top player) checkers on the bottom player's bar";
      o[k == 0 ? 24 : 24 - k] = static_cast<int8_t>(c - 'a' + 1);
    } else {
      return "position character " + field_text(field[0] + k, 1) + " at " + std::to_string(k) +
             " is not '-', A-P or a-p";
    }
  }
  const char* who[2] = {"bottom (upper-case)", "top (lower-case)"};
  int8_t* sides[2] = {x, o};
  for (int w = 0; w < 2; ++w) {
    int total = 0;
    for (int k = 0; k < 25; ++k) total += sides[w][k];
    if (total > checkers)
      return std::string("the ") + who[w] + " player has " + std::to_string(total) +
             " checkers (at most " + std::to_string(checkers) + ")";
    sides[w][25] = static_cast<int8_t>(checkers - total);
  }
  auto uint = [&](int i, const char* name, int& out) -> std::string {
    if (!read_int(field[i], flen[i], false, out))
      return std::string(name) + " " + field_text(field[i], flen[i]) +
             " is not a non-negative integer";
    return {};
  };
  auto sint = [&](int i, const char* name, int& out) -> std::string {
    if (!read_int(field[i], flen[i], true, out))
      return std::string(name) + " " + field_text(field[i], flen[i]) + " is not an integer";
    return {};
  };
  std::string err;
  if (!(err = uint(1, "cube", f.cube_exp)).empty()) return err;
  if (!(err = uint(9, "max cube", f.max_cube_exp)).empty()) return err;
  if (f.cube_exp > 15) return "cube exponent " + std::to_string(f.cube_exp) + " is above 15";
  if (f.max_cube_exp > 16)
    return "max cube exponent " + std::to_string(f.max_cube_exp) + " is above 16";
  if (!(err = sint(3, "turn", f.turn)).empty()) return err;
  if (f.turn != 1 && f.turn != -1)
    return "turn must be 1 or -1, got " + field_text(field[3], flen[3]);
  const char* dice = field[4];
  f.action = 0;
  f.d1 = f.d2 = 0;
  if (flen[4] == 1 && (dice[0] == 'D' || dice[0] == 'B' || dice[0] == 'R')) {
    f.action = dice[0];
  } else if (flen[4] == 2 && dice[0] == '0' && dice[1] == '0') {
  } else if (flen[4] == 2 && dice[0] >= '1' && dice[0] <= '6' && dice[1] >= '1' &&
             dice[1] <= '6') {
    f.d1 = dice[0] - '0';
    f.d2 = dice[1] - '0';
  } else {
    return "dice " + field_text(dice, flen[4]) + " is not 00, two digits 1-6, D, B or R";
  }
  if (!(err = sint(2, "cube position", f.cube_position)).empty()) return err;
  if (!(err = uint(5, "bottom score", f.score_bottom)).empty()) return err;
  if (!(err = uint(6, "top score", f.score_top)).empty()) return err;
  if (!(err = uint(7, "rules", f.rules)).empty()) return err;
  if (!(err = uint(8, "match length", f.match_length)).empty()) return err;
  if (f.cube_position < -1 || f.cube_position > 1)
    return "cube_position must be -1, 0 or 1, got " + std::to_string(f.cube_position);
  const int length = f.match_length;
  if (length > 32767) return "match_length must be 0..32767, got " + std::to_string(length);
  if (length && f.score_bottom >= length)
    return "score_bottom = " + std::to_string(f.score_bottom) + " is not below the match length " +
           std::to_string(length);
  if (length && f.score_top >= length)
    return "score_top = " + std::to_string(f.score_top) + " is not below the match length " +
           std::to_string(length);
  if (length && f.rules > 1)
    return "in match play rules is the Crawford flag 0 or 1, got " + std::to_string(f.rules);
  if (!length && f.rules > 3)
    return "in money play rules is 0..3 (1 Jacoby, 2 beaver), got " + std::to_string(f.rules);
  const bool bottom = f.turn == 1;
  std::memcpy(mover, bottom ? x : o, 26);
  std::memcpy(opponent, bottom ? o : x, 26);
  return {};
}

}  // namespace nardy::codecs
