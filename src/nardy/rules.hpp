// Runtime rule options of the variants, passed by value into the policies.
#pragma once

#include <cstdint>

namespace nardy {

enum class Variant : uint8_t { Backgammon = 0, LongNardy = 1 };

// Long nardy: who may take a second checker off the head on a player's first turn.
enum class HeadRule : uint8_t {
  Federation = 0,  // 6-6, 4-4, 3-3 and only if one checker is stopped by the opponent's head
  Classic = 1,     // 6-6, 4-4, 3-3 always
  Extended = 2,    // any roll, whenever a second checker lets more dice be played
};

struct Rules {
  HeadRule head_rule = HeadRule::Federation;
  bool block_check_at_end = false;  // long nardy: six-block rule on the final position only
};

}  // namespace nardy
