// Runtime entry points over the compile-time variants: one object per (variant, rules) that
// owns its scratch memory, so repeated calls allocate nothing. Not thread-safe: use one Engine
// per thread.
//
// An Engine holds one EngineCore, the variant's engine template (engine_impl.hpp) built for the
// move policy its rule options select (registry.hpp). Every request is one virtual call; the
// loops of a request (the steps of a move search, the plies of perft or of a rollout game, the
// positions of a benchmark or a batch) run inside the template, where the policy is known.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "nardy/cancel.hpp"
#include "nardy/enumerator.hpp"
#include "nardy/features.hpp"
#include "nardy/movelist.hpp"
#include "nardy/perft_table.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/trial.hpp"

namespace nardy {

class StepTurn;  // steps.hpp

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

struct EnumerationStats {
  uint64_t enumerations = 0;
  uint64_t results = 0;
  double seconds = 0;
};

// The requests an engine answers, implemented once by EngineImpl<V, P>.
class EngineCore {
 public:
  using IndexOf = size_t (*)(void* context, size_t n);

  virtual ~EngineCore() = default;
  virtual void generate(const Position& pos, int d1, int d2, MoveList& out) = 0;
  virtual size_t count(const Position& pos, int d1, int d2) = 0;
  virtual bool pick(const Position& pos, int d1, int d2, IndexOf index_of, void* context,
                    Position& result) = 0;
  virtual bool apply_steps(const Position& pos, const Step* steps, int n,
                           Position& result) const = 0;
  virtual uint64_t perft(const Position& pos, int depth, bool ordered, CancelPoll* poll,
                         PerftTable* table) = 0;
  // Turns of several rolls (enumerator.hpp's SequenceEnumerator): whether the variant has
  // them, a turn's moves on the mover's turn number `turn` (the dice played returned), and
  // perft with the root's mover on turn `first_turn` (ply p is played on turn
  // turn_at(first_turn, p), first_turn + p / 2 unless the rules count turns over the game's
  // rolls). Variants without them list generate()'s moves, whatever the turn.
  virtual bool has_sequences() const noexcept = 0;
  virtual int turn_at(int first_turn, int ply) const noexcept = 0;
  // The mover's turn number where a rollout starts: 1 at the variant's start position, any
  // other position being taken to be past the opening turns (kLateTurn).
  virtual int rollout_first_turn(const Position& start) const noexcept = 0;
  virtual int generate_turn(const Position& pos, int d1, int d2, int turn, TurnList& out) = 0;
  // The dice the turn plays (0: it passes), and a move of it leading to the unswapped result
  // `target` and naming `named` (-1: any; false when none), without listing a long turn.
  virtual int turn_dice_played(const Position& pos, int d1, int d2, int turn) = 0;
  // The dice a turn that played `played` dice leaves to the opponent, who plays them before
  // his own roll as the turn carried_turn(left) of the double (die, die); left 0: none.
  virtual DiceCarry carry(int d1, int d2, int turn, int played) const noexcept = 0;
  virtual bool find_turn_move(const Position& pos, int d1, int d2, int turn,
                              const Position& target, int named, TurnMove& out) = 0;
  // The random rollout policy's move of the whole turn from the ply's word (TurnDraw):
  // 0 the turn passes, 1 a move, 2 a move after which the same player rolls again.
  virtual int pick_turn(const Position& pos, int d1, int d2, int turn, uint64_t word,
                        Position& result) = 0;
  // The greedy rollout policy's move of the whole turn (SequenceEnumerator::pick_best where a
  // turn is a dice sequence), returned as pick_turn does.
  virtual int greedy_turn(const Position& pos, int d1, int d2, int turn, Position& result) = 0;
  // (`carried`: dice the opponent's stopped cascade left the root's mover, played first;
  // `ply`: the root's ply in the game that began on `first_turn`, its turn being
  // turn_at(first_turn, ply).)
  virtual uint64_t perft_turn(const Position& pos, int depth, bool ordered, int first_turn,
                              CancelPoll* poll, DiceCarry carried, int ply) = 0;
  virtual bool finished(const Position& pos) const noexcept = 0;
  virtual bool game_end(const Position& pos, int on_roll, int passes,
                        Outcome& out) const noexcept = 0;
  virtual void status(const Position& pos, int passes, StatusFields& out) const noexcept = 0;
  virtual int greedy_score(const Position& after) const noexcept = 0;
  virtual size_t choose_greedy(const MoveList& list) const noexcept = 0;
  virtual Outcome play_trial(MoveList& scratch, const Position& start, RolloutPolicy policy,
                             uint64_t seed, uint64_t trial, uint32_t max_plies,
                             uint32_t quasi) = 0;
  virtual EnumerationStats enumerate_all(const std::vector<Position>& positions,
                                         int repeat) = 0;
  // Validates and packs N batch rows (52 int8 each; dice (N, 2) when given): an empty string,
  // or the first error ("#..." for the dice).
  virtual std::string parse_rows(const int8_t* rows, const int8_t* dice, size_t n,
                                 std::vector<Position>& out) const = 0;
  // A turn played step by step over the fixed step action space (steps.hpp).
  virtual std::unique_ptr<StepTurn> step_turn() const = 0;
  // Encodes n rows (features.hpp) after checking them for this variant: a held checker (-1)
  // is valid where the variant has one or the encoding reads one. Returns the first row
  // that is not valid (nothing written from it on), or -1.
  virtual long encode(const int8_t* rows, size_t n, Encoding e, const uint8_t* on_roll,
                      int on_roll_all, float* out) const noexcept = 0;
  // Rows of this variant may hold a held checker, -1 (Shlem's prisoners, Plakoto's pins).
  virtual bool held_checkers() const noexcept = 0;
};

class Engine {
 public:
  Engine(Variant variant, Rules rules);
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  [[nodiscard]] Variant variant() const noexcept { return variant_; }
  [[nodiscard]] const Rules& rules() const noexcept { return rules_; }

  // Every legal complete move of `pos` (mover's perspective) for the roll; empty = pass.
  void generate(const Position& pos, int d1, int d2, MoveList& out) {
    core_->generate(pos, d1, d2, out);
  }

  // The number of moves generate() would list, counted without making them where the
  // variant allows (Enumerator::count).
  size_t count(const Position& pos, int d1, int d2) { return core_->count(pos, d1, d2); }

  // The move generate() would list at index index_of(n) of its n, made alone (see
  // Enumerator::pick); false when the turn passes.
  template <class IndexOf>
  bool pick(const Position& pos, int d1, int d2, IndexOf&& index_of, Position& result) {
    using F = std::remove_reference_t<IndexOf>;
    return core_->pick(
        pos, d1, d2, [](void* f, size_t n) -> size_t { return (*static_cast<F*>(f))(n); },
        const_cast<void*>(static_cast<const void*>(&index_of)), result);
  }

  // The whole turn the roll gives on the mover's turn number `turn` (kLateTurn: unknown),
  // every step of it; see EngineCore::generate_turn.
  [[nodiscard]] bool has_sequences() const noexcept { return core_->has_sequences(); }
  // The mover's turn number at ply `ply` of a game whose first roller there is on turn
  // `first_turn` (EngineCore::turn_at).
  [[nodiscard]] int turn_at(int first_turn, int ply) const noexcept {
    return core_->turn_at(first_turn, ply);
  }
  [[nodiscard]] int rollout_first_turn(const Position& start) const noexcept {
    return core_->rollout_first_turn(start);
  }
  int generate_turn(const Position& pos, int d1, int d2, int turn, TurnList& out) {
    return core_->generate_turn(pos, d1, d2, turn, out);
  }
  [[nodiscard]] DiceCarry carry(int d1, int d2, int turn, int played) const noexcept {
    return core_->carry(d1, d2, turn, played);
  }
  int turn_dice_played(const Position& pos, int d1, int d2, int turn) {
    return core_->turn_dice_played(pos, d1, d2, turn);
  }
  bool find_turn_move(const Position& pos, int d1, int d2, int turn, const Position& target,
                      int named, TurnMove& out) {
    return core_->find_turn_move(pos, d1, d2, turn, target, named, out);
  }
  int pick_turn(const Position& pos, int d1, int d2, int turn, uint64_t word, Position& result) {
    return core_->pick_turn(pos, d1, d2, turn, word, result);
  }
  int greedy_turn(const Position& pos, int d1, int d2, int turn, Position& result) {
    return core_->greedy_turn(pos, d1, d2, turn, result);
  }
  uint64_t perft_turn(const Position& pos, int depth, bool ordered, int first_turn,
                      CancelPoll* poll = nullptr, DiceCarry carried = {}, int ply = 0) {
    return core_->perft_turn(pos, depth, ordered, first_turn, poll, carried, ply);
  }

  // Applies single steps one by one as the variant's physics allow (each step must be a legal
  // single step for some die); returns false if one is not. Used to identify a move given as
  // steps by its resulting position; whole-move legality is membership in generate().
  bool apply_steps(const Position& pos, const Step* steps, int n, Position& result) const {
    return core_->apply_steps(pos, steps, n, result);
  }

  // Leaves of the game tree `depth` plies deep: per ply the 21 rolls (or 36 ordered ones),
  // children are distinct resulting positions, a roll with no legal move has one child (the
  // pass), and a finished game has no children. `poll`, if given, is called once per inner
  // node counted (it throws Cancelled to stop the count). `table`, if given, remembers the
  // counts of subtrees (depth >= 1) and answers their transpositions; it is bound to this
  // engine's variant and rules (PerftTable::bind) and may be shared with other threads.
  uint64_t perft(const Position& pos, int depth, bool ordered, CancelPoll* poll = nullptr,
                 PerftTable* table = nullptr);
  std::vector<DivideEntry> divide(const Position& pos, int depth, bool ordered,
                                  CancelPoll* poll = nullptr, PerftTable* table = nullptr);

  // A finished game has no children in perft (the variant's end test, without the rules that
  // need history).
  [[nodiscard]] bool finished(const Position& pos) const noexcept { return core_->finished(pos); }

  // Whether the game is over in `pos` with pos.us on roll; `on_roll` says which side that is
  // (0 = the side on roll at the start of a rollout), `passes` the consecutive passed turns
  // just before. Fills winner/kind/points of `out` when over.
  bool game_end(const Position& pos, int on_roll, int passes, Outcome& out) const noexcept {
    return core_->game_end(pos, on_roll, passes, out);
  }

  // Where the game stands with pos.us on roll after `passes` passed turns, in the variant's
  // own terms (traits.hpp: V::status): whether it is over, who wins, and what decides it.
  void status(const Position& pos, int passes, StatusFields& out) const noexcept {
    core_->status(pos, passes, out);
  }

  // The greedy rollout policy's score of a resulting position, and its choice in a list
  // (rollout.hpp).
  [[nodiscard]] int greedy_score(const Position& after) const noexcept {
    return core_->greedy_score(after);
  }
  [[nodiscard]] size_t choose_greedy(const MoveList& list) const noexcept {
    return core_->choose_greedy(list);
  }

  // One trial played to the end with a built-in policy (rollout.hpp); `quasi`: how many
  // leading plies roll quasi-random dice (trial.hpp).
  Outcome play_trial(MoveList& scratch, const Position& start, RolloutPolicy policy,
                     uint64_t seed, uint64_t trial, uint32_t max_plies, uint32_t quasi = 0) {
    return core_->play_trial(scratch, start, policy, seed, trial, max_plies, quasi);
  }

  std::string parse_rows(const int8_t* rows, const int8_t* dice, size_t n,
                         std::vector<Position>& out) const {
    return core_->parse_rows(rows, dice, n, out);
  }

  // A new turn-by-steps object for this variant and these rules (steps.hpp), independent of
  // the engine once made (its own policy and scratch memory: one per thread).
  [[nodiscard]] std::unique_ptr<StepTurn> step_turn() const;

  // See EngineCore::encode.
  long encode(const int8_t* rows, size_t n, Encoding e, const uint8_t* on_roll,
              int on_roll_all, float* out) const noexcept {
    return core_->encode(rows, n, e, on_roll, on_roll_all, out);
  }
  [[nodiscard]] bool held_checkers() const noexcept { return core_->held_checkers(); }

  // Where the opponent's index j lies in the mover's coordinates.
  [[nodiscard]] int to_mover(int j) const noexcept;

  [[nodiscard]] EngineCore& core() noexcept { return *core_; }

 private:
  Variant variant_;
  Rules rules_;
  std::unique_ptr<EngineCore> core_;
};

// Benchmark kernel shared by the C++ tool and the Python module: every position with each of
// the 21 distinct rolls, `repeat` times, timed with a steady clock.
inline EnumerationStats enumerate_all(Engine& engine, const std::vector<Position>& positions,
                                      int repeat) {
  return engine.core().enumerate_all(positions, repeat);
}

// Checks counts and that no point is held by both sides; returns an empty string when valid,
// else a message saying what is wrong.
std::string validate(Variant variant, const SideArray& us, const SideArray& them);

}  // namespace nardy
