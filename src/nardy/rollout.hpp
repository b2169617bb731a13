// Rollouts (games played to the end inside C++) and a multi-threaded perft.
//
// Reproducibility. A rollout is a set of numbered trials; trial t of a run with seed s plays
// one game whose every random choice comes from a counter-based stream: SplitMix64 keyed by
// key(s, t) = mix(s ^ mix(t + golden)), drawn at position 2p for the dice of ply p and 2p + 1
// for the random policy's choice at ply p (mix = the SplitMix64 finaliser, draw(k, c) =
// mix(k + (c + 1) * golden)). So a game depends only on (start position, rules, policy, seed,
// trial index): not on the thread that plays it, nor on which other trials run, nor on the
// policy's earlier choices for the dice. Counts are integers summed over trials, so any split
// of a trial range (threads, shards, machines) merges bit for bit.
//
// With quasi-random dice (RolloutSettings::quasi = k > 0) the first k plies' rolls come instead
// from trial_dice in trial.hpp: stratified over the trial numbers, still a function of (seed,
// trial) only, so every guarantee above holds.
//
// Uniform draws from 64-bit words use the high 32 bits: die pair = (hi * 36) >> 32 (d1 = q / 6
// + 1, d2 = q % 6 + 1), choice among n = (hi * n) >> 32 (bias < n / 2^32).
//
// A ply is one turn of one player: a move, or a pass when the roll has no legal move. A game
// that is still running after `max_plies` plies is counted as unfinished (0 points).
//
// Result kinds (the loser's state decides; the winner is the side that finished):
//   backgammon  single 1 (loser bore off), gammon 2 (loser bore off none), backgammon 3 (none
//               off and a loser's checker on the bar or in the winner's home board, loser
//               indices 18..23) -- nardy.game's "standard" scoring
//   long nardy  oin 1 (loser bore off at least one), mars 2 (none) -- "oin_mars" scoring
//   Shlem       blockade (the winner's longest run L of closed points on the opponent's line,
//               L >= 2, worth L * L), closed_points (game ended without a blockade, more closed
//               points on the opponent's territory: 1), draw (equal: 0). The end rules are
//               shlem::status with the consecutive passes tracked; in claim mode every policy
//               claims a blockade at the first chance.
//
// Built-in policies (both pick among the distinct resulting positions, in the enumerator's
// order, exactly the moves nardy's legal_moves lists):
//   Random  uniform over the distinct resulting positions: the move at index
//           uniform_from_word(word, n). Made alone by Engine::pick, which counts the moves of
//           the search instead of listing them where the variant allows (standard backgammon).
//           A turn of several groups of dice (a Gul bara cascade) is chosen group by group,
//           not uniformly over its results: SequenceEnumerator::pick_groups, with the draws
//           of trial.hpp's TurnDraw from the ply's word.
//   Greedy  the highest greedy_score() of the resulting position (mover's view, not swapped);
//           ties go to the first in move order. See greedy_score below for the heuristics.
//           A turn of several dice groups is chosen group by group (EngineCore::greedy_turn,
//           SequenceEnumerator::pick_best) rather than listed whole.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "nardy/cancel.hpp"
#include "nardy/engine.hpp"
#include "nardy/movelist.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/trial.hpp"

namespace nardy {

// Number of result kinds of a variant and their names (see the table above).
int outcome_kinds(Variant v) noexcept;
const char* outcome_kind_name(Variant v, int kind) noexcept;

// Integer tallies over a set of trials; merging is exact (sums).
struct RolloutCounts {
  uint64_t games = 0;
  uint64_t wins[2][kMaxKinds] = {};  // [0]: the side on roll at the start, [1]: the other
  uint64_t draws = 0;
  uint64_t unfinished = 0;
  int64_t points = 0;       // sum of points from the view of the side on roll at the start
  uint64_t points_sq = 0;   // sum of their squares
  uint64_t plies = 0;       // plies played in all games (moves and passes)

  void add(const Outcome& o) noexcept;
  void merge(const RolloutCounts& o) noexcept;
};

// Greedy heuristics (the variants' greedy_score, Engine::greedy_score), integer scores of a resulting position `after` (after.us just moved;
// higher is better for after.us):
//
// Backgammon: pips(them) - pips(us)            (race; a hit adds the hit checker's way back)
//             - 8 * exposed blots              (our single checkers with an opponent checker
//                                               1..12 pips behind them, or any blot on our
//                                               indices 0..11 while the opponent is on the bar)
//             + 3 * our made points on indices 0..7 (home board and the bar point)
//             + 2 * our checkers borne off.
// Long nardy: -4 * pips(us)                    (progress; differs when a die is lost or a
//                                               bear-off overshoots)
//             + 3 * points we occupy (spread, blocking) + 4 * longest run of held points
//               (capped at 6; an illegal six-block never reaches here)
//             + 8 * checkers borne off - 2 * checkers left on the head (index 23).
// Shlem:      +64 * longest blockade (runs >= 2 end the game) + 6 * closed points on the
//             opponent's territory + 4 * opponent checkers we hold prisoner or hit out
//             - 4 * our checkers held prisoner + 1 * our checkers on the opponent's territory.
//
// The index of the greedy policy's choice in a non-empty list is the first highest score
// (Engine::choose_greedy); a trial is played by Engine::play_trial, a game's end decided by
// Engine::game_end.

struct RolloutSettings {
  RolloutPolicy policy = RolloutPolicy::Random;
  uint64_t seed = 0;
  uint64_t first_trial = 0;
  uint64_t trials = 0;
  int threads = 1;           // 0: std::thread::hardware_concurrency()
  uint32_t max_plies = 10000;
  uint32_t quasi = 0;        // leading plies with quasi-random dice (trial.hpp), <= kMaxQuasiPlies
};

// Plays trials [first_trial, first_trial + trials) on `threads` worker threads, each with its
// own Engine (variant, rules). `cancel`, if given, is polled every few trials: a cancelled
// run throws Cancelled (no partial counts).
RolloutCounts rollout(Variant variant, const Rules& rules, const Position& start,
                      const RolloutSettings& settings, Cancel* cancel = nullptr);

int resolve_threads(int threads) noexcept;

// -- games in lockstep, for policies that live outside C++ (a batched callback) ------------
//
// Plays trials [first_trial, first_trial + trials), up to `width` games at a time. advance()
// runs every game on until it needs a decision (a roll with at least two distinct results)
// or ends; the caller then reads the candidates of every waiting game and answers choose()
// with one index per waiting game. Dice come from the same streams as the built-in rollouts,
// so a deterministic external policy gives results that depend only on (seed, trial).
// In a variant whose turn can be several rolls the candidates are the whole turn's moves
// (Engine::generate_turn on the mover's turn number, counted as play_trial counts it), and the
// dice a stopped cascade leaves the opponent (Engine::carry) are a decision of their own
// before his roll. After such a play, or a move after which the same player rolls again, the
// mover stays on roll: continues() marks those candidates.
class LockstepRollout {
 public:
  // With `every_ply`, advance() stops at every ply a game plays (a forced move or a pass too:
  // 1 or 0 candidates, answered with index 0), so that the caller can weigh every roll's luck
  // (variance reduction); choose() then takes each game's luck, summed per trial.
  LockstepRollout(Variant variant, const Rules& rules, const Position& start, uint64_t seed,
                  uint64_t first_trial, uint64_t trials, uint32_t max_plies, size_t width,
                  uint32_t quasi = 0, bool every_ply = false);
  LockstepRollout(const LockstepRollout&) = delete;
  LockstepRollout& operator=(const LockstepRollout&) = delete;

  // Returns the number of games waiting for a decision (0 = every trial is finished).
  // `cancel`, if given, is polled once per game step (a position whose rolls never offer a
  // choice plays every trial inside one call); a cancelled call throws Cancelled.
  size_t advance(Cancel* cancel = nullptr);
  // Candidates of the waiting games: game k's are candidates()[offsets()[k] .. offsets()[k+1]),
  // resulting positions from the view of the player who moves (not swapped).
  [[nodiscard]] const std::vector<Position>& candidates() const noexcept { return cand_; }
  [[nodiscard]] const std::vector<int64_t>& offsets() const noexcept { return offsets_; }
  // Per candidate: 1 when the player who chose it stays on roll (see above), else 0.
  [[nodiscard]] const std::vector<uint8_t>& continues() const noexcept { return continues_; }
  // Trial index of each waiting game.
  [[nodiscard]] const std::vector<uint64_t>& waiting_trials() const noexcept { return wait_trial_; }
  // Who moves in each waiting game: 0 = the player on roll at the start, 1 = the opponent.
  [[nodiscard]] std::vector<int8_t> waiting_movers() const;
  // The waiting games' positions before their roll (on roll: pos.us) and their dice.
  [[nodiscard]] std::vector<Position> waiting_positions() const;
  [[nodiscard]] std::vector<int8_t> waiting_dice() const;  // d1, d2 per waiting game
  // One choice per waiting game, each in [0, its number of candidates) (0 for a pass in
  // every-ply mode); false if out of range. `luck` (every-ply mode, may be null): one value
  // per waiting game, added to its trial's luck.
  bool choose(const int64_t* choices, size_t n, const double* luck = nullptr);
  // Every-ply mode: the trials finished since the last take_finished() call, with their
  // points (from the view of the side on roll at the start) and summed luck.
  struct Finished {
    uint64_t trial;
    int64_t points;
    double luck;
  };
  std::vector<Finished> take_finished() { return std::exchange(finished_, {}); }
  [[nodiscard]] const RolloutCounts& counts() const noexcept { return counts_; }
  [[nodiscard]] bool done() const noexcept { return active_ == 0 && next_trial_ == end_trial_; }

 private:
  struct Game {
    Position pos;
    uint64_t trial = 0;
    uint64_t key = 0;
    uint32_t ply = 0;
    int on_roll = 0;
    int passes = 0;
    int d1 = 0, d2 = 0;
    double luck = 0.0;
    bool live = false;
    // turns of several rolls: the waiting roll's turn number and dice played, the dice the
    // last turn left the player on roll, and whether the waiting decision plays those
    int turn = 0;
    int played = 0;
    DiceCarry carried;
    bool carried_play = false;
  };
  void tally(const Game& g, const Outcome& out);
  bool start_next(Game& g);
  // True, the trial tallied, when g's game is over or has played max_plies_.
  bool over(Game& g);
  // Runs g until a decision is needed (true) or the game ends (false, tallied).
  bool run_until_decision(Game& g);
  bool run_turns_until_decision(Game& g);
  // Applies a move of a whole turn (sequences_) to g.
  void play_turn_move(Game& g, const Position& result, bool again);

  Engine engine_;
  Position start_;
  uint64_t seed_;
  uint64_t next_trial_;
  uint64_t end_trial_;
  uint32_t max_plies_;
  uint32_t quasi_;
  bool every_ply_;
  bool sequences_;   // the engine's turns can be several rolls
  int first_turn_;   // the mover's turn number at the start (Engine::rollout_first_turn)
  TurnList turns_;   // a waiting game's whole-turn moves (sequences_)
  std::vector<uint8_t> continues_;
  std::vector<Finished> finished_;
  std::vector<Game> games_;
  size_t active_ = 0;
  MoveList list_;
  std::vector<Position> cand_;
  std::vector<int64_t> offsets_;
  std::vector<size_t> waiting_;  // indices into games_
  std::vector<uint64_t> wait_trial_;
  RolloutCounts counts_;
};

// -- perft over threads ----------------------------------------------------------------------
struct PerftTask {
  Position pos;     // the position to count from (on roll: pos.us)
  uint64_t weight;  // how many times it occurs (rolls' weights, transpositions merged)
};

// Splits perft(pos, depth) into tasks: sum(weight * perft(task, depth - levels)) equals it.
// Expands level by level (merging equal positions) until there are at least `min_tasks` tasks
// or the remaining depth would drop below 1; `levels` receives how many levels were expanded.
std::vector<PerftTask> perft_split(Engine& engine, const Position& pos, int depth, bool ordered,
                                   size_t min_tasks, int& levels, Cancel* cancel = nullptr);

// sum(weight * perft(task, depth)) over the tasks, on `threads` threads (own Engine each,
// one shared `table` if given). A cancelled count throws Cancelled.
uint64_t perft_tasks(Variant variant, const Rules& rules, const std::vector<PerftTask>& tasks,
                     int depth, bool ordered, int threads, Cancel* cancel = nullptr,
                     PerftTable* table = nullptr);

// perft_turn(pos, depth, ordered, first_turn) of a variant whose turns depend on the turn
// number (Engine::has_sequences), on `threads` threads: the root's children, equal ones
// (position and carried dice) merged, are counted from ply 1. A cancelled count throws
// Cancelled.
uint64_t perft_turn_parallel(Variant variant, const Rules& rules, const Position& pos, int depth,
                             bool ordered, int first_turn, int threads, Cancel* cancel = nullptr);

// perft(pos, depth) on `threads` threads: root rolls x children split into tasks.
uint64_t perft_parallel(Variant variant, const Rules& rules, const Position& pos, int depth,
                        bool ordered, int threads, Cancel* cancel = nullptr,
                        PerftTable* table = nullptr);

}  // namespace nardy
