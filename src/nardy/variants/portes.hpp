// Portes (docs/rules/portes.md): the first game of Greek tavli, backgammon's board, setup and
// movement. Its default scoring counts no backgammon: a loser who bore off nothing loses a
// gammon (the rules page has the sources and the "standard" alternative).
#pragma once

#include "nardy/variants/backgammon.hpp"

namespace nardy {

struct Portes : BackgammonGame<Portes> {
  static constexpr const char* kKey = "PORTES";
  static constexpr VariantName kNames[] = {{"portes"}, {"πόρτες"}, {"greek backgammon"}};
  static constexpr int kCheckers = 15;
  static constexpr SideArray start() noexcept { return Backgammon::start(); }

  static constexpr const char* kKinds[] = {"single", "gammon"};
  static constexpr int loss_kind(const Side&) noexcept { return 1; }
};

}  // namespace nardy
