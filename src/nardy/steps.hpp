// A turn played one checker step at a time, over a fixed action space with exact masks.
//
// Learning agents with a policy network want the same actions in every position: here an
// action is one checker step (from, to[, hit]) and a turn is a sequence of them. The mask of a
// partial turn allows exactly the steps that extend it to one of the legal complete moves the
// enumerator lists (every rule of the variant, the whole-turn ones included: the most dice,
// the larger die, head and block limits, ...), in whatever order the variant's own step rules
// allow those steps to be made, not only in the order the enumerator reports.
//
// How: the legal results come from the enumerator; the steps come from the variant's policy
// (begin_turn / sources / for_each_step / final_ok, as the enumerator uses them), searched in
// every order of the dice, and a partial turn is kept only while some continuation ends on a
// legal result with the legal number of dice. Which die a step used is not part of the action
// (a checker borne off by either die of a roll is one action), so a partial turn is a set of
// policy states, each with the dice it has left; every state of the set stands on the same
// position.
//
// Action index, the same for every position of a variant (StepSpace):
//   ((from * 25 + to) * H + hit)  for from in 0..24 (24: entering), to in 0..24 (24: borne
//                                 off), hit in 0..H-1 where H = 2 when the variant tells steps
//                                 apart by Step::hit (the same from/to may or may not hit),
//                                 else 1 (the position decides);
//   25 * 25 * H                   pass: the only action of a turn without a legal move;
//   25 * 25 * H + d, d = 1..6      in variants where the player names dice (dice_choices:
//                                 Acey-deucey's 1-2): name the double d-d. It is the decision
//                                 after the steps of the group before the named one (the 1-2
//                                 played in full), allowed for each double whose choice has a
//                                 legal move from there; the double's steps follow. A turn's
//                                 moves are then told apart by (result, named double), and
//                                 named() / again() report both once the turn is done.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

#include "nardy/enumerator.hpp"
#include "nardy/movelist.hpp"
#include "nardy/position.hpp"

namespace nardy {

class StepSpace {
 public:
  static constexpr int kFroms = 25;  // points 0..23, then kEnterFrom
  static constexpr int kTos = 25;    // points 0..23, then borne off

  constexpr explicit StepSpace(bool hit_flag = false, bool names_dice = false) noexcept
      : hits_(hit_flag ? 2 : 1), names_(names_dice) {}

  [[nodiscard]] constexpr int size() const noexcept {
    return kFroms * kTos * hits_ + 1 + (names_ ? 6 : 0);
  }
  [[nodiscard]] constexpr int pass() const noexcept { return kFroms * kTos * hits_; }
  [[nodiscard]] constexpr bool hit_flag() const noexcept { return hits_ == 2; }
  [[nodiscard]] constexpr bool names_dice() const noexcept { return names_; }
  // The action naming the double d-d (1..6), in variants where the player names dice.
  [[nodiscard]] constexpr int name_action(int d) const noexcept { return pass() + d; }
  // The die an action names, 0 for a step or the pass.
  [[nodiscard]] constexpr int named_die(int action) const noexcept {
    return names_ && action > pass() && action < size() ? action - pass() : 0;
  }

  [[nodiscard]] constexpr int encode(Step s) const noexcept {
    const int to = s.to < 0 ? kTos - 1 : s.to;
    return (s.from * kTos + to) * hits_ + (hits_ == 2 ? s.hit : 0);
  }
  // The step of an action below pass() (hit 0 when the variant has no hit flag).
  [[nodiscard]] constexpr Step decode(int action) const noexcept {
    const int hit = action % hits_;
    const int rest = action / hits_;
    const int to = rest % kTos;
    return Step{static_cast<int8_t>(rest / kTos), static_cast<int8_t>(to == kTos - 1 ? kBearOffTo : to),
                static_cast<uint8_t>(hit)};
  }

 private:
  int hits_;
  bool names_;
};

// One turn in progress. Made by Engine::step_turn(); reusable for any number of turns (its
// scratch memory is kept). Not thread-safe: one per thread (or per game).
class StepTurn {
 public:
  virtual ~StepTurn() = default;

  [[nodiscard]] const StepSpace& space() const noexcept { return space_; }

  // Starts the turn of `pos` (the mover's perspective) for the roll (dice 1..6). `turn` 0:
  // the moves of the roll as Engine::generate lists them; else the mover's turn number
  // (kLateTurn: past the opening rules), for the whole turn the roll gives in variants with
  // dice sequences, as Engine::generate_turn lists it (one roll's dice elsewhere).
  virtual void begin(const Position& pos, int d1, int d2, int turn) = 0;
  void begin(const Position& pos, int d1, int d2) { begin(pos, d1, d2, 0); }

  // Writes space().size() bytes, 1 for each legal action; returns their number (>= 1 until
  // done()).
  virtual int mask(uint8_t* out) = 0;
  // The same mask, and the legal actions appended to `list` in ascending order (a vector env
  // hands both out: the list spares its callers a scan of the mask); returns their number.
  virtual int mask_and_list(uint8_t* out, std::vector<int32_t>& list) = 0;
  // The legal actions, ascending.
  virtual void legal(std::vector<int>& out) = 0;
  // Plays an action; false (nothing changed) when it is not legal now.
  virtual bool play(int action) = 0;
  // Takes back the last action played (false when none was).
  virtual bool undo() = 0;

  // The turn is complete: position() is the move's result (the position before when the turn
  // passed).
  [[nodiscard]] bool done() const noexcept { return done_; }
  // The position after the steps played so far (mover's perspective, not swapped).
  [[nodiscard]] const Position& position() const noexcept { return pos_; }
  // Steps played so far, and the steps of every legal move of the turn (0 when it passes).
  [[nodiscard]] int played() const noexcept { return played_; }
  [[nodiscard]] int length() const noexcept { return length_; }
  // The results of the legal complete moves, in the enumerator's order. (A turn whose every
  // die can be played is listed only when this is first asked: its masks need no list.)
  [[nodiscard]] const std::vector<Position>& results() const {
    if (!results_ready_) list_results();
    return results_list_;
  }
  // Once done: the double the move named (0: none) and whether the same player rolls again
  // after it (TurnMove::named / again).
  [[nodiscard]] int named() const noexcept { return named_; }
  [[nodiscard]] bool again() const noexcept { return again_; }

 protected:
  explicit StepTurn(StepSpace space) : space_(space) {}

  StepSpace space_;
  Position pos_{};
  bool done_ = true;
  int played_ = 0;
  int length_ = 0;
  int named_ = 0;
  bool again_ = false;
  mutable bool results_ready_ = true;
  mutable std::vector<Position> results_list_;

 private:
  virtual void list_results() const = 0;
};

namespace detail {

// (position, tag) -> value, open addressing, cleared in O(1). A turn's table starts small on
// every clear however large an earlier turn made it: a table sized for the biggest turn seen
// would put each lookup of an ordinary turn on a cold cache line.
class TaggedPositionTable {
 public:
  TaggedPositionTable() { slots_.resize(kStart); }
  void clear() noexcept {
    size_ = 0;
    mask_ = kStart - 1;
    bump();
  }
  // The value stored for (p, tag), or -1.
  [[nodiscard]] int find(const Position& p, uint64_t tag) const noexcept {
    for (size_t i = mix(p, tag) & mask_;; i = (i + 1) & mask_) {
      const Slot& s = slots_[i];
      if (s.generation != generation_) return -1;
      if (s.tag == tag && s.pos == p) return s.value;
    }
  }
  void put(const Position& p, uint64_t tag, int value) {
    if ((size_ + 1) * 2 > mask_ + 1) grow();
    for (size_t i = mix(p, tag) & mask_;; i = (i + 1) & mask_) {
      Slot& s = slots_[i];
      if (s.generation != generation_) {
        s = Slot{p, tag, generation_, value};
        ++size_;
        return;
      }
      if (s.tag == tag && s.pos == p) {
        s.value = value;
        return;
      }
    }
  }

 private:
  static constexpr size_t kStart = 256;
  struct Slot {
    Position pos{};
    uint64_t tag = 0;
    uint32_t generation = 0;
    int32_t value = 0;
  };
  static uint64_t mix(const Position& p, uint64_t tag) noexcept {
    return p.hash() ^ (tag * 0x9E3779B97F4A7C15ull) ^ (tag >> 29);
  }
  void bump() noexcept {
    if (++generation_ == 0) {  // wrapped: old stamps could alias the new generation
      for (Slot& s : slots_) s = Slot{};
      generation_ = 1;
    }
  }
  void grow() {
    live_.clear();
    for (size_t i = 0; i <= mask_; ++i)
      if (slots_[i].generation == generation_) live_.push_back(slots_[i]);
    const size_t cap = 2 * (mask_ + 1);
    if (slots_.size() < cap) slots_.resize(cap);
    mask_ = cap - 1;
    bump();
    size_ = 0;
    for (const Slot& s : live_) put(s.pos, s.tag, s.value);
  }
  std::vector<Slot> slots_, live_;
  size_t mask_ = kStart - 1;
  size_t size_ = 0;
  uint32_t generation_ = 1;
};

// The tables of the turn being worked on, one set a thread, shared by every StepTurn of the
// thread: a vector env steps hundreds of turns in turn, and tables of their own would meet
// each of them on cold cache lines.
struct StepTables {
  TaggedPositionTable memo;     // reaches() of the owner's nodes
  uint64_t owner = 0;           // serial of the turn whose entries these are (0: none)
};

inline StepTables& step_tables() {
  thread_local StepTables tables;
  return tables;
}

inline uint64_t next_turn_serial() noexcept {
  static std::atomic<uint64_t> counter{0};
  return counter.fetch_add(1, std::memory_order_relaxed) + 1;
}

}  // namespace detail

// The turn of policy P. `hit_flag`: the variant tells steps apart by Step::hit.
template <class P>
class StepTurnImpl final : public StepTurn {
 public:
  using State = typename P::State;

  StepTurnImpl(const P& policy, bool hit_flag)
      : StepTurn(StepSpace(hit_flag, HasDiceChoices<P>)), policy_(policy), enum_(policy_) {}

  using StepTurn::begin;
  void begin(const Position& pos, int d1, int d2, int turn) override {
    if (d1 < 1 || d1 > 6 || d2 < 1 || d2 > 6)
      throw std::invalid_argument("dice must be integers from 1 to 6");
    if (turn < 0 && !carried_ok(d1, d2, turn))
      throw std::invalid_argument(
          "turn must be >= 0 (or -1..-4 with a double, where the rules pass the dice a "
          "stopped cascade left to the opponent)");
    pos_ = pos;
    played_ = 0;
    done_ = false;
    nodes_.clear();
    level_start_.clear();
    cand_valid_ = false;
    results_list_.clear();
    choice_results_.clear();
    named_ = 0;
    again_ = false;
    n_choices_ = 1;
    results_ready_ = true;
    choices_[0] = Choice{};
    choices_[0].groups[0] = DiceGroup{d1, d2};
    bool listed = false;
    const int t = turn < kLateTurn ? turn : kLateTurn;
    if constexpr (HasDiceSequence<P>) {
      if (turn != 0) {
        Choice& c = choices_[0];
        c.n = policy_.dice_sequence(d1, d2, t, c.groups);
        if (!seq_) seq_ = std::make_unique<SequenceEnumerator<P>>(policy_);
        c.dice = 0;
        for (int g = 0; g < c.n; ++g) c.dice += c.groups[g].size();
        length_ = seq_->most_dice(pos, d1, d2, t);
        c.length = length_;
        c.full = length_ == c.dice;
        if (c.full) {
          defer_results(pos, d1, d2, t);  // (a cascade can have millions of results)
        } else {
          seq_->generate(pos, d1, d2, t, turn_list_);
          for (const TurnMove& m : turn_list_) {
            results_list_.push_back(m.result);
            choice_results_.emplace_back(m.result, 0);
          }
        }
        listed = true;
      }
    } else if constexpr (HasDiceChoices<P>) {
      if (turn > 0) {
        // every choice of dice on its own (a named double: its own moves and length). A
        // choice that plays every die needs no list: any sequence of legal steps playing them
        // all is one of its moves. The others are listed, as SequenceEnumerator::generate lists
        // them; the turn's whole list is made only when results() asks.
        DiceChoice dc[kMaxChoices];
        n_choices_ = policy_.dice_choices(d1, d2, t, dc);
        if (!seq_) seq_ = std::make_unique<SequenceEnumerator<P>>(policy_);
        length_ = 0;
        for (int k = 0; k < n_choices_; ++k) {
          Choice& c = choices_[k];
          c = Choice{};
          for (int g = 0; g < dc[k].n; ++g) c.groups[g] = dc[k].groups[g];
          c.n = dc[k].n;
          c.named = dc[k].named;
          c.named_from = dc[k].named_from;
          c.again = dc[k].again;
          c.dice = dc[k].dice();
          c.length = seq_->most_dice_groups(pos, c.groups, c.n);
          c.full = c.length == c.dice;
          if (!c.full && c.length > 0) {
            seq_->generate_groups(pos, dc[k].groups, dc[k].n, choice_list_, dc[k].named,
                                  dc[k].named_from);
            for (const TurnMove& m : choice_list_) choice_results_.emplace_back(m.result, k);
          }
          length_ = std::max(length_, c.length);
        }
        defer_results(pos, d1, d2, t);
        listed = true;
      }
    }
    if (!listed) {
      enum_.generate(pos, d1, d2, list_);
      length_ = list_.empty() ? 0 : enum_.dice_played();
      choices_[0].length = length_;
      for (const Move& m : list_) {
        results_list_.push_back(m.result);
        choice_results_.emplace_back(m.result, 0);
      }
    }
    if (!listed) {
      choices_[0].dice = 0;
      for (int g = 0; g < choices_[0].n; ++g) choices_[0].dice += choices_[0].groups[g].size();
    }
    level_start_.push_back(0);
    level_depth_.assign(1, 0);
    if (length_ == 0) return;  // one action: pass
    result_hashes_.clear();
    for (size_t k = 0; k < choice_results_.size(); ++k)
      result_hashes_.emplace_back(choice_results_[k].first.hash(),
                                  static_cast<uint32_t>(choice_results_[k].second),
                                  static_cast<uint32_t>(k));
    std::sort(result_hashes_.begin(), result_hashes_.end());
    serial_ = detail::next_turn_serial();
    acquire();
    for (int k = 0; k < n_choices_; ++k)
      if (choices_[k].length > 0) nodes_.push_back(first_node(pos, k, 0, 0));
  }

  int mask(uint8_t* out) override {
    std::fill(out, out + space_.size(), uint8_t{0});
    if (done_) return 0;
    if (length_ == 0) {
      out[space_.pass()] = 1;
      return 1;
    }
    expand();
    int n = 0;
    for (const auto& c : cand_)
      if (!out[c.action]) {
        out[c.action] = 1;
        ++n;
      }
    return n;
  }

  int mask_and_list(uint8_t* out, std::vector<int32_t>& list) override {
    const int n = mask(out);
    if (done_) return 0;
    const size_t at = list.size();
    if (length_ == 0) {
      list.push_back(space_.pass());
      return 1;
    }
    // the candidates hold each action once per node it leads to: the mask tells the first
    for (const auto& c : cand_)
      if (out[c.action] == 1) {
        list.push_back(c.action);
        out[c.action] = 2;
      }
    for (size_t k = at; k < list.size(); ++k) out[list[k]] = 1;
    std::sort(list.begin() + static_cast<std::ptrdiff_t>(at), list.end());
    return n;
  }

  void legal(std::vector<int>& out) override {
    scratch_mask_.resize(space_.size());
    scratch_list_.clear();
    mask_and_list(scratch_mask_.data(), scratch_list_);
    out.assign(scratch_list_.begin(), scratch_list_.end());
  }

  bool play(int action) override {
    if (done_ || action < 0 || action >= space_.size()) return false;
    if (length_ == 0) {
      if (action != space_.pass()) return false;
      done_ = true;
      return true;
    }
    if (action == space_.pass()) return false;
    expand();
    const size_t at = nodes_.size();
    int depth = 0;
    for (const auto& c : cand_) {
      if (c.action != action) continue;
      if (nodes_.size() > at && !(c.node.s.pos == nodes_[at].s.pos))
        throw std::logic_error("one step action leads to two positions");
      nodes_.push_back(c.node);
      depth = c.depth;
    }
    if (nodes_.size() == at) return false;
    level_start_.push_back(static_cast<uint32_t>(at));
    level_depth_.push_back(depth);
    cand_valid_ = false;
    pos_ = nodes_[at].s.pos;
    ++played_;
    done_ = false;
    for (size_t k = at; k < nodes_.size() && !done_; ++k) {
      const Node& n = nodes_[k];
      const Choice& c = choices_[n.choice];
      if (depth != c.length || owes_name(n)) continue;
      done_ = true;
      named_ = c.named && n.group >= c.named_from ? c.named : 0;
      again_ = c.again && depth == c.dice;
    }
    return true;
  }

  bool undo() override {
    if (length_ == 0) {
      if (!done_) return false;
      done_ = false;
      return true;
    }
    if (played_ == 0) return false;
    nodes_.resize(level_start_.back());
    level_start_.pop_back();
    level_depth_.pop_back();
    cand_valid_ = false;
    named_ = 0;
    again_ = false;
    --played_;
    done_ = false;
    pos_ = nodes_[level_start_.back()].s.pos;
    return true;
  }

 private:
  struct Node {
    State s;
    uint32_t dice;  // dice left in the group: a nibble per face, face f at bits 4f..4f+3
    int start;      // which start state of begin_turn the node descends from
    int group;      // which group of dice of the turn is being played
    int choice;     // which choice of dice (a named double) the node plays
  };

  // One way to play the roll (DiceChoice; the roll itself in other variants) and the dice
  // its legal moves play.
  struct Choice {
    DiceGroup groups[kMaxGroups];
    int n = 1;
    int named = 0;
    int named_from = 0;
    bool again = false;
    int dice = 0;    // every die of its groups
    int length = 0;  // dice its legal moves play (0: none)
    bool full = false;  // its moves play every die (it is not listed)
  };

  // The node has played its choice's group before the named one in full: the next action
  // names the double.
  bool owes_name(const Node& n) const noexcept {
    const Choice& c = choices_[n.choice];
    return c.named != 0 && n.dice == 0 && n.group + 1 == c.named_from;
  }

  // Whether `turn` (< 0) is a play of dice a stopped cascade left (carried_turn) that the
  // policy's rules have.
  bool carried_ok(int d1, int d2, int turn) const noexcept {
    if constexpr (requires { policy_.carry(1, 1, 1, 1); }) {
      return d1 == d2 && turn >= -4 && policy_.carry(d1, d2, kLateTurn, 1).left != 0;
    } else {
      return false;
    }
  }

  static uint32_t group_dice(const DiceGroup& g) noexcept {
    return g.d1 == g.d2 ? static_cast<uint32_t>(g.size()) << (4 * g.d1)
                        : (1u << (4 * g.d1)) + (1u << (4 * g.d2));
  }

  // The start of group `group` from `pos`, `depth` steps into the turn: the enumerator keeps
  // the moves of the first start state that plays the most dice.
  Node first_node(const Position& pos, int choice, int group, int depth) {
    State starts[2];
    const DiceGroup g = choices_[choice].groups[group];
    const int n_starts = policy_.begin_turn(pos, g.d1, g.d2, starts);
    const uint32_t dice = group_dice(g);
    int winner = 0;
    for (int k = 0; k + 1 < n_starts; ++k, ++winner)
      if (reaches(Node{starts[k], dice, k, group, choice}, depth, false)) break;
    return Node{starts[winner], dice, winner, group, choice};
  }

  // Calls f(next, action, dice) for every single step the policy allows from the node with a
  // die left (dice 1; at the end of a group played in full: the next group's first steps, or
  // the action naming the next group's double, dice 0).
  template <class F>
  void children(const Node& node, F&& f) {
    if (node.dice == 0) {
      const Choice& c = choices_[node.choice];
      if (node.group + 1 >= c.n || !policy_.final_ok(node.s)) return;
      const Node next = first_node(node.s.pos, node.choice, node.group + 1, played_depth_);
      if (owes_name(node)) {
        f(next, space_.name_action(c.named), 0);
        return;
      }
      children(next, f);
      return;
    }
    for (int die = 1; die <= 6; ++die) {
      if (!(node.dice >> (4 * die) & 0xFu)) continue;
      const uint32_t left = node.dice - (1u << (4 * die));
      for (uint32_t src = policy_.sources(node.s, die); src; src &= src - 1) {
        const int from = std::countr_zero(src);
        policy_.for_each_step(node.s, from, die, [&](const State& next, Step st) {
          f(Node{next, left, node.start, node.group, node.choice}, space_.encode(st), 1);
        });
      }
    }
  }

  // The turn's results, listed when results() first asks (begin() did not need them).
  void defer_results(const Position& pos, int d1, int d2, int turn) {
    results_ready_ = false;
    deferred_ = {pos, d1, d2, turn};
  }
  void list_results() const override {
    if constexpr (HasDiceSequence<P> || HasDiceChoices<P>) {
      seq_->generate(deferred_.pos, deferred_.d1, deferred_.d2, deferred_.turn, deferred_list_);
      results_list_.clear();
      for (const TurnMove& m : deferred_list_) results_list_.push_back(m.result);
      deferred_list_.clear();
    }
    results_ready_ = true;
  }

  // The memo's tag of a node: every field packed without overlap, the policy's 32-bit state
  // tag on top (a tag bit cut off would let two different states share an entry).
  uint64_t key(const Node& node, int depth, bool need_result) const noexcept {
    uint64_t tag = 0;
    if constexpr (requires(const P& p, const State& s) { p.state_tag(s); })
      tag = static_cast<uint64_t>(static_cast<uint32_t>(policy_.state_tag(node.s)));
    uint64_t dice = 0;  // the dice left, 3 bits a face (at most four of one)
    for (int f = 1; f <= 6; ++f) dice |= uint64_t{(node.dice >> (4 * f)) & 7u} << (3 * (f - 1));
    static_assert(kMaxGroups <= 8 && kMaxTurnSteps < 32 && kMaxChoices <= 8);
    return dice | uint64_t(node.group & 7) << 18 | uint64_t(node.start & 1) << 21 |
           uint64_t(need_result) << 22 | uint64_t(depth & 0x1F) << 23 |
           uint64_t(node.choice & 7) << 28 | tag << 31;
  }

  // Whether some continuation of the node ends a move of its choice's length: on one of the
  // choice's legal results (need_result) or just one the policy accepts (the most-dice test of
  // a start state).
  bool reaches(const Node& node, int depth, bool need_result) {
    const Choice& c = choices_[node.choice];
    need_result = need_result && !c.full;  // (a choice playing every die has no list)
    if (depth == c.length && !owes_name(node))
      return policy_.final_ok(node.s) && (!need_result || is_result(node.s.pos, node.choice));
    if (depth > c.length || (node.dice == 0 && node.group + 1 >= c.n)) return false;
    const uint64_t k = key(node, depth, need_result);
    const int known = w_->memo.find(node.s.pos, k);
    if (known >= 0) return known == 1;
    bool ok = false;
    const int saved = played_depth_;
    played_depth_ = depth;
    children(node, [&](const Node& next, int, int dice) {
      if (!ok) ok = reaches(next, depth + dice, need_result);
    });
    played_depth_ = saved;
    w_->memo.put(node.s.pos, k, ok ? 1 : 0);
    return ok;
  }

  // Makes the thread's memo of reaches() hold this turn's entries (kept while the same turn
  // keeps the table, emptied after another turn used it).
  void acquire() {
    detail::StepTables& w = detail::step_tables();
    w_ = &w;
    if (w.owner == serial_) return;
    w.owner = serial_;
    w.memo.clear();
  }

  // Whether p is one of the legal results: their hashes sorted (a few cache lines a turn, read
  // again on every call of a vector env), then the position itself.
  bool is_result(const Position& p, int choice) const noexcept {
    const uint64_t h = p.hash();
    const uint32_t c = static_cast<uint32_t>(choice);
    auto it = std::lower_bound(result_hashes_.begin(), result_hashes_.end(),
                               std::tuple<uint64_t, uint32_t, uint32_t>{h, c, 0});
    for (; it != result_hashes_.end() && std::get<0>(*it) == h && std::get<1>(*it) == c; ++it)
      if (choice_results_[std::get<2>(*it)].first == p) return true;
    return false;
  }

  // The steps of the current level's nodes that extend to a legal move, each with the node it
  // leads to (kept until the level changes: mask() and play() share them).
  void expand() {
    if (cand_valid_) return;
    acquire();
    cand_.clear();
    const int depth = level_depth_.back();
    played_depth_ = depth;
    const size_t end = nodes_.size();
    for (size_t k = level_start_.back(); k < end; ++k) {
      const Node node = nodes_[k];  // (a copy: nodes_ does not grow here, but stays safe)
      children(node, [&](const Node& next, int action, int dice) {
        if (reaches(next, depth + dice, true)) cand_.push_back(Cand{action, next, depth + dice});
      });
    }
    cand_valid_ = true;
  }

  P policy_;
  Enumerator<P> enum_;
  MoveList list_;
  std::unique_ptr<SequenceEnumerator<P>> seq_;  // variants with dice sequences only
  TurnList turn_list_;
  struct Deferred {
    Position pos{};
    int d1 = 0, d2 = 0, turn = 0;
  } deferred_;                            // the turn results() lists on demand
  mutable TurnList deferred_list_;
  int played_depth_ = 0;  // steps before the node children() expands (a new group's start)
  struct Cand {
    int action;
    Node node;
    int depth;  // dice played once it is made
  };
  std::vector<Node> nodes_;             // the node sets after 0, 1, ... steps, one after the other
  std::vector<uint32_t> level_start_;   // where each of those sets starts in nodes_
  std::vector<Cand> cand_;
  bool cand_valid_ = false;
  // (hash, choice, index in choice_results_), sorted
  std::vector<std::tuple<uint64_t, uint32_t, uint32_t>> result_hashes_;
  std::vector<std::pair<Position, int>> choice_results_;  // each choice's legal results
  std::vector<int> level_depth_;  // dice played at each level
  Choice choices_[kMaxChoices];
  int n_choices_ = 1;
  TurnList choice_list_;
  uint64_t serial_ = 0;                // this turn's number (detail::next_turn_serial)
  detail::StepTables* w_ = nullptr;    // the thread's tables, holding this turn's entries
  std::vector<uint8_t> scratch_mask_;
  std::vector<int32_t> scratch_list_;
};

}  // namespace nardy
