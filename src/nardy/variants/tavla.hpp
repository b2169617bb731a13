// Tavla (docs/rules/tavla.md): the Turkish game on backgammon's board and setup with
// backgammon's movement. Its scoring has no backgammon: a loser who bore off nothing loses a
// gammon («mars»), whatever stands on the bar or in the winner's home board.
#pragma once

#include "nardy/variants/backgammon.hpp"

namespace nardy {

struct Tavla : BackgammonGame<Tavla> {
  static constexpr const char* kKey = "TAVLA";
  static constexpr VariantName kNames[] = {
      {"tavla"}, {"turkish backgammon"}, {"takhteh"}};
  static constexpr int kCheckers = 15;
  static constexpr SideArray start() noexcept { return Backgammon::start(); }

  static constexpr const char* kKinds[] = {"single", "gammon"};
  static constexpr int loss_kind(const Side&) noexcept { return 1; }
};

}  // namespace nardy
