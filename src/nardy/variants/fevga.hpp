// Fevga (docs/rules/fevga.md): long nardy's board (both sides move the same way from
// diagonally opposite starts, a single checker holds a point, no hitting) with Fevga's own
// start and prime rules: no second checker leaves the start before the first has gone past
// the opponent's start, never all six points of the own starting quarter, and (a rule option)
// no six-point prime that shuts in every opponent checker. Moultezim is a preset of options.
#pragma once

#include <bit>

#include "nardy/movelist.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/variants/common.hpp"
#include "nardy/variants/long_nardy.hpp"
#include "nardy/variants/traits.hpp"

namespace nardy {

// Fevga's rules as LongBoardSteps' hooks (long_nardy.hpp has the steps they share with long
// nardy's).
struct FevgaPolicy : LongBoardSteps<FevgaPolicy> {
  static constexpr int kCheckers = 15;
  static constexpr uint32_t kStartQuarter = 0x3Fu << 18;          // the mover's 18..23
  static constexpr uint32_t kTheirQuarter = 0x3Fu << 6;           // the opponent's 18..23

  struct State {
    Position pos;
    uint32_t ours = 0;        // mover's occupied points
    uint32_t theirs = 0;      // points holding an opponent checker, mover's coordinates
    // Constant through the turn, for the prime rules: the opponent's points in its own
    // coordinates (every bit once a checker is off: that one is past any prime), and the one
    // point holding every opponent checker left on the board (-1 when there is none such).
    uint32_t their_path = 0;
    int their_stack = -1;
    // The turn began in a position the six-point rules forbid (the opponent's move may make
    // one: it gathered its checkers behind a prime): steps are free, the end must be clean.
    bool inherited = false;
  };

  explicit FevgaPolicy(const Rules& rules = {})
      : rules_(rules), passed_mask_((2u << (rules.fevga_first == FevgaFirst::PastStart ? 10 : 11)) - 1) {}

  int begin_turn(const Position& pos, int, int, State out[2]) const noexcept {
    State& s = out[0];
    s.pos = pos;
    s.ours = pos.us.occ1();
    s.theirs = rotate24_half(pos.them.occ1());
    const uint32_t them = pos.them.occ1();
    s.their_path = pos.them.off() > 0 ? kBoardMask : them;
    s.their_stack = std::popcount(them) == 1 ? std::countr_zero(them) : -1;
    s.inherited = false;
    s.inherited = forbidden(s.ours, s);
    return 1;
  }

  // LongBoardSteps' hooks. While the first checker has not gone far enough (and no checker
  // is off), none other leaves the start unless all fifteen are still there; the first may
  // pass later in the turn and free the start, so then order matters.
  int start_steps_left(const State& s) const noexcept {
    if (!start_locked(s)) return kCheckers;
    order_flag_ |= (s.ours >> kStart) & 1u;
    return 0;
  }
  // (A step that bears off leaves the start empty: no lock to lift.)
  int start_steps_after(const State& s, int from, uint32_t ours) const noexcept {
    const bool locked = s.pos.us.count(kStart) - int(from == kStart) != kCheckers &&
                        !(ours & passed_mask_) && s.pos.us.off() == 0;
    return locked ? 0 : kCheckers;
  }
  static void on_step(State&, int) noexcept {}
  bool checked_at_end(const State& s) const noexcept {
    return rules_.block_check_at_end || s.inherited;
  }
  // Counted only where the start cannot lock during the turn: the start is empty, or the
  // first checker has gone far enough (it stays so until a checker is off), or one is off.
  bool exact_start(const State& s) const noexcept {
    return !((s.ours >> kStart) & 1u) || (s.ours & passed_mask_) || s.pos.us.off() > 0;
  }

  // The six-point rules on the mover's points `ours` (own coordinates).
  NARDY_HOT bool forbidden(uint32_t ours, const State& s) const noexcept {
    if (rules_.fevga_start_quarter && (ours & kStartQuarter) == kStartQuarter) return true;
    if (rules_.fevga_their_quarter < 6 &&
        std::popcount(ours & kTheirQuarter) > rules_.fevga_their_quarter)
      return true;
    switch (rules_.fevga_prime) {
      case FevgaPrime::OnePointBehind: {
        // the six points just ahead of the stack, along the opponent's path
        const int k = s.their_stack;
        return k >= 6 && ((rotate24_half(ours) >> (k - 6)) & 0x3Fu) == 0x3Fu;
      }
      case FevgaPrime::AllBehind:
        return LongNardyPolicy::forbidden_block(ours, s.their_path);
      case FevgaPrime::Free:
        return false;
    }
    return false;
  }

 private:
  bool start_locked(const State& s) const noexcept {
    return s.pos.us.count(kStart) != kCheckers && !(s.ours & passed_mask_) &&
           s.pos.us.off() == 0;
  }

  Rules rules_;
  uint32_t passed_mask_;  // the points at which the first checker has gone far enough
};

// Fevga's game: long nardy's geometry and setup (15 checkers on the mover's index 23, the
// opponent's index j on the mover's (j + 12) % 24); a single game 1 point, a gammon (a double
// game) 2 when the loser has borne off none.
struct Fevga : BearOffGame<Fevga> {
  static constexpr const char* kKey = "FEVGA";
  static constexpr VariantName kNames[] = {
      {"fevga"},
      {"φεύγα"},
      {"feuga"},
      {"moultezim",
       [](Rules& r) {
         r.fevga_prime = FevgaPrime::Free;
         r.fevga_start_quarter = false;
         r.fevga_their_quarter = 4;
       }},
      {"mültezim",
       [](Rules& r) {
         r.fevga_prime = FevgaPrime::Free;
         r.fevga_start_quarter = false;
         r.fevga_their_quarter = 4;
       }},
  };
  using Policies = PolicyList<FevgaPolicy>;

  static constexpr int kCheckers = FevgaPolicy::kCheckers;
  static constexpr bool kHasBar = false;
  static constexpr int to_mover(int j) noexcept { return LongNardy::to_mover(j); }
  static constexpr uint32_t to_mover_mask(uint32_t m) noexcept {
    return LongNardy::to_mover_mask(m);
  }
  static constexpr SideArray start() noexcept { return LongNardy::start(); }

  static constexpr const char* kKinds[] = {"single", "gammon"};
  static constexpr int loss_kind(const Side&) noexcept { return 1; }

  static int greedy_score(const Position& after) noexcept {
    return LongNardy::greedy_score(after);
  }
};

}  // namespace nardy
