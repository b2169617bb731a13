// The engine template: every request of EngineCore for one variant's traits V (traits.hpp) and
// one of its move policies P, with the loops of a request inside (perft's plies, a rollout's
// game, a benchmark's positions, a batch's rows), so the compiler sees the policy throughout.
// Included by the registry alone, which builds one of these per (variant, policy).
#pragma once

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "nardy/engine.hpp"
#include "nardy/enumerator.hpp"
#include "nardy/features.hpp"
#include "nardy/steps.hpp"
#include "nardy/variants/traits.hpp"

namespace nardy {

namespace detail {

// Depth-first: a step can have several successor states with the same position (e.g. which
// checker of a point moved, when the rules follow individual checkers), and only some of them
// may let the following steps apply.
template <class P>
bool apply_from(const P& policy, const typename P::State& s, const Step* steps, int k, int n,
                Position& result, bool match_hit) {
  if (k == n) {
    result = s.pos;
    return true;
  }
  const Step want = steps[k];
  if (want.from < 0 || want.from > kBar) return false;
  bool done = false;
  for (int die = 1; die <= 6 && !done; ++die) {
    if (!(policy.sources(s, die) >> want.from & 1u)) continue;
    policy.for_each_step(s, want.from, die, [&](const typename P::State& next, Step st) {
      if (!done && st.to == want.to && (!match_hit || st.hit == want.hit))
        done = apply_from(policy, next, steps, k + 1, n, result, match_hit);
    });
  }
  return done;
}

}  // namespace detail

template <class V, class P>
class EngineImpl final : public EngineCore {
 public:
  explicit EngineImpl(const Rules& rules)
      : rules_(rules), policy_(rules), enum_(policy_), step_policy_(V::step_rules(rules)) {}
  // The enumerator keeps a reference to the policy beside it.
  EngineImpl(const EngineImpl&) = delete;
  EngineImpl& operator=(const EngineImpl&) = delete;

  void generate(const Position& pos, int d1, int d2, MoveList& out) override {
    enum_.generate(pos, d1, d2, out);
  }

  size_t count(const Position& pos, int d1, int d2) override { return enum_.count(pos, d1, d2); }

  bool pick(const Position& pos, int d1, int d2, IndexOf index_of, void* context,
            Position& result) override {
    return enum_.pick(
        pos, d1, d2, [&](size_t n) { return index_of(context, n); }, result);
  }

  bool apply_steps(const Position& pos, const Step* steps, int n,
                   Position& result) const override {
    typename P::State starts[2];
    // The most permissive start state: step physics only (whole-turn limits are checked by
    // membership in the generated move set).
    const int n_starts = step_policy_.begin_turn(pos, 1, 2, starts);
    return detail::apply_from(step_policy_, starts[n_starts - 1], steps, 0, n, result,
                              V::kStepsMatchHit);
  }

  bool has_sequences() const noexcept override { return kSequences; }

  int greedy_turn(const Position& pos, int d1, int d2, int turn, Position& result) override {
    const auto score = [](const Position& after) { return V::greedy_score(after); };
    if constexpr (HasDiceSequence<P>) {
      return seq_->pick_best(pos, d1, d2, turn, score, result) ? 1 : 0;
    } else if constexpr (kSequences) {
      // (a dice choice's turns are listed whole: thousands of moves, not millions)
      seq_->generate(pos, d1, d2, turn, turn_list_);
      if (turn_list_.empty()) return 0;
      const size_t best = first_best(turn_list_, score);
      result = turn_list_[best].result;
      return turn_list_[best].again ? 2 : 1;
    } else {
      enum_.generate(pos, d1, d2, turn_scratch_);
      if (turn_scratch_.empty()) return 0;
      result = turn_scratch_[choose_greedy(turn_scratch_)].result;
      return 1;
    }
  }

  int pick_turn(const Position& pos, int d1, int d2, int turn, uint64_t word,
                Position& result) override {
    TurnDraw draw{word};
    if constexpr (HasDiceSequence<P>) {
      return seq_->pick(pos, d1, d2, turn, draw, result) ? 1 : 0;
    } else if constexpr (kSequences) {
      return seq_->pick_choice(pos, d1, d2, turn, draw, result);
    } else {
      return enum_.pick(pos, d1, d2, draw, result) ? 1 : 0;
    }
  }

  int generate_turn(const Position& pos, int d1, int d2, int turn, TurnList& out) override {
    if constexpr (kSequences) {
      return seq_->generate(pos, d1, d2, turn, out);
    } else {
      enum_.generate(pos, d1, d2, turn_scratch_);
      out.assign(turn_scratch_, enum_.dice_played());
      return out.dice_played();
    }
  }

  int turn_at(int first_turn, int ply) const noexcept override {
    return nardy::turn_at(policy_, first_turn, ply);
  }

  int rollout_first_turn(const Position& start) const noexcept override {
    return is_start(start) ? 1 : kLateTurn;
  }

  DiceCarry carry(int d1, int d2, int turn, int played) const noexcept override {
    return policy_carry(d1, d2, turn, played);
  }

  int turn_dice_played(const Position& pos, int d1, int d2, int turn) override {
    if constexpr (kSequences) {
      return seq_->most_dice(pos, d1, d2, turn);
    } else {
      enum_.count(pos, d1, d2);
      return enum_.dice_played();
    }
  }

  bool find_turn_move(const Position& pos, int d1, int d2, int turn, const Position& target,
                      int named, TurnMove& out) override {
    if constexpr (kSequences) {
      return seq_->find(pos, d1, d2, turn, target, named, out);
    } else {
      if (named > 0) return false;
      enum_.generate(pos, d1, d2, turn_scratch_);
      for (const Move& m : turn_scratch_)
        if (m.result == target) {
          out = TurnMove{};
          out.result = m.result;
          out.n_steps = m.n_steps;
          for (int k = 0; k < m.n_steps; ++k) out.steps[k] = m.steps[k];
          return true;
        }
      return false;
    }
  }

  uint64_t perft_turn(const Position& pos, int depth, bool ordered, int first_turn,
                      CancelPoll* poll, DiceCarry carried, int ply) override {
    if constexpr (kSequences) {
      if (depth < 0) throw std::invalid_argument("perft depth must be >= 0");
      while (static_cast<int>(turn_lists_.size()) < depth + 1) {
        turn_lists_.push_back(std::make_unique<TurnList>());
        carried_lists_.push_back(std::make_unique<TurnList>());
      }
      return perft_turn_rec(pos, depth, ordered, first_turn, ply, poll, carried);
    } else {
      return perft(pos, depth, ordered, poll, nullptr);
    }
  }

  // (A turn of several rolls depends on the turn number, which is not in the position: those
  // variants count without the table.)
  uint64_t perft(const Position& pos, int depth, bool ordered, CancelPoll* poll,
                 PerftTable* table) override {
    if constexpr (kSequences) return perft_turn(pos, depth, ordered, kLateTurn, poll, {}, 0);
    if (depth < 0) throw std::invalid_argument("perft depth must be >= 0");
    while (static_cast<int>(scratch_.size()) < depth + 1)
      scratch_.push_back(std::make_unique<MoveList>());
    return table ? perft_rec<true>(pos, depth, ordered, poll, table)
                 : perft_rec<false>(pos, depth, ordered, poll, nullptr);
  }

  bool finished(const Position& pos) const noexcept override { return V::finished(pos, rules_); }

  bool game_end(const Position& pos, int on_roll, int passes,
                Outcome& out) const noexcept override {
    return V::game_end(pos, rules_, on_roll, passes, out);
  }

  void status(const Position& pos, int passes, StatusFields& out) const noexcept override {
    V::status(pos, rules_, passes, out);
  }

  int greedy_score(const Position& after) const noexcept override {
    return V::greedy_score(after);
  }

  size_t choose_greedy(const MoveList& list) const noexcept override {
    if (list.size() <= 1) return 0;
    return first_best(list, [](const Position& after) { return V::greedy_score(after); });
  }

  Outcome play_trial(MoveList& list, const Position& start, RolloutPolicy policy, uint64_t seed,
                     uint64_t trial, uint32_t max_plies, uint32_t quasi) override {
    const uint64_t key = trial_key(seed, trial);
    Position pos = start;
    if constexpr (kSequences) seq_turn_start_ = -1;
    int on_roll = 0, passes = 0;
    DiceCarry carried;  // dice the last turn's stopped cascade left to the player on roll
    Outcome out;
    for (uint32_t ply = 0;; ++ply) {
      if (V::game_end(pos, rules_, on_roll, passes, out)) {
        out.plies = ply;
        return out;
      }
      if (ply == max_plies) break;
      if constexpr (kSequences) {
        if (carried.left != 0) {  // played before the roll, by the same policy
          const int turn = carried_turn(carried.left);
          Position next;
          const int r = policy == RolloutPolicy::Random
                            ? pick_turn(pos, carried.die, carried.die, turn,
                                        stream_draw(key ^ kCarriedStream, ply), next)
                            : greedy_turn(pos, carried.die, carried.die, turn, next);
          carried = {};
          if (r != 0) {
            pos = next;
            if (V::game_end(pos, rules_, on_roll, passes, out)) {
              out.plies = ply;
              return out;
            }
          }
        }
      }
      int d1, d2;
      trial_dice(key, seed, trial, ply, quasi, d1, d2);
      bool moved = false;
      bool again = false;
      if (sequence_roll(d1, d2)) {
        if constexpr (kSequences) {
          // The random policy's move of a dice sequence or a dice choice is made alone
          // (SequenceEnumerator::pick_groups, pick_choice), the greedy policy's as
          // greedy_turn() chooses it.
          if (seq_turn_start_ < 0) seq_turn_start_ = rollout_first_turn(start);
          const int turn = nardy::turn_at(policy_, seq_turn_start_, static_cast<int>(ply));
          Position next;
          const int r = policy == RolloutPolicy::Random
                            ? pick_turn(pos, d1, d2, turn, stream_draw(key, 2 * uint64_t{ply} + 1),
                                        next)
                            : greedy_turn(pos, d1, d2, turn, next);
          moved = r != 0;
          again = r == 2;
          if (moved && !again) carried = policy_carry(d1, d2, turn, seq_->picked_dice());
          // (a move after which the same player rolls again keeps the side on roll)
          if (moved) pos = again ? next : next.swapped();
        }
      } else if (policy == RolloutPolicy::Random) {
        // Only the chosen move is made (Enumerator::pick): the same move as
        // list[uniform(word, n)].
        const uint64_t word = stream_draw(key, 2 * uint64_t{ply} + 1);
        Position next;
        moved = enum_.pick(
            pos, d1, d2,
            [word](size_t n) { return uniform_from_word(word, static_cast<uint32_t>(n)); },
            next);
        if (moved) pos = next.swapped();
      } else {
        enum_.generate(pos, d1, d2, list);
        moved = !list.empty();
        if (moved) pos = list[choose_greedy(list)].result.swapped();
      }
      if (moved) {
        passes = 0;
      } else {
        pos = pos.swapped();
        ++passes;
      }
      if (!again) on_roll ^= 1;
    }
    out = Outcome{};
    out.winner = -2;
    out.plies = max_plies;
    return out;
  }

  // Whether the roll's turn goes through the sequence enumerator: a policy with dice choices
  // plays a roll with one plain choice by the one-roll path (pick, no lists).
  bool sequence_roll(int d1, int d2) const noexcept {
    if constexpr (HasDiceChoices<P>) return sequence_rolls_[d1][d2];
    return kSequences;
  }
  // sequence_roll() of every roll for a policy with dice choices, asked of it once (a
  // rollout asks for every ply).
  std::array<std::array<bool, 7>, 7> sequence_rolls() const noexcept {
    std::array<std::array<bool, 7>, 7> t{};
    if constexpr (HasDiceChoices<P>) {
      for (int d1 = 1; d1 <= 6; ++d1)
        for (int d2 = 1; d2 <= 6; ++d2) {
          DiceChoice c[kMaxChoices];
          const int n = policy_.dice_choices(d1, d2, kLateTurn, c);
          t[d1][d2] = !(n == 1 && c[0].n == 1 && c[0].named == 0 && !c[0].again);
        }
    }
    return t;
  }

  static bool is_start(const Position& p) noexcept {
    const Side s = V::make_side(V::start());
    return p.us == s && p.them == s;
  }

  EnumerationStats enumerate_all(const std::vector<Position>& positions, int repeat) override {
    EnumerationStats stats;
    MoveList list;
    uint64_t enumerations = 0, results = 0;  // (in registers, not in stats, across the calls)
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < repeat; ++r)
      for (const Position& p : positions)
        for (const Roll& roll : rolls(false)) {
          enum_.generate(p, roll.d1, roll.d2, list);
          ++enumerations;
          results += list.size();
        }
    stats.enumerations = enumerations;
    stats.results = results;
    stats.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return stats;
  }

  std::string parse_rows(const int8_t* rows, const int8_t* dice, size_t n,
                         std::vector<Position>& out) const override {
    out.resize(n);
    for (size_t i = 0; i < n; ++i) {
      const int8_t* row = rows + i * kRowBytes;
      if (dice) {
        const int d1 = dice[2 * i], d2 = dice[2 * i + 1];
        if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
          return "#dice " + std::to_string(i) + " = (" + std::to_string(d1) + ", " +
                 std::to_string(d2) + "): dice must be integers from 1 to 6";
      }
      if (V::pack(row, out[i])) continue;
      SideArray us{}, them{};
      for (int k = 0; k < kSlots; ++k) {
        us[k] = row[k];
        them[k] = row[kSlots + k];
      }
      std::string err = V::validate(us, them);
      if (!err.empty()) return "position " + std::to_string(i) + ": " + err;
      out[i] = Position{V::make_side(us), V::make_side(them)};
    }
    return {};
  }

  std::unique_ptr<StepTurn> step_turn() const override {
    return std::make_unique<StepTurnImpl<P>>(P(rules_), V::kStepsMatchHit);
  }

  bool held_checkers() const noexcept override { return kHeld; }

  long encode(const int8_t* rows, size_t n, Encoding e, const uint8_t* on_roll,
              int on_roll_all, float* out) const noexcept override {
    const long bad = check_rows(rows, n, kHeld || reads_held(e));
    if (bad < 0) encode_rows(e, rows, n, on_roll, on_roll_all, out);
    return bad;
  }

 private:
  // The variant's rows may hold a checker held by the opponent (traits' kHeldCheckers).
  static constexpr bool kHeld = [] {
    if constexpr (requires { V::kHeldCheckers; }) return V::kHeldCheckers;
    return false;
  }();

  template <bool kTable>
  uint64_t perft_rec(const Position& pos, int depth, bool ordered, CancelPoll* poll,
                     PerftTable* table) {
    if (depth == 0) return 1;
    if (V::finished(pos, rules_)) return 0;
    uint64_t total = 0;
    if constexpr (kTable) {
      if (table->probe(pos, depth, total)) return total;
    }
    if (poll) (*poll)();
    if (depth == 1) {  // the leaves are only counted (a pass is one leaf)
      for (const Roll& r : rolls(ordered)) {
        const size_t n = enum_.count(pos, r.d1, r.d2);
        total += (n ? n : 1) * static_cast<uint64_t>(r.weight);
      }
    } else {
      MoveList& list = *scratch_[depth];
      for (const Roll& r : rolls(ordered)) {
        enum_.generate(pos, r.d1, r.d2, list);
        uint64_t sub = 0;
        if (list.empty()) {
          sub = perft_rec<kTable>(pos.swapped(), depth - 1, ordered, poll, table);
        } else {
          for (size_t i = 0; i < list.size(); ++i) {
            if constexpr (kTable) {
              // The next child's bucket is fetched while this one is counted.
              if (i + 1 < list.size()) table->prefetch(list[i + 1].result.swapped(), depth - 1);
            }
            sub += perft_rec<kTable>(list[i].result.swapped(), depth - 1, ordered, poll, table);
          }
        }
        total += sub * static_cast<uint64_t>(r.weight);
      }
    }
    if constexpr (kTable) table->store(pos, depth, total);
    return total;
  }

  // The turn of a sequence policy: as perft_rec, with the turn number of ply `ply`. Dice the
  // opponent's stopped cascade left (`carried`) are played first, as part of this ply: each
  // of their moves (or the position, when they pass) is followed by the ply's roll.
  uint64_t perft_turn_rec(const Position& pos, int depth, bool ordered, int first_turn, int ply,
                          CancelPoll* poll, DiceCarry carried = {}) {
    if (depth == 0) return 1;
    if (V::finished(pos, rules_)) return 0;
    if (poll) (*poll)();
    if (carried.left != 0) {
      TurnList& plays = *carried_lists_[depth];
      seq_->generate(pos, carried.die, carried.die, carried_turn(carried.left), plays);
      if (plays.empty()) return perft_turn_rec(pos, depth, ordered, first_turn, ply, poll);
      uint64_t total = 0;
      for (size_t i = 0; i < plays.size(); ++i)
        total += perft_turn_rec(plays[i].result, depth, ordered, first_turn, ply, poll);
      return total;
    }
    const int turn = nardy::turn_at(policy_, first_turn, ply);
    TurnList& list = *turn_lists_[depth];
    uint64_t total = 0;
    for (const Roll& r : rolls(ordered)) {
      seq_->generate(pos, r.d1, r.d2, turn, list);
      uint64_t sub = 0;
      if (depth == 1) {
        sub = list.empty() ? 1 : list.size();
      } else if (list.empty()) {
        sub = perft_turn_rec(pos.swapped(), depth - 1, ordered, first_turn, ply + 1, poll);
      } else {
        // A move followed by another roll of the same player: the next ply is that roll.
        const DiceCarry left = policy_carry(r.d1, r.d2, turn, list.dice_played());
        for (size_t i = 0; i < list.size(); ++i)
          sub += perft_turn_rec(list[i].again ? list[i].result : list[i].result.swapped(),
                                depth - 1, ordered, first_turn, ply + 1, poll, left);
      }
      total += sub * static_cast<uint64_t>(r.weight);
    }
    return total;
  }

  static constexpr bool kSequences = HasDiceSequence<P> || HasDiceChoices<P>;

  // (carry() without the virtual call, for the loops here)
  DiceCarry policy_carry(int d1, int d2, int turn, int played) const noexcept {
    if constexpr (requires { policy_.carry(d1, d2, turn, played); }) {
      return policy_.carry(d1, d2, turn, played);
    } else {
      return {};
    }
  }
  // the random stream of a trial's carried plays (apart from its dice and moves)
  static constexpr uint64_t kCarriedStream = 0x6361727269656421ull;

  Rules rules_;
  P policy_;
  Enumerator<P> enum_;
  // Turns of several rolls (only for policies that have them)
  std::unique_ptr<SequenceEnumerator<P>> seq_ =
      kSequences ? std::make_unique<SequenceEnumerator<P>>(policy_) : nullptr;
  std::array<std::array<bool, 7>, 7> sequence_rolls_ = sequence_rolls();  // (after policy_)
  TurnList turn_list_;
  MoveList turn_scratch_;
  std::vector<std::unique_ptr<TurnList>> turn_lists_;  // one per perft depth
  std::vector<std::unique_ptr<TurnList>> carried_lists_;  // a carried play's, per depth
  int seq_turn_start_ = -1;
  P step_policy_;                                   // under V::step_rules(rules_)
  std::vector<std::unique_ptr<MoveList>> scratch_;  // one list per perft depth
};

}  // namespace nardy
