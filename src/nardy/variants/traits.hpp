// What a variant is, for the shared code: its traits struct. A variant is one header under
// src/nardy/variants/ that defines a traits struct V, plus one line in src/nardy/registry.cpp.
// The engine template (engine_impl.hpp) is built over (V, P) for each move policy P of V, and
// nothing outside the variant's header names the variant. V supplies:
//
//   static constexpr const char* kKey;         // the name of nardy._core.Variant's member
//   static constexpr VariantName kNames[];     // the name first, then the aliases, as
//                                              // nardy.find_variant knows them; an entry may
//                                              // carry a preset (rule options it implies)
//   using Policies = PolicyList<P0, P1, ...>;  // the move policies (enumerator.hpp)
//   static int policy_index(const Rules&);     // which of them the rule options select
//   static Rules step_rules(const Rules&);     // the rules Engine::apply_steps runs under
//   static constexpr bool kStepsMatchHit;      // apply_steps tells steps apart by Step::hit
//   static constexpr int kCheckers;            // checkers a side
//   static constexpr bool kHasBar;             // slot 24 may hold checkers on a valid board
//                                              // (a bar, or Shlem's reserves)
//   static constexpr bool kHeldCheckers;       // optional, default false: a checker may be
//                                              // held by the opponent (-1 in side arrays)
//   static constexpr SpareBits kSpareBits;     // optional, default Held: what nibbles 10-15
//                                              // of a side hold (position.hpp)
//   static constexpr int to_mover(int j);      // the mover's index of opponent index j
//   static constexpr SideArray start();        // either side's starting array
//   static bool finished(const Position&, const Rules&);   // no children in perft
//   static bool game_end(const Position&, const Rules&, int on_roll, int passes, Outcome&);
//   static constexpr const char* kKinds[];     // result kinds (rollout.hpp)
//   static void status(const Position&, const Rules&, int passes, StatusFields&);
//                                              // where the game stands, in named fields
//   static int greedy_score(const Position& after);        // the greedy rollout policy
//   static std::string validate(const SideArray& us, const SideArray& them);
//   static bool pack(const int8_t* row, Position&);        // fast path of a valid batch row
//                                                          // (false: validate() decides)
//   static Side make_side(const SideArray&);               // packs a validated side array
//   static SideArray side_array(const Side&);              // and back
//
// BearOffGame below supplies the members every race-to-bear-off game shares, from kCheckers,
// kHasBar, to_mover_mask() and loss_kind(); a variant overrides what differs.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "nardy/pack.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/trial.hpp"
#include "nardy/variants/common.hpp"

namespace nardy {

// A name or alias of a variant; `preset` (if any) sets the rule options the name implies.
struct VariantName {
  std::string_view name;
  void (*preset)(Rules&) = nullptr;
};

template <class... P>
struct PolicyList {};

// The traits' kSpareBits, Held where they say nothing.
template <class V>
constexpr SpareBits spare_bits() noexcept {
  if constexpr (requires { V::kSpareBits; }) return V::kSpareBits;
  return SpareBits::Held;
}

// A game won by bearing off every checker: the side to finish wins; 1 point when the loser
// has borne off a checker, else loss_kind(loser) + 1 (a gammon, or more).
template <class Self>
struct BearOffGame {
  static constexpr int policy_index(const Rules&) noexcept { return 0; }
  static constexpr Rules step_rules(const Rules& r) noexcept { return r; }
  static constexpr bool kStepsMatchHit = false;

  static constexpr bool finished(const Position& p, const Rules& = {}) noexcept {
    return p.us.off() == Self::kCheckers || p.them.off() == Self::kCheckers;
  }

  static bool game_end(const Position& pos, const Rules&, int on_roll, int,
                       Outcome& out) noexcept {
    const Side* loser;
    if (pos.them.off() == Self::kCheckers) {
      out.winner = 1 - on_roll;
      loser = &pos.us;
    } else if (pos.us.off() == Self::kCheckers) {
      out.winner = on_roll;
      loser = &pos.them;
    } else {
      return false;
    }
    out.kind = loser->off() > 0 ? 0 : Self::loss_kind(*loser);
    out.points = out.kind + 1;
    return true;
  }

  // over, winner (+1 the player on roll, -1 the other), kind (Self::kKinds), points.
  static void status(const Position& pos, const Rules& rules, int passes,
                     StatusFields& out) noexcept {
    Outcome o;
    const bool over = Self::game_end(pos, rules, 0, passes, o);
    out.flag("over", over);
    out.number("winner", !over || o.winner == -1 ? 0 : o.winner == 0 ? 1 : -1);
    out.word("kind", over ? Self::kKinds[o.kind] : "");
    out.number("points", over ? o.points : 0);
  }

  // Counts 0..kCheckers, kCheckers a side, no point held by both, nothing on the bar where
  // there is none.
  static std::string validate(const SideArray& us, const SideArray& them) {
    const SideArray* sides[2] = {&us, &them};
    const char* names[2] = {"mover", "opponent"};
    const std::string allowed = " checkers (0.." + std::to_string(Self::kCheckers) + " allowed)";
    for (int s = 0; s < 2; ++s) {
      std::string err = check_side(
          *sides[s], names[s], Self::kCheckers, [](int) { return 0; },
          [&](int) { return allowed; }, [](int n) { return n; });
      if (!err.empty()) return err;
      if (!Self::kHasBar && (*sides[s])[kBar] != 0)
        return std::string(Self::kNames[0].name) + " has no bar, but the " + names[s] +
               " has checkers on it";
    }
    return check_points_apart(us, them, [](int j) { return Self::to_mover(j); });
  }

  static Side make_side(const SideArray& a) noexcept { return nardy::make_side(a); }
  static SideArray side_array(const Side& s) noexcept { return nardy::side_array(s); }

  static bool pack(const int8_t* row, Position& out) noexcept {
    return pack_bear_off<Self::kCheckers, Self::kHasBar>(
        row, out, [](uint32_t m) { return Self::to_mover_mask(m); });
  }
};

}  // namespace nardy
