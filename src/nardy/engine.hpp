// Runtime entry points over the compile-time policies: one object per (variant, rules) that
// owns its scratch memory, so repeated calls allocate nothing. Not thread-safe: use one Engine
// per thread.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nardy/enumerator.hpp"
#include "nardy/movelist.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/variants/backgammon.hpp"
#include "nardy/variants/long_nardy.hpp"
#include "nardy/variants/shlem.hpp"

namespace nardy {

struct Roll {
  int d1;
  int d2;
  int weight;  // 1, or 2 for a non-double counted as two ordered rolls
};

// The 21 distinct rolls (weight 1) or the 36 ordered ones folded into 21 with weights.
std::array<Roll, 21> rolls(bool ordered);

struct DivideEntry {
  int d1;
  int d2;
  uint64_t nodes;
};

class Engine {
 public:
  Engine(Variant variant, Rules rules);
  // The enumerators keep references to the policies beside them: an Engine stays where it
  // was built.
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  [[nodiscard]] Variant variant() const noexcept { return variant_; }
  [[nodiscard]] const Rules& rules() const noexcept { return rules_; }

  // Every legal complete move of `pos` (mover's perspective) for the roll; empty = pass.
  void generate(const Position& pos, int d1, int d2, MoveList& out);

  // The number of moves generate() would list, counted without making them where the
  // variant allows (Enumerator::count).
  size_t count(const Position& pos, int d1, int d2) {
    switch (variant_) {
      case Variant::Backgammon:
        if (rules_.no_hit_and_hide) return backgammon_house_enum_.count(pos, d1, d2);
        return backgammon_enum_.count(pos, d1, d2);
      case Variant::LongNardy:
        return long_nardy_enum_.count(pos, d1, d2);
      case Variant::Shlem:
        return shlem_enum_.count(pos, d1, d2);
    }
    return 0;
  }

  // The move generate() would list at index index_of(n) of its n, made alone (see
  // Enumerator::pick); false when the turn passes.
  template <class IndexOf>
  bool pick(const Position& pos, int d1, int d2, IndexOf&& index_of, Position& result) {
    switch (variant_) {
      case Variant::Backgammon:
        if (rules_.no_hit_and_hide) return backgammon_house_enum_.pick(pos, d1, d2, index_of, result);
        return backgammon_enum_.pick(pos, d1, d2, index_of, result);
      case Variant::LongNardy:
        return long_nardy_enum_.pick(pos, d1, d2, index_of, result);
      case Variant::Shlem:
        return shlem_enum_.pick(pos, d1, d2, index_of, result);
    }
    return false;
  }

  // Applies single steps one by one as the variant's physics allow (each step must be a legal
  // single step for some die); returns false if one is not. Used to identify a move given as
  // steps by its resulting position; whole-move legality is membership in generate().
  bool apply_steps(const Position& pos, const Step* steps, int n, Position& result) const;

  // Leaves of the game tree `depth` plies deep: per ply the 21 rolls (or 36 ordered ones),
  // children are distinct resulting positions, a roll with no legal move has one child (the
  // pass), and a finished game has no children.
  uint64_t perft(const Position& pos, int depth, bool ordered);
  std::vector<DivideEntry> divide(const Position& pos, int depth, bool ordered);

  // Where the opponent's index j lies in the mover's coordinates.
  [[nodiscard]] int to_mover(int j) const noexcept;

 private:
  uint64_t perft_rec(const Position& pos, int depth, bool ordered);
  // A finished game has no children in perft: bear-off variants when a side is off, Shlem by
  // shlem::status (without the pass rule, which needs history).
  [[nodiscard]] bool finished(const Position& pos) const noexcept;

  Variant variant_;
  Rules rules_;
  BackgammonPolicy backgammon_;
  BackgammonNoHitAndHidePolicy backgammon_house_;
  LongNardyPolicy long_nardy_;
  Enumerator<BackgammonPolicy> backgammon_enum_;
  Enumerator<BackgammonNoHitAndHidePolicy> backgammon_house_enum_;
  Enumerator<LongNardyPolicy> long_nardy_enum_;
  ShlemPolicy shlem_;
  Enumerator<ShlemPolicy> shlem_enum_;
  std::vector<std::unique_ptr<MoveList>> scratch_;  // one list per perft depth
};

struct EnumerationStats {
  uint64_t enumerations = 0;
  uint64_t results = 0;
  double seconds = 0;
};

// Benchmark kernel shared by the C++ tool and the Python module: every position with each of
// the 21 distinct rolls, `repeat` times, timed with a steady clock.
EnumerationStats enumerate_all(Engine& engine, const std::vector<Position>& positions, int repeat);

// A position is finished when either side has borne off all its checkers.
inline bool game_over(const Position& p) noexcept {
  return p.us.off() == kCheckers || p.them.off() == kCheckers;
}

// Checks counts and that no point is held by both sides; returns an empty string when valid,
// else a message saying what is wrong.
std::string validate(Variant variant, const SideArray& us, const SideArray& them);

}  // namespace nardy
