// Nackgammon (docs/rules/nackgammon.md): backgammon with four back checkers. Only the setup
// differs; the movement, the bar and the result kinds are backgammon's.
#pragma once

#include "nardy/variants/backgammon.hpp"

namespace nardy {

struct Nackgammon : BackgammonGame<Nackgammon> {
  static constexpr const char* kKey = "NACKGAMMON";
  static constexpr VariantName kNames[] = {{"nackgammon"}, {"nack"}};
  static constexpr int kCheckers = 15;
  // 2 on the 24-point, 2 on the 23, 4 on the 13, 3 on the 8, 4 on the 6.
  static constexpr SideArray start() noexcept {
    SideArray s{};
    s[23] = 2;
    s[22] = 2;
    s[12] = 4;
    s[7] = 3;
    s[5] = 4;
    return s;
  }
};

}  // namespace nardy
