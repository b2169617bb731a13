// Counts the backgammon game tree two plies deep from the opening and lists the moves of an
// opening 3-1; exits non-zero if the published counts are not met.
#include <cstdio>

#include "nardy/engine.hpp"
#include "nardy/registry.hpp"

int main() {
  nardy::SideArray start{};
  start[23] = 2;  // index i needs i + 1 pips to bear off
  start[12] = 5;
  start[7] = 3;
  start[5] = 5;
  const nardy::Side side = nardy::make_side(start);
  const nardy::Position opening{side, side};

  nardy::Variant variant{};
  nardy::Rules rules{};
  if (!nardy::find_variant("backgammon", variant, rules)) return 2;
  nardy::Engine engine(variant, rules);
  nardy::MoveList moves;
  engine.generate(opening, 3, 1, moves);
  const unsigned long long leaves = engine.perft(opening, 2, false);
  std::printf("3-1: %zu moves; perft(2) = %llu\n", moves.size(), leaves);
  return moves.size() == 16 && leaves == 202782 ? 0 : 1;
}
