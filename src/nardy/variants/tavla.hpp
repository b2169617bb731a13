// Tavla (docs/rules/tavla.md): the Turkish game on backgammon's board and setup with
// backgammon's movement. Its scoring has no backgammon: a loser who bore off nothing loses a
// gammon («mars»), whatever stands on the bar or in the winner's home board. The rule option
// no_hit_and_run forbids a checker that hits in its own home board to move on in that turn.
#pragma once

#include "nardy/variants/backgammon.hpp"

namespace nardy {

struct Tavla : BackgammonGame<Tavla> {
  static constexpr const char* kKey = "TAVLA";
  static constexpr VariantName kNames[] = {
      {"tavla"}, {"turkish backgammon"}, {"takhteh"}};
  static constexpr int kCheckers = 15;
  static constexpr SideArray start() noexcept { return Backgammon::start(); }

  // Backgammon's policy, with the per-checker rules each option selects: the house rule
  // against hiding, and the rule against hit-and-run in the home board.
  using Policies = PolicyList<BackgammonPolicy, BackgammonNoHitAndHidePolicy,
                              BasicBackgammonPolicy<false, true>, BasicBackgammonPolicy<true, true>>;
  static constexpr int policy_index(const Rules& r) noexcept {
    return (r.no_hit_and_hide ? 1 : 0) + (r.no_hit_and_run ? 2 : 0);
  }

  static constexpr const char* kKinds[] = {"single", "gammon"};
  static constexpr int loss_kind(const Side&) noexcept { return 1; }
};

}  // namespace nardy
