// GNU Backgammon's Position ID and eXtreme Gammon's XGID, for boards with gnubg's geometry
// (24 points, a bar, the opponent's index j on the mover's 23 - j). Sides are the batch row
// layout: 26 int8 counts in the side's own coordinates (0..23 points, 24 bar, 25 off).
// python/nardy/formats/gnubg_id.py and xgid.py document the formats; this is their fast path.
//
// Position ID: an 80-bit key, for the opponent then the mover and for each of its 25 slots
// (points, then the bar) as many 1 bits as checkers and one 0 bit, bits filling bytes from
// the least significant; the ID is the key's standard base64 without padding (14 chars).
// Borne-off checkers are not in it: on decoding they are `checkers` minus the rest.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace nardy::codecs {

inline constexpr int kPositionIdChars = 14;
inline constexpr int kSideSlots = 26;

// Why a Position ID was refused (kOk: it was not).
enum class IdError : uint8_t {
  kOk = 0,
  kLength,        // not 14 characters
  kAlphabet,      // a character outside the base64 alphabet (`where` says which)
  kTrailingBits,  // the last character sets bits past the 80-bit key
  kTruncated,     // the key ends before a side is complete (`where`: 0 opponent, 1 mover)
  kTooMany,       // a side has more than `checkers` on points and bar (`where` as above)
  kExtraBits,     // nonzero bits after the last side
  kBothSides,     // a point held by both sides (`where`: the mover's index)
};

struct IdResult {
  IdError error = IdError::kOk;
  int where = 0;
  explicit operator bool() const noexcept { return error == IdError::kOk; }
};

// `s` in single quotes, as Python's repr shows ASCII text (other bytes as \xNN).
std::string quote(const char* s, size_t len);

// The message for a refused ID, quoting it.
std::string describe(const IdResult& r, const char* id, size_t len, int checkers);

// Writes the 14 characters of the ID (no terminator). The sides must be valid (counts 0..15,
// at most 15 on points and bar); nothing is checked.
void encode_position_id(const int8_t* mover, const int8_t* opponent, char* out) noexcept;

// Decodes `len` characters into two 26-slot sides (off = checkers - the rest). On an error
// the sides are left in an unspecified state.
IdResult decode_position_id(const char* id, size_t len, int checkers, int8_t* mover,
                            int8_t* opponent) noexcept;

// The contents of an XGID besides the position (see xgid.py). The position is kept from the
// point of view of the player on roll (the one `turn` names).
struct XgidFields {
  int cube_exp = 0;       // log2 of the cube
  int cube_position = 0;  // 1 bottom (X) owns it, -1 top (O), 0 centred
  int turn = 1;           // 1 the bottom player is on roll, -1 the top player
  int d1 = 0, d2 = 0;     // the roll as written, 0 0 when not rolled
  char action = 0;        // 0, or 'D', 'B', 'R' (the dice field holds the letter)
  int score_bottom = 0, score_top = 0;
  int rules = 0;
  int match_length = 0;
  int max_cube_exp = 10;
};

// The longest XGID encode_xgid writes (every field at its widest).
inline constexpr size_t kMaxXgidChars = 5 + 26 + 9 * 8;

// Writes the XGID with its "XGID=" prefix; returns its length. The sides must be valid and
// the fields in range (the caller checks them); nothing is checked here.
size_t encode_xgid(const int8_t* mover, const int8_t* opponent, const XgidFields& f,
                   char* out) noexcept;

// Parses an XGID ("XGID=" optional) strictly; returns an empty string, or why it is refused
// (without the ID itself). Every field is range-checked as xgid.py's XgidRecord checks it.
std::string decode_xgid(const char* s, size_t len, int checkers, int8_t* mover,
                        int8_t* opponent, XgidFields& f);

}  // namespace nardy::codecs
