// N games of one variant stepped together, for learning agents (nardy.vector documents the
// Python side). Generic over the variants: everything goes through Engine (generate,
// game_end), nothing here names a variant.
//
// A step is one player's complete turn. After reset() and after every step each game waits
// for a decision: the roll of the player on roll has at least one legal move, and the
// afterstates of that roll (every distinct resulting position, in the order of
// Engine::generate, not swapped) are the game's choices; where a turn can be several rolls
// (Engine::has_sequences), the whole turn's, Engine::generate_turn on the mover's turn number
// 1 + ply / 2 as rollouts count it. Rolls without a legal move are passed inside the env. A
// move after which the same player rolls again (TurnMove::again: Acey-deucey's named double
// played in full) keeps that player on roll, as rollouts do. A game that ends
// (Engine::game_end, the same end rules and points as rollouts) or reaches max_plies plies
// starts its next episode at once (auto-reset).
//
// Randomness: episode e of game i plays with the SplitMix64 stream keyed
// game_key(seed, i, e) = trial_key(trial_key(seed, i), e); the dice of ply p of the episode
// are dice_from_word(stream_draw(key, 2 p)) (trial.hpp; the rollouts' dice stream). So a game
// depends only on (seed, i, the actions taken in it): not on the number of games, the thread
// count, or the other games.
//
// Step mode (VectorObservation::steps): a decision is one checker step of the fixed step
// action space (steps.hpp: StepTurn), with a mask of the steps that extend the turn to a legal
// complete move, and the same legal actions as a list (CSR, ascending); a turn is done when
// its last step is played. Where a turn can be several rolls it is the whole turn's steps on
// the mover's turn number, as in afterstate mode (Acey-deucey's 1-2: its steps, the action
// naming the double, the double's steps). The observation is then the position after the
// steps played so far (boards, features with the mover on roll), the mask and the list; rolls
// without a legal move still pass inside the env.
//
// Threads: the games are split into `threads` fixed contiguous ranges, one Engine each; a
// call runs them on that many threads (the calling thread is one). Not thread-safe: one call
// at a time per VectorEnv.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nardy/engine.hpp"
#include "nardy/features.hpp"
#include "nardy/position.hpp"
#include "nardy/rules.hpp"
#include "nardy/trial.hpp"

namespace nardy {

constexpr uint64_t game_key(uint64_t seed, uint64_t game, uint64_t episode) noexcept {
  return trial_key(trial_key(seed, game), episode);
}

// What the afterstates are written as after each reset/step.
struct VectorObservation {
  bool steps = false;       // step mode (else afterstates)
  bool boards = true;       // afterstates: (M, 2, 26) int8 rows, side 0 the player who moved
  bool features = false;    // afterstates: (M, F) float32, encoded with side 1 (the next
                            // player) on roll; step mode: (N, F), the mover on roll
  Encoding encoding = Encoding::TDGammon;
};

// A block of output memory shared with the arrays handed out: growing allocates a new block
// and leaves the old one to whoever still holds it.
template <class T>
struct SharedBlock {
  std::shared_ptr<T[]> data;
  size_t capacity = 0;
  void ensure(size_t n) {
    if (n <= capacity && data) return;
    const size_t c = std::max<size_t>(n + n / 2, 64);
    data = std::shared_ptr<T[]>(new T[c]);
    capacity = c;
  }
};

class VectorEnv {
 public:
  VectorEnv(Variant variant, const Rules& rules, size_t n, int threads, uint32_t max_plies,
            VectorObservation obs);
  ~VectorEnv();
  VectorEnv(const VectorEnv&) = delete;
  VectorEnv& operator=(const VectorEnv&) = delete;

  [[nodiscard]] size_t size() const noexcept { return games_.size(); }
  [[nodiscard]] int threads() const noexcept { return static_cast<int>(chunks_.size()); }
  [[nodiscard]] uint32_t max_plies() const noexcept { return max_plies_; }
  [[nodiscard]] const VectorObservation& observation() const noexcept { return obs_; }

  // Every game back to the start of episode 0 under `seed`; the observation is written.
  void reset(uint64_t seed);

  // One decision per game: actions[i] in [0, count of game i). On a bad action nothing
  // changes and the game's index is returned; else -1. rewards[i]: the points of a game that
  // ended in this step, from the view of the player who acted (+ won, - lost, 0 draw or not
  // over); terminated[i]: it ended by the rules; truncated[i]: it reached max_plies. A game
  // that ended is already in its next episode when step returns.
  long step(const int64_t* actions, float* rewards, uint8_t* terminated, uint8_t* truncated);

  // -- the observation after the last reset/step ------------------------------------------
  // CSR: game i's afterstates are rows offsets[i] .. offsets[i + 1] (never empty).
  [[nodiscard]] const std::vector<int64_t>& offsets() const noexcept { return offsets_; }
  [[nodiscard]] size_t total() const noexcept { return static_cast<size_t>(offsets_.back()); }
  [[nodiscard]] const SharedBlock<int8_t>& afterstate_rows() const noexcept { return rows_; }
  [[nodiscard]] const SharedBlock<float>& afterstate_features() const noexcept { return feats_; }
  // Per afterstate: 1 when the player who moved rolls again after it (Acey-deucey's named
  // double played in full), else 0; its features are then encoded with side 0 on roll.
  [[nodiscard]] const SharedBlock<uint8_t>& afterstate_again() const noexcept { return again_; }
  // Per game: the position on roll (N x 52 int8, mover first), the dice (N x 2), which player
  // is on roll (0: the one on roll at the episode's start), the episode and its plies so far.
  [[nodiscard]] const std::vector<int8_t>& boards() const noexcept { return boards_; }
  [[nodiscard]] const std::vector<int8_t>& dice() const noexcept { return dice_; }
  [[nodiscard]] const std::vector<int8_t>& to_play() const noexcept { return to_play_; }
  [[nodiscard]] const std::vector<uint32_t>& episodes() const noexcept { return episodes_; }
  [[nodiscard]] const std::vector<uint32_t>& plies() const noexcept { return plies_; }
  [[nodiscard]] const Position& position(size_t i) const noexcept { return games_[i].pos; }
  // Step mode: the size of the action space, the (N, actions()) mask of the legal actions and
  // the steps played in each game's turn so far.
  [[nodiscard]] int actions() const noexcept { return actions_; }
  [[nodiscard]] const std::vector<uint8_t>& masks() const noexcept { return masks_; }
  [[nodiscard]] const std::vector<uint8_t>& steps_played() const noexcept { return played_; }
  // Step mode: the legal actions of game i are legal_actions()[legal_offsets()[i] ..
  // legal_offsets()[i + 1]), ascending (the mask's set bits).
  [[nodiscard]] const std::vector<int64_t>& legal_offsets() const noexcept { return legal_offsets_; }
  [[nodiscard]] const SharedBlock<int32_t>& legal_actions() const noexcept { return legal_; }
  [[nodiscard]] size_t legal_total() const noexcept {
    return legal_offsets_.empty() ? 0 : static_cast<size_t>(legal_offsets_.back());
  }
  [[nodiscard]] Variant variant() const noexcept { return variant_; }
  [[nodiscard]] const Rules& rules() const noexcept { return rules_; }

 private:
  struct Game {
    Position pos;
    uint64_t key = 0;
    uint32_t episode = 0;
    uint32_t ply = 0;
    int on_roll = 0;
    int passes = 0;
    int d1 = 0, d2 = 0;
    int turn = 0;          // the decision's turn number (0: a roll's moves)
    int played = 0;        // dice its moves play (afterstate mode, turns of several rolls)
    DiceCarry carried;     // dice a stopped cascade left the player on roll, to play first
    bool carried_play = false;  // the decision is the play of such dice (no roll, no ply)
  };
  struct Chunk;

  void start_episode(Game& g, size_t i, uint32_t episode);
  // Plays passes (and episodes that end before a decision) until game i waits for a decision;
  // its afterstates are appended to the chunk. `mover` is the player who acted in this step
  // (-1 at reset): the points of a game that ends on the way are credited to it.
  void to_decision(Chunk& c, size_t i, int mover, float* reward, uint8_t* terminated,
                   uint8_t* truncated);
  template <class Phase1>
  void run(Phase1&& phase1);
  void write_chunk(Chunk& c);

  Variant variant_;
  Rules rules_;
  uint32_t max_plies_;
  VectorObservation obs_;
  Position start_;
  uint64_t seed_ = 0;
  bool sequences_ = false;
  std::vector<Game> games_;
  std::vector<std::unique_ptr<Chunk>> chunks_;
  std::vector<int64_t> offsets_;
  SharedBlock<int8_t> rows_;
  SharedBlock<float> feats_;
  SharedBlock<uint8_t> again_;
  std::vector<int8_t> boards_, dice_, to_play_;
  std::vector<uint32_t> episodes_, plies_;
  int actions_ = 0;
  std::vector<uint8_t> masks_, played_;
  std::vector<int64_t> legal_offsets_;
  SharedBlock<int32_t> legal_;
};

}  // namespace nardy
