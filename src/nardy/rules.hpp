// Runtime rule options of the variants, passed by value into the policies.
#pragma once

#include <cstdint>

namespace nardy {

// A variant: an index into the registry's table (registry.hpp), never named in shared code.
enum class Variant : uint8_t {};

// Long nardy: who may take a second checker off the head on a player's first turn.
enum class HeadRule : uint8_t {
  Federation = 0,  // 6-6, 4-4, 3-3 and only if one checker is stopped by the opponent's head
  Classic = 1,     // 6-6, 4-4, 3-3 always
  Extended = 2,    // any roll, whenever a second checker lets more dice be played
};

// Shlem: when stage 2 (hitting allowed besides taking prisoners) begins.
enum class ShlemStage : uint8_t {
  Either = 0,     // for both players once either player has entered all 3 reserves
  PerPlayer = 1,  // for each player once that player has entered all 3 reserves
};

// Shlem: how a blockade ends the game.
enum class ShlemEnd : uint8_t {
  Move = 0,   // at once, at the end of the move that completes it
  Claim = 1,  // the builder may claim it at the start of any later turn of its own (or play on)
};

// Fevga: how far the first checker must go before a second may leave the start.
enum class FevgaFirst : uint8_t {
  PastStart = 0,        // beyond the opponent's starting point (the mover's index 10 or lower)
  OpponentQuarter = 1,  // twelve pips, into the opponent's starting quarter (index 11 or lower)
};

// Fevga: which six-point primes are forbidden besides the starting-quarter rule.
enum class FevgaPrime : uint8_t {
  OnePointBehind = 0,  // a prime with every opponent checker on the one point right behind it
  AllBehind = 1,       // a prime with no opponent checker past it (long nardy's rule)
  Free = 2,            // none
};

struct Rules {
  bool no_hit_and_hide = false;  // backgammon house rule (seed 002): a hitter may not go on
                                 // to a point holding another own checker in the same turn
  bool no_hit_and_run = false;   // Tavla: a checker that hits in its own home board moves no
                                 // further in that turn
  HeadRule head_rule = HeadRule::Federation;
  bool block_check_at_end = false;  // long nardy: six-block rule on the final position only
  ShlemStage shlem_stage = ShlemStage::Either;
  ShlemEnd shlem_end = ShlemEnd::Move;
  uint8_t shlem_pass_limit = 4;  // Shlem: consecutive passed turns that end the game (0: never)
  uint8_t cascade_from_turn = 3;  // Gul bara: each player's turn from which doubles cascade
                                 // (0: never)
  bool cascade_counts_rolls = false;  // Gul bara: the turns are counted over the game's rolls
                                      // (the second player's one ahead of his own count)
  bool stopped_cascade_to_opponent = false;  // Gul bara: the dice left where a cascade stops
                                             // are played by the opponent before his roll
  bool plakoto_pinned_bear_off = false;  // Plakoto: a side may bear off while one of its
                                         // checkers is pinned in its home board
  FevgaFirst fevga_first = FevgaFirst::PastStart;
  FevgaPrime fevga_prime = FevgaPrime::OnePointBehind;
  bool fevga_start_quarter = true;     // Fevga: never all six points of the own starting quarter
  uint8_t fevga_their_quarter = 6;     // Fevga: most points held in the opponent's starting
                                       // quarter (6: no limit)
};

}  // namespace nardy
