// Hypergammon (docs/rules/hypergammon.md): backgammon with three checkers a side, on the 24-,
// 23- and 22-points. Movement, the bar and the result kinds are backgammon's.
#pragma once

#include "nardy/variants/backgammon.hpp"

namespace nardy {

struct Hypergammon : BackgammonGame<Hypergammon> {
  static constexpr const char* kKey = "HYPERGAMMON";
  static constexpr VariantName kNames[] = {{"hypergammon"}, {"hyper"}, {"hyper-backgammon"}};
  static constexpr int kCheckers = 3;
  static constexpr SideArray start() noexcept {
    SideArray s{};
    s[23] = 1;
    s[22] = 1;
    s[21] = 1;
    return s;
  }
};

}  // namespace nardy
